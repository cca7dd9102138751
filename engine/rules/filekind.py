"""Telling a file that is no ruleset (or no extension file) from a broken one.

Naming the wrong file (a text file, a program, a saved game, a JSON schema...) should get one
line saying what the file is not and what the right one looks like, not a list of complaints
about its content or its first line quoted back. A file that has at least one of the expected
sections (or, for half of its keys, a near miss of one) is taken for a broken ruleset, and its
mistakes are reported one by one, with a "did you mean".
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

from ..core.errors import Diagnostic, Location
from .schema import EXTENSION, RULESET, load_schema
from .yamlload import EMPTY, SYNTAX, SourceMap

SECTIONS = {name: tuple(load_schema(name)["properties"]) for name in (RULESET, EXTENSION)}
SHAPE = {
    RULESET: "a ruleset is YAML text with the sections game: (name, players), zones:, flow: and "
             "scoring:, and usually card_kinds: and cards: (see docs/guide.md)",
    EXTENSION: "an extension file is YAML text with cards: to add and remove_cards: to take out, "
               "and constants:, counters:, functions: and procedures: of its own if its cards need them "
               "(see docs/reference.md, Extension files)",
}
WHAT = {RULESET: "a ruleset", EXTENSION: "an extension file"}


def _starts_with_section(text: str, schema: str) -> bool:
    """Whether the first key of the text (after comments, `---` and any opening `{`) is one of
    the sections, or nearly: a broken ruleset still starts like one, prose and programs do not."""
    lines = [line for line in text.splitlines()
             if line.strip() and not line.lstrip().startswith(("#", "---", "%"))]
    first = re.match(r"""[\s{\[]*["']?([A-Za-z_]\w*)["']?\s*:(\s|$)""", "\n".join(lines[:3]))
    return first is not None and bool(difflib.get_close_matches(first.group(1), SECTIONS[schema], n=1))


def _what_it_is(data: Any) -> str:
    if isinstance(data, list):
        return "it is a list, not a mapping of sections"
    if isinstance(data, str):
        return "it is plain text, not a mapping of sections"
    return "it is a single value, not a mapping of sections"


def wrong_file(file: str, raw: bytes, data: Any, smap: SourceMap, problems: list[Diagnostic],
               schema: str) -> Diagnostic | None:
    """One diagnostic when the file read (its bytes, its data or the problems reading it) is not
    the kind of file `schema` describes at all; None when it is, or may be, one."""
    def say(reason: str, where: Location = Location(file, 1, 1)) -> Diagnostic:
        return Diagnostic(where, f"this is not {WHAT[schema]} ({reason}); {SHAPE[schema]}")

    if b"\x00" in raw:
        return say("it is a binary file, not text", Location(file))
    if data is None:
        if [p.message for p in problems] == [EMPTY]:
            return say("the file is empty")
        if not problems:
            return say("it holds nothing")
        if not all(p.message.startswith(SYNTAX) for p in problems):  # a limit, or not UTF-8: as it is
            return None
        if not _starts_with_section(raw.decode("utf-8-sig"), schema):
            return say("it is not YAML and has no section of one")
        return None
    if problems:  # limits passed, duplicate keys: what the file holds is not known whole
        return None
    if not isinstance(data, dict):
        return say(_what_it_is(data))
    keys = [str(k) for k in data]
    if schema == RULESET and str(data.get("format", "")).startswith("engine-save"):
        return Diagnostic(Location(file, 1, 1), "this is a saved game, not a ruleset: continue it with "
                          f"'engine play --resume {file}' or check it with 'engine replay {file}'")
    if schema == RULESET and keys and set(keys) <= set(SECTIONS[EXTENSION]) and "game" not in keys:
        return Diagnostic(Location(file, 1, 1), "this is an extension file (cards to add to a ruleset), "
                          f"not a ruleset: load it with the ruleset it is for, e.g. "
                          f"'engine validate RULESET --with {file}'")
    if schema == EXTENSION and "game" in keys:
        return Diagnostic(smap.at(("game",), key=True), "this is a ruleset, not an extension file: name it "
                          f"without --with; {SHAPE[EXTENSION]}")
    near = [k for k in keys if difflib.get_close_matches(k, SECTIONS[schema], n=1)]
    if not any(k in SECTIONS[schema] for k in keys) and len(near) * 2 < max(len(keys), 1):
        shown = ", ".join(keys[:5]) + (", ..." if len(keys) > 5 else "")
        if keys or schema == RULESET:  # an empty extension adds nothing, as it always did
            return say(f"none of its keys ({shown}) is a section of one" if keys else "it is an empty mapping")
    return None


def directory_hint(path: Path) -> str:
    """What to name instead of a directory: one of its .yaml files, if it has some."""
    try:
        found = sorted(p.name for p in path.iterdir() if p.suffix in (".yaml", ".yml"))
    except OSError:
        found = []
    if not found:
        return "it is a directory; name a ruleset's .yaml file"
    shown = ", ".join(str(path / n) for n in found[:3]) + (", ..." if len(found) > 3 else "")
    return f"it is a directory; name one of its .yaml files: {shown}"

"""What `engine info` tells about a ruleset before anyone plays it.

`facts` gathers the facts once, as plain data (what `--json` prints); `render_info` lays the
same facts out as text for a terminal, so the two can never tell different things.
"""
from __future__ import annotations

import os
import re
import textwrap
from collections import Counter
from collections.abc import Mapping
from typing import Any

from .ruleset import OptionSpec, Ruleset

WIDTH = 80  # a terminal of 80 columns, the narrowest a person is likely to read it at
INDENT = "  "
LONG = 4  # lines of text at most for one constant
SHORT_NOTES = 8  # lines of comments at the top of a file shown in full


def facts(rs: Ruleset) -> dict[str, Any]:
    """The ruleset's players, options, cards, zones, boards, bot settings and constants, as JSON data."""
    counts = Counter(card.kind for card in rs.cards)
    return {
        "name": rs.name,
        "description": rs.description,
        "source": rs.source,
        "path": rs.path,
        "extensions": list(rs.extensions),
        "players": list(rs.players),
        "options": [_option(spec, rs.players) for spec in rs.options.values()],
        "cards": {"total": len(rs.cards),
                  "kinds": [{"kind": kind, "count": counts[kind], "description": description,
                             "text": rs.kind_texts.get(kind, "")}
                            for kind, description in rs.card_kinds.items()]},
        "zones": [{"name": z.name, "per": list(z.per) if isinstance(z.per, tuple) else z.per,
                   "visibility": z.visibility, "description": z.description} for z in rs.zones.values()],
        "boards": [{"name": b.name, "layout": b.layout, "places": len(b), "description": b.description}
                   for b in rs.boards.values()],
        "bots": {kind: dict(params) for kind, params in rs.bots.items()},
        "heuristic": rs.heuristic is not None,
        "breakdown": list(rs.breakdown),
        "constants": {name: _plain(value) for name, value in rs.constants.items()},
        "notes": notes(rs.path),
    }


def notes(path: str) -> str:
    """The comments at the top of a ruleset file, where rulesets tell their sources and the
    choices they made (an editor's `# yaml-language-server:` line left out); "" if none."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = []
            for line in f:
                if line.strip() and not line.startswith("#"):
                    break
                head.append(line.rstrip())
    except OSError:
        return ""
    text = [line[2:] if line.startswith("# ") else line[1:] for line in head
            if not line.startswith("# yaml-language-server:")]
    return "\n".join(text).strip("\n")


def _option(spec: OptionSpec, players: list[int]) -> dict[str, Any]:
    """One option; `values` is None when any value of its type is allowed."""
    values = spec.values if spec.values is not None else [True, False] if isinstance(spec.default, bool) else None
    return {"name": spec.name, "default": spec.default, "values": None if values is None else list(values),
            "players": list(spec.players or players), "description": spec.description}


def _plain(value: Any) -> Any:
    """A constant as JSON data: constant lists and read-only tables become lists and dicts."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def render_info(info: dict[str, Any]) -> str:
    """The facts of `facts` as aligned text, at most WIDTH columns wide."""
    lines = [info["name"] + (f" (with {', '.join(info['extensions'])})" if info["extensions"] else "")]
    lines += _wrapped(info["description"], INDENT)
    lines += _wrapped(f"Source: {info['source']}", INDENT, INDENT * 2) if info["source"] else []
    lines += _path_lines(info["path"]) + [f"{INDENT}Players: {_counts(info['players'])}"]
    lines += [f"{INDENT}Score parts: {', '.join(info['breakdown'])}"] if info["breakdown"] else []
    lines += _notes(info["notes"])
    lines += _options(info["options"], info["players"])
    lines += _cards(info["cards"])
    lines += _zones(info["zones"])
    if info["boards"]:
        lines += ["", "Boards:"]
        rows = _table([(b["name"], f"{b['places']} places", f"({b['layout']})") for b in info["boards"]])
        for row, board in zip(rows, info["boards"]):
            lines += [row, *_wrapped(board["description"], INDENT * 3)]
    lines += ["", "Search bots:"]
    lines += [f"{INDENT}{kind}: " + ", ".join(f"{k}={v}" for k, v in params.items())
              for kind, params in info["bots"].items()] or [f"{INDENT}the engine's default settings"]
    lines.append(INDENT + ("judge a game in progress by the ruleset's heuristic (scoring.heuristic)"
                           if info["heuristic"] else "judge a game in progress by its score (no scoring.heuristic)"))
    lines += _constants(info["constants"])
    return "\n".join(lines)


def _notes(notes: str) -> list[str]:
    """Short notes in full, paragraph by paragraph; long ones (where rulesets list their
    chosen values at length) only said to be there."""
    if not notes:
        return []
    count = len(notes.splitlines())
    if count > SHORT_NOTES:
        return [f"{INDENT}Notes: {count} lines of comments at the top of the file (--json gives them)"]
    lines = [f"{INDENT}Notes (the comments at the top of the file):"]
    for paragraph in notes.split("\n\n"):
        lines += _wrapped(paragraph, INDENT * 2)
    return lines


def _counts(players: list[int]) -> str:
    """'3, 4 or 5'."""
    text = [str(n) for n in players]
    return text[0] if len(text) == 1 else f"{', '.join(text[:-1])} or {text[-1]}"


def _options(options: list[dict[str, Any]], players: list[int]) -> list[str]:
    if not options:
        return ["", "Options: none"]
    rows = []
    for o in options:
        allowed = ("any whole number" if isinstance(o["default"], int) else "any text") if o["values"] is None \
            else _values(o["values"])
        who = "" if o["players"] == players else f"only with {_counts(o['players'])} players"
        rows.append((o["name"], f"default {_inline(o['default'])}", f"takes {allowed}", who, o["description"]))
    lines = ["", "Options (set with --option NAME=VALUE):"]
    for row, text in zip(_table([r[:4] for r in rows]), rows):
        lines.append(row)
        lines += _wrapped(text[4], INDENT * 3)
    return lines


def _values(values: list[Any]) -> str:
    text = [_inline(v) for v in values]
    return text[0] if len(text) == 1 else f"{', '.join(text[:-1])} or {text[-1]}"


def _cards(cards: dict[str, Any]) -> list[str]:
    lines = ["", f"Cards: {cards['total']}"]
    rows = _table([(k["kind"], str(k["count"])) for k in cards["kinds"]], right=frozenset({1}))
    for row, kind in zip(rows, cards["kinds"]):
        lines += _wrapped(kind["description"], " " * (len(row) + 2), first=row + "  ") \
            if kind["description"] else [row]
        lines += _wrapped(f'card text: "{kind["text"]}"', " " * (len(row) + 2)) if kind["text"] else []
    return lines


def _zones(zones: list[dict[str, Any]]) -> list[str]:
    """Each zone: one zone, or one for each key ("one per player and colours"), and who sees it."""
    if not zones:
        return []
    per = [("one zone" if z["per"] is None else "one per " + (z["per"] if isinstance(z["per"], str)
                                                              else " and ".join(z["per"])))
           for z in zones]
    rows = _table([(z["name"], p, z["visibility"]) for z, p in zip(zones, per)])
    lines = ["", "Zones:"]
    for row, zone in zip(rows, zones):
        lines += [row, *_wrapped(zone["description"], INDENT * 3)]
    return lines


def _constants(constants: dict[str, Any]) -> list[str]:
    """Each constant with its value: on one line when it fits, else a table entry by line, or wrapped."""
    if not constants:
        return []
    lines = ["", "Constants (the values the rules read):"]
    width = min(max(map(len, constants)), 24)
    for name, value in constants.items():
        head = f"{INDENT}{name:<{width}}  "
        text = _inline(value)
        if len(head) + len(text) <= WIDTH:
            lines.append(head + text)
        elif isinstance(value, dict):
            lines.append(f"{INDENT}{name}:")
            for key, item in value.items():
                lines += _wrapped(_inline(item), INDENT * 3, first=f"{INDENT * 2}{key}: ")
        else:
            lines += _shortened(_wrapped(text, " " * len(head), first=head), value)
    return lines


def _shortened(lines: list[str], value: Any) -> list[str]:
    """At most LONG lines of a long constant, saying how many entries it has in all."""
    if len(lines) <= LONG or isinstance(value, str):
        return lines
    more = f" ... ({len(value)} entries; --json shows all)"
    last = lines[LONG - 1]
    return lines[:LONG - 1] + [last[:WIDTH - len(more)].rstrip(", ") + more]


def _inline(value: Any) -> str:
    """A value as it would be written in YAML flow style: [a, b], {k: v}, true."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return str(value)


def _table(rows: list[tuple[str, ...]], right: frozenset[int] = frozenset()) -> list[str]:
    """Rows with their columns aligned (the columns in `right` to the right), indented once."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))] if rows else []
    return [(INDENT + "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                                for i, (cell, w) in enumerate(zip(row, widths)))).rstrip() for row in rows]


def _path_lines(path: str) -> list[str]:
    """`File: PATH`, relative to the current folder when it lies inside it, broken after a
    separator when it is still wider than WIDTH (a clone at a long path must read whole)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        relative = path
    shown = relative if not relative.startswith(os.pardir) else path
    first, later = f"{INDENT}File: ", INDENT * 3
    lines, line = [], first
    for part in re.findall(r"[^/\\]*[/\\]?", shown):
        if len(line) + len(part) > WIDTH and line.strip() not in ("", "File:"):
            lines.append(line)
            line = later
        line += part
    return lines + [line]


def _wrapped(text: str, indent: str, later: str | None = None, first: str | None = None) -> list[str]:
    """`text` wrapped to WIDTH; the first line starts with `first` (default `indent`), the others
    with `later` (default `indent`). Nothing for an empty text."""
    if not text.strip():
        return []
    return textwrap.wrap(" ".join(text.split()), WIDTH, initial_indent=first if first is not None else indent,
                         subsequent_indent=later if later is not None else indent, break_on_hyphens=False)

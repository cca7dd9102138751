"""Checking ruleset data against the JSON Schema in schemas/, with located, readable errors.

The schemas are plain JSON Schema (Draft 2020-12), so editors check files with them too: the
extension schema takes a card from the ruleset schema by a `$ref` to its file name, which an
editor resolves next to it and the validator through a registry of both files.

Data that passed once is remembered by a digest (of the file's bytes, every schema and the installed
jsonschema and referencing) in the user's cache directory, so checking an unchanged file again costs neither
the check nor importing jsonschema. Data with problems is checked every time.
"""
from __future__ import annotations

import atexit
import hashlib
import importlib.util
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import usercache
from ..core.errors import Diagnostic, Location, suggest
from . import cardtables, resources
from .yamlload import SourceMap

if TYPE_CHECKING:
    import jsonschema

SCHEMA_DIR = resources.SCHEMAS
RULESET = "ruleset.schema.json"
EXTENSION = "extension.schema.json"
SCHEMAS = (RULESET, EXTENSION)  # each one's `$id` is its file name, which `$ref`s use


def schema_path(name: str = RULESET) -> Path:
    """The file of the schema `name`: the one place that knows where the schemas are."""
    return SCHEMA_DIR / name


def write_schemas(directory: Path) -> list[Path]:
    """Copy every schema into `directory` (made if missing), side by side so that the `$ref`s
    between them still resolve there; the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        target = directory / name
        target.write_bytes(schema_path(name).read_bytes())
        written.append(target)
    return written


@lru_cache(maxsize=None)
def load_schema(name: str = RULESET) -> dict:
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator(name: str) -> jsonschema.Draft202012Validator:
    """One validator for each schema, made once and kept: it sets up its resolver of `$ref`s
    on first use, not again for every file."""
    import jsonschema  # here: an unchanged file needs no validator (see _Passed)
    from referencing import Registry, Resource
    registry = Registry().with_resources((other, Resource.from_contents(load_schema(other))) for other in SCHEMAS)
    return jsonschema.Draft202012Validator(load_schema(name), registry=registry)


class _Passed:
    """Digests of the data that passed the schema, kept in the cache directory: read on first
    use, written at exit when this run added some (the newest MAX of them), with those other
    processes saved meanwhile (under the file's lock)."""

    MAX = 2000

    def __init__(self) -> None:
        self.keys: dict[str, None] | None = None
        self.added = False

    def _file(self) -> Path | None:
        directory = usercache.directory()
        return directory / "schema-passed" if directory is not None else None

    def _read(self) -> dict[str, None]:
        if self.keys is None:
            self.keys = {}
            path = self._file()
            data = usercache.read_signed(path) if path is not None else None
            try:
                if data is not None:
                    self.keys = dict.fromkeys(data.decode("ascii").split())
            except UnicodeDecodeError:  # damaged: start afresh
                pass
        return self.keys

    def __contains__(self, key: str) -> bool:
        return key in self._read()

    def add(self, key: str) -> None:
        keys = self._read()
        keys.pop(key, None)
        keys[key] = None
        if not self.added and self._file() is not None:
            self.added = True
            atexit.register(self.save)

    def save(self) -> None:
        path = self._file()
        if path is None:
            return
        with usercache.locked(path):
            mine, self.keys = self._read(), None
            keys = self._read()  # read again: the digests other processes saved meanwhile
            for key in mine:  # this run's last, so kept first
                keys.pop(key, None)
                keys[key] = None
            usercache.write_atomically(path, "\n".join(list(keys)[-self.MAX:]).encode("ascii"))


_PASSED = _Passed()


@lru_cache(maxsize=None)
def _schema_digest(name: str) -> str:
    """What the result of a check depends on besides the data: the schemas (all of them, as
    one refers to another) and the jsonschema and referencing installed (their files' sizes
    and times, read without importing them)."""
    installed = []
    for package in ("jsonschema", "referencing"):
        spec = importlib.util.find_spec(package)
        folder = Path(spec.origin).parent if spec is not None and spec.origin else None
        installed += [(package, f.name, f.stat().st_size, f.stat().st_mtime_ns)
                      for f in sorted(folder.glob("*.py"))] if folder is not None else []
    schemas = [load_schema(other) for other in SCHEMAS]
    return hashlib.sha256(json.dumps([name, schemas, installed]).encode()).hexdigest()


def _digest(raw: bytes, name: str) -> str:
    """The key of a file's check: its bytes, not its loaded data, whose size aliases can multiply."""
    return hashlib.sha256(_schema_digest(name).encode("ascii") + b"\0" + raw).hexdigest()


@lru_cache(maxsize=1)
def _tables_source() -> bytes:
    """The text of the code that makes cards from tables: what a file's made entries depend on
    besides its bytes."""
    return Path(cardtables.__file__).read_bytes()


Rejected = tuple[tuple, list | None]  # the path of a rejected value, or of a mapping and its unknown keys


def schema_problems(data: Any, smap: SourceMap, raw: bytes,
                    name: str = RULESET) -> list[tuple[Diagnostic, Rejected]]:
    """Every schema violation in `data` (loaded from the file's bytes `raw`), each at the
    position of the offending value or key, with what was rejected (so the caller can leave it
    out and check the rest)."""
    digest = _digest(raw, name)
    if digest in _PASSED:
        return []
    problems = []
    for error in _validator(name).iter_errors(data):
        path = tuple(error.absolute_path)
        if _bad_name(error):  # only the badly named entry is left out, not its whole section
            rejected: Rejected = (path, [error.instance])
        elif error.validator == "additionalProperties":
            rejected = (path, [k for k in error.instance if k not in error.schema.get("properties", {})])
        elif error.validator == "required":
            rejected = (path, [])
        else:
            rejected = (path, None)
        problems.extend((d, rejected) for d in _explain(error, smap))
    if not problems:
        _PASSED.add(digest)
    return problems


@lru_cache(maxsize=None)
def _entry_validator() -> jsonschema.Draft202012Validator:
    import jsonschema
    from referencing import Registry, Resource
    registry = Registry().with_resources((other, Resource.from_contents(load_schema(other))) for other in SCHEMAS)
    return jsonschema.Draft202012Validator({"$ref": f"{RULESET}#/$defs/written_card"}, registry=registry)


def entry_problems(cards: list, made: list[int], smap: Any, raw: bytes) -> list[tuple[Diagnostic, Rejected]]:
    """Every schema violation of the card entries a table made (`cards[k]` for k in `made`),
    each checked as a card written out; `smap` (a CardSourceMap) places each value where the
    table writes it, and the message names that place. The entries are made from the file's
    bytes `raw` by cardtables.py, whose text is part of the key too."""
    entries = {k: cards[k] for k in made}
    digest = _digest(raw + b"\0" + _tables_source(), "written_card")
    if not entries or digest in _PASSED:
        return []
    problems = []
    for k, entry in entries.items():
        for error in _entry_validator().iter_errors(entry):
            path = ("cards", k) + tuple(error.absolute_path)
            if error.validator == "required":
                rejected: Rejected = (path, [])
            else:
                rejected = (path, None)
            problems.extend((d, rejected) for d in _explain(error, smap, path, smap.route(path)[0]))
    if not problems:
        _PASSED.add(digest)
    return problems


def _explain(error: jsonschema.ValidationError, smap: Any, path: tuple | None = None,
             named: tuple | None = None) -> list[Diagnostic]:
    """The diagnostics of one schema error at `path` (default: the error's own), whose message
    names the place `named` (default: the path)."""
    path = tuple(error.absolute_path) if path is None else path
    where = _where(path if named is None else named)
    if error.validator == "additionalProperties":
        allowed = list(error.schema.get("properties", {}))
        extra = [k for k in error.instance if k not in error.schema.get("properties", {})]
        return [Diagnostic(smap.at(path + (k,), key=True),
                           f"unknown key '{k}'{where}{suggest(str(k), allowed)}; "
                           f"allowed keys: {', '.join(allowed)}{_cut_at_comma(k)}") for k in extra]
    if error.validator == "required":
        return [Diagnostic(smap.at(path), f"missing required key{where}: {error.message.split()[0]}")]
    if error.validator == "enum":
        choices = ", ".join(repr(c) for c in error.validator_value)
        return [Diagnostic(smap.at(path), f"{error.instance!r} is not allowed{where}; expected one of {choices}"
                           + suggest(str(error.instance), [str(c) for c in error.validator_value]))]
    if error.validator == "type":
        expected = error.validator_value
        expected = " or ".join(map(_article, expected)) if isinstance(expected, list) else _article(expected)
        at = smap.at(path)
        hint = _boolean_hint(at) if isinstance(error.instance, bool) and "string" in str(error.validator_value) else ""
        return [Diagnostic(at, f"expected {expected}{where}, got {_describe(error.instance)}{hint}")]
    if error.validator in ("minItems", "maxItems") and error.schema.get("minItems") == error.schema.get("maxItems"):
        return [Diagnostic(smap.at(path), f"expected a list of {error.validator_value} items{where}, "
                                          f"got {len(error.instance)}")]
    if _bad_name(error):
        return [Diagnostic(smap.at(path + (error.instance,), key=True), f"{error.instance!r} is not a valid name"
                           f"{where}: use letters, digits and '_', not starting with a digit"
                           + _parameters_hint(str(error.instance)))]
    if error.validator == "pattern" and path and path[-1] is not None:
        return [Diagnostic(smap.at(path), f"{error.instance!r} is not a valid name{where}: "
                           "use letters, digits and '_', not starting with a digit")]
    if error.validator == "propertyNames":
        return [Diagnostic(smap.at(path), f"invalid name{where}: {error.message}")]
    return [Diagnostic(smap.at(path), f"{error.message}{where}")]


# The words YAML reads as true or false when they are not quoted (YAML 1.1, as PyYAML reads it).
_BOOLEAN_WORDS = {w for word in ("yes", "no", "on", "off", "true", "false", "y", "n")
                  for w in (word, word.capitalize(), word.upper())}


def _boolean_hint(at: Location) -> str:
    """Text YAML read as true/false: the word written there, and how to keep it text."""
    try:
        with open(at.file, encoding="utf-8", errors="replace") as f:
            line = next(text for number, text in enumerate(f, 1) if number == at.line)
    except (OSError, StopIteration):
        line = ""
    word = re.match(r"[A-Za-z]*", line[(at.column or 1) - 1:]).group(0)
    if word in _BOOLEAN_WORDS:
        return f"; YAML reads {word} unquoted as {str(word.lower() in ('yes', 'on', 'true', 'y')).lower()}: " \
               f'to write the word, quote it: "{word}"'
    return '; YAML reads on, off, yes, no, true and false unquoted as true/false: quote the word, as "on"'


def _parameters_hint(name: str) -> str:
    """A name written as a call, `worth(c)`: the parameters go in a key of their own."""
    call = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*\((.*)\)\s*", name)
    if call is None:
        return ""
    params = ", ".join(p.strip() for p in call.group(2).split(",") if p.strip())
    return f"; the parameters go under params:, as {call.group(1)}: {{params: [{params}], ...}}"


def _cut_at_comma(key: Any) -> str:
    """A hint for a key that reads like prose (words, or a sentence's end): in a `{...}`
    mapping, a comma in an unquoted value ends it, and the rest is read as a key."""
    if isinstance(key, str) and (" " in key.strip() or key.rstrip().endswith((".", "!", "?"))):
        return (f"; '{key}' reads like text cut at a comma: inside {{ }}, a comma ends a value, "
                'so quote a value that holds one (description: "a, b")')
    return ""


def _bad_name(error: jsonschema.ValidationError) -> bool:
    """The error is about the name of an entry (a key of a mapping), not about its value."""
    return "propertyNames" in error.schema_path and isinstance(error.instance, str)


def _where(path: tuple) -> str:
    if not path:
        return ""
    return " in " + "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
                            for i, p in enumerate(path))


def _article(type_name: str) -> str:
    return {"object": "a mapping", "array": "a list", "string": "a string", "integer": "a whole number",
            "number": "a number", "boolean": "true or false"}.get(type_name, type_name)


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    if isinstance(value, str):  # rule text, say: its first line, without the newline YAML keeps
        lines = value.strip().splitlines() or [""]
        return repr(lines[0][:60]) + (" ..." if len(lines) > 1 or len(lines[0]) > 60 else "")
    return f"{value!r}"

"""Safe YAML reading that remembers where every value came from.

PyYAML's composer gives nodes with marks; we build plain data from them ourselves so that
duplicate keys are errors, aliases cannot expand without bound, and every value keeps
its line and column for later error messages.

Nodes come from libyaml (PyYAML's C parser, about ten times faster) when PyYAML has it, but
only for ordinary text: PyYAML's pure-Python parser stays the reference for every message
and position, and libyaml differs from it on some unusual YAML (tabs, byte-order marks, other
line breaks, '?' inside [ ] or { }, empty values, tags before ',', '#' right after '|' or
'>'). Text with any of those, text that libyaml rejects and anything that would be reported
(too deep, too many values, duplicate or odd keys) is read again with the pure-Python parser,
so results are the same either way (tests/test_fast_loading.py compares the two).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from ..core.errors import Diagnostic, Location
from ..core.limits import MAX_BITS, MAX_DIGITS
from . import yamlwords

Path = tuple  # a path into the data: keys and list indexes

MAX_FILE_BYTES = 5_000_000
MAX_NODES = 200_000
MAX_DEPTH = 64
MAX_TEXT_CHARS = 20_000_000  # the characters of every string, each alias counted as often as it is used
EMPTY = "file is empty"
SYNTAX = "YAML syntax: "  # how every syntax error begins


@dataclass
class SourceMap:
    """Where each value of a loaded YAML file stands, and where its text begins."""

    file: str
    marks: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[Path, tuple[int, int]] = field(default_factory=dict)
    # For each string: (offset in the string, file line, file column) where each source line starts.
    segments: dict[Path, list[tuple[int, int, int]]] = field(default_factory=dict)

    def at(self, path: Path, key: bool = False) -> Location:
        """The location of the value at path, or of its nearest parent that is known."""
        table = self.key_marks if key else self.marks
        p = tuple(path)
        while p:
            if p in table:
                line, col = table[p]
                return Location(self.file, line, col)
            if p in self.marks:
                line, col = self.marks[p]
                return Location(self.file, line, col)
            p = p[:-1]
        line, col = self.marks.get((), (1, 1))
        return Location(self.file, line, col)

    def text_location(self, path: Path, text: str, line: int, column: int) -> Location:
        """Map a line/column inside the string `text` at `path` (1-based) to the file."""
        segments = self.segments.get(tuple(path))
        if not segments:
            return self.at(path)
        lines = text.split("\n")
        index = sum(len(s) + 1 for s in lines[: max(0, line - 1)]) + column - 1
        offset, file_line, file_col = segments[0]
        for seg in segments:
            if seg[0] > index:
                break
            offset, file_line, file_col = seg
        return Location(self.file, file_line, file_col + index - offset)


class MergedSourceMap:
    """Positions for a ruleset loaded with extension files: the cards an extension adds are
    appended to the ruleset's `cards`, the names it declares (counters, functions...) to the
    ruleset's sections, and their positions point into the extension's file."""

    def __init__(self, base: SourceMap):
        self.base = base
        self.file = base.file
        self.parts: list[tuple[int, int, SourceMap]] = []  # (first index, count, source)
        self.named: dict[tuple[str, str], SourceMap] = {}  # (section, name): the file declaring it

    def add_cards(self, first: int, count: int, source: SourceMap) -> None:
        self.parts.append((first, count, source))

    def add_name(self, section: str, name: str, source: SourceMap) -> None:
        self.named[(section, name)] = source

    def _route(self, path: Path) -> tuple[SourceMap, Path]:
        if len(path) >= 2 and (path[0], path[1]) in self.named:
            return self.named[(path[0], path[1])], path
        if len(path) >= 2 and path[0] == "cards" and isinstance(path[1], int):
            for first, count, source in self.parts:
                if first <= path[1] < first + count:
                    return source, ("cards", path[1] - first) + tuple(path[2:])
        return self.base, path

    def at(self, path: Path, key: bool = False) -> Location:
        source, inner = self._route(path)
        return source.at(inner, key)

    def text_location(self, path: Path, text: str, line: int, column: int) -> Location:
        source, inner = self._route(path)
        return source.text_location(inner, text, line, column)


class _Budget:
    """What a document has built so far: values, and characters of text (an alias counts as
    often as it is used, so a long string referred to many times cannot pass as small)."""

    def __init__(self, libyaml: bool = False) -> None:
        self.nodes = 0
        self.chars = 0
        self.libyaml = libyaml  # nodes from libyaml: raise _Unusual where it might differ from PyYAML


class _Unusual(Exception):
    """Nodes from libyaml meet something that the pure-Python parser must read instead."""


# Characters where libyaml and PyYAML's pure-Python parser are known to differ: tabs,
# byte-order marks, and line breaks other than \n and \r\n.
_UNUSUAL = re.compile("[\t\ufeff\x85\u2028\u2029]")

_LIBYAML: bool | None = None  # whether libyaml is usable, found out on first use


def _libyaml_usable() -> bool:
    """libyaml is there, and it limits nesting (its composer recurses in C, where deep nesting
    could exhaust the stack instead of raising RecursionError)."""
    global _LIBYAML
    if _LIBYAML is None:
        _LIBYAML = False
        if getattr(yaml, "__with_libyaml__", False):
            try:
                yaml.compose("[" * 2000 + "]" * 2000, Loader=yaml.CSafeLoader)
            except yaml.YAMLError:
                _LIBYAML = True
            except Exception:
                pass
    return _LIBYAML


def load_yaml(text: str | bytes, file: str) -> tuple[Any, SourceMap, list[Diagnostic]]:
    """Parse YAML text; return (data, source map, problems). Never raises for bad input."""
    smap = SourceMap(file)
    if isinstance(text, bytes):
        if len(text) > MAX_FILE_BYTES:
            return None, smap, [Diagnostic(Location(file), f"file is larger than the limit of {MAX_FILE_BYTES} bytes")]
        if b"\x00" in text:
            return None, smap, [Diagnostic(Location(file), "this is a binary file, not YAML text")]
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = text[: exc.start].count(b"\n") + 1
            return None, smap, [Diagnostic(Location(file, line, 1), "file is not valid UTF-8 text")]
    lines = text.splitlines()
    fast = _load_with_libyaml(text, file, lines)
    if fast is not None:
        return fast
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        line, col, words = yamlwords.explain(exc, lines)
        return None, smap, [Diagnostic(Location(file, line, col), f"{SYNTAX}{words}",
                                       yamlwords.excerpt(lines, line, col))]
    except yaml.YAMLError as exc:
        return None, smap, [Diagnostic(Location(file, 1, 1), f"{SYNTAX}{exc}")]
    except RecursionError:
        return None, smap, [Diagnostic(Location(file, 1, 1), f"nesting deeper than {MAX_DEPTH} levels")]
    if node is None:
        return None, smap, [Diagnostic(Location(file, 1, 1), EMPTY)]
    problems: list[Diagnostic] = []
    data = _build(node, (), smap, lines, problems, _Budget(), 0)
    return data, smap, problems


def _load_with_libyaml(text: str, file: str, lines: list[str]) -> tuple[Any, SourceMap, list[Diagnostic]] | None:
    """load_yaml's result read with libyaml, or None where the pure-Python parser must read it."""
    if not _libyaml_usable() or _UNUSUAL.search(text):
        return None
    smap = SourceMap(file)
    problems: list[Diagnostic] = []  # stays empty: where a problem would be reported, _Unusual is raised
    try:
        node = yaml.compose(text, Loader=yaml.CSafeLoader)
        if node is None:
            return None
        data = _build(node, (), smap, lines, problems, _Budget(libyaml=True), 0)
    except Exception:  # anything libyaml rejects, anything unusual, any error building the values
        return None
    return data, smap, problems


def _build(node: yaml.Node, path: Path, smap: SourceMap, lines: list[str],
           problems: list[Diagnostic], budget: _Budget, depth: int) -> Any:
    budget.nodes += 1
    smap.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if budget.libyaml and (budget.nodes > MAX_NODES or depth > MAX_DEPTH):
        raise _Unusual
    if budget.nodes > MAX_NODES:
        if budget.nodes == MAX_NODES + 1:
            problems.append(Diagnostic(smap.at(path), f"document has more than {MAX_NODES} values "
                                       "(aliases that expand too far?)"))
        return None
    if depth > MAX_DEPTH:
        problems.append(Diagnostic(smap.at(path), f"nesting deeper than {MAX_DEPTH} levels"))
        return None
    refused = _refused_tag(node)
    if refused is not None:
        if budget.libyaml:
            raise _Unusual
        problems.append(Diagnostic(smap.at(path), refused))
        return None
    if budget.libyaml and isinstance(node, yaml.CollectionNode) and node.flow_style:
        _plain_in_flow(node)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if budget.libyaml and (key_node.tag == "tag:yaml.org,2002:merge"
                                   or not isinstance(key_node, yaml.ScalarNode)):
                raise _Unusual
            if key_node.tag == "tag:yaml.org,2002:merge":
                problems.append(Diagnostic(Location(smap.file, key_node.start_mark.line + 1,
                                                    key_node.start_mark.column + 1),
                                           "merge keys ('<<') are not supported"))
                continue
            kloc = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            refused = _refused_tag(key_node)
            if refused is not None:
                if budget.libyaml:
                    raise _Unusual
                problems.append(Diagnostic(Location(smap.file, *kloc), refused))
                continue
            key = _scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if isinstance(key, bool) or (key is None and isinstance(key_node, yaml.ScalarNode)):
                key = key_node.value  # 'on:', 'yes:', 'no:' are names here, not YAML 1.1 booleans
            if key is None or isinstance(key, (list, dict)):
                problems.append(Diagnostic(Location(smap.file, *kloc), "a mapping key must be a plain value"))
                continue
            if key in result:
                if budget.libyaml:
                    raise _Unusual
                first = smap.key_marks.get(path + (key,), kloc)[0]
                problems.append(Diagnostic(Location(smap.file, *kloc), f"duplicate key '{key}' (first at line "
                                           f"{first}); a mapping has each key once: remove or rename one",
                                           yamlwords.excerpt(lines, *kloc)))
                continue
            smap.key_marks[path + (key,)] = kloc
            result[key] = _build(value_node, path + (key,), smap, lines, problems, budget, depth + 1)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(v, path + (i,), smap, lines, problems, budget, depth + 1)
                for i, v in enumerate(node.value)]
    if budget.libyaml and not node.style and not node.value:
        raise _Unusual  # an empty value: the two parsers place it differently
    if budget.libyaml and node.style in ("|", ">") and not _plain_block_header(node, lines):
        raise _Unusual
    value = _scalar(node)
    if type(value) is int and value.bit_length() > MAX_BITS:
        if budget.libyaml:
            raise _Unusual
        problems.append(Diagnostic(smap.at(path), f"a whole number of more than {MAX_DIGITS} digits (the limit "
                                                  "of numbers)"))
        return None
    if isinstance(value, str):
        budget.chars += len(value)
        if budget.chars > MAX_TEXT_CHARS:
            if budget.libyaml:
                raise _Unusual
            if budget.chars - len(value) <= MAX_TEXT_CHARS:
                problems.append(Diagnostic(smap.at(path), f"the document's text expands past the limit of "
                                           f"{MAX_TEXT_CHARS} characters (aliases that repeat long text?)"))
            return None
        _remember_text_start(node, path, smap, lines)
    return value


def _plain_block_header(node: yaml.ScalarNode, lines: list[str]) -> bool:
    """The '|' or '>' line of a literal or folded string has its indicators followed by a space
    or nothing (libyaml, unlike PyYAML, also takes a '#' there)."""
    line, column = node.start_mark.line, node.start_mark.column
    header = lines[line][column:] if line < len(lines) else ""
    while header[:1] in ("&", "!"):  # an anchor or a tag before the indicator: `&name >-`
        _, _, header = header.partition(" ")
        header = header.lstrip(" ")
    rest = header[1:].lstrip("+-0123456789")
    return header[:1] in ("|", ">") and rest[:1] in ("", " ")


def _plain_in_flow(node: yaml.CollectionNode) -> None:
    """Inside [ ] or { }, PyYAML ends a plain value at '?' where libyaml does not."""
    children = [n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode) else node.value
    for child in children:
        if isinstance(child, yaml.ScalarNode) and not child.style and "?" in child.value:
            raise _Unusual


_CONSTRUCTOR = yaml.SafeLoader("")
_YAML_TAG = "tag:yaml.org,2002:"
# The values a ruleset is made of; a date is read as the text it is written as.
_TAGS = {_YAML_TAG + t for t in ("str", "int", "float", "bool", "null", "seq", "map", "timestamp")}


def _refused_tag(node: yaml.Node) -> str | None:
    """Why the value of `node` is refused: a tag other than plain YAML values (`!foo`,
    `!!python/name:...`, `!!binary`, `!!set`...), or a whole number longer than numbers may
    be; None if it is not."""
    tag = node.tag
    if tag not in _TAGS or (tag == _YAML_TAG + "timestamp" and not isinstance(node, yaml.ScalarNode)):
        shown = "!!" + tag[len(_YAML_TAG):] if tag.startswith(_YAML_TAG) else tag
        return (f"the YAML tag {shown} is not supported: a ruleset holds plain text, numbers, true/false, "
                "lists and mappings (quote a text that starts with '!')")
    # Too many digits to read at all (Python reads no more than 4,300 decimal ones); fewer are read, then measured.
    if tag == _YAML_TAG + "int" and sum(c.isdigit() for c in node.value) > MAX_DIGITS * 4:
        return f"a whole number of more than {MAX_DIGITS} digits (the limit of numbers)"
    return None


def _scalar(node: yaml.ScalarNode) -> Any:
    """Build one scalar with YAML's safe rules (ints, floats, booleans, null, strings); a date
    is kept as the text it is written as (`2024-01-01`), since no value of a game is a date."""
    if node.tag == _YAML_TAG + "timestamp":
        return node.value
    value = _CONSTRUCTOR.construct_object(node)
    _CONSTRUCTOR.constructed_objects.clear()
    return value


def _remember_text_start(node: yaml.ScalarNode, path: Path, smap: SourceMap, lines: list[str]) -> None:
    """Record where each line of a string's text stands in the file, so that errors inside
    effect-language text get file positions (literal, folded, plain and quoted styles)."""
    first, col = node.start_mark.line, node.start_mark.column
    last = node.end_mark.line
    if node.style in ("|", ">"):
        stop = last if node.end_mark.column == 0 else last + 1
        content = [i for i in range(first + 1, min(stop, len(lines)))]
        filled = [i for i in content if lines[i].strip()]
        indent = min(len(lines[i]) - len(lines[i].lstrip(" ")) for i in filled) if filled else 0
        if node.style == "|":
            segments, offset = [], 0
            for i in content:
                segments.append((offset, i + 1, indent + 1))
                offset += len(lines[i][indent:]) + 1
            smap.segments[path] = segments
            return
        smap.segments[path] = _folded([(i, indent) for i in content], lines)
        return
    start = col + (1 if node.style in ("'", '"') else 0)
    rows = [(first, start)] + [(i, len(lines[i]) - len(lines[i].lstrip())) for i in range(first + 1, last + 1)
                               if i < len(lines)]
    smap.segments[path] = _folded(rows, lines)


def _folded(rows: list[tuple[int, int]], lines: list[str]) -> list[tuple[int, int, int]]:
    """Segments of a folded string: source lines joined by spaces, a blank line giving a newline."""
    segments, offset, after_blank = [], 0, True
    for i, start in rows:
        text = lines[i][start:] if i < len(lines) else ""
        if not text.strip():
            offset += 1
            after_blank = True
            continue
        if not after_blank:
            offset += 1
        segments.append((offset, i + 1, start + 1))
        offset += len(text.rstrip())
        after_blank = False
    if not segments and rows:
        segments = [(0, rows[0][0] + 1, rows[0][1] + 1)]
    return segments  # none for an empty '>' block: its text is empty, errors go to its key

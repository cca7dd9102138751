"""Safe YAML reading that remembers where every value came from.

PyYAML's composer gives nodes with marks; we build plain data from them ourselves so that
duplicate keys are errors, aliases cannot expand without bound, and every value keeps
its line and column for later error messages.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from .errors import Diagnostic, Location

Path = tuple  # a path into the data: keys and list indexes

MAX_FILE_BYTES = 5_000_000
MAX_NODES = 200_000
MAX_DEPTH = 64


@dataclass
class SourceMap:
    """Where each value of a loaded YAML file stands, and where its text begins."""

    file: str
    marks: dict[Path, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[Path, tuple[int, int]] = field(default_factory=dict)
    text_starts: dict[Path, tuple[int, int, bool]] = field(default_factory=dict)

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

    def text_location(self, path: Path, line: int, column: int) -> Location:
        """Map a line/column inside a string value (1-based) to the file."""
        start = self.text_starts.get(tuple(path))
        if start is None:
            return self.at(path)
        first_line, first_col, block = start
        if block or line > 1:
            return Location(self.file, first_line + line - 1, (first_col if block else 0) + column)
        return Location(self.file, first_line, first_col + column - 1)


class _Budget:
    def __init__(self) -> None:
        self.nodes = 0


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
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = exc.problem or "invalid YAML"
        context = f" {exc.context}" if exc.context and "found" not in problem else ""
        if "\\t" in problem or "tab" in problem:
            problem, context = "a tab character is used for indentation; YAML needs spaces", ""
        elif "flow mapping" in (exc.context or "") or "flow sequence" in (exc.context or ""):
            context += ("; inside { } or [ ], rule text containing [ ] , or { } must be quoted, "
                        'e.g. expr: "count(hand[p])"')
        return None, smap, [Diagnostic(Location(file, line, col), f"YAML syntax: {problem}{context}")]
    except yaml.YAMLError as exc:
        return None, smap, [Diagnostic(Location(file, 1, 1), f"YAML syntax: {exc}")]
    if node is None:
        return None, smap, [Diagnostic(Location(file, 1, 1), "file is empty")]
    problems: list[Diagnostic] = []
    data = _build(node, (), smap, lines, problems, _Budget(), 0)
    return data, smap, problems


def _build(node: yaml.Node, path: Path, smap: SourceMap, lines: list[str],
           problems: list[Diagnostic], budget: _Budget, depth: int) -> Any:
    budget.nodes += 1
    smap.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if budget.nodes > MAX_NODES:
        if budget.nodes == MAX_NODES + 1:
            problems.append(Diagnostic(smap.at(path), f"document has more than {MAX_NODES} values "
                                       "(aliases that expand too far?)"))
        return None
    if depth > MAX_DEPTH:
        problems.append(Diagnostic(smap.at(path), f"nesting deeper than {MAX_DEPTH} levels"))
        return None
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                problems.append(Diagnostic(Location(smap.file, key_node.start_mark.line + 1,
                                                    key_node.start_mark.column + 1),
                                           "merge keys ('<<') are not supported"))
                continue
            key = _scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if isinstance(key, bool) or (key is None and isinstance(key_node, yaml.ScalarNode)):
                key = key_node.value  # 'on:', 'yes:', 'no:' are names here, not YAML 1.1 booleans
            kloc = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if key is None or isinstance(key, (list, dict)):
                problems.append(Diagnostic(Location(smap.file, *kloc), "a mapping key must be a plain value"))
                continue
            if key in result:
                problems.append(Diagnostic(Location(smap.file, *kloc), f"duplicate key '{key}'"))
                continue
            smap.key_marks[path + (key,)] = kloc
            result[key] = _build(value_node, path + (key,), smap, lines, problems, budget, depth + 1)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(v, path + (i,), smap, lines, problems, budget, depth + 1)
                for i, v in enumerate(node.value)]
    value = _scalar(node)
    if isinstance(value, str):
        _remember_text_start(node, path, smap, lines)
    return value


_CONSTRUCTOR = yaml.SafeLoader("")


def _scalar(node: yaml.ScalarNode) -> Any:
    """Build one scalar with YAML's safe rules (ints, floats, booleans, null, strings)."""
    value = _CONSTRUCTOR.construct_object(node)
    _CONSTRUCTOR.constructed_objects.clear()
    return value


def _remember_text_start(node: yaml.ScalarNode, path: Path, smap: SourceMap, lines: list[str]) -> None:
    """Record where the text of a string begins, so effect-language errors get file positions."""
    line = node.start_mark.line + 1
    col = node.start_mark.column + 1
    if node.style in ("|", ">"):
        # Block scalar: content starts on the next non-empty line, at its indentation.
        i = line  # index of the next line (0-based)
        while i < len(lines) and not lines[i].strip():
            i += 1
        indent = len(lines[i]) - len(lines[i].lstrip(" ")) if i < len(lines) else 0
        smap.text_starts[path] = (i + 1, indent, True)
    elif node.style in ("'", '"'):
        smap.text_starts[path] = (line, col + 1, False)
    else:
        smap.text_starts[path] = (line, col, False)

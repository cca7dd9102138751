"""YAML syntax errors in words for a person, with the line shown and a caret under the column.

PyYAML says what its scanner met ("expected alphabetic or numeric character, but found ' '");
an author needs what they wrote wrong and how to write it. Each common mistake is recognised
from PyYAML's problem, its context and the text around the mark; anything else keeps
PyYAML's own words.
"""
from __future__ import annotations

import yaml

WIDTH = 78  # a shown line is cut around the column to fit 80 columns with its indent

_QUOTE_IT = "quote the whole value"


def explain(exc: yaml.MarkedYAMLError, lines: list[str]) -> tuple[int, int, str]:
    """(line, column, message) of a YAML syntax error (1-based), the message without the
    'YAML syntax: ' that every one begins with."""
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    problem, context = exc.problem or "invalid YAML", exc.context or ""
    cm = exc.context_mark
    opened = (cm.line + 1, cm.column + 1) if cm is not None else None
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    before = text[:col - 1]
    if "\\t" in problem or "tab" in problem:
        return line, col, "a tab character is used for indentation; YAML needs spaces"
    if "alias" in context or "anchor" in context:
        sign = "*" if "alias" in context else "&"
        what = "an alias (a value named elsewhere by '&')" if sign == "*" else "an anchor (a name for a value)"
        at = opened or (line, col)
        return (*at, f"a '{sign}' here starts {what} in YAML; to write a '{sign}' in a value, "
                     f"{_QUOTE_IT}, e.g. '{_value_after_key(lines, at)}'")
    if problem.startswith("found undefined alias"):
        return line, col, (f"a value may not start with '*': YAML reads it as an alias, and no '&' "
                           f"names it; {_QUOTE_IT}")
    if "quoted scalar" in context and "end of stream" in problem and opened is not None:
        quote = _char(lines, opened)
        return (*opened, f"the quote {quote} opened here is never closed; end the value with {quote} "
                         "(inside, write \\\" for a \" between double quotes, '' for a ' between single ones)")
    if "flow" in context and opened is not None and opened != (line, col):
        opener = _char(lines, opened)
        closer = {"[": "]", "{": "}"}.get(opener, "the closing bracket")
        return (*opened, f"the '{opener}' opened here is not closed by a '{closer}' before line {line}, "
                         f"column {col}; inside {{ }} or [ ], text containing [ ] , or {{ }} must be quoted, "
                         'e.g. expr: "count(hand[p])"')
    if problem == "mapping values are not allowed here":
        if ": " in before.strip() or before.strip().startswith("- "):
            return line, col, (f"a ': ' inside an unquoted value starts a new key in YAML; {_QUOTE_IT}, "
                               f"e.g. {_quoted_example(text)}")
        return line, col, ("this line is indented more than the key above it, so YAML reads it as the "
                           "value's text going on; indent it like the keys next to it")
    if problem.startswith("expected <block end>, but found"):
        found = problem.rsplit("found ", 1)[1]
        if found == "'<scalar>'" and before.rstrip()[-1:] in ("'", '"'):
            return line, col, ("text goes on after a closing quote; a quoted value must be quoted whole: "
                               f"{_QUOTE_IT} in the other kind of quotes (or write '' for a ' inside '...')")
        if found == "'-'":
            return line, col, ("a list item ('- ...') among the keys of a mapping; a value is either a "
                               "mapping of keys or a list of '- ' items")
        return line, col, ("this line's indentation matches no key above it; indent it like the keys "
                           "next to it")
    if problem.startswith("found character") and "cannot start any token" in problem:
        return line, col, (f"{problem}; {_QUOTE_IT} (a value may not start with '@' or '`', and "
                           "'%' starts a directive)")
    return line, col, problem + (f" {context}" if context and "found" not in problem else "")


def excerpt(lines: list[str], line: int, column: int) -> str:
    """The line `line` of the file and a caret under `column`, indented, cut to fit 80 columns."""
    if not 0 < line <= len(lines):
        return ""
    text = lines[line - 1].replace("\t", " ")
    start = max(0, min(column - 1 - WIDTH // 2, len(text) - WIDTH))
    shown = text[start:start + WIDTH]
    return f"  {shown}\n  {' ' * (column - 1 - start)}^"


def _char(lines: list[str], at: tuple[int, int]) -> str:
    line, col = at
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return text[col - 1] if 0 < col <= len(text) else "?"


def _value_after_key(lines: list[str], at: tuple[int, int]) -> str:
    """The value written on the line of `at`, after its key, in single quotes' inner form."""
    line = lines[at[0] - 1] if 0 < at[0] <= len(lines) else ""
    key, sep, value = line.partition(": ")
    value = (value if sep else line.strip().removeprefix("- ")).strip()
    return value.replace("'", "''")


def _quoted_example(text: str) -> str:
    """The line `key: a: b` written as `key: "a: b"`."""
    key, _, value = text.strip().partition(": ")
    value = value.strip().replace('"', '\\"')
    return f'{key}: "{value}"'

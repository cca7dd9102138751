"""The rest of a rule after its syntax error, so that one run reports its other mistakes too.

A program that does not parse is reported at its first syntax error. The statements after
it may still hold a misspelt name, which the author would otherwise meet only on the next
run. The line of the error is replaced by a stand-in of the same indentation that declares
what it declared (`let x = ...` stays a `let x`, of a value of no known kind; a block's
header stays a header), and the text is parsed again; the tree is only checked, never run.
When the stand-in does not make the text parse (the error spans lines: an unclosed
bracket), nothing more is reported.
"""
from __future__ import annotations

import re

from lark import Tree

from .parser import ParseProblem, parse

MAX_TRIES = 8  # syntax errors passed over in one rule before giving up on the rest of it
UNKNOWN = "__recovered__"  # the value of a stand-in `let`: a parameter, of no known kind, when checked
_LET = re.compile(r"let\s+([A-Za-z_]\w*)\b")
_FOR = re.compile(r"for\s+([A-Za-z_]\w*)\s+in\b")
_HEADER = re.compile(r"(if|elif|else|for|while|repeat)\b")  # the statements that open a block


def rest_of(text: str, problem: ParseProblem) -> tuple[Tree | None, list[ParseProblem]]:
    """The tree of the program `text` with the line of `problem` (and of each later syntax
    error, returned too) replaced by a stand-in; (None, []) when that does not make it parse."""
    lines = text.split("\n")
    later: list[ParseProblem] = []
    for _ in range(MAX_TRIES):
        number = problem.line
        if not 0 < number <= len(lines) or not lines[number - 1].strip():
            break
        lines[number - 1] = _stand_in(lines, number - 1)
        _drop_continuation(lines, number - 1)
        try:
            return parse("\n".join(lines), "program"), later
        except ParseProblem as again:
            if again.line <= number:  # the stand-in did not get past it
                break
            problem = again
            later.append(again)
    return None, []


def _stand_in(lines: list[str], index: int) -> str:
    """A statement that parses, in place of the line at `index`, keeping its indentation and
    what it declares: a local it makes, or the block it opens."""
    line = lines[index]
    indent = line[:len(line) - len(line.lstrip())]
    code = line.strip()
    following = next((n for n in lines[index + 1:] if n.strip() and not n.strip().startswith("#")), "")
    opens = len(following) - len(following.lstrip()) > len(indent) and _opens(code)
    if opens:
        loop = _FOR.match(code)
        return f"{indent}for {loop[1]} in []:" if loop else f"{indent}if true:"
    let = _LET.match(code)
    return f"{indent}let {let[1]} = {UNKNOWN}" if let else f"{indent}pass"


def _opens(code: str) -> bool:
    """The line is a block's header (one missing its ':' too), not an expression that the
    author went on with on the next lines."""
    return code.endswith(":") or _HEADER.match(code) is not None


def _drop_continuation(lines: list[str], index: int) -> None:
    """Blank the lines indented under the stand-in at `index` when it opens no block: they go on
    with its expression (`... if x` / `else y`), one mistake, reported once at its first line."""
    indent = len(lines[index]) - len(lines[index].lstrip())
    if lines[index].rstrip().endswith(":"):
        return
    for i in range(index + 1, len(lines)):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            return
        lines[i] = ""

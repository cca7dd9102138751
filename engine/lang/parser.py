"""Parsing effect-language text with the Lark grammar in effects.lark.

The parser is built once per process; errors become (line, column, message) triples that
the ruleset loader maps to positions in the YAML file.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from lark import Lark, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.exceptions import LarkError
from lark.indenter import DedentError, Indenter

GRAMMAR_FILE = Path(__file__).with_name("effects.lark")

MAX_SOURCE_CHARS = 20_000

# Readable names for the tokens Lark reports as expected.
_TOKEN_NAMES = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "end of block", "COLON": "':'", "LPAR": "'('",
    "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "EQUAL": "'='", "DOT": "'.'",
    "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/', '//' or '%'",
    "AUGOP": "'+=' or '-='", "MINUS": "'-'", "$END": "end of text",
}


class ParseProblem(Exception):
    """A syntax error at a line and column (1-based) of the parsed text."""

    def __init__(self, line: int, column: int, message: str):
        super().__init__(message)
        self.line, self.column, self.message = line, column, message


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr", postlex=_Indenter(),
                start=["program", "expression"], propagate_positions=True, maybe_placeholders=True)


def parse(text: str, start: str) -> Tree:
    """Parse `text` as a 'program' or an 'expression'; raise ParseProblem on bad syntax."""
    if len(text) > MAX_SOURCE_CHARS:
        raise ParseProblem(1, 1, f"rule text is longer than the limit of {MAX_SOURCE_CHARS} characters")
    source = text if text.endswith("\n") else text + "\n"
    try:
        return _parser().parse(source, start=start)
    except UnexpectedCharacters as exc:
        char = source[exc.pos_in_stream] if exc.pos_in_stream < len(source) else "?"
        raise ParseProblem(exc.line, exc.column, f"unexpected character {char!r}") from None
    except UnexpectedEOF as exc:
        raise ParseProblem(source.count("\n"), 1, "the rule ends too early" + _expected(exc)) from None
    except UnexpectedToken as exc:
        token = exc.token
        if token.type == "$END":
            raise ParseProblem(source.count("\n") or 1, 1, "the rule ends too early" + _expected(exc)) from None
        shown = "end of line" if token.type == "_NL" else (
            "indentation" if token.type == "_INDENT" else repr(str(token)))
        hint = ""
        if token.type == "_INDENT":
            hint = "; only a line ending in ':' may be followed by an indented block"
        if token.type in ("_INDENT", "_DEDENT"):  # they borrow the newline's place: point at the next line
            line, col = token.end_line or 1, token.end_column or 1
        else:
            line = token.line if token.line is not None else 1
            col = token.column if token.column is not None else 1
        raise ParseProblem(line, col, f"unexpected {shown}{_expected(exc)}{hint}") from None
    except UnexpectedInput as exc:  # pragma: no cover - other Lark input errors
        raise ParseProblem(getattr(exc, "line", 1), getattr(exc, "column", 1), str(exc)) from None
    except DedentError:
        line, indent = _bad_dedent(source)
        raise ParseProblem(line, indent + 1, "this line's indentation matches no outer block "
                                             "(indent it like a line above)") from None
    except (LarkError, RecursionError) as exc:
        raise ParseProblem(1, 1, f"cannot parse this rule: {exc.__class__.__name__}") from None


def _bad_dedent(source: str) -> tuple[int, int]:
    """The first line whose indentation returns to no enclosing level (line, indent)."""
    levels = [0]
    depth = 0
    for number, text in enumerate(source.split("\n"), 1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(text) - len(text.lstrip(" \t"))
        if depth == 0:
            if indent > levels[-1]:
                levels.append(indent)
            else:
                while indent < levels[-1]:
                    levels.pop()
                if indent != levels[-1]:
                    return number, indent
        depth += sum(stripped.count(c) for c in "([") - sum(stripped.count(c) for c in ")]")
        depth = max(depth, 0)
    return 1, 0


def _expected(exc: UnexpectedInput) -> str:
    expected = sorted({_TOKEN_NAMES.get(t, _keyword(t)) for t in (getattr(exc, "expected", None) or [])})
    if not expected:
        return ""
    if len(expected) > 8:
        expected = expected[:8] + ["..."]
    return "; expected " + ", ".join(expected)


def _keyword(token_type: str) -> str:
    """Lark names anonymous keyword tokens like 'ELSE'; show them as the keyword itself."""
    if token_type.isupper() and token_type.isalpha():
        return f"'{token_type.lower()}'"
    return token_type

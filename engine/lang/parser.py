"""Parsing effect-language text with the Lark grammar in effects.lark.

The parser is built once per process; errors become (line, column, message) triples that
the ruleset loader maps to positions in the YAML file.

Two caches in the user's cache directory save work between runs:
- the built parser, kept by Lark's own `cache=` option: reading the LALR tables back is
  about ten times faster than building them. (A parser read back names rules with plain
  strings where a parser built afresh uses Token('RULE', name); they are equal as strings.)
- the parse trees of rule texts that parsed, pickled: reading a tree back is several times
  faster than parsing the text again, and parsing is most of what `engine validate` spends.
  Text that does not parse is parsed every time, so every error message is made afresh.
Both files are named after a digest of the grammar, this module and the versions of Lark and
Python, so a change to any of them starts new files (and the old ones are removed). When there
is no cache directory that can be written, or a file cannot be read, the work is simply done.
Both are pickles, read only when signed with the user's key (core/usercache.py): the trees'
file carries its signature, the parser's (which Lark writes and reads itself) has it in a
`.sig` file beside it, and is removed before Lark reads it when that does not match.
"""
from __future__ import annotations

import atexit
import copyreg
import hashlib
import io
import pickle
import re
import sys
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.exceptions import LarkError
from lark.indenter import DedentError, Indenter

from ..core import usercache

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
    files = _cache_files()
    trusted = files is not None and _signed_parser(files)
    if files is not None and not trusted:
        _remove_other_versions(files[1:])
    lark = Lark(GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr", postlex=_Indenter(),
                start=["program", "expression"], propagate_positions=True, maybe_placeholders=True,
                cache=str(files[0]) if files is not None else False)
    if files is not None and not trusted:  # Lark wrote the file: sign it
        try:
            usercache.write_atomically(files[2], hashlib.sha256(files[0].read_bytes()).digest())
        except OSError:
            pass
    return lark


def _signed_parser(files: tuple[Path, ...]) -> bool:
    """Whether the built parser's file is there and its `.sig` file signs it."""
    signature = usercache.read_signed(files[2])
    try:
        return signature is not None and signature == hashlib.sha256(files[0].read_bytes()).digest()
    except OSError:
        return False


@lru_cache(maxsize=1)
def _cache_files() -> tuple[Path, Path, Path] | None:
    """The files of the built parser, of the parse trees and of the parser's signature, or
    None when there is no cache directory of the user's that can be made."""
    directory = usercache.directory()
    if directory is None:
        return None
    try:
        made_from = GRAMMAR_FILE.read_bytes() + Path(__file__).read_bytes()
    except OSError:
        return None
    versions = f"\0{lark.__version__}\0{sys.version_info[:2]}".encode()
    key = hashlib.sha256(made_from + versions).hexdigest()[:16]
    return directory / f"effects-{key}.lark", directory / f"effects-{key}.trees", directory / f"effects-{key}.sig"


def _remove_other_versions(kept: tuple[Path, ...]) -> None:
    """Remove the parser files of other versions, and this version's unsigned parser: all but `kept`."""
    for path in kept[0].parent.glob("effects-*"):
        if path not in kept:
            try:
                path.unlink()
            except OSError:
                pass


class _TreeCache:
    """Parse trees by the SHA-256 of their start rule and text, pickled. The file is read on
    first use; at exit, if new trees were made, it is written anew (to a temporary file that
    then replaces it), keeping the trees this run used and then the most recently used others,
    up to MAX_BYTES, with the trees other processes saved meanwhile (under the file's lock).
    Each `get` unpickles a new tree, so no two callers share one."""

    MAX_BYTES = 8_000_000

    def __init__(self) -> None:
        self.stored: dict[str, bytes] | None = None
        self.used: dict[str, bytes] = {}  # the trees this process parsed or read, in that order
        self.changed = False

    def get(self, key: str) -> Tree | None:
        blob = self.used.get(key) or self._stored().get(key)
        if blob is None:
            return None
        try:
            tree = pickle.loads(blob)
        except Exception:  # a damaged entry: parse the text again
            return None
        if not isinstance(tree, Tree):
            return None
        self.used[key] = blob
        return tree

    def put(self, key: str, tree: Tree) -> None:
        if _cache_files() is None:
            return
        try:
            self.used[key] = _dumps(tree)
        except Exception:  # e.g. RecursionError: a tree too deep to pickle is not kept
            return
        if not self.changed:
            self.changed = True
            atexit.register(self.save)

    def _stored(self) -> dict[str, bytes]:
        if self.stored is None:
            self.stored = {}
            files = _cache_files()
            data = usercache.read_signed(files[1]) if files is not None else None
            if data is not None:
                try:
                    stored = pickle.loads(data)
                    if isinstance(stored, dict):
                        self.stored = stored
                except Exception:  # damaged: start afresh
                    pass
        return self.stored

    def save(self) -> None:
        files = _cache_files()
        if files is None:
            return
        with usercache.locked(files[1]):
            self.stored = None  # read again: the trees other processes saved since this one read it
            kept = {k: v for k, v in self._stored().items() if k not in self.used}
            kept.update(self.used)  # last, so kept first
            size = sum(map(len, kept.values()))
            for key in list(kept):
                if size <= self.MAX_BYTES:
                    break
                size -= len(kept.pop(key))
            usercache.write_atomically(files[1], pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL))


def _dumps(tree: Tree) -> bytes:
    """A pickled tree whose tokens keep all their positions (Lark pickles a token without its
    end line, end column and end position)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {**copyreg.dispatch_table, Token: _reduce_token}
    pickler.dump(tree)
    return buffer.getvalue()


def _reduce_token(token: Token) -> tuple:
    return Token, (token.type, token.value, token.start_pos, token.line, token.column,
                   token.end_line, token.end_column, token.end_pos)


_TREES = _TreeCache()


def parse(text: str, start: str) -> Tree:
    """Parse `text` as a 'program' or an 'expression'; raise ParseProblem on bad syntax."""
    if len(text) > MAX_SOURCE_CHARS:
        raise ParseProblem(1, 1, f"rule text is longer than the limit of {MAX_SOURCE_CHARS} characters")
    source = text if text.endswith("\n") else text + "\n"
    key = hashlib.sha256(f"{start}\0{source}".encode("utf-8", "surrogatepass")).hexdigest()
    tree = _TREES.get(key)
    if tree is not None:
        return tree
    try:
        tree = _parser().parse(source, start=start)
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
        hint, expected = _hint(source, token, exc), _expected(exc)
        if hint.startswith(_INSTEAD):  # the expected tokens would only distract from it
            expected = ""
        if token.type == "_INDENT":
            hint = "; only a line ending in ':' may be followed by an indented block"
        if token.type in ("_INDENT", "_DEDENT"):  # they borrow the newline's place: point at the next line
            line, col = token.end_line or 1, token.end_column or 1
        else:
            line = token.line if token.line is not None else 1
            col = token.column if token.column is not None else 1
        raise ParseProblem(line, col, f"unexpected {shown}{expected}{hint}") from None
    except UnexpectedInput as exc:  # pragma: no cover - other Lark input errors
        raise ParseProblem(getattr(exc, "line", 1), getattr(exc, "column", 1), str(exc)) from None
    except DedentError:
        line, indent = _bad_dedent(source)
        raise ParseProblem(line, indent + 1, "this line's indentation matches no outer block "
                                             "(indent it like a line above)") from None
    except (LarkError, RecursionError) as exc:
        raise ParseProblem(1, 1, f"cannot parse this rule: {exc.__class__.__name__}") from None
    _TREES.put(key, tree)
    return tree



def indentation_tabs(text: str) -> list[tuple[int, int]]:
    """(line, column) of every tab in the indentation of a line of `text` (blank lines and
    comments aside). The parser counts a tab as 8 columns, which the author's editor may not
    show, so a tab could silently move a statement into or out of a block."""
    found = []
    for number, line in enumerate(text.split("\n"), 1):
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        if "\t" in indent and line.strip() and not line.lstrip().startswith("#"):
            found.append((number, indent.index("\t") + 1))
    return found


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


_INSTEAD = "; cannot assign"  # how a hint that replaces the list of expected tokens begins
_TARGET = re.compile(r"\s*(let\s+)?[A-Za-z_]\w*(\s*(\.\s*[A-Za-z_]\w*|\[[^\n]*\]))*\s*$")


def _hint(source: str, token: Token, exc: UnexpectedToken) -> str:
    """What to write instead, for the syntax errors whose cause is known: assigning into a
    list or a property, and an expression split over lines outside brackets."""
    expected = set(getattr(exc, "expected", None) or ())
    lines = source.split("\n")
    line = lines[token.line - 1] if token.line and token.line <= len(lines) else ""
    before = line[:(token.column or 1) - 1]
    if token.type == "LSQB" and "EQUAL" in expected and before.lstrip().startswith("let "):
        return "; 'let' makes a new local of a name alone: write let x = [...], then x[i] = ..."
    if token.type == "LSQB" and "AUGOP" in expected:
        return (f"{_INSTEAD} into a list: '=' takes a local, a counter or one entry of a counter "
                "(name[key]); keep a counter per player or per key instead of a list, or build the "
                "new list and assign it whole (name[key] = [...])")
    if token.type == "EQUAL" and "." in before and _TARGET.fullmatch(before):
        return (f"{_INSTEAD} to a property (x.name): rules change counters, so keep a counter "
                "per card or per key (per: card) and write name[x] = ...")
    following = next((rest for rest in lines[token.line:] if rest.strip()), "")
    if token.type == "_NL" and "COLON" not in expected and _indent(following) > _indent(line):
        return ("; an expression goes on to the next line only inside ( ) or [ ]: put the whole "
                "expression in ( ) to write it over several lines")
    return ""


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


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

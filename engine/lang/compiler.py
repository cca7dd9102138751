"""Compiling effect-language trees to Python functions, once, at load time.

Expressions become functions `fn(g, env) -> value`, and so do runs of statements that never
ask a player. A program becomes a `Code` (core/program.py): statements that may suspend the game (a
choice, an emit, a procedure call), and the ifs and loops around them, are instructions, so
where a game waits is data. Names are resolved here, so a misspelt zone or function is a
load-time error with a suggestion.

The compiler builds Python `ast` nodes from the checked tree; codegen.py verifies and compiles
them. Locals live in the frame's `env` dict (a game can wait in the middle of a procedure),
except the variable of a comprehension, which is a Python local. Steps are counted at loop
iterations, comprehensions (by their length, before they run) and calls of the ruleset's
functions, procedures and `x -> ...` functions, which every endless loop or recursion goes
through; sizes are checked where values can grow (core/limits.py).
"""
from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Iterator

from lark import Token, Tree

from ..core.board import Board, Place
from ..core.errors import Diagnostic, EffectError, EngineError, Location, suggest
from ..core.limits import MAX_DIGITS, MAX_LIST, MAX_NESTED_LOOPS, STEP_BUDGET, LimitError, add, call, counted, \
    multiply, subtract, too_big, too_long
from ..core.program import (CONTROL, Assembler, Branch, Break, Call, Code, Continue, Drop, End, Exec, ForInit,
                            ForNext, Frame, Jump, Loop, Return, WhileTest)
from ..core.table import Card, Zone
from ..core.text import Text, card_text
from ..core.values import ConstantList, Lambda
from . import builtins as B
from .codegen import Ref, Unit, fault_position, stamp

Fn = Callable[[Any, dict], Any]
Store = Callable[[ast.expr, "ast.expr | None"], list[ast.stmt]]  # value, key -> statements

CARD_ATTRIBUTES = {"kind", "name", "id", "zone", "owner", "label", "face_down"}
ZONE_ATTRIBUTES = {"owner", "key", "name"}
PLACE_ATTRIBUTES = {"id", "label", "board"}
ROUTE_ATTRIBUTES = {"edges", "nodes", "end"}  # of what routes() returns
SPECIAL_NAMES = {"players", "player_count", "option"}


@dataclass
class Names:
    """The global names a ruleset defines, for resolution at compile time."""

    constants: dict[str, Any] = field(default_factory=dict)
    counters: dict[str, str | None] = field(default_factory=dict)
    zones: dict[str, str | tuple[str, str] | None] = field(default_factory=dict)
    functions: dict[str, list[str]] = field(default_factory=dict)
    procedures: dict[str, list[str]] = field(default_factory=dict)
    options: set[str] = field(default_factory=set)
    properties: set[str] = field(default_factory=set)
    lambdas: list[Callable | Ref] = field(default_factory=list)  # every `x -> ...` compiled, by index
    calls: dict[str, Callable] = field(default_factory=dict)  # each function, with its modifiers
    direct: set[str] = field(default_factory=set)  # procedures that never ask a player: plain calls
    counted: set[str] = field(default_factory=set)  # functions and plain procedures whose calls are steps
    codes: dict[str, Code] = field(default_factory=dict)  # the others' codes, each run in a frame
    # Each function's and procedure's tree and text, to explain a choice's options on request (game/why.py).
    sources: dict[str, tuple[Tree, str]] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)  # theirs, in the rulebook's words, for why.py

    def all(self) -> set[str]:
        return (set(self.constants) | set(self.counters) | set(self.zones) | set(self.functions)
                | set(self.procedures) | set(B.REGISTRY) | SPECIAL_NAMES)

    def own(self, name: str) -> bool:
        """Whether `name` is a global name of the ruleset's own: it hides a built-in of the same
        name, so that a built-in added later never changes what a ruleset means."""
        return name in self.constants or name in self.counters or name in self.zones \
            or name in self.functions or name in self.procedures


@dataclass(frozen=True)
class ChoiceSite:
    """Where a choose() is written, kept on its instruction for `why` (game/why.py) alone:
    its options' tree, the rule's text its positions index and the rule's whole tree (where
    the locals it reads were set). Nothing that runs a game reads it."""

    options: Tree
    text: str
    rule_tree: Tree
    rule: str

    def source(self, node: Tree | Token) -> str:
        """`node` as written in the rule, on one line."""
        meta = getattr(node, "meta", None)
        if isinstance(node, Token):
            return str(node)
        if meta is None or meta.empty or not self.text:
            return source(node)
        return " ".join(self.text[meta.start_pos:meta.end_pos].split())


def called(tree: Tree) -> set[str]:
    """The names a rule calls by name (functions, procedures, built-ins)."""
    return {str(node.children[0].children[0]) for node in tree.iter_subtrees()
            if node.data == "call" and isinstance(node.children[0], Tree) and node.children[0].data == "name"}


MAX_CALL_WEIGHT = 64  # calls one call of a function may make in all without counting a step


def counted_calls(trees: dict[str, Tree]) -> set[str]:
    """Which of the functions and plain procedures (`trees`, by name) count a step at each call:
    those that may call themselves, directly or through others, and those one call of which
    makes more than MAX_CALL_WEIGHT calls of others that do not count (a chain of functions each
    calling the next twice makes 2**n calls without any recursion). The others are small work
    inside something counted (a loop's iteration, a comprehension's item, a counted call), and
    cost nothing more."""
    sites = {name: [str(node.children[0].children[0]) for node in tree.iter_subtrees()
                    if node.data == "call" and isinstance(node.children[0], Tree) and node.children[0].data == "name"
                    and str(node.children[0].children[0]) in trees]
             for name, tree in trees.items()}
    counted: set[str] = set()
    weight: dict[str, int] = {}  # of the names done: calls one call makes (1 for a counted one)
    for root in trees:
        if root in weight:
            continue
        path, stack = [root], [iter(sites[root])]  # depth first, without Python's recursion
        while stack:
            callee = next(stack[-1], None)
            if callee is None:
                stack.pop()
                name = path.pop()
                total = 1 + sum(1 if c in counted else weight[c] for c in sites[name])
                if total > MAX_CALL_WEIGHT:
                    counted.add(name)
                weight[name] = 1 if name in counted else total
            elif callee in path:  # a cycle: every call in it counts
                counted.update(path[path.index(callee):])
            elif callee not in weight:
                path.append(callee)
                stack.append(iter(sites[callee]))
    return counted


def assigned(tree: Tree) -> Iterator[tuple[str, bool]]:
    """Each name a rule assigns to (`x = ...`, `x += ...`), and whether it assigns to an entry
    of it (`x[key] = ...`)."""
    for node in tree.iter_subtrees():
        if node.data in ("assign_stmt", "augassign_stmt"):
            target = node.children[0]
            yield str(target.children[0]), target.data == "index_target"


def card_parameter(tree: Tree, params: list[str]) -> int | None:
    """For a modifier's condition: the parameter it requires to be the card carrying the
    modifier (`op == card` or `card == op`, alone or first of an `and`), by position."""
    test = tree.children[0]
    if isinstance(test, Tree) and test.data == "and_op":
        test = test.children[0]
    if not (isinstance(test, Tree) and test.data == "compare" and len(test.children) == 3
            and str(test.children[1]) == "=="):
        return None
    names = [str(side.children[0]) if isinstance(side, Tree) and side.data == "name" else None
             for side in (test.children[0], test.children[2])]
    other = names[1] if names[0] == "card" else names[0] if names[1] == "card" else None
    return params.index(other) if other in params else None


def never_suspending(procedures: dict[str, Tree], names: Names) -> set[str]:
    """The procedures that can never make the game wait: no choice (choose, emit) in them or in
    any procedure they call. They run as plain Python calls, without a frame of their own."""
    direct: dict[str, bool] = {}
    calls: dict[str, set[str]] = {}
    for name, tree in procedures.items():
        direct[name], calls[name] = True, set()
        for callee in called(tree):
            if callee in names.procedures:
                calls[name].add(callee)
            elif not names.own(callee) and callee in B.REGISTRY and B.REGISTRY[callee].kind == B.CHOICE:
                direct[name] = False
    changed = True
    while changed:
        changed = False
        for name in procedures:
            if direct[name] and any(not direct.get(c, False) for c in calls[name]):
                direct[name] = False
                changed = True
    return {name for name, yes in direct.items() if yes}


class _Ops:
    """A compiled statement that may suspend: it adds its instructions to a code."""

    __slots__ = ("emit",)

    def __init__(self, emit: Callable[[Assembler, Loop | None], None]):
        self.emit = emit


_ARITH = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv, "%": ast.Mod}
_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}


def contains(g, item: Any, container: Any) -> bool:
    """`item in container`: a card in a zone, or an item of a list, table or text."""
    if isinstance(container, Zone):
        return isinstance(item, Card) and g.table.where[item.index] is container
    return item in container


def _explain(exc: Exception) -> str:
    """Turn a Python fault inside a rule into a sentence for the ruleset author."""
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, RecursionError):
        return "rules call each other too deeply (endless recursion?)"
    if isinstance(exc, IndexError):
        return "position out of range (a zone or list has fewer items)"
    if isinstance(exc, KeyError):
        return "no entry " + card_text(exc.args[0]) + " in that table or family"
    if isinstance(exc, TypeError):
        if "does not support item assignment" in str(exc):
            return "constants cannot be changed; copy one into a new list first, e.g. let l = list(c)"
        return _type_fault(str(exc))
    return f"{exc.__class__.__name__}: {exc}"


# Python's type names, in the language's words (a fault names the types of the values, not
# the values: a card's name in one could tell a hidden card).
_TYPE_WORDS = {"int": "a number", "float": "a number", "bool": "a true/false value", "str": "text",
               "string": "text", "Text": "text", "NoneType": "none", "list": "a list", "ConstantList": "a list",
               "tuple": "a list", "dict": "a table", "mappingproxy": "a table", "Route": "a route",
               "Player": "a player", "Card": "a card", "Zone": "a zone", "Place": "a place",
               "Board": "a board", "Lambda": "a function", "function": "a function"}
_OPERATOR_WORDS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "divide",
                   "%": "take the remainder of", "<": "compare", "<=": "compare", ">": "compare",
                   ">=": "compare", "unary -": "negate"}
_TYPE_FAULTS = [
    (re.compile(r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'"), ("op", "a", "b")),
    (re.compile(r"can only concatenate (\w+) \(not \"(\w+)\"\) to \w+"), ("a", "b")),
    (re.compile(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'"), ("op", "a", "b")),
    (re.compile(r"bad operand type for (unary -): '(\w+)'"), ("op", "a")),
    (re.compile(r"can't multiply sequence by non-int of type '(\w+)'"), ("b",)),
]


def _type_word(name: str) -> str:
    return _TYPE_WORDS.get(name, name)


def _type_fault(message: str) -> str:
    """A Python TypeError's message about operands, in the language's words: the operator and
    the types of the two values (as `"a" + 1` gives "cannot add text and a number with +")."""
    for pattern, fields in _TYPE_FAULTS:
        match = pattern.search(message)
        if match is None:
            continue
        found = dict(zip(fields, match.groups()))
        op = found.get("op", "*" if fields == ("b",) else "+")
        a, b = found.get("a"), found.get("b")
        if op == "unary -":
            return f"cannot negate {_type_word(a or '')} with -: only a number has a negative"
        return _type_fault_words(op, _type_word(a) if a else "a list or text", _type_word(b or ""))
    for pattern, words in _OTHER_FAULTS:
        match = pattern.search(message)
        if match is not None:
            return words.format(*(_type_word(g) for g in match.groups()))
    return f"values of the wrong type: {message}"


_OTHER_FAULTS = [
    (re.compile(r"argument of type '(\w+)' is not iterable"),
     "cannot look inside {0} with in: in needs a list, a zone, a table or text"),
    (re.compile(r"'in <string>' requires string as left operand, not (\w+)"),
     "cannot look for {0} in text with in: only text is found in text"),
    (re.compile(r"'(\w+)' object is not callable"), "{0} is not a function, so it cannot be called"),
    (re.compile(r"'(\w+)' object is not iterable"), "{0} has no items to go through"),
    (re.compile(r"unhashable type: '(\w+)'"), "{0} cannot be a key of a table"),
    (re.compile(r"(\w+) indices must be integers(?: or slices)?, not '?(\w+)'?"),
     "the items of {0} are found by their position, a whole number, not by {1}"),
]


def _type_fault_words(op: str, left: str, right: str) -> str:
    """The message for operator `op` given values of kinds `left` and `right` (in words)."""
    verb = _OPERATOR_WORDS.get(op, "combine")
    hint = ""
    if op == "+" and "text" in (left, right):
        hint = "; to join a value to text, make it text first: text(x), or use format()"
    elif op == "%" and left == "text":
        hint = "; to put values in text, use format(template, values...)"
    elif op in ("<", "<=", ">", ">="):
        hint = "; only numbers compare with each other, or texts with texts"
    return f"cannot {verb} {left} and {right} with {op}{hint}"


def locate(exc: Exception, location: Location | None, rule: str) -> EffectError | None:
    """The error to raise for a fault inside a rule: a Python fault or an EffectError without a
    place gets the place of the innermost rule text running (else `location` in `rule`);
    control flow and located errors pass as they are (None)."""
    if isinstance(exc, CONTROL) or (isinstance(exc, EffectError) and exc.location is not None):
        return None
    if isinstance(exc, EngineError) and not isinstance(exc, EffectError):
        return None
    position = fault_position(exc)
    unset = None
    if position is not None:
        location, rule, unset = position
    elif location is None:
        return None
    if isinstance(exc, EffectError):
        return type(exc)(exc.message, location, rule)  # a LimitError stays one
    if unset is not None:
        message = f"'{unset}' has no value yet at this point"
    else:
        message = _explain(exc)
    return EffectError(message, location, rule)


def evaluate(fn: Fn, g: Any, env: dict) -> Any:
    """Call a compiled expression from Python, outside the game's program (scores, views): a
    fault becomes an error located at the rule's text."""
    try:
        return fn(g, env)
    except Exception as exc:
        located = locate(exc, None, "")
        if located is None:
            raise
        raise g.public_error(located) from None


def get_attribute(g, obj: Any, name: str) -> Any:
    """Attribute access of the language: card properties, zone owner..."""
    if type(obj) is Card:
        props = obj._props
        if name in props:
            return props[name]
        if name == "zone":
            return g.table.where[obj.index]
        if name == "owner":
            return g.table.owner(g.table.where[obj.index])
        if name == "face_down":
            return g.table.face_down[obj.index]
        if name == "label" or name == "name":  # what the card is: told only to those who see it
            return Text.of_card(obj, name)
        if name in ("kind", "id"):
            return getattr(obj, name)
        raise EffectError("the card " + card_text(obj) + f" ({obj.kind}) has no property '{name}'"
                          + suggest(name, list(props)))
    if isinstance(obj, Place):
        if name in obj.props:
            return obj.props[name]
        if name in PLACE_ATTRIBUTES:
            return getattr(obj, name)
        raise EffectError(f"the place {obj.label} has no property '{name}'" + suggest(name, list(obj.props)))
    if isinstance(obj, Zone):
        if name == "owner":
            return g.table.owner(obj)
        if name in ZONE_ATTRIBUTES:
            return getattr(obj, name)
        raise EffectError(f"a zone has no attribute '{name}' (zones have: owner, key, name)")
    if isinstance(obj, Mapping) and name in obj:
        return obj[name]
    raise EffectError(B.describe(obj) + f" has no attribute '{name}'")


def get_index(g, obj: Any, key: Any) -> Any:
    t = type(obj)
    if t is list or t is ConstantList:
        return obj[key]
    if (t is dict or t is MappingProxyType) and key in obj:
        return obj[key]
    if t is Zone:
        return g.table.contents[obj.index][key]
    if isinstance(obj, Mapping):
        if key not in obj:
            entries = [card_text(k) for k in list(obj)[:12]]
            raise EffectError(Text(["no entry ", card_text(key), " here; entries are: "]
                                   + [piece for i, k in enumerate(entries) for piece in (", " * bool(i), k)]))
        return obj[key]
    if isinstance(obj, (list, tuple, str)):
        return obj[key]
    if isinstance(obj, Board):
        if key not in obj.by_id:
            raise EffectError(f"board {obj.name} has no place '{key}'" + suggest(str(key), obj.by_id))
        return obj.by_id[key]
    raise EffectError(B.describe(obj) + " cannot be indexed")


def set_counter_item(family: dict, key: Any, value: Any, name: str) -> None:
    if key not in family:
        raise EffectError(f"counter {name} has no entry " + card_text(key))
    family[key] = value


def remainder(a: Any, b: Any) -> Any:
    """`a % b`, the remainder of numbers. On text, Python's `%` would fill a printf-style
    template, reading cards (and hidden ones) as plain strings: the language has format()."""
    if isinstance(a, str):
        raise EffectError("cannot take the remainder of text with %: to put values in text, use "
                          "format(template, values...)")
    return a % b


def repeat_range(n: Any) -> range:
    if not isinstance(n, int) or isinstance(n, bool):
        raise EffectError("repeat needs a whole number, got " + B.describe(n))
    if n > MAX_LIST:
        raise LimitError(f"repeat of more than {MAX_LIST:,} times (the limit of a loop's length)")
    return range(n)


# What generated code may call, besides the game `g` and its locals `env`.
RUNTIME: dict[str, Any] = {
    "_r_attr": get_attribute, "_r_index": get_index, "_r_contains": contains, "_r_iterate": B.iterate,
    "_r_items": B._items, "_r_repeat": repeat_range, "_r_mod": remainder, "_r_lambda": Lambda, "_r_return": Return,
    "_r_break": Break, "_r_continue": Continue, "_r_too_long": too_long, "_r_set_item": set_counter_item,
    "_r_list": list, "_r_len": len, "_r_any": any, "_r_all": all, "_r_frame": Frame,
    "_r_add": add, "_r_sub": subtract, "_r_mul": multiply, "_r_counted": counted, "_r_call": call,
    **{f"_b_{name}": spec.fn for name, spec in B.REGISTRY.items()},
}


# ---------------------------------------------------------------- building ast nodes

def string_value(token: Token) -> str:
    """The text a string literal of the effect language stands for."""
    raw = str(token)[1:-1]
    return raw.replace('\\"', '"').replace("\\'", "'").replace("\\n", "\n").replace("\\\\", "\\")


# What a name that is no function is, for the message when it is called.
_NOT_CALLABLE = (("constants", "a constant"), ("counters", "a counter"), ("zones", "a zone"))

# Python functions a ruleset's author may reach for, and what the language has instead.
_PYTHON_FUNCTIONS = {"len": "count(items)", "str": "text(value)", "print": "log(parts...)",
                     "sorted": "sorted_by(items, x -> x)"}


def source(node: Tree | Token | None, depth: int = 0) -> str:
    """A short rendering of an expression's tree for messages: names, literals, properties,
    items and calls as written; anything longer as '...'."""
    if node is None or depth > 3:
        return "..."
    if isinstance(node, Token):
        return str(node)
    kind, kids = node.data, node.children
    if kind in ("name", "number", "string"):
        return str(kids[0])
    if kind in ("true", "false", "none"):
        return str(kind)
    if kind == "attribute":
        return f"{source(kids[0], depth + 1)}.{kids[1]}"
    if kind == "index":
        return f"{source(kids[0], depth + 1)}[{source(kids[1], depth + 1)}]"
    if kind == "index_pair":
        return f"{source(kids[0], depth + 1)}[{source(kids[1], depth + 1)}, {source(kids[2], depth + 1)}]"
    if kind == "call":
        args = kids[1]
        inner = "" if args is None else ", ".join(source(a, depth + 1) for a in args.children) \
            if args.data == "arguments" else "..."
        return f"{source(kids[0], depth + 1)}({inner})"
    return "..."


def _name(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _const(value: Any) -> ast.Constant:
    return ast.Constant(value)


def _call(fn: str | ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(_name(fn) if isinstance(fn, str) else fn, list(args), [])


def _attr(obj: ast.expr, attr: str) -> ast.Attribute:
    return ast.Attribute(obj, attr, ast.Load())


def _item(obj: ast.expr, key: ast.expr, store: bool = False) -> ast.Subscript:
    return ast.Subscript(obj, key, ast.Store() if store else ast.Load())


def _game_table(part: str) -> ast.Attribute:
    return _attr(_attr(_name("g"), "table"), part)


def _local(name: str, store: bool = False) -> ast.Subscript:
    return _item(_name("env"), _const(name), store)


def _assign(target: ast.expr, value: ast.expr) -> ast.Assign:
    return ast.Assign([target], value)


# Arithmetic whose result may grow past the limits (core/limits.py): checked by these functions.
_CHECKED = {"+": "_r_add", "-": "_r_sub", "*": "_r_mul"}
_SMALL = 2 ** 63  # adding or taking a whole number below this cannot grow another past the limits unseen


def _arithmetic(op: str, a: ast.expr, b: ast.expr, number: bool = False) -> ast.expr:
    """`a op b`; through a function that checks the result's size where it can grow: always
    for `*`, and for `+` and `-` unless one side is a value written out (a count going up by
    one, a text growing by a few letters, grow no faster than the steps taken) or the tree
    says a side is a number (`number`: then so is the result, and it grows by a digit at most
    where a text or list could double)."""
    written = any(type(x) is ast.Constant and (type(x.value) is not int or abs(x.value) < _SMALL) for x in (a, b))
    if op in _CHECKED and not (op != "*" and (written or number)):
        return _call(_CHECKED[op], _name("g"), a, b)
    return ast.BinOp(a, _ARITH[op](), b)


def _step() -> list[ast.stmt]:
    """Count one step of the game; too many since the last decision stop it."""
    steps = ast.Attribute(_name("g"), "steps", ast.Store())
    return [ast.AugAssign(steps, ast.Add(), _const(1)),
            ast.If(ast.Compare(_attr(_name("g"), "steps"), [ast.Gt()], [_const(STEP_BUDGET)]),
                   [ast.Expr(_call("_r_too_long"))], [])]


class _FreeJumps(ast.NodeTransformer):
    """A break or continue outside any Python loop of its function leaves the function as an
    exception, which the Exec instruction of the surrounding loop turns into a jump."""

    def visit_For(self, node):
        return node

    visit_While = visit_For

    def visit_Break(self, node):
        return ast.copy_location(ast.Raise(_call("_r_break"), None), node)

    def visit_Continue(self, node):
        return ast.copy_location(ast.Raise(_call("_r_continue"), None), node)


_LOOPS = frozenset({"for_stmt", "while_stmt", "repeat_stmt"})


def _free_jumps(stmts: list[ast.stmt]) -> list[ast.stmt]:
    return [_FreeJumps().visit(s) for s in stmts]


class Compiler:
    """Compiles the trees of one rule; problems go into `problems` with file positions."""

    def __init__(self, names: Names, where: Callable[[int, int], Location], rule: str,
                 problems: list[Diagnostic]):
        self.names = names
        self.where = where
        self.rule = rule
        self.problems = problems
        # Names in scope, innermost last: each maps to its Python local, or None for a local
        # kept in `env`.
        self.scopes: list[dict[str, str | None]] = []
        self.loops = 0
        self.inner = 0  # comprehensions and function values being compiled around the expression
        self.slots = 0
        self.temps = 0
        self.has_env = True  # whether the function being compiled has its locals in `env`
        self.direct = False  # compiling a procedure as one Python function: `return` returns
        self.in_env: set[str] | None = None  # with `direct`, the locals kept in `env`; the others are Python's
        self.card_vars: set[str] = set()  # Python locals that can only hold a card
        self.unit = Unit(rule, where(1, 1).file, RUNTIME)
        self.text = ""  # the rule's text, which its trees' positions index (for ChoiceSite)
        self.tree: Tree | None = None  # the program being compiled

    # ------------------------------------------------------------ entry points

    def program(self, tree: Tree, params: list[str]) -> Code:
        """The code running the statements of `tree`, with `params` as its first locals."""
        self.scopes = [dict.fromkeys(params)]
        self.tree = tree
        asm = Assembler()
        self._emit_block(self._block(tree.children), asm, None)
        asm.add(End())
        self._merge_into_next(asm.ops)
        self._build()
        for op in asm.ops:
            for slot in ("fn", "cond", "items", "start", "then"):
                value = getattr(op, slot, None)
                if isinstance(value, Ref):
                    setattr(op, slot, value.fn)
        return Code(asm.ops)

    def _merge_into_next(self, ops: list) -> None:
        """Run a stretch of plain statements in the same function as the call before it (once
        its value is stored) or as the call or test after it: one instruction fewer. Only when
        nothing jumps between the two and the stretch has no break, continue or return (which
        its own instruction would catch)."""
        targets = {getattr(op, slot, -1) for op in ops for slot in ("target", "exit", "brk", "cont")}

        def plain(op) -> bool:
            return type(op) is Exec and not any(type(n) is ast.Raise for stmt in self.unit.body(op.fn)
                                                for n in ast.walk(stmt))
        for i, (op, after) in enumerate(zip(ops, ops[1:])):
            if type(op) is Call and not op.leaves and i + 1 not in targets and plain(after):
                if op.then is None:
                    op.then = self._function([], op.loc, ("g", "env", self._temp()))
                self.unit.merge(after.fn, op.then, after=True)
                ops[i + 1] = Jump(i + 2)
            elif type(after) in (Call, Branch) and i + 1 not in targets and plain(op):
                self.unit.merge(op.fn, after.start if type(after) is Call else after.cond)
                ops[i] = Jump(i + 1)

    def expression(self, tree: Tree, params: list[str]) -> Fn:
        """A function (g, env) -> value."""
        self.scopes = [dict.fromkeys(params)]
        value = self._expr(tree.children[0])
        ref = self._function([ast.Return(value)], tree.children[0])
        self._build()
        return ref.fn

    def function(self, tree: Tree, params: list[str], counted: bool = True) -> Callable:
        """A ruleset function: (g, *params) -> value, its parameters Python locals; with
        `counted`, each call is a step."""
        python = {p: self._temp("_v") for p in params}
        self.scopes = [python]
        self.has_env = False
        value = self._expr(tree.children[0])
        step = _step() if counted else []
        ref = self._function(step + [ast.Return(value)], tree.children[0], ("g", *python.values()))
        self._build()
        return ref.fn

    def procedure(self, tree: Tree, params: list[str], counted: bool = True) -> Callable:
        """A procedure that never suspends (see never_suspending): one function (g, env) -> value;
        with `counted`, each call is a step.
        Nothing waits in it, so its locals need not be data: they are Python locals, read and
        written several times faster than `env`'s, but for those a function value (`x -> ...`)
        in it reads, which it reads in `env` as they change."""
        self.direct = True
        self.in_env = {str(n.children[0]) for lam in tree.find_data("lambda_expr") for n in lam.find_data("name")}
        self.scopes = [{p: None if p in self.in_env else self._temp("_v") for p in params}]
        given = []  # the parameters, from `env` into Python locals
        for p, python in self.scopes[0].items():
            if python:
                self.unit.locals[python] = p
                given.append(_assign(ast.Name(python, ast.Store()), _local(p)))
        block = self._block(tree.children)
        if self._suspends(block):
            raise AssertionError("a procedure compiled as a plain call suspends")
        ref = self._function((_step() if counted else []) + given + self._plain(block), tree)
        self._build()
        return ref.fn

    def _build(self) -> None:
        self.unit.build()
        lambdas = self.names.lambdas
        for i, fn in enumerate(lambdas):
            if isinstance(fn, Ref) and fn.fn is not None:
                lambdas[i] = fn.fn

    # ------------------------------------------------------------ helpers

    def _loc(self, node: Tree | Token) -> Location:
        if isinstance(node, Token):
            return self.where(node.line or 1, node.column or 1)
        meta = getattr(node, "meta", None)
        if meta is not None and not meta.empty:
            return self.where(meta.line, meta.column)
        for child in node.children:
            if isinstance(child, (Tree, Token)):
                return self._loc(child)
        return self.where(1, 1)

    def _error(self, node: Tree | Token, message: str) -> None:
        self.problems.append(Diagnostic(self._loc(node), message))

    def _is_local(self, name: str) -> bool:
        return any(name in s for s in self.scopes)

    def _global(self, node: Tree | Token | None) -> str | None:
        """The name `node` is, if it is a bare name that no local of the rule hides."""
        if isinstance(node, Tree) and node.data == "name":
            name = str(node.children[0])
            if not self._is_local(name):
                return name
        return None

    def _builtin(self, node: Tree | Token | None, name: str) -> bool:
        """Whether `node` is the language's built-in `name`: no local and no name of the
        ruleset hides it."""
        return self._global(node) == name and not self.names.own(name)

    def _read_local(self, name: str) -> ast.expr:
        for scope in reversed(self.scopes):
            if name in scope:
                python = scope[name]
                if python:
                    return _name(python)
                self.unit.locals[name] = name
                return _local(name)
        raise KeyError(name)

    def _write_local(self, name: str) -> ast.expr:
        """The target that stores into a local: its Python local, or its entry of `env`."""
        python = next(scope[name] for scope in reversed(self.scopes) if name in scope)
        return ast.Name(python, ast.Store()) if python else _local(name, store=True)

    def _declare(self, node: Token, name: str) -> None:
        if self.names.own(name) and name not in self.scopes[0]:
            self._error(node, f"'{name}' is already a name of the ruleset; "
                              "choose another name for this local")
        if name not in self.scopes[-1]:
            python = self._temp("_v") if self.in_env is not None and name not in self.in_env else None
            self.scopes[-1][name] = python
            if python:
                self.unit.locals[python] = name

    def _unknown(self, node: Token, name: str) -> None:
        known = self.names.all() | set().union(*self.scopes)
        self._error(node, f"unknown name '{name}'{suggest(name, known)}")

    def _temp(self, prefix: str = "_t") -> str:
        self.temps += 1
        return f"{prefix}{self.temps}"

    def _function(self, body: list[ast.stmt], node: Tree | Token | Location,
                  params: tuple[str, ...] = ("g", "env")) -> Ref:
        loc = node if isinstance(node, Location) else self._loc(node)
        return self.unit.define(body, loc, params)

    def _value_function(self, value: ast.expr, node: Tree | Token | Location) -> Ref:
        return self._function([ast.Return(value)], node)

    # ------------------------------------------------------------ statements
    #
    # A compiled statement is a list of ast statements, or, when it may suspend the game, an
    # `_Ops` that adds instructions. A block is a list of (statement, its location); runs of
    # plain statements in a block that suspends become one `Exec` instruction.

    def _block(self, stmts: list) -> list[tuple[list[ast.stmt] | _Ops, Location]]:
        return [(self._stmt(s), self._loc(s)) for s in stmts if isinstance(s, Tree)]

    @staticmethod
    def _suspends(block: list) -> bool:
        return any(isinstance(s, _Ops) for s, _ in block)

    @staticmethod
    def _plain(block: list) -> list[ast.stmt]:
        return [s for stmts, _ in block for s in stmts] or [ast.Pass()]

    def _emit_block(self, block: list, asm: Assembler, loop: Loop | None) -> None:
        run: list = []

        def flush() -> None:
            if run:
                body = self._plain(run)
                fn = self._function(_free_jumps(body) if loop else body, run[0][1])
                op = asm.add(Exec(fn, run[0][1], self.rule, cont=loop.top if loop else -1))
                if loop:
                    loop.breakers.append(op)
                run.clear()
        for stmt, loc in block:
            if isinstance(stmt, _Ops):
                flush()
                stmt.emit(asm, loop)
            else:
                run.append((stmt, loc))
        flush()

    def _suite(self, suite: Tree) -> list:
        return self._block(suite.children)

    def _loop_body(self, suite: Tree) -> list:
        self.loops += 1
        try:
            return self._suite(suite)
        finally:
            self.loops -= 1

    def _stmt(self, node: Tree) -> list[ast.stmt] | _Ops:
        method = getattr(self, "_s_" + node.data, None)
        if method is None:
            self._error(node, f"unsupported statement {node.data}")
            return [ast.Pass()]
        if node.data in _LOOPS and self.loops == MAX_NESTED_LOOPS:  # deeper than Python compiles
            self._error(node, f"loops nested more than {MAX_NESTED_LOOPS} deep; move the inner ones into a "
                              "procedure or function of their own")
            return [ast.Pass()]
        compiled = method(node)
        if isinstance(compiled, _Ops):
            return compiled
        loc = self._loc(node)
        return [stamp(s, loc) for s in compiled]

    def _call_ops(self, node: Tree, start: ast.expr, store: Callable[[ast.expr], list[ast.stmt]] | None,
                  leaves: bool = False) -> _Ops:
        """The instruction of a statement whose call may suspend, and where its value goes:
        the statements `store` makes of it, or the frame's return value (`leaves`)."""
        loc, rule = self._loc(node), self.rule
        ref = self._value_function(start, loc)
        then = None
        if store is not None:
            value = self._temp()
            then = self._function(store(_name(value)), loc, ("g", "env", value))
        site = self._choice_site(node)
        return _Ops(lambda asm, loop: asm.add(Call(ref, then, loc, rule, leaves, site)))

    def _choice_site(self, node: Tree) -> ChoiceSite | None:
        """Where the options of a statement's choose() are written, if it is one."""
        call = node if node.data == "call" else next(
            (c for c in node.children if isinstance(c, Tree) and c.data == "call"), None)
        if call is None or not self._builtin(call.children[0], "choose") or self.tree is None:
            return None
        args = call.children[1]
        if args is None or args.data != "arguments" or len(args.children) < 2:
            return None
        return ChoiceSite(args.children[1], self.text, self.tree, self.rule)

    def _value_maybe_suspending(self, node: Tree) -> tuple[ast.expr, bool]:
        """The right-hand side of a statement: a plain expression, or a call that may suspend
        (then its value is the call's value or SUSPENDED)."""
        name = self._global(node.children[0]) if node.data == "call" else None
        if name is not None and self._call_kind(name) in (B.EFFECT, B.CHOICE, "procedure"):
            return self._call(node, statement=True)
        return self._expr(node), False

    def _s_let_stmt(self, node: Tree):
        name_tok, value = node.children
        expr, suspends = self._value_maybe_suspending(value)
        self._declare(name_tok, str(name_tok))
        name = str(name_tok)
        if suspends:
            return self._call_ops(node, expr, lambda value: [_assign(self._write_local(name), value)])
        return [_assign(self._write_local(name), expr)]

    def _store(self, target: Tree, key_computed: bool = False) -> Store | None:
        """The statements storing a value into an assignment target: a local, a counter, or an
        entry of either (at the target's key, or at a key computed before)."""
        name_tok = target.children[0]
        name = str(name_tok)
        if target.data == "name_target":
            if self._is_local(name):
                return lambda value, key: [_assign(self._write_local(name), value)]
            if name in self.names.counters:
                if self.names.counters[name]:
                    self._error(name_tok, f"'{name}' is one counter per {self.names.counters[name]}; "
                                          f"write {name}[...] = ...")
                    return None
                return lambda value, key: [_assign(_item(_game_table("counters"), _const(name), True), value)]
            known = set(self.names.counters) | set().union(*self.scopes)
            self._error(name_tok, f"cannot assign to '{name}': not a local or a counter"
                                  f"{suggest(name, known)}; use 'let {name} = ...' for a new local")
            return None
        key_node = target.children[1]

        def key_of(key: ast.expr | None) -> ast.expr:
            return key if key is not None else self._expr(key_node)
        if self._is_local(name):
            return lambda value, key: [_assign(_item(self._read_local(name), key_of(key), True), value)]
        if name in self.names.counters and self.names.counters[name]:
            def store_counter_item(value: ast.expr, key: ast.expr | None) -> list[ast.stmt]:
                family = _item(_game_table("counters"), _const(name))
                return [ast.Expr(_call("_r_set_item", family, key_of(key), value, _const(name)))]
            return store_counter_item
        if name in self.names.constants:
            self._error(name_tok, f"cannot assign to '{name}[...]': '{name}' is a constant, which no rule "
                                  "changes; make it a counter per player or per key (counters: "
                                  f"{name}: {{per: ...}}), or build a new list: let l = [...]")
            return None
        self._error(name_tok, f"cannot assign to '{name}[...]': not a local or a per-player/per-value "
                              f"counter{suggest(name, self.names.counters)}")
        return None

    def _s_assign_stmt(self, node: Tree):
        target, value = node.children
        expr, suspends = self._value_maybe_suspending(value)
        store = self._store(target) or (lambda value, key: [ast.Expr(value)])
        if suspends:
            return self._call_ops(node, expr, lambda value: store(value, None))
        return store(expr, None)

    def _s_augassign_stmt(self, node: Tree):
        target, op, value = node.children
        name = str(target.children[0])
        store = self._store(target, key_computed=target.data == "index_target")
        apply = str(op)[:-1]
        operand = self._expr(value)
        if store is None:  # the target is reported: reading it would report the same name again
            keys = [target.children[1]] if target.data == "index_target" else []
            return [ast.Expr(operand)] + [ast.Expr(self._expr(k)) for k in keys]
        number = self._kind(value) == "number"
        if target.data == "name_target":
            current = self._expr(Tree("name", [target.children[0]]))
            return store(_arithmetic(apply, current, operand, number), None)
        # name[key] op= value: the key is computed once, for reading and for writing.
        key, container = self._temp(), self._temp()
        family = self._expr(Tree("name", [target.children[0]])) if self._is_local(name) or \
            name in self.names.counters else ast.Dict([], [])
        current = _call("_r_index", _name("g"), _name(container), _name(key))
        return [_assign(ast.Name(key, ast.Store()), self._expr(target.children[1])),
                _assign(ast.Name(container, ast.Store()), family),
                *store(_arithmetic(apply, current, operand, number), _name(key))]

    def _s_expr_stmt(self, node: Tree):
        expr, suspends = self._value_maybe_suspending(node.children[0])
        return self._call_ops(node, expr, None) if suspends else [ast.Expr(expr)]

    def _s_pass_stmt(self, node: Tree):
        return [ast.Pass()]

    def _s_return_stmt(self, node: Tree):
        if node.children and node.children[0] is not None:
            expr, suspends = self._value_maybe_suspending(node.children[0])
        else:
            expr, suspends = _const(None), False
        if suspends:
            return self._call_ops(node, expr, None, leaves=True)
        if self.direct:
            return [ast.Return(expr)]
        return [ast.Raise(_call("_r_return", expr), None)]

    def _jump(self, node: Tree, word: str, statement: ast.stmt):
        if not self.loops:
            self._error(node, f"'{word}' outside a loop")
            return [ast.Pass()]
        return [statement]

    def _s_break_stmt(self, node: Tree):
        return self._jump(node, "break", ast.Break())

    def _s_continue_stmt(self, node: Tree):
        return self._jump(node, "continue", ast.Continue())

    def _s_if_stmt(self, node: Tree):
        branches: list[tuple[ast.expr | None, list]] = [(self._expr(node.children[0]),
                                                         self._suite(node.children[1]))]
        for child in node.children[2:]:
            if child is None:
                continue
            if child.data == "elif_clause":
                branches.append((self._expr(child.children[0]), self._suite(child.children[1])))
            else:
                branches.append((None, self._suite(child.children[0])))
        if not any(self._suspends(b) for _, b in branches):
            orelse: list[ast.stmt] = []
            for cond, block in reversed(branches):
                orelse = self._plain(block) if cond is None else [ast.If(cond, self._plain(block), orelse)]
            return orelse
        loc, rule = self._loc(node), self.rule
        conds = [self._value_function(cond, loc) if cond is not None else None for cond, _ in branches]

        def emit(asm: Assembler, loop: Loop | None) -> None:
            to_end = []
            for i, (cond, (_, block)) in enumerate(zip(conds, branches)):
                test = asm.add(Branch(cond, loc, rule)) if cond is not None else None
                self._emit_block(block, asm, loop)
                if i < len(branches) - 1:
                    to_end.append(asm.add(Jump()))
                if test is not None:
                    test.target = asm.here
            for jump in to_end:
                jump.target = asm.here
        return _Ops(emit)

    def _loop_ops(self, node: Tree, body: list, items: ast.expr | None, cond: ast.expr | None,
                  var: str | None) -> _Ops:
        """Instructions of a loop whose body may suspend: over `items` (for, repeat), computed
        once into a hidden local, or while `cond` holds."""
        loc, rule = self._loc(node), self.rule
        self.slots += 1
        slot = f"#loop{self.slots}"  # never a name a rule can write
        items_fn = self._value_function(items, loc) if items is not None else None
        always = type(cond) is ast.Constant and cond.value is True  # while true: no test to run
        cond_fn = self._value_function(cond, loc) if cond is not None and not always else None

        def emit(asm: Assembler, outer: Loop | None) -> None:
            if items_fn is not None:
                asm.add(ForInit(items_fn, slot, loc, rule))
                top = asm.here
                head: ForNext | WhileTest = asm.add(ForNext(slot, var, loc, rule))
            else:
                top = asm.here
                head = asm.add(WhileTest(cond_fn, loc, rule))
            loop = Loop(top)
            self._emit_block(body, asm, loop)
            asm.add(Jump(top))
            head.exit = asm.here
            loop.close(asm.here)
            if items_fn is not None:
                asm.add(Drop(slot))
        return _Ops(emit)

    def _s_for_stmt(self, node: Tree):
        var_tok, iterable, suite = node.children
        every = self._every_zone(iterable)
        items = _call("_r_items", _name("g"), self._expr(iterable) if every is None else every)
        self._declare(var_tok, str(var_tok))
        body = self._loop_body(suite)
        if self._suspends(body):
            return self._loop_ops(node, body, items, None, str(var_tok))
        return [ast.For(self._write_local(str(var_tok)), items, _step() + self._plain(body), [])]

    def _s_while_stmt(self, node: Tree):
        cond = self._expr(node.children[0])
        body = self._loop_body(node.children[1])
        if self._suspends(body):
            return self._loop_ops(node, body, None, cond, None)
        return [ast.While(cond, _step() + self._plain(body), [])]

    def _s_repeat_stmt(self, node: Tree):
        times = _call("_r_repeat", self._expr(node.children[0]))
        body = self._loop_body(node.children[1])
        if self._suspends(body):
            return self._loop_ops(node, body, _call("_r_list", times), None, None)
        return [ast.For(ast.Name(self._temp(), ast.Store()), times, _step() + self._plain(body), [])]

    # ------------------------------------------------------------ expressions

    def _expr(self, node: Tree | Token) -> ast.expr:
        method = getattr(self, "_e_" + node.data, None) if isinstance(node, Tree) else None
        if method is None:
            self._error(node, "unsupported expression")
            return _const(None)
        return method(node)

    def _e_number(self, node):
        text = str(node.children[0])
        if len(text.split(".")[0]) > MAX_DIGITS:
            self._error(node, f"a number of more than {MAX_DIGITS} digits (the limit of numbers)")
            return _const(0)
        value = float(text) if "." in text else int(text)
        if too_big(value):
            self._error(node, too_big(value))
            return _const(0)
        return _const(value)

    def _e_string(self, node):
        return _const(string_value(node.children[0]))

    def _e_true(self, node):
        return _const(True)

    def _e_false(self, node):
        return _const(False)

    def _e_none(self, node):
        return _const(None)

    def _e_name(self, node):
        tok = node.children[0]
        name = str(tok)
        if self._is_local(name):
            return self._read_local(name)
        n = self.names
        if name in n.constants:
            return self.unit.value(n.constants[name])
        if name in n.counters:
            return _item(_game_table("counters"), _const(name))
        if name in n.zones:
            return _item(_game_table("zones"), _const(name))
        if name in n.functions or name in n.procedures:
            self._error(tok, f"'{name}' is a function: call it, as {name}(...)")
        elif name == "players":
            return _item(_attr(_name("g"), "players"), ast.Slice(None, None, None))
        elif name == "player_count":
            return _call("_r_len", _attr(_name("g"), "players"))
        elif name == "option":
            self._error(tok, "write option.NAME to read a ruleset option")
        elif name in B.REGISTRY:
            self._error(tok, f"'{name}' is a function: call it, as {name}(...)")
        else:
            self._unknown(tok, name)
        return _const(None)

    def _e_attribute(self, node):
        obj, attr_tok = node.children
        attr = str(attr_tok)
        if self._builtin(obj, "option"):
            if attr not in self.names.options:
                self._error(attr_tok, f"unknown option '{attr}'{suggest(attr, self.names.options)}")
            return _call(_attr(_attr(_name("g"), "options"), "get"), _const(attr))
        if attr not in (self.names.properties | CARD_ATTRIBUTES | ZONE_ATTRIBUTES | PLACE_ATTRIBUTES
                        | ROUTE_ATTRIBUTES):
            self._error(attr_tok, f"no card kind has a property '{attr}'"
                                  f"{suggest(attr, self.names.properties | CARD_ATTRIBUTES)}")
        value = self._expr(obj)
        if type(value) is ast.Name and value.id in self.card_vars:  # a card's property: read it at once
            props = _attr(_name(value.id), "_props")
            return ast.IfExp(ast.Compare(_const(attr), [ast.In()], [props]), _item(props, _const(attr)),
                             _call("_r_attr", _name("g"), value, _const(attr)))
        return _call("_r_attr", _name("g"), value, _const(attr))

    def _family(self, node: Tree | Token) -> tuple[str, str] | None:
        """('zones' or 'counters', name) if `node` names a zone family or a counter family."""
        name = self._global(node)
        if name is not None and self.names.zones.get(name):
            return "zones", name
        if name is not None and self.names.counters.get(name):
            return "counters", name
        return None

    def _zone(self, node: Tree | Token) -> ast.expr | None:
        """The expression of a zone, if the tree says `node` is one (a zone, or a zone of a
        family at a key); None if only the running game can tell."""
        name = self._global(node)
        if name in self.names.zones and self.names.zones[name] is None:
            return _item(_game_table("zones"), _const(name))
        if isinstance(node, Tree) and node.data == "index_pair":
            return self._e_index_pair(node)
        if isinstance(node, Tree) and node.data == "index":
            obj = node.children[0]
            family = self._family(obj)
            if family is not None and family[0] == "zones":
                if type(self.names.zones[family[1]]) is tuple:  # a row of a family keyed by two keys
                    return None
                return self._e_index(node)
            if isinstance(obj, Tree) and obj.data == "index":
                family = self._family(obj.children[0])
                if family is not None and family[0] == "zones" and type(self.names.zones[family[1]]) is tuple:
                    return self._e_index(node)  # a zone of a family keyed by two keys: [k1][k2]
        return None

    def _every_zone(self, node: Tree | Token) -> ast.expr | None:
        """Every zone of a family keyed by two keys, if `node` names one: what iterating it gives."""
        name = self._global(node)
        if name is not None and type(self.names.zones.get(name)) is tuple:
            return _item(_attr(_game_table("layout"), "every"), _const(name))
        return None

    def _zone_cards(self, node: Tree | Token) -> ast.expr | None:
        """The table's own list of the cards in `node`, if it is statically a zone."""
        zone = self._zone(node)
        return None if zone is None else _item(_game_table("contents"), _attr(zone, "index"))

    def _items_of(self, node: Tree | Token) -> ast.expr:
        """The items of a zone, list or table, to read while nothing changes them."""
        cards = self._zone_cards(node)
        if cards is not None:
            return cards
        every = self._every_zone(node)
        if every is not None:
            return every
        if self._plainly_list(node):
            return self._expr(node)
        return _call("_r_iterate", _name("g"), self._expr(node))

    def _plainly_list(self, node: Tree | Token) -> bool:
        """Whether the tree says `node` is a list: a list or comprehension written out, or the
        name of a constant list."""
        if isinstance(node, Tree) and node.data in ("list", "list_comp"):
            return True
        return type(self.names.constants.get(self._global(node))) is ConstantList

    def _e_index(self, node):
        obj, key = node.children
        family = self._family(obj)
        where = self._loc(node)  # a fault here is reported at the item, not its statement
        if family is not None:  # a zone or counter of a family: a plain dict lookup
            return stamp(_item(_item(_game_table(family[0]), _const(family[1])), self._expr(key)), where)
        if type(self.names.constants.get(self._global(obj))) in (ConstantList, MappingProxyType):
            return stamp(_item(self._expr(obj), self._expr(key)), where)  # an item of a constant list or table
        return stamp(_call("_r_index", _name("g"), self._expr(obj), self._expr(key)), where)

    def _e_index_pair(self, node):
        """`family[a, b]`: the zone of a family keyed by two keys, the same as `family[a][b]`."""
        obj, first, second = node.children
        name = self._global(obj)
        if name is None or type(self.names.zones.get(name)) is not tuple:
            self._error(node, f"'{source(obj)}[..., ...]' picks a zone of a family keyed by two keys "
                              f"(a zone with 'per: [A, B]'); '{source(obj)}' is not one. "
                              "Write one key in each pair of brackets to index a list or table: x[a][b]")
        return self._e_index(Tree("index", [Tree("index", [obj, first], meta=node.meta), second], meta=node.meta))

    def _e_list(self, node):
        return ast.List([self._expr(c) for c in node.children if c is not None], ast.Load())

    def _comprehension(self, element: Tree, clauses: list[Tree], lazy: bool = False) -> ast.expr:
        """A comprehension, each `for` of it a Python `for` over the items of the ones before;
        each item a step, but over a zone when it is the only `for` and nothing in it calls or
        goes through more (a zone holds at most the ruleset's cards: the work is bounded, and
        these are the comprehensions bots run most)."""
        first = self._items_of(clauses[0].children[1])  # read once, before the comprehension runs
        generators = []
        outer = len(self.scopes)
        self.inner += 1
        try:
            for clause in clauses:
                var_tok, iterable, cond = clause.children
                items = self._items_of(iterable) if generators else first
                bounded = len(clauses) == 1 and self.inner == 1 and not self._repeats(element) \
                    and not self._repeats(cond) \
                    and (self._zone(iterable) is not None or self._every_zone(iterable) is not None)
                var = self._temp("_v")
                if self._zone(iterable) is not None:  # its variable can only hold a card
                    self.card_vars.add(var)
                self.scopes.append({str(var_tok): var})
                test = self._expr(cond) if cond is not None else None
                if not bounded:
                    items = _call("_r_counted", _name("g"), items)
                generators.append(ast.comprehension(ast.Name(var, ast.Store()), items,
                                                    [test] if test is not None else [], 0))
            elem = self._expr(element)
        finally:
            self.inner -= 1
            del self.scopes[outer:]
        return ast.GeneratorExp(elem, generators) if lazy else ast.ListComp(elem, generators)

    def _repeats(self, node: Tree | Token | None) -> bool:
        """Whether `node` may do more than a bounded amount of work: it calls a function or
        procedure of the ruleset, or holds a comprehension or a function value."""
        if not isinstance(node, Tree):
            return False
        user = set(self.names.functions) | set(self.names.procedures)
        return any(n.data in ("list_comp", "comp_argument", "lambda_expr")
                   or (n.data == "call" and self._global(n.children[0]) in user) for n in node.iter_subtrees())

    def _e_list_comp(self, node):
        return self._comprehension(node.children[0], node.children[1:])

    def _e_lambda_expr(self, node):
        var_tok, body = node.children
        var = str(var_tok)
        # The body is a function of its own: the comprehension variables it sees are passed in
        # its locals, with the rule's.
        captured = {}
        for scope in self.scopes:
            for name, python in scope.items():
                captured[name] = python
        outer, outer_env, param = self.scopes, self.has_env, self._temp("_v")
        self.scopes, self.has_env = [dict.fromkeys(captured), {var: param}], True
        self.inner += 1
        try:
            value = self._expr(body)
        finally:
            self.scopes, self.has_env = outer, outer_env
            self.inner -= 1
        ref = self._function([ast.Return(value)], node, ("g", "env", param))
        index = len(self.names.lambdas)
        self.names.lambdas.append(ref)
        read = {str(n.children[0]) for n in body.find_data("name")} if isinstance(body, Tree) else set()
        passed = {name: python for name, python in captured.items() if python and name in read}
        keys, values = list(map(_const, passed)), list(map(_name, passed.values()))
        if not self.has_env:
            env: ast.expr = ast.Dict(keys, values)
        else:  # the locals themselves, so that the function sees them as they change
            env = ast.Dict([None, *keys], [_name("env"), *values]) if passed else _name("env")
        return _call("_r_lambda", _const(index), _name(ref.name), env, _name("g"))

    def _e_cond_expr(self, node):
        a, cond, b = (self._expr(c) for c in node.children)
        return ast.IfExp(cond, a, b)

    def _e_or_op(self, node):
        return ast.BoolOp(ast.Or(), [self._expr(c) for c in node.children])

    def _e_and_op(self, node):
        return ast.BoolOp(ast.And(), [self._expr(c) for c in node.children])

    def _e_not_op(self, node):
        return ast.UnaryOp(ast.Not(), self._expr(node.children[0]))

    def _e_neg(self, node):
        kind = self._kind(node.children[0])
        if kind in self._KIND_WORDS and kind != "number":
            self._error(node, f"cannot negate {self._KIND_WORDS[kind]} with -: only a number has a negative "
                              "(this expression always fails)")
        return stamp(ast.UnaryOp(ast.USub(), self._expr(node.children[0])), self._loc(node))

    def _e_compare(self, node):
        left, op, right = node.children
        a, b = self._expr(left), self._expr(right)
        word = " ".join(str(op).split())
        self._check_operands(node, word, left, right)
        if word == "in":
            return stamp(_call("_r_contains", _name("g"), a, b), self._loc(node))
        if word == "not in":
            return ast.UnaryOp(ast.Not(), stamp(_call("_r_contains", _name("g"), a, b), self._loc(node)))
        return stamp(ast.Compare(a, [_COMPARE[word]()], [b]), self._loc(node))

    _TEXT_RESULTS = frozenset({"text", "join", "format"})
    _NUMBER_RESULTS = frozenset({"count", "abs", "position", "index_of"})

    def _kind(self, node: Tree | Token | None) -> str | None:
        """What the tree says `node` always is: "number", "text", "list" or "none"; None when
        only the running game can tell (or when it is true/false, which Python counts as 0/1)."""
        if not isinstance(node, Tree):
            return None
        kind = node.data
        if kind == "number":
            return "number"
        if kind == "string":
            return "text"
        if kind == "none":
            return "none"
        if kind in ("list", "list_comp"):
            return "list"
        if kind == "neg":  # a negative is a number, or the rule fails there
            return "number"
        if kind == "name":
            name = self._global(node)
            if name is None or name not in self.names.constants:
                return None
            value = self.names.constants[name]
            if isinstance(value, bool):
                return None
            if isinstance(value, (int, float)):
                return "number"
            return "text" if isinstance(value, str) else "list" if isinstance(value, ConstantList) else None
        if kind == "call":
            name = self._global(node.children[0])
            if name in self.names.functions or name in self.names.procedures:
                return None
            return "text" if name in self._TEXT_RESULTS else "number" if name in self._NUMBER_RESULTS else None
        if kind == "arith":
            left, op, right = node.children
            a, b = self._kind(left), self._kind(right)
            if a == b == "number":
                return "number"
            if str(op) == "+" and a == b and a in ("text", "list"):
                return a
            # With a number on either side, + - / // give a number or fail there (text * 2 is text)
            if "number" in (a, b) and str(op) in ("+", "-", "/", "//"):
                return "number"
            if a == "number" and str(op) == "%":
                return "number"
        return None

    _KIND_WORDS = {"number": "a number", "text": "text", "list": "a list", "none": "none"}

    def _check_operands(self, node: Tree, op: str, left: Tree | Token, right: Tree | Token) -> None:
        """Report, at load time, an operator whose two values the tree says it cannot take."""
        a, b = self._kind(left), self._kind(right)
        if a is None or b is None:
            return
        if op in _COMPARE and op not in ("==", "!="):
            wrong = a != b or a == "none"
        elif op == "+":
            wrong = a != b or a == "none"
        elif op == "*":
            wrong = not (a == b == "number" or {a, b} in ({"number", "text"}, {"number", "list"}))
        elif op == "%":
            wrong = not a == b == "number"
        elif op in _ARITH:
            wrong = not a == b == "number"
        else:
            return
        if wrong:
            message = _type_fault_words(op, self._KIND_WORDS[a], self._KIND_WORDS[b])
            self._error(node, message + " (this expression always fails)")

    def _e_arith(self, node):
        left, op, right = node.children
        self._check_operands(node, str(op), left, right)
        if str(op) == "%" and self._kind(left) != "number":  # it may be text: no printf-style templates
            return stamp(_call("_r_mod", self._expr(left), self._expr(right)), self._loc(node))
        number = "number" in (self._kind(left), self._kind(right))
        return stamp(_arithmetic(str(op), self._expr(left), self._expr(right), number), self._loc(node))

    # ------------------------------------------------------------ calls

    def _call_kind(self, name: str) -> str | None:
        if name in self.names.procedures:
            return "procedure"
        if name in self.names.functions:
            return "function"
        if name in B.REGISTRY:
            return B.REGISTRY[name].kind
        return None

    def _arguments(self, node: Tree | None) -> list[ast.expr]:
        if node is None:
            return []
        if node.data == "comp_argument":
            return [self._comprehension(node.children[0], node.children[1:])]
        return [self._expr(c) for c in node.children]

    def _counted(self, callee: Tree | Token, args_node: Tree | None) -> bool:
        return (self._builtin(callee, "count") and args_node is not None and args_node.data != "comp_argument"
                and len(args_node.children) == 1 and (self._zone(args_node.children[0]) is not None
                                                      or self._plainly_list(args_node.children[0])))

    def _arguments_env(self, procedure: str, args: list[ast.expr]) -> ast.Dict:
        """The locals a procedure starts with: its parameters, given `args`."""
        pairs = list(zip(self.names.procedures[procedure], args))
        return ast.Dict([_const(p) for p, _ in pairs], [a for _, a in pairs])

    def _short_circuit(self, callee: Tree | Token, args_node: Tree | None) -> bool:
        return ((self._builtin(callee, "any") or self._builtin(callee, "all")) and args_node is not None
                and args_node.data == "comp_argument")

    def _known_attribute(self, attr: str) -> bool:
        return attr in (self.names.properties | CARD_ATTRIBUTES | ZONE_ATTRIBUTES | PLACE_ATTRIBUTES
                        | ROUTE_ATTRIBUTES)

    def _method_call(self, callee: Tree | Token, args_node: Tree | None) -> bool:
        """Report `x.name(...)` where `name` is no property (a method call, as in Python: the
        language has none) and name the function to use; True if it was reported."""
        if not (isinstance(callee, Tree) and callee.data == "attribute"):
            return False
        if self._builtin(callee.children[0], "option"):
            return False
        obj, attr_tok = callee.children
        attr = str(attr_tok)
        if self._known_attribute(attr):
            return False
        args = [] if args_node is None else [source(a) for a in args_node.children if a is not None] \
            if args_node.data == "arguments" else ["..."]
        receiver, first = source(obj), (args[0] if args else "...")
        if attr == "join":
            hint = f"join({first}, {receiver})"
        elif attr == "format":
            hint = f"format({', '.join([receiver] + args)})"
        elif attr in ("append", "extend"):
            hint = f"{receiver} = {receiver} + " + (f"[{first}]" if attr == "append" else first)
        elif attr in ("index", "find"):
            hint = f"index_of({receiver}, {first})"
        elif attr in ("sort", "sorted"):
            hint = f"sorted_by({receiver}, x -> x)"
        elif attr in ("count", "len", "size", "length"):
            hint = f"count({receiver})"
        elif attr in ("get", "lookup"):
            hint = f"{receiver}[{first}]"
        elif attr in B.REGISTRY or attr in self.names.functions or attr in self.names.procedures:
            hint = f"{attr}({', '.join([receiver] + args)})"
        else:
            close = suggest(attr, set(B.REGISTRY) | set(self.names.functions) | set(self.names.procedures))
            hint = ""
            tail = (f"; there is no function '{attr}'{close}" if close else
                    f"; there is no function for '{attr}': text is made with text(), join() and format(), "
                    "and + joins two texts")
        message = f"the effect language has no methods, so '{receiver}.{attr}(...)' cannot be called; "
        if hint:
            message += f"call a function instead: did you mean {hint}?"
        else:
            message += "call a function instead, as name(value, ...)" + tail
        self._error(attr_tok, message)
        return True

    def _check_template(self, args_node: Tree | None, given: int) -> None:
        """A format() template written out is checked at load time: its braces, and that it
        takes as many values as are given."""
        if args_node is None or args_node.data != "arguments":
            return
        first = args_node.children[0]
        if not (isinstance(first, Tree) and first.data == "string"):
            return
        try:
            wanted = B.template_values(B.template_pieces(string_value(first.children[0])))
        except ValueError as exc:
            self._error(first, f"format's template: {exc}")
            return
        if wanted != given:
            self._error(first, f"this format() template takes {wanted} value(s), but {given} "
                               f"{'is' if given == 1 else 'are'} given after it")

    def _e_call(self, node):
        expr, _ = self._call(node, statement=False)
        return expr

    def _call(self, node: Tree, statement: bool) -> tuple[ast.expr, bool]:
        callee, args_node = node.children
        if self._short_circuit(callee, args_node):  # any(x for ...) stops at the first true x
            return _call(f"_r_{self._global(callee)}", self._comprehension(args_node.children[0], args_node.children[1:], lazy=True)), False
        if self._counted(callee, args_node):  # count(zone or list): the length of a list
            item = args_node.children[0]
            cards = self._zone_cards(item)
            return _call("_r_len", cards if cards is not None else self._expr(item)), False
        if self._method_call(callee, args_node):
            return _const(None), False
        args = self._arguments(args_node)
        name = self._global(callee)
        if name is None:  # a function value: each call a step
            return stamp(_call("_r_call", _name("g"), self._expr(callee), *args), self._loc(node)), False
        tok = callee.children[0]
        kind = self._call_kind(name)
        what = next((w for table, w in _NOT_CALLABLE if name in getattr(self.names, table, ())), None)
        if kind is None and (what or name in ("players", "player_count")):
            self._error(tok, f"'{name}' is {what or 'a value'}, not a function, so it cannot be called; "
                             f"read it as {name}" + (" or " + name + "[...]" if what in ("a counter", "a zone") else ""))
            return _const(None), False
        if kind is None:
            known = set(self.names.functions) | set(self.names.procedures) | set(B.REGISTRY)
            hint = _PYTHON_FUNCTIONS.get(name)
            self._error(tok, f"unknown function '{name}'" + (f"; the effect language writes it {hint}" if hint
                                                             else suggest(name, known)))
            return _const(None), False
        if kind in ("function", "procedure"):
            params = (self.names.functions if kind == "function" else self.names.procedures)[name]
            if len(args) != len(params):
                self._error(tok, f"{name}() takes {len(params)} argument(s) ({', '.join(params)}), "
                                 f"given {len(args)}")
        else:
            spec = B.REGISTRY[name]
            if len(args) < spec.min_args or (spec.max_args is not None and len(args) > spec.max_args):
                self._error(tok, f"wrong number of arguments: the signature is {spec.signature}")
            elif name == "format":
                self._check_template(args_node, len(args) - 1)
        if kind in (B.EFFECT, B.CHOICE, "procedure") and not statement:
            what = "asks a player" if kind != B.EFFECT else "changes the game"
            self._error(tok, f"{name}() {what}, so it must stand as a statement of its own "
                             f"(or as 'let x = {name}(...)'), not inside an expression")
        if kind == "function":
            return _call(_item(self.unit.value(self.names.calls), _const(name)), _name("g"), *args), False
        if kind == "procedure" and name in self.names.direct:
            return _call(_item(self.unit.value(self.names.calls), _const(name)), _name("g"),
                         self._arguments_env(name, args)), False
        if kind == "procedure":  # pushes the procedure's frame: SUSPENDED
            code = _item(self.unit.value(self.names.codes), _const(name))
            frame = _call("_r_frame", code, _const(0), self._arguments_env(name, args))
            return _call(_attr(_name("g"), "push"), frame), True
        # a choice's value is SUSPENDED when it asked a player or pushed a frame
        return _call(f"_b_{name}", _name("g"), *args), kind == B.CHOICE

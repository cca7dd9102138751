"""Python functions generated from a rule's compiled tree: the one module that compiles code.

The compiler (compiler.py) turns a rule's effect-language tree, after every name in it was
resolved and checked, into Python `ast` nodes; this module checks those nodes, compiles them
and binds the functions. The rules it keeps, so that text a user wrote never becomes code:

- code is built as an `ast` tree, never from text;
- user data appears only in `ast.Constant` values (strings, numbers) and in values the engine
  binds to names it makes itself (`_k0`, `_k1`...); a user's name is never a Python name;
- `verify` allows only the node types, names and attributes the compiler emits, and is run
  on every tree before it is compiled;
- the functions run with an empty `__builtins__` and see only the runtime the compiler hands
  over (`_r_...`, `_b_...` names);
- code objects are compiled with the YAML file as file name and YAML line and column numbers,
  so a fault inside one is reported at its rule's text (`fault_position`).

Nothing here calls eval or exec: the compiled module's function code objects are bound with
`types.FunctionType`.
"""
from __future__ import annotations

import ast
import re
import types
from typing import Any, Callable

from ..core.errors import Location

# Names that generated code may use: the two parameters, and names with the engine's prefixes.
_PARAMETERS = {"g", "env"}
_ENGINE_NAME = re.compile(r"_(r|b)_[a-z][a-z0-9_]*|_[kvtf][0-9]+")

# Attributes that generated code may read or write, on the game and its table.
ATTRIBUTES = frozenset({"table", "counters", "zones", "contents", "layout", "every", "index", "options", "get",
                        "players", "steps", "_props", "push"})

_NODES = (
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign, ast.AugAssign, ast.Expr,
    ast.If, ast.For, ast.While, ast.Break, ast.Continue, ast.Raise, ast.Pass, ast.Name, ast.Load, ast.Store,
    ast.Constant, ast.Attribute, ast.Subscript, ast.Slice, ast.Call, ast.List, ast.Dict, ast.ListComp,
    ast.GeneratorExp, ast.comprehension, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub,
    ast.BinOp, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Compare, ast.Eq, ast.NotEq,
    ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.In, ast.IfExp,
)
_CONSTANTS = (str, int, float, bool, type(None))

RULE = "_r_rule"  # the module global naming the rule a generated function belongs to
LOCALS = "_r_locals"  # the module global naming the rule's locals by where they are: an `env` key, a Python local


class GeneratedCodeError(Exception):
    """The compiler produced a tree outside what `verify` allows: a bug of the engine."""


class Ref:
    """A generated function, known by name until its unit is built."""

    __slots__ = ("name", "fn")

    def __init__(self, name: str):
        self.name = name
        self.fn: Callable | None = None


_NODE_TYPES = frozenset(_NODES)
_POSITIONED = frozenset(t for t in _NODES if issubclass(t, (ast.stmt, ast.expr, ast.arg)))


def verify(tree: ast.AST, place: bool = False) -> None:
    """Refuse any node, name, attribute or constant the compiler does not emit. With `place`,
    also give every node without a position the position of the nearest node around it that
    has one (its statement's), as ast.fix_missing_locations does, in the same walk."""
    stack: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
    while stack:
        node, around = stack.pop()
        kind = type(node)
        if kind not in _NODE_TYPES:
            raise GeneratedCodeError(f"node {kind.__name__} is not allowed in generated code")
        if kind is ast.Name and node.id not in _PARAMETERS and not _ENGINE_NAME.fullmatch(node.id):
            raise GeneratedCodeError(f"name {node.id!r} is not allowed in generated code")
        if kind is ast.Attribute and node.attr not in ATTRIBUTES:
            raise GeneratedCodeError(f"attribute {node.attr!r} is not allowed in generated code")
        if kind is ast.Constant and type(node.value) not in _CONSTANTS:
            raise GeneratedCodeError(f"constant of type {type(node.value).__name__} in generated code")
        if kind is ast.FunctionDef and (not _ENGINE_NAME.fullmatch(node.name) or node.decorator_list
                                        or node.returns):
            raise GeneratedCodeError(f"function {node.name!r} is not allowed in generated code")
        if kind is ast.arg and (node.arg not in _PARAMETERS and not _ENGINE_NAME.fullmatch(node.arg)
                                or node.annotation):
            raise GeneratedCodeError(f"parameter {node.arg!r} is not allowed in generated code")
        if kind is ast.arguments and (node.vararg or node.kwarg or node.defaults or node.kwonlyargs
                                      or node.posonlyargs):
            raise GeneratedCodeError("only plain parameters are allowed in generated code")
        if place and kind in _POSITIONED:
            if getattr(node, "lineno", None) is None and around is not None:
                node.lineno, node.col_offset = around.lineno, around.col_offset
                node.end_lineno, node.end_col_offset = around.end_lineno, around.end_col_offset
            around = node
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                stack.extend((v, around) for v in value if v is not None)
            elif value is not None and not isinstance(value, (str, int, float)):
                stack.append((value, around))


def stamp(node: ast.AST, loc: Location) -> ast.AST:
    """Give a statement (or function) the position `loc`, its YAML line and column; what is in
    it without a position of its own gets the same one when its unit is built, so a fault in
    it is reported there."""
    node.lineno, node.col_offset = max(loc.line, 1), max(loc.column - 1, 0)
    node.end_lineno, node.end_col_offset = node.lineno, node.col_offset
    return node


class Unit:
    """The generated functions of one rule, compiled together into one code object."""

    def __init__(self, rule: str, file: str, runtime: dict[str, Any]):
        self.rule = rule
        self.file = file
        self.runtime = runtime
        self.defs: list[ast.FunctionDef] = []
        self.refs: list[Ref] = []
        self.values: dict[str, Any] = {}
        self._value_names: dict[int, str] = {}
        self.locals: dict[str, str] = {}  # each local the code reads, by its `env` key or Python name
        self.count = 0  # functions defined so far (merged ones included): each gets a new name

    def value(self, value: Any) -> ast.expr:
        """An expression for a value known at load time: a constant, or a name bound to it."""
        if type(value) in _CONSTANTS:
            return ast.Constant(value)
        name = self._value_names.get(id(value))
        if name is None:
            name = self._value_names[id(value)] = f"_k{len(self.values)}"
            self.values[name] = value
        return ast.Name(name, ast.Load())

    def define(self, body: list[ast.stmt], loc: Location, params: tuple[str, ...] = ("g", "env")) -> Ref:
        """A function of `params` running `body`; its Ref gets the function when the unit is built."""
        self.count += 1
        ref = Ref(f"_f{self.count}")
        args = ast.arguments(posonlyargs=[], args=[ast.arg(p) for p in params], vararg=None,
                             kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        self.defs.append(stamp(ast.FunctionDef(ref.name, args, body or [ast.Pass()], [], None), loc))
        self.refs.append(ref)
        return ref

    def body(self, ref: Ref) -> list[ast.stmt]:
        return self.defs[self.refs.index(ref)].body

    def merge(self, first: Ref, into: Ref, after: bool = False) -> None:
        """Make `into` run the body of `first` before its own (or after it); `first` is no
        longer built."""
        k = self.refs.index(first)
        body = self.defs[self.refs.index(into)].body
        if after:
            body.extend(self.defs[k].body)
        else:
            body[:0] = self.defs[k].body
        del self.defs[k], self.refs[k]

    def build(self) -> None:
        """Verify and compile every function of the unit, and fill in their Refs."""
        if not self.defs:
            return
        module = ast.Module(self.defs, type_ignores=[])
        verify(module, place=True)  # and each node without a position takes its statement's
        code = compile(module, self.file, "exec", dont_inherit=True)
        namespace = {"__builtins__": {}, RULE: self.rule, LOCALS: dict(self.locals), **self.runtime,
                     **self.values}
        functions = {c.co_name: types.FunctionType(c, namespace, c.co_name)
                     for c in code.co_consts if isinstance(c, types.CodeType)}
        namespace.update(functions)  # a function value (`x -> ...`) names its body
        for ref in self.refs:
            ref.fn = functions[ref.name]


def fault_position(exc: BaseException) -> tuple[Location, str, str | None] | None:
    """Where in the rules `exc` was raised: the innermost generated function in its traceback,
    as (YAML location, rule, the local it failed to read if the fault is reading a local that
    has no value yet); None if no generated code is in the traceback."""
    tb, found = exc.__traceback__, None
    while tb is not None:
        if RULE in tb.tb_frame.f_globals:
            found = tb
        tb = tb.tb_next
    if found is None:
        return None
    code, names = found.tb_frame.f_code, found.tb_frame.f_globals
    line, column = found.tb_lineno, 0
    if hasattr(code, "co_positions") and found.tb_lasti >= 0:
        positions = list(code.co_positions())
        if found.tb_lasti // 2 < len(positions):
            start = positions[found.tb_lasti // 2]
            line, column = start[0] or line, (start[2] or 0)
    unset = None
    if found.tb_next is None and isinstance(exc, KeyError) and exc.args and isinstance(exc.args[0], str):
        unset = names[LOCALS].get(exc.args[0])  # a local of `env`
    elif found.tb_next is None and isinstance(exc, UnboundLocalError):
        held = re.search(r"'(\w+)'", str(exc))
        unset = names[LOCALS].get(held.group(1)) if held else None  # a Python local
    return Location(code.co_filename, line, column + 1), names[RULE], unset

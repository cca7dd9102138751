"""Compiling effect-language trees to Python closures, once, at load time.

Expressions become `fn(g, env) -> value`, and so do runs of statements that never ask a
player. A program becomes a `Code` (program.py): statements that may suspend the game (a
choice, an emit, a procedure call), and the ifs and loops around them, are instructions,
so where a game waits is data. Names are resolved here, so a misspelt zone or function is a
load-time error with a suggestion. Nothing is ever passed to eval or exec.
"""
from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

from lark import Token, Tree

from ..board import Board, Place
from ..errors import Diagnostic, EffectError, EngineError, Location, suggest
from ..program import (CONTROL, Assembler, Branch, Break, Call, Code, Continue, Drop, End,
                       Exec, ForInit, ForNext, Jump, Loop, Return, Step, WhileTest, deliver_local,
                       deliver_next, deliver_return, deliver_store)
from ..table import Card, Zone
from ..values import ConstantList, Lambda
from . import builtins as B

Fn = Callable[[Any, dict], Any]

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
    zones: dict[str, str | None] = field(default_factory=dict)
    functions: dict[str, list[str]] = field(default_factory=dict)
    procedures: dict[str, list[str]] = field(default_factory=dict)
    options: set[str] = field(default_factory=set)
    properties: set[str] = field(default_factory=set)
    lambdas: list[Callable] = field(default_factory=list)  # every `x -> ...` compiled, by index

    def all(self) -> set[str]:
        return (set(self.constants) | set(self.counters) | set(self.zones) | set(self.functions)
                | set(self.procedures) | set(B.REGISTRY) | SPECIAL_NAMES)


class _Ops:
    """A compiled statement that may suspend: it adds its instructions to a code."""

    __slots__ = ("emit",)

    def __init__(self, emit: Callable[[Assembler, Loop | None], None]):
        self.emit = emit

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


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
        return f"no entry {exc.args[0]!r} in that table or family"
    if isinstance(exc, TypeError):
        if "does not support item assignment" in str(exc):
            return "constants cannot be changed; copy one into a new list first, e.g. let l = list(c)"
        return f"values of the wrong type: {exc}"
    return f"{exc.__class__.__name__}: {exc}"


def locate(exc: Exception, location: Location | None, rule: str) -> EffectError | None:
    """The error to raise for a fault inside a rule: a Python fault or an EffectError without a
    place gets this rule's place; control flow and located errors pass as they are (None)."""
    if isinstance(exc, CONTROL):
        return None
    if isinstance(exc, EffectError):
        return EffectError(exc.message, location, rule) if exc.location is None else None
    if isinstance(exc, EngineError):
        return None
    return EffectError(_explain(exc), location, rule)


def get_attribute(g, obj: Any, name: str) -> Any:
    """Attribute access of the language: card properties, zone owner..."""
    if type(obj) is Card:
        props = obj.props
        if name in props:
            return props[name]
        if name == "zone":
            return g.table.where[obj.index]
        if name == "owner":
            return g.table.owner(g.table.where[obj.index])
        if name == "face_down":
            return g.table.face_down[obj.index]
        if name in ("kind", "name", "id", "label"):
            return getattr(obj, name)
        raise EffectError(f"the card {obj.label} ({obj.kind}) has no property '{name}'"
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
    raise EffectError(f"{B.describe(obj)} has no attribute '{name}'")


def get_index(g, obj: Any, key: Any) -> Any:
    t = type(obj)
    if t is list or t is ConstantList:
        return obj[key]
    if t is dict and key in obj:
        return obj[key]
    if t is Zone:
        return g.table.contents[obj.index][key]
    if isinstance(obj, Mapping):
        if key not in obj:
            raise EffectError(f"no entry {key!r} here; entries are: "
                              + ", ".join(repr(k) for k in list(obj)[:12]))
        return obj[key]
    if isinstance(obj, (list, tuple, str)):
        return obj[key]
    if isinstance(obj, Board):
        if key not in obj.by_id:
            raise EffectError(f"board {obj.name} has no place '{key}'" + suggest(str(key), obj.by_id))
        return obj.by_id[key]
    raise EffectError(f"{B.describe(obj)} cannot be indexed")


class Compiler:
    """Compiles the trees of one rule; problems go into `problems` with file positions."""

    def __init__(self, names: Names, where: Callable[[int, int], Location], rule: str,
                 problems: list[Diagnostic]):
        self.names = names
        self.where = where
        self.rule = rule
        self.problems = problems
        self.scopes: list[set[str]] = []
        self.loops = 0
        self.slots = 0

    # ------------------------------------------------------------ entry points

    def program(self, tree: Tree, params: list[str]) -> Code:
        """The code running the statements of `tree`, with `params` as its first locals."""
        self.scopes = [set(params)]
        asm = Assembler()
        self._emit_block(self._block(tree.children), asm, None)
        asm.add(End())
        return Code(asm.ops)

    def expression(self, tree: Tree, params: list[str]) -> Fn:
        """A function (g, env) -> value; a fault inside it is reported at this rule's text."""
        self.scopes = [set(params)]
        fn = self._expr(tree.children[0])
        loc, rule = self._loc(tree.children[0]), self.rule

        def evaluate(g, env):
            try:
                return fn(g, env)
            except Exception as exc:
                located = locate(exc, loc, rule)
                if located is None:
                    raise
                raise located from None
        return evaluate

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

    def _declare(self, node: Token, name: str) -> None:
        if name in self.names.all() and name not in self.scopes[0]:
            self._error(node, f"'{name}' is already a name of the ruleset or the language; "
                              "choose another name for this local")
        self.scopes[-1].add(name)

    def _unknown(self, node: Token, name: str) -> None:
        known = self.names.all() | set().union(*self.scopes)
        self._error(node, f"unknown name '{name}'{suggest(name, known)}")

    def _guard(self, fn: Callable, node: Tree) -> Callable:
        """Wrap a statement: count steps, and turn Python faults into located EffectErrors."""
        loc, rule = self._loc(node), self.rule

        def run(g, env):
            g.step(loc, rule)
            try:
                return fn(g, env)
            except Exception as exc:
                located = locate(exc, loc, rule)
                if located is None:
                    raise
                raise located from None
        return run

    # ------------------------------------------------------------ statements
    #
    # A compiled statement is a plain function (g, env), or, when it may suspend the game, an
    # `_Ops` that adds instructions. A block is a list of (statement, its location); runs of
    # plain statements in a block that suspends become one `Exec` instruction.

    def _block(self, stmts: list) -> list[tuple[Callable | _Ops, Location]]:
        return [(self._stmt(s), self._loc(s)) for s in stmts if isinstance(s, Tree)]

    @staticmethod
    def _suspends(block: list) -> bool:
        return any(isinstance(s, _Ops) for s, _ in block)

    @staticmethod
    def _plain(block: list) -> Callable:
        """One function running a block of plain statements."""
        fns = [f for f, _ in block]
        if len(fns) == 1:
            return fns[0]

        def run_block(g, env):
            for f in fns:
                f(g, env)
        return run_block

    def _emit_block(self, block: list, asm: Assembler, loop: Loop | None) -> None:
        run: list = []

        def flush() -> None:
            if run:
                op = asm.add(Exec(self._plain(run), run[0][1], self.rule, cont=loop.top if loop else -1))
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

    def _stmt(self, node: Tree) -> Callable | _Ops:
        method = getattr(self, "_s_" + node.data, None)
        if method is None:
            self._error(node, f"unsupported statement {node.data}")
            return lambda g, env: None
        compiled = method(node)
        return compiled if isinstance(compiled, _Ops) else self._guard(compiled, node)

    def _call_ops(self, node: Tree, start: Callable, deliver: Callable) -> _Ops:
        """The instruction of a statement whose call may suspend, and where its value goes."""
        loc, rule = self._loc(node), self.rule
        return _Ops(lambda asm, loop: asm.add(Call(start, deliver, loc, rule)))

    def _value_maybe_suspending(self, node: Tree) -> tuple[Callable, bool]:
        """The right-hand side of a statement: a plain expression, or a call that may suspend
        (then the function returns its value or SUSPENDED)."""
        if node.data == "call" and isinstance(node.children[0], Tree) and node.children[0].data == "name":
            name = str(node.children[0].children[0])
            if not self._is_local(name):
                kind = self._call_kind(name)
                if kind in (B.EFFECT, B.CHOICE, "procedure"):
                    return self._call(node, statement=True)
        return self._expr(node), False

    def _s_let_stmt(self, node: Tree):
        name_tok, value = node.children
        fn, suspends = self._value_maybe_suspending(value)
        self._declare(name_tok, str(name_tok))
        name = str(name_tok)
        if suspends:
            return self._call_ops(node, fn, deliver_local(name))

        def let(g, env):
            env[name] = fn(g, env)
        return let

    def _store(self, target: Tree, key_computed: bool = False) -> Callable[..., None] | None:
        """A setter for an assignment target: a local, a counter, or an entry of either."""
        name_tok = target.children[0]
        name = str(name_tok)
        if target.data == "name_target":
            if self._is_local(name):
                def set_local(g, env, v):
                    env[name] = v
                return set_local
            if name in self.names.counters:
                if self.names.counters[name]:
                    self._error(name_tok, f"'{name}' is one counter per {self.names.counters[name]}; "
                                          f"write {name}[...] = ...")
                    return None

                def set_counter(g, env, v):
                    g.table.counters[name] = v
                return set_counter
            known = set(self.names.counters) | set().union(*self.scopes)
            self._error(name_tok, f"cannot assign to '{name}': not a local or a counter"
                                  f"{suggest(name, known)}; use 'let {name} = ...' for a new local")
            return None
        key_fn = self._expr(target.children[1]) if not key_computed else None
        if self._is_local(name):
            def set_local_item(g, env, v, key=None):
                env[name][key_fn(g, env) if key_fn else key] = v
            return set_local_item
        if name in self.names.counters and self.names.counters[name]:
            def set_counter_item(g, env, v, key=None):
                family = g.table.counters[name]
                key = key_fn(g, env) if key_fn else key
                if key not in family:
                    raise EffectError(f"counter {name} has no entry {key!r}")
                family[key] = v
            return set_counter_item
        self._error(name_tok, f"cannot assign to '{name}[...]': not a local or a per-player/per-value "
                              f"counter{suggest(name, self.names.counters)}")
        return None

    def _s_assign_stmt(self, node: Tree):
        target, value = node.children
        fn, suspends = self._value_maybe_suspending(value)
        store = self._store(target) or (lambda g, env, v: None)
        if suspends:
            return self._call_ops(node, fn, deliver_store(store))

        def assign(g, env):
            store(g, env, fn(g, env))
        return assign

    def _s_augassign_stmt(self, node: Tree):
        target, op, value = node.children
        name = str(target.children[0])
        store = self._store(target, key_computed=target.data == "index_target") or (lambda g, env, v, k=None: None)
        apply = _ARITH[str(op)[:-1]]
        fn = self._expr(value)
        if target.data == "name_target":
            read = self._expr(Tree("name", [target.children[0]]))

            def augassign(g, env):
                store(g, env, apply(read(g, env), fn(g, env)))
            return augassign
        # name[key] op= value: the key is computed once, for reading and for writing.
        key_fn = self._expr(target.children[1])
        family = self._expr(Tree("name", [target.children[0]])) if self._is_local(name) or \
            name in self.names.counters else (lambda g, env: {})

        def augassign_item(g, env):
            key = key_fn(g, env)
            container = family(g, env)
            current = get_index(g, container, key)
            store(g, env, apply(current, fn(g, env)), key)
        return augassign_item

    def _s_expr_stmt(self, node: Tree):
        fn, suspends = self._value_maybe_suspending(node.children[0])
        return self._call_ops(node, fn, deliver_next) if suspends else fn

    def _s_pass_stmt(self, node: Tree):
        return lambda g, env: None

    def _s_return_stmt(self, node: Tree):
        value = node.children[0] if node.children else None
        if value is None:
            fn, suspends = (lambda g, env: None), False
        else:
            fn, suspends = self._value_maybe_suspending(value)
        if suspends:
            return self._call_ops(node, fn, deliver_return)

        def ret(g, env):
            raise Return(fn(g, env))
        return ret

    def _jump(self, node: Tree, word: str, signal: type[Exception]):
        if not self.loops:
            self._error(node, f"'{word}' outside a loop")

        def jump(g, env):
            raise signal()
        return jump

    def _s_break_stmt(self, node: Tree):
        return self._jump(node, "break", Break)

    def _s_continue_stmt(self, node: Tree):
        return self._jump(node, "continue", Continue)

    def _s_if_stmt(self, node: Tree):
        branches: list[tuple[Fn | None, list]] = [(self._expr(node.children[0]), self._suite(node.children[1]))]
        for child in node.children[2:]:
            if child is None:
                continue
            if child.data == "elif_clause":
                branches.append((self._expr(child.children[0]), self._suite(child.children[1])))
            else:
                branches.append((None, self._suite(child.children[0])))
        if not any(self._suspends(b) for _, b in branches):
            plain = [(c, self._plain(b)) for c, b in branches]

            def if_(g, env):
                for c, b in plain:
                    if c is None or c(g, env):
                        return b(g, env)
            return if_
        loc, rule = self._loc(node), self.rule

        def emit(asm: Assembler, loop: Loop | None) -> None:
            to_end = []
            for i, (cond, block) in enumerate(branches):
                test = asm.add(Branch(cond, loc, rule, step=i == 0)) if cond is not None else None
                self._emit_block(block, asm, loop)
                if i < len(branches) - 1:
                    to_end.append(asm.add(Jump()))
                if test is not None:
                    test.target = asm.here
            for jump in to_end:
                jump.target = asm.here
        return _Ops(emit)

    def _plain_loop(self, node: Tree, body: Callable, items: Callable[[Any, dict], Any],
                    var: str | None) -> Callable:
        """Shared runner of for, while and repeat when the body never suspends."""
        loc, rule = self._loc(node), self.rule

        def loop(g, env):
            for item in items(g, env):
                g.step(loc, rule)
                if var is not None:
                    env[var] = item
                try:
                    body(g, env)
                except Continue:
                    continue
                except Break:
                    break
        return loop

    def _loop_ops(self, node: Tree, body: list, items: Callable | None, cond: Callable | None,
                  var: str | None) -> _Ops:
        """Instructions of a loop whose body may suspend: over `items` (for, repeat), computed
        once into a hidden local, or while `cond` holds."""
        loc, rule = self._loc(node), self.rule
        self.slots += 1
        slot = f"#loop{self.slots}"  # never a name a rule can write

        def emit(asm: Assembler, outer: Loop | None) -> None:
            if items is not None:
                asm.add(ForInit(items, slot, loc, rule))
                top = asm.here
                head: ForNext | WhileTest = asm.add(ForNext(slot, var, loc, rule))
            else:
                asm.add(Step(loc, rule))
                top = asm.here
                head = asm.add(WhileTest(cond, loc, rule))
            loop = Loop(top)
            self._emit_block(body, asm, loop)
            asm.add(Jump(top))
            head.exit = asm.here
            loop.close(asm.here)
            if items is not None:
                asm.add(Drop(slot))
        return _Ops(emit)

    def _s_for_stmt(self, node: Tree):
        var_tok, iterable, suite = node.children
        it = self._expr(iterable)
        self._declare(var_tok, str(var_tok))
        body = self._loop_body(suite)

        def items(g, env):
            return B._items(g, it(g, env))
        if self._suspends(body):
            return self._loop_ops(node, body, items, None, str(var_tok))
        return self._plain_loop(node, self._plain(body), items, str(var_tok))

    def _s_while_stmt(self, node: Tree):
        cond = self._expr(node.children[0])
        body = self._loop_body(node.children[1])
        if self._suspends(body):
            return self._loop_ops(node, body, None, cond, None)

        def while_items(g, env):
            while cond(g, env):
                yield None
        return self._plain_loop(node, self._plain(body), while_items, None)

    def _s_repeat_stmt(self, node: Tree):
        times = self._expr(node.children[0])
        body = self._loop_body(node.children[1])

        def repeat_items(g, env):
            n = times(g, env)
            if not isinstance(n, int) or isinstance(n, bool):
                raise EffectError(f"repeat needs a whole number, got {B.describe(n)}")
            return list(range(n))
        if self._suspends(body):
            return self._loop_ops(node, body, repeat_items, None, None)
        return self._plain_loop(node, self._plain(body), repeat_items, None)

    # ------------------------------------------------------------ expressions

    def _expr(self, node: Tree | Token) -> Fn:
        method = getattr(self, "_e_" + node.data, None) if isinstance(node, Tree) else None
        if method is None:
            self._error(node, "unsupported expression")
            return lambda g, env: None
        return method(node)

    def _e_number(self, node):
        text = str(node.children[0])
        value = float(text) if "." in text else int(text)
        return lambda g, env: value

    def _e_string(self, node):
        raw = str(node.children[0])[1:-1]
        value = raw.replace('\\"', '"').replace("\\'", "'").replace("\\n", "\n").replace("\\\\", "\\")
        return lambda g, env: value

    def _e_true(self, node):
        return lambda g, env: True

    def _e_false(self, node):
        return lambda g, env: False

    def _e_none(self, node):
        return lambda g, env: None

    def _e_name(self, node):
        tok = node.children[0]
        name = str(tok)
        if self._is_local(name):
            def local(g, env):
                try:
                    return env[name]
                except KeyError:
                    raise EffectError(f"'{name}' has no value yet at this point") from None
            return local
        n = self.names
        if name in n.constants:
            value = n.constants[name]
            return lambda g, env: value
        if name in n.counters:
            return lambda g, env: g.table.counters[name]
        if name in n.zones:
            return lambda g, env: g.table.zones[name]
        if name == "players":
            return lambda g, env: list(g.players)
        if name == "player_count":
            return lambda g, env: len(g.players)
        if name == "option":
            self._error(tok, "write option.NAME to read a ruleset option")
        elif name in n.functions or name in n.procedures or name in B.REGISTRY:
            self._error(tok, f"'{name}' is a function: call it, as {name}(...)")
        else:
            self._unknown(tok, name)
        return lambda g, env: None

    def _e_attribute(self, node):
        obj, attr_tok = node.children
        attr = str(attr_tok)
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "option" \
                and not self._is_local("option"):
            if attr not in self.names.options:
                self._error(attr_tok, f"unknown option '{attr}'{suggest(attr, self.names.options)}")
            return lambda g, env: g.options.get(attr)
        if attr not in (self.names.properties | CARD_ATTRIBUTES | ZONE_ATTRIBUTES | PLACE_ATTRIBUTES
                        | ROUTE_ATTRIBUTES):
            self._error(attr_tok, f"no card kind has a property '{attr}'"
                                  f"{suggest(attr, self.names.properties | CARD_ATTRIBUTES)}")
        fn = self._expr(obj)
        return lambda g, env: get_attribute(g, fn(g, env), attr)

    def _e_index(self, node):
        obj, key = node.children
        o, k = self._expr(obj), self._expr(key)
        return lambda g, env: get_index(g, o(g, env), k(g, env))

    def _e_list(self, node):
        items = [self._expr(c) for c in node.children if c is not None]
        return lambda g, env: [i(g, env) for i in items]

    def _comprehension(self, element: Tree, clause: Tree) -> Fn:
        var_tok, iterable, cond = clause.children
        it = self._expr(iterable)
        self.scopes.append({str(var_tok)})
        elem = self._expr(element)
        test = self._expr(cond) if cond is not None else None
        self.scopes.pop()
        var = str(var_tok)

        def comp(g, env):
            inner = dict(env)
            out = []
            for item in B.iterate(g, it(g, env)):
                inner[var] = item
                if test is None or test(g, inner):
                    out.append(elem(g, inner))
            return out
        return comp

    def _e_list_comp(self, node):
        return self._comprehension(node.children[0], node.children[1])

    def _e_lambda_expr(self, node):
        var_tok, body = node.children
        var = str(var_tok)
        self.scopes.append({var})
        fn = self._expr(body)
        self.scopes.pop()
        index = len(self.names.lambdas)
        self.names.lambdas.append(fn)
        return lambda g, env: Lambda(index, fn, var, env, g)

    def _e_cond_expr(self, node):
        a, cond, b = (self._expr(c) for c in node.children)
        return lambda g, env: a(g, env) if cond(g, env) else b(g, env)

    def _e_or_op(self, node):
        a, b = (self._expr(c) for c in node.children)
        return lambda g, env: a(g, env) or b(g, env)

    def _e_and_op(self, node):
        a, b = (self._expr(c) for c in node.children)
        return lambda g, env: a(g, env) and b(g, env)

    def _e_not_op(self, node):
        a = self._expr(node.children[0])
        return lambda g, env: not a(g, env)

    def _e_neg(self, node):
        a = self._expr(node.children[0])
        return lambda g, env: -a(g, env)

    def _e_compare(self, node):
        left, op, right = node.children
        a, b = self._expr(left), self._expr(right)
        word = " ".join(str(op).split())
        if word == "in":
            return lambda g, env: contains(g, a(g, env), b(g, env))
        if word == "not in":
            return lambda g, env: not contains(g, a(g, env), b(g, env))
        fn = _COMPARE[word]
        return lambda g, env: fn(a(g, env), b(g, env))

    def _e_arith(self, node):
        left, op, right = node.children
        a, b = self._expr(left), self._expr(right)
        fn = _ARITH[str(op)]
        return lambda g, env: fn(a(g, env), b(g, env))

    # ------------------------------------------------------------ calls

    def _call_kind(self, name: str) -> str | None:
        if name in self.names.procedures:
            return "procedure"
        if name in self.names.functions:
            return "function"
        if name in B.REGISTRY:
            return B.REGISTRY[name].kind
        return None

    def _arguments(self, node: Tree | None) -> list[Fn]:
        if node is None:
            return []
        if node.data == "comp_argument":
            return [self._comprehension(node.children[0], node.children[1])]
        return [self._expr(c) for c in node.children]

    def _e_call(self, node):
        fn, _ = self._call(node, statement=False)
        return fn

    def _call(self, node: Tree, statement: bool) -> tuple[Callable, bool]:
        callee, args_node = node.children
        args = self._arguments(args_node)
        if not (isinstance(callee, Tree) and callee.data == "name") or self._is_local(str(callee.children[0])):
            target = self._expr(callee)
            return (lambda g, env: target(g, env)(*[a(g, env) for a in args])), False
        tok = callee.children[0]
        name = str(tok)
        kind = self._call_kind(name)
        if kind is None:
            known = set(self.names.functions) | set(self.names.procedures) | set(B.REGISTRY)
            self._error(tok, f"unknown function '{name}'{suggest(name, known)}")
            return (lambda g, env: None), False
        if kind in ("function", "procedure"):
            params = (self.names.functions if kind == "function" else self.names.procedures)[name]
            if len(args) != len(params):
                self._error(tok, f"{name}() takes {len(params)} argument(s) ({', '.join(params)}), "
                                 f"given {len(args)}")
        else:
            spec = B.REGISTRY[name]
            if len(args) < spec.min_args or (spec.max_args is not None and len(args) > spec.max_args):
                self._error(tok, f"wrong number of arguments: the signature is {spec.signature}")
        if kind in (B.EFFECT, B.CHOICE, "procedure") and not statement:
            what = "asks a player" if kind != B.EFFECT else "changes the game"
            self._error(tok, f"{name}() {what}, so it must stand as a statement of its own "
                             f"(or as 'let x = {name}(...)'), not inside an expression")
        if kind == "function":
            return (lambda g, env: g.call_function(name, [a(g, env) for a in args])), False
        if kind == "procedure":  # pushes the procedure's frame: SUSPENDED
            return (lambda g, env: g.call_procedure(name, [a(g, env) for a in args])), True
        impl = B.REGISTRY[name].fn
        if kind == B.CHOICE:  # the value, or SUSPENDED when it asked a player or pushed a frame
            return (lambda g, env: impl(g, *[a(g, env) for a in args])), True
        return (lambda g, env: impl(g, *[a(g, env) for a in args])), False

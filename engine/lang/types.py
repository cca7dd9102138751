"""Static types of the effect language, checked once at load time (so by `engine validate`).

A mistake of type otherwise shows only when a game reaches it. This check infers, for every
parsed rule, what its expressions are: from literals, constants, the values counters start
with and are given, the properties card kinds and boards declare, the built-ins' declared
results (engine/lang/builtins.py, `returns=`), and the bodies of the ruleset's functions.

It is gradual: a value it cannot tell is "unknown", and nothing unknown is ever an error.
It reports only what must fail (or is always false) when it runs: arithmetic on text, text
put into a counter whose written initial value is a number, a card compared with a number, a call of something that is
not a function, a function value given other than one argument, and a property that none
of a card's possible kinds has.

Types of counters, locals, function results and which kinds of card each zone may hold are
found together by going over all the rules again until nothing changes (a few passes). Each
starts as "nothing yet" (a function calling itself adds nothing to what it returns) and only
ever widens, so what is found at the end holds for every run. If that does not settle within
MAX_PASSES, nothing is reported.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable

from lark import Token, Tree

from ..core.board import Board
from ..core.errors import Diagnostic, Location, suggest
from ..core.values import ConstantList
from . import builtins as B
from .compiler import CARD_ATTRIBUTES, PLACE_ATTRIBUTES, ROUTE_ATTRIBUTES, ZONE_ATTRIBUTES, Names, \
    _OPERATOR_WORDS, _type_fault_words, assigned

MAX_PASSES = 12


@dataclass(frozen=True)
class T:
    """A known type: its kind (number, text, bool, none, card, list, zone, zones, counter,
    place, board, table, function, route) and what it is of: a card's possible kinds (None:
    any), a list's item type, a zone's or a family's name, a place's board."""

    kind: str
    of: Any = None


Type = "T | None"  # None: unknown
NUMBER, TEXT, BOOL, NONE, FUNCTION = T("number"), T("text"), T("bool"), T("none"), T("function")
_WORDS = {"number": "a number", "text": "text", "bool": "a true/false value", "none": "none", "card": "a card",
          "list": "a list", "zone": "a zone", "zones": "a family of zones", "counter": "a family of counters",
          "place": "a place", "board": "a board", "table": "a table", "function": "a function",
          "route": "a route"}
_PROPERTY_TYPES = {"integer": NUMBER, "number": NUMBER, "string": TEXT, "boolean": BOOL, "list": T("list")}
_CARD_FIELDS = {"kind": TEXT, "name": TEXT, "label": TEXT, "id": NUMBER, "zone": T("zone"), "face_down": BOOL}
_NUMERIC = ("number", "bool")  # Python counts true and false as 1 and 0
_NOTHING = T("nothing")  # no value yet: what a local or a result is before anything is put in it


def join(a: T | None, b: T | None) -> T | None:
    """The type of a value that is of type a or of type b."""
    if a is _NOTHING:
        return b
    if b is _NOTHING:
        return a
    if a is None or b is None:
        return None
    if a == b:
        return a
    if a.kind != b.kind:
        return None
    if a.kind == "card":
        return T("card", None if a.of is None or b.of is None else a.of | b.of)
    if a.kind == "list":
        return T("list", join(a.of, b.of))
    return T(a.kind)


def of_value(value: Any) -> T | None:
    """The type of a constant's value."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, (int, float)):
        return NUMBER
    if isinstance(value, str):
        return TEXT
    if value is None:
        return NONE
    if isinstance(value, (ConstantList, list, tuple)):
        item: T | None = _NOTHING
        for v in value:
            item = join(item, of_value(v))
        return T("list", None if item is _NOTHING else item)
    if isinstance(value, (MappingProxyType, dict)):
        return T("table")
    if isinstance(value, Board):
        return T("board", value.name)
    return None


@dataclass
class Rule:
    """One parsed rule to check: its tree, the types of the names it starts with, where its
    text is, and what it is (a function's or procedure's result is its return type)."""

    key: tuple
    tree: Tree
    given: dict[str, Any]  # name -> T, None, or ("returns", function): a modifier's `value`
    where: Callable[[int, int], Location]
    rule: str
    result: tuple[str, str] | None = None  # ("function" or "procedure", name)


class Checker:
    """Infers and checks the types of a ruleset's rules (see the module's docstring)."""

    def __init__(self, names: Names, counters: dict[str, Any], kinds: dict[str, dict[str, str]],
                 boards: dict[str, dict[str, str]], starts: dict[str, set[str]], written: set[str],
                 moves_known: bool = True):
        """`counters`: each counter's initial value; `written`: those whose `initial` the file
        writes (a number written there says the counter holds numbers). Without `moves_known`
        (the rules have other mistakes: a misspelt move() moves nothing here) any zone may
        hold any card."""
        self.names = names
        self.initial = {name: of_value(value) for name, value in counters.items()}
        self.numbers = {name for name in written if self.initial.get(name) == NUMBER}
        self.kinds = {k: {p: _PROPERTY_TYPES.get(t) for p, t in props.items()} for k, props in kinds.items()}
        self.boards = {b: {p: _PROPERTY_TYPES.get(t) for p, t in props.items()} for b, props in boards.items()}
        self.starts = {z: frozenset(ks) for z, ks in starts.items()}
        self.start_values = counters
        self.constants = {name: of_value(value) for name, value in names.constants.items()}
        # What the passes have found so far, widened as they go: at first what the counters
        # start with, nothing yet for locals and results, and the cards that start in each zone.
        self.counters: dict[str, T | None] = dict(self.initial)
        self.locals: dict[tuple, T | None] = {}
        self.results: dict[tuple[str, str], T | None] = {}
        self.zones: dict[str, frozenset | None] = {z: self.starts.get(z, frozenset()) if moves_known else None
                                                   for z in names.zones}
        self.changed = False
        self.settled = False
        self.entries_written = False
        self.problems: list[Diagnostic] = []  # of the pass going on

    def check(self, rules: list[Rule]) -> list[Diagnostic]:
        """The type problems of `rules` (none if the types do not settle)."""
        declared = {r.key: _declared(r.tree) for r in rules}
        # A rule that writes an entry of a local (`l[0] = x`) may write into a list it shares
        # with a counter or another local: then what any list holds is unknown.
        self.entries_written = any(name in declared[r.key] or name in r.given
                                   for r in rules for name, entry in assigned(r.tree) if entry)
        for _ in range(MAX_PASSES):
            self.changed, self.problems = False, []
            for rule in rules:
                self._rule(rule, declared[rule.key])
            if not self.changed:  # a pass that widened nothing: what it found holds for every run
                self.settled = True
                return self.problems
        return []

    def _widen(self, table: dict, key: Any, t: T | None) -> None:
        """Let `table[key]` be of type `t` too."""
        old = table.get(key, _NOTHING)
        new = join(old, t)
        if new != old:
            table[key] = new
            self.changed = True

    # ------------------------------------------------------------ rules and statements

    def _rule(self, rule: Rule, declared: set[str]) -> None:
        self.rule, self.declared = rule, declared
        self.scopes: list[dict[str, T | None]] = []
        self.statement: Tree | None = None  # the value of the statement being checked
        tree = rule.tree
        if tree.data == "expression":
            t = self._type(tree.children[0])
            if rule.result is not None:
                self._result(t)
        else:
            self._block(tree.children)
            last = tree.children[-1] if tree.children else None
            if not (isinstance(last, Tree) and last.data == "return_stmt"):
                self._result(NONE)  # it may end without a return: none

    def _given(self, name: str) -> T | None:
        given = self.rule.given[name]
        if isinstance(given, tuple):
            return self.results.get(given, _NOTHING)
        return given

    def _result(self, t: T | None) -> None:
        if self.rule.result is not None:
            key = self.rule.result
            self._widen(self.results, key, t)

    def _block(self, stmts: list) -> None:
        for s in stmts:
            if isinstance(s, Tree):
                self._stmt(s)

    def _stmt(self, node: Tree) -> None:
        kind, kids = node.data, node.children
        if kind == "let_stmt":
            self._assign_local(str(kids[0]), kids[1])
        elif kind == "assign_stmt":
            self._assign(kids[0], kids[1])
        elif kind == "augassign_stmt":
            self._augassign(*kids)
        elif kind == "expr_stmt":
            self._value(kids[0])
        elif kind == "return_stmt":
            self._result(self._value(kids[0]) if kids and kids[0] is not None else NONE)
        elif kind in ("if_stmt", "elif_clause", "while_stmt", "repeat_stmt"):
            self._type(kids[0])
            for child in kids[1:]:
                if isinstance(child, Tree):
                    self._stmt(child)
        elif kind == "else_clause":
            self._stmt(kids[0])
        elif kind == "suite":
            self._block(kids)
        elif kind == "for_stmt":
            self._local(str(kids[0]), self._item(self._type(kids[1])))
            self._stmt(kids[2])

    def _local(self, name: str, t: T | None) -> None:
        key = (self.rule.key, name)
        self._widen(self.locals, key, t)

    def _value(self, node: Tree) -> T | None:
        """The type of the value of a statement, the one place a call that changes the game or
        asks a player may stand."""
        self.statement = node
        return self._type(node)

    def _assign_local(self, name: str, value: Tree) -> None:
        t = self._value(value)
        if t is not _NOTHING:
            self._local(name, t)

    def _assign(self, target: Tree, value: Tree) -> None:
        name = str(target.children[0])
        t = self._value(value)
        if target.data == "index_target":
            self._type(target.children[1])
            if not self._is_local(name) and name in self.names.counters:
                self._into_counter(name, value, t)
            return
        if self._is_local(name):
            if t is not _NOTHING:
                self._local(name, t)
        elif name in self.names.counters:
            self._into_counter(name, value, t)

    def _into_counter(self, name: str, value: Tree | Token, t: T | None) -> None:
        """Record `t` put into counter `name`; text into one that holds numbers is reported."""
        if t is _NOTHING:
            return
        if name in self.numbers and t == TEXT:  # (a counter may start at 0 and hold a card later)
            self._error(value, f"text cannot go into the counter '{name}': it holds numbers (it starts at "
                               f"{self.start_values[name]}); write a number, as 2000, not \"2000\"")
            return
        self._widen(self.counters, name, t)

    def _augassign(self, target: Tree, op: Token, value: Tree) -> None:
        name = str(target.children[0])
        if target.data == "index_target":
            self._type(target.children[1])
            current = self._index_of(self._name_type(name), None) if self._known_name(name) else None
        else:
            current = self._name_type(name) if self._known_name(name) else None
        operand = self._type(value)
        t = self._arithmetic(op, str(op)[:-1], current, operand, str(op))
        if t is _NOTHING:
            return
        if self._is_local(name):
            if target.data == "name_target":
                self._local(name, t)
        elif name in self.names.counters:
            self._into_counter(name, value, t)

    def _known_name(self, name: str) -> bool:
        return self._is_local(name) or name in self.names.counters

    # ------------------------------------------------------------ names

    def _is_local(self, name: str) -> bool:
        return any(name in s for s in self.scopes) or name in self.rule.given or name in self.declared

    def _name_type(self, name: str) -> T | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name in self.declared:  # unknown until a pass has seen what is put in it
            local = self.locals.get((self.rule.key, name), _NOTHING)
            return join(self._given(name), local) if name in self.rule.given else local
        if name in self.rule.given:
            return self._given(name)
        n = self.names
        if name in self.constants:
            return self.constants[name]
        if name in n.counters:
            return T("counter", name) if n.counters[name] else self.counters.get(name)
        if name in n.zones:
            return T("zones", name) if n.zones[name] else T("zone", name)
        if name == "players":
            return T("list", NUMBER)
        if name == "player_count":
            return NUMBER
        return None

    # ------------------------------------------------------------ expressions

    def _type(self, node: Tree | Token | None) -> T | None:
        """The type of expression `node`, checking it."""
        if not isinstance(node, Tree):
            return None
        method = _METHODS.get(node.data)
        return method(self, node) if method is not None else None

    def _t_number(self, node):
        return NUMBER

    def _t_string(self, node):
        return TEXT

    def _t_true(self, node):
        return BOOL

    _t_false = _t_true

    def _t_none(self, node):
        return NONE

    def _t_name(self, node):
        return self._name_type(str(node.children[0]))

    def _t_list(self, node):
        item: T | None = _NOTHING  # an empty list has no items, of no type
        for child in node.children:
            if child is not None:
                item = join(item, self._type(child))
        return T("list", item)

    def _comprehension(self, element: Tree, clauses: list[Tree]) -> T | None:
        """The type of a comprehension's items; each `for` sees the variables of those before it."""
        outer = len(self.scopes)
        try:
            for clause in clauses:
                var, iterable, cond = clause.children
                self.scopes.append({str(var): self._item(self._type(iterable))})
                if cond is not None:
                    self._type(cond)
            return self._type(element)
        finally:
            del self.scopes[outer:]

    def _t_list_comp(self, node):
        return T("list", self._comprehension(node.children[0], node.children[1:]))

    def _t_lambda_expr(self, node):
        self.scopes.append({str(node.children[0]): None})
        try:
            self._type(node.children[1])
        finally:
            self.scopes.pop()
        return FUNCTION

    def _t_cond_expr(self, node):
        a, cond, b = node.children
        self._type(cond)
        return join(self._type(a), self._type(b))

    def _t_or_op(self, node):
        return join(self._type(node.children[0]), self._type(node.children[1]))

    _t_and_op = _t_or_op

    def _t_not_op(self, node):
        self._type(node.children[0])
        return BOOL

    def _t_neg(self, node):
        t = self._type(node.children[0])
        if t is _NOTHING:
            return t
        if t is not None and t.kind not in _NUMERIC:
            self._error(node, f"cannot negate {_WORDS[t.kind]} with -: only a number has a negative "
                              "(this expression always fails)")
        return NUMBER

    def _t_arith(self, node):
        left, op, right = node.children
        return self._arithmetic(node, str(op), self._type(left), self._type(right))

    def _arithmetic(self, node: Tree | Token, op: str, a: T | None, b: T | None, shown: str = "") -> T | None:
        """The type of `a op b`; an operation that must fail is reported and typed as giving
        nothing (so it does not spoil what it is put in)."""
        if a is _NOTHING or b is _NOTHING:
            return _NOTHING
        ka = a.kind if a is not None and a is not _NOTHING else None
        kb = b.kind if b is not None and b is not _NOTHING else None
        numbers = ka in _NUMERIC and kb in _NUMERIC
        if op in ("-", "/", "//", "%"):  # of numbers only
            wrong = [k for k in (ka, kb) if k is not None and k not in _NUMERIC]
            if wrong:
                self._operand_error(node, op, ka, kb, shown)
                return _NOTHING
            return NUMBER
        if ka is None or kb is None:
            if op == "+" and "number" in (ka, kb):
                return NUMBER  # a number or it fails, as the compiler counts it
            if op == "*" and (ka in ("text", "list") or kb in ("text", "list")):
                return a if ka in ("text", "list") else b
            return None
        if op == "+":
            if numbers:
                return NUMBER
            if ka == kb and ka in ("text", "list"):
                return join(a, b)
        elif op == "*":
            if numbers:
                return NUMBER
            if ka in _NUMERIC and kb in ("text", "list"):
                return b
            if kb in _NUMERIC and ka in ("text", "list"):
                return a
        else:
            return None
        self._operand_error(node, op, ka, kb, shown)
        return _NOTHING

    def _operand_error(self, node, op: str, ka: str | None, kb: str | None, shown: str) -> None:
        if shown and ka in _NUMERIC and kb == "text":  # money[p] += "2000"
            verb = {"+": "added to", "-": "taken from"}.get(op, f"used with {shown} on")
            self._error(node, f"text cannot be {verb} a number; write a number, as 2000, not \"2000\" "
                              "(this statement always fails)")
            return
        if ka is not None and kb is not None:
            message = _type_fault_words(op, _WORDS[ka], _WORDS[kb])
            if shown:
                message = message.replace(f" with {op}", f" with {shown}", 1)
        else:
            verb = _OPERATOR_WORDS.get(op, "combine")
            message = f"cannot {verb} {_WORDS[ka or kb]} with {shown or op}: {op} takes numbers only"
        self._error(node, message + " (this expression always fails)")

    def _t_compare(self, node):
        left, op, right = node.children
        a, b = self._type(left), self._type(right)
        word = " ".join(str(op).split())
        ka = a.kind if a is not None and a is not _NOTHING else None
        kb = b.kind if b is not None and b is not _NOTHING else None
        if ka is None or kb is None or word in ("in", "not in"):
            return BOOL
        if word in ("==", "!=") and {ka, kb} == {"card", "number"}:
            side = "left" if ka == "card" else "right"
            self._error(node, f"a card is never equal to a number, so this is always "
                              f"{'false' if word == '==' else 'true'}; compare one of the card's "
                              f"properties (the {side} side is a card), as c.value {word} 3")
        elif word not in ("==", "!="):
            same = ka == kb or (ka in _NUMERIC and kb in _NUMERIC)
            if not same or ka not in _NUMERIC + ("text", "list"):
                self._error(node, _type_fault_words(word, _WORDS[ka], _WORDS[kb]) + " (this expression always fails)")
        return BOOL

    def _t_attribute(self, node):
        obj, attr_tok = node.children
        attr = str(attr_tok)
        if isinstance(obj, Tree) and obj.data == "name" and str(obj.children[0]) == "option" \
                and not self._is_local("option"):
            return None
        t = self._type(obj)
        if t is None or t is _NOTHING:
            return t
        if t.kind == "card":
            return self._card_attribute(attr_tok, t.of, attr)
        if t.kind == "place":
            props = self.boards.get(t.of, {})
            if attr in props:
                return props[attr]
            return TEXT if attr in ("id", "label") else None
        if t.kind == "zone":
            return TEXT if attr == "name" else None
        return None

    def _card_attribute(self, tok: Token, kinds: frozenset | None, attr: str) -> T | None:
        """The type of a card's `attr`, given its possible kinds (None: any). A property of
        its kind comes first, as in play; one that none of its kinds has is reported."""
        having = [k for k in (kinds if kinds is not None else self.kinds) if attr in self.kinds.get(k, {})]
        if having:
            if kinds is None or len(having) < len(kinds):  # some cards have it, others not: unknown
                return None
            return _join_all([self.kinds[k][attr] for k in having])
        if attr in _CARD_FIELDS:
            return _CARD_FIELDS[attr]
        if kinds is not None and attr not in CARD_ATTRIBUTES and self._known_attribute(attr):
            props = sorted({p for k in kinds for p in self.kinds.get(k, {})} | CARD_ATTRIBUTES)
            owners = [k for k in self.kinds if attr in self.kinds[k]]
            where = f" (it is a property of {', '.join(owners)})" if owners else ""
            self._error(tok, f"a card here is of kind {' or '.join(sorted(kinds))}, which has no property "
                             f"'{attr}'{suggest(attr, props)}{where}")  # (one no kind has: the compiler says)
        return None

    def _known_attribute(self, attr: str) -> bool:
        return attr in (self.names.properties | CARD_ATTRIBUTES | ZONE_ATTRIBUTES | PLACE_ATTRIBUTES
                        | ROUTE_ATTRIBUTES)

    def _t_index(self, node):
        obj, key = node.children
        return self._index_of(self._type(obj), self._type(key))

    def _t_index_pair(self, node):
        obj, first, second = node.children
        self._type(first)
        self._type(second)
        t = self._type(obj)
        return T("zone", t.of) if t is not None and t.kind == "zones" else None

    def _index_of(self, t: T | None, key: T | None) -> T | None:
        if t is None or t is _NOTHING:
            return t
        if t.kind == "list":
            return None if self.entries_written else t.of
        if t.kind == "zone":
            return self._item(t)
        if t.kind == "counter":
            return self.counters.get(t.of)
        if t.kind == "zones":
            return T("zone", t.of) if type(self.names.zones.get(t.of)) is not tuple else None
        if t.kind == "board":
            return T("place", t.of)
        if t.kind == "text":
            return TEXT
        return None

    def _item(self, t: T | None) -> T | None:
        """The type of the items of `t`, as a loop or a comprehension goes through them."""
        if t is None or t is _NOTHING:
            return t
        if t.kind == "list":
            return None if self.entries_written else t.of
        if t.kind == "zone":
            if t.of is None or t.of not in self.zones:
                return T("card")
            kinds = self.zones[t.of]  # no kind: no rule puts a card there
            return _NOTHING if kinds == frozenset() else T("card", kinds)
        if t.kind == "zones":
            return T("zone", t.of)
        if t.kind == "board":
            return T("place", t.of)
        if t.kind == "text":
            return TEXT
        return None

    # ------------------------------------------------------------ calls

    def _arguments(self, node: Tree | None) -> list[T | None]:
        if node is None:
            return []
        if node.data == "comp_argument":
            return [T("list", self._comprehension(node.children[0], node.children[1:]))]
        return [self._type(c) for c in node.children]

    def _t_call(self, node):
        callee, args_node = node.children
        args = self._arguments(args_node)
        count = 0 if args_node is None else len(args)
        if not (isinstance(callee, Tree) and callee.data == "name") or self._is_local(str(callee.children[0])):
            t = self._type(callee) if not (isinstance(callee, Tree) and callee.data == "attribute") else None
            if t is _NOTHING:
                return t
            if t is not None and t.kind != "function":
                what = f"'{callee.children[0]}'" if callee.data == "name" else "this"
                self._error(node, f"{what} is {_WORDS[t.kind]}, not a function, so it cannot be called")
            elif t == FUNCTION and count != 1:
                self._error(node, f"a function made with -> takes 1 argument, given {count}")
            return None
        name = str(callee.children[0])
        n = self.names
        if name in n.constants or name in n.counters or name in n.zones:
            return None  # not a function: the compiler says so
        if name in n.functions:
            return self.results.get(("function", name), _NOTHING)
        spec = B.REGISTRY.get(name)
        if name in ("move", "deal", "move_all", "swap") and name not in n.procedures:
            self._move(name, args)
        if (name in n.procedures or spec is not None and spec.kind != B.VALUE) and node is not self.statement:
            return None  # it must stand as a statement: the compiler says so
        if name in n.procedures:
            return self.results.get(("procedure", name), _NOTHING)
        if spec is None:
            return None
        returns = spec.returns
        if name in ("max", "min"):
            return self._item(args[0]) if len(args) == 1 else _join_all(args)
        if returns == "item":
            return self._item(args[0]) if args else None
        if returns == "items":
            return T("list", self._item(args[0])) if args else None
        if returns == "items of items":
            return T("list", self._item(self._item(args[0]))) if args else None
        if returns == "option":
            return self._item(args[1]) if len(args) > 1 else None
        if returns.startswith("list:"):
            return T("list", T(returns[5:]))
        return T(returns) if returns in _WORDS else None

    def _move(self, name: str, args: list[T | None]) -> None:
        """Record the kinds of card moved into a zone."""
        if name == "swap":  # two cards may trade places: any zone may hold either
            card, other = args[0], args[1] if len(args) > 1 else None
            if card is not _NOTHING and other is not _NOTHING:
                for family in self.zones:
                    self._widen_zone(family, None)
            return
        if len(args) < 2:
            return
        card, to = args[0] if name == "move" else self._item(args[0]), args[1]
        if card is _NOTHING or to is _NOTHING:  # no card, or no zone: nothing moves
            return
        kinds = card.of if card is not None and card.kind == "card" else None
        families = [to.of] if to is not None and to.kind == "zone" and to.of in self.zones else list(self.zones)
        for family in families:
            self._widen_zone(family, kinds)

    def _widen_zone(self, family: str, kinds: frozenset | None) -> None:
        """Let zone `family` hold cards of `kinds` too (None: of any kind)."""
        held = self.zones[family]
        wider = None if held is None or kinds is None else held | kinds
        if wider != held:
            self.zones[family] = wider
            self.changed = True

    # ------------------------------------------------------------ reporting

    def _error(self, node: Tree | Token, message: str) -> None:
        self.problems.append(Diagnostic(self._loc(node), message))

    def _loc(self, node: Tree | Token) -> Location:
        if isinstance(node, Token):
            return self.rule.where(node.line or 1, node.column or 1)
        meta = getattr(node, "meta", None)
        if meta is not None and not meta.empty:
            return self.rule.where(meta.line, meta.column)
        for child in node.children:
            if isinstance(child, (Tree, Token)):
                return self._loc(child)
        return self.rule.where(1, 1)


_METHODS: dict[str, Callable] = {name[3:]: fn for name, fn in vars(Checker).items() if name.startswith("_t_")}


def _join_all(types: list[T | None]) -> T | None:
    t: T | None = _NOTHING
    for each in types:
        t = join(t, each)
    return t


def _declared(tree: Tree) -> set[str]:
    """The locals a rule declares (with let, or as a for loop's variable)."""
    return {str(node.children[0]) for node in tree.iter_subtrees() if node.data in ("let_stmt", "for_stmt")}


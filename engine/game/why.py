"""Why a thing is not among a person's options: the rule that leaves it out, in words.

Asked only at a person's request (`why NAME` at the terminal, through `PlayerView.why`), never
while a game runs: the rules run compiled (lang/codegen.py) and keep no trace. Here the
pending choose()'s options, as written (its `ChoiceSite`), are walked as a tree: each part that
matters (a filter's condition, the test of an `if ... else`, a local's `let`, a function of the
ruleset) is compiled on its own and evaluated on a copy of the game, in the locals the choice
waits with, and said with its source text and the values it read. The game is never changed.

A value is said only when the person may see everything it was worked out from: a part that
reads a card they cannot see is "a rule about something you cannot see" (`read` returns None
for it), so `why` tells nothing the view does not.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from lark import Token, Tree

from ..core.errors import Diagnostic, Location
from ..core.table import Card, Table, Zone
from ..core.text import Text, typed
from ..lang.compiler import ChoiceSite, Compiler, string_value
from .game import Game

HIDDEN = "a rule about something you cannot see"
MOST_LINES = 18  # an answer fits a screen beside its prompt
MOST_WORK = 20_000  # parts evaluated to tell whether a condition reads what the person cannot see
MOST_DEPTH = 14  # parts, functions and locals followed, at most, into one another

Reader = Callable[[Any], "str | None"]  # a value as the person reads it; None: it shows what they may not see


@dataclass
class _At:
    """Where a part of a rule is evaluated: the text its positions index, and its locals."""

    text: str
    env: dict[str, Any]
    rule: str


class _Explainer:
    def __init__(self, game: Game, site: ChoiceSite, read: Reader, hidden: Callable[[Any], bool],
                 matches: Callable[[Any], bool]):
        self.game, self.site, self.read, self.hidden, self.matches = game, site, read, hidden, matches
        self.asked = matches  # `matches` of the options themselves (a comprehension may make its own)
        self.names = game.rules.names
        self.name = ""  # what the person asked about, as they typed it
        self._compiled: dict[tuple, Any] = {}

    # -------------------------------------------------------------- evaluation, on request

    def value(self, node: Tree | Token, at: _At) -> Any:
        """`node`'s value in `at`'s locals, compiled now (once per node and locals); raises
        on any fault, which the caller takes as "cannot be told"."""
        if isinstance(node, Tree) and node.data == "call" and isinstance(node.children[0], Tree) \
                and node.children[0].data == "name" and str(node.children[0].children[0]) in self.names.direct \
                and str(node.children[0].children[0]) not in at.env:  # a procedure that asks nobody: its value
            name, args = str(node.children[0].children[0]), node.children[1]
            values = [self.value(a, at) for a in args.children] if args is not None else []
            return self.names.calls[name](self.game, dict(zip(self.names.procedures[name], values)))
        key = (id(node), tuple(at.env))
        fn = self._compiled.get(key)
        if fn is None:
            problems: list[Diagnostic] = []
            compiler = Compiler(self.names, lambda line, col: Location(at.rule, line, col), at.rule, problems)
            fn = compiler.expression(Tree("expression", [node]), list(at.env))
            if problems:
                raise ValueError(problems[0].message)
            self._compiled[key] = fn
        return fn(self.game, dict(at.env))

    def reads_hidden(self, node: Tree | Token, at: _At) -> bool:
        """Whether `node` is worked out from a card the person cannot see: its value or the
        value of any part of it, in every locals it is evaluated in (a comprehension's items,
        a function's body with its arguments). A part that cannot be told, or too much work,
        counts as hidden: `why` would rather say less."""
        self.work = 0
        try:
            return self._hidden_in(node, at, 0)
        except Exception:
            return True

    def _hidden_in(self, node: Tree | Token, at: _At, depth: int, whole: bool = True) -> bool:
        """`reads_hidden`'s walk; without `whole`, `node`'s own value is not read whole (what is
        indexed, a zone counted: `hand[p]` reads one hand, `count(deck)` no card of the deck)."""
        self.work += 1
        if self.work > MOST_WORK or depth > 3 * MOST_DEPTH:
            raise RecursionError("too much to check")
        if not isinstance(node, Tree):
            return False
        kind, kids = node.data, node.children
        if kind in ("number", "string", "true", "false", "none"):
            return False
        if kind == "lambda_expr":
            return True  # a function value: what it reads is known only where it is called
        if kind == "list_comp" or (kind == "call" and kids[1] is not None and kids[1].data == "comp_argument"):
            element, *clauses = kids if kind == "list_comp" else kids[1].children
            return self._hidden_items(element, clauses, at, depth) or (whole and self.hidden(self.value(node, at)))
        if whole and self.hidden(self.value(node, at)):
            return True
        if kind == "name":  # a local of the rule: hidden if what set it read what cannot be seen
            value = self._set_by(str(kids[0]), node, at)
            asked = self._asked(value) if value is not None else None
            if asked is not None:  # an answer: the person's own, or (a step's) others' not told yet
                return asked != "choose" and asked != "choose_amount"
            return value is not None and self._hidden_in(value, at, depth + 1, whole)
        if kind == "call":
            callee, args = kids
            name = str(callee.children[0]) if isinstance(callee, Tree) and callee.data == "name" else None
            parts = list(args.children) if args is not None and args.data == "arguments" else []
            counted_zone = name == "count" and not self.names.own(name) and len(parts) == 1 \
                and isinstance(parts[0], Tree) and parts[0].data in ("name", "index", "index_pair") \
                and isinstance(self.value(parts[0], at), Zone)
            if any(self._hidden_in(a, at, depth + 1, not counted_zone) for a in parts):
                return True
            if name is not None and name not in at.env and name in self.names.sources:
                tree, text = self.names.sources[name]
                if name in self.names.procedures:
                    return True  # its statements are not walked: say nothing of what it finds
                params = self.names.functions[name]
                inner = _At(text, dict(zip(params, [self.value(a, at) for a in parts])), f"function {name}")
                return self._hidden_in(tree.children[0], inner, depth + 1)
            return name is None  # a function value called
        if kind == "cond_expr":  # the test and the branch it takes: the other is not evaluated
            taken, test, other = kids
            return self._hidden_in(test, at, depth + 1) or \
                self._hidden_in(taken if self.value(test, at) else other, at, depth + 1)
        if kind in ("and_op", "or_op"):  # the parts up to the one that decides
            for k in _flat(node, kind):
                if self._hidden_in(k, at, depth + 1):
                    return True
                if bool(self.value(k, at)) == (kind == "or_op"):
                    return False
            return False
        if kind in ("index", "index_pair"):
            return self._hidden_in(kids[0], at, depth + 1, False) or \
                any(self._hidden_in(k, at, depth + 1) for k in kids[1:])
        return any(self._hidden_in(k, at, depth + 1) for k in kids if isinstance(k, Tree))

    def _hidden_items(self, element: Tree, clauses: list[Tree], at: _At, depth: int) -> bool:
        """Whether a comprehension reads what cannot be seen: each `for` of it in turn, for
        each item the ones before it keep."""
        var, iterable, cond = clauses[0].children
        if self._hidden_in(iterable, at, depth + 1):
            return True
        items = self.value(iterable, at)
        if isinstance(items, Zone):
            items = self.game.table.contents[items.index]
        for item in items:
            inner = _At(at.text, {**at.env, str(var): item}, at.rule)
            if cond is not None and self._hidden_in(cond, inner, depth + 1):
                return True
            if cond is not None and not self.value(cond, inner):
                continue  # (an item the filter leaves out is not made into anything)
            if self._hidden_items(element, clauses[1:], inner, depth) if clauses[1:] \
                    else self._hidden_in(element, inner, depth + 1):
                return True
        return False

    def said(self, node: Tree | Token, at: _At) -> str | None:
        """`node`'s value as the person reads it; None when it reads what they cannot see."""
        if self.reads_hidden(node, at):
            return None
        return self.read(self.value(node, at))

    @staticmethod
    def src(node: Tree | Token, at: _At) -> str:
        return ChoiceSite(node, at.text, Tree("program", []), at.rule).source(node)

    # -------------------------------------------------------------- why a value is not among a list's

    def absent(self, node: Tree | Token, at: _At, depth: int = 0) -> list[str] | None:
        """Why no item of `node`'s value matches: the lines that say it, or None when the thing
        asked about is nowhere to be found in it (nothing to tell)."""
        if depth > MOST_DEPTH or not isinstance(node, Tree):
            return None
        kind, kids = node.data, node.children
        if kind == "list_comp":  # of several `for`s, only whether they read what is hidden
            if len(kids) == 2:
                return self._comprehension(kids[0], kids[1], at, depth)
            return [HIDDEN] if self.reads_hidden(node, at) else None
        if kind == "cond_expr":
            taken, cond, other = kids
            shown = self.said(cond, at)
            if shown is None:
                return [HIDDEN]
            branch, skipped = (taken, other) if self.value(cond, at) else (other, taken)
            lines = [f"{self.src(cond, at)} is {shown}{self._sides(cond, at)}, so the options are "
                     f"{self.src(branch, at)}"]
            found = self.absent(branch, at, depth + 1)
            if found:
                return lines + found
            if self._holds(skipped, at):  # it is in the branch the test did not take
                return lines + [f"which do not hold {self.name}"]
            return None
        if kind == "arith" and str(kids[1]).strip() == "+":
            found = [self.absent(k, at, depth + 1) for k in (kids[0], kids[2])]
            found = [f for f in found if f]
            return [line for f in found for line in f] if found else None
        if kind == "name":
            return self._local(str(kids[0]), node, at, depth)
        if kind == "call":
            found = self._function(node, at, depth)
            if found is not None or node.children[1] is None or node.children[1].data != "arguments":
                return found
            # A built-in that orders or copies a list (sorted_by(items, ...), list(items)): the
            # list it was given, where the thing asked about would have been left out.
            for arg in node.children[1].children:
                if isinstance(arg, Tree) and arg.data != "lambda_expr":
                    found = self.absent(arg, at, depth + 1)
                    if found:
                        return found
        return None

    def _holds(self, node: Tree | Token, at: _At) -> bool:
        try:
            items = self.value(node, at)
        except Exception:
            return False
        if isinstance(items, Zone):
            items = self.game.table.contents[items.index]
        return isinstance(items, (list, tuple)) and any(self.matches(i) and not self.hidden(i) for i in items)

    def empty(self, node: Tree | Token, at: _At, depth: int) -> list[str]:
        """Why `node`'s list is empty: its comprehension's items, each with why its filter
        leaves it out (the first few), through the ruleset's functions and `if ... else`."""
        if depth > MOST_DEPTH or not isinstance(node, Tree):
            return []
        kind, kids = node.data, node.children
        if kind == "list_comp" and len(kids) == 2:  # (of several `for`s, nothing is told)
            var, iterable, cond = kids[1].children
            if self.reads_hidden(iterable, at):
                return [HIDDEN]
            items = self.value(iterable, at)
            if isinstance(items, Zone):
                items = self.game.table.contents[items.index]
            if not items:
                return [f"{self.src(iterable, at)} is empty"] + self.empty(iterable, at, depth + 1)
            if cond is None or not isinstance(items, (list, tuple)):
                return []
            lines = [f"each of {self.src(iterable, at)} is left out by: if {self.src(cond, at)}"]
            for item in items[:3]:
                inner = _At(at.text, {**at.env, str(var): item}, at.rule)
                said = self.read(item) if not self.hidden(item) else "a card you cannot see"
                lines += [f"  for {said}:"] + ["    " + line for line in self.false(cond, inner, depth + 1)]
            return lines + ([f"  and {len(items) - 3} more"] if len(items) > 3 else [])
        if kind == "cond_expr":
            taken, cond, other = kids
            if self.reads_hidden(cond, at):
                return [HIDDEN]
            branch = taken if self.value(cond, at) else other
            return self.empty(branch, at, depth + 1)
        if kind == "call":
            inner = self._body(node, at)
            if inner is not None:
                tree, body_at = inner
                return [f"{self.src(node, at)}:"] + ["  " + line for line in self.empty(tree.children[0], body_at, depth + 1)]
        return []

    def _described(self, name: str) -> list[str]:
        """The description of the ruleset's function or procedure `name`, in the rulebook's
        words, as the line under its call; none without one."""
        description = self.names.descriptions.get(name)
        return [f"  ({description})"] if description else []

    def _body(self, node: Tree, at: _At) -> tuple[Tree, _At] | None:
        """A call of a function of the ruleset: its tree, and its parameters given the call's values."""
        callee, args = node.children
        name = str(callee.children[0]) if isinstance(callee, Tree) and callee.data == "name" else None
        if name not in self.names.functions or name not in self.names.sources or name in at.env \
                or args is None or args.data != "arguments":
            return None
        tree, text = self.names.sources[name]
        params = self.names.functions[name]
        values = [self.value(a, at) for a in args.children]
        if len(values) != len(params):
            return None
        return tree, _At(text, dict(zip(params, values)), f"function {name}")

    def _comprehension(self, element: Tree, clause: Tree, at: _At, depth: int) -> list[str] | None:
        var, iterable, cond = clause.children
        items = self.value(iterable, at)
        if isinstance(items, Zone):
            items = self.game.table.contents[items.index]
        for item in (items if isinstance(items, (list, tuple)) else []):
            inner = _At(at.text, {**at.env, str(var): item}, at.rule)
            try:
                if not self.matches(self.value(element, inner)) or self.hidden(item):
                    continue
            except Exception:
                continue
            if cond is not None and self.reads_hidden(cond, inner):  # its filter's verdict is not told either
                return [f"whether {self.read(item)} is kept depends on {HIDDEN}: if {self.src(cond, inner)}"]
            if cond is None or self.value(cond, inner):
                return None  # it is there: some later part leaves it out
            shown = self.read(item) if self.matches is self.asked else self.name  # else: what it is made into
            return [f"{shown} is left out by: if {self.src(cond, inner)}"] + \
                ["  " + line for line in self.false(cond, inner, depth + 1)]
        if isinstance(element, Tree) and element.data == "name" and str(element.children[0]) == str(var):
            return self.absent(iterable, at, depth + 1)
        # Each item is made into an option ([names[a] for a in offered]): the item asked about
        # is the one that would be made into it.
        matches = self.matches

        def made(item: Any) -> bool:
            try:
                return matches(self.value(element, _At(at.text, {**at.env, str(var): item}, at.rule)))
            except Exception:
                return False
        self.matches = made
        try:
            return self.absent(iterable, at, depth + 1)
        finally:
            self.matches = matches

    def _set_by(self, name: str, node: Tree, at: _At) -> Tree | Token | None:
        """The expression of the `let` (or assignment) of the rule that last set the local
        `name` before `node`, or None (not a local of the rule, or set otherwise: a loop's)."""
        if at.text is not self.site.text or name not in at.env:
            return None
        before = node.meta.start_pos if not node.meta.empty else len(at.text)
        value = None
        for stmt in self.site.rule_tree.iter_subtrees_topdown():
            if stmt.data in ("let_stmt", "assign_stmt") and not stmt.meta.empty and stmt.meta.end_pos <= before:
                target = stmt.children[0]
                named = str(target) if isinstance(target, Token) else (
                    str(target.children[0]) if target.data == "name_target" else None)
                if named == name:
                    value = stmt.children[-1]
        return value

    @staticmethod
    def _asked(value: Tree | Token) -> str | None:
        """The name of the choose() (or choose_each()...) whose answer `value` is, if it is one."""
        if isinstance(value, Tree) and value.data == "call" and isinstance(value.children[0], Tree) \
                and value.children[0].data == "name" and str(value.children[0].children[0]).startswith("choose"):
            return str(value.children[0].children[0])
        return None

    def _local(self, name: str, node: Tree, at: _At, depth: int) -> list[str] | None:
        """A local of the rule: explained by the `let` (or assignment) that last set it before
        the choice, evaluated in the locals the choice waits with."""
        value = self._set_by(name, node, at)
        if value is None or self._asked(value):
            return None
        found = self.absent(value, at, depth + 1)
        return [f"{name} = {self.src(value, at)}"] + found if found else None

    def _function(self, node: Tree, at: _At, depth: int) -> list[str] | None:
        """A function of the ruleset: its body, its parameters given the call's values."""
        callee, args = node.children
        name = str(callee.children[0]) if isinstance(callee, Tree) and callee.data == "name" else None
        if name not in self.names.sources or name in at.env:
            return None
        tree, text = self.names.sources[name]
        procedure = name in self.names.procedures
        params = (self.names.procedures if procedure else self.names.functions)[name]
        values = [self.value(a, at) for a in args.children] if args is not None and args.data == "arguments" else []
        if len(values) != len(params):
            return None
        inner = _At(text, dict(zip(params, values)), f"{'procedure' if procedure else 'function'} {name}")
        found = self._procedure(tree, inner, depth + 1) if procedure else self.absent(tree.children[0], inner, depth + 1)
        return [f"{self.src(node, at)}:"] + self._described(name) + ["  " + line for line in found] if found else None

    def _procedure(self, tree: Tree, at: _At, depth: int) -> list[str] | None:
        """A procedure that builds its value statement by statement: the `if` whose branch adds
        the thing asked about (a literal that reads as it), and why that branch was not taken.
        Its plain `let`s before it are evaluated in order, for the conditions that read them."""
        for stmt in tree.children:
            if not isinstance(stmt, Tree):
                continue
            if stmt.data == "let_stmt":
                try:
                    at.env[str(stmt.children[0])] = self.value(stmt.children[1], at)
                except Exception:
                    return None  # a let that asks a player, or that cannot be told on its own
            elif stmt.data == "if_stmt":
                cond, suite, *rest = stmt.children
                branches = [(cond, suite)] + [(c.children[0], c.children[1]) if c.data == "elif_clause"
                                              else (None, c.children[0]) for c in rest if c is not None]
                for test, body in branches:
                    if self._adds(body) and test is not None and not self.value(test, at):
                        said = self.false(test, at, depth + 1)
                        return [f"it is added only if {self.src(test, at)}"] + ["  " + line for line in said]
        return None

    def _adds(self, body: Tree) -> bool:
        """Whether a statement's body writes a literal that reads as the thing asked about."""
        for node in body.iter_subtrees():
            if node.data == "string":
                try:
                    if self.matches(string_value(node.children[0])):
                        return True
                except Exception:
                    continue
        return False

    # -------------------------------------------------------------- why a condition is false

    def false(self, cond: Tree | Token, at: _At, depth: int) -> list[str]:
        """Why `cond`, which is false, is: its false parts, each with the values it read."""
        kind = cond.data if isinstance(cond, Tree) else ""
        if kind not in ("and_op", "or_op", "call") and self.reads_hidden(cond, at):
            return [HIDDEN]
        if isinstance(cond, Tree) and depth <= MOST_DEPTH:
            kids = _flat(cond, kind) if kind in ("and_op", "or_op") else cond.children
            if kind == "and_op":  # the first part that is false, unless a part before it is hidden
                for k in kids:
                    if self.reads_hidden(k, at):
                        return [HIDDEN]
                    if not self.value(k, at):
                        return self.false(k, at, depth + 1)
            if kind == "or_op":
                relevant = [k for k in kids if not self._other_case(k, at)] or kids
                if len(relevant) == 1:
                    return self.false(relevant[0], at, depth + 1)
                return [f"none of these holds: {self.src(cond, at)}"] + \
                    ["  " + line for k in relevant for line in self.false(k, at, depth + 1)]
            if kind == "not_op":
                return [f"{self.src(kids[0], at)} is {self.said(kids[0], at)}{self._sides(kids[0], at)}"]
            if kind == "call":
                inner = self._false_function(cond, at, depth)
                if inner:
                    return inner
                if self._builtin(cond, "any") and kids[1] is not None and kids[1].data == "comp_argument" \
                        and len(kids[1].children) == 2:
                    element, clause = kids[1].children
                    listed = Tree("list_comp", [Tree("true", []), Tree("comp_clause", [clause.children[0],
                                  clause.children[1], element])], clause.meta)
                    return [f"{self.src(cond, at)} is no:"] + ["  " + line for line in self.empty(listed, at, depth + 1)]
                if self.reads_hidden(cond, at):
                    return [HIDDEN]
            if kind == "compare":
                counted = next((k for k in (kids[0], kids[2]) if self._builtin(k, "count")
                                and k.children[1] is not None and k.children[1].data == "arguments"), None)
                if counted is not None and self.value(counted, at) == 0:
                    listed = counted.children[1].children[0]
                    return [f"{self.src(cond, at)} is no: {self.src(counted, at)} is 0"] + \
                        ["  " + line for line in self.empty(listed, at, depth + 1)]
        return [f"{self.src(cond, at)} is {self.said(cond, at)}{self._sides(cond, at)}"]

    def _builtin(self, node: Tree | Token, name: str) -> bool:
        """Whether `node` calls the language's function `name` (no name of the ruleset hides it)."""
        return isinstance(node, Tree) and node.data == "call" and isinstance(node.children[0], Tree) \
            and node.children[0].data == "name" and str(node.children[0].children[0]) == name \
            and not self.names.own(name)

    def _other_case(self, part: Tree | Token, at: _At) -> bool:
        """Whether a part of an `or` is about another case than this one: a false comparison,
        or an `and` that begins with one ('a == "Build" and ...' asked about another action)."""
        if isinstance(part, Tree) and part.data == "and_op":
            part = _flat(part, "and_op")[0]
        return isinstance(part, Tree) and part.data == "compare" and not self.reads_hidden(part, at) \
            and not self.value(part, at)

    def _sides(self, cond: Tree | Token, at: _At) -> str:
        """For a comparison, what each side that is not written as a value is: ": a is 3, b is 5"."""
        if not isinstance(cond, Tree) or cond.data != "compare":
            return ""
        parts = [f"{self.src(k, at)} is {self.said(k, at)}" for k in (cond.children[0], cond.children[2])
                 if isinstance(k, Tree) and k.data not in ("number", "string", "true", "false", "none")]
        return ": " + ", ".join(parts) if parts else ""

    def _false_function(self, node: Tree, at: _At, depth: int) -> list[str] | None:
        found = self._body(node, at)
        if found is None:
            return None
        tree, inner = found
        name = str(node.children[0].children[0])
        return [f"{self.src(node, at)} is no, since"] + self._described(name) + \
            ["  " + line for line in self.false(tree.children[0], inner, depth + 1)]


def explain(game: Game, player: int, what: str, read: Reader, hidden: Callable[[Any], bool]) -> list[str]:
    """Why nothing `player` may name `what` is among their options now, as lines of text; or
    that it is offered, or that there is nothing to explain. Works on a copy of `game`."""
    d = game.decision_of(player)
    if d is None:
        return ["You have no decision to make now, so nothing is left out of one."]
    wanted = typed(what)
    for exact in (True, False):
        def matches(value: Any, exact: bool = exact) -> bool:
            shown = read(value)
            return shown is not None and (typed(shown) == wanted if exact else wanted in typed(shown))
        offered = [o for o in d.options if matches(o)]
        if offered:
            return [f"{read(offered[0])} is offered: it is one of your options."]
        site = _site(game) if d is game.pending else None
        if site is None:
            continue
        copy = game.clone()
        explainer = _Explainer(copy, site, read, hidden, matches)
        explainer.name = what.strip()
        frame = copy.frames[-1]
        try:
            lines = explainer.absent(site.options, _At(site.text, dict(frame.env), site.rule))
        except Exception:  # a part that cannot be worked out on its own: say what is known
            lines = None
        if lines:
            if len(lines) > MOST_LINES - 2:  # the first steps and the deepest, which say the reason
                lines = lines[:4] + ["  ..."] + lines[-(MOST_LINES - 7):]
            kind, _, rule = site.rule.partition(" ")
            said = game.rules.names.descriptions.get(rule) if kind in ("function", "procedure") else None
            return [f"'{what.strip()}' is not offered. This decision's options are:",
                    f"  {site.source(site.options)}"] + ([f"  ({site.rule}: {said})"] if said else []) + \
                ["  " + line for line in lines]
    site = _site(game) if d is game.pending else None
    if site is None:
        return [f"'{what.strip()}' is not offered, and this decision's options come from no rule that",
                "can be taken apart (nothing left them out one by one)."]
    return [f"'{what.strip()}' is not among this decision's options, which are:",
            f"  {site.source(site.options)}"]


def _flat(node: Tree, kind: str) -> list[Tree | Token]:
    """The parts of `a or b or c` (parsed as `(a or b) or c`), or of an `and`, side by side."""
    return [p for k in node.children
            for p in (_flat(k, kind) if isinstance(k, Tree) and k.data == kind else [k])]


def _site(game: Game) -> ChoiceSite | None:
    """Where the pending choice's options are written, if a choose() asked it."""
    if not game.frames:
        return None
    frame = game.frames[-1]
    op = frame.code.ops[frame.pc] if 0 <= frame.pc < len(frame.code.ops) else None
    return getattr(op, "site", None)


def reaches_hidden(value: Any, unseen: Callable[[Card], bool], table: Table, depth: int = 0) -> bool:
    """Whether `value` holds a card `unseen` says the person cannot see (in a list, a table,
    a text, a zone)."""
    if depth > 4:
        return False
    if isinstance(value, Card):
        return unseen(value)
    if isinstance(value, Text):
        return any(unseen(c) for c in value.cards())
    if isinstance(value, Zone):
        return any(unseen(c) for c in table.contents[value.index])
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(reaches_hidden(v, unseen, table, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(reaches_hidden(k, unseen, table, depth + 1) or reaches_hidden(v, unseen, table, depth + 1)
                   for k, v in value.items())
    return False

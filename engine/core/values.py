"""The values a running game holds, and how to copy, relabel, save and restore them.

Counters, the locals of the program's frames and the options of a pending decision hold plain
values: numbers, text, lists, tables (dicts), and identities that never change during a game
(cards, zones, places, players, the ruleset's constants). A copy of a game copies the lists
and tables, keeps the identities, and keeps a list shared between two places shared in the
copy. The same walk can relabel cards (a determinized world) or turn the values into JSON.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Callable

from .board import Board, Place
from .errors import SaveError
from .table import Card, Player, Zone
from .text import Text


class ConstantList(tuple):
    """A list that cannot change; it still equals a list with the same items."""

    def __eq__(self, other: object) -> bool:
        return tuple.__eq__(self, tuple(other) if isinstance(other, list) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__

    def __add__(self, other: object) -> list:
        """Joined with a list, a constant list gives a new (changeable) list."""
        if isinstance(other, (list, tuple)):
            return list(self) + list(other)
        return NotImplemented

    def __radd__(self, other: object) -> list:
        if isinstance(other, (list, tuple)):
            return list(other) + list(self)
        return NotImplemented


def freeze(value: Any) -> Any:
    """Constants cannot change: lists become constant lists and tables read-only mappings."""
    if isinstance(value, list):
        return ConstantList(freeze(v) for v in value)
    if isinstance(value, dict):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    return value


class Lambda:
    """An `x -> ...` function value: its compiled body (by index in the ruleset's list of
    lambdas), the locals it was made in, and the game it reads."""

    __slots__ = ("index", "fn", "env", "g")

    def __init__(self, index: int, fn: Callable, env: dict[str, Any], g: Any):
        self.index, self.fn, self.env, self.g = index, fn, env, g

    def __call__(self, value: Any) -> Any:
        return self.fn(self.g, self.env, value)  # the body reads its parameter as a Python local


def spell(value: Any, out: list) -> None:
    """Add `value` to `out` as the pieces a line of text is made of: a list item by item (", "
    between), a table as "key: value" pairs, a Text cut at each card (a one-card Text for each,
    so that each card is told as it may be seen), a function as "a function", any other value
    as it is. Nothing added holds a list, a table or a function of the game."""
    t = type(value)
    if t is Text:
        if len(value.parts) == 1:  # one card's label or name: already what is wanted
            out.append(value)
        else:
            out.extend(p if type(p) is str else Text((p,)) for p in value.parts)
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            if i:
                out.append(", ")
            spell(item, out)
    elif isinstance(value, Mapping):
        for i, (key, item) in enumerate(value.items()):
            if i:
                out.append(", ")
            spell(key, out)
            out.append(": ")
            spell(item, out)
    elif t is Lambda:
        out.append("a function")
    else:
        out.append(value)


_SCALARS = frozenset({int, float, str, bool, type(None), Player})
_IDENTITIES = frozenset({Place, Board, ConstantList, MappingProxyType})
_KEPT = _SCALARS | _IDENTITIES | {Card, Zone, Text}
_FLAT = _SCALARS | {Card, Zone, Place}  # hashable items a relabelling maps with one lookup


def _identity_order(item: tuple[Any, Any]) -> tuple[str, int]:
    return type(item[0]).__name__, item[0].index


def _same_dealt_again(table: dict, relabel: dict) -> bool:
    """Whether a table stays as it is when its keys that `relabel` deals again are dealt again
    (each then holds what the card dealt into its slot held): they all hold the same number,
    text or nothing, or an empty list (which no rule can change), and stand in the order they
    would go back in. Tables by card are so for the cards a player cannot see, which mostly
    hold the start value. One pass: it is asked of every such table of every world."""
    first: Any = relabel  # (no value yet: a table never holds the relabelling itself)
    last: tuple[str, int] = ("", -1)
    for k, v in table.items():
        if k not in relabel:
            continue
        if first is relabel:
            first, kind = v, type(v)
            if not (kind in _SCALARS or (kind is list and not v)):
                return False
        elif type(v) is not kind or (v != first if kind is not list else v):
            return False
        order = (type(k).__name__, k.index)
        if order < last:
            return False
        last = order
    return True


class Copier:
    """Copies values of one game for another game `g`. Lists and tables are new (a container
    met twice is copied once), but for those of `shared` (by id: see `shareable`), which the
    copy holds as they are; identities are kept, or mapped through `cards` and `zones` when
    the copy relabels cards."""

    def __init__(self, g: Any, cards: dict[Card, Card] | None = None, zones: dict[Zone, Zone] | None = None,
                 shared: dict[int, Any] | None = None):
        self.g = g
        self.cards = cards
        self.zones = zones
        self.kept = _KEPT if cards is None else _SCALARS | _IDENTITIES
        self.relabel: dict[Any, Any] = {**(cards or {}), **(zones or {})}
        self.memo: dict[int, Any] = dict(shared) if shared else {}

    def __call__(self, value: Any) -> Any:
        t = type(value)
        kept = self.kept
        if t in kept:
            return value
        if t is Card:
            return self.cards.get(value, value)
        if t is Zone:
            return self.zones.get(value, value)
        if t is Text:
            return value.relabelled(self.cards)
        done = self.memo.get(id(value))
        if done is not None:
            return done
        if t is list:
            out: Any = []
            self.memo[id(value)] = out
            if kept.issuperset(map(type, value)):
                out.extend(value)
            elif self.cards is not None and _FLAT.issuperset(map(type, value)):
                relabel = self.relabel
                out.extend([relabel.get(v, v) for v in value])
            else:
                out.extend([self(v) for v in value])
            return out
        if t is dict:
            out = {}
            self.memo[id(value)] = out
            relabel = self.relabel
            if self.cards is None or kept.issuperset(map(type, value)) or relabel.keys().isdisjoint(value) or (
                    _FLAT.issuperset(map(type, value)) and _same_dealt_again(value, relabel)):
                # Every key stays in its place (as in most tables by place, player or card): only
                # the values may need copying or relabelling.
                if kept.issuperset(map(type, value.values())):
                    out.update(value)
                elif self.cards is None:
                    for k, v in value.items():
                        out[k] = v if type(v) in kept else self(v)
                else:
                    for k, v in value.items():
                        out[k] = v if type(v) in kept else relabel.get(v, v) if type(v) in _FLAT else self(v)
            else:
                items = [(relabel.get(k, k) if type(k) in _FLAT else self(k),
                          relabel.get(v, v) if type(v) in _FLAT else self(v)) for k, v in value.items()]
                # Keys dealt again go back into their slots in a fixed order (by identity), so
                # the order of a table tells nothing about which card was where.
                moved = [i for i, (k, (new, _)) in enumerate(zip(value, items)) if new is not k]
                for i, pair in zip(moved, sorted([items[i] for i in moved], key=_identity_order)):
                    items[i] = pair
                out.update(items)
            return out
        if t is tuple:
            return tuple(self(v) for v in value)
        if t is Lambda:
            out = Lambda(value.index, value.fn, {}, self.g)
            self.memo[id(value)] = out
            out.env = self(value.env)
            return out
        raise TypeError(f"a game cannot hold a value of type {t.__name__}")


def _containers(value: Any, into: dict[int, Any]) -> bool:
    """Add the lists and tables in `value` to `into`, by id; whether it holds plain data only
    (no card, zone, text naming cards or function: what a copy relabels or binds anew)."""
    plain, stack = True, [value]
    while stack:
        v = stack.pop()
        t = type(v)
        if t is list or t is tuple:
            into[id(v)] = v
            stack.extend(v)
        elif t is dict:
            into[id(v)] = v
            stack.extend(v)
            stack.extend(v.values())
        elif t not in _SCALARS and t not in _IDENTITIES:
            plain = False
            if t is Lambda:
                stack.append(v.env)
    return plain


def shareable(counters: dict[str, Any], fixed: frozenset[str]) -> dict[int, Any]:
    """The lists and tables (by id) that copies of a game may share instead of copying: those
    of the counters `fixed`, which no rule changes any more, that hold plain data only and no
    list or table that a counter which may change holds too (it would change with it). A
    `Copier` given them keeps them, wherever in the game they are held."""
    changing: dict[int, Any] = {}
    for name, value in counters.items():
        if name not in fixed:
            _containers(value, changing)
    shared: dict[int, Any] = {}
    for name in fixed & counters.keys():
        held: dict[int, Any] = {}
        if _containers(counters[name], held) and held.keys().isdisjoint(changing):
            shared.update(held)
    return shared


def frozen(value: Any, path: frozenset[int] = frozenset()) -> Any:
    """A hashable equivalent of a value, for a key of the game's state."""
    t = type(value)
    if t in _SCALARS or t is Card or t is Zone or t is Place or t is Board:
        return value
    if t is Text:
        return ("text", value.parts)
    if id(value) in path:
        return "<cycle>"
    inner = path | {id(value)}
    if t is list or t is tuple or t is ConstantList:
        return tuple(frozen(v, inner) for v in value)
    if t is dict or t is MappingProxyType:
        return tuple((frozen(k, inner), frozen(v, inner)) for k, v in value.items())
    if t is Lambda:
        return ("lambda", value.index, frozen(value.env, inner))
    return ("?", id(value))


# ---------------------------------------------------------------- JSON

_JSON = frozenset({str, int, bool, type(None)})  # written as they are
_CONTAINERS = frozenset({list, dict, tuple, ConstantList, MappingProxyType, Lambda})
_TEXT_PARTS = ("label", "name")  # what a card of a Text stands for
_CONTAINER_TAGS = frozenset({"$list", "$places", "$cards", "$dict", "$by_card", "$by_player", "$by_place",
                             "$lambda"})


def _plain_keys(d: dict) -> bool:
    return all(type(k) is str and not k.startswith("$") for k in d)


class Encoder:
    """Turns values into JSON-ready data. A list or table held in two places (a local that is
    also a counter's value) is written once with "$id" and then referred to with "$ref", so
    the restored game shares it too. Call `see` on every root first, then `encode`."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.shared: set[int] = set()
        self.ids: dict[int, int] = {}
        self.atoms: dict[int, dict] = {}  # the encoding of each card, place... met so far

    def see(self, value: Any) -> None:
        """Note the containers met more than once under `value`."""
        stack = [value]
        seen, shared = self.seen, self.shared
        while stack:
            v = stack.pop()
            t = type(v)
            if t is list or t is dict or t is Lambda:
                if id(v) in seen:
                    shared.add(id(v))
                    continue
                seen.add(id(v))
            if t is list or t is tuple or t is ConstantList:
                if not _KEPT.issuperset(map(type, v)):
                    stack.extend(x for x in v if type(x) in _CONTAINERS)
            elif t is dict or t is MappingProxyType:
                if not _KEPT.issuperset(map(type, v.values())):
                    stack.extend(x for x in v.values() if type(x) in _CONTAINERS)
                if not _KEPT.issuperset(map(type, v)):
                    stack.extend(x for x in v if type(x) in _CONTAINERS)
            elif t is Lambda:
                stack.append(v.env)

    def _atom(self, value: Any, t: type) -> dict:
        if t is Player:
            return {"$player": int(value)}
        if t is Card:
            return {"$card": value.id}
        if t is Zone:
            return {"$zone": value.index}
        if t is Place:
            return {"$place": [value.board, value.id]}
        return {"$board": value.name}

    def _keyed(self, table: dict) -> dict:
        """A table by its keys: per card, per place of one board, per player (the families of
        counters) as JSON objects by id; any other as a list of pairs."""
        kinds = set(map(type, table))
        values = [self.encode(v) for v in table.values()]
        if kinds == {Card}:
            return {"$by_card": {str(c.id): v for c, v in zip(table, values)}}
        if kinds == {Player}:
            return {"$by_player": {str(int(p)): v for p, v in zip(table, values)}}
        if kinds == {Place} and len({p.board for p in table}) == 1:
            return {"$by_place": [next(iter(table)).board, {p.id: v for p, v in zip(table, values)}]}
        return {"$dict": [[self.encode(k), v] for k, v in zip(table, values)]}

    def encode(self, value: Any) -> Any:
        t = type(value)
        if t in _JSON:
            return value
        if t is Player or t is Card or t is Zone or t is Place or t is Board:
            atom = self.atoms.get(id(value))
            if atom is None:
                atom = self.atoms[id(value)] = self._atom(value, t)
            return atom
        if t is float:
            return value if math.isfinite(value) else {"$float": repr(value)}
        if t is Text:
            return {"$text": [p if type(p) is str else [p[0].id, p[1]] for p in value.parts]}
        if t is ConstantList:
            return {"$constant": [self.encode(v) for v in value]}
        if t is MappingProxyType:
            return {"$constant_table": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        if t is tuple:
            return {"$tuple": [self.encode(v) for v in value]}
        if t is list or t is dict or t is Lambda:
            key = id(value)
            if key in self.ids:
                return {"$ref": self.ids[key]}
            tag: dict[str, Any] = {}
            if key in self.shared:
                self.ids[key] = len(self.ids)
                tag = {"$id": self.ids[key]}
            if t is list:
                kinds = set(map(type, value))
                if kinds == {Place} and len({p.board for p in value}) == 1:  # a route, a region...
                    return {**tag, "$places": [value[0].board] + [p.id for p in value]}
                if kinds == {Card}:  # a hand, a pile...
                    return {**tag, "$cards": [c.id for c in value]}
                items = list(value) if _JSON.issuperset(kinds) else [self.encode(v) for v in value]
                return {**tag, "$list": items} if tag else items
            if t is Lambda:
                return {**tag, "$lambda": value.index, "env": self.encode(value.env)}
            if not tag and _plain_keys(value):
                return {k: self.encode(v) for k, v in value.items()}
            return {**tag, **self._keyed(value)}
        raise SaveError(f"a value of type {t.__name__} cannot be saved")


class Decoder:
    """The inverse of `Encoder`, for one game `g` of a ruleset: identities are looked up in
    its layout and boards, lambdas in the ruleset's compiled list. Damaged data raises
    SaveError."""

    def __init__(self, g: Any):
        self.g = g
        self.cards = g.table.layout.cards
        self.zones = g.table.layout.zone_list
        self.places = {(b.name, p.id): p for b in g.rules.boards.values() for p in b.places}
        self.ids: dict[int, Any] = {}
        self.tags: dict[str, Callable[[Any], Any]] = {
            "$card": lambda v: self.lookup(self.cards, v, "card", 1),
            "$player": lambda v: Player(self.lookup(g.players, v, "player", 1)),
            "$place": self._place,
            "$zone": lambda v: self.lookup(self.zones, v, "zone"),
            "$board": self._board,
            "$float": float,
            "$constant": lambda v: freeze([self._thaw(self.decode(x)) for x in v]),
            "$constant_table": lambda v: freeze({self.decode(k): self._thaw(self.decode(x)) for k, x in v}),
            "$tuple": lambda v: tuple(self.decode(x) for x in v),
            "$ref": self._ref,
            "$text": self._text,
        }

    def decode(self, data: Any) -> Any:
        t = type(data)
        if t in _JSON or t is float:
            return data
        if t is list:
            return list(data) if _JSON.issuperset(map(type, data)) else [self.decode(v) for v in data]
        if t is not dict:
            raise SaveError(f"unexpected {t.__name__} in the saved state")
        if len(data) == 1:
            (tag, value), = data.items()
            handler = self.tags.get(tag)
            if handler is not None:
                return handler(value)
        if not _CONTAINER_TAGS.isdisjoint(data):
            return self._container(data)
        if not _plain_keys(data):
            raise SaveError(f"unknown value tag in the saved state: {', '.join(map(repr, data))}")
        return {k: self.decode(v) for k, v in data.items()}

    def lookup(self, items: list, number: Any, what: str, base: int = 0) -> Any:
        if type(number) is not int or not base <= number < len(items) + base:
            raise SaveError(f"the saved state names {what} {number!r}, which this ruleset does not have")
        return items[number - base]

    def _place(self, value: Any) -> Place:
        place = self.places.get(tuple(value))  # [board, id]
        if place is None:
            raise SaveError(f"the saved state names the place {value!r}, which this ruleset does not have")
        return place

    def _board(self, value: Any) -> Board:
        if value not in self.g.rules.boards:
            raise SaveError(f"the saved state names the board {value!r}, which this ruleset does not have")
        return self.g.rules.boards[value]

    def _text(self, value: Any) -> Any:
        parts = []
        for p in value:
            if type(p) is not str:
                if type(p) is not list or len(p) != 2 or p[1] not in _TEXT_PARTS:
                    raise SaveError(f"the saved state has a damaged text part {p!r}")
                p = (self.lookup(self.cards, p[0], "card", 1), p[1])
            parts.append(p)
        if len(parts) == 1 and type(parts[0]) is tuple:  # a card's label or name: the card's own
            return Text.of_card(*parts[0])
        return Text(parts)

    def _ref(self, value: Any) -> Any:
        if value not in self.ids:
            raise SaveError(f"the saved state refers to an unknown shared value {value!r}")
        return self.ids[value]

    def _container(self, data: dict) -> Any:
        out: Any
        if "$list" in data:
            out = []
            self._register(data, out)
            out.extend(self.decode(data["$list"]))
        elif "$places" in data:
            board, *ids = data["$places"]
            out = [self._place((board, i)) for i in ids]
            self._register(data, out)
        elif "$cards" in data:
            out = [self.lookup(self.cards, i, "card", 1) for i in data["$cards"]]
            self._register(data, out)
        elif "$dict" in data:
            out = {}
            self._register(data, out)
            for k, v in data["$dict"]:
                out[self.decode(k)] = self.decode(v)
        elif "$by_card" in data:
            out = {}
            self._register(data, out)
            for k, v in data["$by_card"].items():
                out[self.lookup(self.cards, int(k), "card", 1)] = self.decode(v)
        elif "$by_player" in data:
            out = {}
            self._register(data, out)
            for k, v in data["$by_player"].items():
                out[Player(self.lookup(self.g.players, int(k), "player", 1))] = self.decode(v)
        elif "$by_place" in data:
            out = {}
            self._register(data, out)
            board, by_id = data["$by_place"]
            for k, v in by_id.items():
                out[self._place((board, k))] = self.decode(v)
        else:
            fn = self.lookup(self.g.rules.lambdas, data["$lambda"], "function")
            out = Lambda(data["$lambda"], fn, {}, self.g)  # a "param" of older snapshots is not needed
            self._register(data, out)
            out.env = self.decode(data["env"])
        return out

    def _register(self, data: dict, value: Any) -> None:
        if "$id" in data:
            self.ids[data["$id"]] = value

    @staticmethod
    def _thaw(value: Any) -> Any:
        """Constants nest constants; `freeze` wants plain lists and tables."""
        if isinstance(value, ConstantList):
            return [Decoder._thaw(v) for v in value]
        if isinstance(value, MappingProxyType):
            return {k: Decoder._thaw(v) for k, v in value.items()}
        return value

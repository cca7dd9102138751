"""The one registry of built-in functions of the effect language.

Each entry says what it takes, what kind it is and what it does; the compiler checks calls
against it and docs/effect-language.md is generated from it (`python -m engine.lang.docgen`).

Kinds:
- value: computes a value and changes nothing; usable anywhere.
- effect: changes the game; it must stand as a statement (or `let x = effect(...)`).
- choice: may ask a player or run triggers that do; also statement-level only.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

from ..core import board as boards
from ..core.board import Board, Place
from ..core.errors import EffectError
from ..core.limits import MAX_LIST, SIZE_STEP, LimitError, charge, number, sized
from ..core.table import Card, Player, Zone
from ..core.text import Text, card_text, number_text, zone_text
from ..core.values import ConstantList, Lambda, spell

VALUE, EFFECT, CHOICE = "value", "effect", "choice"


@dataclass(frozen=True)
class Builtin:
    name: str
    fn: Callable[..., Any]
    signature: str
    kind: str
    min_args: int
    max_args: int | None
    doc: str
    example: str = ""
    returns: str = ""  # what it gives, for the static check (engine/lang/types.py); "" for anything


REGISTRY: dict[str, Builtin] = {}


def builtin(signature: str, kind: str = VALUE, example: str = "", returns: str = "") -> Callable:
    """Register a built-in. `signature` reads like `move(card, zone, position?)`; `...` = any count.
    `returns` names what it gives, where that is known: a type ("number", "text", "bool",
    "none", "place", "list:number"...), "item" (an item of its first argument), "items" (a
    list of them), "items of items" (a list of the items of its items) or "option" (an item
    of its second)."""
    name, _, rest = signature.partition("(")
    params = [p.strip() for p in rest.rstrip(")").split(",") if p.strip()]
    required = [p for p in params if not p.endswith("?") and not p.endswith("...")]
    varargs = any(p.endswith("...") for p in params)

    def register(fn: Callable) -> Callable:
        REGISTRY[name] = Builtin(name, fn, signature, kind, len(required),
                                 None if varargs else len(params),
                                 (fn.__doc__ or "").strip(), example, returns)
        return fn
    return register


def iterate(g, x: Any) -> Any:
    """The items of a zone (its cards), a list, a board (its places) or a table (its values),
    to read while nothing changes them (an expression); `_items` gives a copy. Going through a
    long list counts a step for every 64 of its items (`max(l)` again and again over a list of a
    million must end at the step budget); a zone holds at most the ruleset's cards."""
    t = type(x)
    if t is list or t is ConstantList:
        if len(x) > 63:  # 2**SIZE_STEP - 1, written out: this runs at every list a built-in reads
            charge(g, len(x) >> SIZE_STEP)
        return x
    if t is Zone:
        return g.table.contents[x.index]
    if isinstance(x, Mapping):
        return x.values()
    if isinstance(x, tuple):
        return x
    if isinstance(x, Board):
        return x.places
    raise EffectError("expected a list or a zone, got " + describe(x))


def _items(g, x: Any) -> list:
    if type(x) is list:
        if len(x) > 63:  # counted as `iterate` counts it
            charge(g, len(x) >> SIZE_STEP)
        return x[:]
    return list(iterate(g, x))


def describe(x: Any) -> str:
    """Name a value's type for error messages (a card as Text: see core/text.py)."""
    if isinstance(x, Card):
        return "the card " + card_text(x)
    if isinstance(x, Zone):
        return "the zone " + zone_text(x)
    if isinstance(x, str):
        return "a string"
    if isinstance(x, Place):
        return f"the place {x.label}"
    if x is None:
        return "none"
    if isinstance(x, Mapping):
        return "a table"
    if isinstance(x, Player):
        return f"the player {x}"
    if isinstance(x, Board):
        return f"the board {x.name}"
    if isinstance(x, Lambda):
        return "a function"
    return {bool: "a true/false value", int: "a number", float: "a number", str: "a string",
            list: "a list", tuple: "a list"}.get(type(x), type(x).__name__)


# ---------------------------------------------------------------- values

@builtin("count(items)", example="count(hand[p]) == 0", returns="number")
def count(g, items):
    """The number of cards in a zone or items in a list."""
    t = type(items)
    if t is list or t is ConstantList:
        return len(items)
    return len(iterate(g, items))


@builtin("sum(items)", example="sum(c.value for c in tableau[p])", returns="number")
def sum_(g, items):
    """The total of a list of numbers (0 for an empty list)."""
    numbers = iterate(g, items)
    if len(numbers) >> SIZE_STEP:  # going through a long list again and again is work: steps
        charge(g, len(numbers) >> SIZE_STEP)
    return sum(numbers)  # a few digits longer than its longest number at most: no size to check


def _extreme(g, pick: Callable, args: tuple) -> Any:
    values = _items(g, args[0]) if len(args) == 1 else list(args)
    if not values:
        raise EffectError("max/min of an empty list")
    return pick(values)


@builtin("max(items_or_values...)", example="max(0, income - cost)")
def max_(g, *args):
    """The largest of a list, or of several values."""
    if not args:
        raise EffectError("max needs at least one value")
    return _extreme(g, max, args)


@builtin("min(items_or_values...)", example="min(3, count(deck))")
def min_(g, *args):
    """The smallest of a list, or of several values."""
    if not args:
        raise EffectError("min needs at least one value")
    return _extreme(g, min, args)


@builtin("any(items)", example="any(c.suit == led for c in hand[p])", returns="bool")
def any_(g, items):
    """True when at least one item is true. Written `any(x for ...)`, it stops at the first true x."""
    return any(iterate(g, items))


@builtin("all(items)", example="all(count(pile[s]) > 0 for s in suits)", returns="bool")
def all_(g, items):
    """True when every item is true (also for an empty list). Written `all(x for ...)`, it stops
    at the first false x."""
    return all(iterate(g, items))


def _end(g, items: Any, index: int, name: str) -> Any:
    values = iterate(g, items)
    if not isinstance(values, (list, tuple)):  # the values of a table
        values = list(values)
    if not values:
        raise EffectError(f"{name}() of an empty " + ("zone " + zone_text(items) if isinstance(items, Zone) else "list"))
    return values[index]


@builtin("first(items)", example="first(lane)", returns="item")
def first(g, items):
    """The first card of a zone (top, front, left) or first item of a list; an error if empty."""
    return _end(g, items, 0, "first")


@builtin("last(items)", example="last(row[s])", returns="item")
def last(g, items):
    """The last card of a zone or last item of a list; an error if empty."""
    return _end(g, items, -1, "last")


@builtin("text(value)", example='text(count(deck)) + " left"', returns="text")
def text(g, value):
    """The value as text, e.g. to join with other text with +: a number plainly (4 / 2 reads
    "2"), true/false as "true"/"false", none as "" (nothing), a player as "P1", a card by its
    label, a place by its label, a zone by its label, a board by its name, a list as its items
    with ", " between ("a, b, c"; a list inside a list is read the same way), a table as
    "key: value, ...". A card's label is shown only to players who may see the card, wherever
    the text goes (log, prompt, counter)."""
    t = type(value)
    if t is str or t is Text:
        return value
    if t is Card:
        return Text.of_card(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Player):
        return str(value)
    if isinstance(value, (int, float)):
        return number_text(value)
    if isinstance(value, (list, tuple, Mapping)):
        pieces: list = []
        spell(value, pieces)
        return sized(g, Text(text(g, p) if type(p) is not str and type(p) is not Text else p for p in pieces))
    if isinstance(value, Place):
        return value.label
    if isinstance(value, Zone):
        return zone_text(value)
    if isinstance(value, Board):
        return value.name
    if value is None:
        return ""
    if isinstance(value, str):
        return str(value)
    return describe(value)


@builtin("join(items, separator)", example='join([c.name for c in hand[p]], " / ")', returns="text")
def join(g, items, separator):
    """The items of a list (or cards of a zone) as one text, `separator` between each two;
    each item reads as text() reads it. "" for an empty list."""
    if not isinstance(separator, str):
        raise EffectError("join's separator must be text, e.g. join(items, \", \"), got " + describe(separator))
    pieces: list = []
    for i, item in enumerate(iterate(g, items)):
        if i:
            pieces.append(separator)
        pieces.append(text(g, item))
    return sized(g, Text(pieces))


def template_pieces(template: str) -> list:
    """The pieces of a format() template: text, and for each `{}` or `{N}` the position of the
    value it stands for. `{{` and `}}` are literal braces. Raises ValueError, in the language's
    words, for anything else in braces (there are no names, attributes or format specs). A
    template that names cards (a Text) keeps each card as a piece of its own, never read as
    part of a field, so the result names it too."""
    pieces: list = []
    literal: list[str] = []
    auto, numbered = 0, False
    for part in (template.parts if type(template) is Text else (template,)):
        if type(part) is not str:  # a card's label or name: literal text that follows the card
            if literal:
                pieces.append("".join(literal))
                literal = []
            pieces.append(Text((part,)))
            continue
        i, n = 0, len(part)
        while i < n:
            ch = part[i]
            if ch in "{}" and part.startswith(ch * 2, i):
                literal.append(ch)
                i += 2
                continue
            if ch == "}":
                raise ValueError("a '}' with no '{' before it (a literal brace is written twice: '}}')")
            if ch != "{":
                literal.append(ch)
                i += 1
                continue
            end = part.find("}", i)
            if end < 0:
                raise ValueError("a '{' that is not closed (a literal brace is written twice: '{{')")
            field = part[i + 1:end]
            if field == "":
                if numbered:
                    raise ValueError("'{}' and '{0}', '{1}'... cannot be mixed in one template")
                position, auto = auto, auto + 1
            elif field.isdigit() and field.isascii():
                if auto:
                    raise ValueError("'{}' and '{0}', '{1}'... cannot be mixed in one template")
                numbered, position = True, int(field)
            else:
                raise ValueError(f"'{{{field}}}' is not a place for a value: write {{}} for the next value "
                                 "or {0}, {1}... for a value by its position (there are no names or formats; "
                                 "a literal brace is written twice: '{{' or '}}')")
            if literal:
                pieces.append("".join(literal))
                literal = []
            pieces.append(position)
            i = end + 1
    if literal:
        pieces.append("".join(literal))
    return pieces


def template_values(pieces: list) -> int:
    """How many values a template's pieces take."""
    return max((p + 1 for p in pieces if type(p) is int), default=0)


@builtin("format(template, values...)", example='format("{} has {} cards", p, count(hand[p]))', returns="text")
def format_(g, template, *values):
    """The template with each `{}` replaced by the next value, or each `{0}`, `{1}`... by the
    value at that position (0 is the first), each read as text() reads it; `{{` and `}}` are
    literal braces. Nothing else may stand in braces. The template takes exactly the values
    given: too few or too many is an error (found at load time when the template is written
    out)."""
    if not isinstance(template, str):
        raise EffectError("format's template must be text, got " + describe(template))
    try:
        pieces = template_pieces(template)
    except ValueError as exc:
        raise EffectError("format's template " + card_text(template) + f": {exc}") from None
    wanted = template_values(pieces)
    if wanted != len(values):
        raise EffectError("format's template " + card_text(template) + f" takes {wanted} value(s), "
                          f"given {len(values)}")
    return sized(g, Text(text(g, values[p]) if type(p) is int else p for p in pieces))


@builtin("abs(number)", returns="number")
def abs_(g, number):
    """The number without its sign."""
    return abs(number)


@builtin("best_window(numbers, length)", example="best_window([c.value for c in row[s]], 4)", returns="number")
def best_window(g, numbers, length):
    """The largest sum of `length` consecutive numbers; the whole sum if the list is not longer."""
    values = _items(g, numbers)
    if length >= len(values) or (isinstance(length, float) and math.isinf(length)):
        return sum(values)
    n = int(length)
    if n <= 0:
        return 0
    window = best = sum(values[:n])
    for i in range(n, len(values)):
        window += values[i] - values[i - n]
        best = max(best, window)
    return best


def _extreme_by(g, pick: Callable, items: Any, key: Callable, name: str) -> Any:
    values = _items(g, items)
    charge(g, 1 + (len(values) >> SIZE_STEP))  # the key's calls
    if not values:
        raise EffectError(f"{name}() of an empty list")
    return pick(values, key=key)


@builtin("max_by(items, key)", example="max_by(players, p -> score[p])", returns="item")
def max_by(g, items, key):
    """The first item whose key (a `x -> ...` function) is largest; an error if empty."""
    return _extreme_by(g, max, items, key, "max_by")


@builtin("min_by(items, key)", example="min_by(players, p -> score[p])", returns="item")
def min_by(g, items, key):
    """The first item whose key is smallest; an error if empty."""
    return _extreme_by(g, min, items, key, "min_by")


@builtin("sorted_by(items, key)", example="sorted_by(hand[p], c -> c.number)", returns="items")
def sorted_by(g, items, key):
    """A new list of the items ordered by key, smallest first (stable)."""
    values = _items(g, items)
    charge(g, 1 + (len(values) >> SIZE_STEP))  # the key's calls
    return sorted(values, key=key)


@builtin("list(items)", example="let snapshot = list(deck)", returns="items")
def list_(g, items):
    """The cards of a zone (or items of a list) as a list, fixed at this moment."""
    return _items(g, items)


@builtin("flatten(lists)", example="flatten(tableau)",
         returns="items of items")
def flatten(g, lists):
    """One list of the items of each list (or cards of each zone) of a list or table, in
    order: `flatten([[1, 2], [3]])` is `[1, 2, 3]`, `flatten(tableau)` every card of every
    tableau (`sum` adds numbers up)."""
    out: list = []
    for items in iterate(g, lists):
        out.extend(iterate(g, items))
        if len(out) > MAX_LIST:
            raise LimitError(f"flatten() makes a list of more than the limit of {MAX_LIST:,} items")
    return sized(g, out)


@builtin("range(start, stop)", example="for i in range(0, 3):", returns="list:number")
def range_(g, start, stop):
    """The whole numbers from start up to, not including, stop."""
    low, high = int(start), int(stop)
    if high - low > MAX_LIST:
        raise LimitError(f"range() of {number(high - low)} numbers, more than the limit of a list, {MAX_LIST:,}")
    return sized(g, list(range(low, high)))


@builtin("position(card)", example="position(c) == 0", returns="number")
def position(g, card):
    """The index of a card in its zone (0 is first)."""
    if not isinstance(card, Card):
        raise EffectError("position() needs a card, got " + describe(card))
    return g.table.contents[g.table.where[card.index].index].index(card)


@builtin("index_of(items, item)", example="index_of(stations, here)", returns="number")
def index_of(g, items, item):
    """The position (0 is first) of an item in a list or a card in a zone; an error if absent."""
    values = _items(g, items)
    for i, value in enumerate(values):
        if value is item or value == item:
            return i
    raise EffectError(describe(item) + f" is not in that {'zone' if isinstance(items, Zone) else 'list'}")


@builtin("players_from(player)", example="for p in players_from(leader):", returns="list:number")
def players_from(g, player):
    """Every player once, in turn order, starting with `player`."""
    n = len(g.players)
    return [Player((player - 1 + i) % n + 1) for i in range(n)]


@builtin("next_player(player)", example="leader = next_player(leader)", returns="number")
def next_player(g, player):
    """The player after `player` in turn order."""
    return Player(player % len(g.players) + 1)


# ---------------------------------------------------------------- boards

def _place(x: Any, what: str) -> Place:
    if not isinstance(x, Place):
        raise EffectError(f"{what} must be a place of a board, got " + describe(x))
    return x


@builtin("neighbours(place)", example="[n for n in neighbours(hex) if n.terrain != \"water\"]", returns="list:place")
def neighbours(g, place):
    """The places next to a place on its board."""
    return list(_place(place, "neighbours' argument").neighbours)


@builtin("distance(place_a, place_b)", example="distance(here, there) <= 2")
def distance(g, a, b):
    """The fewest steps between two places of a board, or none if they are not connected."""
    return boards.distance(_place(a, "distance's first argument"), _place(b, "distance's second argument"))


@builtin("routes(start, edges, max_length, goal)",
         example="routes(origin, [[a_of[l], b_of[l], l] for l in links], level, c -> c.colour == \"red\")")
def routes(g, start, edges, max_length, goal):
    """Every route from `start` along `edges` (a list of [a, b, tag], usable both ways) with at most
    `max_length` edges that ends at the first node where `goal` (a `x -> ...` function) is true,
    passing through no other such node and visiting no node twice. Each route has .edges (the tags),
    .nodes (start to end) and .end; shortest routes first."""
    checked = _edges(g, edges)
    # A route takes an edge at most once, so it is no longer than there are edges; the search
    # goes as deep as its routes, and one too deep for Python is a limit, told at the rule.
    length = min(int(max_length), len(checked))
    try:
        return boards.routes(start, checked, length, goal, lambda steps: charge(g, steps))
    except RecursionError:
        raise LimitError(f"routes(): a search for routes of up to {length} edges went too deep for the engine; "
                         "give a smaller max_length") from None


@builtin("route_ends(start, edges, max_length, goal)",
         example="any(allowed(e) for e in route_ends(origin, edges, 3, c -> c in ends))")
def route_ends(g, start, edges, max_length, goal):
    """Where the routes of routes(start, edges, max_length, goal) end, each place once, nearest
    first; much faster than listing the routes, to ask whether any route exists."""
    return boards.route_ends(start, _edges(g, edges), int(max_length), goal)


def _edges(g, edges: Any) -> list:
    checked = _items(g, edges)
    for e in checked:
        if not isinstance(e, list) or len(e) != 3:
            raise EffectError("each edge must be a list [a, b, tag], got " + describe(e))
    return checked


# ---------------------------------------------------------------- effects

def _zone(x: Any, what: str) -> Zone:
    if not isinstance(x, Zone):
        raise EffectError(f"{what} must be a zone, got " + describe(x))
    return x


def _player(g, x: Any) -> Player:
    if isinstance(x, bool) or not isinstance(x, int) or not 1 <= x <= len(g.players):
        raise EffectError("expected a player, got " + describe(x))
    return Player(x)


def _card(x: Any, what: str) -> Card:
    if not isinstance(x, Card):
        raise EffectError(f"{what} must be a card, got " + describe(x))
    return x


@builtin('move(card, zone, position?)', EFFECT, example='move(card, row[s], "first")', returns="none")
def move(g, card, zone, where="last"):
    """Move a card into a zone: at the end ("last", the default), at the start ("first") or at an index."""
    if type(card) is not Card:
        card = _card(card, "move's first argument")
    if type(zone) is not Zone:
        zone = _zone(zone, "move's second argument")
    if where == "last":
        index = None
    elif where == "first":
        index = 0
    elif isinstance(where, int) and not isinstance(where, bool):
        index = where
    else:
        raise EffectError('move position must be "first", "last" or a number, got ' + describe(where))
    g.table.move(card, zone, index)


@builtin("move_all(from_zone, to_zone)", EFFECT, example="move_all(discard, deck)", returns="none")
def move_all(g, source, target):
    """Move every card of one zone to the end of another, keeping their order."""
    for card in list(g.table.contents[_zone(source, "move_all's first argument").index]):
        g.table.move(card, _zone(target, "move_all's second argument"))


@builtin("deal(from_zone, to_zone, n)", EFFECT, example="deal(deck, hand[p], 5)", returns="none")
def deal(g, source, target, n):
    """Move the first n cards of a zone to another (fewer if it runs out); returns how many moved."""
    source = _zone(source, "deal's first argument")
    target = _zone(target, "deal's second argument")
    moved = 0
    cards = g.table.contents[source.index]
    while moved < n and cards:
        g.table.move(cards[0], target)
        moved += 1
    return moved


@builtin("shuffle(zone)", EFFECT, example="shuffle(deck)", returns="none")
def shuffle(g, zone):
    """Put the cards of a zone in random order (from the game's seed).

    Players lose track of shuffled cards: what they remembered of them (reveal) is forgotten."""
    cards = g.table.contents[_zone(zone, "shuffle's argument").index]
    g.shuffle(cards)  # from the seed, or as explicit chance decides (game/chance.py)
    for card in cards:
        g.table.forget(card)


@builtin("reveal(card, player)", EFFECT, example="reveal(seat, seat.colour_owner)", returns="none")
def reveal(g, card, player):
    """Show a card's face to a player, who remembers it wherever it goes until it is shuffled."""
    g.table.reveal(_card(card, "reveal's first argument"), _player(g, player))


@builtin("conceal(card, player)", EFFECT, example="conceal(seat, seat.colour_owner)", returns="none")
def conceal(g, card, player):
    """Stop reminding a player of a card that reveal showed them, when remembering it is part of the game: the screen of a person at the terminal shows it only as its face and zone allow (its back, in the log too), until the card is shown to them again. Bots and the Python API keep what the player was shown: it is their information set."""
    g.table.conceal(_card(card, "conceal's first argument"), _player(g, player))


@builtin("turn_face_down(card)", EFFECT, example="turn_face_down(cargo)", returns="none")
def turn_face_down(g, card):
    """Turn a card face down: only players it was revealed to can see it, whatever its zone."""
    g.table.set_face_down(_card(card, "turn_face_down's argument"), True)


@builtin("turn_face_up(card)", EFFECT, example="turn_face_up(cargo)", returns="none")
def turn_face_up(g, card):
    """Turn a card face up again: its zone's visibility applies."""
    g.table.set_face_down(_card(card, "turn_face_up's argument"), False)


@builtin("swap(card_a, card_b)", EFFECT, example="swap(placeholder, played)", returns="none")
def swap(g, a, b):
    """Two cards exchange places, in the same zone or across zones."""
    a, b = _card(a, "swap's first argument"), _card(b, "swap's second argument")
    t = g.table
    za, zb = t.where[a.index], t.where[b.index]
    ca, cb = t.contents[za.index], t.contents[zb.index]
    ia, ib = ca.index(a), cb.index(b)
    ca[ia], cb[ib] = b, a
    t.where[a.index], t.where[b.index] = zb, za


@builtin("random_choice(items)", EFFECT, example="let leader = random_choice(players)", returns="item")
def random_choice(g, items):
    """One item picked at random (from the game's seed)."""
    values = _items(g, items)
    if not values:
        raise EffectError("random_choice() of an empty list")
    return g.pick(values)  # draws as randrange(len(values)) does; game/belief.py deals it anew


@builtin("log(parts...)", EFFECT, example='log(p, " plays ", card)', returns="none")
def log(g, *parts):
    """Add a line to the game log; cards in it are shown only to players who may see them."""
    g.record(parts)


@builtin("log_to(players, parts...)", EFFECT, example='log_to(p, "you keep ", card)', returns="none")
def log_to(g, players, *parts):
    """Add a line to the game log that only `players` (a player or a list of players) may read:
    what one is told alone ("you keep X"). Every other player's log and screen leave it out,
    and no bot of theirs reads it (a save, the referee's record, keeps it). A card in it is
    named only to those of them who may see it, as in `log`."""
    to = [players] if isinstance(players, int) and not isinstance(players, bool) else _items(g, players)
    g.record(parts, frozenset(int(_player(g, p)) for p in to))


@builtin("fail(parts...)", EFFECT, example='fail("a seat from 1 to ", player_count, " is needed")')
def fail(g, *parts):
    """Stop with an error that names this rule: for situations the ruleset forbids. Every player
    reads it, so a card in it is named only if all of them may see it (else its back)."""
    raise EffectError(Text(text(g, part) for part in parts) or "the ruleset refused this situation")


def end_reason(value: Any, what: str) -> str:
    """`value` as the reason a game ended (`Game.end_reason`): a string that names something,
    so that players and simulations can tell the endings of a game apart."""
    if type(value) is str and value.strip():
        return value
    if type(value) is Text:  # the reason is told to every player
        raise EffectError(f"{what} names a card (text(card), card.label or card.name), which not every "
                          "player may see; give the reason as plain text")
    raise EffectError(f"{what} must be a string naming why the game ended, got "
                      + ("an empty string" if type(value) is str else describe(value)))


@builtin("end_game(reason?)", EFFECT, example='if count(home[p]) == 3: end_game("monsters home")')
def end_game(g, reason="end_game"):
    """End the game now, whoever's turn it is; scoring follows. `reason`, a string, names why
    (the game's end reason, shown at the end and counted by simulations); without it the
    reason is "end_game"."""
    g.end(end_reason(reason, "end_game's reason"))


# ---------------------------------------------------------------- choices

@builtin("choose(player, options, prompt...)", CHOICE,
         example='let card = choose(p, hand[p], "Play a card")', returns="option")
def choose(g, player, options, *prompt):
    """Ask `player` to pick one of `options` (cards, players, strings...); returns the pick.

    With a single option nothing is asked (unless the game asks those too: `Game.ask_single`);
    with none the rule is in error."""
    values = _items(g, options)
    if not values:
        raise EffectError("choose() has no option to offer")
    if len(values) == 1 and not g.ask_single:
        if g.keep_log:  # (simulations keep none: not even the call)
            g.force(player, values[0], prompt)
        return values[0]
    return g.ask(player, values, prompt)  # SUSPENDED: the pick comes back through Game.apply


RANDOM = frozenset({"shuffle", "random_choice"})  # the built-ins that draw at random (game/chance.py)
HIDING = frozenset({"turn_face_down", "log_to"})  # the built-ins that keep something from a player
SIMULTANEOUS = frozenset({"choose_each", "choose_amount_each"})  # the built-ins that ask several players at once
MAX_AMOUNTS = 10_000  # amounts one choose_amount may offer: a question a person can still answer


def _amounts(low: Any, high: Any, name: str) -> tuple[int, int]:
    """`low` and `high` of an amount question, checked: whole numbers, low <= high, not too many."""
    for which, bound in (("low", low), ("high", high)):
        if type(bound) is not int and not (type(bound) is float and bound.is_integer()):
            raise EffectError(f"{name}()'s {which} must be a whole number, got {describe(bound)}"
                              + (f" ({number_text(bound)})" if type(bound) is float else ""))
    low, high = int(low), int(high)
    if low > high:
        raise EffectError(f"{name}() has no amount to offer: low {low} is above high {high}")
    if high - low >= MAX_AMOUNTS:
        raise EffectError(f"{name}() from {low} to {high} offers more than {MAX_AMOUNTS:,} amounts; "
                          "ask in larger units")
    return low, high


@builtin("choose_amount(player, low, high, prompt...)", CHOICE,
         example='let n = choose_amount(p, 0, count(hand[p]), "Discard how many cards?")', returns="number")
def choose_amount(g, player, low, high, *prompt):
    """Ask `player` for a whole number from `low` to `high` (both included), once, where a
    rule would otherwise ask yes or no again for each unit; returns it. The options are the
    numbers in order (option i is low + i). With low == high nothing is asked (unless the game
    asks single options too: `Game.ask_single`)."""
    low, high = _amounts(low, high, "choose_amount")
    if low == high and not g.ask_single:
        return low
    return g.ask(player, list(range(low, high + 1)), prompt)


def _each(g, players: Any, name: str) -> list:
    """The players of a simultaneous choice, as given (checked by Game.ask_each)."""
    if type(players) is not list and type(players) is not tuple and type(players) is not ConstantList:
        raise EffectError(f"{name}()'s first argument must be a list of players, got " + describe(players))
    return list(players)


def _of(value: Any, player: Player) -> Any:
    """`value`, or what it gives for `player` if it is a function (`p -> ...`)."""
    return value(player) if type(value) is Lambda else value


def _prompt(prompt: tuple, player: Player) -> tuple:
    return tuple(_of(part, player) for part in prompt)


@builtin("choose_each(players, options, prompt...)", CHOICE,
         example='let kept = choose_each(players, p -> hand[p], "Keep a card")', returns="table")
def choose_each(g, players, options, *prompt):
    """Ask every one of `players` at once to pick one of their options; returns a table
    player -> pick once all have answered. `options` is a list (or zone) offered to all, or a
    function of the player (`p -> hand[p]`); a part of the prompt may be a function of the
    player too. Every player's options are worked out before anyone answers, nobody is told
    another's pick before all have picked, and no rule runs in between. A player with a single
    option is not asked; one with none is an error. Players are asked in seat order."""
    who = _each(g, players, "choose_each")
    offered = [_items(g, _of(options, Player(p))) if isinstance(p, int) else [] for p in who]
    return g.ask_each(who, offered, [_prompt(prompt, p) for p in who])


@builtin("choose_amount_each(players, low, high, prompt...)", CHOICE,
         example='let bids = choose_amount_each(players, 0, p -> coins[p], "Bid how many coins?")',
         returns="table")
def choose_amount_each(g, players, low, high, *prompt):
    """Ask every one of `players` at once for a whole number from `low` to `high` (both
    included; each a number or a function of the player); returns a table player -> amount
    once all have answered, as choose_each does. A player whose low equals their high is not
    asked."""
    who = _each(g, players, "choose_amount_each")
    offered = []
    for p in who:
        lo, hi = _amounts(_of(low, p), _of(high, p), "choose_amount_each")
        offered.append(list(range(lo, hi + 1)))
    return g.ask_each(who, offered, [_prompt(prompt, p) for p in who])


@builtin("emit(event, arguments...)", CHOICE, example='emit("delivered", p)')
def emit(g, event, *args):
    """Run every trigger listening to `event` (a string), passing the arguments to its params."""
    return g.fire(event, args)  # SUSPENDED while the triggers run, as frames of their own

"""What is on the table: cards and zones that never change, and the state of one game.

A ruleset's cards are created once, at load time, and shared by every game of it: a `Card` is
an identity with printed properties. Zones are identities too (a `Layout` per player count).
What changes during a game lives in a `Table`: which zone each card is in, the order of each
zone, which cards are face down, who remembers which card (and which of those cards a person's
screen must not remind them of), and the counters. So a copy of a game is a handful of list
copies, and values that name a card or a zone stay valid in a copy.

A card is always in exactly one zone; `move` is the only way it changes zone, so nothing is
created or lost. Zones are ordered lists: index 0 is the first (top, front, left) card.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable

PUBLIC, OWNER, OTHERS, HIDDEN = "public", "owner", "others", "hidden"


class Player(int):
    """A seat number (1-based) that prints as P1, P2..."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"P{int(self)}"

    __str__ = __repr__


@dataclass(frozen=True)
class ZoneSpec:
    """A zone as the ruleset declares it; `per` makes one zone for each key, or (a pair of
    families) one zone for each pair of keys."""

    name: str
    per: str | tuple[str, str] | None = None
    visibility: str = PUBLIC
    ordered: bool = True
    display: bool = True
    label: str = ""
    description: str = ""


class Card:
    """One physical card: an identity, a kind and printed properties, the same in every game.

    `index` is its place in the ruleset's card list (id - 1); `entry` the index of the `cards:`
    entry it comes from (abilities name entries); `start` the zone it starts every game in;
    `look` what tells it from another card while it is face down: its back alone (what a
    player's view shows of it), so cards of several kinds whose backs are alike look alike
    (a kind's `back: [kind]` prints the kind there); `face` what tells it from another face
    up: what is printed on it, the same for copies (`count:`);
    `text` the words printed on it, for people (filled in at load; rules never read it)."""

    __slots__ = ("id", "index", "kind", "name", "props", "_props", "label", "back", "entry", "start", "_texts",
                 "text", "look", "face")

    def __init__(self, index: int, kind: str, name: str, props: dict[str, Any], label: str,
                 back: dict[str, Any], entry: int, start: str, text: str = ""):
        self.id = index + 1
        self.index = index
        self.kind = kind
        self.name = name
        self._props = props  # what rules read (generated code too): a plain dict is read fastest
        self.props = MappingProxyType(props)  # what anyone else reads: it cannot be written through
        self.label = label
        self.back = MappingProxyType(back)
        self.entry = entry
        self.start = start
        self.text = text
        self._texts: dict[str, Any] = {}  # its label and name as text.Text, made once (Text.of_card)
        self.look = repr(sorted(back.items()))
        self.face = (self.look, label, repr(sorted(props.items())))

    def __setattr__(self, name: str, value: Any) -> None:
        """A card is read-only once made: every game of its ruleset holds the same object."""
        if hasattr(self, "face"):  # the last attribute __init__ sets
            raise AttributeError(f"the card {self.label} is read-only; '{name}' cannot be set")
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"<{self.label}#{self.id}>"


class Zone:
    """A zone's identity: its spec, its key when the zone is per-something, its label, and its
    index in the game's zone list. What it holds is in the `Table`. `player` is the key of a
    zone per player (or the first key of a zone per player and something else); `holder` the
    card of a zone per card (whose owner is the card's). A zone keyed by two keys has the pair
    (a tuple) as its key."""

    __slots__ = ("spec", "key", "label", "index", "name", "player", "holder")

    def __init__(self, spec: ZoneSpec, key: Any, label: str, index: int):
        self.spec = spec
        self.key = key
        self.label = label
        self.index = index
        self.name = spec.name
        per = spec.per
        self.player = key if per == "player" else key[0] if type(per) is tuple and per[0] == "player" else None
        self.holder = key if spec.per == "card" else None

    def __repr__(self) -> str:
        return f"<zone {self.label}>"


class Layout:
    """The unchanging frame of the games of one ruleset at one player count: every card, every
    zone (one list, and by name: a zone or a family keyed by player, card, place or value; a
    family keyed by two keys is a table of tables, `zones[name][k1][k2]`, and `every[name]` lists
    its zones in order), and the counters' starting values."""

    def __init__(self, cards: list[Card], specs: dict[str, ZoneSpec], keys: Callable[[str], list],
                 counters: dict[str, Any]):
        self.cards = cards
        self.counters = counters  # the counters' starting values; each game copies them
        self.zones: dict[str, Zone | dict[Any, Zone]] = {}
        self.zone_list: list[Zone] = []
        self.every: dict[str, list[Zone]] = {}
        for name, spec in specs.items():
            if spec.per is None:
                self.zones[name] = self._new(spec, None, spec.label)
            elif type(spec.per) is tuple:
                first, second = spec.per
                start = len(self.zone_list)
                self.zones[name] = {a: {b: self._new(spec, (a, b), f"{spec.label} {_key_label(a)} {_key_label(b)}")
                                        for b in keys(second)} for a in keys(first)}
                self.every[name] = self.zone_list[start:]
            else:
                self.zones[name] = {k: self._new(spec, k, spec.label.replace("{card}", _key_label(k))
                                                 if "{card}" in spec.label else f"{spec.label} {_key_label(k)}")
                                    for k in keys(spec.per)}
        self.start = [self.zones[c.start] for c in cards]
        # The families of zones a player holds as hands (text.py's `held_by`): with only one, a
        # card in one needs no zone's name to be told by its place ("your card 2", `held_back`).
        self.held_families = len({z.spec for z in self.zone_list if z.player is not None and z.spec.ordered
                                  and z.spec.visibility in (OWNER, OTHERS)})

    def _new(self, spec: ZoneSpec, key: Any, label: str) -> Zone:
        zone = Zone(spec, key, label, len(self.zone_list))
        self.zone_list.append(zone)
        return zone


def _key_label(key: Any) -> str:
    return str(getattr(key, "label", key))


class Table:
    """The changing state of the cards of one game, and its counters. Plain lists and dicts:
    `copy` is cheap, and two tables never share anything that changes."""

    __slots__ = ("layout", "zones", "where", "contents", "face_down", "known", "concealed", "counters", "shared")

    def __init__(self, layout: Layout, counters: dict[str, Any]):
        self.layout = layout
        self.zones: dict[str, Zone | dict[Any, Zone]] = layout.zones  # by name: a zone, or a family by key
        self.where: list[Zone] = list(layout.start)           # the zone of each card, by index
        self.contents: list[list[Card]] = [[] for _ in layout.zone_list]
        for card, zone in zip(layout.cards, self.where):
            self.contents[zone.index].append(card)
        self.face_down: list[bool] = [False] * len(layout.cards)
        self.known: list[int] = [0] * len(layout.cards)       # bit p: player p remembers the card
        self.concealed: list[int] = [0] * len(layout.cards)   # bit p: ...but p's screen must not show it (conceal)
        # The lists and tables no rule changes any more, which copies share (by id); None: not yet
        # found (Game.set_up).
        self.shared: dict[int, Any] | None = {}
        self.counters = counters

    def copy(self, counters: dict[str, Any]) -> Table:
        """An independent copy of this table, with the given (already copied) counters."""
        other = Table.__new__(Table)
        other.layout = self.layout
        other.zones = self.zones
        other.where = self.where[:]
        other.contents = [c[:] for c in self.contents]
        other.face_down = self.face_down[:]
        other.known = self.known[:]
        other.concealed = self.concealed[:]
        other.counters = counters
        other.shared = self.shared
        return other

    def relabelled(self, cards: dict[Card, Card], zones: dict[Zone, Zone], counters: dict[str, Any]) -> Table:
        """A copy in which card `c` of `cards` is read as `cards[c]` (and a zone of a card as
        the zone of the card it becomes): each place holds another card, with the place's
        state (face down, who remembers it, from whom it is concealed) unchanged."""
        other = self.copy(counters)
        contents, where = other.contents, other.where
        # Only the zones that hold a card dealt again, and the zones of those cards, change.
        changed = set(zones).union(self.where[c.index] for c in cards)
        changed.discard(None)
        for zone in changed:
            held = contents[zones.get(zone, zone).index] = [cards.get(c, c) for c in self.contents[zone.index]]
            for card in held:
                where[card.index] = zones.get(zone, zone)
        for old, new in cards.items():
            other.face_down[new.index] = self.face_down[old.index]
            other.known[new.index] = self.known[old.index]
            other.concealed[new.index] = self.concealed[old.index]
        return other

    def put_all(self, contents: list[list[Card]]) -> None:
        """Lay out every card at once: the contents of each zone, by zone index."""
        self.contents = contents
        for zone, held in zip(self.layout.zone_list, contents):
            for card in held:
                self.where[card.index] = zone

    @property
    def cards(self) -> list[Card]:
        """Every card of the game, in ruleset order (card id 1 first)."""
        return self.layout.cards

    def all_zones(self) -> list[Zone]:
        return self.layout.zone_list

    def cards_in(self, zone: Zone) -> list[Card]:
        """The cards in a zone, first to last. The list is the table's own: do not change it."""
        return self.contents[zone.index]

    def zone_of(self, card: Card) -> Zone:
        return self.where[card.index]

    def owner(self, zone: Zone) -> int | None:
        """The player a per-player zone belongs to; for a zone per card, that card's owner."""
        while zone.holder is not None:
            zone = self.where[zone.holder.index]
        return zone.player

    def move(self, card: Card, to: Zone, position: int | None = None) -> None:
        """Take the card out of its zone and put it into `to` (at the end, or at `position`)."""
        self.contents[self.where[card.index].index].remove(card)
        if position is None:
            self.contents[to.index].append(card)
        else:
            self.contents[to.index].insert(position, card)
        self.where[card.index] = to

    def is_face_down(self, card: Card) -> bool:
        return self.face_down[card.index]

    def set_face_down(self, card: Card, face_down: bool) -> None:
        self.face_down[card.index] = face_down

    def reveal(self, card: Card, player: int) -> None:
        """`player` has seen this card and remembers it wherever it goes, until it is shuffled;
        being shown it again ends a `conceal`."""
        bit = 1 << player
        self.known[card.index] |= bit
        self.concealed[card.index] &= ~bit

    def forget(self, card: Card) -> None:
        self.known[card.index] = self.concealed[card.index] = 0

    def conceal(self, card: Card, player: int) -> None:
        """`player` remembers this card, but no screen of theirs may remind them of it: remembering
        is up to the person (a bot's memory, its information set, keeps it). A mark on a card
        they do not remember would mean nothing, so none is made."""
        self.concealed[card.index] |= self.known[card.index] & 1 << player

    def remembered_by(self, card: Card) -> list[int]:
        """The players who were shown this card and remember it."""
        return _players(self.known[card.index])

    def concealed_from(self, card: Card) -> list[int]:
        """The players who remember this card but whose screens must not show it (`conceal`)."""
        return _players(self.concealed[card.index])

    def can_see(self, card: Card, viewer: int | None, memory: bool = True) -> bool:
        """May `viewer` see this card's face? The one rule of visibility (None: the referee).

        A player who was shown the card remembers it (without `memory`: what is on the table now,
        memory apart); otherwise a face-down card is hidden, and a face-up card is as visible as
        its zone: public, to the zone's owner, to every player but its owner (a hand held
        facing away from you), or to nobody. Seat 0, which is no player, sees only what is
        public."""
        if viewer is None or memory and self.known[card.index] >> viewer & 1:
            return True
        if self.face_down[card.index]:
            return False
        zone = self.where[card.index]
        visibility = zone.spec.visibility
        if visibility == PUBLIC:
            return True
        if visibility == HIDDEN:
            return False
        if visibility == OWNER:
            return self.owner(zone) == viewer
        return viewer != 0 and self.owner(zone) != viewer  # OTHERS

    def unshown(self, card: Card, viewer: int | None) -> bool:
        """Must a person's screen not show `viewer` this card's face? So it is when the card is
        concealed from them and only their memory would show it: they must remember it."""
        return (viewer is not None and bool(self.concealed[card.index] >> viewer & 1)
                and not self.can_see(card, viewer, memory=False))


def _players(bits: int) -> list[int]:
    return [p for p in range(1, bits.bit_length()) if bits >> p & 1]

"""What is on the table: card instances, zones and counters.

A card is always in exactly one zone; `move` is the only way it changes zone, so nothing
is created or lost. Zones are ordered lists: index 0 is the first (top, front, left) card.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

PUBLIC, OWNER, HIDDEN = "public", "owner", "hidden"


class Player(int):
    """A seat number (1-based) that prints as P1, P2..."""

    def __repr__(self) -> str:
        return f"P{int(self)}"

    __str__ = __repr__


@dataclass(frozen=True)
class ZoneSpec:
    """A zone as the ruleset declares it; `per` makes one zone for each key."""

    name: str
    per: str | None = None
    visibility: str = PUBLIC
    ordered: bool = True
    display: bool = True
    label: str = ""
    description: str = ""


class Card:
    """One physical card: an identity, a kind, printed properties and its current zone."""

    __slots__ = ("id", "kind", "name", "props", "zone", "label", "back", "face_down", "known")

    def __init__(self, card_id: int, kind: str, name: str, props: dict[str, Any], label: str,
                 back: dict[str, Any]):
        self.id = card_id
        self.kind = kind
        self.name = name
        self.props = props
        self.label = label
        self.back = back
        self.zone: Zone | None = None
        self.face_down = False
        self.known: set[int] = set()  # players who have seen this card and remember it

    def __repr__(self) -> str:
        return f"<{self.label}#{self.id}>"


def can_see(card: Card, viewer: int | None) -> bool:
    """May `viewer` see this card's face? The one rule of visibility (None: the referee).

    A player who was shown the card remembers it; otherwise a face-down card is hidden, and
    a face-up card is as visible as its zone: public, to the zone's owner, or to nobody."""
    if viewer is None or viewer in card.known:
        return True
    if card.face_down:
        return False
    visibility = card.zone.spec.visibility
    if visibility == HIDDEN:
        return False
    if visibility == OWNER:
        return card.zone.owner == viewer
    return True


class Zone:
    """An ordered place for cards; `key` is its player or value when the zone is per-something."""

    __slots__ = ("spec", "key", "cards", "label")

    def __init__(self, spec: ZoneSpec, key: Any = None, label: str = ""):
        self.spec = spec
        self.key = key
        self.cards: list[Card] = []
        self.label = label

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def owner(self) -> int | None:
        """The player a per-player zone belongs to; for a zone per card, that card's owner."""
        if self.spec.per == "player":
            return self.key
        if self.spec.per == "card":
            return self.key.zone.owner
        return None

    def __iter__(self) -> Iterator[Card]:
        return iter(list(self.cards))

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, index: int) -> Card:
        return self.cards[index]

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and card.zone is self

    def __repr__(self) -> str:
        return f"<zone {self.label}>"


@dataclass
class Table:
    """All zones and counters of one game, built fresh from the ruleset."""

    zones: dict[str, Zone | dict[Any, Zone]] = field(default_factory=dict)
    counters: dict[str, Any] = field(default_factory=dict)
    cards: list[Card] = field(default_factory=list)

    def all_zones(self) -> Iterator[Zone]:
        for entry in self.zones.values():
            if isinstance(entry, Zone):
                yield entry
            else:
                yield from entry.values()

    def move(self, card: Card, to: Zone, position: int | None = None) -> None:
        """Take the card out of its zone and put it into `to` (at the end, or at `position`)."""
        if card.zone is not None:
            card.zone.cards.remove(card)
        if position is None:
            to.cards.append(card)
        else:
            to.cards.insert(position, card)
        card.zone = to

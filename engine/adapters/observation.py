"""A fixed-length vector of what one player may know, for any ruleset, read from their view.

The vector is built from a `PlayerView` and the ruleset's unchanging frame (its cards, zones
and counters, which every player knows), never from the game: it cannot tell more than the
view does. It holds, in order:

- for each card of the ruleset, a zone: 0 when the player cannot see it (face down, or in a
  hand not theirs), else the zone's code (1 + its place in `zones`). Zones of one family per
  card share a code (which card holds them is not said). Identical copies of a card (the same
  face) are not told apart: a face's slots hold the codes of the zones its visible copies are
  in, smallest first, then 0s, so the same position reached by moving other copies reads the same;
- for each zone code, how many cards are in it (hidden ones too, as the view counts them);
- each displayed counter, one element for each of its values: one, or one for each player, each
  value of its constant list, each place of its board, each card face (for a per-card counter, a
  card the player does not see, or whose value is unset, reads 0). An element is its value if a
  number, a player's number for a player, 1 or 0 for yes or no, 0 for anything else (text,
  lists; those are in the view's text). A counter of `visibility: owner` holds the player's
  own value; another's reads 0, as the view shows it none.

`names` says what each element is. `plain(pv)` is the view as data that does not tell
identical copies apart either (for the adapters' strings).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..game.view import PlayerView, label
from ..rules.ruleset import Ruleset


class Observation:
    """The vector's layout for one ruleset at one player count, and `encode(view)`."""

    def __init__(self, rules: Ruleset, players: int):
        layout = rules.layout(players)
        faces: dict[tuple, list[int]] = {}  # each face: the slots of its copies
        for i, card in enumerate(rules.cards):
            faces.setdefault(card.face, []).append(i)
        self.card_slot = {card.id: faces[card.face][0] for card in rules.cards}  # its face's first slot
        self.faces = {same[0]: same for same in faces.values()}  # a face's slots, by its first
        self.ordered = {name: spec.ordered for name, spec in rules.zones.items()}
        self.zone_code: dict[tuple[str, str | None], int] = {}
        self.zones: list[str] = []
        for zone in layout.zone_list:
            key = _zone_key(zone.name, zone.spec.per, label(zone.key, None) if zone.key is not None else None)
            if key not in self.zone_code:
                self.zone_code[key] = len(self.zones) + 1
                self.zones.append(f"{zone.spec.label} of a card" if zone.spec.per == "card" else zone.label)
        self.per = {name: spec.per for name, spec in rules.zones.items()}
        self.counters: list[tuple[str, str | None]] = []
        for name, spec in rules.counters.items():
            if not spec.display:
                continue
            if spec.per is None:
                self.counters.append((name, None))
            else:
                keys = dict.fromkeys(label(k, None) for k in layout.counters[name])
                self.counters += [(name, key) for key in keys]
        copies = {i: len(same) for same in faces.values() for i in same}
        self.names = ([f"zone of card {c.label}" + (f" (copy {faces[c.face].index(i) + 1} of {copies[i]})"
                                                    if copies[i] > 1 else "")
                       for i, c in enumerate(rules.cards)]
                      + [f"cards in {z}" for z in self.zones]
                      + [name if key is None else f"{name} {key}" for name, key in self.counters])
        cards, codes = len(rules.cards), len(self.zones)
        self.size = len(self.names)
        self.low = np.array([0.0] * (cards + codes) + [-np.inf] * len(self.counters), dtype=np.float32)
        self.high = np.array([float(codes)] * cards + [float(cards)] * codes + [np.inf] * len(self.counters),
                             dtype=np.float32)

    def encode(self, pv: PlayerView) -> np.ndarray:
        cards = len(self.card_slot)
        out = np.zeros(self.size, dtype=np.float32)
        seen: dict[int, list[int]] = {}  # each face (by its first slot): the codes its visible copies are at
        for zone in pv.zones():
            code = self.zone_code[_zone_key(zone["name"], self.per[zone["name"]], zone["key"])]
            out[cards + code - 1] += zone["count"]
            for card in zone["cards"]:
                if "id" in card:
                    seen.setdefault(self.card_slot[card["id"]], []).append(code)
        places = [0] * cards
        for first, codes in seen.items():
            if len(codes) == 1:  # most faces: one copy, or one seen
                places[first] = codes[0]
            else:
                for slot, code in zip(self.faces[first], sorted(codes)):
                    places[slot] = code
        out[:cards] = places
        shown = pv.counters()
        start = cards + len(self.zones)
        for i, (name, key) in enumerate(self.counters):
            value = shown.get(name)
            if key is not None:
                value = value.get(key) if isinstance(value, dict) else None
            out[start + i] = _number(value)
        return out


    def plain(self, pv: PlayerView, log_last: int | None = 0) -> dict[str, Any]:
        """The view as data (`PlayerView.as_dict`), without what tells identical copies of a
        card apart: the cards' numbers, and their order in a zone whose order does not count."""
        data = pv.as_dict(log_last=log_last)  # new data at each call: changed in place
        for zone in data["zones"]:
            cards = zone["cards"]
            for card in cards:
                card.pop("id", None)
            if len(cards) > 1 and not self.ordered[zone["name"]]:
                cards.sort(key=repr)
        return data


def _zone_key(name: str, per: str | None, key: str | None) -> tuple[str, str | None]:
    """A zone as the vector tells it: its name, and its key unless it is a zone per card."""
    return (name, None if per == "card" else key)


def _number(value: Any) -> float:
    if isinstance(value, (bool, int, float)):  # a Player is an int: its number
        return float(value)
    return 0.0

"""A fixed-length vector of what one player may know, for any ruleset, read from their view.

The vector is built from a `PlayerView` and the ruleset's unchanging frame (its cards, zones
and counters, which every player knows), never from the game: it cannot tell more than the
view does. It holds, in order:

- for each card of the ruleset, the zone it is seen in: 0 when the player cannot see it
  (face down, or in a hand not theirs), else the zone's code (1 + its place in `zones`). Zones
  of one family per card share a code (which card holds them is not said);
- for each zone code, how many cards are in it (hidden ones too, as the view counts them);
- each displayed counter that is one value, and each that is one value a player: its value if
  a number, a player's number for a player, 1 or 0 for yes or no, 0 for anything else (text,
  lists; those are in the view's text). Counters per card or per place are in the text only.
  A counter of `visibility: owner` holds the player's own value; another's reads 0, as the
  view shows it none.

`names` says what each element is.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..core.table import Player
from ..game.view import PlayerView, label
from ..rules.ruleset import Ruleset


class Observation:
    """The vector's layout for one ruleset at one player count, and `encode(view)`."""

    def __init__(self, rules: Ruleset, players: int):
        layout = rules.layout(players)
        self.card_slot = {card.id: i for i, card in enumerate(rules.cards)}
        self.zone_code: dict[tuple[str, str | None], int] = {}
        self.zones: list[str] = []
        for zone in layout.zone_list:
            key = _zone_key(zone.name, zone.spec.per, label(zone.key, None) if zone.key is not None else None)
            if key not in self.zone_code:
                self.zone_code[key] = len(self.zones) + 1
                self.zones.append(f"{zone.spec.label} of a card" if zone.spec.per == "card" else zone.label)
        self.per = {name: spec.per for name, spec in rules.zones.items()}
        seats = [str(Player(i)) for i in range(1, players + 1)]
        self.counters: list[tuple[str, str | None]] = []
        for name, spec in rules.counters.items():
            if spec.display and spec.per is None:
                self.counters.append((name, None))
            elif spec.display and spec.per == "player":
                self.counters += [(name, seat) for seat in seats]
        self.names = ([f"zone of card {c.id} ({c.label})" for c in rules.cards]
                      + [f"cards in {z}" for z in self.zones]
                      + [name if seat is None else f"{name} {seat}" for name, seat in self.counters])
        cards, codes = len(rules.cards), len(self.zones)
        self.size = len(self.names)
        self.low = np.array([0.0] * (cards + codes) + [-np.inf] * len(self.counters), dtype=np.float32)
        self.high = np.array([float(codes)] * cards + [float(cards)] * codes + [np.inf] * len(self.counters),
                             dtype=np.float32)

    def encode(self, pv: PlayerView) -> np.ndarray:
        cards = len(self.card_slot)
        out = np.zeros(self.size, dtype=np.float32)
        for zone in pv.zones():
            code = self.zone_code[_zone_key(zone["name"], self.per[zone["name"]], zone["key"])]
            out[cards + code - 1] += zone["count"]
            for card in zone["cards"]:
                if "id" in card:
                    out[self.card_slot[card["id"]]] = code
        shown = pv.counters()
        start = cards + len(self.zones)
        for i, (name, seat) in enumerate(self.counters):
            value = shown.get(name)
            if seat is not None:
                value = value.get(seat) if isinstance(value, dict) else None
            out[start + i] = _number(value)
        return out


def _zone_key(name: str, per: str | None, key: str | None) -> tuple[str, str | None]:
    """A zone as the vector tells it: its name, and its key unless it is a zone per card."""
    return (name, None if per == "card" else key)


def _number(value: Any) -> float:
    if isinstance(value, (bool, int, float)):  # a Player is an int: its number
        return float(value)
    return 0.0

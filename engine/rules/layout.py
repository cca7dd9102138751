"""How a ruleset's table is laid out on a page: which zones form a board and how its cards lie
(a row, a pile, a fan), what a board's colours and badges mean (its key), and the seats' colours.

It is data for screens alone: no rule reads it, so a game plays and digests the same with or
without it. Each problem is reported at its place in the file, with the others of the file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.errors import suggest
from ..core.table import ZoneSpec

DRAWN_AS = ("row", "pile", "fan")
# Seats' colours when a ruleset gives none: none of them green (green marks what may be chosen),
# red, yellow or black, the colours games most often give their own pieces and goods.
SEAT_COLOURS = ("#1c7ed6", "#e8590c", "#7048e8", "#0b7285", "#c2255c", "#795548", "#495057", "#5c940d",
                "#364fc7", "#ae3ec9", "#1098ad", "#862e9c")


@dataclass(frozen=True)
class Area:
    """A board of cards on the page: the zones it shows, each family's zones of one key in a row."""

    title: str
    drawn_as: str
    zones: tuple[str, ...]
    yours: bool = True  # a seat's own zones of the family are drawn here too (else with its other zones)


@dataclass(frozen=True)
class Preview:
    """What a screen says of an option before it is taken (`previews:`): for the decisions whose
    prompt holds `prompt`, the options for which `when` holds get the text `says` gives, to be
    confirmed; `warn`: as a warning (work the option throws away). Both are compiled expressions
    of `option` and `player`, read by the view of the deciding player."""

    prompt: str
    when: Callable | None
    says: Callable
    warn: bool
    at: Any  # where it is written (its errors are located there)


@dataclass(frozen=True)
class PageLayout:
    areas: tuple[Area, ...] = ()
    keys: dict[str, tuple[dict[str, str], ...]] = field(default_factory=dict)  # board -> what its marks mean
    seat_colours: tuple[str, ...] = ()
    previews: tuple[Preview, ...] = ()

    def as_dict(self, players: int) -> dict[str, Any]:
        """What a page is sent: plain data, the same for every seat (none of it is hidden)."""
        colours = self.seat_colours or SEAT_COLOURS
        return {"areas": [{"title": a.title, "as": a.drawn_as, "zones": list(a.zones), "yours": a.yours}
                          for a in self.areas],
                "keys": {board: [dict(e) for e in entries] for board, entries in self.keys.items()},
                "seat_colours": [colours[i % len(colours)] for i in range(players)]}


def page_layout(data: dict, zones: dict[str, ZoneSpec], most_players: int,
                error: Callable[[tuple, str], None]) -> PageLayout:
    """The `layout:` section, the boards' `key:` and `game: seat_colours:` of a ruleset's data
    (already checked against the schema), checked against its zones and player counts."""
    areas = []
    placed: dict[str, int] = {}
    for i, entry in enumerate(data.get("layout") or []):
        names = [z for z in entry.get("zones", []) if isinstance(z, str)]
        for j, name in enumerate(names):
            path = ("layout", i, "zones", j)
            if name not in zones:
                error(path, f"unknown zone '{name}'{suggest(name, zones)}")
            elif not zones[name].display:
                error(path, f"zone '{name}' has 'display: false': it is not shown, so it cannot be on a board")
            elif name in placed:
                error(path, f"zone '{name}' is on board {placed[name] + 1} of the layout already")
            else:
                placed[name] = i
        families = {zones[n].per for n in names if n in zones}
        if len(families) > 1:
            error(("layout", i, "zones"), "the zones of one board must be of one family (the same 'per'), "
                                          "each key's zones drawn in one row")
        title = entry.get("title") or (zones[names[0]].label if names and names[0] in zones else "")
        areas.append(Area(title, entry.get("as", "row"), tuple(names), entry.get("yours", True)))
    keys = {}
    for name, board in (data.get("boards") or {}).items():
        entries = board.get("key") if isinstance(board, dict) else None
        for i, e in enumerate(entries or []):
            if isinstance(e, dict) and ("colour" in e) == ("badge" in e):
                error(("boards", name, "key", i), "an entry of a board's key names a colour or a badge "
                                                  "(one of the two) and what it means")
        if entries:
            keys[name] = tuple({k: str(v) for k, v in e.items()} for e in entries if isinstance(e, dict))
    colours = tuple((data.get("game") or {}).get("seat_colours") or ())
    if colours:
        low = [c.lower() for c in colours]
        for i, c in enumerate(low):
            if c in low[:i]:
                error(("game", "seat_colours", i), f"colour '{colours[i]}' is given to two seats")
        if len(colours) < most_players:
            error(("game", "seat_colours"), f"{len(colours)} seat colours for up to {most_players} players: "
                                            "give one for each seat")
    return PageLayout(tuple(areas), keys, colours)

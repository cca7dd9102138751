"""What one player may know: the single door through which hidden information passes.

`view(game, player)` builds everything a player is shown (zones, counters, log, their
decision); agents, the terminal and saved logs use it and nothing else. Hidden cards
appear without identity, only with the properties printed on their back.
"""
from __future__ import annotations

import re
from typing import Any

from .errors import IllegalMove
from .game import Game, LogEntry
from .lang.compiler import evaluate
from .board import Place, render_hex
from .table import Card, Player, Table, Zone
from .values import Copier


def card_view(table: Table, card: Card, viewer: int | None) -> dict[str, Any]:
    if table.can_see(card, viewer):
        return {"id": card.id, "label": card.label, **card.props}
    return {"hidden": True, **card.back}


def _display_order(card: dict[str, Any]) -> tuple:
    """Natural order of labels ('B 2' before 'B 10'); face-down cards last, by their backs only."""
    if card.get("hidden"):
        return (1, [], sorted(map(str, card.values())))
    parts = re.split(r"(\d+)", card["label"])
    return (0, [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts], [])


def label(value: Any, viewer: int | None, names: dict[int, str] | None = None,
          table: Table | None = None) -> str:
    """How a value reads for `viewer` (None: the referee): hidden cards stay hidden. A player's
    reading of a card needs the `table` it is on."""
    if isinstance(value, Card):
        if viewer is None or (table is not None and table.can_see(value, viewer)):
            return value.label
        back = " ".join(str(v) for v in value.back.values())
        return f"a face-down {back} card".replace("  ", " ") if back else "a face-down card"
    if isinstance(value, Player):
        return names.get(int(value), str(value)) if names else str(value)
    if isinstance(value, Place):
        return value.label
    if isinstance(value, Zone):
        if value.spec.per == "card":
            return f"{value.spec.label} of {label(value.key, viewer, names, table)}"
        return value.label
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(label(v, viewer, names, table) for v in value)
    if value is None:
        return "nothing"
    return str(value)


def log_line(entry: LogEntry, viewer: int | None, names: dict[int, str] | None = None,
             table: Table | None = None) -> str:
    """A log line as `viewer` reads it: a card shows as its back to a player who could not see
    it when the line was logged (other values read as `label` does, on `table`)."""
    out = []
    for value, seen_by in entry.parts:
        if isinstance(value, Card) and viewer is not None and seen_by is not None and viewer not in seen_by:
            back = " ".join(str(v) for v in value.back.values())
            out.append(f"a face-down {back} card".replace("  ", " ") if back else "a face-down card")
        elif isinstance(value, Card):
            out.append(value.label)
        else:
            out.append(label(value, viewer, names, table))
    return "".join(out)


class PlayerView:
    """Everything one player may know now; parts are computed when first asked for.

    Built only by `view()`. Agents that need little (a random agent reads the number of
    options) pay for little; `as_dict()` gives all of it as plain data.
    """

    def __init__(self, game: Game, player: int | None, names: dict[int, str] | None):
        self._game = game
        self.player = player
        self._names = names
        self._decision: dict[str, Any] | None | bool = False

    def _label(self, value: Any) -> str:
        return label(value, self.player, self._names, self._game.table)

    @property
    def you(self) -> str | None:
        return label(Player(self.player), None, self._names) if self.player else None  # 0: no seat

    @property
    def option_count(self) -> int:
        """How many options this player has now (0 when another player decides)."""
        d = self._game.pending
        return len(d.options) if d is not None and (self.player is None or d.player == self.player) else 0

    def world(self, seed: int) -> Game:
        """A game this player cannot tell from the real one, to think ahead in: the cards they
        have not seen dealt again from `seed` (`Game.determinize`), with chance of its own. The
        way search bots look ahead without reading what they may not know."""
        if self.player is None:
            raise IllegalMove("world() is for a player's view; the referee has the game itself")
        world = self._game.determinize(self.player, seed)
        world.keep_log = world.rewind = False
        return world

    @property
    def decision(self) -> dict[str, Any] | None:
        """The pending decision: who decides; prompt and options only for the decider."""
        if self._decision is False:
            d = self._game.pending
            if d is None:
                self._decision = None
            else:
                self._decision = {"player": self._label(d.player)}
                if self.player is None or d.player == self.player:
                    self._decision["prompt"] = "".join(p if isinstance(p, str) else self._label(p)
                                                       for p in d.prompt)
                    self._decision["options"] = [self._label(o) for o in d.options]
        return self._decision  # type: ignore[return-value]

    def zones(self) -> list[dict[str, Any]]:
        """Every zone with what the player may see of it; empty zones of a card or of a place
        (there are many, and an empty one says nothing) are left out."""
        rules, table = self._game.rules, self._game.table
        shown = []
        for z in table.all_zones():
            held = table.contents[z.index]
            inside = z.spec.per == "card" or z.spec.per in rules.boards
            if inside and not held:
                continue
            shown.append({"name": z.name, "key": self._label(z.key) if z.key is not None else None,
                          "label": self._label(z), "display": z.spec.display, "count": len(held),
                          "cards": self._cards(z)})
        return shown

    def _cards(self, zone: Zone) -> list[dict[str, Any]]:
        table = self._game.table
        cards = [card_view(table, c, self.player) for c in table.contents[zone.index]]
        if not zone.spec.ordered:
            # The order of an unordered zone carries no information, so none may leak through it.
            cards.sort(key=_display_order)
        return cards

    def counters(self) -> dict[str, Any]:
        """Counters on display; a per-card counter shows only the visible cards' set values.
        Lists and tables are copies: the view does not change as the game goes on. The copier
        sees only the game's own values: its memo goes by id(), and a table made here and
        dropped could leave its id to the next one, which would then show the first's values."""
        game = self._game
        copy = Copier(None)
        shown: dict[str, Any] = {}
        for name, value in game.table.counters.items():
            spec = game.rules.counters[name]
            if not spec.display:
                continue
            if spec.per == "card":
                shown[name] = {self._label(c): copy(v) for c, v in value.items()
                               if v != spec.initial and game.table.can_see(c, self.player)}
            elif isinstance(value, dict):
                shown[name] = {self._label(k): copy(v) for k, v in value.items()}
            else:
                shown[name] = copy(value)
        return shown

    def log(self, last: int | None = None) -> list[str]:
        entries = self._game.log if last is None else self._game.log[-last:] if last else []
        return [log_line(e, self.player, self._names, self._game.table) for e in entries]

    def boards(self) -> dict[str, str]:
        """Each board with a `display` rule, drawn as text (displays must read public facts only)."""
        game = self._game
        return {name: render_hex(game.rules.boards[name],
                                 lambda place, show=show: self._label(evaluate(show, game, {"place": place})))
                for name, show in game.rules.board_display.items()}

    def as_dict(self, log_last: int | None = None) -> dict[str, Any]:
        game = self._game
        return {
            "game": game.rules.name,
            "you": self.you,
            "players": [label(p, None, self._names) for p in game.players],
            "boards": self.boards(),
            "zones": self.zones(),
            "counters": self.counters(),
            "log": self.log(log_last),
            "decision": self.decision,
            "over": game.over,
            "end_reason": game.end_reason,
        }


def view(game: Game, player: int | None, names: dict[int, str] | None = None) -> PlayerView:
    """What `player` may know now (None: the referee's full view; 0: no seat's, what is public to
    all). The one way to look at a game."""
    return PlayerView(game, player, names)


def render(pv: PlayerView, log_lines: int = 8) -> str:
    """A view as text for the terminal."""
    v = pv.as_dict(log_last=log_lines)
    lines = [f"== {v['game']} ==" + (f"  (you are {v['you']})" if v["you"] else "")]
    for name, art in v["boards"].items():
        lines.append(f"  [{name}]")
        lines.append(art)
    for z in v["zones"]:
        if not z["display"]:
            continue
        shown = [c.get("label") or "?" for c in z["cards"] if not c.get("hidden")]
        hidden = sum(1 for c in z["cards"] if c.get("hidden"))
        parts = shown + ([f"{hidden} face-down"] if hidden else [])
        lines.append(f"  {z['label']:<22} " + (", ".join(parts) if parts else "-"))
    for name, value in v["counters"].items():
        if isinstance(value, dict):
            value = ", ".join(f"{k}: {x}" for k, x in value.items())
        lines.append(f"  {name.replace('_', ' '):<22} {value}")
    if v["log"]:
        lines.append("  -- recent --")
        lines.extend(f"  {line}" for line in v["log"])
    return "\n".join(lines)

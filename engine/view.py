"""What one player may know: the single door through which hidden information passes.

`view(game, player)` builds everything a player is shown (zones, counters, log, their
decision); agents, the terminal and saved logs use it and nothing else. Hidden cards
appear without identity, only with the properties printed on their back.
"""
from __future__ import annotations

from typing import Any

from .game import Game, LogEntry
from .table import HIDDEN, OWNER, Card, Player, Zone


def can_see(card: Card, viewer: int | None) -> bool:
    """May `viewer` see this card's face? (None is the referee, who sees all.)"""
    if viewer is None:
        return True
    spec = card.zone.spec
    if spec.visibility == HIDDEN:
        return False
    if spec.visibility == OWNER:
        return card.zone.owner == viewer
    return True


def card_view(card: Card, viewer: int | None) -> dict[str, Any]:
    if can_see(card, viewer):
        return {"id": card.id, "label": card.label, **card.props}
    return {"hidden": True, **card.back}


def label(value: Any, viewer: int | None, names: dict[int, str] | None = None) -> str:
    """How a value reads for `viewer`: hidden cards stay hidden."""
    if isinstance(value, Card):
        if can_see(value, viewer):
            return value.label
        back = " ".join(str(v) for v in value.back.values())
        return f"a face-down {back} card".replace("  ", " ") if back else "a face-down card"
    if isinstance(value, Player):
        return names.get(int(value), str(value)) if names else str(value)
    if isinstance(value, Zone):
        return value.label
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(label(v, viewer, names) for v in value)
    if value is None:
        return "nothing"
    return str(value)


def log_line(entry: LogEntry, viewer: int | None, names: dict[int, str] | None = None) -> str:
    out = []
    for value, seen_by in entry.parts:
        if isinstance(value, Card) and viewer is not None and seen_by is not None and viewer not in seen_by:
            back = " ".join(str(v) for v in value.back.values())
            out.append(f"a face-down {back} card".replace("  ", " ") if back else "a face-down card")
        elif isinstance(value, Card):
            out.append(value.label)
        else:
            out.append(label(value, viewer, names))
    return "".join(out)


def view(game: Game, player: int | None, names: dict[int, str] | None = None) -> dict[str, Any]:
    """Everything `player` may know now, as plain data (None: the referee's full view)."""
    zones = []
    for zone in game.table.all_zones():
        visible = [card_view(c, player) for c in zone.cards]
        zones.append({"name": zone.name, "key": label(zone.key, player, names) if zone.key is not None else None,
                      "label": label(zone, player, names), "display": zone.spec.display,
                      "count": len(zone.cards), "cards": visible})
    decision = None
    if game.pending is not None:
        d = game.pending
        decision = {"player": label(d.player, player, names)}
        if player is None or d.player == player:
            decision["prompt"] = "".join(label(p, player, names) if not isinstance(p, str) else p
                                         for p in d.prompt)
            decision["options"] = [label(o, player, names) for o in d.options]
    return {
        "game": game.rules.name,
        "you": label(Player(player), None, names) if player is not None else None,
        "players": [label(p, None, names) for p in game.players],
        "zones": zones,
        "counters": {name: (value if not isinstance(value, dict) else
                            {label(k, player, names): v for k, v in value.items()})
                     for name, value in game.table.counters.items()
                     if game.rules.counters[name].display},
        "log": [log_line(e, player, names) for e in game.log],
        "decision": decision,
        "over": game.over,
    }


def render(v: dict[str, Any], log_lines: int = 8) -> str:
    """A view as text for the terminal."""
    lines = [f"== {v['game']} ==" + (f"  (you are {v['you']})" if v["you"] else "")]
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
    if v["log"] and log_lines:
        lines.append("  -- recent --")
        lines.extend(f"  {line}" for line in v["log"][-log_lines:])
    return "\n".join(lines)

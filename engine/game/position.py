"""Setting up a position from Python, for a ruleset's tests (docs/testing.md).

A test plays a rule from a position of its choosing: the cards it needs on top of the deck,
a card turned face down or shown to one player, a counter at the value it needs. These
helpers do it on a game's table through the table's own methods, which the rules' built-ins
(move, turn_face_down, turn_face_up, reveal) use too, so a position set up here is one the
rules could have made. Call them in the `arrange` hook of `Game(..., arrange=fn)`: it runs
after the ruleset's `setup` (cards shuffled and dealt, counters set) and before the flow asks
anything, so a test changes what setup did rather than replacing it.

Cards are named by their label as players read it ("red 8"), or by their name, or given as
cards; zones by name, and the zone of a family by its key (the player's number, the card, the
place of a board or its id, the value of a constant list), as the rules write `hand[p]`.
"""
from __future__ import annotations

from typing import Any, Callable

from ..core.errors import suggest
from ..core.table import Card, Zone
from .game import Game
from .view import view


def zone(game: Game, name: str, *keys: Any) -> Any:
    """The zone `name`; of a family (`per: player`, a board, a list...), the zone of `keys`:
    zone(game, "hand", 2) is P2's hand, zone(game, "goods", "AS") the goods on place AS of
    the family's board. Of a family keyed by two keys, one key gives the zones of the second
    by their key, two keys one zone. Raises LookupError, saying what there is, when none is."""
    zones = game.table.zones
    if name not in zones:
        raise LookupError(f"no zone is named {name!r}{suggest(name, zones)}")
    found = zones[name]
    per = game.rules.zones[name].per
    for depth, key in enumerate(keys):
        if not isinstance(found, dict):
            raise LookupError(f"the zone {name!r} takes {depth} key(s), not {len(keys)}")
        family = per[depth] if isinstance(per, tuple) else per
        board = game.rules.boards.get(family) if isinstance(family, str) else None
        if board is not None and isinstance(key, str) and key in board.by_id:
            key = board[key]
        if key not in found:
            shown = ", ".join(map(str, list(found)[:8])) + (", ..." if len(found) > 8 else "")
            raise LookupError(f"the zone {name!r} has no key {key!r}; its keys are {shown}")
        found = found[key]
    return found


def card(game: Game, which: str | Card) -> Card:
    """The card labelled (or named) `which`, or `which` itself if it is a card; of identical
    copies, the first in card order. Raises LookupError, with a "did you mean", if none is."""
    return which if isinstance(which, Card) else _copies(game, which)[0]


def put(game: Game, which: str | Card, to: Zone | str, position: int | None = None) -> Card:
    """Move the card `which` into the zone `to` (a zone, or the name of a zone that is no
    family): at the end, or at `position` (0 is the first card, the top of a pile). Of
    identical copies it takes one not in `to` yet, so that two calls move two copies."""
    target = _zone(game, to)
    chosen = _pick(game, which, lambda c: game.table.zone_of(c) is not target)
    game.table.move(chosen, target, position)
    return chosen


def stack(game: Game, to: Zone | str, cards: list[str | Card]) -> list[Card]:
    """Put these cards on top of the zone `to`, in order: the first on top (the next one a
    rule draws), the others below it; the cards already there stay under them. Returns the
    cards, of identical copies each a different one."""
    target = _zone(game, to)
    placed: list[Card] = []
    for index, which in enumerate(cards):
        chosen = _pick(game, which, lambda c: c not in placed)
        if chosen in placed:
            raise ValueError(f"{chosen.label} is stacked twice")
        game.table.move(chosen, target, index)
        placed.append(chosen)
    return placed


def face_down(game: Game, which: str | Card) -> Card:
    """Turn a card face down, as turn_face_down(card) does: only the players it is then shown
    to (`show`) see it, wherever it is, even in its owner's hand."""
    chosen = card(game, which)
    game.table.set_face_down(chosen, True)
    return chosen


def face_up(game: Game, which: str | Card) -> Card:
    """Turn a card face up, as turn_face_up(card) does: its zone's visibility applies again."""
    chosen = card(game, which)
    game.table.set_face_down(chosen, False)
    return chosen


def show(game: Game, which: str | Card, *players: int) -> Card:
    """Show a card to players, as reveal(card, player) does: each remembers it wherever it
    goes, until the rules shuffle it (setup's shuffles are over by the time `arrange` runs)."""
    chosen = card(game, which)
    for p in players:
        if p not in game.players:
            raise ValueError(f"there is no player {p!r} in a game of {len(game.players)}")
        game.table.reveal(chosen, p)
    return chosen


def set_counter(game: Game, name: str, value: Any, key: Any = None) -> None:
    """Set the counter `name` to `value`; of a counter `per:` a family, the value of `key` (a
    player's number, a card, a place or its id, a value of the list). A counter that holds a
    player takes one of `game.players` (game.players[0] is P1), so that it reads P1 as the
    rules' players do."""
    counters = game.table.counters
    if name not in counters:
        raise LookupError(f"no counter is named {name!r}{suggest(name, counters)}")
    per = game.rules.counters[name].per
    if key is None:
        if per is not None:
            raise LookupError(f"the counter {name!r} is one per {per}: give the key of the value to set")
        counters[name] = value
        return
    board = game.rules.boards.get(per or "")
    if board is not None and isinstance(key, str) and key in board.by_id:
        key = board[key]
    if per is None or key not in counters[name]:
        raise LookupError(f"the counter {name!r} has no key {key!r}")
    counters[name][key] = value  # a player's number finds the player's entry (a Player is an int)


def _zone(game: Game, to: Zone | str) -> Zone:
    """A zone given as itself or by the name of a zone that is no family."""
    if isinstance(to, Zone):
        return to
    found = zone(game, to)
    if not isinstance(found, Zone):
        raise LookupError(f"{to!r} is a family of zones: give zone(game, {to!r}, KEY)")
    return found


def _copies(game: Game, label: str) -> list[Card]:
    """The cards labelled `label` or, if none is, named so."""
    cards = game.table.cards
    found = [c for c in cards if c.label == label] or [c for c in cards if c.name == label]
    if not found:
        raise LookupError(f"no card is labelled or named {label!r}{suggest(label, sorted({c.label for c in cards}))}")
    return found


def _pick(game: Game, which: str | Card, good: Callable[[Card], bool]) -> Card:
    """The card `which`; of identical copies, the first for which `good` holds, if one does."""
    if isinstance(which, Card):
        return which
    copies = _copies(game, which)
    return next((c for c in copies if good(c)), copies[0])


def answer_setup(game: Game, *texts: str) -> None:
    """Answer the decisions of the ruleset's setup in turn, each by the text of an option as the
    player deciding reads it. `Game()` stops at setup's first question, before its `arrange`
    hook runs; the hook runs as the last answer ends setup, before the flow asks anything.
    Raises LookupError for an option not offered, ValueError when setup asks fewer or more."""
    for text in texts:
        if not game.setting_up:
            raise ValueError(f"setup asks nothing more: {text!r} answers no decision of it")
        offered = view(game, game.current_player).decision["options"]
        if text not in offered:
            raise LookupError(f"{text!r} is not offered; the options are {offered}{suggest(text, offered)}")
        game.apply(offered.index(text))
    if game.setting_up:
        decision = view(game, game.current_player).decision
        raise ValueError(f"setup still asks {game.current_player}: {decision['prompt']!r}, "
                         f"options {decision['options']}")

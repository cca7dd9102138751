"""Bringing a card nobody chooses into play, for `engine cards`: the same game with the card
and without it, on the same seed, the card surely coming up in the first.

A card no seat chooses (an event, a card of a deck that is only drawn) acts only in the games
where it comes up, and comes up in few of them when its deck is deep: the games where it does
not dilute its effect with noise. So a pair of games is played on one seed, both arranged
(Game's `arrange` hook, after setup) from the same table:

- without it: every copy of the card (of every card of its deck the run measures this way)
  goes to the bottom of the zone it starts in (its deck); a copy setup took out of the deck
  changes places with the deck's bottom card. The game is played, and the cards of the deck
  that left it are counted: the depth the game reached. One game without serves every card.
- with it: the same, then one copy is put at a place drawn from the seed among the first
  `depth` places of the deck. Nothing that draws from the game's chance has happened yet, so
  both games are the same game until that place is drawn: the card surely comes up, at a point
  spread evenly over the part of the game where its deck's cards come up, and displaces the
  last card the game without it drew. It is not played from the start: the game without it
  kept, before each decision that drew from the deck, the game and its bots (`Draws`), and
  the game with it goes on from the position before its draw, the card put where the draw
  takes it (from the start, `played_with`, where bots cannot be copied).

The difference of the two games' scores is the card's effect where it comes up, with the
other cards of its deck as they fall. Both games are arranged, so bots that replay a game's
history to read hidden cards (game/belief.py) replay neither: they see both alike.
"""
from __future__ import annotations

import copy
import sys
from typing import Any

from ..core.table import Card, Zone
from ..game.game import Game
from ..game.seeds import derived_seed
from ..game.view import view
from ..players.agents import make_agents
from ..players.loop import play
from ..rules.ruleset import Ruleset


def home(ruleset: Ruleset, entry: str, entry_of: Any) -> str | None:
    """The zone the card `entry`'s copies start in, if they all start in one (a deck)."""
    zones = {c.start for c in ruleset.cards if entry_of(c) == entry}
    return next(iter(zones)) if len(zones) == 1 and next(iter(zones)) else None


class Aside:
    """The arrangement of the game without the cards: the copies of each card measured (`copies`,
    by index) at the bottom of their deck (`zone`)."""

    def __init__(self, copies: list[int], zone: str):
        self.copies, self.zone = copies, zone
        self.deck: list[Card] = []  # the deck's other cards, top first, once arranged

    def __call__(self, game: Game) -> None:
        table = game.table
        deck: Zone = table.zones[self.zone]
        for index in self.copies:
            card = table.cards[index]
            if table.zone_of(card) is not deck:
                bottom = next((c for c in reversed(table.cards_in(deck)) if c.index not in self.copies), None)
                if bottom is None:
                    continue  # the deck is empty after setup: nothing is drawn from it, the card stays
                _swap(game, card, bottom)
            table.move(card, deck)
        self.deck = [c for c in table.cards_in(deck) if c.index not in self.copies]

    def depth(self, game: Game) -> int:
        """How many of the deck's other cards left it during the game."""
        deck = game.table.zones[self.zone]
        return sum(1 for c in self.deck if game.table.zone_of(c) is not deck)


def _swap(game: Game, card: Card, other: Card) -> None:
    """`card` (out of its deck) and `other` (in it) change places, with what each place showed."""
    table = game.table
    here, there = table.zone_of(card), table.zone_of(other)
    at = table.cards_in(here).index(card)
    table.move(other, here, at)
    table.move(card, there)
    for flags in (table.face_down, table.known, table.concealed):
        flags[card.index], flags[other.index] = flags[other.index], flags[card.index]


def bring_into(game: Game, aside: Aside, copy: int, at: int | None) -> None:
    """Arrange `game` with one card brought in: every card set aside as `aside` does, then
    card `copy` put at place `at` of its deck (None: no place is drawn from, it stays aside)."""
    aside(game)
    card = game.table.cards[copy]
    deck = game.table.zones[aside.zone]
    if at is not None and game.table.zone_of(card) is deck:
        game.table.move(card, deck, at)


def played_with(ruleset: Ruleset, spec: Any, seed: int, aside: Aside, copy: int, depth: int) -> dict[str, Any]:
    """The game of `seed` with card `copy` brought in at a place drawn from the seed among
    the first `depth` of its deck: its scores, winners, decisions and whether it came up."""
    at = derived_seed(seed, "bring", copy) % depth if depth else None
    own = Aside(aside.copies, aside.zone)
    game = Game(ruleset, spec.players, spec.options, seed, arrange=lambda g: bring_into(g, own, copy, at),
                keep_log=False, rewind=False)
    agents = make_agents(spec.seats, seed, defaults=ruleset.bots, isolation=spec.isolation())
    play(game, agents, max_decisions=spec.max_decisions)
    final = game.scores()
    deck = game.table.zones[aside.zone]
    return {"scores": {str(p): v for p, v in final.items()}, "winners": [str(p) for p in game.winners(final)],
            "decisions": len(game.decisions), "at": at,
            "came_up": at is not None and game.table.zone_of(game.table.cards[copy]) is not deck}


class Draws:
    """The game without the cards, played by its agents while watching its deck: before each
    decision that draws from the deck, the game and its agents as they were (`before`, one
    entry a card drawn, with how many had been drawn before it). A game with a card brought in
    at place `at` is then that position, the card put where the draw takes it, played on: the
    same game up to there by construction, and not played twice."""

    def __init__(self, game: Game, agents: list[Any], aside: Aside, max_decisions: int | None, order: list[int]):
        self.aside = aside
        self.before: list[tuple[Game, list[Any], int]] = []
        deck = game.table.zones[aside.zone]
        cap = sys.maxsize if max_decisions is None else max_decisions
        self.copyable = _copyable(agents)
        drawn = 0
        while not game.over and len(game.decisions) < cap:
            player = game.pending.player
            if player not in order:
                order.append(player)
            saved = (game.clone(), copy.deepcopy(agents)) if self.copyable else None
            game.apply(agents[player - 1].choose(view(game, player)))
            now = aside.depth(game)
            if saved is not None:
                self.before += [(saved[0], saved[1], drawn)] * (now - drawn)
            drawn = now
        self.depth = drawn
        self.max_decisions = cap
        self._deck = deck

    def played_with(self, ruleset: Ruleset, spec: Any, seed: int, copy_index: int) -> dict[str, Any]:
        """The game with card `copy_index` brought in at a place drawn from the seed (see
        `played_with` below, which plays it from the start where agents cannot be copied)."""
        if not self.copyable:
            return played_with(ruleset, spec, seed, self.aside, copy_index, self.depth)
        at = derived_seed(seed, "bring", copy_index) % self.depth if self.depth else None
        if at is None:
            return played_with(ruleset, spec, seed, self.aside, copy_index, 0)
        saved, agents, drawn = self.before[at]
        game, agents = saved.clone(), copy.deepcopy(agents)
        deck = game.table.zones[self.aside.zone]
        card = game.table.cards[copy_index]
        if game.table.zone_of(card) is deck:
            game.table.move(card, deck, at - drawn)
        while not game.over and len(game.decisions) < self.max_decisions:
            game.apply(agents[game.pending.player - 1].choose(view(game, game.pending.player)))
        final = game.scores()
        return {"scores": {str(p): v for p, v in final.items()}, "winners": [str(p) for p in game.winners(final)],
                "decisions": len(game.decisions), "at": at,
                "came_up": game.table.zone_of(card) is not deck}


def _copyable(agents: list[Any]) -> bool:
    """Can the agents be copied mid-game (bots of this process: not those playing in processes of their own)?"""
    try:
        copy.deepcopy(agents)
    except Exception:  # an agent that holds a process, a socket or a lock: play from the start instead
        return False
    return True

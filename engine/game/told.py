"""Is every change a player can see told to them? A check of any ruleset, for its tests.

The rule, in two sentences: each change a decision sets off (everything up to the next
decision, whoever takes it) on a player's screen must be named by a line of news that player
reads, logged in that time (a log line, or the line telling a forced choice). A card that moved
or turned is named by its label or name as they read it (its back, "a face-down card", if they
cannot see it) or by a zone it left or entered, by its label or its owner (P2); a counter that
changed, by its name (underscores as spaces, a plural without its s), by its new value, or, for
a counter kept per player or per card, by the key whose value changed.

What a ruleset does not display (`display: false`, of a zone or a counter) is not on the screen
and is not checked: that is how a working value stays quiet. A board is drawn from zones and
counters, so a place of a board whose text changed is checked (by the place's label) only when
no zone or counter changed. Names are matched as whole words, in any case, "$" left out (a line
saying "$2000" names 2000). The check reads the game as the referee does but compares only what
`view(game, player, person=True)` shows; it runs only when a test asks, never in play.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from ..core.table import Table
from ..lang.compiler import evaluate
from ..rules.ruleset import Ruleset
from .game import Game
from .view import counter_text, label, log_line, view


@dataclass(frozen=True)
class Gap:
    """A change `player` could see that no line told them, set off by decision number
    `decisions` of the game (0: the setup); `lines`, what they were told in that time."""

    player: int
    decisions: int
    change: str
    lines: tuple[str, ...]

    def __str__(self) -> str:
        told = "; ".join(self.lines) if self.lines else "nothing"
        return f"P{self.player}, after decision {self.decisions}: {self.change} (told: {told})"


@dataclass
class _Screen:
    """What one player is shown, kept to compare: each displayed zone's cards (id and how the
    player reads it), the counters on display, each board place's text; and the log's length."""

    zones: dict[int, dict[int, str]]
    counters: dict[str, Any]
    places: dict[tuple[str, str], str]
    lines: int


def _screen(game: Game, player: int) -> _Screen:
    table: Table = game.table
    pv = view(game, player, person=True)
    zones = {}
    for zone in table.all_zones():
        if zone.spec.display:
            zones[zone.index] = {c.id: label(c, player, None, table, True) for c in table.contents[zone.index]}
    places = {}
    for name, show in game.rules.board_display.items():
        for place in game.rules.boards[name].places:
            places[(name, place.label)] = label(evaluate(show, game, {"place": place}), player, None, table, True)
    return _Screen(zones, pv.counters(), places, len(game.log))


def _changes(game: Game, player: int, before: _Screen, after: _Screen) -> list[tuple[str, list[Any]]]:
    """Each change between two screens, with the words any of which would tell it."""
    out: list[tuple[str, list[Any]]] = []
    table = game.table
    zones = {z.index: z for z in table.all_zones()}

    def where(screen: _Screen) -> dict[int, tuple[int, str]]:
        return {i: (index, text) for index, held in screen.zones.items() for i, text in held.items()}

    was, now = where(before), where(after)
    for i in sorted(set(was) | set(now)):
        if was.get(i) == now.get(i):
            continue
        words: list[Any] = []
        for index, text in filter(None, (was.get(i), now.get(i))):
            zone = zones[index]
            words += [text, label(zone, player, None, table, True)]
            if zone.key is not None and type(zone.key) is not tuple:
                words.append(label(zone.key, player, None, table, True))
            if not text.startswith("a face-down"):
                words.append(table.cards[i - 1].name)
        places = [label(zones[index], player, None, table, True) for index, _ in filter(None, (was.get(i), now.get(i)))]
        text = (now.get(i) or was[i])[1]
        out.append((f"{text} moved: {' -> '.join(places) if i in was and i in now else places[0]}", words))
    for name, value in after.counters.items():
        old = before.counters.get(name)
        if value == old:
            continue
        words_ = name.replace("_", " ")
        if isinstance(value, dict) and isinstance(old, dict):  # kept per player, per card...: each key
            for key in [*value, *(k for k in old if k not in value)]:
                if value.get(key) != old.get(key):
                    out.append((f"counter {words_} of {key}: {counter_text(old.get(key))} -> "
                                f"{counter_text(value.get(key))}", [key, *_names(words_, value.get(key))]))
        else:
            out.append((f"counter {words_}: {counter_text(old)} -> {counter_text(value)}", _names(words_, value)))
    if not out:  # a board is drawn from zones and counters: a place is checked alone only when they did not change
        for (board, place), text in after.places.items():
            if before.places.get((board, place)) != text:
                out.append((f"place {place} of board {board}: {before.places.get((board, place))} -> {text}", [place]))
    return out


def _names(words: str, value: Any) -> list[str]:
    """What names a counter: its words, those without a plural's s, its new value as shown."""
    return [words, words[:-1] if words.endswith("s") else words, counter_text(value)]


def _says(line: str, word: Any) -> bool:
    """Whether a line (lowered, without "$": "$2000" names 2000) names `word`, as whole words."""
    text = str(word).lower()
    return bool(text) and re.search(r"(?<!\w)" + re.escape(text) + r"(?!\w)", line) is not None


def _untold(game: Game, player: int, before: _Screen, after: _Screen) -> list[Gap]:
    """The changes between two screens of `player` that no line since the first names."""
    lines = [log_line(e, player, None, game.table, True) for e in game.log[before.lines:after.lines]
             if not e.kept_from(player)]
    lines += [text for at, text in view(game, player, person=True).forced() if before.lines <= at < after.lines]
    lowered = [line.lower().replace("$", "") for line in lines]
    return [Gap(player, len(game.decisions), change, tuple(lines))
            for change, words in _changes(game, player, before, after)
            if not any(_says(line, w) for w in words for line in lowered)]


class Watch:
    """Follows a game, and every player's screen, decision by decision, to find what is not told.

    Make it on a game waiting for its first decision (a game of your own, arranged or not), then
    play through `apply`: the gaps found so far are in `gaps`. The setup, before anyone decides,
    is where it starts."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.gaps: list[Gap] = []
        self._seen = {int(p): _screen(game, int(p)) for p in game.players}

    def apply(self, action: int) -> None:
        game = self.game
        game.apply(action)
        for player in self._seen:
            now = _screen(game, player)
            self.gaps += _untold(game, player, self._seen[player], now)
            self._seen[player] = now


def untold(rules: Ruleset, players: int, seed: int, options: dict[str, Any] | None = None,
           decisions: int = 300) -> list[Gap]:
    """Play a game of `rules` (a ruleset: `load_ruleset`) with random answers, the game and the
    answers drawn from `seed`, for at most `decisions` decisions, and give every change a player
    was not told; none, when the ruleset tells everything it does."""
    game = Game(rules, players, options, seed=seed)
    watch, rng = Watch(game), random.Random(seed)
    while not game.over and len(game.decisions) < decisions:
        watch.apply(rng.randrange(len(game.legal_actions())))
    return watch.gaps

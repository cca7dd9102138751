"""Shared helpers for tests: loading rulesets and steering games by card labels."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from engine.game import Game
from engine.ruleset import Ruleset, load_ruleset
from engine.table import Card, Zone
from engine.view import label

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))


# Options a shipped ruleset needs for random players to finish its games: Isle of Trains ends when
# contracts are claimed or the deck runs out, which random players never bring about, so its
# round limit (not a rule of the game, off by default) is set, as it was by default before.
RANDOM_PLAY = {"isle_of_trains": {"round_limit": "100"}}


def random_play_options(rs: Ruleset, players: int, given: dict[str, str] | None = None) -> dict[str, Any]:
    """The options of a game that random players must finish: the defaults, RANDOM_PLAY's
    safeguard for this ruleset, then `given`."""
    return rs.resolve_options({**RANDOM_PLAY.get(Path(rs.path).stem, {}), **(given or {})}, players)


@lru_cache(maxsize=None)
def ruleset(name: str) -> Ruleset:
    """A shipped ruleset by file stem, e.g. ruleset('trick_of_the_rails')."""
    return load_ruleset(ROOT / "rulesets" / f"{name}.yaml")


def zone(game: Game, name: str, key: Any = None) -> Zone:
    entry = game.table.zones[name]
    return entry if isinstance(entry, Zone) else entry[key]


def cards(game: Game, z: Zone) -> list[Card]:
    """The cards in zone `z`, first to last (the table's own list: do not change it)."""
    return game.table.cards_in(z)


def labels(game: Game, z: Zone) -> list[str]:
    return [c.label for c in cards(game, z)]


def card(game: Game, text: str) -> Card:
    """The one card whose label is `text`."""
    found = [c for c in game.table.cards if c.label == text]
    assert len(found) == 1, f"{len(found)} cards are labelled {text!r}"
    return found[0]


def put(game: Game, text: str, to: Zone, position: int | None = None) -> Card:
    """Move the card labelled `text` into zone `to` (at the end, or at `position`)."""
    c = card(game, text)
    game.table.move(c, to, position)
    return c


def options(game: Game) -> list[str]:
    """The pending decision's options as the referee reads them."""
    return [label(o, None) for o in game.pending.options]


def pick(game: Game, text: str) -> None:
    """Apply the pending option whose label is `text`."""
    opts = options(game)
    assert text in opts, f"{text!r} is not an option; options are {opts}"
    game.apply(opts.index(text))


@pytest.fixture
def tmp_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path

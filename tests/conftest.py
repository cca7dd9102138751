"""Shared helpers for tests: loading rulesets and steering games by card labels."""
from __future__ import annotations

import importlib.util
import random
import sys
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from engine.core.table import Card, Zone
from engine.game.game import Game
from engine.game.view import label
from engine.rules.ruleset import Ruleset, load_ruleset

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


def benchmark(name: str) -> ModuleType:
    """A script of benchmarks/ (not a package) as a module, e.g. benchmark('reference_tor')."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


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


# ---------------------------------------------------------------- the information tests

def unseen_pair(game: Game, player: int) -> tuple[Card, Card] | None:
    """Two cards `player` can neither see nor remember, with the same back (of one kind or
    of two: the player sees backs only), at different places, each with nothing of its own
    attached (no cards in its own zones)."""
    pairs = unseen_pairs(game, player)
    return pairs[0] if pairs else None


def unseen_pairs(game: Game, player: int) -> list[tuple[Card, Card]]:
    """Every pair of cards as `unseen_pair` finds them."""
    table = game.table
    own = [table.zones[n] for n, spec in game.rules.zones.items() if spec.per == "card"]
    by_look: dict[str, list[Card]] = {}
    for c in table.cards:
        if not table.can_see(c, player) and not any(table.cards_in(f[c]) for f in own):
            by_look.setdefault(c.look, []).append(c)
    return [(a, b) for group in by_look.values() for a in group for b in group
            if a is not b and (table.zone_of(a) is not table.zone_of(b) or a.index < b.index)]


def swap(game: Game, a: Card, b: Card) -> None:
    """Exchange the places of two cards, each place keeping its state (face down, who knows it,
    from whom it is concealed), and what was offered by place in an open simultaneous step."""
    t = game.table
    za, zb = t.zone_of(a), t.zone_of(b)
    ia, ib = t.contents[za.index].index(a), t.contents[zb.index].index(b)
    t.contents[za.index][ia], t.contents[zb.index][ib] = b, a
    t.where[a.index], t.where[b.index] = zb, za
    for flags in (t.face_down, t.known, t.concealed):
        flags[a.index], flags[b.index] = flags[b.index], flags[a.index]
    # The options of an open simultaneous step were worked out from the places: they follow them.
    step = game.together
    if step is not None:
        for options in step.options + [game.pending.options]:
            options[:] = [b if o is a else a if o is b else o for o in options]


def position_with_secrets(rules: Ruleset, players: int, options: dict[str, Any] | None = None,
                          seeds: range = range(30)) -> tuple[Game, tuple[Card, Card]]:
    """A decision of some player with more than one option, while there are two cards that
    player has never seen (the position of the first seed and move count that has them)."""
    for seed in seeds:
        for moves in (3, 8, 15):
            game = Game(rules, players, options, seed=seed, keep_log=True)
            rng = random.Random(seed)
            for _ in range(moves):
                if game.over:
                    break
                game.apply(rng.randrange(len(game.legal_actions())))
            if game.over or len(game.legal_actions()) < 2:
                continue
            pair = unseen_pair(game, game.current_player)
            if pair:
                return game, pair
    raise AssertionError("no position with two unseen cards found")


def refused(answer, status: int) -> str:
    """The one-line message of a request the web server refused (tests of engine serve)."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert list(body) == ["error"] and body["error"] and "\n" not in body["error"], body
    assert "Traceback" not in answer.text
    return body["error"]


@pytest.fixture
def tmp_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path

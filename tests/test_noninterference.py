"""Non-interference: two cards a seat has never seen, swapped, change nothing that seat is told.

For every shipped ruleset and the guide's example game, at every player count it allows: after
some random decisions (and again at the end of a random game), for each seat with two such
cards, the seat's view (zones, counters, log, decision with prompt and options) as an agent and
as a person is given it, its screen,
the errors of illegal moves and the terminal output of `engine play` with that seat at the
keyboard are byte-identical in the game and in the game with the two cards swapped (and in
the worlds its view deals, `PlayerView.world`).
"""
from __future__ import annotations

import io
import json
import random
import types
from typing import Any

import pytest

import engine.cli as cli
from engine.core.errors import EngineError
from engine.core.board import Place
from engine.core.table import Card, Player, Zone
from engine.game.game import Game
from engine.game.view import render, view
from engine.rules.ruleset import Ruleset, load_ruleset

from conftest import ROOT, RULESETS, position_with_secrets, random_play_options, swap, unseen_pairs

GAMES = [path.relative_to(ROOT) for path in RULESETS] + ["examples/guide/step5_options_triggers_modifiers.yaml",
                                                          "examples/lamplighters/lamplighters.yaml",
                                                          "examples/picnic/picnic.yaml"]
CASES = [(str(path), n) for path in GAMES for n in load_ruleset(ROOT / path).players]
PAIRS_AT_THE_END = 4  # pairs of unseen cards tried for each seat of a finished game


def told(game: Game, seat: int) -> dict[str, str]:
    """Everything `seat` is told of the game now, as text, but the terminal."""
    pv = view(game, seat)
    shown = {"view": json.dumps(pv.as_dict(), sort_keys=True, ensure_ascii=False),
             "person's view": json.dumps(pv.for_person().as_dict(), sort_keys=True, ensure_ascii=False),
             "screen": render(view(game, seat, person=True), log_lines=10 ** 6)}
    if not game.over and game.pending.player == seat:
        for move in (len(game.pending.options), -1, "1"):
            try:
                game.clone().apply(move)  # type: ignore[arg-type]
            except EngineError as exc:
                shown[f"error {move!r}"] = str(exc)
    return shown


def terminal(game: Game, seat: int, monkeypatch, capsys) -> str:
    """What `engine play` prints with `seat` a person at the keyboard (random bots elsewhere),
    playing `game`: while it goes on, up to that person's first decision, where they type a
    letter, a number out of range and q; once it is over, the final screen."""
    seats = ["human" if p == seat else "random" for p in game.players]
    monkeypatch.setattr(cli, "load_ruleset", lambda *args, **kwargs: game.rules)
    monkeypatch.setattr(cli, "Game", lambda *args, **kwargs: game.clone())
    monkeypatch.setattr("sys.stdin", io.StringIO("x\n99\nq\n"))
    capsys.readouterr()
    assert cli.main(["play", "ruleset.yaml", "--players", str(len(game.players)), "--seed", "1",
                     "--seats", ",".join(seats)]) == 0
    return capsys.readouterr().out


def check_seat(game: Game, seat: int, a, b, monkeypatch, capsys) -> None:
    """The seat is told the same in `game`, in it with `a` and `b` swapped, and (while it goes
    on) in the worlds its view deals, where every card it has not seen is dealt again and
    named again wherever the game holds it (counters, texts, the log)."""
    swapped = game.clone()
    swap(swapped, a, b)
    assert swapped.digest() != game.digest(), "the swap changed nothing: the test could not fail"
    assert told(swapped, seat) == told(game, seat), (a, b)
    if not game.over:
        for seed in (1, 2):
            assert told(view(game, seat).world(seed), seat) == told(game, seat)
    if game.over or game.pending.player == seat:
        assert terminal(swapped, seat, monkeypatch, capsys) == terminal(game, seat, monkeypatch, capsys), (a, b)


@pytest.mark.parametrize("path, players", CASES)
def test_cards_a_seat_never_saw_change_nothing_it_is_told(path, players, monkeypatch, capsys):
    rules = load_ruleset(ROOT / path)
    options = random_play_options(rules, players)
    game, _ = position_with_secrets(rules, players, options)  # the decider has two unseen cards
    for seat in game.players:
        pairs = unseen_pairs(game, seat)
        if pairs:
            check_seat(game, seat, *pairs[0], monkeypatch, capsys)
    # The end of a random game: its last screen, scores and winners.
    rng = random.Random(players)
    while not game.over:
        game.apply(rng.randrange(len(game.legal_actions())))
    for seat in game.players:
        pairs = unseen_pairs(game, seat)
        for a, b in random.Random(seat).sample(pairs, k=min(PAIRS_AT_THE_END, len(pairs))):
            check_seat(game, seat, a, b, monkeypatch, capsys)


def public(value: Any, seen: dict[int, int]) -> Any:
    """Everything reachable from `value` through public attributes (names without a leading
    underscore, properties too), as plain data to compare: cards, zones and other identities
    of the ruleset by their type and number, the ruleset itself by identity (worlds share it),
    an object met before by the order it was first met in."""
    kind = type(value)
    if value is None or kind in (bool, int, float, str, bytes):
        return value
    if kind in (Card, Zone, Place, Player):
        return kind.__name__, getattr(value, "index", getattr(value, "id", value))
    if isinstance(value, Ruleset):
        return "the ruleset", id(value)
    if id(value) in seen:
        return "met before", seen[id(value)]
    seen[id(value)] = len(seen)
    if isinstance(value, random.Random):
        return "generator", value.getstate()
    if kind in (list, tuple):
        return [public(v, seen) for v in value]
    if isinstance(value, dict):
        return [(public(k, seen), public(v, seen)) for k, v in value.items()]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(public(v, seen)) for v in value)
    if isinstance(value, types.MethodType):
        return "method", value.__func__.__qualname__, public(value.__self__, seen)
    if callable(value) and not hasattr(value, "__dict__") and not hasattr(type(value), "__slots__"):
        return "function", getattr(value, "__qualname__", repr(kind))
    names = [n for cls in kind.__mro__ for n in getattr(cls, "__slots__", ())] + list(getattr(value, "__dict__", {}))
    names += [n for n in dir(kind) if isinstance(getattr(kind, n, None), property)]
    shown = {}
    for name in dict.fromkeys(names):
        if not name.startswith("_"):
            try:
                shown[name] = public(getattr(value, name), seen)
            except Exception as exc:  # a property that cannot be read here is compared as what it raises
                shown[name] = "raises", type(exc).__name__
    return kind.__name__, shown


@pytest.mark.parametrize("path, players", CASES)
def test_worlds_of_a_position_and_of_it_with_unseen_cards_swapped_are_the_same_throughout(path, players):
    """Not only the view of a world: the whole world, everything an agent can reach from it
    through public attributes (its table, counters, log, forced choices, frames, generator)."""
    rules = load_ruleset(ROOT / path)
    game, (a, b) = position_with_secrets(rules, players, random_play_options(rules, players))
    seat = game.current_player
    swapped = game.clone()
    swap(swapped, a, b)
    for seed in (1, 2):
        worlds = [view(g, seat).world(seed) for g in (game, swapped)]
        assert public(worlds[0], {}) == public(worlds[1], {}), (a, b)
        assert all(f.player == seat for f in worlds[0].forced)  # nobody else's forced choices


# ---------------------------------------------------------------- simultaneous choices, hidden counters

PICNIC = ROOT / "examples" / "picnic" / "picnic.yaml"


def decided(game: Game, seat: int) -> list[int]:
    """What the bots of `seat` answer at this position (a world apart, each their own)."""
    from engine.game import belief
    from engine.players.scout import ScoutAgent
    from engine.players.search import GreedyAgent, MctsAgent
    answers = []
    for bot in (GreedyAgent(seed=1), MctsAgent(seed=2, iterations=30, depth=8),
                ScoutAgent(seed=3, lines=4, worlds=2, steps=8)):
        belief.forget()
        answers.append(bot.choose(view(game, seat)))
    return answers


def worlds(game: Game, seat: int) -> list[Any]:
    from engine.game import belief
    belief.forget()
    return [public(view(game, seat).world(seed), {}) for seed in (1, 2, 3)]


@pytest.mark.parametrize("players", [3, 4])
def test_another_players_answer_in_an_open_step_changes_nothing_a_seat_is_told_or_decides(players, monkeypatch, capsys):
    """P1 has kept a dish (or, first, chosen a favourite) and the step waits for the others: for
    each of them, every answer P1 could have given leaves what they are told, the worlds their
    view deals and what their bots decide exactly the same."""
    rules = load_ruleset(PICNIC)
    for before in ([], [0] * players, [1, 2, 3, 0][:players] + [1, 0, 2, 1][:players]):
        games = [Game(rules, players, seed=7, decisions=before + [a]) for a in range(len(Game(
            rules, players, seed=7, decisions=before).pending.options))]
        assert len({g.digest() for g in games}) == len(games) > 1, "the answers are all alike: the test could not fail"
        assert all(g.pending.player == 2 and g.together.answers[0] is not None for g in games)
        for seat in range(2, players + 1):
            first = games[0]
            for other in games[1:]:
                assert told(other, seat) == told(first, seat)
                assert worlds(other, seat) == worlds(first, seat)
            if seat == 2:
                assert {tuple(decided(g, seat)) for g in games} == {tuple(decided(first, seat))}
                assert len({terminal(g, seat, monkeypatch, capsys) for g in games}) == 1


def test_another_players_hidden_counter_changes_nothing_a_seat_is_told_or_decides(monkeypatch, capsys):
    """P2's favourite food (a counter only P2 sees), whatever it is, leaves what P1 and P3
    are told, their worlds and their bots' answers the same, all game long until it is told."""
    rules = load_ruleset(PICNIC)
    rng = random.Random(5)
    later = [rng.randrange(3) for _ in range(6)]
    for moves in (0, 3, 6):
        games = [Game(rules, 3, seed=5, decisions=[1, food, 2] + later[:moves]) for food in range(4)]
        assert len({g.table.counters["favourite"][Player(2)] for g in games}) == 4
        for seat in (1, 3):
            for other in games[1:]:
                assert told(other, seat) == told(games[0], seat)
                assert worlds(other, seat) == worlds(games[0], seat)
            if games[0].pending.player == seat:
                assert {tuple(decided(g, seat)) for g in games} == {tuple(decided(games[0], seat))}
                assert len({terminal(g, seat, monkeypatch, capsys) for g in games}) == 1

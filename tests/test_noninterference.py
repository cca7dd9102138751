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

import pytest

import engine.cli as cli
from engine.core.errors import EngineError
from engine.game.game import Game
from engine.game.view import render, view
from engine.rules.ruleset import load_ruleset

from conftest import ROOT, RULESETS, position_with_secrets, random_play_options, swap, unseen_pairs

GAMES = [path.relative_to(ROOT) for path in RULESETS] + ["examples/guide/step5_options_triggers_modifiers.yaml"]
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

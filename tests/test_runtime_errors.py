"""Faults while a game runs, and refused moves.

A rule that fails (an endless loop, division by zero, first() of an empty zone) ends in an
EffectError that names the rule and the YAML line; a decision that makes a rule fail leaves
the game exactly as it was before it; an illegal index is refused with IllegalMove and
changes nothing.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.errors import EffectError, IllegalMove
from engine.game.game import Game
from engine.game.view import label, log_line
from engine.rules.ruleset import load_ruleset

from conftest import cards

# No shuffle: the deal is known. P1 gets Zero, Three, One, Six; P2 gets Four, Two, Five, Seven.
# Playing Zero divides by zero, One starts an endless loop, Two takes first() of the empty deck;
# the other cards are harmless, so a game can end cleanly.
RULES = """\
game:
  name: Faults
  players: [2]
card_kinds:
  number:
    zone: deck
    label: "{name}"
    properties: {value: integer}
cards:
  - {kind: number, name: Zero, value: 0}
  - {kind: number, name: Three, value: 3}
  - {kind: number, name: One, value: 1}
  - {kind: number, name: Six, value: 6}
  - {kind: number, name: Four, value: 4}
  - {kind: number, name: Two, value: 2}
  - {kind: number, name: Five, value: 5}
  - {kind: number, name: Seven, value: 7}
zones:
  deck: {}
  hand: {per: player, visibility: owner}
  pile: {}
counters:
  points: {per: player, initial: 0}
  turns: {initial: 0}
procedures:
  spin:
    do: |
      while true:
          turns += 1
setup: |
  for p in players:
      deal(deck, hand[p], 4)
flow: |
  repeat 2:
      for p in players:
          let c = choose(p, hand[p], "Play a card")
          move(c, pile)
          turns += 1
          log(p, " plays ", c)
          if c.value == 1:
              spin()
          if c.value == 2:
              let top = first(deck)
          points[p] += 12 // c.value
scoring:
  score: points[player]
"""


def line_of(text: str, needle: str) -> int:
    assert text.count(needle) == 1, needle
    return text[: text.index(needle)].count("\n") + 1


def write_rules(tmp_path: Path, text: str = RULES, name: str = "faults.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def rules_path(tmp_path):
    return write_rules(tmp_path)


@pytest.fixture
def game(rules_path):
    return Game(load_ruleset(rules_path), 2, None, seed=7)


def option_labels(game: Game) -> list[str]:
    return [label(o, None) for o in game.pending.options]


def index_of(game: Game, text: str) -> int:
    return option_labels(game).index(text)


def snapshot(game: Game) -> dict:
    """Everything observable about a game, in plain values (cards by id, not object)."""
    pending = game.pending
    return {
        "digest": game.digest(),
        "decisions": list(game.decisions),
        "over": game.over,
        "legal": game.legal_actions(),
        "pending": None if pending is None else (
            int(pending.player), [label(o, None) for o in pending.options],
            [label(p, None) for p in pending.prompt]),
        "zones": {z.label: [c.id for c in cards(game, z)] for z in game.table.all_zones()},
        "counters": repr(sorted((k, repr(v)) for k, v in game.table.counters.items())),
        "log": [log_line(e, None) for e in game.log],
        "rng": game.rng.getstate(),
        "scores_if_over": game.scores() if game.over else None,
    }


# ------------------------------------------------------------------ located runtime faults


def test_endless_loop_stops_with_located_error(game, rules_path):
    before = snapshot(game)
    with pytest.raises(EffectError) as info:
        game.apply(index_of(game, "One"))
    err = info.value
    assert "steps" in err.message
    assert "spin" in err.rule
    assert err.location is not None and err.location.file == str(rules_path)
    loop_line = line_of(RULES, "while true:")
    assert err.location.line in (loop_line, loop_line + 1)  # the loop or its body
    assert f"{rules_path}:{err.location.line}:" in str(err)
    assert "spin" in str(err)
    assert snapshot(game) == before


def test_endless_loop_in_setup(tmp_path):
    text = RULES.replace("setup: |\n", "setup: |\n  while true:\n      pass\n")
    path = write_rules(tmp_path, text)
    with pytest.raises(EffectError) as info:
        Game(load_ruleset(path), 2, None, seed=1)
    err = info.value
    assert err.rule == "setup"
    assert err.location.file == str(path)
    assert err.location.line in (line_of(text, "  while true:\n      pass"), line_of(text, "      pass"))


def test_division_by_zero_names_rule_and_line(game, rules_path):
    with pytest.raises(EffectError) as info:
        game.apply(index_of(game, "Zero"))
    err = info.value
    assert "division by zero" in err.message
    assert err.rule == "flow"
    line = line_of(RULES, "points[p] += 12 // c.value")
    assert (err.location.file, err.location.line) == (str(rules_path), line)
    assert f"{rules_path}:{line}:" in str(err) and "flow" in str(err)


def test_first_of_empty_zone_names_rule_and_line(game, rules_path):
    game.apply(index_of(game, "Three"))
    with pytest.raises(EffectError) as info:
        game.apply(index_of(game, "Two"))
    err = info.value
    assert "first()" in err.message and "empty" in err.message
    assert err.rule == "flow"
    assert (err.location.file, err.location.line) == (str(rules_path), line_of(RULES, "let top = first(deck)"))


def test_first_of_empty_zone_at_start(tmp_path):
    text = RULES.replace("flow: |\n", "flow: |\n  let top = first(pile)\n")
    path = write_rules(tmp_path, text)
    with pytest.raises(EffectError) as info:
        Game(load_ruleset(path), 2, None, seed=1)
    assert "first()" in info.value.message
    assert (info.value.location.line, info.value.rule) == (line_of(text, "let top = first(pile)"), "flow")


SCORING_FAULTS = {
    "scoring": "scoring:\n  score: points[player] // turns\n",
    "function-in-scoring": "functions:\n  ratio:\n    params: [q]\n    expr: points[q] // turns\n"
                           "scoring:\n  score: ratio(player)\n",
    "tiebreak": "scoring:\n  score: 0\n  tiebreak: first(pile).value\n",
}


@pytest.mark.parametrize("name", list(SCORING_FAULTS))
def test_fault_in_scoring_is_a_located_effect_error(name, tmp_path):
    """Scoring runs when no decision is pending; its faults must be EffectErrors too."""
    text = RULES.split("setup: |")[0] + "flow: |\n  pass\n" + SCORING_FAULTS[name]
    path = write_rules(tmp_path, text)
    game = Game(load_ruleset(path), 2, None, seed=1)
    assert game.over
    with pytest.raises(EffectError) as info:
        game.scores() if name != "tiebreak" else game.winners()
    err = info.value
    assert err.location is not None and err.location.file == str(path)
    fault_line = {"scoring": "score: points", "function-in-scoring": "expr: points",
                  "tiebreak": "tiebreak:"}[name]
    assert err.location.line == line_of(text, fault_line)


def _run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=60)


def test_cli_reports_runtime_fault_without_traceback(tmp_path):
    text = RULES.replace("flow: |\n", "flow: |\n  let top = first(pile)\n")
    path = write_rules(tmp_path, text)
    proc = _run_cli("play", str(path), "--seats", "random,random", "--seed", "1", cwd=tmp_path)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    assert f"{path}:{line_of(text, 'let top = first(pile)')}:" in proc.stderr
    assert "first()" in proc.stderr


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_cli_reports_scoring_fault_without_traceback(command, tmp_path):
    text = RULES.split("setup: |")[0] + "flow: |\n  pass\n" + SCORING_FAULTS["scoring"]
    path = write_rules(tmp_path, text)
    extra = ["--seats", "random,random"] if command == "play" else ["--games", "2"]
    proc = _run_cli(command, str(path), "--seed", "1", *extra, cwd=tmp_path)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    assert proc.returncode == 1
    assert "division by zero" in proc.stderr
    assert f"{path}:{line_of(text, 'score: points')}:" in proc.stderr


# ------------------------------------------------------------------ a failing move is undone


@pytest.mark.parametrize("before_moves,bad", [
    ([], "Zero"), ([], "One"), (["Three"], "Two"), (["Three", "Four"], "Zero"), (["Three", "Four"], "One"),
])
def test_failing_move_restores_game_exactly(game, before_moves, bad):
    for text in before_moves:
        game.apply(index_of(game, text))
    before = snapshot(game)
    with pytest.raises(EffectError):
        game.apply(index_of(game, bad))
    assert snapshot(game) == before
    # The restored pending decision offers the cards of the restored table.
    player = game.pending.player
    hand = game.table.zones["hand"][player]
    assert all(game.table.zone_of(option) is hand for option in game.pending.options)
    # The game goes on, and ends as a fresh game with the same decisions would.
    good = {1: ["Three", "Six"], 2: ["Four", "Five", "Seven"]}
    while not game.over:
        p = game.pending.player
        game.apply(index_of(game, next(t for t in good[p] if t in option_labels(game))))
    fresh = Game(game.rules, 2, None, seed=7, decisions=game.decisions)
    assert fresh.over and fresh.digest() == game.digest()
    assert fresh.scores() == game.scores()


def test_failing_move_twice_in_a_row(game):
    before = snapshot(game)
    for bad in ("Zero", "One", "Zero"):
        with pytest.raises(EffectError):
            game.apply(index_of(game, bad))
        assert snapshot(game) == before


# ------------------------------------------------------------------ refused indexes


@pytest.mark.parametrize("index", [4, 999, -1, -4, True, False, "0", "1", 1.0, None, [0]],
                         ids=repr)
def test_illegal_index_refused_and_nothing_changes(game, index):
    game.apply(index_of(game, "Three"))
    before = snapshot(game)
    with pytest.raises(IllegalMove):
        game.apply(index)
    assert snapshot(game) == before


def test_apply_after_the_game_is_over(game):
    for text in ("Three", "Four", "Six", "Five"):
        game.apply(index_of(game, text))
    assert game.over
    assert game.legal_actions() == []
    before = snapshot(game)
    for index in (0, 1, -1, True):
        with pytest.raises(IllegalMove):
            game.apply(index)
        assert snapshot(game) == before


def test_unsupported_player_count_is_refused(rules_path):
    with pytest.raises(IllegalMove):
        Game(load_ruleset(rules_path), 3, None, seed=1)

"""Explicit chance (game/chance.py): a game waits at each draw for nature's outcome, with the
outcomes and their probabilities; by default it draws from its seed exactly as before."""
from __future__ import annotations

import json
import random

import pytest

from engine import Game, load_ruleset
from engine.core.errors import IllegalMove, SaveError
from engine.core.table import Player


@pytest.fixture(scope="module")
def kuhn():
    return load_ruleset("kuhn")


def hand(game: Game, player: int) -> str:
    zone = game.table.zones["hand"][player]
    return [c.label for c in game.table.contents[zone.index]][0]


def deal(game: Game, first: str, second: str) -> None:
    """Give chance the outcomes that deal `first` to P1 and `second` to P2."""
    for name in (first, second):
        outcomes = [c.label for c in game.chance_decision().outcomes]
        game.apply_chance(outcomes.index(name))


def test_a_shuffle_is_one_draw_for_each_place_but_the_last(kuhn):
    g = Game(kuhn, 2, chance="explicit")
    first = g.chance_decision()
    assert g.pending is None and g.current_player is None and not g.over
    assert [c.label for c in first.outcomes] == ["Jack", "Queen", "King"]
    assert first.probabilities == pytest.approx([1 / 3] * 3)
    g.apply_chance(2)
    second = g.chance_decision()
    assert sorted(c.label for c in second.outcomes) == ["Jack", "Queen"]
    assert second.probabilities == pytest.approx([0.5, 0.5])
    g.apply_chance([c.label for c in second.outcomes].index("Jack"))
    assert g.chance_decision() is None and g.pending.player == 1
    assert (hand(g, 1), hand(g, 2)) == ("King", "Jack")


def test_the_chosen_deal_plays_out_with_its_payoffs(kuhn):
    g = Game(kuhn, 2, chance="explicit")
    deal(g, "Jack", "King")
    for answer in ("check", "bet", "call"):
        g.apply(g.pending.options.index(answer))
    assert g.over and g.scores() == {Player(1): -2, Player(2): 2}


def test_explicit_chance_draws_nothing_from_the_seed_and_a_seeded_game_is_as_before(kuhn):
    g = Game(kuhn, 2, seed=7, chance="explicit")
    deal(g, "Queen", "Jack")
    g.apply(0)
    assert g.rng.getstate() == random.Random(7).getstate()
    seeded, rng = Game(kuhn, 2, seed=7), random.Random(7)
    cards = list(kuhn.layout(2).cards)
    rng.shuffle(cards)  # what shuffle(deck) did before chance became the game's: random.shuffle
    assert (hand(seeded, 1), hand(seeded, 2)) == (cards[0].label, cards[1].label)
    assert seeded.snapshot() == Game(kuhn, 2, seed=7, chance="seeded").snapshot()


def test_a_random_choice_is_a_draw_among_its_items():
    rs = load_ruleset("step3_turns_and_choices")
    g = Game(rs, 2, chance="explicit")
    draws = 0
    while g.chance_decision().outcomes != [1, 2]:
        g.apply_chance(0)
        draws += 1
    assert g.chance_decision().outcomes == [1, 2]  # leader = random_choice(players)
    assert draws == 23 + 9  # 24 fish and 10 pearls shuffled: one draw for each place but the last
    g.apply_chance(1)
    assert g.chance_decision() is None and g.table.counters["leader"] == 2 and g.pending.player == 2


def test_a_refused_outcome_or_move_changes_nothing(kuhn):
    g = Game(kuhn, 2, chance="explicit")
    before = json.dumps(g.snapshot())
    for wrong in (3, -1, True, "1"):
        with pytest.raises(IllegalMove, match="not one of this draw's"):
            g.apply_chance(wrong)
    with pytest.raises(IllegalMove, match="waits for chance"):
        g.apply(0)
    assert json.dumps(g.snapshot()) == before
    deal(g, "Jack", "Queen")
    with pytest.raises(IllegalMove, match="no chance outcome"):
        g.apply_chance(0)
    with pytest.raises(ValueError, match="'seeded' or 'explicit'"):
        Game(kuhn, 2, chance="sampled")


def test_a_snapshot_and_a_clone_carry_a_pending_chance_decision(kuhn):
    g = Game(kuhn, 2, chance="explicit")
    g.apply_chance(1)
    data = json.loads(json.dumps(g.snapshot()))
    assert data["chance"] == {"mode": "explicit", "answer": None, "drawn": [1]}
    restored, clone = Game.from_snapshot(kuhn, data), g.clone()
    for other in (restored, clone):
        assert other.chance_decision() == g.chance_decision()
        assert other.snapshot() == g.snapshot()
    clone.apply_chance(0)
    assert g.chance_decision() is not None  # the clone is a game of its own
    g.apply_chance(0)
    restored.apply_chance(0)
    assert restored.snapshot() == g.snapshot() == clone.snapshot()


DRAWS_AFTER_A_MOVE = """
game: {name: Draws after a move, players: [2]}
card_kinds:
  token: {zone: deck, label: "{n}", properties: {n: integer}}
cards:
  - {kind: token, n: 1}
  - {kind: token, n: 2}
  - {kind: token, n: 3}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
counters:
  starter: {initial: 0}
flow: |
  let rounds = choose(1, [1, 2], "How many draws?")
  repeat rounds:
      shuffle(deck)
      deal(deck, hand[1], 1)
  starter = random_choice(players)
  let last = choose(starter, [1, 2], "Anything")
  log(starter, " says ", last)
scoring:
  score: count(hand[player])
"""


def test_a_snapshot_waiting_for_chance_after_a_decision_replays_it(tmp_path):
    path = tmp_path / "draws.yaml"
    path.write_text(DRAWS_AFTER_A_MOVE)
    rs = load_ruleset(str(path))
    g = Game(rs, 2, chance="explicit")
    assert g.chance_decision() is None and g.pending.player == 1
    g.apply(1)  # two rounds: a shuffle of 3 (two draws), then of 2 (one draw)
    g.apply_chance(2)
    data = json.loads(json.dumps(g.snapshot()))
    assert data["chance"] == {"mode": "explicit", "answer": 1, "drawn": [2]} and data["decisions"] == []
    back = Game.from_snapshot(rs, data)
    assert back.snapshot() == g.snapshot() and back.decisions == g.decisions == [1]
    for game in (g, back):
        game.apply_chance(0)
        game.apply_chance(1)
        assert game.chance_decision().outcomes == [1, 2]  # random_choice(players)
        game.apply_chance(1)
        assert game.pending.player == 2 and game.table.counters["starter"] == 2
    assert back.snapshot() == g.snapshot()
    assert [c.label for c in g.table.contents[g.table.zones["hand"][1].index]] == ["3", "1"]


def test_a_damaged_chance_snapshot_is_refused(kuhn):
    g = Game(kuhn, 2, chance="explicit")
    g.apply_chance(1)
    data = g.snapshot()
    for drawn in ([7], ["1"], [1, 0, 0]):
        with pytest.raises(SaveError):
            Game.from_snapshot(kuhn, {**data, "chance": {**data["chance"], "drawn": drawn}})
    with pytest.raises(SaveError, match="answer"):
        Game.from_snapshot(kuhn, {**data, "chance": {**data["chance"], "answer": 5}})


def test_a_world_of_a_game_of_explicit_chance_is_dealt_as_determinize_deals_it(kuhn):
    from engine import view
    from engine.game import belief
    for first in ("Jack", "King"):
        g = Game(kuhn, 2, chance="explicit")
        deal(g, first, "Queen")
        before = dict(belief.counts)
        worlds = [view(g, 1).world(seed) for seed in range(6)]
        assert belief.counts["off"] == before.get("off", 0) + 6  # its seed does not replay it
        assert {hand(w, 1) for w in worlds} == {first}
        assert {hand(w, 2) for w in worlds} == {"Jack", "Queen", "King"} - {first}
        assert all(not w.explicit_chance for w in worlds)

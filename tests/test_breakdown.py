"""The score by named parts (`scoring.breakdown`): parts that add up to the score in the shipped
rulesets' games, a score left out as the sum of its parts, located errors for broken parts,
and the final screen of `engine play`."""
from __future__ import annotations

import random
import re

import pytest

from engine.cli import main
from engine.core.errors import EffectError, RulesetError
from engine.game.game import Game
from engine.rules.ruleset import load_ruleset
from engine.rules.scoring import results_lines

from conftest import random_play_options, ruleset

# Two players each play one card of three; a card of value 3 or more is a "high" card.
RULES = """\
game: {name: Parts, players: [2]}
card_kinds:
  number: {zone: deck, label: "{value}", properties: {value: integer}}
cards:
  - {kind: number, value: 1}
  - {kind: number, value: 2}
  - {kind: number, value: 3}
  - {kind: number, value: 4}
zones:
  deck: {}
  played: {per: player}
counters:
  bonus: {per: player, initial: 0}
flow: |
  for p in players:
      let c = choose(p, deck, "Play a card")
      move(c, played[p])
  bonus[1] += 10
scoring:
SCORING"""


def rules(tmp_path, scoring: str):
    path = tmp_path / "parts.yaml"
    path.write_text(RULES.replace("SCORING", scoring), encoding="utf-8")
    return load_ruleset(path)


def played(rs, picks=(3, 0)) -> Game:
    """P1 plays the 4, then P2 the 1."""
    game = Game(rs, 2, None, 1)
    for index in picks:
        game.apply(index)
    assert game.over
    return game


PARTS = """\
  breakdown:
    cards: sum(c.value for c in played[player])
    bonus: bonus[player]
"""


def test_without_a_score_the_score_is_the_sum_of_the_parts(tmp_path):
    game = played(rules(tmp_path, PARTS))
    assert game.breakdown() == {1: {"cards": 4, "bonus": 10}, 2: {"cards": 1, "bonus": 0}}
    assert game.scores() == {1: 14, 2: 1} and game.winners() == [1]


def test_a_score_beside_the_parts_is_checked_against_them(tmp_path):
    game = played(rules(tmp_path, PARTS + "  score: sum(c.value for c in played[player]) + bonus[player]\n"))
    assert game.breakdown()[1] == {"cards": 4, "bonus": 10}
    # The parts miss the bonus: reading them says which player, what they add up to and the score.
    game = played(rules(tmp_path, "  score: sum(c.value for c in played[player]) + bonus[player]\n"
                                  "  breakdown:\n    cards: sum(c.value for c in played[player])\n"))
    with pytest.raises(EffectError) as caught:
        game.breakdown()
    error = caught.value
    assert "parts add up to 4 for P1, but the score is 14 (cards 4)" in error.message
    assert "leave `score` out" in error.message
    assert error.location.line == 21 and error.location.file.endswith("parts.yaml")
    assert game.scores() == {1: 14, 2: 1}  # the score itself stands


def test_a_ruleset_without_parts_has_an_empty_breakdown(tmp_path):
    game = played(rules(tmp_path, "  score: bonus[player]\n"))
    assert game.breakdown() == {1: {}, 2: {}}
    assert results_lines(game, {1: "Ann", 2: "Bob"})[:3] == ["  player  score", "  Ann        10",
                                                            "  Bob         0"]


def test_a_part_that_is_not_a_number_is_a_located_error(tmp_path):
    game = played(rules(tmp_path, "  breakdown:\n    cards: played[player]\n"))
    for read in (game.breakdown, game.scores):
        with pytest.raises(EffectError, match=r"breakdown part 'cards' is the zone .* for P1, not a number"):
            read()


@pytest.mark.parametrize("scoring, line, column, message", [
    ("  breakdown:\n    cards: sum(c.value for c in playd[player])\n", 21, 33,
     "unknown name 'playd' (did you mean 'played'?)"),
    ("  breakdown:\n    cards: bonus[player] +\n", 21, 27, "expected"),
    ("  breakdown: {}\n", 20, 14, "should be non-empty"),
    ("  description: no score\n", 20, 3, "missing required key in scoring: 'score'"),
])
def test_a_broken_breakdown_is_reported_where_it_is_written(tmp_path, scoring, line, column, message):
    with pytest.raises(RulesetError) as caught:
        rules(tmp_path, scoring)
    [problem] = caught.value.diagnostics
    assert (problem.location.line, problem.location.column) == (line, column), str(problem)
    assert message in problem.message


@pytest.mark.parametrize("name, players", [("isle_of_trains", 3), ("railways", 4), ("trainsilvania", 3),
                                           ("trick_of_the_rails", 4)])
def test_each_shipped_rulesets_parts_add_up_to_its_score(name, players):
    rs = ruleset(name)
    assert len(rs.breakdown) >= 1
    for seed in (1, 2):
        game, rng = Game(rs, players, random_play_options(rs, players), seed, keep_log=False), random.Random(seed)
        while not game.over:
            game.apply(rng.randrange(len(game.legal_actions())))
        parts = game.breakdown()  # checked against the score where the ruleset writes both
        own = {p: sum(parts[p].values()) for p in game.players}
        assert game.scores() == own  # no teams in these games: each player's score is their own


def test_the_final_screen_shows_parts_by_player_winners_and_seed(capsys):
    assert main(["play", "trick_of_the_rails", "--players", "4", "--seed", "3", "--seats",
                 "random,random,random,random"]) == 0
    out = capsys.readouterr().out
    final = out[out.index("Final scores:"):].splitlines()
    assert re.fullmatch(r"  player\s+B&O\s+C&O\s+ERIE\s+NYC\s+PRR\s+score", final[1])
    for seat, row in zip("1234", final[2:6]):
        cells = row.split()
        assert cells[:2] == [f"P{seat}", "(random)"]
        values = list(map(int, cells[2:]))
        assert len(values) == 6 and sum(values[:5]) == values[5]
    assert final[6] == "How each part is counted:"
    assert final[7].startswith("  B&O, C&O, ERIE, NYC, PRR: your shares of it, each worth the best sum")
    assert re.fullmatch(r"Winner\(s\): P\d \(random\)(, P\d \(random\))*", final[-2])
    assert final[-1] == "Seed: 3"


def test_a_part_may_say_how_it_is_counted_and_parts_counted_alike_share_a_line(tmp_path):
    game = played(rules(tmp_path, """\
  breakdown:
    cards:
      expr: sum(c.value for c in played[player])
      description: the values of the cards you played
    bonus:
      expr: bonus[player]
      description: the values of the cards you played
    nothing: 0
"""))
    assert game.scores() == {1: 14, 2: 1}  # the mapping's `expr` is the part
    lines = results_lines(game, {1: "Ann", 2: "Bob"})
    assert lines[3:5] == ["How each part is counted:", "  cards, bonus: the values of the cards you played"]
    assert lines[5].startswith("Winner(s): Ann")


def test_a_part_written_as_a_mapping_is_checked_as_one(tmp_path):
    with pytest.raises(RulesetError) as error:
        rules(tmp_path, "  breakdown:\n    cards: {expr: \"count(played[player])\", descripton: x}\n    bonus: {description: y}\n")
    text = str(error.value)
    assert "unknown key 'descripton' in scoring.breakdown.cards (did you mean 'description'?)" in text
    assert "missing required key in scoring.breakdown.bonus: 'expr'" in text


# What each part of a shipped ruleset counts, in the words of its rulebook (seeds/000, 001 for Isle
# of Trains, 002 Trainsilvania, 003 and the ruleset's header for Railways, 004 Trick of the Rails).
SAID = {
    "trick_of_the_rails": {co: ["best sum of a run of its railway's cards as long as its locomotive's distance",
                                "minus the locomotive's cost", "0 with no locomotive"]
                           for co in ("B&O", "C&O", "ERIE", "NYC", "PRR")},
    "isle_of_trains": {"train": ["points printed on the cards of your train"],
                       "contracts": ["front points, plus back points once completed"],
                       "buildings": ["Grand Central 8", "Customs House 2 a good of their type on your completed contracts",
                                     "Bank 2 a good loaded", "Rail Yard 2 a car"],
                       "cargo": ["1 for each good still loaded"]},
    "railways": {"income track": ["1 for each link of yours a delivery used"], "bonds": ["minus 1 for each bond"]},
    "trainsilvania": {"monsters revealed at home": ["3 for the player who first has 3 monsters at their home"]},
}


@pytest.mark.parametrize("name", sorted(SAID))
def test_every_part_of_a_shipped_ruleset_says_how_it_is_counted(name):
    rs = ruleset(name)
    assert list(rs.breakdown_descriptions) == list(rs.breakdown) == list(SAID[name])
    for part, words in SAID[name].items():
        for said in words:
            assert said in rs.breakdown_descriptions[part], (part, said)
    players = rs.players[0] if name != "trick_of_the_rails" else 3
    game, rng = Game(rs, players, random_play_options(rs, players), 1, keep_log=False), random.Random(1)
    while not game.over and len(game.decisions) < 3000:
        game.apply(rng.randrange(len(game.legal_actions())))
    lines = results_lines(game, {p: f"P{p}" for p in range(1, players + 1)})
    told = " ".join(line.strip() for line in lines[lines.index("How each part is counted:") + 1:-2])
    for part in SAID[name]:
        assert f"{part}:" in told or f"{part}," in told
    assert all(len(line) <= 80 for line in lines)


def test_with_teams_in_play_the_screen_shows_own_and_team_scores():
    rs = ruleset("trick_of_the_rails")
    options = rs.resolve_options({"teams": "true"}, 4)
    game, rng = Game(rs, 4, options, 5), random.Random(5)
    while not game.over:
        game.apply(rng.randrange(len(game.legal_actions())))
    lines = results_lines(game, {p: f"P{p}" for p in range(1, 5)})
    assert lines[0].split()[-2:] == ["own", "team"]
    rows = {int(line.split()[0][1:]): list(map(int, line.split()[1:])) for line in lines[1:5]}
    for p, team in ((1, 3), (2, 4)):
        assert rows[p][-1] == rows[team][-1] == rows[p][-2] + rows[team][-2]
        assert sum(rows[p][:5]) == rows[p][-2]


def test_simulate_gives_each_parts_mean_by_seat():
    from engine.analysis.report import build_report, render_text
    from engine.analysis.simulate import simulate
    rs = ruleset("trick_of_the_rails")
    run = simulate(rs, 3, 4, 7, rs.resolve_options({}, 3))
    records = run["results"]
    means = run["totals"]["mean_breakdown_by_seat"]
    for seat in ("P1", "P2", "P3"):
        for part in ("B&O", "C&O", "ERIE", "NYC", "PRR"):
            assert means[seat][part] == sum(r["breakdown"][seat][part] for r in records) / 4
        assert sum(means[seat].values()) == pytest.approx(run["totals"]["mean_score_by_seat"][seat])
    report = build_report(records, {"players": 3, "seats": ["random"] * 3, "seed": 7, "games": 4})
    assert report["breakdown_by_seat"][0] == {"seat": "P1", "bot": "random", "mean": means["P1"]}
    text = render_text(report)
    assert "Mean score by part (scoring.breakdown):" in text
    assert re.search(r"^\s+B&O\s+C&O\s+ERIE\s+NYC\s+PRR$", text, re.M)

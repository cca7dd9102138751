"""engine cards: what each card is worth, found on toy games whose answer is known.

Every run here has a fixed seed: its games, and so its figures, are the same on every machine
and every run (the seeds of games and bots are keyed hashes of it), so no test here can flake;
a change of the engine that changed the games would change them, as tests/test_same_games.py
would say.
"""
from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest

from engine.analysis.cards import AS_IS, BARRED, FAVOURED, WITHOUT, CardsFile, cards, select
from engine.analysis.cards_report import render_text, write_csv
from engine.analysis.report import read_jsonl
from engine.analysis.simulate import simulate
from engine.core.errors import EngineError
from engine.rules.ruleset import load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_cli import TRICK, engine  # noqa: E402

TOYS = Path(__file__).resolve().parent / "fixtures" / "cards"
STRONG = load_ruleset(TOYS / "strong_card.yaml")
EQUAL = load_ruleset(TOYS / "equal_cards.yaml")
TOR = load_ruleset(TRICK)


def run(ruleset, games: int, **given):
    players = given.pop("players", 2)
    return cards(ruleset, players, games, given.pop("seed", 1), ruleset.resolve_options({}, players), **given)


@pytest.fixture(scope="module")
def strong():
    return run(STRONG, 200)


def test_the_card_worth_ten_is_found_strong_and_ranked_first(strong):
    """A seat barred from the Crown never plays it (it plays 2 of its 3 cards), one favouring it
    always does: with the Crown worth 10 and the others 1, the Crown wins games, by 11.5% ± 2.9%
    of its games here; the interval is far from 0 at 200 games."""
    top = strong["cards"][0]
    assert top["card"] == "Crown"
    s = top["strength"]
    assert s["strength"]["detectable"] and s["strength"]["diff"] > 0.05
    assert s["barred"]["diff"] < 0 < s["favoured"]["diff"]
    assert all(r["strength"]["strength"]["diff"] < s["strength"]["diff"] for r in strong["cards"][1:])
    assert strong["findings"][0].startswith("Crown is strong: a seat that favours it wins +")
    assert top["use"]["played_per_game"] > 0 and top["use"]["win_share"]["diff"] > 0


def test_cards_that_are_equal_are_none_of_them_strong():
    """Every card worth 1: both players score 2 whatever they play and share every win, so each
    restricted game is won exactly as the game as it is, and every difference is exactly 0:
    no interval can leave 0 out, whatever the seed."""
    result = run(EQUAL, 60)
    assert [r["card"] for r in result["cards"]] == [c.name for c in EQUAL.cards]
    for row in result["cards"]:
        assert row["strength"]["games"] == 60
        for part in ("strength", "barred", "favoured"):
            assert row["strength"][part]["diff"] == 0 and not row["strength"][part]["detectable"]
    assert result["findings"] == []
    assert "No card's strength or effect is detectable at 95% in 60 games" in render_text(result)


def test_a_barred_seat_never_plays_the_card_and_a_favouring_one_always_does(tmp_path):
    out = tmp_path / "crown.jsonl"
    run(STRONG, 40, wanted=["Crown"], out=out)
    file = CardsFile.open(out, _base_spec(), 40)
    file.close()
    sides = {side for side, _, _ in file.records}
    assert sides == {AS_IS, BARRED, FAVOURED}
    for (side, entry, n), record in file.records.items():
        if side == AS_IS:
            assert "cards" in record and entry == ""
            continue
        seat = record["restricted"]
        assert seat == f"P{(n - 1) % 2 + 1}"
        crown = 10 + 1  # the Crown and one card worth 1
        if side == BARRED:
            assert record["scores"][seat] <= 2
        elif record["acted"]:
            assert record["scores"][seat] == crown


def _base_spec():
    from engine.analysis.cards import CardRun
    return CardRun.of(STRONG, 2, ["random", "random"], STRONG.resolve_options({}, 2), 1)


def test_a_card_nobody_chooses_is_taken_out_and_its_effect_on_every_seat_measured():
    """Trick of the Rails' ∞ locomotive is placed by the rules, never chosen: the games without
    it score more for every seat (its cost of 80 comes off a company's shares). Removing the
    3 locomotive leaves the lane without one: every game fails, and the report says so."""
    result = run(TOR, 20, players=4, wanted=["Locomotive ∞", "Locomotive 3"])
    by = {r["card"]: r for r in result["cards"]}
    infinity = by["Locomotive ∞"]
    assert "strength" not in infinity and infinity["use"]["played_per_game"] == 0
    assert infinity["use"]["came_up"] == 1.0
    moved = infinity["removed"]
    assert moved["games"] == 20 and moved["all_seats"]["detectable"] and moved["all_seats"]["diff"] > 0
    assert any(f.startswith("Locomotive ∞ (came up in 100% of the games)") for f in result["findings"])
    assert by["Locomotive 3"]["removed"]["failed"] == 20
    assert "without it the rules failed in 20 of 20 games" in by["Locomotive 3"]["note"]
    text = render_text(result)
    assert all(len(line) <= 80 for line in text.splitlines())


def test_ordinary_runs_record_no_card_events():
    """Only engine cards watches the cards: a simulation's records are as they were."""
    report = simulate(STRONG, 2, 5, 1, STRONG.resolve_options({}, 2))
    assert all("cards" not in r and "restricted" not in r for r in report["results"])


def test_a_mistyped_card_is_told_with_the_nearest_name():
    told = r"--card Crwn: no card or kind of card is named so \(did you mean 'Crown'\?\)"
    with pytest.raises(EngineError, match=told):
        select(STRONG, ["Crwn"])
    assert select(STRONG, ["number"]) == [c.name for c in STRONG.cards]
    assert select(TOR, ["B&O 10", "Locomotive ∞"]) == ["B&O 10", "Locomotive ∞"]
    proc = engine("cards", str(TOYS / "strong_card.yaml"), "--games", "4", "--card", "Crwn")
    assert proc.returncode == 1
    assert proc.stderr.strip() == "engine: --card Crwn: no card or kind of card is named so (did you mean 'Crown'?)"


def test_out_keeps_the_games_and_the_same_command_plays_only_the_others(tmp_path):
    out = tmp_path / "run.jsonl"
    whole = run(STRONG, 30, wanted=["Crown", "Ash"])
    first = run(STRONG, 20, wanted=["Crown"], out=out)
    assert first["played"] == 20 * 3
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:-3]) + lines[-3][:10], encoding="utf-8")  # killed while writing a line
    again = run(STRONG, 30, wanted=["Crown", "Ash"], out=out)
    assert again["played"] == 30 * 5 - (20 * 3 - 3)
    assert again["cards"] == whole["cards"] and again["findings"] == whole["findings"]
    assert run(STRONG, 30, wanted=["Crown", "Ash"], out=out)["played"] == 0
    with pytest.raises(EngineError, match="holds another run"):
        run(STRONG, 30, wanted=["Crown"], out=out, seed=2)
    simulated = tmp_path / "simulated.jsonl"
    simulate(STRONG, 2, 2, 1, STRONG.resolve_options({}, 2), out=simulated)
    with pytest.raises(EngineError, match="is not a run file of engine cards"):
        run(STRONG, 2, out=simulated)
    with pytest.raises(EngineError, match="a run of engine cards, not of simulate"):
        read_jsonl(out)  # engine report would mix its variants' games


def test_the_same_games_on_two_processes():
    one = run(STRONG, 20, wanted=["Crown"])
    two = run(STRONG, 20, wanted=["Crown"], jobs=2)
    assert one["cards"] == two["cards"]


def test_json_csv_and_html(tmp_path):
    proc = engine("cards", str(TOYS / "strong_card.yaml"), "--games", "30", "--seed", "1", "--card", "Crown",
                  "--card", "Ash", "--json", "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert {"ruleset", "players", "seats", "games", "seed", "options", "extensions", "played", "seconds",
            "seconds_per_game", "cards", "findings"} <= set(data)
    row = data["cards"][0]
    assert set(row) >= {"card", "kind", "use", "strength"}
    assert set(row["use"]) == {"games", "held", "played_per_game", "drawn_per_game", "came_up", "basis",
                               "win_share", "score"}
    assert set(row["strength"]) == {"games", "strength", "barred", "favoured", "barred_acted", "favoured_acted"}
    assert set(row["strength"]["strength"]) == {"diff", "half_width", "detectable"}
    buffer = io.StringIO()
    write_csv(run(STRONG, 30, wanted=["Crown", "Ash"]), buffer)
    rows = list(csv.DictReader(io.StringIO(buffer.getvalue())))
    assert [r["card"] for r in rows] == ["Crown", "Ash"] and float(rows[0]["strength"]) > 0
    pytest.importorskip("matplotlib")
    page = tmp_path / "cards.html"
    proc = engine("cards", str(TOYS / "strong_card.yaml"), "--games", "10", "--seed", "1", "--card", "Crown",
                  "--html", str(page), "--jobs", "1")
    assert proc.returncode == 0, proc.stderr
    assert "<img" in page.read_text(encoding="utf-8") and "Crown" in proc.stdout
    assert all(len(line) <= 80 for line in proc.stdout.splitlines())


def test_a_card_taken_out_in_memory_is_a_ruleset_of_its_own():
    without = load_ruleset(TOYS / "strong_card.yaml", remove=["Crown"])
    assert "Crown" not in {c.name for c in without.cards} and len(without.cards) == len(STRONG.cards) - 1
    assert without.digest != STRONG.digest
    assert WITHOUT == "without"


def test_ray_plays_the_same_games():
    pytest.importorskip("ray")
    on_ray = run(STRONG, 10, wanted=["Crown"], backend="ray", jobs=2)
    assert on_ray["cards"] == run(STRONG, 10, wanted=["Crown"])["cards"]


def test_a_card_is_named_as_every_screen_shows_it_and_as_it_may_be_typed():
    """By its label ("New York (40)"), in any case, with "inf" for "∞"; a kind as before."""
    assert select(TOR, ["New York (40)"]) == ["New York"]
    assert select(TOR, ["new york"]) == ["New York"]
    assert select(TOR, ["locomotive inf", "b&o 10"]) == ["B&O 10", "Locomotive ∞"]
    with pytest.raises(EngineError, match=r"--card York: no card or kind of card is named so"):
        select(TOR, ["York"])


def test_the_header_of_cards_taken_out_stays_apart_when_every_value_is_a_dash():
    """Without the 3 locomotive every game fails: no figure, and the header still reads as words."""
    text = render_text(run(TOR, 3, players=3, wanted=["Locomotive 3"]))
    header = next(line for line in text.splitlines() if line.startswith("card") and "came up" in line)
    assert header.split()[-5:] == ["up", "P1", "P2", "P3", "all"], header

"""Two people at one terminal: before each one's turn the screen is cleared and the keyboard
handed over, and nothing private to one of them is printed while the other may be looking."""
from __future__ import annotations

import io
import json

import pytest

from engine.game.game import Game
from engine.players.agents import CLEAR_SCREEN, HotSeat, QuitGame
from engine.rules.ruleset import load_ruleset

from conftest import labels
from test_cli import TINY, engine

# Four cards each and three rounds: a card is left in every hand when the game ends.
KEEPS_CARDS = TINY.replace("deal(deck, hand[p], 3)", "deal(deck, hand[p], 4)")


@pytest.fixture
def rules(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text(KEEPS_CARDS, encoding="utf-8")
    return path


def screens(stdout: str) -> list[str]:
    """What each person saw: the output cut where the screen is cleared."""
    return stdout.split(CLEAR_SCREEN)


def private(game: Game, player: int) -> list[str]:
    """The cards of `player`'s hand, which the other player may not see."""
    return labels(game, game.table.zones["hand"][player])


def test_each_person_sees_only_their_own_hand(rules, tmp_path):
    save = tmp_path / "g.json"
    proc = engine("play", rules, "--seats", "human,human", "--save", save, input="\n1\n\n2\n" * 3)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(save.read_text())
    game = Game(load_ruleset(rules), 2, None, data["seed"])
    turns = screens(proc.stdout)[1:-1]
    assert len(turns) == len(data["decisions"]) == 6
    for turn, decision in zip(turns, data["decisions"]):
        me = int(game.pending.player)
        assert turn.startswith(f"Pass to P{me} and press Enter (q to quit): \n")
        assert f"you are P{me} (human)" in turn
        assert all(card in turn for card in private(game, me))
        assert not any(card in turn for card in private(game, 3 - me)), turn
        game.apply(decision)


def test_the_final_screen_shows_no_hand(rules, tmp_path):
    save = tmp_path / "g.json"
    proc = engine("play", rules, "--seats", "human,human", "--save", save, input="\n1\n\n1\n" * 3)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(save.read_text())
    final = screens(proc.stdout)[-1]
    assert "Final scores" in final and "you are" not in final
    game = Game(load_ruleset(rules), 2, None, data["seed"], data["decisions"])
    left = private(game, 1) + private(game, 2)
    assert len(left) == 2 and not any(card in final for card in left), final
    assert "hand P1                1 face-down" in final


def test_one_person_sees_no_hand_off():
    """With one person at the terminal nothing changes: no screen cleared, no hand-off."""
    proc = engine("play", "tests/fixtures/tiny.yaml", "--seats", "human,random", "--seed", "4", input="1\n1\n1\n")
    assert proc.returncode == 0 and "Final scores" in proc.stdout
    assert "\033[" not in proc.stdout and "Pass to" not in proc.stdout


@pytest.mark.parametrize("feed", ["q\n", "", "\n1\nq\n", "\n1\n\nquit\n"])
def test_quitting_at_a_hand_off_or_a_prompt_clears_the_screen(rules, feed):
    proc = engine("play", rules, "--seats", "human,human", input=feed)
    assert proc.returncode == 0, proc.stderr
    last = screens(proc.stdout)[-1]
    assert last.startswith("\nGame stopped.") and "hand" not in last


def test_a_bot_between_two_people_does_not_stop_the_hand_off(tmp_path):
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    proc = engine("play", rules, "--players", "3", "--seats", "human,random,human", input="\n1\n\n1\n" * 3)
    assert proc.returncode == 0, proc.stderr
    handed = [s.split(" and", 1)[0] for s in screens(proc.stdout)[1:-1]]
    assert handed == ["Pass to P1", "Pass to P3"] * 2


def test_hand_to_clears_the_screen_only_between_two_people():
    out = io.StringIO()
    seat = HotSeat(io.StringIO("\n\n"), out)
    seat.hand_to(1)
    seat.hand_to(1)
    assert out.getvalue() == CLEAR_SCREEN + "Pass to P1 and press Enter (q to quit): "
    seat.hand_to(2)
    assert out.getvalue().count(CLEAR_SCREEN) == 2 and out.getvalue().endswith("Pass to P2 and press Enter (q to quit): ")


@pytest.mark.parametrize("typed", ["", "q\n", "Quit\n"])
def test_hand_to_quits_on_q_or_end_of_input(typed):
    with pytest.raises(QuitGame):
        HotSeat(io.StringIO(typed), io.StringIO()).hand_to(1)

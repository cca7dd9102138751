"""HumanAgent against a real Game, with io.StringIO for the terminal.

Bad lines get a message and change nothing; the valid choice is returned; q, EOF and Ctrl-C
quit; and what the person sees never shows the cards in another player's hand.
"""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from engine.game.game import Game
from engine.game.view import view
from engine.players.agents import HumanAgent, QuitGame
from engine.rules.ruleset import load_ruleset

from conftest import labels

ROOT = Path(__file__).resolve().parent.parent
TRICK = ROOT / "rulesets" / "trick_of_the_rails.yaml"

TINY = (ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def tiny_rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny") / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    return load_ruleset(path)


@pytest.fixture
def game(tiny_rules):
    return Game(tiny_rules, 2, None, seed=4)


def hand(game: Game, player: int) -> list[str]:
    return labels(game, game.table.zones["hand"][player])


def option(game: Game, index: int) -> str:
    return view(game, game.pending.player).decision["options"][index]


def shown_hand(game: Game, player: int) -> list[str]:
    """The player's hand in the order their screen shows it, which the options follow."""
    zone = next(z for z in view(game, player).zones() if z["name"] == "hand" and z["mine"])
    return [c["label"] for c in zone["cards"]]


def ask(game: Game, text: str) -> tuple[int | None, str, BaseException | None]:
    """Let a HumanAgent answer the pending decision from `text`; return (choice, output, quit)."""
    out = io.StringIO()
    agent = HumanAgent(io.StringIO(text), out)
    try:
        return agent.choose(view(game, game.pending.player)), out.getvalue(), None
    except QuitGame as exc:
        return None, out.getvalue(), exc


# ------------------------------------------------------------------ bad lines, then a good one


def test_invalid_lines_then_valid_choice(game):
    digest, decisions = game.digest(), list(game.decisions)
    choice, out, quit_ = ask(game, "abc\n\n0\n999\n-1\n  2  \n")
    assert quit_ is None
    assert option(game, choice) == shown_hand(game, 1)[1]
    assert game.digest() == digest and game.decisions == decisions
    assert "'abc' is not a number" in out
    assert "Please type" in out
    assert "0 is not an option" in out
    assert "999 is not an option" in out
    assert "-1" in out
    assert out.count("Choose 1-3") == 6
    chosen = shown_hand(game, 1)[1]
    game.apply(choice)
    assert chosen in labels(game, game.table.zones["pile"])


@pytest.mark.parametrize("line", ["abc", "", "   ", "0", "4", "999", "-1", "1.5", "+1", "one", "1 2", "#1",
                                  "\u00b2", "9" * 5000, "\u0661\u0662", "\x00", "\x1b[A"],
                         ids=["letters", "empty", "blank", "zero", "one-too-many", "999", "negative", "decimal",
                              "plus", "word", "two-numbers", "hash", "superscript", "5000-digits",
                              "arabic-indic-12", "nul", "arrow-key"])
def test_each_bad_line_gets_a_message_and_changes_nothing(game, line):
    digest = game.digest()
    try:
        choice, out, quit_ = ask(game, line + "\n3\n")
    except Exception as exc:  # a crash here is a traceback at the terminal
        pytest.fail(f"{line[:20]!r} made HumanAgent raise {exc.__class__.__name__}: {str(exc)[:200]}")
    assert quit_ is None
    assert option(game, choice) == shown_hand(game, 1)[2]
    assert game.digest() == digest
    after_prompt = out.split("Choose 1-3 (? for help): ", 2)
    assert len(after_prompt) == 3, "the bad line must be answered and the question asked again"
    assert after_prompt[1].strip(), "no message after the bad line"


@pytest.mark.parametrize("text", ["q\n", "Q\n", "quit\n", "exit\n", " q \n", "abc\nq\n", ""])
def test_quit_and_eof(game, text):
    digest = game.digest()
    choice, _, quit_ = ask(game, text)
    assert isinstance(quit_, QuitGame) and choice is None
    assert game.digest() == digest


def test_ctrl_c_quits(game):
    class Interrupting(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    digest = game.digest()
    with pytest.raises(QuitGame):
        HumanAgent(Interrupting(), io.StringIO()).choose(view(game, game.pending.player))
    assert game.digest() == digest


def test_options_are_listed_with_numbers(game):
    _, out, _ = ask(game, "1\n")
    for i, text in enumerate(shown_hand(game, 1), 1):
        assert re.search(rf"^\s*{i}\. {re.escape(text)}$", out, re.M), out


def test_options_follow_the_order_of_the_hand_shown():
    """Trick of the Rails offers the cards of a hand in the order they were dealt; the hand is
    shown sorted, and so are the options, each number still choosing its card."""
    rules = load_ruleset(TRICK)
    game = Game(rules, 3, rules.resolve_options({}, 3), seed=21)
    while len(view(game, game.pending.player).decision["options"]) < 5:
        game.apply(0)
    me = game.pending.player
    offered = view(game, me).decision["options"]
    shown = shown_hand(game, me)
    assert offered != sorted(offered, key=shown.index), "a seed whose options come unsorted"
    for k in (1, 3, len(offered)):
        choice, out, _ = ask(game, f"{k}\n")
        assert offered[choice] == shown[k - 1]
        assert re.search(rf"^\s*1\. {re.escape(shown[0])}\b", out, re.M), out


# ------------------------------------------------------------------ what the person sees


@pytest.mark.parametrize("players", [2, 3])
def test_view_shows_own_hand_never_other_hands(tiny_rules, players):
    game = Game(tiny_rules, players, None, seed=11)
    while not game.over:
        me = game.pending.player
        mine = hand(game, me)
        others = [label for p in game.players if p != me for label in hand(game, p)]
        hidden_deck = labels(game, game.table.zones["deck"])
        choice, out, _ = ask(game, "1\n")
        hand_line = next(line for line in out.splitlines() if line.strip().startswith(f"hand P{int(me)}"))
        for label in mine:
            assert label in hand_line, f"P{int(me)} does not see their own {label}:\n{out}"
        for label in others + hidden_deck:
            assert label not in out, f"P{int(me)} sees {label}, which is not theirs:\n{out}"
        game.apply(choice)


def _mentions(text: str, label: str) -> bool:
    """Whole-label match: 'B&O 1' must not match inside 'B&O 10'."""
    return re.search(rf"(?<![\w&]){re.escape(label)}(?![\w])", text) is not None


@pytest.mark.parametrize("players", [3, 5])
def test_trick_of_the_rails_view_hides_other_hands(players):
    rules = load_ruleset(TRICK)
    game = Game(rules, players, rules.resolve_options({}, players), seed=21)
    checked = 0
    while not game.over and checked < 25:
        me = game.pending.player
        mine = hand(game, me)
        others = [label for p in game.players if p != me for label in hand(game, p)]
        choice, out, _ = ask(game, "1\n")
        for label in mine:
            assert _mentions(out, label), f"P{int(me)} does not see their own {label}"
        leaked = [label for label in others if _mentions(out, label)]
        assert not leaked, f"P{int(me)} sees other players' cards {leaked}:\n{out}"
        game.apply(choice)
        checked += 1
    assert checked == 25


def test_the_final_screen_shows_the_table_and_waits_for_nobody_whose_input_is_not_a_terminal():
    rules = load_ruleset(TRICK)
    game = Game(rules, 3, None, seed=1)
    while not game.over:
        game.apply(0)
    stdin, out = io.StringIO("t\nlog\n"), io.StringIO()
    HumanAgent(stdin, out).final(view(game, 1), ["Final scores: (the results)"])
    text = out.getvalue()
    assert stdin.tell() == 0 and "Game over:" not in text  # nothing read, no end prompt
    assert "-- the table at the end --" in text and text.rstrip().endswith("Final scores: (the results)")
    for company in ("B&O", "C&O", "ERIE", "NYC", "PRR"):  # what a share's value is counted from
        assert f"railway {company}:" in text and f"locomotive {company}:" in text
    assert "hand P1" not in text  # an empty hand of one's own says nothing at the end


SYMBOLS = """\
game: {name: Symbols, players: [2]}
card_kinds:
  engine:
    zone: yard
    label: "{name}"
cards:
  - {kind: engine, name: "Locomotive ∞"}
  - {kind: engine, name: "Café × 2"}
  - {kind: engine, name: "Tender"}
zones:
  yard: {}
flow: |
  let c = choose(1, yard, "Take one")
scoring:
  score: 0
"""


@pytest.mark.parametrize("typed, label", [("i locomotive inf", "Locomotive ∞"), ("i LOCOMOTIVE ∞", "Locomotive ∞"),
                                          ("i cafe x 2", "Café × 2"), ("i tender", "Tender")])
def test_a_card_is_named_in_any_case_and_with_a_stand_in_for_a_symbol(tmp_path, typed, label):
    path = tmp_path / "symbols.yaml"
    path.write_text(SYMBOLS, encoding="utf-8")
    game = Game(load_ruleset(path), 2, seed=1)
    choice, out, _ = ask(game, f"{typed}\n1\n")
    assert choice is not None and "No card you can see" not in out
    assert f"{label}\n  kind:                 engine\n" in out, out

"""Taking back a decision at the terminal: back to the person's previous decision, unless a
card they could not see was shown to them since, or another person decided in between."""
from __future__ import annotations

import io

import pytest

from engine import Game, load_ruleset
from engine.game.view import view
from engine.players.agents import HumanAgent, RandomAgent
from engine.players.loop import play
from engine.players.undo import TakeBack, UndoHistory

from test_cli import engine

# No shuffle: P1 holds Ace and Bell, P2 Cask and Drum; Echo and Fern stay in the bag.
PAIRS = """\
game:
  name: Pairs
  players: [2]
card_kinds:
  tile: {zone: bag, label: "{name}", properties: {value: integer}}
cards:
  - {kind: tile, name: Ace, value: 1}
  - {kind: tile, name: Bell, value: 2}
  - {kind: tile, name: Cask, value: 3}
  - {kind: tile, name: Drum, value: 4}
  - {kind: tile, name: Echo, value: 5}
  - {kind: tile, name: Fern, value: 6}
zones:
  bag: {visibility: hidden}
  hand: {per: player, visibility: owner}
  table: {}
counters:
  points: {per: player, initial: 0}
setup: |
  for p in players:
      deal(bag, hand[p], 2)
flow: |
  repeat 2:
      for p in players:
          let t = choose(p, hand[p], "Pick a tile")
          let how = choose(p, ["double", "single"], "How?")
          points[p] += t.value * (2 if how == "double" else 1)
          move(t, table)
          log(p, " lays ", t)
          if count(bag) > 0:
              deal(bag, hand[p], 1)
scoring:
  score: points[player]
"""


@pytest.fixture
def pairs(tmp_path):
    path = tmp_path / "pairs.yaml"
    path.write_text(PAIRS, encoding="utf-8")
    return path


class Script:
    """A person who answers from a list: an option index, or "u" to ask for an undo."""

    def __init__(self, answers: list):
        self.answers = list(answers)
        self.replies: list[str] = []
        self.asked: list[str] = []

    def choose(self, pv) -> int:
        self.asked.append(pv.decision["prompt"])
        answer = self.answers.pop(0)
        if answer == "u":
            raise TakeBack(self.replies.append)
        return answer


def test_undo_goes_back_to_the_previous_decision(pairs):
    me = Script([0, "u", 1, 0, 1, 0])  # Ace, then undo at How?, then Bell
    game = Game(load_ruleset(pairs), 2, seed=1)
    play(game, [me, RandomAgent(1)], undo=UndoHistory({1}))
    assert me.replies == ["Took back your last decision."]
    assert me.asked[:3] == ["Pick a tile", "How?", "Pick a tile"]
    assert game.decisions[0] == 1, "the decision taken back is not in the game"
    assert game.log[0].parts[2][0].name == "Bell"


def test_undo_refused_after_new_cards_were_seen(pairs):
    me = Script([0, 0, "u", 0, 0, 0, 0])
    game = Game(load_ruleset(pairs), 2, seed=1)
    play(game, [me, RandomAgent(2)], undo=UndoHistory({1}))
    refusal, = me.replies
    assert refusal.startswith("Undo refused: since your last decision you have seen ")
    assert "Echo" in refusal, "the tile P1 drew"
    shown = refusal.split(" have seen ")[1].split(", which")[0].split(", ")
    assert set(shown) <= {"Echo", "Cask", "Drum"} and len(shown) == 2
    assert len(game.decisions) == 8


def test_undo_refused_after_a_card_was_named_in_a_text(pairs):
    """A card's label in a text counts as the card: P1 glimpses the top of the bag, which is
    shuffled at once, so only the log line told them."""
    glimpse = ("          if count(bag) > 0:\n"
               "              reveal(first(bag), p)\n"
               "              log(p, \" glimpses \", text(first(bag)))\n"
               "              shuffle(bag)\n")
    pairs.write_text(PAIRS.replace("          let how = choose", glimpse + "          let how = choose"),
                     encoding="utf-8")
    me = Script([0, "u", 0, 0, 0, 0, 0])
    game = Game(load_ruleset(pairs), 2, seed=1)
    play(game, [me, RandomAgent(2)], undo=UndoHistory({1}))
    refusal, = me.replies
    assert refusal.startswith("Undo refused: since your last decision you have seen ")
    assert refusal.split(" have seen ")[1].split(", which")[0] in {"Echo", "Fern"}


def test_undo_with_nothing_to_take_back(pairs):
    me = Script(["u", 0, 0, 0, 0])
    game = Game(load_ruleset(pairs), 2, seed=1)
    play(game, [me, RandomAgent(3)], undo=UndoHistory({1}))
    assert me.replies == ["There is no decision of yours to take back yet."]


def test_undo_never_takes_back_another_persons_decision(pairs):
    one, two = Script([0, 0, "u", 0, 0]), Script([0, 0, 0, 0])
    game = Game(load_ruleset(pairs), 2, seed=1)
    play(game, [one, two], undo=UndoHistory({1, 2}))
    assert one.replies == ["Undo refused: it would also take back the decision of P2."]


def test_without_history_undo_is_not_available(pairs):
    me = Script(["u", 0, 0, 0, 0])
    play(Game(load_ruleset(pairs), 2, seed=1), [me, RandomAgent(3)])
    assert me.replies == ["Undo is not available here."]


def test_the_terminal_asks_for_undo_with_u(pairs):
    out = io.StringIO()
    agent = HumanAgent(io.StringIO("u\n"), out)
    game = Game(load_ruleset(pairs), 2, seed=1)
    with pytest.raises(TakeBack):
        agent.choose(view(game, 1))
    assert "? for help" in out.getvalue()


def test_undo_at_the_terminal(pairs):
    proc = engine("play", pairs, "--seats", "human,random", "--seed", "1", input="1\nu\n2\n1\n1\n1\n1\n1\n")
    assert proc.returncode == 0, proc.stderr
    assert "Took back your last decision." in proc.stdout
    after = proc.stdout.split("Took back your last decision.")[1]
    assert after.index("P1 (human) lays Bell") < after.index("P1 (human) lays Ace"), "Bell now, Ace next round"


def test_the_history_keeps_few_copies_and_puts_back_any_mark_exactly():
    """A long game keeps a copy of its first mark and of its last few only (not one a decision);
    any older mark is reached again by taking the decisions after the first one again."""
    import random

    from conftest import ruleset
    from engine.players.undo import KEPT_COPIES
    game = Game(ruleset("trick_of_the_rails"), 3, seed=4)
    history = UndoHistory({1, 2, 3})
    rng, digests = random.Random(4), []
    while not game.over and len(digests) < 80:
        history.mark(game)
        digests.append((len(game.decisions), game.digest()))
        game.apply(rng.randrange(len(game.pending.options)))
    n = len(history.marks)
    assert n == len(digests) > 3 * KEPT_COPIES
    assert sum(m.game is not None for m in history.marks) == KEPT_COPIES + 1 and history.marks[0].game is not None
    for i in (0, 1, n // 2, n - KEPT_COPIES - 1, n - 1):  # from the first copy, replayed, and from one of its own
        again = game.clone()
        history._put_back(again, history.marks[i])
        assert (len(again.decisions), again.digest()) == digests[i]

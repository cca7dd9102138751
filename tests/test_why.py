"""`why NAME` at the prompt: the rule that leaves a thing out of a person's options, with the
values it read (game/why.py, PlayerView.why), on each shipped ruleset; it tells nothing the
person may not see, and changes nothing in the game."""
from __future__ import annotations

import io
import random
import re
from pathlib import Path
from typing import Callable, Iterator

import pytest

from engine.game.game import Game
from engine.game.view import sees, view
from engine.game.why import HIDDEN
from engine.players.agents import HumanAgent
from engine.rules.ruleset import load_ruleset

from test_cli import engine

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = {"trick_of_the_rails": 4, "railways": 3, "isle_of_trains": 3, "trainsilvania": 4}


def positions(name: str, seeds: range = range(1, 9), steps: int = 400) -> Iterator[Game]:
    """Every decision of a few games of random play (the same games every run)."""
    ruleset = load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    n = PLAYERS[name]
    for seed in seeds:
        game = Game(ruleset, n, ruleset.resolve_options({}, n), seed)
        rng = random.Random(seed)
        for _ in range(steps):
            if game.over:
                break
            yield game
            game.apply(rng.randrange(len(game.pending.options)))


def own_cards_left_out(game: Game) -> list[str]:
    """The labels of the cards in the decider's own zones that are not among their options."""
    pv = view(game, game.pending.player, person=True)
    options = set(pv.decision["options"])
    return [c["label"] for z in pv.zones() if z["mine"] for c in z["cards"]
            if "label" in c and c["label"] not in options]


def first_answer(name: str, prompt: str, asked: Callable[[Game], list[str]], wanted: str) -> tuple[Game, str, str]:
    """The first position whose prompt holds `prompt` where asking why of one of `asked` gives
    an answer holding `wanted`: (game, what was asked, the answer)."""
    for game in positions(name):
        pv = view(game, game.pending.player, person=True)
        if prompt not in pv.decision["prompt"]:
            continue
        for what in asked(game):
            answer = "\n".join(pv.why(what))
            if wanted in answer:
                return game, what, answer
    raise AssertionError(f"no answer holding {wanted!r} in {name}")


def test_trick_of_the_rails_a_card_that_does_not_follow_the_led_company():
    game, what, answer = first_answer("trick_of_the_rails", "Play a card to the trick", own_cards_left_out,
                                      "c.company == led is no")
    card = next(c for c in game.table.cards if c.label == what)
    led = game.frames[-1].env["led"]
    assert card.props["company"] != led
    assert f"'{what}' is not offered" in answer
    assert f"count(follow) > 0 is yes" in answer  # they hold a card of the led company
    assert f"c.company == led is no: c.company is {card.props['company']}, led is {led}" in answer


def test_isle_of_trains_a_card_too_expensive_to_build():
    game, what, answer = first_answer("isle_of_trains", "Build:", own_cards_left_out, "means(p, c) >= price(")
    means, price = map(int, re.search(r"means\(p, c\) is (\d+), price\(p, c, target, drop\) is (\d+)", answer).groups())
    assert means < price
    card = next(c for c in game.table.cards if c.label == what)
    assert price >= card.props["cost"] - 1  # an upgrade costs less by what it replaces, at most
    assert f"{what} is left out by: if count(build_targets(p, c)) > 0" in answer


def test_isle_of_trains_an_action_that_cannot_be_done():
    _, _, answer = first_answer("isle_of_trains", "Action", lambda g: ["Deliver"], "can_deliver(p) is no")
    assert "Deliver is left out by: if action_possible(p, a, bonus)" in answer
    assert "goods_on_train(p) > 0 is no: goods_on_train(p) is 0" in answer


def test_railways_an_action_the_player_has_nothing_for():
    _, _, answer = first_answer("railways", "your action", lambda g: ["deliver goods"], "count(offers) > 0")
    assert "menu = action_menu(p)" in answer
    assert "it is added only if count(offers) > 0" in answer
    assert "count(offers) > 0 is no: count(offers) is 0" in answer


def test_trainsilvania_an_action_that_is_not_allowed():
    exit_ = "exit (one of your seats gets off the Night Express)"
    _, _, answer = first_answer("trainsilvania", "action", lambda g: [exit_], "can_do(p, a, used) is no")
    assert f"{exit_} is left out by: if can_do(p, a, used)" in answer
    assert "count(own_on_train(p, used)) > 0 is no: count(own_on_train(p, used)) is 0" in answer \
        or HIDDEN in answer


def test_an_option_is_offered_and_a_stranger_is_not_among_them():
    game = next(positions("trick_of_the_rails"))
    pv = view(game, game.pending.player, person=True)
    assert pv.why(pv.decision["options"][0]) == [f"{pv.decision['options'][0]} is offered: it is one of your options."]
    answer = pv.why("zeppelin")
    assert answer[0] == "'zeppelin' is not among this decision's options, which are:"
    assert not view(game, game.pending.player % 4 + 1, person=True).why("zeppelin")[0].startswith("'")


def test_why_changes_nothing_in_the_game():
    for i, game in enumerate(positions("isle_of_trains", range(1, 3), 120)):
        if i % 10:
            continue
        before = game.digest()
        for what in own_cards_left_out(game) + ["Load", "Deliver"]:
            view(game, game.pending.player, person=True).why(what)
        assert game.digest() == before


def test_why_says_no_card_the_person_cannot_see():
    """Asked of every card the decider sees and of every action, across games of the rulesets
    with hidden cards, no answer names a card hidden from them; some answers say a rule reads
    what they cannot see (so the check is not empty)."""
    hidden_said = 0
    for name, words in (("trick_of_the_rails", []), ("trainsilvania", [
            "exit (one of your seats gets off the Night Express)", "move a seat on the Night Express to the front",
            "enter (one of your seats boards the Night Express)"]), ("isle_of_trains", ["Load", "Deliver", "Build"])):
        for i, game in enumerate(positions(name, range(1, 4), 200)):
            if i % 3:
                continue
            player, table = game.pending.player, game.table
            pv = view(game, player, person=True)
            seen = {c.label for c in table.cards if sees(table, c, player, True)}
            unseen = {c.label for c in table.cards if not sees(table, c, player, True)} - seen
            asked = sorted(seen) + words
            for what in asked[:12]:
                answer = "\n".join(pv.why(what))
                hidden_said += HIDDEN in answer
                leaked = [label for label in unseen if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", answer)]
                assert not leaked, (name, what, answer, leaked)
    assert hidden_said > 0


def test_why_at_the_prompt():
    game = next(g for g in positions("trick_of_the_rails")
                if own_cards_left_out(g) and "Play a card" in view(g, g.pending.player).decision["prompt"])
    card = own_cards_left_out(game)[0]
    out = io.StringIO()
    agent = HumanAgent(io.StringIO(f"why {card}\nwhy 1\nwhy\n1\n"), out)
    agent.choose(view(game, game.pending.player))
    text = out.getvalue()
    assert f"'{card}' is not offered" in text and "c.company == led is no" in text
    assert "is offered: type 1 to choose it." in text
    assert "Say what: why and a card's name" in text


TOP_OF_DECK = """\
flow: |
  repeat 3:
      for p in players:
          let top = first(deck)
          let lower = [x for x in hand[p] if x.value < top.value]
          let c = choose(p, lower if count(lower) > 1 else hand[p], "Play a card")
          move(c, pile)
"""


@pytest.mark.parametrize("lower", [None, "[x for t in [top] for x in hand[p] if x.value < t.value]",
                                   "[x for x in hand[p] for t in [top] if x.value < t.value]"],
                         ids=["one for", "hidden first", "hidden second"])
def test_a_rule_that_reads_a_hidden_card_is_not_told(tmp_path, lower):
    """Options filtered by the face-down top card of the deck: why names the rule, never the
    card nor its value (through any `for` of a comprehension), nor a value a local worked out
    from it (`count(lower)`: had it said 0 or 1, it would tell where the top card's value lies)."""
    tiny = (ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8")
    path = tmp_path / "top.yaml"
    flow = TOP_OF_DECK if lower is None else \
        TOP_OF_DECK.replace("[x for x in hand[p] if x.value < top.value]", lower)
    assert flow != TOP_OF_DECK or lower is None
    path.write_text(tiny[:tiny.index("flow:")] + flow + tiny[tiny.index("scoring:"):], encoding="utf-8")
    ruleset = load_ruleset(path)
    told = 0
    for seed in range(1, 30):
        game = Game(ruleset, 2, ruleset.resolve_options({}, 2), seed)
        pv = view(game, 1, person=True)
        top = game.frames[-1].env["top"]  # the referee's look, to know what must not be told
        assert not sees(game.table, top, 1, True)
        hand = [c["label"] for z in pv.zones() if z["mine"] for c in z["cards"]]
        for label in hand:
            answer = "\n".join(pv.why(label))
            assert top.label not in answer and f"top.value is {top.props['value']}" not in answer, answer
            # Nor what a local worked out from it says: how many of the hand are below the top card.
            assert "count(lower) is" not in answer, answer
            told += HIDDEN in answer
    assert told > 0


def test_the_guide_shows_what_why_answers():
    """docs/guide.md's `why red 2` is what the command answers."""
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    block = re.search(r"```text\nChoose 1-3 \(\? for help\): why red 2\n(.*?)```", guide, flags=re.S).group(1)
    proc = engine("play", ROOT / "examples" / "guide" / "step3_turns_and_choices.yaml", "--players", "2",
                  "--seats", "human,random", "--seed", "3", input="why red 2\nq\n\n")
    answer = proc.stdout.split("Choose 1-3 (? for help): ", 1)[1].split("Choose 1-3", 1)[0]
    assert answer == block


def test_why_is_told_in_the_words_of_a_rule_with_a_description(tmp_path):
    """A function's `description` follows its call, so the answer says the rulebook's reason."""
    tiny = (ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8")
    flow = """\
functions:
  playable:
    params: [c]
    description: A card may be played only if it is worth less than 6.
    expr: c.value < 6
flow: |
  repeat 3:
      for p in players:
          let c = choose(p, [x for x in hand[p] if playable(x)] if any(playable(x) for x in hand[p]) else hand[p], "Play a card")
          move(c, pile)
"""
    path = tmp_path / "described.yaml"
    path.write_text(tiny[:tiny.index("flow:")] + flow + tiny[tiny.index("scoring:"):], encoding="utf-8")
    ruleset = load_ruleset(path)
    for seed in range(1, 30):
        game = Game(ruleset, 2, ruleset.resolve_options({}, 2), seed)
        pv = view(game, 1, person=True)
        hand = [c for c in game.table.cards_in(game.table.zones["hand"][1])]
        if any(c.props["value"] < 6 for c in hand) and any(c.props["value"] >= 6 for c in hand):
            big = next(c for c in hand if c.props["value"] >= 6)
            answer = pv.why(big.label.upper())  # as typed: any case
            assert f"  {big.label} is left out by: if playable(x)" in answer, answer
            at = answer.index("    playable(x) is no, since")
            assert answer[at + 1] == "      (A card may be played only if it is worth less than 6.)"
            return
    raise AssertionError("no hand with both kinds of card")

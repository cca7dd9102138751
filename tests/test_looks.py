"""What a bot may know of a card it cannot see: exactly what its player's view shows, its back.

Cards of several kinds that share a back look alike face down, so the worlds a bot imagines
deal them among each other (Isle of Trains: every train card has one back, and a hand or the
draw pile holds engines, cars and buildings); a ruleset says what differs (`back: [kind]`:
a goods cube is not an event card), and `engine validate` notes kinds that look alike when
none of them says what its back shows.
"""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import RulesetError
from engine.game import belief
from engine.game.game import Game
from engine.game.trial import alike_notes
from engine.game.view import view
from engine.players.scout import ScoutAgent
from engine.players.search import GreedyAgent, MctsAgent
from engine.rules.ruleset import load_ruleset

from conftest import ROOT, RULESETS, swap, unseen_pairs
from test_noninterference import public, told

ISLE = load_ruleset(ROOT / "rulesets" / "isle_of_trains.yaml")
SHIPPED = [ROOT / p for p in ("examples/kite_day/kite_day.yaml", "examples/lamplighters/lamplighters.yaml")] + RULESETS
BOTS = {"greedy": lambda: GreedyAgent(9), "mcts": lambda: MctsAgent(9, iterations=12, depth=6),
        "scout": lambda: ScoutAgent(9, lines=8, worlds=3)}


def kinds_of(game: Game, zone) -> list[str]:
    return [c.kind for c in game.table.cards_in(zone)]


def test_isle_of_trains_worlds_deal_the_draw_pile_and_hands_across_kinds():
    """3 players, after 12 decisions, from seat 3: the draw pile and the others' hands hold
    engines, cars, cabooses and buildings that P3's screen shows as face-down cards alike."""
    belief.forget()
    game = Game(ISLE, 3, ISLE.resolve_options({}, 3), seed=5)
    rng = random.Random(1)
    while len(game.decisions) < 12:
        game.apply(rng.randrange(len(game.legal_actions())))
    deck, hands = game.table.zones["deck"], game.table.zones["hand"]
    assert len({c.kind for c in game.table.cards_in(deck)}) > 1, "a draw pile of one kind: the test could not fail"
    same_pile = same_hands = 0
    for seed in range(10):
        world = view(game, 3).world(seed)
        assert view(world, 3).as_dict() == view(game, 3).as_dict()
        same_pile += kinds_of(world, deck) == kinds_of(game, deck)
        same_hands += all(Counter(kinds_of(world, hands[p])) == Counter(kinds_of(game, hands[p])) for p in (1, 2))
    assert same_pile == 0 and same_hands < 5, (same_pile, same_hands)


def isle_position_with_two_kinds(players: int) -> tuple[Game, tuple]:
    """A decision with options, and two cards of different kinds the decider never saw."""
    for seed in range(20):
        game = Game(ISLE, players, ISLE.resolve_options({}, players), seed=seed, keep_log=True)
        rng = random.Random(seed)
        for _ in range(6):
            game.apply(rng.randrange(len(game.legal_actions())))
        if len(game.legal_actions()) > 1:
            pairs = [(a, b) for a, b in unseen_pairs(game, game.current_player) if a.kind != b.kind]
            if pairs:
                return game, pairs[0]
    raise AssertionError("no position with two unseen cards of two kinds")


@pytest.mark.parametrize("players", ISLE.players)
def test_two_unseen_cards_of_different_kinds_swapped_change_no_view_nor_world(players):
    game, (a, b) = isle_position_with_two_kinds(players)
    seat = game.current_player
    swapped = game.clone()
    swap(swapped, a, b)
    assert swapped.digest() != game.digest()
    for p in game.players:
        if not any(g.table.can_see(c, p) for g in (game, swapped) for c in (a, b)):
            assert told(swapped, p) == told(game, p), (p, a, b)
    for seed in (1, 2):
        worlds = [view(g, seat).world(seed) for g in (game, swapped)]
        assert public(worlds[0], {}) == public(worlds[1], {}), (a, b)


@pytest.mark.parametrize("kind", sorted(BOTS))
def test_a_bot_decides_the_same_when_unseen_cards_of_different_kinds_are_swapped(kind):
    game, (a, b) = isle_position_with_two_kinds(3)
    swapped = game.clone()
    swap(swapped, a, b)
    one, other = BOTS[kind](), BOTS[kind]()
    for _ in range(3):
        me = game.current_player
        pick = one.choose(view(game, me))
        assert other.choose(view(swapped, me)) == pick, (a, b)
        game.apply(pick)
        swapped.apply(pick)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_in_every_shipped_game_cards_that_look_alike_are_meant_to(path):
    """Each shipped ruleset says what its backs show where kinds share a hidden place: no
    note, and a goods cube (Railways) or a seat token (Trainsilvania) is never dealt where
    only a card of another kind could be."""
    rules = load_ruleset(path)
    assert alike_notes(rules) == []
    for players in rules.players:
        game = Game(rules, players, rules.resolve_options({}, players), seed=3)
        for p in game.players:
            for group in game.hidden(p):
                kinds = {c.kind for c in group}
                assert len(kinds) == 1 or kinds <= rules.backs_declared, (path.stem, kinds)
                assert len({c.look for c in group}) == 1


def test_railways_backs_show_what_a_card_is():
    rules = load_ruleset(ROOT / "rulesets" / "railways.yaml")
    game = Game(rules, 3, rules.resolve_options({}, 3), seed=1)
    backs = {c.kind: c.look for c in game.table.cards}
    assert len({backs["cube"], backs["event"], backs["operation"]}) == 3
    shown = [card for z in view(game, 1).as_dict()["zones"] for card in z["cards"] if card.get("hidden")]
    assert {card.get("kind") for card in shown} >= {"cube", "operation"}


KINDS = """\
game: {name: Backs, players: [2]}
card_kinds:
  coin:
    zone: deck
    properties: {value: integer}
{coin_back}  gem:
    zone: deck
    properties: {value: integer, colour: string}
{gem_back}cards:
  - {kind: coin, value: 1, count: 3}
  - {kind: gem, value: 5, colour: red, count: 3}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
setup: |
  shuffle(deck)
  for p in players:
      deal(deck, hand[p], 2)
flow: |
  for p in players:
      let c = choose(p, hand[p], "Keep a card")
      log(text(p) + " keeps " + text(c))
scoring:
  score: "0"
"""


def write(tmp_path: Path, coin_back: str = "", gem_back: str = "") -> Path:
    path = tmp_path / "backs.yaml"
    path.write_text(KINDS.replace("{coin_back}", coin_back).replace("{gem_back}", gem_back))
    return path


def test_validate_notes_kinds_that_look_alike_where_no_kind_says_what_its_back_shows(tmp_path, capsys):
    path = write(tmp_path)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{path}:3:3: note: cards of the kinds coin, gem look alike face down"), out
    assert "in deck, hand" in out[0] and "`back: [kind]`" in out[0] and "`back: []`" in out[0]
    assert out[1] == f"{path}: ok (Backs, 6 cards, 2 players)"
    for declared in ({"coin_back": "    back: []\n"}, {"gem_back": "    back: [kind]\n"}):
        assert main(["validate", str(write(tmp_path, **declared))]) == 0
        assert capsys.readouterr().out.splitlines() == [f"{path}: ok (Backs, 6 cards, 2 players)"]


def test_a_back_that_shows_the_kind_is_shown_and_keeps_the_kinds_apart(tmp_path):
    rules = load_ruleset(write(tmp_path, coin_back="    back: [kind]\n", gem_back="    back: [colour, kind]\n"))
    game = Game(rules, 2, seed=4)
    hand2 = view(game, 1).as_dict()["zones"]
    theirs = next(z for z in hand2 if z["label"] == "hand P2")["cards"]
    assert Counter(frozenset(card.items()) for card in theirs) == Counter(
        frozenset({"hidden": True, "kind": c.kind, **({"colour": "red"} if c.kind == "gem" else {})}.items())
        for c in game.table.cards_in(game.table.zones["hand"][2]))
    assert {len(group) and group[0].kind for group in game.hidden(1)} == {"coin", "gem"}
    assert all(len({c.kind for c in group}) == 1 for group in game.hidden(1))
    game.apply(0)
    line = view(game, 2).log()[-1]
    assert line in ("P1 keeps a face-down coin", "P1 keeps a face-down red gem"), line


def test_a_back_naming_no_property_is_an_error_with_a_suggestion(tmp_path):
    with pytest.raises(RulesetError) as error:
        load_ruleset(write(tmp_path, gem_back="    back: [color]\n"))
    message = str(error.value)
    assert "'color' is not a property of gem (did you mean 'colour'?)" in message
    assert "`kind` (the kind's name)" in message

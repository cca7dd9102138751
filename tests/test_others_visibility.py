"""Zone visibility `others`: every player but the zone's owner sees its cards (a hand held facing
away). The view, the log, the terminal, worlds and `engine info` follow it; seat 0 (no seat)
sees none of it; a card shown to its owner with reveal is theirs to remember; a zone without an
owner cannot have it. A card of your own you may not see, in a hand you hold, is named by its
place ("your card 2") in your options, prompt, table and web page; never in the log."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import RulesetError
from engine.core.table import Player
from engine.game.game import Game
from engine.game.view import render, view
from engine.rules.ruleset import load_ruleset

FACING_AWAY = textwrap.dedent("""\
    game: {name: Facing Away, players: [3]}
    card_kinds:
      tile:
        zone: deck
        label: "{colour} {rank}"
        properties: {colour: string, rank: integer}
    zones:
      deck: {visibility: hidden}
      hand: {per: player, visibility: others}
      table: {}
    cards:
      - table: {kind: tile, for_each: {colour: [red, blue, green], rank: [1, 2, 3]}}
    setup: |
      shuffle(deck)
      for p in players:
          deal(deck, hand[p], 2)
      log("P1 holds ", first(hand[1]))
    flow: |
      let c = choose(1, ["peek", "play"], "Peek at your first card, or play it?")
      if c == "peek":
          reveal(first(hand[1]), 1)
      else:
          move(first(hand[1]), table)
    scoring:
      score: count(table)
    """)


def written(tmp_path: Path, text: str = FACING_AWAY) -> Path:
    path = tmp_path / "facing_away.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def rules(tmp_path):
    return load_ruleset(written(tmp_path))


def hands_seen(game: Game, player: int | None) -> dict[str, list[str]]:
    """Each hand as `player` sees it: labels, or "?" for a card shown by its back."""
    return {z["label"]: ["?" if c.get("hidden") else c["label"] for c in z["cards"]]
            for z in view(game, player).zones() if z["name"] == "hand"}


def test_every_player_sees_every_hand_but_their_own(rules):
    game = Game(rules, 3, seed=1)
    hands = hands_seen(game, None)
    assert all("?" not in cards for cards in hands.values())
    for me in (1, 2, 3):
        seen = hands_seen(game, me)
        for label, cards in seen.items():
            assert cards == (["?", "?"] if label == f"hand P{me}" else hands[label])
    assert all(cards == ["?", "?"] for cards in hands_seen(game, 0).values()), "no seat sees only what is public"


def test_the_log_hides_a_card_from_its_holder_only(rules):
    game = Game(rules, 3, seed=1)
    held = game.table.cards_in(game.table.zones["hand"][Player(1)])[0]
    assert view(game, 1).log() == ["P1 holds a face-down card"]
    assert view(game, 2).log() == view(game, 3).log() == [f"P1 holds {held.label}"]


def test_a_card_shown_to_its_holder_is_theirs_to_remember(rules):
    game = Game(rules, 3, seed=1)
    game.apply(0)  # peek
    assert hands_seen(game, 1)["hand P1"][0] != "?" and hands_seen(game, 1)["hand P1"][1] == "?"


def test_the_terminal_shows_the_hands_of_the_others(rules):
    game = Game(rules, 3, seed=1)
    hands = {p: game.table.cards_in(game.table.zones["hand"][Player(p)]) for p in (1, 2, 3)}
    screen = render(view(game, 2).for_person())
    assert all(c.label in screen for p in (1, 3) for c in hands[p])
    assert not any(c.label in screen for c in hands[2])


def test_worlds_deal_again_only_the_own_hand_and_the_deck(rules):
    game = Game(rules, 3, seed=1)
    others = {p: list(game.table.cards_in(game.table.zones["hand"][Player(p)])) for p in (2, 3)}
    own = set()
    for seed in range(30):
        world = view(game, 1).world(seed)
        assert view(world, 1).as_dict() == view(game, 1).as_dict()
        assert all(world.table.cards_in(world.table.zones["hand"][Player(p)]) == others[p] for p in (2, 3))
        own |= set(world.table.cards_in(world.table.zones["hand"][Player(1)]))
    assert len(own) > 2, "the hidden hand was never dealt again: the test could not fail"


def test_a_zone_without_an_owner_cannot_be_others(tmp_path):
    path = written(tmp_path, FACING_AWAY.replace("table: {}", "table: {visibility: others}"))
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert "visibility 'others' needs 'per: player', 'per: card' or 'per: [player, ...]'" in str(caught.value)
    assert "facing_away.yaml:10:23:" in str(caught.value)


def test_engine_info_names_the_visibility(tmp_path, capsys):
    assert main(["info", str(written(tmp_path))]) == 0
    assert "others" in capsys.readouterr().out


# The positional label: a card of your own you may not see is named by its place in your hand.
PICK = FACING_AWAY.replace("""\
  let c = choose(1, ["peek", "play"], "Peek at your first card, or play it?")
  if c == "peek":
      reveal(first(hand[1]), 1)
  else:
      move(first(hand[1]), table)""", """\
  let c = choose(1, hand[1], "Play which card? Not ", last(hand[1]), "!")
  move(c, table)
  log("P1 plays ", c)""")
assert PICK != FACING_AWAY


def test_a_menu_of_your_own_hidden_cards_names_each_by_its_place(tmp_path):
    game = Game(load_ruleset(written(tmp_path, PICK)), 3, seed=1)
    held = game.table.cards_in(game.table.zones["hand"][Player(1)])
    mine = view(game, 1).decision
    assert mine["options"] == ["your card 1", "your card 2"]
    assert mine["prompt"] == "Play which card? Not your card 2!"
    assert view(game, 2).decision == {"player": "P1"}
    assert view(game, None).decision["options"] == [c.label for c in held]
    assert view(game, 1, person=True).decision["options"] == ["your card 1", "your card 2"]


def test_the_place_is_read_now_but_the_log_tells_what_was_seen_then(tmp_path):
    game = Game(load_ruleset(written(tmp_path, PICK)), 3, seed=1)
    first, second = game.table.cards_in(game.table.zones["hand"][Player(1)])
    cards = [z["cards"] for z in view(game, 1).zones() if z["label"] == "hand P1"][0]
    assert cards == [{"hidden": True, "label": "your card 1"}, {"hidden": True, "label": "your card 2"}]
    assert "your card 1, your card 2" in render(view(game, 1).for_person())
    assert view(game, 1).log() == ["P1 holds a face-down card"], "a log line is not read again by place"
    game.apply(0)
    assert view(game, 1).log()[-1] == f"P1 plays {first.label}"  # on the table, face up to all
    cards = [z["cards"] for z in view(game, 1).zones() if z["label"] == "hand P1"][0]
    assert cards == [{"hidden": True, "label": "your card 1"}]


def test_other_players_see_your_cards_by_their_faces_and_places_by_nothing(tmp_path):
    game = Game(load_ruleset(written(tmp_path, PICK)), 3, seed=1)
    held = game.table.cards_in(game.table.zones["hand"][Player(1)])
    for other in (2, 3):
        cards = [z["cards"] for z in view(game, other).zones() if z["label"] == "hand P1"][0]
        assert [c["label"] for c in cards] == [c.label for c in held]
        hidden_own = [c for z in view(game, other).zones() if z["label"] == f"hand P{other}" for c in z["cards"]]
        assert hidden_own == [{"hidden": True, "label": "your card 1"}, {"hidden": True, "label": "your card 2"}]
    assert "your card" not in str(view(game, 0).as_dict()), "no seat holds no hand"


def test_an_unordered_hand_or_a_pile_nobody_sees_gives_no_place(tmp_path):
    unordered = PICK.replace("hand: {per: player, visibility: others}",
                             "hand: {per: player, visibility: others, ordered: false}")
    game = Game(load_ruleset(written(tmp_path, unordered)), 3, seed=1)
    assert view(game, 1).decision["options"] == ["a face-down card", "a face-down card"], \
        "an unordered zone's order is nobody's to know"
    hidden = PICK.replace("hand: {per: player, visibility: others}", "hand: {per: player, visibility: hidden}")
    game = Game(load_ruleset(written(tmp_path, hidden)), 3, seed=1)
    assert view(game, 1).decision["options"] == ["a face-down card", "a face-down card"]


def test_a_card_turned_face_down_in_your_own_hand_and_two_hands_of_yours(tmp_path):
    text = PICK.replace("hand: {per: player, visibility: others}",
                        "hand: {per: player, visibility: owner}\n  spare: {per: player, visibility: owner}") \
        .replace("  log(\"P1 holds \", first(hand[1]))",
                 "  turn_face_down(first(hand[1]))\n  deal(deck, spare[1], 1)\n  turn_face_down(first(spare[1]))") \
        .replace("choose(1, hand[1],", "choose(1, [first(spare[1]), first(hand[1]), last(hand[1])],")
    game = Game(load_ruleset(written(tmp_path, text)), 3, seed=1)
    second = game.table.cards_in(game.table.zones["hand"][Player(1)])[1]
    assert view(game, 1).decision["options"] == ["card 1 of spare P1", "card 1 of hand P1", second.label]
    assert view(game, 2).decision == {"player": "P1"}


def test_a_back_with_properties_is_kept_in_the_place(tmp_path):
    text = PICK.replace("label: \"{colour} {rank}\"", "label: \"{colour} {rank}\"\n    back: [colour]")
    assert "back:" in text
    game = Game(load_ruleset(written(tmp_path, text)), 3, seed=1)
    held = game.table.cards_in(game.table.zones["hand"][Player(1)])
    assert view(game, 1).decision["options"] == [f"your card {i} ({c.props['colour']})" for i, c in enumerate(held, 1)]


def test_the_web_page_is_sent_your_hand_by_places_and_the_others_by_faces(tmp_path):
    from engine.web.tables import Hosted
    game = Game(load_ruleset(written(tmp_path, PICK)), 3, seed=1)
    hosted = Hosted(game, ["human", "human", "human"], [None, None, None])
    sent = hosted.seat_view(1)
    hands = {z["key"]: z["cards"] for z in sent["zones"] if z["name"] == "hand"}
    assert hands["P1 (human)"] == [{"hidden": True, "label": "your card 1"}, {"hidden": True, "label": "your card 2"}]
    held = game.table.cards_in(game.table.zones["hand"][Player(2)])
    assert [c["label"] for c in hands["P2 (human)"]] == [c.label for c in held]
    assert sent["option_cards"] == hands["P1 (human)"], "the page lets you click your cards by their places"
    assert sent["decision"]["options"] == ["your card 1", "your card 2"]

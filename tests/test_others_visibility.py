"""Zone visibility `others`: every player but the zone's owner sees its cards (a hand held facing
away). The view, the log, the terminal, worlds and `engine info` follow it; seat 0 (no seat)
sees none of it; a card shown to its owner with reveal is theirs to remember; a zone without an
owner cannot have it."""
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
    return {z["label"]: [c.get("label", "?") for c in z["cards"]]
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

"""A ruleset's page: `layout:` (boards of cards), a board's `key:`, `game: seat_colours` and
`previews:` (what a screen says of an option before it is taken), loaded with located errors,
and what a seat's view gives of them. None of it changes how a game plays."""
from __future__ import annotations

import random
import textwrap

import pytest

from conftest import ruleset
from engine.core.errors import RulesetError
from engine.game.game import Game
from engine.game.view import view
from engine.rules.layout import SEAT_COLOURS
from engine.rules.ruleset import load_ruleset

SMALL = """\
game: {name: Small, players: [2, 3]%(game)s}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  discard: {}
  secret: {display: false}
card_kinds:
  token: {zone: deck, label: "{name}", properties: {name: string}}
cards:
  - {kind: token, name: A, count: 6}
counters:
  passes: {initial: 0}
%(more)s
setup: |
  for p in players:
      deal(deck, hand[p], 2)
flow: |
  for p in players:
      let c = choose(p, list(hand[p]) + ["pass"], "Play which card?")
      if c == "pass":
          passes += 1
      else:
          move(c, discard)
scoring:
  score: count(hand[player])
"""


def small(tmp_path, more: str = "", game: str = ""):
    path = tmp_path / "small.yaml"
    path.write_text(SMALL % {"more": textwrap.dedent(more), "game": game}, encoding="utf-8")
    return load_ruleset(path)


def problems(tmp_path, more: str = "", game: str = "") -> list[str]:
    with pytest.raises(RulesetError) as raised:
        small(tmp_path, more, game)
    return [f"{d.location.line}:{d.location.column}: {d.message}" for d in raised.value.diagnostics]


def test_without_a_layout_a_page_has_no_boards_of_cards_and_the_default_colours(tmp_path):
    page = small(tmp_path).page.as_dict(3)
    assert page == {"areas": [], "keys": {}, "seat_colours": list(SEAT_COLOURS[:3])}


def test_a_layout_names_zones_and_how_their_cards_lie(tmp_path):
    rules = small(tmp_path, """
        layout:
          - {zones: [discard], as: pile}
          - {title: Hands, zones: [hand], as: fan, yours: false}
        """, game=", seat_colours: [teal, '#795548', navy]")
    page = rules.page.as_dict(2)
    assert page["areas"] == [{"title": "discard", "as": "pile", "zones": ["discard"], "yours": True},
                             {"title": "Hands", "as": "fan", "zones": ["hand"], "yours": False}]
    assert page["seat_colours"] == ["teal", "#795548"]


def test_every_mistake_of_a_layout_is_told_at_its_place(tmp_path):
    told = problems(tmp_path, """
        layout:
          - {zones: [hnd, secret]}
          - {zones: [discard, hand]}
          - {zones: [discard], as: heap}
        boards:
          b:
            layout: graph
            places: [{id: a}]
            key: [{means: nothing}, {colour: red, badge: "!", means: both}]
        """, game=", seat_colours: [red, Red]")
    assert told == [
        "1:52: 2 seat colours for up to 3 players: give one for each seat",
        "1:58: colour 'Red' is given to two seats",
        "15:14: unknown zone 'hnd' (did you mean 'hand'?)",
        "15:19: zone 'secret' has 'display: false': it is not shown, so it cannot be on a board",
        "16:13: the zones of one board must be of one family (the same 'per'), each key's zones drawn in one row",
        "17:14: zone 'discard' is on board 2 of the layout already",
        "17:28: 'heap' is not allowed in layout[2].as; expected one of 'row', 'pile', 'fan'",
        "22:11: an entry of a board's key names a colour or a badge (one of the two) and what it means",
        "22:29: an entry of a board's key names a colour or a badge (one of the two) and what it means",
    ]


def test_a_preview_says_its_text_of_the_options_it_applies_to_and_to_their_decider_alone(tmp_path):
    rules = small(tmp_path, """
        previews:
          - prompt: "which card"
            when: 'option == "pass"'
            says: '"you keep " + text(count(hand[player])) + " cards"'
            warn: true
          - prompt: "nothing asks this"
            says: '"never"'
        """)
    game = Game(rules, 2, seed=1)
    mine = view(game, game.pending.player).previews()
    assert mine == [None, None, {"text": "you keep 2 cards", "warn": True}]
    other = 2 if game.pending.player == 1 else 1
    assert view(game, other).previews() == []
    plain_dir = tmp_path / "plain"
    plain_dir.mkdir()
    plain = small(plain_dir)  # the same rules without previews play the same game
    game.apply(2)
    same = Game(plain, 2, seed=1)
    same.apply(2)
    assert same.digest() == game.digest()


def test_a_previews_mistake_is_told_at_its_rule(tmp_path):
    told = problems(tmp_path, """
        previews:
          - {prompt: "which card", says: 'count(hnd[player])'}
          - {says: '"no prompt"'}
        """)
    assert told == ["15:41: unknown name 'hnd' (did you mean 'hand'?)",
                    "16:5: missing required key in previews[1]: 'prompt'"]


def test_railways_previews_a_routes_cost_and_its_bonds_and_warns_before_track_is_thrown_away():
    rules = ruleset("railways")
    game = Game(rules, 3, seed=21)
    rng = random.Random(3)
    routes = warnings = 0
    for _ in range(3000):
        if game.over or (routes and warnings):
            break
        pv = view(game, game.pending.player)
        said = pv.previews()
        options = pv.decision["options"]
        for option, preview in zip(options, said):
            if preview and "track token" in preview["text"]:
                routes += 1
                assert preview["warn"] is False
            if preview and preview["warn"]:
                warnings += 1
                assert "removed at its end" in preview["text"]
        build = [i for i, o in enumerate(options) if o == "build track"]
        game.apply(build[0] if build and rng.random() < 0.7 else rng.randrange(len(options)))
    assert routes and warnings

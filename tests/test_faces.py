"""Card faces: the `face:` block is checked where it is written (with a "did you mean"), every
card of every shipped ruleset is drawn, and a face-down card's drawing tells no more than its
back: checked through the players' views, in games of every shipped ruleset."""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import RULESETS, random_play_options, ruleset
from engine import Game, RulesetError, load_ruleset, view
from engine.game.view import card_view, sees
from engine.rules import cardsvg, faces, icons
from engine.rules.sheets import face_down, face_up
from engine.web.tables import seen_faces

NAMES = [p.stem for p in RULESETS]

TOY = """\
game: {name: Toy Fish, players: [2]}
card_kinds:
  fish:
    zone: deck
    label: "{color} {rank}"
    properties: {color: string, rank: integer}
    back: [color]
FACE
cards:
  - {kind: fish, color: red, rank: 1}
  - {kind: fish, color: gold, rank: 2}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
flow: |
  for p in players:
      deal(deck, hand[p], 1)
scoring:
  score: 0
"""


def toy(tmp_path: Path, face: str) -> Path:
    path = tmp_path / "toy.yaml"
    path.write_text(TOY.replace("FACE\n", face), encoding="utf-8")
    return path


def problems(tmp_path: Path, face: str) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        load_ruleset(toy(tmp_path, face))
    return [str(d) for d in caught.value.diagnostics]


def test_a_good_face_loads_and_draws_its_colour_figures_and_icons(tmp_path):
    rs = load_ruleset(toy(tmp_path, """\
    face:
      colour: {property: color, map: {red: "#aa0000", gold: gold}}
      title: "{color} fish"
      corners: {top_left: rank, bottom_right: {value: "{rank}*", icon: star}}
      icons: [coin, {property: color, map: {gold: star}}]
      size: mini
      back: {colour: {property: color}, title: "{color}", pattern: dots}
"""))
    red, gold = rs.cards
    d = faces.describe(rs, face_up(red))
    assert (d["w"], d["h"], d["colour"], d["title"]) == (44, 68, "#aa0000", "red fish")
    assert d["corners"]["top_left"]["text"] == "1" and d["corners"]["bottom_right"]["text"] == "1*"
    assert len(d["icons"]) == 1 and len(faces.describe(rs, face_up(gold))["icons"]) == 2
    assert faces.describe(rs, face_up(gold))["colour"] == icons.COLOURS["gold"]
    back = faces.describe(rs, face_down(red))
    assert back["hidden"] and back["colour"] == icons.COLOURS["red"] and back["title"] == "red"
    assert back["pattern"] == "dots" and "1" not in json.dumps(back["lines"])


@pytest.mark.parametrize("face, column, said", [
    ("    face: {colour: {property: colr}}\n", 31, "'colr' is not a property of fish (did you mean 'color'?)"),
    ("    face: {icons: [con]}\n", 20, "'con' is not a built-in icon (did you mean 'coin'?)"),
    ("    face: {colour: {property: color, map: {rd: red}}}\n", 44, "no card of fish has color 'rd' (did you mean 'red'?)"),
    ("    face: {colour: blu}\n", 20, "'blu' is not a colour (did you mean 'blue'?)"),
    ("    face: {title: \"{colour} fish\"}\n", 19, "'{colour}' is none of its fields (did you mean 'color'?)"),
    ("    face: {corners: {top_left: rnk}}\n", 32, "'rnk' is not a property of fish (did you mean 'rank'?)"),
    ("    face: {show: [rank, colr]}\n", 25, "'colr' is not a property of fish (did you mean 'color'?)"),
    ("    face: {back: {colour: {property: rank}}}\n", 38, "'rank' is not shown on the back of fish"),
    ("    face: {size: minni}\n", 18, "'minni' is not a card size (did you mean 'mini'?)"),
    ("    face: {size: 2x2}\n", 18, "'2x2' is not a card size"),
    ("    face: {colur: red}\n", 12, "unknown key 'colur' in card_kinds.fish.face (did you mean 'colour'?)"),
    ("    face: {icons: [{property: colour, map: {red: star}}]}\n", 31, "'colour' is not a property of fish (did you mean 'color'?)"),
])
def test_a_mistake_in_a_face_is_located_with_a_suggestion(tmp_path, face, column, said):
    (found,) = problems(tmp_path, face)  # the face is on line 8 of the file
    assert found.startswith(f"{tmp_path / 'toy.yaml'}:8:{column}: error: ") and said in found, found


def test_every_mistake_of_a_face_is_reported_at_once(tmp_path):
    found = problems(tmp_path, "    face: {colour: {property: colr}, icons: [con], corners: {top_left: rnk}}\n")
    assert len(found) == 3 and all("did you mean" in p for p in found), found


def test_engine_validate_reports_a_face_mistake_on_one_line(tmp_path, capsys):
    from engine.cli import main
    assert main(["validate", str(toy(tmp_path, "    face: {icons: [con]}\n"))]) == 1
    out = capsys.readouterr()
    assert "error: 'con' is not a built-in icon (did you mean 'coin'?)" in out.out + out.err
    assert "Traceback" not in out.out + out.err


def test_an_icon_file_is_read_for_its_shapes_alone(tmp_path):
    (tmp_path / "fin.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">'
        '<script>alert(2)</script><a href="http://example.invalid"><path d="M0 0L10 10z" fill="red" '
        'onclick="x()"/></a><circle cx="5" cy="5" r="2" style="fill:url(http://example.invalid)"/>'
        '<text>hi</text></svg>', encoding="utf-8")
    rs = load_ruleset(toy(tmp_path, "    face: {icons: [fin.svg]}\n"))
    (drawn,) = faces.describe(rs, face_up(rs.cards[0]))["icons"]
    assert drawn == {"view": "0 0 10 10", "shapes": [{"tag": "path", "d": "M0 0L10 10z", "fill": icons.COLOURS["red"]},
                                                     {"tag": "circle", "cx": 5.0, "cy": 5.0, "r": 2.0}]}


@pytest.mark.parametrize("content, said", [
    ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg viewBox="0 0 1 1"><path d="M0 0"/></svg>',
     "a DOCTYPE or an entity"),
    ('<svg viewBox="0 0 1 1"><path d="M0 0 url(x)"/></svg>', "more than path data"),
    ("<svg viewBox='0 0 1 1'><path d='M0 0'/>", "not well-formed"),
    ("<html/>", "not <svg>"),
    ("<svg viewBox='0 0 1 1'></svg>", "no shape"),
])
def test_a_bad_icon_file_is_refused_where_it_is_named(tmp_path, content, said):
    (tmp_path / "bad.svg").write_text(content, encoding="utf-8")
    found = problems(tmp_path, "    face: {icons: [bad.svg]}\n")
    assert len(found) == 1 and ":8:20: error: the icon file 'bad.svg'" in found[0] and said in found[0], found


def test_an_icon_file_outside_the_ruleset_folder_is_refused(tmp_path):
    found = problems(tmp_path, "    face: {icons: [../up.svg]}\n")
    assert len(found) == 1 and "inside the ruleset's folder" in found[0]


def test_kinds_that_look_alike_face_down_must_draw_the_same_back(tmp_path):
    text = TOY.replace("FACE\n", "    face: {back: {colour: red}}\n").replace(
        "cards:\n", "  shell:\n    zone: deck\n    properties: {color: string}\n    back: [color]\n"
        "    face: {back: {colour: blue}}\ncards:\n  - {kind: shell, color: red}\n")
    (tmp_path / "toy.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(tmp_path / "toy.yaml")
    (found,) = [str(d) for d in caught.value.diagnostics]
    assert "face down, shell looks like fish" in found


def test_a_card_without_a_face_is_drawn_from_its_label_and_properties(tmp_path):
    rs = load_ruleset(toy(tmp_path, ""))
    d = faces.describe(rs, face_up(rs.cards[1]))
    assert d["title"] == "gold 2" and d["lines"] == [] and d["colour"] in faces.FAMILY
    assert faces.describe(rs, face_down(rs.cards[1]))["colour"] == icons.COLOURS["gold"]  # its back's colour
    other = load_ruleset(Path(__file__).resolve().parent.parent / "examples" / "guide" / "step1_cards.yaml")
    assert faces.describe(other, face_up(other.cards[0]))["lines"] == []  # "red 1" says it all


@pytest.mark.parametrize("name", NAMES)
def test_every_card_of_every_shipped_ruleset_is_drawn_face_up_and_down(name):
    rs = ruleset(name)
    assert rs.faces, f"{name} has no face"
    for card in rs.cards:
        for shown in (face_up(card), face_down(card)):
            d = faces.describe(rs, shown)
            root = ET.fromstring(cardsvg.svg(d))
            assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox") == f"0 0 {d['w']} {d['h']}"
            words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
            assert (d["title"] in words) if d["title"] else True
        assert faces.describe(rs, face_up(card))["title"], card.label


def test_the_faces_of_the_shipped_rulesets_show_what_players_look_for():
    isle = ruleset("isle_of_trains")
    engine = next(c for c in isle.cards if c.kind == "engine")
    d = faces.describe(isle, face_up(engine))
    assert d["title"] == engine.name and d["corners"]["top_left"]["text"] == str(engine.props["cost"])
    assert d["corners"]["top_right"]["text"] == str(engine.props["points"])
    tor = ruleset("trick_of_the_rails")
    colours = {faces.describe(tor, face_up(c))["colour"] for c in tor.cards if c.kind == "railway"}
    assert len(colours) == 5  # one a company
    seat = next(c for c in ruleset("trainsilvania").cards if c.kind == "seat" and c.props["colour"] == "yellow")
    down = faces.describe(ruleset("trainsilvania"), face_down(seat))
    assert down["colour"] == "#f9c80e" and seat.props["monster"] not in json.dumps(down)


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _hidden_leaks(rs, game: Game, player: int) -> list[str]:
    """What the drawings of face-down cards show that their backs do not: each card the player
    may not see is drawn as its back alone would be, and no word of a face-down card's face is
    in the backs a seat of the web is sent."""
    table = game.table
    pv = view(game, player, person=True)
    shown = pv.as_dict()
    shown["option_cards"] = pv.option_cards()
    sent_backs = _strings(seen_faces(rs, shown)["backs"])
    leaks = []
    for card in rs.cards:
        if sees(table, card, player, True):
            continue
        drawing = faces.describe(rs, card_view(table, card, player, True))
        assert drawing["hidden"]
        alike = faces.describe(rs, {"hidden": True, **card.back})
        assert {k: v for k, v in drawing.items() if k not in ("label", "tip")} == \
            {k: v for k, v in alike.items() if k not in ("label", "tip")}
        back_words = {str(v) for v in card.back.values()} | {card.kind}
        hidden = {card.name, card.label} | {str(v) for k, v in card.props.items() if k not in card.back}
        for word in hidden - back_words:
            if len(word) > 2 and any(word in s for s in sent_backs):
                leaks.append(word)
    return leaks


@pytest.mark.parametrize("name", NAMES)
def test_a_face_down_card_is_drawn_from_its_back_alone_in_every_view(name):
    rs = ruleset(name)
    players = min(rs.players) + 1 if min(rs.players) + 1 in rs.players else min(rs.players)
    rng = random.Random(7)
    checked = 0
    game = Game(rs, players, random_play_options(rs, players), seed=3)
    for step in range(60):
        if game.over:
            break
        for player in range(1, players + 1):
            assert _hidden_leaks(rs, game, player) == []
            checked += 1
        game.apply(rng.choice(game.legal_actions()))
    assert checked >= 10


def test_a_seat_of_the_web_is_sent_the_faces_of_its_cards_and_no_more():
    rs = ruleset("trainsilvania")
    game = Game(rs, 3, random_play_options(rs, 3), seed=5)
    pv = view(game, 1, person=True)
    shown = pv.as_dict()
    shown["option_cards"] = pv.option_cards()
    sent = seen_faces(rs, shown)
    ids = {str(c["id"]) for z in shown["zones"] for c in z["cards"] if "id" in c}
    assert set(sent["ids"]) <= ids | {str(c["id"]) for c in shown["option_cards"] if c and "id" in c}
    hidden = [c for z in shown["zones"] for c in z["cards"] if c.get("hidden")]
    assert hidden and set(sent["backs"]) == {faces.back_key(c) for c in hidden}
    for back in sent["backs"].values():  # a face-down seat: its colour, never its monster
        assert back["hidden"] and not any(m in json.dumps(back) for m in ("Dracula", "Wolfgang", "Sand-Ra", "Stein"))

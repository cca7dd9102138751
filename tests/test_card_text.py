"""Card text (`text:` of a kind or a card): the words printed on a card, filled in at load.

Every shipped card says what it does; a template fills in the card's properties (a card's own
text winning over its kind's); a mistake in a template is a located error of `engine
validate`; the schema takes a string and nothing else; a view carries the text of a card whose
face its viewer sees and never of a hidden one; `i` (screen.card_lines) shows the text first,
wrapped to the terminal.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine import Game, load_ruleset, view
from engine.game.view import card_view
from engine.players.screen import card_lines
from engine.rules.info import _cards, facts

sys.path.insert(0, str(Path(__file__).parent))
from test_validate import BASE, _single_report, mutate, validate_inprocess, where, write  # noqa: E402

SHIPPED = ["isle_of_trains", "railways", "trainsilvania", "trick_of_the_rails"]


# ------------------------------------------------------------------ the shipped cards


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_card_has_text_and_its_view_carries_it(name):
    rs = load_ruleset(name)
    players = max(rs.players[0], 3)
    options = rs.resolve_options({"event_deck": "true"} if name == "railways" else {}, players)
    game = Game(rs, players, options, seed=3)
    assert rs.cards and all(c.text.strip() for c in rs.cards), [c.label for c in rs.cards if not c.text]
    assert all("{" not in c.text and "}" not in c.text for c in rs.cards)  # every template was filled
    for card in rs.cards:
        assert card_view(game.table, card, None)["text"] == card.text


def test_the_example_events_have_text():
    rs = load_ruleset("railways", extensions=["my_events"])
    assert len(rs.cards) > len(load_ruleset("railways").cards) and all(c.text for c in rs.cards)


def test_shipped_templates_fill_in_the_properties():
    tor = {c.label: c.text for c in load_ruleset("trick_of_the_rails").cards}
    assert "best run of 4 cards" in tor["Locomotive 4"] and "minus 50" in tor["Locomotive 4"]
    assert "whole line" in tor["Locomotive ∞"] and "minus 80" in tor["Locomotive ∞"]  # its own text wins
    assert "adds 30 to the company's profit" in tor["ERIE 5"] and "share of ERIE" in tor["ERIE 5"]
    isle = {c.name: c.text for c in load_ruleset("isle_of_trains").cards}
    assert isle["MegaHopper"].startswith("Holds 3 coal.") and "draws 2 cards" in isle["MegaHopper"]
    assert "Deliver oil, box to claim it: 6 points" in isle["Cork"]  # a list property reads "a, b"


# ------------------------------------------------------------------ templates


def test_a_kind_text_is_filled_per_card_and_a_card_text_wins(tmp_path):
    t = mutate('    label: "{name}"\n', '    label: "{name}"\n    text: "{label} is worth {value}."\n')
    t = mutate("value: 6}", 'value: 6, text: "Frost melts: {value} points, then none."}', t)
    texts = {c.name: c.text for c in load_ruleset(write(tmp_path, t)).cards}
    assert texts["Amber"] == "Amber is worth 1." and texts["Ember"] == "Ember is worth 5."
    assert texts["Frost"] == "Frost melts: 6 points, then none."


def test_a_card_without_text_has_none_and_its_view_no_key(tmp_path):
    rs = load_ruleset(write(tmp_path, BASE))
    game = Game(rs, 2, rs.resolve_options({}, 2), seed=1)
    assert all(c.text == "" for c in rs.cards)
    assert all("text" not in card_view(game.table, c, None) for c in rs.cards)


def test_an_old_property_named_text_stays_a_property_and_is_the_text(tmp_path):
    t = mutate("properties: {value: integer}", "properties: {value: integer, text: string}")
    for name in ("Amber", "Beryl", "Coral", "Dune", "Ember", "Frost"):
        t = mutate(f"name: {name},", f'name: {name}, text: "{{literal}} {name}",', t)
    rs = load_ruleset(write(tmp_path, t))
    assert rs.cards[0].props["text"] == "{literal} Amber" == rs.cards[0].text  # not a template: as before


@pytest.mark.parametrize("where_,template,words", [
    ("kind", "Worth {valeu}.", "did you mean 'value'"),
    ("kind", "Worth {value.real}.", "not a plain field"),
    ("kind", "Worth {value", "'{{'"),
    ("card", "Worth {points}.", "none of its fields"),
])
def test_a_bad_template_is_a_located_error(where_, template, words, tmp_path, capsys):
    if where_ == "kind":
        t = mutate('    label: "{name}"\n', f'    label: "{{name}}"\n    text: "{template}"\n')
    else:
        t = mutate("value: 6}", f'value: 6, text: "{template}"}}')
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, f'"{template}"')], diags  # once, at the template
    assert "text" in diags[0].msg and words in diags[0].msg, diags[0].msg


def test_a_format_that_does_not_suit_its_value_is_a_located_error(tmp_path, capsys):
    t = mutate('    label: "{name}"\n', '    label: "{name}"\n    text: "{value:.2s}"\n')
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, '"{value:.2s}"')], diags


# ------------------------------------------------------------------ the schema


@pytest.mark.parametrize("value,ok", [('"Draw {value} cards."', True), ("5", False), ("[a, b]", False)])
def test_the_schema_takes_a_string_text(value, ok, tmp_path, capsys):
    for t in (mutate('    label: "{name}"\n', f'    label: "{{name}}"\n    text: {value}\n'),
              mutate("value: 6}", f"value: 6, text: {value}}}")):
        r = validate_inprocess(capsys, write(tmp_path, t))
        assert (r.rc == 0) == ok, r.out + r.err
        if not ok:
            assert f":{where(t, f'text: {value}')[0]}:" in r.out, r.out


# ------------------------------------------------------------------ views and the screen


def test_a_hidden_card_view_has_no_text():
    rs = load_ruleset("trick_of_the_rails")
    game = Game(rs, 3, rs.resolve_options({}, 3), seed=5)
    for card in game.table.contents[game.table.zones["hand"][2].index]:
        assert card_view(game.table, card, 1) == {"hidden": True}  # P2's card, to P1
        assert card_view(game.table, card, 2)["text"] == card.text
    for zone in view(game, 1).zones():
        for c in zone["cards"]:
            assert ("text" in c) != bool(c.get("hidden")), (zone["label"], c)


def test_a_seat_face_down_tells_nothing_of_its_monster():
    """Trainsilvania's seats: the text names the monster under the seat, which nobody may see."""
    rs = load_ruleset("trainsilvania")
    game = Game(rs, 2, rs.resolve_options({}, 2), seed=2)
    hidden = [c for z in view(game, 1).zones() for c in z["cards"] if c.get("hidden")]
    assert hidden and all(set(c) == {"hidden", "colour", "kind"} for c in hidden)  # no text, no monster


def test_i_shows_the_text_first_then_the_figures_within_80_columns():
    rs = load_ruleset("railways")
    game = Game(rs, 3, rs.resolve_options({"event_deck": "true"}, 3), seed=1)
    longest = max((c for c in rs.cards if c.kind == "event"), key=lambda c: len(c.text))
    lines = [line.text for line in card_lines(card_view(game.table, longest, None), 80)]
    assert lines[0] == longest.label and len(longest.text) > 80
    body, figures = lines[1:-2], lines[-2:]  # the text, then its two figures, one line each
    assert " ".join(" ".join(body).split()) == longest.text
    assert [f.split(":")[0] for f in figures] == ["  kind", "  future"]
    assert all(len(line) <= 80 for line in lines) and len(body) > 1  # wrapped, not cut
    assert all(line.startswith("  ") for line in body)


def test_i_of_a_card_without_text_is_as_before(tmp_path):
    rs = load_ruleset(write(tmp_path, BASE))
    game = Game(rs, 2, rs.resolve_options({}, 2), seed=1)
    lines = [line.text for line in card_lines(card_view(game.table, rs.cards[0], None), 80)]
    assert lines == ["Amber", "  kind:                 number", "  value:                1"]


def test_engine_info_tells_each_kind_its_text():
    rs = load_ruleset("trick_of_the_rails")
    kinds = {k["kind"]: k["text"] for k in facts(rs)["cards"]["kinds"]}
    assert kinds["exchange"].startswith("The winner of its trick takes it as a share of {company}")
    shown = _cards(facts(rs)["cards"])  # the Cards section of `engine info`
    assert any(line.strip().startswith('card text: "The winner of its trick takes it') for line in shown)
    assert all(len(line) <= 80 for line in shown)

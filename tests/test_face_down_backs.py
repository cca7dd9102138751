"""What a zone's face-down cards show of their backs, on a screen (`zone_text`): the public
property a back shows is told, as the log tells it, never more."""
from __future__ import annotations

from engine.game.view import zone_text


def zone(*cards):
    return {"cards": list(cards)}


def seat(colour):
    return {"hidden": True, "colour": colour, "kind": "seat"}


def test_plain_backs_are_counted_alone():
    assert zone_text(zone({"hidden": True}, {"hidden": True})) == "2 face-down"
    assert zone_text(zone()) == "-"


def test_backs_alike_are_said_once_and_a_few_different_ones_in_order():
    assert zone_text(zone(seat("red"), seat("red"))) == "2 face-down (red seat)"
    assert zone_text(zone({"id": 1, "label": "Ghost"}, seat("red"), seat("green"), seat("green"))) == \
        "Ghost, 3 face-down (red seat, green seat, green seat)"


def test_many_backs_are_counted_by_back():
    cards = [seat("yellow")] * 5 + [seat("red")] * 4
    assert zone_text(zone(*cards)) == "9 face-down (5 yellow seat, 4 red seat)"


def test_the_viewers_own_cards_known_by_their_place_are_named_so():
    own = {"hidden": True, "label": "your card 1", "colour": "red"}
    assert zone_text(zone(own, {"hidden": True, "colour": "red"})) == "your card 1, 1 face-down (red)"

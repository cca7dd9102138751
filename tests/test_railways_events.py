"""Scenario tests for the Railways Event Deck expansion (option event_deck of
rulesets/railways.yaml).

Each card is placed in its slot by `arrange` (every other event card goes to the discard, so that
nothing random is drawn), then the game is driven with `pick`. Expectations follow the Event Deck
rulebook's wording; the arithmetic is in the comments. Map and prices: see tests/test_railways.py.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from engine.core.table import Player
from engine.game.game import Game
from engine.game.view import view
from engine.rules.ruleset import load_ruleset

from conftest import ROOT, cards, labels, options, pick, put, zone
from test_railways import (RS, act, asked, bid, bonds, counter, cubes, everybody_passes_auction, money,
                           network, new_game, opts, pass_actions_until, place, points,
                           set_counter)

SLOTS = ("event_deck", "future_event", "current_event", "event_discard")
EVENT_NAMES = [
    "Bailout Plan", "Big City Tax", "Bond Buyback", "Bond Shortage", "Bond Surplus",
    "Convention Season", "Earthquake", "Engine Auction", "Engine Maintenance",
    "Experimental Engine", "Flood", "Free Trade", "Fuel Shortage", "Illegal Activity",
    "Illegal Transport", "Increased Production", "Land Rush", "Landslide", "Major City Demand",
    "Major City Unrest", "Major Land Dispute", "Market Contraction", "Market Expansion",
    "Minor Land Dispute", "Misfortune", "Mountain Snow", "No Event", "Rainy Season",
    "Resource Shortage", "Risky Business", "Small Market Incentive", "Urbanization Incentive",
    "Used Engines"]
FUTURE = {"Earthquake", "Flood", "Landslide", "Market Contraction", "Market Expansion"}


# ---------------------------------------------------------------- helpers

def event_cards(game):
    return [c for s in SLOTS for c in cards(game, zone(game, s))]


def slot(game, name):
    return labels(game, zone(game, name))


def events(current=None, future=None, deck=(), then=None):
    """An `extra` for position(): every event card to the discard, then the given ones placed."""
    def extra(game):
        for c in event_cards(game):
            game.table.move(c, zone(game, "event_discard"))
        if current:
            put(game, current, zone(game, "current_event"))
        if future:
            put(game, future, zone(game, "future_event"))
        for name in deck:
            put(game, name, zone(game, "event_deck"))
        if then:
            then(game)
    return extra


def ev_game(players=2, current=None, future=None, deck=(), then=None, **kw):
    return new_game(players, extra=events(current, future, deck, then), **kw)


def fn(game, name, *args):
    return game.call_function(name, list(args))


def P(n):
    return Player(n)


def hexes(game, *ids):
    return [place(game, i) for i in ids]


def network_link(game, ids):
    c = game.table.counters
    return next(l for l in cards(game, zone(game, "network"))
                if c["link_a"][l].id == ids[0] and c["link_b"][l].id == ids[-1])


def finish_turn(game):
    """Everybody passes the auction and every action, up to the next turn's auction."""
    everybody_passes_auction(game)
    pass_actions_until(game)


def leave(game, name, to="event_discard"):
    """The flow moves the card on: play the rest of this turn (all passes) up to turn 2."""
    finish_turn(game)
    assert counter(game, "turn") == 2
    assert name in slot(game, to)


# ---------------------------------------------------------------- the deck and its timing

def test_deck_has_the_33_cards_and_future_marks():
    game = Game(RS, 3, opts(3), seed=1)
    cards = event_cards(game)
    assert sorted(c.label for c in cards) == EVENT_NAMES
    assert {c.label for c in cards if c.props["future"]} == FUTURE
    assert all(c.text for c in cards)


def test_first_draw_goes_to_future_and_turn_2_makes_it_current():
    for seed in range(1, 8):
        game = Game(RS, 2, opts(2), seed=seed)
        assert len(slot(game, "future_event")) == 1 and slot(game, "current_event") == []
        first = slot(game, "future_event")[0]
        assert first not in FUTURE
        # Every card discarded at the start is a Future Event card.
        assert all(n in FUTURE for n in slot(game, "event_discard"))
        assert len(event_cards(game)) == 33


def test_setup_discards_a_drawn_future_event():
    # Seed 4 (2 players): the shuffled deck starts with Market Expansion, a Future Event card:
    # discarded at the start (it does not act: the markers stay at 3), Used Engines replaces it.
    game = Game(RS, 2, opts(2), seed=4)
    assert slot(game, "event_discard") == ["Market Expansion"]
    assert slot(game, "future_event") == ["Used Engines"]
    assert counter(game, "markers") == 3


def test_future_event_drawn_at_the_start_is_discarded_and_replaced():
    # Rebuild the setup's draw with a known deck: Flood on top, then Misfortune.
    def extra(game):
        for c in event_cards(game):
            game.table.move(c, zone(game, "event_discard"))
        put(game, "Flood", zone(game, "event_deck"))
        put(game, "Misfortune", zone(game, "event_deck"))
        put(game, "Convention Season", zone(game, "event_deck"))
        game.run_procedure("draw_future", [True])
    game = new_game(2, extra=extra)
    assert slot(game, "future_event") == ["Misfortune"]
    assert "Flood" in slot(game, "event_discard")
    assert slot(game, "event_deck") == ["Convention Season"]


def test_slots_move_each_turn():
    game = ev_game(2, future="Misfortune", deck=["Convention Season", "Engine Maintenance", "Bond Shortage"])
    # Turn 1: Misfortune waits in the Future slot, nothing is Current.
    assert slot(game, "current_event") == []
    finish_turn(game)
    # Turn 2: Future -> Current, a new Future drawn.
    assert counter(game, "turn") == 2
    assert slot(game, "current_event") == ["Misfortune"]
    assert slot(game, "future_event") == ["Convention Season"]
    # (Misfortune at turn 1's income did nothing: it was only Future.)
    assert points(game, 1) == 0 and points(game, 2) == 0
    everybody_passes_auction(game)
    pass_actions_until(game)
    # Turn 3: Current -> discard, Future -> Current, draw again; the deck order is kept.
    assert counter(game, "turn") == 3
    assert "Misfortune" in slot(game, "event_discard")
    assert slot(game, "current_event") == ["Convention Season"]
    assert slot(game, "future_event") == ["Engine Maintenance"]
    assert slot(game, "event_deck") == ["Bond Shortage"]


def test_a_future_event_drawn_later_acts_at_once_from_the_future_slot():
    # On turn 2, Market Expansion is drawn into the Future slot: a marker is added immediately.
    game = ev_game(2, future="Misfortune", deck=["Market Expansion"], markers=3)
    finish_turn(game)
    assert slot(game, "future_event") == ["Market Expansion"]
    assert counter(game, "markers") == 4


def test_option_off_leaves_the_deck_untouched():
    game = Game(RS, 2, opts(2, event_deck=False), seed=3)
    assert len(slot(game, "event_deck")) == 33
    assert slot(game, "future_event") == [] == slot(game, "current_event")


def test_no_event_cancels_the_future_event_revealed_while_it_is_current():
    # Turn 2: No Event becomes Current and Market Contraction is revealed: cancelled.
    game = ev_game(2, future="No Event", deck=["Market Contraction", "Market Expansion"], markers=3)
    finish_turn(game)
    assert slot(game, "current_event") == ["No Event"]
    assert slot(game, "future_event") == ["Market Contraction"]
    assert counter(game, "markers") == 3                  # not removed
    # The log says so, to every player (both cards are face up in their slots).
    line = "No Event cancels the Future Event Market Contraction: it does nothing"
    assert all(line in view(game, p).log() for p in (1, 2, None))
    # Turn 3: No Event is gone; Market Expansion is revealed and acts (nothing is cancelled).
    finish_turn(game)
    assert slot(game, "future_event") == ["Market Expansion"]
    assert counter(game, "markers") == 4
    assert not any("cancels the Future Event Market Expansion" in l for l in view(game, 1).log())


def test_no_event_cancels_an_earthquake():
    game = ev_game(2, future="No Event", deck=["Earthquake"], links=[(1, ["AS", "6", "KI"])])
    finish_turn(game)
    assert slot(game, "future_event") == ["Earthquake"]
    asked(game, 1, "Auction")                             # nobody is asked for a token
    assert counter(game, "damaged", place(game, "6")) == 0
    assert "No Event cancels the Future Event Earthquake: it does nothing" in view(game, 2).log()


# ---------------------------------------------------------------- the cards, in alphabetical order

def test_bailout_plan():
    # Points 5 / 2 / 2: P2 and P3 trail the nearest player (P1, 5) by 3: $3,000 each.
    game = ev_game(3, current="Bailout Plan", points={1: 5, 2: 2, 3: 2}, first=3)
    finish_turn(game)
    # Income: 5 points $5,000; 2 points $2,000 (+ $3,000 bailout).
    assert money(game, 1) == 5000
    assert money(game, 2) == 5000 and money(game, 3) == 5000
    # All tied: nobody trails anybody, no bonus.
    game = ev_game(2, current="Bailout Plan", points={1: 2, 2: 2})
    finish_turn(game)
    assert money(game, 1) == 2000 and money(game, 2) == 2000


def test_big_city_tax():
    # P1 is connected to Kingsport (red) and Goldfield (yellow), Dunmore and Elmstead (grey): $2,000.
    game = ev_game(2, current="Big City Tax", money={1: 10000, 2: 10000},
                   links=[(1, ["KI", "12", "13", "GO"]), (1, ["DU", "40", "EL"])])
    finish_turn(game)
    assert money(game, 1) == 8000 and money(game, 2) == 10000
    # Next turn the card is gone: no tax.
    finish_turn(game)
    assert money(game, 1) == 8000


def test_big_city_tax_short_of_cash_asks_how_many_bonds():
    game = ev_game(2, current="Big City Tax", links=[(1, ["KI", "12", "13", "GO"])])
    everybody_passes_auction(game)
    pass_actions_until(game, None)
    asked(game, 1, "You owe $2000")
    assert options(game) == ["0", "1"]                    # no bond (2 points lost) or one
    pick(game, "1")
    # $5,000 - $2,000 tax, then the new bond's $1,000 interest (income $0 at 0 points).
    assert bonds(game, 1) == 1 and money(game, 1) == 2000


def test_bond_buyback():
    game = ev_game(2, current="Bond Buyback", money={1: 30000, 2: 6000}, bonds={1: 3, 2: 1})
    everybody_passes_auction(game)                        # order [P1, P2]
    asked(game, 1, "Bond Buyback")
    assert options(game) == ["keep my bonds", "redeem 1 bond(s) for $7000",
                             "redeem 2 bond(s) for $15000", "redeem 3 bond(s) for $24000"]
    pick(game, "redeem 2 bond(s) for $15000")
    assert money(game, 1) == 15000 and bonds(game, 1) == 1
    # P2 cannot pay $7,000: not asked.
    asked(game, 1, "Turn 1, round 1")
    assert bonds(game, 2) == 1


def test_bond_shortage_and_its_end():
    game = ev_game(2, current="Bond Shortage")
    assert fn(game, "bond_yield", P(1)) == 4000
    everybody_passes_auction(game)
    act(game, 1, "build track")                          # $0 cash: a bond pays
    pick(game, "Kingsport")
    pick(game, "hex 17 (plains), Lakeview")
    assert bonds(game, 1) == 1 and money(game, 1) == 2000  # 4000 - 2000
    leave(game, "Bond Shortage")
    assert fn(game, "bond_yield", P(1)) == 5000


def test_bond_surplus_and_its_end():
    # Without bonds on demand, Bond Surplus offers "issue a bond" before actions while Current.
    game = ev_game(2, current="Bond Surplus", options_=opts(2, bonds_on_demand=False))
    assert fn(game, "bond_yield", P(1)) == 6000
    everybody_passes_auction(game)
    asked(game, 1, "Turn 1")
    assert "issue a bond (+$6000, $1000 interest a turn)" in options(game)   # worth issuing on its own
    pick(game, "issue a bond (+$6000, $1000 interest a turn)")
    assert money(game, 1) == 6000 and bonds(game, 1) == 1
    leave(game, "Bond Surplus")
    assert fn(game, "bond_yield", P(1)) == 5000
    assert not fn(game, "voluntary_bond", P(1))


def test_convention_season():
    def hotels(game):
        for city in ("KI", "GO"):
            h = cards(game, zone(game, "hotel_supply", P(1)))[0]
            game.table.move(h, zone(game, "hotel_at", place(game, city).props["name"]))
    game = ev_game(2, current="Convention Season", then=hotels)
    finish_turn(game)
    assert money(game, 1) == 2000 and money(game, 2) == 0


@pytest.mark.parametrize("name,hexid,terrain,link", [
    ("Earthquake", "6", "plains", ["AS", "6", "KI"]),
    ("Flood", "8", "water", ["GO", "8", "BA"]),
    ("Landslide", "16", "mountain", ["IR", "16", "CO"]),
])
def test_damage_cards_repaired_in_time(name, hexid, terrain, link):
    game = ev_game(2, future=name, money={1: 10000}, links=[(1, link), (2, ["KI", "17", "LA"])])
    # At turn 1's start the Future card acts: P1 has a single token of that terrain, so the
    # choice has one option and is made without a question.
    assert counter(game, "damaged", place(game, hexid)) == 1
    assert counter(game, "link_damage", network_link(game, link)) == 1
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, place(game, hexid).props["name"])          # repair: pay the terrain price
    assert money(game, 1) == 10000 - {"plains": 2000, "water": 3000, "mountain": 4000}[terrain]
    assert counter(game, "damaged", place(game, hexid)) == 0
    pass_actions_until(game)
    assert counter(game, "turn") == 2 and name in slot(game, "current_event")
    assert (1, link[0], link[-1]) in network(game)        # repaired: kept


@pytest.mark.parametrize("name,hexid,link", [
    ("Earthquake", "17", ["KI", "17", "LA"]),
    ("Flood", "12", ["KI", "12", "13", "GO"]),
    ("Landslide", "28", ["IR", "28", "DU"]),
])
def test_damage_cards_unrepaired_track_is_lost(name, hexid, link):
    game = ev_game(2, future=name, links=[(1, ["AS", "1", "2", "BA"]), (2, link)])
    if name == "Earthquake":                              # P1 has two plains tokens: asked
        asked(game, 1, name)
        pick(game, "hex 1 (plains)")
    assert counter(game, "damaged", place(game, hexid)) == 1
    finish_turn(game)
    # Turn 2: the card left the Future slot: the damaged link of P2 is gone.
    assert name in slot(game, "current_event")
    assert (2, link[0], link[-1]) not in network(game)
    assert counter(game, "track_owner", place(game, hexid)) == 0


def test_damage_card_only_offers_own_tokens_of_its_terrain_and_no_track_means_no_question():
    game = ev_game(2, future="Landslide", links=[(1, ["AS", "6", "KI"])])
    asked(game, 2, "Auction")                             # no mountain track: nobody is asked
    game = ev_game(2, future="Earthquake", links=[(1, ["AS", "1", "2", "BA"]), (2, ["KI", "17", "LA"])])
    asked(game, 1, "Earthquake")
    assert options(game) == ["hex 1 (plains)", "hex 2 (plains)"]
    pick(game, "hex 2 (plains)")
    # P2 has a single plains token: lost without a question.
    assert counter(game, "damaged", place(game, "17")) == 1
    assert counter(game, "damaged", place(game, "1")) == 0
    assert counter(game, "damaged", place(game, "2")) == 1


def test_engine_auction():
    game = ev_game(2, current="Engine Auction", money={1: 20000, 2: 20000})
    everybody_passes_auction(game)                        # order [P1, P2]
    asked(game, 1, "Engine Auction")
    # A bid plus the engine ($4,000) must be payable; bonds count up to max_bid ($20,000).
    assert options(game) == ["pass", "1000", "jump bid ($2000 to $20000)"]
    bid(game, 1000)
    asked(game, 2, "Engine Auction")
    bid(game, 3000)
    pick(game, "pass")                                    # P1 drops out: P2 wins
    # P2 pays the bid and the level-2 engine ($4,000); it is not an action.
    assert money(game, 2) == 20000 - 3000 - 4000
    assert counter(game, "engine", P(2)) == 2 and counter(game, "engine", P(1)) == 1
    asked(game, 1, "Turn 1, round 1")


def test_engine_auction_nobody_bids():
    game = ev_game(2, current="Engine Auction", money={1: 20000, 2: 20000})
    everybody_passes_auction(game)
    pick(game, "pass")
    pick(game, "pass")
    asked(game, 1, "Turn 1, round 1")
    assert money(game, 1) == money(game, 2) == 20000


def test_engine_maintenance():
    game = ev_game(2, current="Engine Maintenance", money={1: 10000, 2: 10000}, engine={1: 3, 2: 1})
    finish_turn(game)
    assert money(game, 1) == 7000 and money(game, 2) == 9000


def test_experimental_engine_and_its_end():
    # A blue cube in Kingsport; Bayfield (blue) is 2 links away (KI-AS-BA): engine 1, +1 = 2.
    game = ev_game(2, current="Experimental Engine", goods={"KI": ["blue"]},
                   links=[(1, ["KI", "6", "AS"]), (1, ["AS", "1", "2", "BA"])])
    assert fn(game, "delivery_range", P(1)) == 2
    everybody_passes_auction(game)
    act(game, 1, "deliver goods")
    assert cubes(game, "KI") == [] and points(game, 1) == 2
    leave(game, "Experimental Engine")
    assert fn(game, "delivery_range", P(1)) == 1


def test_experimental_engine_does_not_meet_speed_record():
    game = ev_game(2, current="Experimental Engine")
    # 4 links with a level-3 engine: the +1 lets the cube go, but the record needs engine >= 4.
    set_counter(game, "engine", P(1), 3)
    assert not fn(game, "speed_record_met", P(1), [1, 2, 3, 4])
    set_counter(game, "engine", P(1), 4)
    assert fn(game, "speed_record_met", P(1), [1, 2, 3, 4])


def test_free_trade_and_its_end():
    # Blue cube in Goldfield; Bayfield (blue) first, Lakeview (blue) beyond: GO-BA-AS-KI-LA.
    links = [(2, ["GO", "8", "BA"]), (2, ["BA", "2", "1", "AS"]), (1, ["AS", "6", "KI"]), (1, ["KI", "17", "LA"])]
    game = ev_game(2, current="Free Trade", goods={"GO": ["blue"]}, engine={1: 4}, money={1: 10000}, links=links)
    everybody_passes_auction(game)
    act(game, 1, "deliver goods")
    asked(game, 1, "Go on past Bayfield?")
    pick(game, "Bayfield, Ashby, Kingsport, Lakeview")
    assert money(game, 1) == 6000                         # 4 segments x $1,000
    assert points(game, 2) == 2                           # P2's two links used
    leave(game, "Free Trade")
    assert fn(game, "delivery_passes", P(1), None) == 0


def test_free_trade_no_fee_when_not_passing():
    links = [(2, ["GO", "8", "BA"]), (2, ["BA", "2", "1", "AS"]), (1, ["AS", "6", "KI"]), (1, ["KI", "17", "LA"])]
    game = ev_game(2, current="Free Trade", goods={"GO": ["blue"]}, engine={1: 4}, money={1: 10000}, links=links)
    everybody_passes_auction(game)
    act(game, 1, "deliver goods")
    pick(game, "deliver here")
    assert money(game, 1) == 10000 and points(game, 2) == 1


def test_fuel_shortage_and_its_end():
    game = ev_game(2, current="Fuel Shortage", engine={1: 3, 2: 1})
    assert fn(game, "delivery_range", P(1)) == 2
    assert fn(game, "delivery_range", P(2)) == 1          # level 1 is not reduced
    leave(game, "Fuel Shortage")
    assert fn(game, "delivery_range", P(1)) == 3


def test_fuel_shortage_stops_a_two_link_delivery():
    game = ev_game(2, current="Fuel Shortage", goods={"KI": ["blue"]}, engine={1: 2},
                   links=[(1, ["KI", "6", "AS"]), (1, ["AS", "1", "2", "BA"])])
    everybody_passes_auction(game)
    asked(game, 1, "Turn 1")
    assert "deliver goods" not in options(game)


def test_illegal_activity():
    game = ev_game(3, current="Illegal Activity", money={1: 5000, 2: 5000, 3: 5000}, first=1)
    pick(game, "pass")                                    # P1 +1000
    bid(game, 2000)                                    # P2 bids
    pick(game, "pass")                                    # P3 +1000: P2 wins
    assert [money(game, s) for s in (1, 2, 3)] == [6000, 3000, 6000]


def test_illegal_transport():
    # Black cube Bayfield -> Goldfield (P2) -> Ironvale (P1): P1 may pay $1,000 instead of P2's point.
    game = ev_game(2, current="Illegal Transport", goods={"BA": ["black"]}, engine={1: 2}, money={1: 5000},
                   links=[(2, ["BA", "8", "GO"]), (1, ["GO", "14", "21", "IR"])])
    everybody_passes_auction(game)
    act(game, 1, "deliver goods")
    asked(game, 1, "Link of P2")
    assert options(game) == ["give the point", "pay $1000"]
    pick(game, "pay $1000")
    assert money(game, 1) == 4000 and points(game, 2) == 0 and points(game, 1) == 1
    leave(game, "Illegal Transport")
    assert fn(game, "buyout_price", P(1), None) == 0


def test_increased_production():
    game = ev_game(2, current="Increased Production", goods={"KI": ["red"], "GO": ["yellow"]})
    everybody_passes_auction(game)
    asked(game, 1, "Increased Production")
    assert options(game) == ["no cube", "Kingsport", "Goldfield"]   # non-empty cities only
    pick(game, "Goldfield")
    asked(game, 2, "Increased Production")
    pick(game, "no cube")
    assert len(cards(game, zone(game, "goods", place(game, "GO")))) == 2
    assert len(cards(game, zone(game, "goods", place(game, "KI")))) == 1


def test_land_rush_and_its_end():
    game = ev_game(2, current="Land Rush")
    assert fn(game, "build_limit", P(1), hexes(game, "23", "29", "34", "41", "42")) == 5
    assert fn(game, "build_limit", P(1), hexes(game, "23", "29", "35", "41")) == 4   # a water hex
    everybody_passes_auction(game)
    set_counter(game, "money", P(1), 50000)
    act(game, 1, "build track")
    pick(game, "Lakeview")
    for h in ["hex 30 (plains)", "hex 36 (plains)", "hex 37 (plains)", "hex 38 (plains)"]:
        pick(game, h)
    assert "hex 43 (plains)" in options(game)             # the bonus 5th plains token
    pick(game, "hex 43 (plains)")
    assert not any(o.startswith("hex") for o in options(game))   # 5 is the maximum
    leave_game = ev_game(2, current="Land Rush")
    leave(leave_game, "Land Rush")
    assert fn(leave_game, "build_limit", P(1), hexes(leave_game, "23", "29", "34", "41", "42")) == 4


def test_major_city_demand():
    # A red cube Ashby -> Kingsport (red): +$1,000; a purple one Kingsport -> Ashby: nothing.
    game = ev_game(2, current="Major City Demand", goods={"AS": ["red"], "KI": ["purple"]},
                   links=[(1, ["KI", "6", "AS"])])
    everybody_passes_auction(game)
    act(game, 1, "deliver goods")
    pick(game, "Ashby, red cube")
    assert money(game, 1) == 1000 and points(game, 1) == 1
    act(game, 2, "deliver goods")
    assert money(game, 2) == 0 and points(game, 1) == 2


def test_major_city_unrest_and_its_end():
    game = ev_game(2, current="Major City Unrest", goods={"AS": ["red"], "KI": ["purple"]},
                   links=[(1, ["AS", "6", "KI"])])
    everybody_passes_auction(game)
    asked(game, 1, "Turn 1")
    assert "deliver goods" not in options(game)           # to red Kingsport / from red Kingsport
    assert not fn(game, "delivery_allowed", P(1), None, place(game, "KI"), place(game, "AS"))
    assert fn(game, "delivery_allowed", P(1), None, place(game, "GO"), place(game, "BA"))
    leave(game, "Major City Unrest")
    assert fn(game, "delivery_allowed", P(1), None, place(game, "KI"), place(game, "AS"))


def test_major_land_dispute():
    game = ev_game(3, current="Major Land Dispute", money={1: 20000}, first=3)
    everybody_passes_auction(game)                        # order [P1, P2, P3]: P2 is 2nd
    for h in ["hex 6 (plains)", "hex 17 (plains)", "hex 12 (water)"]:
        asked(game, 2, "Major Land Dispute")
        pick(game, h)
    asked(game, 1, "Turn 1, round 1")
    assert counter(game, "blocked", place(game, "17")) == 2
    pick(game, "build track")
    assert "Kingsport" not in options(game)               # its three neighbour hexes are closed
    assert "Ashby" in options(game)
    # Blocks end with the turn.
    game2 = ev_game(2, current="Major Land Dispute")
    everybody_passes_auction(game2)
    for _ in range(3):
        pick(game2, "hex 6 (plains)" if "hex 6 (plains)" in options(game2) else options(game2)[1])
    pass_actions_until(game2)
    assert counter(game2, "blocked", place(game2, "6")) == 0


def test_market_contraction():
    game = ev_game(2, future="Market Contraction", markers=3)
    # Arranged after setup, the card acts at turn 1's start (before the auction).
    assert counter(game, "markers") == 2


def test_market_expansion():
    game = ev_game(2, future="Market Expansion", markers=3)
    everybody_passes_auction(game)
    assert counter(game, "markers") == 4
    finish_turn(game)                                     # once only
    assert counter(game, "markers") == 4


def test_minor_land_dispute():
    game = ev_game(2, current="Minor Land Dispute", money={2: 5000}, first=2)
    pick(game, "pass")                                    # P2 passes
    asked(game, 2, "Minor Land Dispute")
    pick(game, "hex 17 (plains)")
    asked(game, 1, "Auction")
    bid(game, 1000)                                    # P1 bids and wins: not asked
    asked(game, 1, "Turn 1")
    assert counter(game, "blocked", place(game, "17")) == 2


def test_misfortune():
    game = ev_game(3, current="Misfortune", points={1: 4, 2: 4, 3: 1}, first=3)
    finish_turn(game)
    assert [points(game, s) for s in (1, 2, 3)] == [3, 3, 1]
    assert money(game, 1) == 3000                         # income read after the loss


def test_mountain_snow_and_its_end():
    game = ev_game(2, current="Mountain Snow")
    assert fn(game, "build_limit", P(1), hexes(game, "11", "10", "9", "3")) == 3
    assert fn(game, "build_limit", P(1), hexes(game, "23", "29", "34", "41")) == 4
    leave(game, "Mountain Snow")
    assert fn(game, "build_limit", P(1), hexes(game, "11", "10", "9", "3")) == 4


def test_no_event_does_nothing_by_itself():
    game = ev_game(2, current="No Event", money={1: 1000, 2: 1000})
    assert fn(game, "future_cancelled")
    finish_turn(game)
    assert money(game, 1) == 1000 and money(game, 2) == 1000
    assert not fn(game, "future_cancelled")


def test_rainy_season_and_its_end():
    game = ev_game(2, current="Rainy Season", money={1: 50000})
    assert fn(game, "build_limit", P(1), hexes(game, "23", "29", "35", "41")) == 3
    assert fn(game, "build_limit", P(1), hexes(game, "23", "29", "34", "41")) == 4
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, "Lakeview")
    for h in ["hex 23 (plains)", "hex 29 (plains)", "hex 35 (water)"]:
        pick(game, h)
    assert options(game) == ["Sunmere", "stop"]           # 3 tokens with water: no 4th hex
    game = ev_game(2, current="Rainy Season")
    leave(game, "Rainy Season")
    assert fn(game, "build_limit", P(1), hexes(game, "23", "29", "35", "41")) == 4


def test_resource_shortage_and_its_end():
    game = ev_game(2, current="Resource Shortage", money={1: 20000})
    everybody_passes_auction(game)
    asked(game, 1, "Turn 1")
    assert not any(o.startswith("upgrade engine") for o in options(game))
    finish_turn(game)
    assert "Resource Shortage" in slot(game, "event_discard")
    everybody_passes_auction(game)
    pass_actions_until(game, 1)
    asked(game, 1, "Turn 2")
    assert "upgrade engine ($4000)" in options(game)


def test_risky_business_variant_only_winner_pays():
    game = ev_game(2, current="Risky Business", options_=opts(2, first_to_pass=True),
                   money={1: 10000, 2: 10000}, first=1)
    bid(game, 2000)
    bid(game, 3000)
    pick(game, "pass")                                    # P1 would pay $1,000: not with the card
    assert money(game, 1) == 10000 and money(game, 2) == 7000
    leave(game, "Risky Business")
    assert fn(game, "pass_payment", P(1), 2000) == 1000


def test_small_market_incentive():
    game = ev_game(2, current="Small Market Incentive", money={1: 10000, 2: 10000})
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, "Elmstead")
    pick(game, "hex 40 (plains), Dunmore")               # two grey cities: +$1,000 each
    assert money(game, 1) == 10000 - 2000 + 2000
    # P2 connects Dunmore as well: it has already paid out.
    act(game, 2, "build track")
    pick(game, "Ironvale")
    pick(game, "hex 28 (mountain), Dunmore")
    assert money(game, 2) == 10000 - 4000


def test_urbanization_incentive_and_its_end():
    game = ev_game(2, current="Urbanization Incentive")
    assert [fn(game, "urbanize_cost", P(1), n) for n in (1, 2, 3, 4)] == [6000, 7000, 8000, 8000]
    everybody_passes_auction(game)
    set_counter(game, "money", P(1), 20000)
    act(game, 1, "urbanize ($6000)")
    pick(game, "Dunmore")
    pick(game, options(game)[0])
    assert money(game, 1) == 14000
    leave(game, "Urbanization Incentive")
    assert fn(game, "urbanize_cost", P(1), 1) == 10000


def test_used_engines_and_its_end():
    game = ev_game(2, current="Used Engines", engine={1: 3, 2: 5}, money={1: 10000, 2: 20000})
    assert fn(game, "upgrade_cost", P(1), 4) == 8000 - 4000   # P2's engine is higher
    assert fn(game, "upgrade_cost", P(2), 6) == 12000         # nobody's is higher than P2's
    everybody_passes_auction(game)
    act(game, 1, "upgrade engine ($4000)")
    assert money(game, 1) == 6000 and counter(game, "engine", P(1)) == 4
    leave(game, "Used Engines")
    assert fn(game, "upgrade_cost", P(1), 5) == 10000


# ---------------------------------------------------------------- custom cards (examples/my_events.yaml)

MY = ROOT / "examples" / "my_events.yaml"


def my_rules():
    return load_ruleset(ROOT / "rulesets" / "railways.yaml", [MY])


def test_my_events_load_and_remove_a_card():
    rules = my_rules()
    game = Game(rules, 2, rules.resolve_options({}, 2), 1)
    names = sorted(c.label for c in event_cards(game))
    assert "Misfortune" not in names
    assert {"Gold Rush", "Strike", "Boom Town"} <= set(names)


def test_my_event_gold_rush_modifier():
    rules = my_rules()
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), extra=events(current="Gold Rush"))
    assert fn(game, "hex_cost", P(1), place(game, "11")) == 3000    # mountains $1,000 cheaper
    assert fn(game, "hex_cost", P(1), place(game, "1")) == 2000
    leave(game, "Gold Rush")
    assert fn(game, "hex_cost", P(1), place(game, "11")) == 4000


def test_my_event_strike_asks_the_leader():
    rules = my_rules()
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), points={1: 3, 2: 1},
                    money={1: 5000}, extra=events(current="Strike"))
    everybody_passes_auction(game)
    asked(game, 1, "Strike")
    assert options(game) == ["pay $3000", "lose 1 point"]
    pick(game, "lose 1 point")
    assert points(game, 1) == 2 and money(game, 1) == 5000


def test_my_event_boom_town_future():
    rules = my_rules()
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), goods={"KI": ["red"]},
                    extra=events(future="Boom Town"))
    asked(game, 1, "Boom Town")
    pick(game, "Kingsport")
    assert len(cards(game, zone(game, "goods", place(game, "KI")))) == 3


def test_my_events_validate_and_simulate():
    cmd = [sys.executable, "-m", "engine", "validate", "rulesets/railways.yaml", "--with", "examples/my_events.yaml"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    cmd = [sys.executable, "-m", "engine", "simulate", "rulesets/railways.yaml", "--players", "3",
           "--games", "3", "--seed", "1", "--with", "examples/my_events.yaml"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


# ---------------------------------------------------------------- a counter of its own (examples/my_engine_fair.yaml)

FAIR = ROOT / "examples" / "my_engine_fair.yaml"


def test_engine_fair_counts_its_sales_in_a_counter_of_its_own():
    """The extension declares `fair_sales` and `fair_rebate`: each upgrade under the Engine
    Fair pays $1000 more than the one before, and none is paid once the card has left."""
    rules = load_ruleset(ROOT / "rulesets" / "railways.yaml", [FAIR])
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), money={1: 20000, 2: 20000},
                    extra=events(current="Engine Fair"))
    assert counter(game, "fair_sales") == 0
    cost = fn(game, "upgrade_cost", P(1), 2)
    everybody_passes_auction(game)
    act(game, 1, f"upgrade engine (${cost})")
    assert money(game, 1) == 20000 - cost + 1000
    act(game, 2, f"upgrade engine (${cost})")
    assert money(game, 2) == 20000 - cost + 2000
    assert counter(game, "fair_sales") == 2
    assert "P2 buys engine 2 of the Engine Fair: a rebate of $2000" in view(game, None).log()
    leave(game, "Engine Fair")
    everybody_passes_auction(game)
    seat = game.current_player   # the other seat leads turn 2
    before, cost = money(game, seat), fn(game, "upgrade_cost", seat, 3)
    act(game, seat, f"upgrade engine (${cost})")
    assert money(game, seat) == before - cost and counter(game, "fair_sales") == 2

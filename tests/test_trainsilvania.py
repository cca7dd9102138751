"""Scenario tests for Trainsilvania (rulesets/trainsilvania.yaml).

Every expectation comes from the rulebook and the component facts of the ruleset's header, with
the editable choices of the ruleset: stations clockwise Bat Mansion (Dracula's home, the start),
Moonshine Hut (Wolfgang), Pumpkin Seed Castle (Frank N. Stein), Mummy Valley (Sand-Ra); 9 tickets
per colour; player 1 red, 2 yellow, 3 green, 4 blue. Positions are built with `arrange`, then
driven decision by decision with `pick`.
"""
from __future__ import annotations

import io
import json
import re

import pytest

from engine.adapters.observation import Observation
from engine.analysis.run import game_seed
from engine.core.table import Player
from engine.game.game import Game
from engine.game.saves import read_save, state_difference, write_save
from engine.game.view import label, render, view
from engine.players.agents import HumanAgent, make_agents
from engine.players.loop import play
from engine.players.search import GreedyAgent, MctsAgent
from engine.players.undo import UndoHistory

from conftest import card, cards, labels, options, pick, put, ruleset, zone

RS = ruleset("trainsilvania")
COLOURS = ["red", "yellow", "green", "blue"]
MONSTERS = ["Dracula", "Wolfgang", "Frank N. Stein", "Sand-Ra"]
BAT, HUT, CASTLE, VALLEY = "Bat Mansion", "Moonshine Hut", "Pumpkin Seed Castle", "Mummy Valley"
STATIONS = [BAT, HUT, CASTLE, VALLEY]  # clockwise
HOME = {BAT: "Dracula", HUT: "Wolfgang", CASTLE: "Frank N. Stein", VALLEY: "Sand-Ra"}
TICKETS = ["Advance 1", "Advance 1-3", "Enter", "Exit", "Move to front", "Enter/Exit",
           "Ride-and-Enter", "Ride-and-Exit", "Pumpkin"]

# How the actions are offered (the ruleset's action_names).
ADVANCE1 = "advance the Night Express 1 station"
ADVANCE3 = "advance the Night Express 1, 2 or 3 stations"
ENTER = "enter (one of your seats boards the Night Express)"
EXIT = "exit (one of your seats gets off the Night Express)"
FRONT = "move a seat on the Night Express to the front"
SKIP = "skip the other action"


# ---------------------------------------------------------------- helpers

def owner(c) -> int:
    return COLOURS.index(c.props["colour"]) + 1


def position(at=None, train=(), stations=None, hands=None, front_order=None, pile_size=None):
    """An `arrange` function putting the table into a fixed position after setup.

    at: the train's station; train: seat labels front to back; stations: {station: [seat labels]}
    (their owners have looked under them); hands: {player: [ticket names]} (the rest of the
    player's tickets go to the draw pile); front_order: {player: [seat labels]} the order of the
    seats in front (the first is the one that boards from there); pile_size: {player: n} keeps n
    tickets in the draw pile and lays the others face up as played."""
    def arrange(game: Game) -> None:
        if at is not None:
            game.table.counters["night_express_at"] = at
        for text in train:
            put(game, text, zone(game, "night_express"))
        for st, texts in (stations or {}).items():
            for text in texts:
                c = put(game, text, zone(game, "at_station", st))
                game.table.reveal(c, owner(c))
        for p, texts in (front_order or {}).items():
            for i, text in enumerate(texts):
                put(game, text, zone(game, "in_front", p), i)
        for p, names in (hands or {}).items():
            colour = COLOURS[p - 1]
            for c in list(cards(game, zone(game, "hand", p))):
                game.table.move(c, zone(game, "ticket_pile", p))
            for name in names:
                put(game, f"{colour} {name} ticket", zone(game, "hand", p))
        for p, n in (pile_size or {}).items():
            for c in cards(game, zone(game, "ticket_pile", p))[n:]:
                game.table.move(c, zone(game, "played", p))
    return arrange


def opts(players, **given):
    return RS.resolve_options({k: str(v).lower() for k, v in given.items()}, players)


def new_game(players=3, seed=5, first=1, remind=False, **kw) -> Game:
    """A game in a fixed position; player `first` plays first (option first_player)."""
    return Game(RS, players, opts(players, first_player=first, remind_seen=remind), seed,
                arrange=position(**kw))


def play_ticket(game: Game, p: int, name: str) -> None:
    """Player p, whose turn it is, plays their ticket `name`."""
    assert game.pending is not None and game.pending.player == p, f"P{p} should decide, not {game.pending}"
    assert "which ticket do you play" in prompt(game)
    pick(game, f"{COLOURS[p - 1]} {name} ticket")


def prompt(game: Game, viewer=None) -> str:
    return "".join(x if isinstance(x, str) else label(x, viewer, table=game.table)
                   for x in game.pending.prompt)


def train(game: Game) -> list[str]:
    return labels(game, zone(game, "night_express"))


def at(game: Game) -> str:
    return game.table.counters["night_express_at"]


def station(game: Game, st: str) -> list[str]:
    return sorted(labels(game, zone(game, "at_station", st)))


def monsters_at_home(game: Game, p: int) -> int:
    """The rulebook's count, written out here: p's seats standing at their monster's home."""
    return sum(1 for st in STATIONS for c in cards(game, zone(game, "at_station", st))
               if owner(c) == p and c.props["monster"] == HOME[st])


def turn_passed_to(game: Game, p: int) -> bool:
    return game.pending is not None and game.pending.player == p and "which ticket do you play" in prompt(game)


def snapshot(game: Game) -> dict:
    """Where every seat is, and the train's station."""
    where = game.table.zone_of
    return {"at": at(game), **{c.label: (where(c).label, cards(game, where(c)).index(c))
                               for c in game.table.cards if c.kind == "seat"}}


def zone_view(game: Game, viewer: int, zone_label: str, person: bool = False) -> list[str]:
    """What `viewer` sees in a zone (as an agent, or on a `person`'s screen): labels, or
    'hidden colour' for a face-down seat."""
    for z in view(game, viewer, person=person).as_dict()["zones"]:
        if z["label"] == zone_label:
            return [f"hidden {c['colour']}" if c.get("hidden") else c["label"] for c in z["cards"]]
    raise KeyError(zone_label)


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup(n):
    g = Game(RS, n, opts(n, first_player=1), 3)
    assert at(g) == BAT  # the Night Express starts at Dracula's station
    assert train(g) == []
    for st in STATIONS:
        assert station(g, st) == []
    for p in g.players:
        colour = COLOURS[p - 1]
        assert sorted(labels(g, zone(g, "in_front", p))) == sorted(f"{colour} {m}" for m in MONSTERS)
        hand, pile = cards(g, zone(g, "hand", p)), cards(g, zone(g, "ticket_pile", p))
        assert len(hand) == 3 and len(pile) == 6 and len(cards(g, zone(g, "played", p))) == 0
        assert sorted(c.name for c in list(hand) + list(pile)) == sorted(TICKETS)
        assert all(c.props["colour"] == colour for c in list(hand) + list(pile))
    # Nobody knows where any monster is.
    assert all(not g.table.remembered_by(c) for c in g.table.cards if c.kind == "seat")
    # The colours nobody plays stay in the box: 13 cards a colour.
    assert len(cards(g, zone(g, "box"))) == 13 * (4 - n)
    assert turn_passed_to(g, 1)


def test_first_player_is_drawn_at_random_by_default_or_chosen():
    # The rulebook says only "Players play in turn": who starts is the ruleset's choice, an
    # option (random by default) listed among the header's editable choices.
    assert RS.options["first_player"].default == "random"
    starters = {int(Game(RS, 4, None, seed).pending.player) for seed in range(16)}
    assert starters == {1, 2, 3, 4}
    for n, first in ((2, 2), (3, 3), (4, 4), (4, 1)):
        g = Game(RS, n, opts(n, first_player=first), 7)
        assert turn_passed_to(g, first)
        assert f"Setup: P{first} goes first" in view(g, 1).log()
    # The draw comes after the shuffles: the same seed gives the same seats and tickets.
    a, b = Game(RS, 3, opts(3, first_player=1), 9), Game(RS, 3, opts(3, first_player=3), 9)
    assert [labels(a, z) for z in a.table.all_zones()] == [labels(b, z) for z in b.table.all_zones()]
    # The turn then goes round from the first player: P3, P1, P2.
    g = new_game(first=3, hands={p: ["Advance 1", "Advance 1-3", "Enter"] for p in (1, 2, 3)})
    for p in (3, 1, 2):
        play_ticket(g, p, "Advance 1")
    assert turn_passed_to(g, 3)
    with pytest.raises(Exception, match="seat 4"):
        Game(RS, 3, opts(3, first_player=4), 1)


def test_setup_hides_every_seat_even_from_its_owner():
    g = Game(RS, 4, None, 8)
    for p in g.players:
        for q in g.players:
            assert zone_view(g, p, f"seats in front of {q}") == [f"hidden {COLOURS[q - 1]}"] * 4
        assert all(not g.table.can_see(c, p) for c in g.table.cards if c.kind == "seat")


def test_seats_in_front_are_mixed():
    """The seats in front are shuffled: the one that boards first is not always the same monster."""
    boarded = set()
    for seed in range(12):
        g = Game(RS, 2, opts(2, first_player=1), seed, arrange=position(hands={1: ["Enter", "Exit", "Advance 1"]}))
        play_ticket(g, 1, "Enter")
        boarded.add(train(g)[0])
    assert len(boarded) > 1


# ---------------------------------------------------------------- advancing

def test_advance_1_wraps_from_the_last_station_to_the_first():
    g = new_game(at=VALLEY, train=["yellow Dracula"], hands={1: ["Advance 1", "Exit", "Enter"]})
    play_ticket(g, 1, "Advance 1")
    assert at(g) == BAT
    assert train(g) == ["yellow Dracula"]  # seats ride along
    assert [c.name for c in cards(g, zone(g, "played", 1))] == ["Advance 1"]
    assert len(cards(g, zone(g, "hand", 1))) == 3 and len(cards(g, zone(g, "ticket_pile", 1))) == 5  # drew one
    assert turn_passed_to(g, 2)


def test_advance_1_to_3_offers_the_next_three_stations_clockwise_and_wraps():
    g = new_game(at=CASTLE, hands={1: ["Advance 1-3", "Exit", "Enter"]})
    play_ticket(g, 1, "Advance 1-3")
    assert options(g) == [VALLEY, BAT, HUT]  # 1, 2 and 3 stations on
    pick(g, HUT)  # 3 stations: Castle -> Valley -> Mansion -> Hut
    assert at(g) == HUT
    assert turn_passed_to(g, 2)


@pytest.mark.parametrize("steps,target", [(1, BAT), (2, HUT)])
def test_advance_1_to_3_shorter_rides(steps, target):
    g = new_game(at=VALLEY, hands={1: ["Advance 1-3", "Exit", "Enter"]})
    play_ticket(g, 1, "Advance 1-3")
    pick(g, STATIONS[(STATIONS.index(VALLEY) + steps) % 4])
    assert at(g) == target


# ---------------------------------------------------------------- entering

def test_enter_from_in_front_boards_at_the_front_and_others_move_back():
    g = new_game(at=HUT, train=["yellow Wolfgang", "green Sand-Ra"],
                 hands={1: ["Enter", "Exit", "Advance 1"]},
                 front_order={1: ["red Frank N. Stein", "red Dracula", "red Wolfgang", "red Sand-Ra"]})
    play_ticket(g, 1, "Enter")
    # Only seats in front: they are all unknown, so one of them simply boards (no question).
    assert train(g) == ["red Frank N. Stein", "yellow Wolfgang", "green Sand-Ra"]
    assert len(cards(g, zone(g, "in_front", 1))) == 3
    assert not g.table.remembered_by(card(g, "red Frank N. Stein"))  # still unknown, even to its owner
    assert turn_passed_to(g, 2)


def test_enter_offers_own_seats_at_the_station_and_one_from_in_front():
    g = new_game(at=HUT, stations={HUT: ["red Dracula", "yellow Sand-Ra"], BAT: ["red Wolfgang"]},
                 hands={1: ["Enter", "Exit", "Advance 1"]},
                 front_order={1: ["red Sand-Ra", "red Frank N. Stein"]})
    play_ticket(g, 1, "Enter")
    # Red Wolfgang stands at another station and the yellow seat is not P1's: not offered.
    assert options(g) == ["red Dracula", "red Sand-Ra"]
    # P1 sees their station seat by name and the seat in front face down; the prompt says where.
    d = view(g, 1).decision
    assert d["options"] == ["red Dracula", "a face-down red seat"]
    assert "Moonshine Hut" in d["prompt"] and "in front of you" in d["prompt"]
    pick(g, "red Dracula")
    assert train(g) == ["red Dracula"]
    assert station(g, HUT) == ["yellow Sand-Ra"]
    assert turn_passed_to(g, 2)


def test_enter_with_seats_only_at_the_station_asks_which():
    g = new_game(at=BAT, stations={BAT: ["red Dracula", "red Wolfgang"], HUT: ["red Sand-Ra"]},
                 train=["red Frank N. Stein"], hands={1: ["Enter", "Exit", "Advance 1"]})
    play_ticket(g, 1, "Enter")
    assert options(g) == ["red Dracula", "red Wolfgang"]
    assert "which of your seats at Bat Mansion" in prompt(g, 1)
    pick(g, "red Wolfgang")
    assert train(g) == ["red Wolfgang", "red Frank N. Stein"]
    assert station(g, BAT) == ["red Dracula"]


def test_push_out_leaves_at_the_current_station_and_only_its_owner_learns_it():
    g = new_game(players=4, at=CASTLE, train=["yellow Dracula", "green Wolfgang", "blue Sand-Ra"],
                 hands={1: ["Enter", "Exit", "Advance 1"]}, front_order={1: ["red Wolfgang"]})
    play_ticket(g, 1, "Enter")
    assert train(g) == ["red Wolfgang", "yellow Dracula", "green Wolfgang"]
    assert station(g, CASTLE) == ["blue Sand-Ra"]
    pushed = card(g, "blue Sand-Ra")
    assert g.table.remembered_by(pushed) == [4]
    assert zone_view(g, 4, "seats at Pumpkin Seed Castle") == ["blue Sand-Ra"]
    for p in (1, 2, 3):
        assert zone_view(g, p, "seats at Pumpkin Seed Castle") == ["hidden blue"]
        assert not any("blue Sand-Ra" in line for line in view(g, p).log())
    assert any("blue Sand-Ra is pushed off" in line for line in view(g, 4).log())
    assert turn_passed_to(g, 2)


def test_pushing_out_your_own_seat_from_your_station_seat():
    """A seat boarding from the station can push its owner's own seat off, which they then see."""
    g = new_game(at=HUT, train=["yellow Dracula", "green Wolfgang", "red Sand-Ra"],
                 stations={HUT: ["red Dracula"]}, hands={1: ["Enter", "Exit", "Advance 1"]},
                 front_order={1: ["red Wolfgang", "red Frank N. Stein"]})
    play_ticket(g, 1, "Enter")
    pick(g, "red Dracula")
    assert train(g) == ["red Dracula", "yellow Dracula", "green Wolfgang"]
    assert station(g, HUT) == ["red Sand-Ra"]
    assert g.table.remembered_by(card(g, "red Sand-Ra")) == [1]


# ---------------------------------------------------------------- exiting, moving to the front

def test_exit_places_the_seat_at_the_station_and_the_seats_behind_move_forward():
    g = new_game(at=CASTLE, train=["yellow Dracula", "red Wolfgang", "green Sand-Ra"],
                 hands={1: ["Exit", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Exit")
    # P1 has one seat on the train: no question.
    assert train(g) == ["yellow Dracula", "green Sand-Ra"]
    assert station(g, CASTLE) == ["red Wolfgang"]
    assert g.table.remembered_by(card(g, "red Wolfgang")) == [1]  # the owner may look under it at the station
    assert zone_view(g, 1, "seats at Pumpkin Seed Castle") == ["red Wolfgang"]
    assert zone_view(g, 2, "seats at Pumpkin Seed Castle") == ["hidden red"]
    assert turn_passed_to(g, 2)


def test_exit_asks_which_of_your_seats_by_its_place_on_the_train():
    g = new_game(at=VALLEY, train=["red Dracula", "yellow Wolfgang", "red Sand-Ra"],
                 hands={1: ["Exit", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Exit")
    assert options(g) == ["front", "back"]
    p1_prompt = view(g, 1).decision["prompt"]
    assert "Mummy Valley" in p1_prompt
    assert "a face-down red seat, a face-down yellow seat, a face-down red seat" in p1_prompt
    pick(g, "front")
    assert train(g) == ["yellow Wolfgang", "red Sand-Ra"]
    assert station(g, VALLEY) == ["red Dracula"]


def test_move_to_front_takes_any_seat_and_moves_those_before_it_back():
    g = new_game(at=BAT, train=["yellow Dracula", "green Wolfgang", "red Sand-Ra"],
                 hands={1: ["Move to front", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Move to front")
    assert options(g) == ["middle", "back"]  # the front seat is already at the front
    pick(g, "back")
    assert train(g) == ["red Sand-Ra", "yellow Dracula", "green Wolfgang"]
    assert station(g, BAT) == []
    assert turn_passed_to(g, 2)


def test_move_to_front_works_on_another_players_seat():
    g = new_game(at=BAT, train=["yellow Dracula", "green Wolfgang", "red Sand-Ra"],
                 hands={1: ["Move to front", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Move to front")
    pick(g, "middle")
    assert train(g) == ["green Wolfgang", "yellow Dracula", "red Sand-Ra"]


# ---------------------------------------------------------------- the pumpkin

def test_pumpkin_offers_every_action():
    g = new_game(at=HUT, train=["yellow Dracula", "red Wolfgang"],
                 hands={1: ["Pumpkin", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Pumpkin")
    assert options(g) == [ADVANCE1, ADVANCE3, ENTER, EXIT, FRONT]
    pick(g, FRONT)
    # Only the seat behind the front can move: no second question.
    assert train(g) == ["red Wolfgang", "yellow Dracula"]
    assert turn_passed_to(g, 2)


@pytest.mark.parametrize("action,check", [
    (ADVANCE1, lambda g: at(g) == CASTLE),
    (ENTER, lambda g: train(g)[0].startswith("red ") and len(train(g)) == 3),
    (EXIT, lambda g: station(g, HUT) == ["red Wolfgang"]),
])
def test_pumpkin_carries_out_the_chosen_action(action, check):
    g = new_game(at=HUT, train=["yellow Dracula", "red Wolfgang"],
                 hands={1: ["Pumpkin", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Pumpkin")
    pick(g, action)
    assert check(g)
    assert turn_passed_to(g, 2)


def test_pumpkin_with_advance_1_to_3():
    g = new_game(at=HUT, hands={1: ["Pumpkin", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Pumpkin")
    pick(g, ADVANCE3)
    pick(g, BAT)
    assert at(g) == BAT


def test_pumpkin_offers_only_possible_actions():
    # Empty train: no exit and nothing to move to the front.
    g = new_game(at=HUT, hands={1: ["Pumpkin", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Pumpkin")
    assert options(g) == [ADVANCE1, ADVANCE3, ENTER]


# ---------------------------------------------------------------- two-action tickets

def test_two_action_ticket_asks_which_first_then_the_other_or_skip():
    g = new_game(at=HUT, train=["red Dracula", "yellow Wolfgang"], stations={HUT: ["red Wolfgang"]},
                 hands={1: ["Enter/Exit", "Enter", "Advance 1"]},
                 front_order={1: ["red Sand-Ra", "red Frank N. Stein"]})
    play_ticket(g, 1, "Enter/Exit")
    assert options(g) == [ENTER, EXIT]
    pick(g, EXIT)  # red Dracula (P1's only seat on the train) gets off
    assert sorted(station(g, HUT)) == ["red Dracula", "red Wolfgang"]
    assert options(g) == [ENTER, SKIP]
    pick(g, ENTER)
    # Red Dracula just got off: boarding it again would use the same monster for both actions.
    assert options(g) == ["red Wolfgang", "red Sand-Ra"]
    pick(g, "red Wolfgang")
    assert train(g) == ["red Wolfgang", "yellow Wolfgang"]
    assert station(g, HUT) == ["red Dracula"]
    assert turn_passed_to(g, 2)


def test_two_action_ticket_may_stop_after_one_action():
    g = new_game(at=HUT, train=["red Dracula"], hands={1: ["Enter/Exit", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Enter/Exit")
    pick(g, ENTER)
    assert options(g) == [EXIT, SKIP]
    pick(g, SKIP)
    assert len(train(g)) == 2 and train(g)[1] == "red Dracula"
    assert turn_passed_to(g, 2)


def test_enter_then_exit_never_with_the_same_monster():
    # P1's only seat that can board is in front; once it boarded, exit would need the same seat.
    g = new_game(at=HUT, stations={BAT: ["red Dracula", "red Wolfgang"], CASTLE: ["red Sand-Ra"]},
                 hands={1: ["Enter/Exit", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Enter/Exit")
    # Exit is impossible at first (no red seat on the train): enter is done without a question,
    # and exit with the seat that just boarded is never offered.
    assert train(g) == ["red Frank N. Stein"]
    assert turn_passed_to(g, 2)


def test_exit_then_enter_never_with_the_same_monster():
    g = new_game(at=VALLEY, train=["red Dracula"],
                 stations={BAT: ["red Wolfgang"], HUT: ["red Frank N. Stein", "red Sand-Ra"]},
                 hands={1: ["Enter/Exit", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Enter/Exit")
    # Enter is impossible at first (nothing in front, nothing of P1's at Mummy Valley); after
    # red Dracula got off, it is the only seat that could board: not allowed.
    assert station(g, VALLEY) == ["red Dracula"]
    assert train(g) == []
    assert turn_passed_to(g, 2)


def test_ride_and_enter_rides_first_when_entering_is_not_yet_possible():
    g = new_game(at=VALLEY, stations={BAT: ["red Dracula"], HUT: ["red Wolfgang", "red Sand-Ra"],
                                      CASTLE: ["red Frank N. Stein"]},
                 hands={1: ["Ride-and-Enter", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Ride-and-Enter")
    # Only the ride is possible: done at once; at Bat Mansion red Dracula may now board.
    assert at(g) == BAT
    assert options(g) == [ENTER, SKIP]
    pick(g, ENTER)
    assert train(g) == ["red Dracula"]
    assert station(g, BAT) == []
    assert turn_passed_to(g, 2)


def test_ride_and_enter_in_the_other_order():
    g = new_game(at=BAT, hands={1: ["Ride-and-Enter", "Enter", "Advance 1"]},
                 front_order={1: ["red Wolfgang"]})
    play_ticket(g, 1, "Ride-and-Enter")
    assert options(g) == [ADVANCE1, ENTER]
    pick(g, ENTER)
    assert train(g) == ["red Wolfgang"]
    assert options(g) == [ADVANCE1, SKIP]
    pick(g, ADVANCE1)
    assert at(g) == HUT and train(g) == ["red Wolfgang"]


def test_ride_and_exit():
    g = new_game(at=BAT, train=["yellow Dracula", "red Wolfgang"],
                 hands={1: ["Ride-and-Exit", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Ride-and-Exit")
    pick(g, ADVANCE1)
    pick(g, EXIT)
    assert at(g) == HUT
    assert station(g, HUT) == ["red Wolfgang"]  # gets off at the station reached
    assert train(g) == ["yellow Dracula"]


def test_ticket_whose_actions_are_all_impossible_changes_nothing():
    g = new_game(at=HUT, train=["yellow Dracula"],
                 stations={BAT: ["red Dracula", "red Wolfgang"], CASTLE: ["red Sand-Ra", "red Frank N. Stein"]},
                 hands={1: ["Exit", "Enter/Exit", "Move to front"]})
    before = snapshot(g)
    pile = len(cards(g, zone(g, "ticket_pile", 1)))
    play_ticket(g, 1, "Exit")  # no red seat on the train
    assert snapshot(g) == before
    assert [c.name for c in cards(g, zone(g, "played", 1))] == ["Exit"]  # played nonetheless
    assert len(cards(g, zone(g, "hand", 1))) == 3
    assert len(cards(g, zone(g, "ticket_pile", 1))) == pile - 1  # and one drawn
    assert any("no action can be done" in line for line in view(g, 2).log())
    assert turn_passed_to(g, 2)


@pytest.mark.parametrize("ticket", ["Enter/Exit", "Move to front", "Enter"])
def test_other_impossible_tickets_change_nothing(ticket):
    # Nothing of P1's can board or get off; only one seat on the train, already at the front.
    g = new_game(at=HUT, train=["yellow Dracula"],
                 stations={BAT: ["red Dracula", "red Wolfgang"], CASTLE: ["red Sand-Ra", "red Frank N. Stein"]},
                 hands={1: [ticket, "Advance 1", "Pumpkin"]})
    before = snapshot(g)
    play_ticket(g, 1, ticket)
    assert snapshot(g) == before
    assert turn_passed_to(g, 2)


# ---------------------------------------------------------------- drawing and the reshuffle

def test_draw_one_after_playing():
    g = new_game(hands={1: ["Advance 1", "Enter", "Exit"]}, pile_size={1: 1})
    last = cards(g, zone(g, "ticket_pile", 1))[0]
    play_ticket(g, 1, "Advance 1")
    assert g.table.zone_of(last) is zone(g, "hand", 1)
    assert len(cards(g, zone(g, "hand", 1))) == 3 and len(cards(g, zone(g, "ticket_pile", 1))) == 0
    assert len(cards(g, zone(g, "played", 1))) == 6  # the 5 laid out by the arrangement + this one


def test_reshuffle_when_the_third_card_cannot_be_drawn():
    g = new_game(hands={1: ["Advance 1", "Enter", "Exit"]}, pile_size={1: 0})
    assert len(cards(g, zone(g, "played", 1))) == 6
    play_ticket(g, 1, "Advance 1")
    # All 9 tickets (the 7 played and the 2 left in hand) were shuffled, and 3 drawn.
    assert len(cards(g, zone(g, "played", 1))) == 0
    assert len(cards(g, zone(g, "hand", 1))) == 3 and len(cards(g, zone(g, "ticket_pile", 1))) == 6
    tickets = cards(g, zone(g, "hand", 1)) + cards(g, zone(g, "ticket_pile", 1))
    assert sorted(c.name for c in tickets) == sorted(TICKETS)
    assert any("shuffles all their tickets" in line for line in view(g, 1).log())
    assert turn_passed_to(g, 2)


def test_reshuffle_includes_the_two_cards_in_hand():
    """Over several seeds, the two tickets kept in hand sometimes end up in the new pile."""
    went_to_pile = False
    for seed in range(10):
        g = new_game(seed=seed, hands={1: ["Advance 1", "Enter", "Exit"]}, pile_size={1: 0})
        play_ticket(g, 1, "Advance 1")
        pile = {c.name for c in cards(g, zone(g, "ticket_pile", 1))}
        went_to_pile |= bool(pile & {"Enter", "Exit"})
    assert went_to_pile


# ---------------------------------------------------------------- the end of the game

def test_win_on_another_players_turn_ends_the_game_at_once():
    # P2 (yellow) has Dracula and Wolfgang at home; P1's Enter pushes yellow Frank N. Stein off
    # the back of the train at Pumpkin Seed Castle, his home.
    g = new_game(at=CASTLE, train=["green Dracula", "red Sand-Ra", "yellow Frank N. Stein"],
                 stations={BAT: ["yellow Dracula"], HUT: ["yellow Wolfgang"]},
                 hands={1: ["Enter", "Exit", "Advance 1"]}, front_order={1: ["red Dracula"]})
    play_ticket(g, 1, "Enter")
    assert g.over and g.end_reason == "monsters home"
    assert g.winners() == [Player(2)]
    assert monsters_at_home(g, 2) == 3
    assert g.scores() == {Player(1): 0, Player(2): 3, Player(3): 0}
    # At once: P1 did not even draw.
    assert len(cards(g, zone(g, "hand", 1))) == 2
    # The winner reveals the three monsters at home.
    for text in ("yellow Dracula", "yellow Wolfgang", "yellow Frank N. Stein"):
        assert g.table.remembered_by(card(g, text)) == [1, 2, 3]
    assert any("P2 has 3 monsters at their home stations and wins" in line for line in view(g, 3).log())


def test_win_in_the_middle_of_a_two_action_ticket_stops_it():
    g = new_game(at=HUT, train=["red Wolfgang"], stations={BAT: ["red Dracula"], VALLEY: ["red Sand-Ra"]},
                 hands={1: ["Ride-and-Exit", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Ride-and-Exit")
    pick(g, EXIT)  # red Wolfgang gets off at Moonshine Hut, his home: 3 at home
    assert g.over and g.winners() == [Player(1)]
    assert at(g) == HUT  # the ride never happened


def test_a_monster_at_the_wrong_station_does_not_count():
    g = new_game(at=BAT, train=["red Wolfgang"], stations={HUT: ["red Dracula"], VALLEY: ["red Sand-Ra"]},
                 hands={1: ["Exit", "Enter", "Advance 1"]})
    play_ticket(g, 1, "Exit")  # Wolfgang gets off at Bat Mansion, Dracula's home
    assert not g.over
    # Only Sand-Ra is at home.
    assert monsters_at_home(g, 1) == 1 == g.call_function("at_home", [Player(1)])
    assert turn_passed_to(g, 2)


def test_leaving_home_undoes_the_count():
    # Red Dracula boards again from his home: P1 has 1 monster at home, not 2.
    g = new_game(at=BAT, stations={BAT: ["red Dracula"], VALLEY: ["red Sand-Ra"]},
                 hands={1: ["Enter", "Exit", "Advance 1"]}, front_order={1: ["red Wolfgang"]})
    assert monsters_at_home(g, 1) == 2
    play_ticket(g, 1, "Enter")
    pick(g, "red Dracula")
    assert monsters_at_home(g, 1) == 1 == g.call_function("at_home", [Player(1)])
    assert not g.over


def test_the_losers_monsters_at_home_stay_their_secret():
    """The winner reveals their 3 monsters at home; the rulebook has the others reveal nothing,
    so their scores (printed at the end for all to see) cannot count theirs."""
    hidden_at_home = 0
    for i in range(6):
        seed = game_seed(3, 9000 + i)
        game = play(Game(RS, 3, None, seed), make_agents(["random"] * 3, seed))
        winner, = game.winners()
        for p in game.players:
            if p != winner:
                hidden_at_home += monsters_at_home(game, p)
                assert game.scores()[p] == 0
        assert game.scores()[winner] == 3
    assert hidden_at_home > 0, "no loser had a monster at home: the test could not fail"


# ---------------------------------------------------------------- knowledge

REMEMBER_HANDS = {1: ["Exit", "Enter", "Advance 1"], 2: ["Advance 1-3", "Exit", "Enter"],
                  3: ["Advance 1", "Exit", "Enter"]}


def remembered_dracula(remind: bool) -> Game:
    """P1 looks under red Dracula at Bat Mansion, and it boards the Night Express again."""
    g = new_game(at=BAT, train=["yellow Wolfgang", "red Dracula"], hands=REMEMBER_HANDS, remind=remind,
                 front_order={1: ["red Sand-Ra"]})
    assert zone_view(g, 1, "Night Express (front to back)", person=True) == ["hidden yellow", "hidden red"]
    play_ticket(g, 1, "Exit")  # red Dracula gets off at Bat Mansion: P1 looks under it
    assert zone_view(g, 1, "seats at Bat Mansion", person=True) == ["red Dracula"]
    play_ticket(g, 2, "Advance 1-3")
    pick(g, VALLEY)
    play_ticket(g, 3, "Advance 1")
    assert at(g) == BAT
    assert zone_view(g, 1, "seats at Bat Mansion", person=True) == ["red Dracula"]   # still at the station
    play_ticket(g, 1, "Enter")
    pick(g, "red Dracula")  # it boards again: on the train, hidden from everyone
    assert train(g) == ["red Dracula", "yellow Wolfgang"]
    return g


def test_a_seat_boarding_again_is_not_shown_to_its_owner_by_default():
    # Rulebook: "You may never peek at monsters that are in front of you or at the
    # Night Express. Only at stations may you look at your monsters anytime." Remembering is the
    # player's part: by default (option remind_seen off) the screen stops showing the monster.
    assert RS.options["remind_seen"].default is False
    g = remembered_dracula(remind=False)
    seat = card(g, "red Dracula")
    assert g.table.concealed_from(seat) == [1]
    for p in (1, 2, 3):
        assert zone_view(g, p, "Night Express (front to back)", person=True) == ["hidden red", "hidden yellow"]
    # Not in P1's log either: neither where it got off nor that it boarded.
    screen = view(g, 1, person=True)
    assert "red Dracula" not in json.dumps(screen.as_dict(), ensure_ascii=False)
    assert screen.log()[-2:] == ["a face-down red seat boards the Night Express at Bat Mansion", "P1 draws a ticket"]
    assert "a face-down red seat gets off the Night Express at Bat Mansion" in screen.log()


def test_a_bot_remembers_the_seat_it_saw_whatever_the_option():
    # The reminder only decides what a person's screen shows: a bot's view (and the Python API's)
    # keeps what its player was shown, which is its information set.
    for remind in (False, True):
        g = remembered_dracula(remind)
        seat = card(g, "red Dracula")
        assert g.table.remembered_by(seat) == [1] and g.table.can_see(seat, 1)
        assert zone_view(g, 1, "Night Express (front to back)") == ["red Dracula", "hidden yellow"]
        assert view(g, 1).log()[-2] == "red Dracula boards the Night Express at Bat Mansion"
        for p in (2, 3):
            assert zone_view(g, p, "Night Express (front to back)") == ["hidden red", "hidden yellow"]
            assert "red Dracula" not in json.dumps(view(g, p).as_dict(), ensure_ascii=False)
        obs = Observation(RS, 3)
        assert obs.encode(view(g, 1))[obs.card_slot[seat.id]] == obs.zone_code[("night_express", None)]
        assert obs.encode(view(g, 2))[obs.card_slot[seat.id]] == 0


def test_owner_remembers_a_seat_after_it_left_the_station_with_the_reminder_option():
    g = remembered_dracula(remind=True)
    # P1 is reminded of it, on the table and in the log...
    assert g.table.concealed_from(card(g, "red Dracula")) == []
    assert zone_view(g, 1, "Night Express (front to back)", person=True) == ["red Dracula", "hidden yellow"]
    assert view(g, 1, person=True).log()[-2] == "red Dracula boards the Night Express at Bat Mansion"
    # ...and nobody else.
    for p in (2, 3):
        assert zone_view(g, p, "Night Express (front to back)", person=True) == ["hidden red", "hidden yellow"]
        assert "red Dracula" not in json.dumps(view(g, p, person=True).as_dict())
        assert not any("Dracula" in line for line in view(g, p, person=True).log())


def test_the_person_at_the_terminal_is_not_reminded():
    g = remembered_dracula(remind=False)
    play_ticket(g, 2, "Enter")
    play_ticket(g, 3, "Enter")  # yellow Wolfgang is pushed off the back
    assert turn_passed_to(g, 1)
    out = io.StringIO()
    assert HumanAgent(io.StringIO("1\n"), out).choose(view(g, 1)) == 0  # given the agent's view, as play() does
    screen = out.getvalue()
    assert "Night Express (front to back)" in screen and "which ticket do you play" in screen
    assert "Dracula" not in screen
    agents_screen = render(view(g, 1), log_lines=12)  # what the screen would show without the mark
    assert "Night Express (front to back) red Dracula" in agents_screen
    assert "  red Dracula boards the Night Express" in agents_screen
    assert "  a face-down red seat boards the Night Express" in screen


def dracula_to_exit_at_home(remind: bool) -> Game:
    """P1 has two monsters at home and two seats on the Night Express at Bat Mansion: red
    Wolfgang, never seen, at the front, and red Dracula, seen at a station before, in the middle
    (hidden from P1's screen as `board` hides it, unless the option reminds them). P1 plays Exit."""
    arrange = position(at=BAT, train=["red Wolfgang", "red Dracula"], hands={1: ["Exit", "Advance 1", "Enter"]},
                       stations={CASTLE: ["red Frank N. Stein"], VALLEY: ["red Sand-Ra"]})

    def seen_before(game: Game) -> None:
        arrange(game)
        seat = card(game, "red Dracula")
        game.table.reveal(seat, 1)
        if not remind:
            game.table.conceal(seat, 1)
    g = Game(RS, 3, opts(3, first_player=1, remind_seen=remind), 5, arrange=seen_before)
    play_ticket(g, 1, "Exit")
    assert options(g) == ["front", "middle"]
    return g


def test_bots_decide_by_the_seat_they_saw_whatever_the_option():
    # Getting red Dracula off at its home wins; a bot remembers which seat it is, as its
    # information set holds it, with the reminder or without.
    chosen = {}
    for remind in (False, True):
        g = dracula_to_exit_at_home(remind)
        assert "red Dracula" in prompt(g, 1)
        assert ("Dracula" in view(g, 1, person=True).decision["prompt"]) is remind
        for seed in range(12):  # every world a bot thinks in has red Dracula where it is
            assert train(view(g, 1).world(seed)) == ["red Wolfgang", "red Dracula"]
        chosen[remind] = (GreedyAgent(seed=1).choose(view(g, 1)),
                          MctsAgent(seed=1, iterations=40).choose(view(g, 1)))
    assert chosen[False] == chosen[True] == (1, 1)  # middle: red Dracula


def test_the_marks_are_copied_and_saved_and_older_saves_load_without_them(tmp_path):
    g = remembered_dracula(remind=False)
    seat = card(g, "red Dracula")
    hidden = ["hidden red", "hidden yellow"]
    # Copies (undo, search) carry the mark.
    copy = g.clone()
    assert copy.table.concealed_from(seat) == [1]
    copy.table.reveal(seat, 1)
    assert g.table.concealed_from(seat) == [1]
    g.restore(copy)
    assert g.table.concealed_from(seat) == []
    g = remembered_dracula(remind=False)
    # A snapshot, and a save file, keep it.
    data = json.loads(json.dumps(g.snapshot()))
    assert data["table"]["concealed"] == {str(seat.id): [1]}
    write_save(g, tmp_path / "game.json", ["human", "random", "random"])
    # (The game was set up by hand, not by decisions: resuming would refuse it, so its state is read.)
    for back in (Game.from_snapshot(RS, data), Game.from_snapshot(RS, read_save(tmp_path / "game.json")["state"])):
        assert back.table.remembered_by(seat) == back.table.concealed_from(seat) == [1]
        assert zone_view(back, 1, "Night Express (front to back)", person=True) == hidden
        assert zone_view(back, 1, "Night Express (front to back)") == ["red Dracula", "hidden yellow"]
    # A state saved before the marks has none: it loads, the player remembering what it says,
    # and a replay of it compares without them.
    del data["table"]["concealed"]
    old = Game.from_snapshot(RS, data)
    assert old.table.remembered_by(seat) == [1] and old.table.concealed_from(seat) == []
    assert state_difference(g, data) is None
    unmarked = {**data, "table": {**data["table"], "concealed": {}}}
    assert state_difference(g, unmarked) == f"state.table.concealed.{seat.id}"


@pytest.mark.parametrize("boarded, told", [(False, "red Dracula"), (True, "a face-down red seat")])
def test_undo_refused_for_a_seat_seen_since_does_not_name_it_once_concealed(boarded, told):
    g = new_game(at=BAT, train=["red Dracula"], hands=REMEMBER_HANDS)
    history = UndoHistory({1})
    history.mark(g)
    play_ticket(g, 1, "Exit")  # red Dracula gets off: P1 looks under it
    if boarded:
        g.table.conceal(card(g, "red Dracula"), 1)  # as boarding the Night Express again does
    play_ticket(g, 2, "Enter")
    play_ticket(g, 3, "Enter")
    history.mark(g)
    refusal = history.take_back(g)
    assert refusal.startswith(f"Undo refused: since your last decision you have seen {told}, ")
    assert ("Dracula" in refusal) is not boarded


def test_a_seat_never_at_a_station_stays_unknown_to_its_owner():
    g = new_game(at=BAT, hands={1: ["Enter", "Exit", "Advance 1"]}, front_order={1: ["red Sand-Ra"]})
    play_ticket(g, 1, "Enter")
    assert train(g) == ["red Sand-Ra"]
    assert zone_view(g, 1, "Night Express (front to back)") == ["hidden red"]
    assert "red Sand-Ra" not in json.dumps(view(g, 1).as_dict())


# ---------------------------------------------------------------- random games: no leaks

GAMES_PER_COUNT = 10
LABEL_EDGE = r"(?<![\w&])({})(?![\w&])"


@pytest.mark.parametrize("n,remind", [(2, False), (3, False), (4, False), (3, True)])
def test_views_never_name_a_monster_the_player_has_not_seen(n, remind):
    """In random games, at every decision, every player's whole view (zones, counters, decision,
    log) names only seats that player has legitimately seen: their own, once at a station, and
    the winner's seats revealed at the end. An owner remembers a seat once it stood at a station
    (a bot's view keeps it); a person's screen shows it only while it stands at a station (with
    option remind_seen, from then on), in the log too; the other players never learn a seat
    before the final reveal."""
    kept_from_screen = 0  # times a person's screen did not show a seat they remembered
    for i in range(GAMES_PER_COUNT if not remind else 3):
        seed = game_seed(n, 7000 + i)
        game = Game(RS, n, opts(n, remind_seen=remind), seed)
        agents = make_agents(["random"] * n, seed)
        # The seats in play (those of colours nobody plays lie in the box, out of play and public).
        seats = [c for c in game.table.cards if c.kind == "seat" and owner(c) <= n]
        assert len(seats) == 4 * n
        seen = {p: set() for p in game.players}
        been_at_station: set[int] = set()
        logged = 0
        while True:
            at_station = {c.id for c in seats if game.table.zone_of(c).name == "at_station"}
            been_at_station |= at_station
            if not game.over:
                for c in seats:
                    # The owner remembers exactly their seats that ever stood at a station;
                    # nobody else can see any seat.
                    shown = c.id in been_at_station
                    assert game.table.remembered_by(c) == ([owner(c)] if shown else []), c.label
                    for p in game.players:
                        assert game.table.can_see(c, p) == (p == owner(c) and shown), (c.label, p)
            for p in game.players:
                seen[p].update(c.id for c in seats if game.table.can_see(c, p))
                pv = view(game, p)
                data = pv.as_dict(log_last=0)
                new_lines = pv.log(last=len(game.log) - logged) if len(game.log) > logged else []
                told = [(json.dumps(data, ensure_ascii=False) + "\n" + "\n".join(new_lines), seen[p])]
                if not game.over and game.pending.player == p:
                    # The screen of the person to decide shows what they saw, and without the
                    # reminder only while it stands at a station.
                    on_screen = seen[p] if remind else seen[p] & at_station
                    kept_from_screen += len(seen[p] - on_screen)
                    told.append((render(pv.for_person()), on_screen))
                for text, allowed in told:
                    unseen = [c for c in seats if c.id not in allowed]
                    if unseen:
                        pattern = LABEL_EDGE.format("|".join(re.escape(c.label) for c in unseen))
                        found = re.search(pattern, text)
                        assert found is None, f"P{p} can read {found.group(0)} (seed {seed})"
                for z in data["zones"]:
                    for shown in z["cards"]:
                        if shown.get("hidden"):
                            assert set(shown) <= {"hidden", "colour", "kind"}
            logged = len(game.log)
            if game.over:
                assert game.end_reason == "monsters home"
                break
            decider = game.pending.player
            game.apply(agents[decider - 1].choose(view(game, decider)))
        # The game ended because exactly one player has 3 monsters at home.
        at_home = {p: monsters_at_home(game, p) for p in game.players}
        assert sorted(at_home.values())[-1] == 3 and list(at_home.values()).count(3) == 1
        assert game.winners() == [p for p in game.players if at_home[p] == 3]
        assert game.scores() == {p: 3 if at_home[p] == 3 else 0 for p in game.players}
        # The whole final view, log included, once more, as an agent and as a person is shown it.
        for p in game.players:
            on_screen = seen[p] if remind else seen[p] & at_station
            for person, allowed in ((False, seen[p]), (True, on_screen)):
                text = json.dumps(view(game, p, person=person).as_dict(), ensure_ascii=False)
                unseen = [c for c in seats if c.id not in allowed]
                if unseen:
                    assert not re.search(LABEL_EDGE.format("|".join(re.escape(c.label) for c in unseen)), text)
    assert (kept_from_screen > 0) == (not remind), "no seat was kept from a screen: the test could not fail"


def test_heuristic_counts_seats_riding_and_those_at_their_home_station():
    """scoring.heuristic: monsters at home, plus 1/4 per own seat on the Night Express and 1/4
    more when the train stands at its monster's home."""
    g = new_game(at=HUT, train=["red Wolfgang", "red Dracula", "yellow Sand-Ra"],
                 stations={CASTLE: ["red Frank N. Stein"], BAT: ["yellow Wolfgang"]})
    assert g.estimates() == {Player(1): 1 + (2 + 1) / 4, Player(2): 0 + 1 / 4, Player(3): 0}

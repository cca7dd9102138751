"""Scenario tests for Isle of Trains (rulesets/isle_of_trains.yaml).

Every expectation is worked out by hand from the 2014 rulebook (both printings) and the card
figures given in the ruleset (see its header), with the arithmetic in comments. Positions are
built with `arrange` (see `position`), then driven decision by decision with `pick`.

Card figures used below (cost / weight or power / capacity / own cargo type / points):
  Level 1 Engine 1/power 4/-/wild/0   Level 2 Engine 3/6/-/oil/2   Level 3 Engine 6/8/-/box/4
  Hopper Car 1/1/1 coal/coal/2 (draw 3, discard 1)       Tanker Car 2/1/1 oil/coal/2 (draw 3)
  Hopper-2 Car 4/2/2 coal/oil/5 (draw 2, +Build)          Tanker 201 5/2/2 oil/oil/5 (draw 3, +Deliver)
  MegaHopper 7/1/3 coal/box/8 (draw 2, +any)              Supertanker 8/1/3 oil/box/8 (draw 3, +Load or Deliver)
  Boxcar 3/2/1 box/coal/2 (draw 4)   Bigger Boxcar 6/3/2 box/oil/5 (draw 4, +Load)
  R3-D Boxcar 9/2/3 box/box/8 (draw 5, discard 1, +Load)
  Cabooses cost 3, weight 2 (Caboose 6: 0); points C1 2, C2 3, C3 2, C4 1, C5 1, C6 1.
  Buildings cost 6, wild; Grand Central 8 points.
  Contracts (front; back A; back B): Cork 6 oil+box; 11 2oil+2box; 10 coal+oil+2box.
  Iverness 7 2box; 14 2oil+3box.  Dublin 5 2oil; 9 2coal+3oil.  Donegal 4 coal+oil; 9; 7 2coal+2oil.
  Ennis Wharf 5 coal+box.  Loch Haven 4 2coal; 10 3coal+2box.
"""
from __future__ import annotations

import random

import pytest

from engine.core.errors import EffectError, IllegalMove
from engine.core.table import Player
from engine.game.game import Game

from conftest import ROOT, cards, options, pick, ruleset, zone

RS = ruleset("isle_of_trains")
TAKE, BUILD, LOAD, DELIVER = "Take", "Build", "Load", "Deliver"
SKIP = "skip the bonus action (it is lost)"
NEW = "add it as a new card"
NO_DROP = "discard no car"
REMOVE = "remove cars from my train"
STOP_REMOVING = "stop removing cars"
STOP_DELIVERING = "stop delivering"
ONLY_CARDS = "no contract, only turn in goods for cards"
PHANTOM = "a phantom card"
CABOOSES = ["Caboose 1", "Caboose 2", "Caboose 4", "Caboose 5", "Caboose 6"]


# ---------------------------------------------------------------- helpers

def opts(players=2, **given):
    return RS.resolve_options({k: str(v) for k, v in given.items()}, players)


def lab(game, name):
    """The label of the cards named `name` (copies share it)."""
    return next(c.label for c in game.table.cards if c.name == name)


def names(game, z):
    return [c.name for c in cards(game, z)]


def position(hands=None, trains=None, buildings=None, contracts=None, deck=None, discard=None,
             deck_only=False, first=1, phantoms=None):
    """An `arrange` function putting the table into a fixed position.

    Every train card first goes back to the draw pile and every contract to the Isle. Then:
    trains: {seat: [card name, or (car name, [goods])]}, a good being a name, (name, type) or
    (name, type, "down") for a face-down one; a good given by name alone is loaded as its own type,
    or as the car's type if it is wild. Seats without a train get a Level 1 Engine.
    hands / buildings: {seat: [names]}; contracts: {seat: [name or (name, "back A"/"back B")]};
    deck: names put on top of the draw pile, in order; deck_only: every other card of the pile
    is set aside (out of play, in the setup-only engine pool); discard: names for the discard pile;
    phantoms: {seat: n}; first: the first player."""
    def arrange(game: Game) -> None:
        t = game.table
        deck_z, island = zone(game, "deck"), zone(game, "island")
        counters = t.counters
        for z in list(t.all_zones()):
            if z is deck_z:
                continue
            for c in list(t.cards_in(z)):
                t.move(c, island if c.kind == "contract" else deck_z)

        chosen = set()

        def take(name):
            for c in t.cards_in(deck_z):
                if c.name == name and c.id not in chosen:
                    chosen.add(c.id)
                    return c
            raise AssertionError(f"no {name} left in the draw pile")

        def put(name, to, position=None):
            c = island_card(name) if to.name == "contracts" else take(name)
            t.move(c, to, position)
            return c

        def island_card(name):
            return next(c for c in t.cards_in(island) if c.name == name)

        trains_given = trains or {}
        for p in game.players:
            for entry in trains_given.get(int(p), ["Level 1 Engine"]):
                car_name, goods = (entry, []) if isinstance(entry, str) else entry
                car = put(car_name, zone(game, "train", p))
                for g in goods:
                    g_name, g_type, face = (g, None, "up") if isinstance(g, str) else (tuple(g) + ("up",))[:3]
                    good = put(g_name, zone(game, "cargo", car))
                    own = good.props["cargo_type"]
                    counters["loaded_as"][good] = g_type or (own if own != "wild" else car.props["accepts"])
                    if face == "down":
                        t.set_face_down(good, True)
                        t.reveal(good, int(p))
        for p, names in (hands or {}).items():
            for name in names:
                put(name, zone(game, "hand", Player(p)))
        for p, names in (buildings or {}).items():
            for name in names:
                put(name, zone(game, "buildings", Player(p)))
        for p, entries in (contracts or {}).items():
            for entry in entries:
                name, side = (entry, "") if isinstance(entry, str) else entry
                c = put(name, zone(game, "contracts", Player(p)))
                counters["completed_back"][c] = side
        for name in discard or []:
            put(name, zone(game, "discard"))
        top = [take(name) for name in deck or []]
        if deck_only:
            for c in list(t.cards_in(deck_z)):
                if c not in top:
                    t.move(c, zone(game, "engine_pool"))
        for i, c in enumerate(top):
            t.move(c, deck_z, i)
        for p, n in (phantoms or {}).items():
            counters["phantoms"][Player(p)] = n
        counters["first_player"] = Player(first)
    return arrange


def new_game(players=2, seed=3, options_=None, **kw):
    return Game(RS, players, options_ or opts(players), seed, arrange=position(**kw))


def prompt(game):
    from engine.game.view import view
    return view(game, None).decision["prompt"]


def asked(game, start):
    return game.pending is not None and prompt(game).startswith(start)


def hand(game, p):
    return names(game, zone(game, "hand", Player(p)))


def train(game, p):
    return names(game, zone(game, "train", Player(p)))


def cargo_of(game, p, car_name):
    car = next(c for c in cards(game, zone(game, "train", Player(p))) if c.name == car_name)
    return cards(game, zone(game, "cargo", car))


def fn(game, name, *args):
    return game.call_function(name, list(args))


def counter(game, name, key=None):
    value = game.table.counters[name]
    return value if key is None else value[Player(key)]


def assert_refused(game):
    """A forced out-of-range answer is refused and changes nothing."""
    before = game.digest()
    n = len(game.pending.options)
    for bad in (n, n + 5, -1):
        with pytest.raises(IllegalMove):
            game.apply(bad)
    assert game.digest() == before


def whose(game):
    return int(game.pending.player)


def pay_all(game):
    """Pay card by card with the first card offered (the last payment is taken without asking)."""
    while asked(game, "Pay for"):
        game.apply(0)


# A decision with a single option is taken without asking: a player whose only legal action is
# Take plays it at once. A caboose in the train makes Build (remove cars) possible too, so these
# trains keep a seat's turns asking (a caboose without capacity takes no cargo).
ASK = {1: ["Level 1 Engine", "Caboose 4"], 2: ["Level 1 Engine", "Caboose 1"],
       3: ["Level 1 Engine", "Caboose 5"], 4: ["Level 1 Engine", "Caboose 6"]}


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_setup(n, seed):
    after_setup = {}

    def snapshot(game):
        after_setup.update({p: len(cards(game, zone(game, "hand", p))) for p in game.players})
    g = Game(RS, n, opts(n), seed, arrange=snapshot)
    assert list(after_setup.values()) == [5] * n
    for p in g.players:
        t = cards(g, zone(g, "train", p))
        assert len(t) == 1 and t[0].kind == "engine" and t[0].props["level"] == 1
    # The six contracts, primary side up, form the Isle.
    assert names(g, zone(g, "island")) == ["Cork", "Iverness", "Dublin", "Donegal", "Ennis Wharf", "Loch Haven"]
    # 50 train cards - n engines - 5n cards in hand; the unused Level 1 Engines are in it.
    deck = cards(g, zone(g, "deck"))
    assert len(deck) + len(cards(g, zone(g, "hand", g.pending.player))) - 5 == 50 - 6 * n
    # The unused Level 1 Engines went back into the pile (and so may have been dealt).
    spare = list(deck) + [c for p in g.players for c in cards(g, zone(g, "hand", p))]
    assert sum(1 for c in spare if c.props.get("level") == 1) == 4 - n
    # The shaded engine is always dealt, and its holder starts.
    holder = [p for p in g.players if cards(g, zone(g, "train", p))[0].props["shaded"]]
    assert len(holder) == 1
    assert g.pending.player == holder[0]
    assert prompt(g).startswith("Action ")      # action 1 was a Take if nothing else was possible


def test_first_player_options():
    assert whose(Game(RS, 3, opts(3, first_player=2), 1)) == 2
    assert whose(Game(RS, 4, opts(4, first_player=4), 1)) == 4
    starters = {whose(Game(RS, 4, opts(4, first_player="random"), s)) for s in range(12)}
    assert len(starters) > 1
    with pytest.raises(EffectError, match="seat 4"):
        Game(RS, 2, opts(2, first_player=4), 1)


# ---------------------------------------------------------------- turns

def test_two_actions_then_discard_to_hand_limit():
    g = new_game(hands={1: ["Boxcar", "Boxcar", "Tanker Car", "Tanker Car", "Caboose 2"]},
                 trains={2: ASK[2]}, deck=["Supertanker", "MegaHopper"])
    pick(g, TAKE)
    assert prompt(g) == "Action 2 of 2: Take, Build, Load or Deliver?"
    pick(g, TAKE)
    # 7 cards: discard down to 5, one card at a time.
    assert prompt(g) == "End of turn: discard down to 5 cards" and whose(g) == 1
    pick(g, lab(g, "Supertanker"))
    pick(g, lab(g, "MegaHopper"))
    assert len(cards(g, zone(g, "hand", Player(1)))) == 5
    assert names(g, zone(g, "discard")) == ["Supertanker", "MegaHopper"]
    assert whose(g) == 2 and prompt(g).startswith("Action 1 of 2")


def test_actions_that_cannot_be_performed_are_not_offered():
    # No car anywhere (nothing to load onto), no cargo (nothing to deliver); the Hopper Car can be
    # built by paying 1 with the Tanker Car.
    g = new_game(hands={1: ["Hopper Car", "Tanker Car"]})
    assert options(g) == [TAKE, BUILD]
    assert_refused(g)
    # With only a Level 1 Engine in hand (no cheaper engine to upgrade), only Take remains: it is
    # taken without asking, twice, and the turn passes.
    g = new_game(hands={1: ["Level 1 Engine (shaded)"]}, trains={2: ASK[2]},
                 deck=["Level 1 Engine", "Caboose 2"])
    assert whose(g) == 2
    assert hand(g, 1) == ["Level 1 Engine (shaded)", "Level 1 Engine", "Caboose 2"]


# ---------------------------------------------------------------- loading benefits

P1_TRAIN = ["Level 3 Engine", "Hopper Car", "Hopper Car", ("Boxcar", ["MegaHopper"])]
BENEFITS = [
    # car, a good of its type, draw, discard, bonus actions
    ("Hopper Car", "Tanker Car", 3, 1, []),
    ("Hopper-2 Car", "Tanker Car", 2, 0, [BUILD]),
    ("MegaHopper", "Tanker Car", 2, 0, [TAKE, BUILD, LOAD, DELIVER]),
    ("Tanker Car", "Tanker 201", 3, 0, []),
    ("Tanker 201", "Tanker 201", 3, 0, [DELIVER]),
    ("Supertanker", "Tanker 201", 3, 0, [LOAD, DELIVER]),
    ("Boxcar", "Supertanker", 4, 0, []),
    ("Bigger Boxcar", "Supertanker", 4, 0, [LOAD]),
    ("R3-D Boxcar", "Supertanker", 5, 1, [LOAD]),
]


def load_onto_p2(g, good, car):
    pick(g, LOAD)
    # P1's only card is taken without asking; the car is asked when P1's own hoppers also fit.
    if asked(g, "Load "):
        pick(g, f"{lab(g, car)}, P2")


@pytest.mark.parametrize("car,good,draw,discard,bonus", BENEFITS, ids=[b[0] for b in BENEFITS])
def test_loading_benefit(car, good, draw, discard, bonus):
    g = new_game(hands={1: [good]}, trains={1: P1_TRAIN, 2: ["Level 3 Engine", car]}, deck=CABOOSES)
    load_onto_p2(g, good, car)
    assert [c.name for c in cargo_of(g, 2, car)] == [good]
    # Draw first: the top `draw` cards of the pile.
    assert hand(g, 1) == CABOOSES[:draw]
    if discard:
        assert prompt(g) == f"{lab(g, car)} benefit: discard a card from your hand"
        assert sorted(options(g)) == sorted(lab(g, n) for n in CABOOSES[:draw])
        pick(g, lab(g, "Caboose 1"))
        assert hand(g, 1) == CABOOSES[1:draw]
        assert names(g, zone(g, "discard")) == ["Caboose 1"]
    if bonus:
        # Then the bonus action, at once: every one of them is possible here, or skip it.
        assert prompt(g).startswith(f"{lab(g, car)} benefit: take a bonus action now")
        assert options(g) == bonus + [SKIP]
        assert_refused(g)
        before = hand(g, 1)
        pick(g, SKIP)
        # Skipped: lost. The turn goes on with P1's second action, nothing else happened.
        assert hand(g, 1) == before
    assert prompt(g) == "Action 2 of 2: Take, Build, Load or Deliver?" and whose(g) == 1


def test_loading_on_own_train_gives_no_benefit():
    g = new_game(hands={1: ["Tanker Car", "Boxcar"]}, trains={1: ["Level 1 Engine", "Hopper Car"]},
                 deck=CABOOSES)
    pick(g, LOAD)
    pick(g, lab(g, "Tanker Car"))       # the Boxcar (coal) could be loaded too
    pick(g, "coal, face up")            # (or face down, paying the Boxcar)
    assert [c.name for c in cargo_of(g, 1, "Hopper Car")] == ["Tanker Car"]
    assert hand(g, 1) == ["Boxcar"]     # no draw, no discard
    assert prompt(g).startswith("Action 2 of 2")


def test_bonus_load_goes_on_own_train_only():
    # Bigger Boxcar of P2: draw 4 then +1 Load. P1's two Hopper Cars are offered for the coal
    # good, P2's MegaHopper (coal, room 3) is not.
    g = new_game(hands={1: ["Supertanker"]},
                 trains={1: ["Level 3 Engine", "Hopper Car", "Hopper Car"],
                         2: ["Level 3 Engine", "Bigger Boxcar", "MegaHopper"]},
                 deck=["Tanker Car", "Level 2 Engine", "Level 2 Engine", "Level 2 Engine"])
    pick(g, LOAD)                        # the only box car is P2's: no question
    assert [c.name for c in cargo_of(g, 2, "Bigger Boxcar")] == ["Supertanker"]
    assert prompt(g).startswith(f"{lab(g, 'Bigger Boxcar')} benefit")
    assert options(g) == [LOAD, SKIP]
    pick(g, LOAD)
    pick(g, lab(g, "Tanker Car"))        # the coal good (an oil engine could only go face down)
    assert prompt(g) == f"Load {lab(g, 'Tanker Car')} onto which car?"
    assert options(g) == [lab(g, "Hopper Car"), lab(g, "Hopper Car")]   # own cars only
    pick(g, lab(g, "Hopper Car"))
    pick(g, "coal, face up")
    assert [c.name for c in cargo_of(g, 1, "Hopper Car")] == ["Tanker Car"]
    assert cargo_of(g, 2, "MegaHopper") == []
    # A bonus load on one's own train gives no further benefit.
    assert hand(g, 1) == ["Level 2 Engine"] * 3
    assert prompt(g).startswith("Action 2 of 2")


def test_bonus_actions_taken():
    # MegaHopper: draw 2, then a bonus Take (any action).
    g = new_game(hands={1: ["Tanker Car"]}, trains={1: P1_TRAIN, 2: ["Level 3 Engine", "MegaHopper"]},
                 deck=CABOOSES)
    load_onto_p2(g, "Tanker Car", "MegaHopper")
    pick(g, TAKE)
    assert hand(g, 1) == CABOOSES[:3]
    # Tanker 201: draw 3, then a bonus Deliver: P1 turns in the box on the Boxcar for 2 cards
    # (nothing else to decide: no contract fits one box, one car holds cargo).
    g = new_game(hands={1: ["Tanker 201"]}, trains={1: P1_TRAIN, 2: ["Level 3 Engine", "Tanker 201"]},
                 deck=CABOOSES)
    load_onto_p2(g, "Tanker 201", "Tanker 201")
    pick(g, DELIVER)
    assert hand(g, 1) == CABOOSES          # 3 drawn + 2 for the delivered box
    assert cargo_of(g, 1, "Boxcar") == [] and names(g, zone(g, "discard")) == ["MegaHopper"]
    # Hopper-2 Car: draw 2, then a bonus Build: Caboose 1 paid with 3 cards.
    g = new_game(hands={1: ["Tanker Car", "Boxcar", "Boxcar"]},
                 trains={1: ["Level 3 Engine"], 2: ["Level 3 Engine", "Hopper-2 Car"]},
                 deck=["Caboose 1", "Level 2 Engine"])
    pick(g, LOAD)
    pick(g, lab(g, "Tanker Car"))
    pick(g, "coal, face up")
    assert options(g) == [BUILD, SKIP]
    pick(g, BUILD)
    pick(g, lab(g, "Caboose 1"))
    assert prompt(g) == f"Pay for {lab(g, 'Caboose 1')}: 3 card(s) still to pay"
    pay_all(g)
    assert train(g, 1) == ["Level 3 Engine", "Caboose 1"]
    assert hand(g, 1) == []
    assert prompt(g).startswith("Action 2 of 2")


def test_bonus_not_possible_is_lost_without_asking():
    # Tanker 201 (+Deliver) but P1 has no cargo: the bonus cannot be taken, nothing is asked.
    g = new_game(hands={1: ["Tanker 201"]}, trains={1: ["Level 3 Engine"], 2: ["Level 3 Engine", "Tanker 201"]},
                 deck=CABOOSES)
    pick(g, LOAD)
    assert hand(g, 1) == CABOOSES[:3]
    assert prompt(g).startswith("Action 2 of 2")


# ---------------------------------------------------------------- loading rules

def test_wrong_cargo_and_full_car_are_not_offered():
    # P1 holds one coal good and nothing else (so no face-down load). P2: a Tanker Car (oil only),
    # a full Hopper Car, a Hopper-2 Car with one place left.
    trains = {1: ASK[1],
              2: ["Level 3 Engine", "Tanker Car", ("Hopper Car", ["Boxcar"]), ("Hopper-2 Car", ["Boxcar"])]}
    g = new_game(hands={1: ["Tanker Car"]}, trains=trains)
    pick(g, LOAD)
    # Only one car fits: taken without asking.
    assert [c.name for c in cargo_of(g, 2, "Hopper-2 Car")] == ["Boxcar", "Tanker Car"]
    # With the Hopper-2 Car full too, no load is possible: Load is not offered at all.
    trains[2][3] = ("Hopper-2 Car", ["Level 2 Engine", "Level 2 Engine"])
    g = new_game(hands={1: ["Tanker Car"]}, trains=trains)
    assert options(g) == [TAKE, BUILD]
    assert_refused(g)


def test_face_down_load_as_any_type():
    # A coal card onto an oil car: only face down, discarding one more card.
    g = new_game(hands={1: ["Boxcar", "Bank", "Level 2 Engine"]},
                 trains={2: ["Level 3 Engine", "Tanker Car", "Hopper Car"]}, deck=CABOOSES)
    pick(g, LOAD)
    pick(g, lab(g, "Boxcar"))
    assert sorted(options(g)) == sorted([f"{lab(g, 'Tanker Car')}, P2", f"{lab(g, 'Hopper Car')}, P2"])
    pick(g, f"{lab(g, 'Tanker Car')}, P2")
    # The only way: as oil, face down (asked no question); then the extra discard.
    assert prompt(g) == f"Discard one more card to load {lab(g, 'Boxcar')} face down"
    assert sorted(options(g)) == sorted([lab(g, "Bank"), lab(g, "Level 2 Engine")])
    pick(g, lab(g, "Bank"))
    [good] = cargo_of(g, 2, "Tanker Car")
    assert good.name == "Boxcar" and g.table.is_face_down(good)
    assert counter(g, "loaded_as")[good] == "oil"
    assert g.table.can_see(good, 1) and not g.table.can_see(good, 2)  # the loader knows it
    assert names(g, zone(g, "discard")) == ["Bank"]
    # The Tanker Car's benefit (draw 3) applies.
    assert hand(g, 1) == ["Level 2 Engine"] + CABOOSES[:3]


def test_face_down_load_of_a_card_as_its_own_type_tells_opponents_nothing():
    # Rulebook: "a player may discard one card to load another card (placed face down)
    # as ANY type of cargo" - its own type too, so the public line "loads a face-down card as
    # coal" does not tell P2 that the card is not a coal card.
    from engine.game.view import view
    g = new_game(hands={1: ["Tanker Car", "Bank", "Level 2 Engine"]},
                 trains={1: ASK[1], 2: ["Level 3 Engine", "Hopper Car"]}, deck=["Caboose 2", "Caboose 5", "Caboose 6"])
    pick(g, LOAD)
    pick(g, lab(g, "Tanker Car"))                 # a coal card, onto P2's coal car
    assert options(g) == ["coal, face up", "coal, face down (discard 1 more card)"]
    pick(g, "coal, face down (discard 1 more card)")
    pick(g, lab(g, "Bank"))
    [good] = cargo_of(g, 2, "Hopper Car")
    assert good.name == "Tanker Car" and g.table.is_face_down(good)
    assert counter(g, "loaded_as")[good] == "coal"
    assert not g.table.can_see(good, 2)
    line = next(line for line in view(g, 2).log() if " loads " in line)
    assert "Tanker Car" not in line and line.endswith(f"as coal onto {lab(g, 'Hopper Car')} of P2")
    assert any("Tanker Car" in line and " loads " in line for line in view(g, 1).log())


def test_face_down_needs_a_spare_card():
    # One coal card alone cannot go face down onto an oil car: the oil car is not offered.
    g = new_game(hands={1: ["Boxcar"]}, trains={1: ASK[1], 2: ["Level 3 Engine", "Tanker Car", "Hopper Car"]})
    pick(g, LOAD)
    assert [c.name for c in cargo_of(g, 2, "Hopper Car")] == ["Boxcar"]
    assert cargo_of(g, 2, "Tanker Car") == []


def test_wild_card_loads_as_the_cars_type():
    g = new_game(hands={1: ["Bank"]}, trains={1: ASK[1], 2: ["Level 3 Engine", "Boxcar"]})
    pick(g, LOAD)
    [good] = cargo_of(g, 2, "Boxcar")
    assert good.name == "Bank" and not g.table.is_face_down(good) and counter(g, "loaded_as")[good] == "box"


# ---------------------------------------------------------------- cabooses

def test_caboose_1_draws_after_a_delivery():
    g = new_game(trains={1: ["Level 1 Engine", ("Hopper Car", ["Tanker Car"]), "Caboose 1"]},
                 deck=["Level 2 Engine", "Level 2 Engine", "Caboose 2"])
    pick(g, DELIVER)          # no contract fits one coal; the only cargo is turned in
    # 2 cards for the good, then 1 from Caboose 1.
    assert hand(g, 1) == ["Level 2 Engine", "Level 2 Engine", "Caboose 2"]
    # Without Caboose 1: 2 cards only.
    g = new_game(trains={1: ["Level 1 Engine", ("Hopper Car", ["Tanker Car"])]},
                 deck=["Level 2 Engine", "Level 2 Engine", "Caboose 2"])
    pick(g, DELIVER)
    assert hand(g, 1) == ["Level 2 Engine", "Level 2 Engine"]


def test_caboose_2_draws_when_its_owner_loads_coal():
    # Own train included: P1 loads coal on their own Hopper Car and draws 1.
    g = new_game(hands={1: ["Tanker Car", "Level 2 Engine"]},
                 trains={1: ["Level 1 Engine", "Hopper Car", "Caboose 2"], 2: ["Level 1 Engine", "Tanker Car"]},
                 deck=["Caboose 1", "Caboose 4", "Caboose 5", "Caboose 6"])
    pick(g, LOAD)
    pick(g, lab(g, "Tanker Car"))
    pick(g, f"{lab(g, 'Hopper Car')}, P1")  # (P2's Tanker Car would take it face down)
    pick(g, "coal, face up")
    assert hand(g, 1) == ["Level 2 Engine", "Caboose 1"]
    # Loading oil (onto P2's Tanker Car) draws only the car's benefit (3), not Caboose 2.
    pick(g, LOAD)
    pick(g, lab(g, "Level 2 Engine"))
    pick(g, "oil, face up")
    assert hand(g, 1) == ["Caboose 1", "Caboose 4", "Caboose 5", "Caboose 6"]


def test_caboose_2_not_when_another_player_loads():
    g = new_game(hands={2: ["Tanker Car"]}, first=2,
                 trains={1: ["Level 1 Engine", "Hopper Car", "Caboose 2"]},
                 deck=["Caboose 1", "Caboose 4", "Caboose 5", "Caboose 6"])
    pick(g, LOAD)            # P2 loads coal onto P1's Hopper Car: P2 draws 3, then discards 1
    assert whose(g) == 2 and prompt(g).endswith("benefit: discard a card from your hand")
    assert hand(g, 2) == ["Caboose 1", "Caboose 4", "Caboose 5"]
    assert hand(g, 1) == []                 # Caboose 2's owner did not load: no card


def test_caboose_3_stores_any_type_for_its_owner_only():
    c3_train = ["Level 1 Engine", "Caboose 3"]
    g = new_game(hands={1: ["Tanker Car", "Boxcar", "Bank"]}, trains={1: c3_train}, deck=CABOOSES)
    pick(g, LOAD)
    pick(g, lab(g, "Tanker Car"))
    # Its own type face up, or face down as any type for one more card.
    assert options(g) == ["coal, face up", "coal, face down (discard 1 more card)",
                          "oil, face down (discard 1 more card)", "box, face down (discard 1 more card)"]
    pick(g, "box, face down (discard 1 more card)")
    pick(g, lab(g, "Boxcar"))
    [good] = cargo_of(g, 1, "Caboose 3")
    assert g.table.is_face_down(good) and counter(g, "loaded_as")[good] == "box"
    assert hand(g, 1) == ["Bank"]              # no benefit on one's own train
    assert fn(g, "have", Player(1), "box") == 1
    # Full (capacity 1): no more loads; the Bank has nowhere to go, so Load is not offered.
    assert LOAD not in options(g)
    # Opponents may not load onto it: P2's wild Bank has no target.
    g = new_game(hands={2: ["Bank"]}, trains={1: c3_train}, first=2)
    assert LOAD not in options(g)
    # A wild card stored by its owner: any type, face up.
    g = new_game(hands={1: ["Bank"]}, trains={1: c3_train})
    pick(g, LOAD)
    assert options(g) == ["coal, face up", "oil, face up", "box, face up"]


def test_caboose_4_two_buildings():
    g = new_game(hands={1: ["Bank", *["Boxcar"] * 4, "Tanker Car", "Tanker Car"]},
                 trains={1: ["Level 1 Engine", "Caboose 4"]}, buildings={1: ["Grand Central"]})
    pick(g, BUILD)
    pick(g, lab(g, "Bank"))                        # added (limit 2): nothing replaced
    assert prompt(g) == f"Pay for {lab(g, 'Bank')}: 6 card(s) still to pay"
    pay_all(g)
    assert names(g, zone(g, "buildings", Player(1))) == ["Grand Central", "Bank"]
    # Without Caboose 4 a second building must replace the first (full price 6).
    g = new_game(hands={1: ["Bank", *["Boxcar"] * 4, "Tanker Car", "Tanker Car"]},
                 buildings={1: ["Grand Central"]})
    pick(g, BUILD)
    pick(g, lab(g, "Bank"))                        # replaces Grand Central: nothing else to choose
    assert prompt(g) == f"Pay for {lab(g, 'Bank')}: 6 card(s) still to pay"
    pay_all(g)
    assert names(g, zone(g, "buildings", Player(1))) == ["Bank"]
    assert "Grand Central" in names(g, zone(g, "discard"))


def test_caboose_4_leaving_forces_a_building_out():
    g = new_game(trains={1: ["Level 1 Engine", "Caboose 4"]}, buildings={1: ["Grand Central", "Bank"]})
    pick(g, BUILD)                                 # only "remove cars" is possible
    assert train(g, 1) == ["Level 1 Engine"]       # the only car, removed without asking
    assert prompt(g) == "Too many buildings without Caboose 4: discard which building?"
    pick(g, lab(g, "Bank"))
    assert names(g, zone(g, "buildings", Player(1))) == ["Grand Central"]


def test_caboose_5_makes_train_cards_cheaper():
    g = new_game(hands={1: ["Hopper Car", "Level 2 Engine", "Bank", "Boxcar"]},
                 trains={1: ["Level 1 Engine", "Caboose 5"], 2: ASK[2]})
    p1 = Player(1)
    kept = list(cards(g, zone(g, "train", p1)))
    cost = {n: fn(g, "build_cost", p1, next(c for c in cards(g, zone(g, "hand", p1)) if c.name == n), kept)
            for n in ["Hopper Car", "Level 2 Engine", "Bank", "Boxcar"]}
    # 1-1 = 0, 3-1 = 2, building 6 unchanged, 3-1 = 2.
    assert cost == {"Hopper Car": 0, "Level 2 Engine": 2, "Bank": 6, "Boxcar": 2}
    # The Hopper Car is built for nothing: no payment asked.
    pick(g, BUILD)
    pick(g, lab(g, "Hopper Car"))       # only as a new car: not asked
    pick(g, NO_DROP)
    assert train(g, 1) == ["Level 1 Engine", "Caboose 5", "Hopper Car"]
    assert hand(g, 1) == ["Level 2 Engine", "Bank", "Boxcar"]
    # Upgrade Level 1 -> Level 2 Engine: max(0, (3 - 1) - 1) = 1 card.
    pick(g, BUILD)
    pick(g, lab(g, "Level 2 Engine"))
    pick(g, NO_DROP)
    assert prompt(g) == f"Pay for {lab(g, 'Level 2 Engine')}: 1 card(s) still to pay"
    pick(g, lab(g, "Boxcar"))
    assert train(g, 1) == ["Level 2 Engine", "Caboose 5", "Hopper Car"]
    assert hand(g, 1) == ["Bank"]
    assert sorted(names(g, zone(g, "discard"))) == ["Boxcar", "Level 1 Engine"]


def test_caboose_6_adds_power():
    # Level 1 Engine (4) + Caboose 6 (+2) = 6 pulls Boxcar 2 + Boxcar 2 + Hopper-2 Car 2.
    g = new_game(hands={1: ["Hopper-2 Car", "Bank", "Rail Yard", "Tanker Car", "Tanker Car"]},
                 trains={1: ["Level 1 Engine", "Caboose 6", "Boxcar", "Boxcar"]})
    assert fn(g, "power", Player(1)) == 6
    pick(g, BUILD)
    pick(g, lab(g, "Hopper-2 Car"))
    # Without Caboose 6 it would not: dropping Caboose 6 is not offered, dropping a Boxcar is.
    assert options(g) == [NO_DROP, lab(g, "Boxcar"), lab(g, "Boxcar")]
    pick(g, NO_DROP)
    pay_all(g)
    assert train(g, 1) == ["Level 1 Engine", "Caboose 6", "Boxcar", "Boxcar", "Hopper-2 Car"]
    assert hand(g, 1) == []


def test_removing_caboose_6_may_leave_the_train_overweight():
    # Rulebook: "A Build action can also be used to remove any number of train cars";
    # the power check is made when a car is built ("Always check first if the Engine Power would
    # be enough to pull all train cars after the new car has been built"), not when cars leave.
    g = new_game(hands={1: ["Tanker Car", "Bank", "Rail Yard"]},
                 trains={1: ["Level 1 Engine", "Caboose 6", "Boxcar", "Boxcar", "Hopper Car"]})
    pick(g, BUILD)
    pick(g, REMOVE)
    pick(g, lab(g, "Caboose 6"))        # weight 5 > power 4: stopping is offered all the same
    assert options(g) == [lab(g, "Boxcar"), lab(g, "Boxcar"), lab(g, "Hopper Car"), STOP_REMOVING]
    pick(g, STOP_REMOVING)
    assert train(g, 1) == ["Level 1 Engine", "Boxcar", "Boxcar", "Hopper Car"]
    assert fn(g, "power", Player(1)) == 4
    # The second action: the over-weight train builds a Tanker Car (weight 1) only after a car
    # is discarded first (Hopper Car: 2 + 2 + 1 = 5 > 4; a Boxcar: 2 + 1 + 1 = 4).
    pick(g, BUILD)
    pick(g, lab(g, "Tanker Car"))
    assert options(g) == [lab(g, "Boxcar"), lab(g, "Boxcar")]


# ---------------------------------------------------------------- building

def test_build_a_car_paying_card_by_card():
    g = new_game(hands={1: ["Boxcar", "Tanker Car", "Hopper Car", "Caboose 1", "Bank"]})
    pick(g, BUILD)
    assert prompt(g) == "Build: which card from your hand? (or remove cars)"
    # Boxcar 3, Tanker Car 2, Hopper Car 1, Caboose 1 3, Bank 6 (only 4 other cards: no).
    assert options(g) == [lab(g, n) for n in ["Boxcar", "Tanker Car", "Hopper Car", "Caboose 1"]]
    pick(g, lab(g, "Boxcar"))
    assert prompt(g) == f"Pay for {lab(g, 'Boxcar')}: 3 card(s) still to pay"
    assert_refused(g)
    pick(g, lab(g, "Bank"))
    pick(g, lab(g, "Caboose 1"))
    pick(g, lab(g, "Hopper Car"))
    assert train(g, 1) == ["Level 1 Engine", "Boxcar"]
    assert hand(g, 1) == ["Tanker Car"]
    assert names(g, zone(g, "discard")) == ["Bank", "Caboose 1", "Hopper Car"]


def test_overweight_build_is_not_offered():
    # Level 1 Engine (4) already pulls Hopper-2 Car 2 + Tanker 201 2. A Hopper Car (1) fits only
    # after discarding a car (it is no upgrade of the dearer Hopper-2); a Bigger Boxcar (3) not even
    # then (2 + 3 = 5 > 4). The four buildings cost 6 and P1 has only 5 other cards.
    fillers = ["Grand Central", "Bank", "Rail Yard", "Coal Factory"]
    g = new_game(hands={1: ["Hopper Car", "Bigger Boxcar", *fillers]},
                 trains={1: ["Level 1 Engine", "Hopper-2 Car", "Tanker 201"]})
    pick(g, BUILD)
    assert options(g) == [lab(g, "Hopper Car"), REMOVE]
    pick(g, lab(g, "Hopper Car"))
    # "discard no car" is not offered: a car must go first.
    assert prompt(g) == f"Before building {lab(g, 'Hopper Car')}, discard one car from your train?"
    assert options(g) == [lab(g, "Hopper-2 Car"), lab(g, "Tanker 201")]
    assert_refused(g)
    pick(g, lab(g, "Tanker 201"))
    pick(g, lab(g, "Bank"))                         # pay 1
    assert train(g, 1) == ["Level 1 Engine", "Hopper-2 Car", "Hopper Car"]
    assert names(g, zone(g, "discard")) == ["Bank", "Tanker 201"]


def test_discarding_a_car_before_building_takes_its_cargo():
    # Level 1 Engine (4) pulls Boxcar 2 + Boxcar 2: a Tanker Car (1) needs a Boxcar out first.
    g = new_game(hands={1: ["Tanker Car", "Bank", "Rail Yard"]},
                 trains={1: ["Level 1 Engine", "Boxcar", ("Boxcar", ["Caboose 1"])]})
    pick(g, BUILD)
    pick(g, lab(g, "Tanker Car"))
    assert options(g) == [lab(g, "Boxcar"), lab(g, "Boxcar")]
    g.apply(1)                                      # the second Boxcar, the loaded one
    pay_all(g)                                      # 2 cards
    assert train(g, 1) == ["Level 1 Engine", "Boxcar", "Tanker Car"]
    assert sorted(names(g, zone(g, "discard"))) == ["Bank", "Boxcar", "Caboose 1", "Rail Yard"]


def test_second_engine_is_not_offered_and_engines_upgrade():
    g = new_game(hands={1: ["Level 1 Engine", "Level 2 Engine", "Level 3 Engine", "Bank", "Rail Yard", "Grand Central"]},
                 trains={1: ["Level 2 Engine", ("Tanker Car", ["Tanker 201"])]})
    pick(g, BUILD)
    # Only the Level 3 Engine (dearer than the Level 2 in play); never as a second engine.
    assert options(g) == [lab(g, "Level 3 Engine"), REMOVE]
    assert_refused(g)
    pick(g, lab(g, "Level 3 Engine"))
    assert options(g) == [NO_DROP, lab(g, "Tanker Car")]     # no question about a new engine
    pick(g, NO_DROP)
    # Upgrade: 6 - 3 = 3 cards.
    assert prompt(g) == f"Pay for {lab(g, 'Level 3 Engine')}: 3 card(s) still to pay"
    pay_all(g)
    assert train(g, 1) == ["Level 3 Engine", "Tanker Car"]
    assert "Level 2 Engine" in names(g, zone(g, "discard"))
    assert fn(g, "power", Player(1)) == 8


def test_upgrade_a_car_pays_the_difference_and_keeps_cargo():
    g = new_game(hands={1: ["Hopper-2 Car", *["Level 2 Engine"] * 4]},
                 trains={1: ["Level 1 Engine", ("Hopper Car", ["Tanker Car"]), "Tanker Car"]})
    pick(g, BUILD)
    pick(g, lab(g, "Hopper-2 Car"))
    assert prompt(g) == f"Build {lab(g, 'Hopper-2 Car')}: add it, or replace which card?"
    assert options(g) == [NEW, lab(g, "Hopper Car")]        # a Tanker Car is another family
    pick(g, lab(g, "Hopper Car"))
    pick(g, NO_DROP)
    # 4 - 1 = 3 cards.
    assert prompt(g) == f"Pay for {lab(g, 'Hopper-2 Car')}: 3 card(s) still to pay"
    pay_all(g)
    assert train(g, 1) == ["Level 1 Engine", "Hopper-2 Car", "Tanker Car"]
    assert [c.name for c in cargo_of(g, 1, "Hopper-2 Car")] == ["Tanker Car"]
    assert sorted(names(g, zone(g, "discard"))) == ["Hopper Car"] + ["Level 2 Engine"] * 3
    assert hand(g, 1) == ["Level 2 Engine"]


def test_a_caboose_upgrades_another_caboose_paying_the_difference():
    # Rulebook: "Can upgrade 'like' train cars by paying the difference in cost." and
    # "Train cars can be upgraded (replaced) by a train car of the same type". Cabooses all cost 3:
    # replacing Caboose 1 by Caboose 2 costs 3 - 3 = 0 cards.
    g = new_game(hands={1: ["Caboose 2", *["Level 2 Engine"] * 3]}, trains={1: ["Level 1 Engine", "Caboose 1"]})
    pick(g, BUILD)
    pick(g, lab(g, "Caboose 2"))
    assert prompt(g) == f"Build {lab(g, 'Caboose 2')}: add it, or replace which card?"
    assert options(g) == [NEW, lab(g, "Caboose 1")]
    pick(g, lab(g, "Caboose 1"))                 # no other car to discard first: not asked
    assert train(g, 1) == ["Level 1 Engine", "Caboose 2"]
    assert names(g, zone(g, "discard")) == ["Caboose 1"]
    assert hand(g, 1) == ["Level 2 Engine"] * 3              # nothing paid


def test_a_caboose_upgrade_discards_cargo_the_new_caboose_cannot_hold():
    # Caboose 3 stores a good; Caboose 1 holds none: the good goes with the replaced caboose
    # (as the cargo of a removed car: "Any cargo loaded on those cars should be discarded").
    g = new_game(hands={1: ["Caboose 1", *["Level 3 Engine"] * 3]},
                 trains={1: ["Level 2 Engine", ("Caboose 3", ["Boxcar"]), "Caboose 4"]})
    pick(g, BUILD)
    pick(g, lab(g, "Caboose 1"))
    assert options(g) == [NEW, lab(g, "Caboose 3"), lab(g, "Caboose 4")]
    pick(g, lab(g, "Caboose 3"))
    pick(g, NO_DROP)
    assert train(g, 1) == ["Level 2 Engine", "Caboose 1", "Caboose 4"]
    assert cargo_of(g, 1, "Caboose 1") == []
    assert sorted(names(g, zone(g, "discard"))) == ["Boxcar", "Caboose 3"]
    assert hand(g, 1) == ["Level 3 Engine"] * 3               # nothing paid


def test_building_replaced_at_full_cost():
    g = new_game(hands={1: ["Grand Central", *["Boxcar"] * 4, "Tanker Car", "Tanker Car"]},
                 buildings={1: ["Rail Yard"]})
    pick(g, BUILD)
    pick(g, lab(g, "Grand Central"))
    # The only building is replaced (asked nothing); full cost 6.
    assert prompt(g) == f"Pay for {lab(g, 'Grand Central')}: 6 card(s) still to pay"
    pay_all(g)
    assert names(g, zone(g, "buildings", Player(1))) == ["Grand Central"]
    assert "Rail Yard" in names(g, zone(g, "discard"))


def test_remove_cars_discards_their_cargo():
    g = new_game(trains={1: ["Level 1 Engine", ("Hopper Car", ["Tanker Car"]), "Tanker Car"]})
    pick(g, BUILD)
    assert prompt(g) == "Remove which car from your train? (its cargo is discarded)"
    assert options(g) == [lab(g, "Hopper Car"), lab(g, "Tanker Car")]   # at least one must go
    pick(g, lab(g, "Hopper Car"))
    assert options(g) == [lab(g, "Tanker Car"), STOP_REMOVING]
    pick(g, STOP_REMOVING)
    assert train(g, 1) == ["Level 1 Engine", "Tanker Car"]
    assert sorted(names(g, zone(g, "discard"))) == ["Hopper Car", "Tanker Car"]


# ---------------------------------------------------------------- delivering

DELIVERY_TRAIN = ["Level 3 Engine", ("Tanker 201", ["Tanker 201", "Tanker 201"]),
                  ("Boxcar", ["Supertanker"]), ("Hopper Car", ["Tanker Car"]), "Caboose 1"]


def test_deliver_claims_a_contract_and_turns_in_goods():
    # Cargo: 2 oil, 1 box, 1 coal.
    g = new_game(trains={1: DELIVERY_TRAIN}, deck=CABOOSES[1:] + ["Level 2 Engine"])
    pick(g, DELIVER)
    assert prompt(g) == "Deliver: fulfil which contract?"
    # Claimable: Cork (oil + box), Dublin (2 oil), Donegal (coal + oil), Ennis Wharf (coal + box);
    # not Iverness (2 box) nor Loch Haven (2 coal).
    assert options(g) == ["Cork, front, 6 points for oil + box", "Dublin, front, 5 points for 2 oil",
                          "Donegal, front, 4 points for coal + oil", "Ennis Wharf, front, 5 points for coal + box",
                          ONLY_CARDS]
    pick(g, "Cork, front, 6 points for oil + box")     # one oil car, one box car: nothing more to ask
    assert prompt(g) == "Turn in a good for 2 cards: from which car?"
    assert options(g) == [lab(g, "Tanker 201"), lab(g, "Hopper Car"), STOP_DELIVERING]
    pick(g, lab(g, "Hopper Car"))
    pick(g, STOP_DELIVERING)
    assert names(g, zone(g, "contracts", Player(1))) == ["Cork"]
    assert "Cork" not in names(g, zone(g, "island"))
    assert sorted(names(g, zone(g, "discard"))) == ["Supertanker", "Tanker 201", "Tanker Car"]
    assert [c.name for c in cargo_of(g, 1, "Tanker 201")] == ["Tanker 201"]
    # 2 cards for the coal, + 1 for Caboose 1.
    assert hand(g, 1) == CABOOSES[1:4]
    assert fn(g, "contract_points", Player(1)) == 6


def test_secondary_completion_and_no_new_primary_while_one_is_open():
    # Cork claimed (open). Cargo: 2 oil, 2 box, 2 coal.
    trains = {1: ["Level 3 Engine", ("Tanker 201", ["Tanker 201", "Tanker 201"]),
                  ("Bigger Boxcar", ["Supertanker", "Supertanker"]), ("Hopper-2 Car", ["Tanker Car", "Tanker Car"])]}
    g = new_game(trains=trains, contracts={1: ["Cork"]}, deck=CABOOSES)
    pick(g, DELIVER)
    # Primaries (Dublin 2 oil, Loch Haven 2 coal...) are not offered: Cork has no secondary yet.
    assert options(g) == ["Cork, back A, 11 points for 2 oil + 2 box",
                          "Cork, back B, 10 points for coal + oil + 2 box", ONLY_CARDS]
    assert_refused(g)
    pick(g, "Cork, back B, 10 points for coal + oil + 2 box")
    pick(g, STOP_DELIVERING)
    assert counter(g, "completed_back")[next(c for c in g.table.cards if c.name == "Cork")] == "back B"
    assert fn(g, "contract_points", Player(1)) == 16             # 6 + 10
    assert fn(g, "delivered", Player(1), "box") == 3             # oil+box, coal+oil+2 box
    assert fn(g, "have", Player(1), "oil") == 1 and fn(g, "have", Player(1), "coal") == 1
    # Now a new primary may be claimed (Donegal: coal + oil), and no back of Cork any more.
    pick(g, DELIVER)
    assert options(g) == ["Donegal, front, 4 points for coal + oil", ONLY_CARDS]


def test_delivering_goods_from_a_chosen_car():
    # Two oil cars: the player chooses where the oil for Dublin comes from.
    g = new_game(trains={1: ["Level 3 Engine", ("Tanker Car", ["Tanker 201"]), ("Tanker 201", ["Tanker 201"])]})
    pick(g, DELIVER)
    pick(g, "Dublin, front, 5 points for 2 oil")
    assert prompt(g) == "Deliver oil for Dublin from which car?"
    pick(g, lab(g, "Tanker 201"))
    # The second oil can only come from the Tanker Car now: not asked. No cargo left: done.
    assert fn(g, "goods_on_train", Player(1)) == 0
    assert names(g, zone(g, "contracts", Player(1))) == ["Dublin"]


# ---------------------------------------------------------------- scoring

def test_rulebook_scoring_example():
    # Train: Level 3 Engine 4 + R3-D Boxcar 8 + Supertanker 8 + Caboose 2 3 = 23.
    # Contracts: Cork 6 (open) + Iverness 7 + back A 14 = 27.
    # Customs House: boxes on completed contracts: Cork 1 + Iverness 2 + 3 = 6, x2 = 12.
    # Loaded cargo: 3.  Total 65.
    g = new_game(trains={1: ["Level 3 Engine", ("R3-D Boxcar", ["Caboose 1"]),
                             ("Supertanker", ["Tanker 201", "Tanker 201"]), "Caboose 2"]},
                 contracts={1: ["Cork", ("Iverness", "back A")]}, buildings={1: ["Customs House"]})
    p1 = Player(1)
    assert fn(g, "train_points", p1) == 23
    assert fn(g, "contract_points", p1) == 27
    assert fn(g, "building_points", p1) == 12
    assert fn(g, "cargo_points", p1) == 3
    assert g.scores()[p1] == 65


def test_the_2014_contract_advice_does_not_count_the_front_twice():
    # Rulebook: "both the front and back contract points are totaled on the back of
    # the card". The ruleset adds a_points / b_points to the front's points, so the header tells
    # owners of a 2014 copy to enter the printed back value minus the front: a back printing 17
    # on Cork's 6-point front is a_points 11, and the completed card scores 17, not 6 + 17.
    header = (ROOT / "rulesets" / "isle_of_trains.yaml").read_text().split("\ngame:")[0]
    advice = " ".join(line.lstrip("# ") for line in header.splitlines())
    assert "enter as a_points / b_points the printed back value MINUS the front's points" in advice
    assert "(a back printing 17 on a 6-point front is a_points: 11)" in advice
    g = new_game(contracts={1: [("Cork", "back A")]})
    assert fn(g, "contract_points", Player(1)) == 6 + 11 == 17


BUILDING_CASES = [
    # Contracts: Donegal + back B (coal, oil + 2 coal, 2 oil) and Cork open (oil, box):
    # coal 3, oil 4, box 1. Train: Hopper Car, Tanker Car, Caboose 3 (3 cards besides the engine),
    # 3 goods loaded.
    ("Coal Factory", 6),      # 2 x 3 coal
    ("Oil Refinery", 8),      # 2 x 4 oil
    ("Customs House", 2),     # 2 x 1 box
    ("Grand Central", 8),
    ("Bank", 6),              # 2 x 3 goods
    ("Rail Yard", 6),         # 2 x 3 cards
]


@pytest.mark.parametrize("building,points", BUILDING_CASES, ids=[b for b, _ in BUILDING_CASES])
def test_building_scores(building, points):
    trains = {1: ["Level 3 Engine", ("Hopper Car", ["Boxcar"]), ("Tanker Car", ["Tanker 201"]),
                  ("Caboose 3", [("Boxcar", "box")])]}
    g = new_game(trains=trains, contracts={1: [("Donegal", "back B"), "Cork"]}, buildings={1: [building]})
    assert fn(g, "building_points", Player(1)) == points
    assert fn(g, "building_points", Player(2)) == 0
    # In hand it scores nothing.
    g = new_game(trains=trains, contracts={1: [("Donegal", "back B"), "Cork"]}, hands={1: [building]})
    assert fn(g, "building_points", Player(1)) == 0


def test_tie_goes_to_most_train_points():
    # P1: Level 3 Engine 4 + Loch Haven 4 = 8. P2: Level 1 Engine 0 + Grand Central 8 = 8.
    g = new_game(trains={1: ["Level 3 Engine"]}, contracts={1: ["Loch Haven"]}, buildings={2: ["Grand Central"]})
    assert g.scores() == {Player(1): 8, Player(2): 8}
    assert g.winners() == [Player(1)]


# ---------------------------------------------------------------- running out of cards

def test_reshuffle_when_the_draw_pile_empties():
    g = new_game(trains=ASK, deck=["Caboose 2"], deck_only=True, discard=["Boxcar", "Boxcar", "Tanker Car"])
    pick(g, TAKE)
    # The last card is drawn, and at once the discard pile becomes the new draw pile.
    assert hand(g, 1) == ["Caboose 2"]
    assert len(cards(g, zone(g, "deck"))) == 3 and len(cards(g, zone(g, "discard"))) == 0
    pick(g, TAKE)
    assert len(cards(g, zone(g, "hand", Player(1)))) == 2 and len(cards(g, zone(g, "deck"))) == 2


def test_a_draw_crossing_the_reshuffle():
    # Boxcar benefit: draw 4, with 2 in the pile and 3 in the discard pile.
    g = new_game(hands={1: ["Supertanker"]}, trains={2: ["Level 1 Engine", "Boxcar"]},
                 deck=["Caboose 1", "Caboose 2"], deck_only=True, discard=["Bank", "Rail Yard", "Grand Central"])
    pick(g, LOAD)
    assert len(cards(g, zone(g, "hand", Player(1)))) == 4 and counter(g, "phantoms", 1) == 0
    assert len(cards(g, zone(g, "deck"))) == 1


def test_phantom_cards():
    # Draw and discard piles both empty: Take gives phantom cards, usable this turn to pay for a
    # Build (or a face-down load), never counted in the hand, gone at the end of the turn.
    g = new_game(hands={1: ["Boxcar", "Bank"]}, trains={1: ASK[1], 2: ASK[2]}, deck=[], deck_only=True,
                 phantoms={1: 1})
    # Boxcar (3) is not affordable yet: Bank + 1 phantom.
    assert options(g) == [TAKE, BUILD]
    pick(g, TAKE)
    assert counter(g, "phantoms", 1) == 2 and hand(g, 1) == ["Boxcar", "Bank"]
    pick(g, BUILD)
    pick(g, lab(g, "Boxcar"))
    pick(g, NO_DROP)
    assert prompt(g) == f"Pay for {lab(g, 'Boxcar')}: 3 card(s) still to pay"
    assert options(g) == [lab(g, "Bank"), PHANTOM]
    pick(g, PHANTOM)
    pick(g, PHANTOM)                   # the Bank pays the last one without asking
    assert train(g, 1) == ["Level 1 Engine", "Caboose 4", "Boxcar"] and hand(g, 1) == []
    assert counter(g, "phantoms", 1) == 0 and names(g, zone(g, "discard")) == ["Bank"]


def test_phantom_pays_a_face_down_load_and_vanishes():
    g = new_game(hands={1: ["Boxcar"]}, trains={1: ["Level 1 Engine", "Tanker Car"]},
                 deck=[], deck_only=True, phantoms={1: 1})
    pick(g, LOAD)                       # coal card onto the oil car: face down, with the phantom
    [good] = cargo_of(g, 1, "Tanker Car")
    assert g.table.is_face_down(good) and counter(g, "phantoms", 1) == 0
    assert counter(g, "loaded_as")[good] == "oil"
    g = new_game(hands={1: ["Boxcar"]}, trains={1: ASK[1], 2: ASK[2]}, deck=[], deck_only=True)
    pick(g, TAKE)
    pick(g, TAKE)
    assert counter(g, "phantoms", 1) == 0      # (they were 2 during the turn)
    assert whose(g) == 2 and hand(g, 1) == ["Boxcar"]


# ---------------------------------------------------------------- the end

def play_takes(g, seat, turns=1):
    """Seat `seat` takes twice per turn (discarding the first cards if over the hand limit)."""
    for _ in range(turns):
        assert whose(g) == seat, f"expected P{seat}, pending is {g.pending.player}"
        for _ in range(2):
            pick(g, TAKE)
        while not g.over and asked(g, "End of turn"):
            g.apply(0)


def test_end_when_the_deck_is_exhausted():
    # 1 card left in the pile, the discard pile empty: P1 takes it and a phantom; at the end of
    # P1's turn both piles are empty -> the end is triggered; P2 then P1 take one final turn.
    g = new_game(trains=ASK, deck=["Hopper Car"], deck_only=True)
    play_takes(g, 1)
    assert counter(g, "end_reason") == "deck" and counter(g, "final_turns_left") == 2
    play_takes(g, 2)
    assert not g.over and g.end_reason is None
    play_takes(g, 1)
    assert g.over and g.end_reason == "deck"


def test_no_end_when_the_hand_limit_discard_refills_the_discard_pile():
    # P1 holds 5 cards, takes the last card and a phantom, then discards 1 down to 5: the discard
    # pile is not empty at the end of the turn, so the deck is not exhausted.
    g = new_game(hands={1: ["Level 2 Engine"] * 4 + ["Bank"]}, trains=ASK, deck=["Hopper Car"], deck_only=True)
    play_takes(g, 1)
    assert len(cards(g, zone(g, "discard"))) == 1
    assert counter(g, "end_reason") == "" and whose(g) == 2


ENDS = {2: 4, 3: 5, 4: 6}
PRE_CLAIMED = [("Cork", "back A"), ("Iverness", "back A"), ("Dublin", "back A"), ("Ennis Wharf", "back A"),
               ("Loch Haven", "back A")]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_end_when_enough_contracts_are_claimed(n):
    # ENDS[n] - 1 contracts already claimed (by P2); P1 claims Donegal, the last one needed.
    claimed = PRE_CLAIMED[:ENDS[n] - 1]
    trains = {**ASK, 1: ["Level 3 Engine", ("Hopper Car", ["Tanker Car"]), ("Tanker Car", ["Tanker 201"])]}
    g = new_game(players=n, trains={s: t for s, t in trains.items() if s <= n}, contracts={2: claimed})
    assert fn(g, "claimed_contracts") == ENDS[n] - 1
    pick(g, DELIVER)
    pick(g, "Donegal, front, 4 points for coal + oil")
    assert fn(g, "claimed_contracts") == ENDS[n]
    assert counter(g, "end_reason") == ""           # the current player finishes the turn first
    pick(g, TAKE)
    assert counter(g, "end_reason") == "contracts" and counter(g, "final_turns_left") == n
    # Every player, P1 included, takes one final turn: P2, ..., Pn, then P1.
    for seat in list(range(2, n + 1)) + [1]:
        assert not g.over
        play_takes(g, seat)
    assert g.over and g.end_reason == "contracts"


def test_one_short_of_the_contract_count_does_not_end():
    g = new_game(players=3, trains={1: ["Level 3 Engine", ("Hopper Car", ["Tanker Car"]), ("Tanker Car", ["Tanker 201"])],
                                    2: ASK[2], 3: ASK[3]},
                 contracts={2: PRE_CLAIMED[:3]})
    pick(g, DELIVER)
    pick(g, "Donegal, front, 4 points for coal + oil")
    pick(g, TAKE)
    assert fn(g, "claimed_contracts") == 4 and counter(g, "end_reason") == "" and whose(g) == 2


def test_round_limit_safeguard():
    g = Game(RS, 2, opts(2, round_limit=1), 5)
    while not g.over:
        g.apply(0)
    assert counter(g, "end_reason") == "round limit" and counter(g, "round") == 1
    assert g.end_reason == "round limit"


def test_no_round_limit_by_default():
    """round_limit is not a rule of the game: off unless asked for, so a game goes on past
    round 100 (the limit's old default) when nobody brings about an ending."""
    assert opts(2)["round_limit"] == 0
    g = Game(RS, 2, opts(2), 5)
    rng = random.Random(5)
    while counter(g, "round") <= 100:
        g.apply(rng.randrange(len(g.legal_actions())))
    assert not g.over and counter(g, "end_reason") == "" and g.end_reason is None


def test_simulations_stop_at_the_decision_cap_or_the_round_limit():
    """Without the round limit random games run on until simulate's decision cap, which the
    report names; with it they end by it."""
    from engine.analysis.simulate import simulate
    capped = simulate(RS, 2, 3, 1, opts(2), max_decisions=200)
    assert capped["totals"]["games_by_end_reason"] == {"decision cap": 3}
    assert [(r["decisions"], r["end_reason"]) for r in capped["results"]] == [(200, "decision cap")] * 3
    limited = simulate(RS, 2, 3, 1, opts(2, round_limit=3))
    assert limited["totals"]["games_by_end_reason"] == {"round limit": 3}
    assert all(r["end_reason"] == "round limit" and r["decisions"] < 200 for r in limited["results"])


@pytest.mark.parametrize("n", [2, 4])
def test_random_games_end(n):
    """Random players finish only with the round limit set; their games end by it, or
    (rarely) by the rulebook's endings."""
    from engine.players.agents import make_agents
    from engine.players.loop import play
    for seed in range(3):
        g = Game(RS, n, opts(n, round_limit=100), seed)
        play(g, make_agents(["random"] * n, seed))
        assert g.over and g.end_reason == counter(g, "end_reason") in ("contracts", "deck", "round limit")


def test_heuristic_counts_progress_towards_the_next_contract():
    """scoring.heuristic: the score plus 0.4 x the points of the best next deal x the share of its
    goods on the train (the Isle's primaries without an open contract, else its secondaries)."""
    g = new_game(trains={1: ["Level 2 Engine", ("Tanker 201", ["Hopper-2 Car"])],
                         2: ["Level 3 Engine", ("Hopper-2 Car", ["Hopper Car", "Hopper Car"])]},
                 contracts={2: ["Dublin"]})
    est = g.estimates()
    # P1: train 2 + 5, 1 oil loaded (1 point); best primary Cork 6 for oil + box: 6 x 1/2 = 3.
    assert est[Player(1)] == pytest.approx(2 + 5 + 1 + 0.4 * 3)
    # P2: train 4 + 5, Dublin 5, 2 coal (2 points); Dublin back A 9 for 2 coal + 3 oil: 9 x 2/5.
    assert est[Player(2)] == pytest.approx(4 + 5 + 5 + 2 + 0.4 * 9 * 2 / 5)


def test_heuristic_counts_room_for_a_missing_good_half():
    """deal_progress: a good the train lacks but has free room for counts half a loaded one, so
    a car for a type the contracts need is worth building even before anything is loaded on it."""
    g = new_game(trains={1: ["Level 2 Engine", ("Tanker 201", ["Hopper-2 Car"]), "Boxcar"],
                         2: ["Level 3 Engine", ("Hopper-2 Car", ["Hopper Car"])]},
                 contracts={2: ["Dublin"]})
    est = g.estimates()
    # P1: train 2 + 5 + 2, 1 oil loaded (1 point); Cork 6 for oil + box: the oil is loaded and
    # the empty Boxcar has room for the box: 6 x (1 + 0.5) / 2. (Iverness, 7 for 2 box with room
    # for one: 7 x 0.5 / 2, is less.)
    assert est[Player(1)] == pytest.approx(2 + 5 + 2 + 1 + 0.4 * 6 * 1.5 / 2)
    # P2: 1 coal loaded and room for another on the Hopper-2 Car: Dublin back A 9 for 2 coal + 3
    # oil: 9 x (1 + 0.5) / 5; back B, 9 for coal + 2 oil + box, 9 x 1 / 4, is less.
    assert est[Player(2)] == pytest.approx(4 + 5 + 5 + 1 + 0.4 * 9 * 1.5 / 5)


def test_heuristic_counts_a_card_in_hand_a_fifth_of_a_point():
    """Cards are the money that builds and loads: 0.2 each in the bots' heuristic, never in the score."""
    g = new_game(hands={1: ["Boxcar", "Hopper Car", "Caboose 2"]}, trains={1: ["Level 1 Engine"]})
    assert g.estimates()[Player(1)] == pytest.approx(0.2 * 3)
    assert g.scores()[Player(1)] == 0

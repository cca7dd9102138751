"""Scenario tests for Trick of the Rails (rulesets/trick_of_the_rails.yaml).

Every expectation is worked out by hand from the rulebook (its Italian summary) and the card
figures of the Board Game Arena version (see the ruleset's header), with the arithmetic in
comments. Positions are built with `arrange`, then driven decision by decision with `pick`.

Card figures used below (station values by number 1..10):
  B&O  10 10 10 20 20 20 20 30 30 40
  C&O  40 30 30 20 20 20 20 10 10 10
  ERIE 30 20 20 10 30 10 20 20 40 10
  NYC  20 20 30 10 20 40 10 20 30 10
  PRR  10 20 20 30 40 30 20 20 10 10
  Stations 10; Cities Pittsburgh 20, Baltimore 30, New York 40.
  Locomotives (distance/cost): 3/40, 4/50, 5/60, 6/70, infinity/80.
"""
from __future__ import annotations

from engine.core.table import Player
from engine.game.game import Game
from engine.game.view import label

import pytest

from conftest import cards, labels, options, pick, put, ruleset, zone

RS = ruleset("trick_of_the_rails")
COMPANIES = ["B&O", "C&O", "ERIE", "NYC", "PRR"]
HAND_SIZE = {3: 15, 4: 11, 5: 9}
INF = "Locomotive ∞"

# The Trick Lane of the reference, card by card from left to right ("6", "inf" is one trick).
STANDARD_LANE = {
    3: ["E", "C", "E", "C", "E", "C", "E", "3", "E", "4", "R", "5", "R", "6", "inf", "R"],
    4: ["E", "C", "E", "3", "E", "4", "E", "5", "E", "6", "inf", "R"],
    5: ["E", "3", "E", "4", "E", "5", "E", "6", "inf", "E"],
}

# A full standard 3-player lane in a fixed order.
LANE_3P = ["ERIE Exchange", "New York (40)", "C&O Exchange", "Baltimore (30)", "PRR Exchange",
           "Pittsburgh (20)", "B&O Exchange", "Locomotive 3", "NYC Exchange", "Locomotive 4",
           "Reservation", "Locomotive 5", "Reservation", "Locomotive 6", INF, "Reservation"]

HOME = {"railway": "deck", "station": "stations", "city": "cities", "locomotive": "locomotives",
        "exchange": "exchanges", "reservation": "reservations"}


# ---------------------------------------------------------------- helpers

def opts(expert=False, teams=False, players=3):
    return RS.resolve_options({"expert": str(expert).lower(), "teams": str(teams).lower()}, players)


def send_home(game, c):
    game.table.move(c, zone(game, HOME[c.kind]))


def position(hands=None, lane=None, railways=None, locos=None, shares=None, leader=1):
    """An `arrange` function putting the table into a fixed position.

    hands: {seat: [labels]} (every hand is emptied first); lane: [labels] left to right
    ("Reservation" may repeat); railways: {company: [labels front to back]}, the station included;
    locos: {company: label}; shares: {seat: [labels]}; leader: the seat leading the first trick."""
    def arrange(game: Game) -> None:
        if hands is not None:
            for p in game.players:
                for c in list(cards(game, zone(game, "hand", p))):
                    send_home(game, c)
        if railways is not None:
            for co, texts in railways.items():
                for c in list(cards(game, zone(game, "railway", co))):
                    send_home(game, c)
                for text in texts:
                    put(game, text, zone(game, "railway", co))
        if lane is not None:
            for c in list(cards(game, zone(game, "lane"))):
                send_home(game, c)
            for text in lane:
                if text == "Reservation":
                    game.table.move(cards(game, zone(game, "reservations"))[0], zone(game, "lane"))
                else:
                    put(game, text, zone(game, "lane"))
        for co, text in (locos or {}).items():
            put(game, text, zone(game, "locomotive", co))
        for p, texts in (shares or {}).items():
            for text in texts:
                put(game, text, zone(game, "shares", p))
        for p, texts in (hands or {}).items():
            for text in texts:
                put(game, text, zone(game, "hand", p))
        game.table.counters["leader"] = Player(leader)
    return arrange


def new_game(players=3, expert=False, teams=False, seed=11, **kw):
    return Game(RS, players, opts(expert, teams, players), seed, arrange=position(**kw))


def play(game, seat, text):
    """Seat `seat` must be the one asked, and plays the card `text`."""
    assert game.pending is not None and game.pending.player == seat, \
        f"expected P{seat} to decide, pending is {game.pending}"
    pick(game, text)


def prompt(game):
    return label(list(game.pending.prompt), None).replace(", ", "")


def kind_code(c):
    if c.kind == "locomotive":
        d = c.props["distance"]
        return "inf" if d == float("inf") else str(int(d))
    return {"exchange": "E", "city": "C", "reservation": "R"}[c.kind]


def lane_codes(game):
    return [kind_code(c) for c in cards(game, zone(game, "lane"))]


def slots(codes):
    """The lane as tricks: the infinity locomotive shares the slot of the card before it."""
    return [c for c in codes if c != "inf"]


def run_to_end(game, choice=0):
    while not game.over:
        game.apply(choice)


def independent_scores(game):
    """The rulebook's scoring, written out here (not using the ruleset's functions)."""
    value = {}
    for co in COMPANIES:
        locos = cards(game, zone(game, "locomotive", co))
        if not locos:
            value[co] = 0
            continue
        values = [c.props["value"] for c in cards(game, zone(game, "railway", co))]
        dist, cost = locos[0].props["distance"], locos[0].props["cost"]
        if len(values) <= dist:
            profit = sum(values)
        else:
            n = int(dist)
            profit = max(sum(values[i:i + n]) for i in range(len(values) - n + 1))
        value[co] = max(0, profit - cost)
    return {p: sum(value[c.props["company"]] for c in cards(game, zone(game, "shares", p))) for p in game.players}


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_hands_and_railways(n, seed):
    g = Game(RS, n, opts(players=n), seed)
    hands = [cards(g, zone(g, "hand", p)) for p in g.players]
    # Hand size = number of tricks: 15 / 11 / 9.
    assert [len(h) for h in hands] == [HAND_SIZE[n]] * n
    dealt = {c.label for h in hands for c in h}
    undealt_total = 0
    for co in COMPANIES:
        rail = cards(g, zone(g, "railway", co))
        assert rail[0].label == f"{co} Station"
        rest = rail[1:]
        assert all(c.kind == "railway" and c.props["company"] == co for c in rest)
        undealt = {f"{co} {i}" for i in range(1, 11)} - dealt
        assert {c.label for c in rest} == undealt
        assert len(rest) == len(undealt)
        undealt_total += len(rest)
    # 50 railway cards - n * hand size: 50-45=5, 50-44=6, 50-45=5.
    assert undealt_total == 50 - n * HAND_SIZE[n] == {3: 5, 4: 6, 5: 5}[n]
    assert all(len(cards(g, zone(g, "locomotive", co))) == 0 for co in COMPANIES)


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_setup_standard_lane_layout(n, seed):
    g = Game(RS, n, opts(players=n), seed)
    assert lane_codes(g) == STANDARD_LANE[n]
    lane = cards(g, zone(g, "lane"))
    # all five Exchange cards, one per company
    assert sorted(c.props["company"] for c in lane if c.kind == "exchange") == COMPANIES
    # the infinity locomotive right after the 6
    i = labels(g, zone(g, "lane")).index("Locomotive 6")
    assert lane[i + 1].label == INF
    # the number of tricks the lane serves equals the hand size (6 and infinity are one trick)
    assert len(slots(STANDARD_LANE[n])) == HAND_SIZE[n]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_expert_lane_shuffles_cities_and_locomotives(n):
    standard = slots(STANDARD_LANE[n])
    fixed = [i for i, k in enumerate(standard) if k in ("E", "R")]
    differs = False
    for seed in range(8):
        g = Game(RS, n, opts(expert=True, players=n), seed)
        got = slots(lane_codes(g))
        assert len(got) == len(standard) == HAND_SIZE[n]
        # Exchange and Reservation positions are those of the standard lane
        assert [i for i, k in enumerate(got) if k in ("E", "R")] == fixed
        assert [got[i] for i in fixed] == [standard[i] for i in fixed]
        # the other slots hold Cities and Locomotives 3-6, each card once
        others = [k for i, k in enumerate(got) if i not in fixed]
        assert set(others) <= {"C", "3", "4", "5", "6"}
        assert len([k for k in others if k != "C"]) == len(set(k for k in others if k != "C"))
        if n == 3:
            # all seven (3 Cities, Locomotives 3-6) are used
            assert sorted(others) == ["3", "4", "5", "6", "C", "C", "C"]
        if got != standard:
            differs = True
    assert differs, "the Expert lane never differed from the standard layout"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_expert_infinity_follows_the_6(n):
    # 6/infinity is one trick in Expert too: infinity sits right after the 6, wherever the 6 is.
    for seed in range(8):
        g = Game(RS, n, opts(expert=True, players=n), seed)
        lane = labels(g, zone(g, "lane"))
        if "Locomotive 6" in lane:
            i = lane.index("Locomotive 6")
            assert i + 1 < len(lane) and lane[i + 1] == INF, f"seed {seed}: lane {lane}"
        if INF in lane:
            assert lane[lane.index(INF) - 1] == "Locomotive 6", f"seed {seed}: lane {lane}"


# ---------------------------------------------------------------- tricks

def exchange_game():
    """3 players, P1 leads; lane LANE_3P (leftmost: ERIE Exchange)."""
    return new_game(
        3, lane=LANE_3P, leader=1,
        hands={1: ["B&O 5", "C&O 3", "NYC 1", "PRR 2"],
               2: ["B&O 2", "B&O 9", "NYC 10", "ERIE 3"],
               3: ["C&O 10", "ERIE 10", "PRR 10", "NYC 5"]})


def test_follow_suit():
    g = exchange_game()
    # The leader may play anything.
    assert g.pending.player == 1
    assert sorted(options(g)) == sorted(["B&O 5", "C&O 3", "NYC 1", "PRR 2"])
    pick(g, "B&O 5")
    # P2 holds B&O cards: only those are offered.
    assert g.pending.player == 2
    assert sorted(options(g)) == ["B&O 2", "B&O 9"]
    pick(g, "B&O 9")
    # P3 holds no B&O: every card is offered.
    assert g.pending.player == 3
    assert sorted(options(g)) == sorted(["C&O 10", "ERIE 10", "PRR 10", "NYC 5"])


def test_highest_of_led_company_wins_and_leads_next():
    g = exchange_game()
    play(g, 1, "B&O 5")
    play(g, 2, "B&O 9")
    play(g, 3, "ERIE 10")   # higher number, but not the led company
    # B&O led: B&O 9 > B&O 5, ERIE 10 does not count -> P2 wins.
    assert cards(g, zone(g, "shares", 2))[0].label == "ERIE Exchange"
    assert g.table.counters["leader"] == 2
    assert g.pending.player == 2
    assert sorted(options(g)) == sorted(["B&O 2", "NYC 10", "ERIE 3"])


def test_leader_wins_with_led_company_over_higher_offsuit():
    g = new_game(3, lane=LANE_3P, leader=2,
                 hands={1: ["PRR 9", "ERIE 9", "NYC 2"],
                        2: ["C&O 4", "B&O 3", "B&O 4"],
                        3: ["C&O 2", "C&O 1", "ERIE 8"]})
    play(g, 2, "C&O 4")
    play(g, 3, "C&O 2")
    play(g, 1, "PRR 9")   # P1 has no C&O
    # C&O led: C&O 4 > C&O 2; PRR 9 is off-suit -> P2 (the leader) wins.
    assert labels(g, zone(g, "shares", 2)) == ["ERIE Exchange"]
    assert g.table.counters["leader"] == 2
    assert g.pending.player == 2


def test_exchange_trick_fills_leftmost_reservation():
    g = exchange_game()
    play(g, 1, "B&O 5")
    play(g, 2, "B&O 9")
    play(g, 3, "ERIE 10")
    # Winner P2 takes the Exchange card as a share.
    assert labels(g, zone(g, "shares", 2)) == ["ERIE Exchange"]
    # B&O 9 takes the place of the leftmost Reservation (index 10 in LANE_3P, index 9 once the
    # Exchange card has left); that Reservation leaves the game.
    expected = LANE_3P[1:]
    expected[9] = "B&O 9"
    assert labels(g, zone(g, "lane")) == expected
    assert labels(g, zone(g, "removed")) == ["Reservation"]
    # The others keep their played cards as shares.
    assert labels(g, zone(g, "shares", 1)) == ["B&O 5"]
    assert labels(g, zone(g, "shares", 3)) == ["ERIE 10"]
    assert all(len(cards(g, zone(g, "played", p))) == 0 for p in g.players)


def test_exchange_trick_without_reservation_removes_winners_card():
    # 5 players: the standard lane has no Reservation.
    lane = ["NYC Exchange", "Locomotive 3", "ERIE Exchange", "Locomotive 4", "B&O Exchange",
            "Locomotive 5", "C&O Exchange", "Locomotive 6", INF, "PRR Exchange"]
    g = new_game(5, lane=lane, leader=1,
                 hands={1: ["PRR 3", "B&O 1"], 2: ["PRR 7", "PRR 8", "B&O 2"],
                        3: ["PRR 1", "PRR 9", "B&O 3"], 4: ["NYC 10", "B&O 4"],
                        5: ["PRR 2", "PRR 4", "B&O 5"]})
    play(g, 1, "PRR 3")
    play(g, 2, "PRR 7")
    play(g, 3, "PRR 1")
    play(g, 4, "NYC 10")   # no PRR
    play(g, 5, "PRR 2")
    # PRR led: 7 > 3 > 2 > 1 -> P2 wins and takes the NYC Exchange.
    assert labels(g, zone(g, "shares", 2)) == ["NYC Exchange"]
    # No Reservation left: PRR 7 leaves the game; the lane only lost its leftmost card.
    assert labels(g, zone(g, "removed")) == ["PRR 7"]
    assert labels(g, zone(g, "lane")) == lane[1:]
    assert labels(g, zone(g, "shares", 1)) == ["PRR 3"]
    assert labels(g, zone(g, "shares", 3)) == ["PRR 1"]
    assert labels(g, zone(g, "shares", 4)) == ["NYC 10"]
    assert labels(g, zone(g, "shares", 5)) == ["PRR 2"]
    assert g.table.counters["leader"] == 2 and g.pending.player == 2


def test_railway_card_in_lane_acts_as_exchange():
    g = new_game(3, lane=["ERIE Exchange", "Reservation", "Locomotive 3", "Reservation"], leader=1,
                 hands={1: ["B&O 5", "C&O 2", "C&O 3", "NYC 1"],
                        2: ["B&O 9", "B&O 1", "C&O 6", "NYC 2"],
                        3: ["ERIE 10", "C&O 8", "C&O 4", "NYC 3"]})
    # Trick 1: B&O led, B&O 9 > B&O 5 -> P2; B&O 9 replaces the first Reservation.
    play(g, 1, "B&O 5")
    play(g, 2, "B&O 9")
    play(g, 3, "ERIE 10")
    assert labels(g, zone(g, "lane")) == ["B&O 9", "Locomotive 3", "Reservation"]
    # Trick 2: P2 leads C&O 6; C&O 8 > C&O 6 > C&O 2 -> P3 wins. The leftmost lane card is the
    # railway card B&O 9: P3 takes it as a share, C&O 8 replaces the remaining Reservation.
    play(g, 2, "C&O 6")
    play(g, 3, "C&O 8")
    play(g, 1, "C&O 2")
    assert labels(g, zone(g, "shares", 3)) == ["ERIE 10", "B&O 9"]
    assert labels(g, zone(g, "lane")) == ["Locomotive 3", "C&O 8"]
    assert labels(g, zone(g, "removed")) == ["Reservation", "Reservation"]
    assert labels(g, zone(g, "shares", 1)) == ["B&O 5", "C&O 2"]
    assert labels(g, zone(g, "shares", 2)) == ["ERIE Exchange", "C&O 6"]
    assert g.table.counters["leader"] == 3 and g.pending.player == 3


def test_city_trick():
    g = new_game(3, lane=["New York (40)", "ERIE Exchange", "Reservation"], leader=1,
                 railways={"B&O": ["B&O Station", "B&O 3"], "C&O": ["C&O Station", "C&O 7"],
                           "NYC": ["NYC Station"]},
                 hands={1: ["NYC 4", "C&O 1", "PRR 1"],
                        2: ["NYC 8", "NYC 2", "PRR 2"],
                        3: ["C&O 5", "ERIE 2", "PRR 3"]})
    play(g, 1, "NYC 4")
    play(g, 2, "NYC 8")
    play(g, 3, "C&O 5")
    # NYC led: NYC 8 > NYC 4 -> P2 wins. P2 puts the City on any railway, at either end.
    seen = []
    assert g.pending.player == 2 and sorted(options(g)) == sorted(COMPANIES)
    assert "New York (40)" in prompt(g)
    seen.append(g.pending.player)
    pick(g, "B&O")
    assert g.pending.player == 2 and options(g) == ["front", "back"]
    seen.append(g.pending.player)
    pick(g, "back")
    # Then each player from the winner clockwise: P2 (NYC 8), P3 (C&O 5), P1 (NYC 4).
    for seat, text, end in [(2, "NYC 8", "back"), (3, "C&O 5", "front"), (1, "NYC 4", "front")]:
        assert g.pending.player == seat and options(g) == ["front", "back"]
        assert text in prompt(g)
        seen.append(g.pending.player)
        pick(g, end)
    assert seen == [2, 2, 2, 3, 1]
    assert labels(g, zone(g, "railway", "B&O")) == ["B&O Station", "B&O 3", "New York (40)"]
    assert labels(g, zone(g, "railway", "NYC")) == ["NYC 4", "NYC Station", "NYC 8"]
    assert labels(g, zone(g, "railway", "C&O")) == ["C&O 5", "C&O Station", "C&O 7"]
    assert labels(g, zone(g, "lane")) == ["ERIE Exchange", "Reservation"]
    assert all(len(cards(g, zone(g, "shares", p))) == 0 for p in g.players)
    assert g.table.counters["leader"] == 2 and g.pending.player == 2


def test_locomotive_trick():
    g = new_game(3, lane=["Locomotive 4", "ERIE Exchange", "Reservation"], leader=3,
                 locos={"PRR": "Locomotive 3"},
                 railways={"ERIE": ["ERIE Station", "ERIE 6"], "B&O": ["B&O Station"]},
                 hands={1: ["B&O 7", "B&O 1", "NYC 3"],
                        2: ["ERIE 7", "ERIE 3", "NYC 6"],
                        3: ["ERIE 1", "ERIE 9", "C&O 9"]})
    play(g, 3, "ERIE 1")
    play(g, 1, "B&O 7")   # no ERIE
    play(g, 2, "ERIE 7")
    # ERIE led: ERIE 7 > ERIE 1 -> P2. PRR already has a locomotive, so it is not offered.
    assert g.pending.player == 2
    assert sorted(options(g)) == ["B&O", "C&O", "ERIE", "NYC"]
    pick(g, "ERIE")
    assert labels(g, zone(g, "locomotive", "ERIE")) == ["Locomotive 4"]
    assert labels(g, zone(g, "locomotive", "PRR")) == ["Locomotive 3"]
    # Played cards as for a City: P2 (ERIE 7), P3 (ERIE 1), P1 (B&O 7).
    for seat, text, end in [(2, "ERIE 7", "front"), (3, "ERIE 1", "back"), (1, "B&O 7", "back")]:
        assert g.pending.player == seat and options(g) == ["front", "back"]
        assert text in prompt(g)
        pick(g, end)
    assert labels(g, zone(g, "railway", "ERIE")) == ["ERIE 7", "ERIE Station", "ERIE 6", "ERIE 1"]
    assert labels(g, zone(g, "railway", "B&O")) == ["B&O Station", "B&O 7"]
    assert labels(g, zone(g, "lane")) == ["ERIE Exchange", "Reservation"]
    assert g.table.counters["leader"] == 2 and g.pending.player == 2


SIX_HANDS = {1: ["PRR 5", "PRR 1", "B&O 1"],
             2: ["PRR 8", "PRR 2", "B&O 2"],
             3: ["NYC 9", "C&O 9", "B&O 3"]}
SIX_RAILS = {"PRR": ["PRR Station"], "NYC": ["NYC Station"], "ERIE": ["ERIE Station"]}


def test_six_infinity_trick_standard():
    g = new_game(3, lane=["Locomotive 6", INF, "ERIE Exchange"], leader=1, hands=SIX_HANDS,
                 railways=SIX_RAILS,
                 locos={"B&O": "Locomotive 3", "C&O": "Locomotive 4", "ERIE": "Locomotive 5"})
    play(g, 1, "PRR 5")
    play(g, 2, "PRR 8")
    play(g, 3, "NYC 9")   # no PRR
    # PRR led: 8 > 5 -> P2 places the 6 on a free railway (NYC or PRR).
    assert g.pending.player == 2 and sorted(options(g)) == ["NYC", "PRR"]
    pick(g, "NYC")
    # infinity goes to the last free railway, PRR, with no question: next is laying PRR 8.
    assert labels(g, zone(g, "locomotive", "NYC")) == ["Locomotive 6"]
    assert labels(g, zone(g, "locomotive", "PRR")) == [INF]
    assert g.pending.player == 2 and options(g) == ["front", "back"]
    assert "PRR 8" in prompt(g)
    for seat in (2, 3, 1):
        assert g.pending.player == seat
        pick(g, "back")
    assert labels(g, zone(g, "railway", "PRR")) == ["PRR Station", "PRR 8", "PRR 5"]
    assert labels(g, zone(g, "railway", "NYC")) == ["NYC Station", "NYC 9"]
    assert labels(g, zone(g, "lane")) == ["ERIE Exchange"]
    assert g.pending.player == 2


def test_six_infinity_trick_expert_winner_places_infinity():
    g = new_game(3, expert=True, lane=["Locomotive 6", INF, "ERIE Exchange"], leader=1,
                 hands=SIX_HANDS, railways=SIX_RAILS,
                 locos={"B&O": "Locomotive 3", "C&O": "Locomotive 4"})
    play(g, 1, "PRR 5")
    play(g, 2, "PRR 8")
    play(g, 3, "NYC 9")
    # P2 wins; free railways: ERIE, NYC, PRR.
    assert g.pending.player == 2 and sorted(options(g)) == ["ERIE", "NYC", "PRR"]
    assert "Locomotive 6" in prompt(g)
    pick(g, "ERIE")
    # Two railways still free: the winner chooses where infinity goes.
    assert g.pending.player == 2 and sorted(options(g)) == ["NYC", "PRR"]
    assert INF in prompt(g)
    pick(g, "PRR")
    assert labels(g, zone(g, "locomotive", "ERIE")) == ["Locomotive 6"]
    assert labels(g, zone(g, "locomotive", "PRR")) == [INF]
    assert labels(g, zone(g, "locomotive", "NYC")) == []
    assert g.pending.player == 2 and options(g) == ["front", "back"] and "PRR 8" in prompt(g)


# ---------------------------------------------------------------- scoring

# A final position used by the scoring tests (fillers in hand so the flow can start).
FINAL_RAILS = {
    # 10 + 30 + 40 = 80 over 3 cards; Locomotive 4 (4/50): 3 <= 4 -> profit 80, value 80-50 = 30
    "B&O": ["B&O Station", "B&O 8", "B&O 10"],
    # values 10,10,40,30,30,10,10 (7 cards); Locomotive 3 (3/40): windows of 3:
    # 10+10+40=60, 10+40+30=80, 40+30+30=100, 30+30+10=70, 30+10+10=50 -> best 100 in the middle
    # (the front window gives 60, the back one 50); value 100-40 = 60
    "NYC": ["NYC Station", "NYC 4", "NYC 6", "NYC 3", "NYC 9", "NYC 7", "NYC 10"],
    # infinity: the whole line 40+10+30+30+20+20+20 = 170; cost 80 still paid -> value 90
    "PRR": ["PRR 5", "PRR Station", "PRR 4", "PRR 6", "Pittsburgh (20)", "PRR 7", "PRR 2"],
    # 10 + 10 = 20; Locomotive 6 (6/70): 20-70 < 0 -> value 0
    "C&O": ["C&O Station", "C&O 10"],
    # 10+40+30+30+10 = 120 over exactly 5 cards; Locomotive 5 (5/60): value 60
    "ERIE": ["ERIE Station", "ERIE 9", "ERIE 5", "ERIE 1", "ERIE 10"],
}
FINAL_LOCOS = {"B&O": "Locomotive 4", "NYC": "Locomotive 3", "PRR": INF,
               "C&O": "Locomotive 6", "ERIE": "Locomotive 5"}
VALUE = {"B&O": 30, "NYC": 60, "PRR": 90, "C&O": 0, "ERIE": 60}
FILLERS = {1: ["B&O 1", "B&O 2"], 2: ["B&O 3", "C&O 1"], 3: ["C&O 2", "C&O 4"], 4: ["C&O 5", "C&O 6"]}


def final_game(players=3, shares=None, expert=False, teams=False, locos=None):
    return new_game(players, expert=expert, teams=teams, railways=FINAL_RAILS,
                    locos=FINAL_LOCOS if locos is None else locos, shares=shares or {},
                    hands={p: FILLERS[p] for p in range(1, players + 1)})


def test_profit_short_railway_scores_every_station():
    g = final_game()
    # B&O: 3 cards, distance 4 -> 10+30+40 = 80; share value 80-50 = 30
    assert g.call_function("profit", ["B&O"]) == 80
    assert g.call_function("share_value", ["B&O"]) == 30
    # ERIE: 5 cards, distance 5 (equal counts as "no longer") -> 120; 120-60 = 60
    assert g.call_function("profit", ["ERIE"]) == 120
    assert g.call_function("share_value", ["ERIE"]) == 60


def test_profit_long_railway_best_window_in_the_middle():
    g = final_game()
    # see FINAL_RAILS: best window 40+30+30 = 100 (NYC 6, NYC 3, NYC 9); 100-40 = 60
    assert g.call_function("profit", ["NYC"]) == 100
    assert g.call_function("share_value", ["NYC"]) == 60


def test_infinity_counts_whole_line_and_pays_its_cost():
    g = final_game()
    # 40+10+30+30+20+20+20 = 170; 170-80 = 90
    assert g.call_function("profit", ["PRR"]) == 170
    assert g.call_function("share_value", ["PRR"]) == 90


def test_share_value_never_below_zero():
    g = final_game()
    # C&O: 10+10 = 20, cost 70 -> 0, not -50
    assert g.call_function("profit", ["C&O"]) == 20
    assert g.call_function("share_value", ["C&O"]) == 0


def test_expert_company_without_locomotive_scores_zero():
    locos = {co: l for co, l in FINAL_LOCOS.items() if co != "ERIE"}
    g = final_game(expert=True, locos=locos, shares={1: ["ERIE Exchange", "ERIE 2"], 2: ["B&O Exchange"]})
    assert len(cards(g, zone(g, "locomotive", "ERIE"))) == 0
    # ERIE has 10+40+30+30+10 = 120 of stations but no locomotive -> 0
    assert g.call_function("share_value", ["ERIE"]) == 0
    scores = g.scores()
    # P1: two ERIE shares at 0 = 0; P2: B&O 30; P3: nothing = 0
    assert scores == {1: 0, 2: 30, 3: 0}


def test_each_share_worth_its_company_value():
    g = final_game(shares={1: ["B&O Exchange", "NYC 2", "NYC Exchange"],
                           2: ["PRR Exchange", "C&O 3"],
                           3: ["ERIE Exchange", "ERIE 2", "C&O Exchange"]})
    # P1: B&O 30 + NYC 60 (railway card as share) + NYC 60 = 150
    # P2: PRR 90 + C&O 0 = 90
    # P3: ERIE 60 + ERIE 60 + C&O 0 = 120
    assert g.scores() == {1: 150, 2: 90, 3: 120}
    assert g.winners() == [1]


def test_tied_players_share_the_win():
    g = final_game(shares={1: ["B&O Exchange", "NYC 2"],
                           2: ["PRR Exchange", "C&O 3"],
                           3: ["ERIE Exchange", "C&O Exchange"]})
    # P1: 30 + 60 = 90; P2: 90 + 0 = 90; P3: 60 + 0 = 60 -> P1 and P2 tie
    assert g.scores() == {1: 90, 2: 90, 3: 60}
    assert g.winners() == [1, 2]


TEAM_SHARES = {1: ["NYC Exchange", "B&O Exchange"],      # 60 + 30 = 90
               2: ["PRR Exchange", "NYC 2"],             # 90 + 60 = 150
               3: ["ERIE Exchange", "ERIE 2"],           # 60 + 60 = 120
               4: ["C&O Exchange"]}                      # 0


def test_teams_four_players():
    g = final_game(players=4, teams=True, shares=TEAM_SHARES)
    # seats 1+3: 90 + 120 = 210; seats 2+4: 150 + 0 = 150 -> team 1+3 wins
    assert g.scores() == {1: 210, 2: 150, 3: 210, 4: 150}
    assert g.winners() == [1, 3]


def test_without_teams_four_players_score_alone():
    g = final_game(players=4, teams=False, shares=TEAM_SHARES)
    assert g.scores() == {1: 90, 2: 150, 3: 120, 4: 0}
    assert g.winners() == [2]


# ---------------------------------------------------------------- full games

# Card flow of a whole standard game, by player count (X = Exchange-type tricks, i.e. the 5
# Exchange slots plus every Reservation, each filled by a railway card that later comes up):
#   3p: 15 tricks = 8 X + 3 City + 4 Locomotive (6/inf one trick)
#       shares 8*(1+2) = 24; removed 3 Reservations + (8-3) winners' cards = 8;
#       railways 5 stations + 3 cities + 5 undealt + 7*3 played = 34
#   4p: 11 tricks = 6 X + 1 City + 4 Locomotive
#       shares 6*(1+3) = 24; removed 1 + (6-1) = 6; railways 5 + 1 + 6 + 5*4 = 32
#   5p:  9 tricks = 5 X + 4 Locomotive
#       shares 5*(1+4) = 25; removed 0 + 5 = 5; railways 5 + 0 + 5 + 4*5 = 30
FLOW = {3: (24, 8, 34), 4: (24, 6, 32), 5: (25, 5, 30)}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_full_game_always_first_option(n):
    g = Game(RS, n, opts(players=n), seed=5)
    run_to_end(g, 0)
    assert g.over and g.end_reason == "last trick"
    assert g.table.counters["trick"] == HAND_SIZE[n]
    assert all(len(cards(g, zone(g, "hand", p))) == 0 for p in g.players)
    assert all(len(cards(g, zone(g, "played", p))) == 0 for p in g.players)
    assert len(cards(g, zone(g, "lane"))) == 0
    placed = [cards(g, zone(g, "locomotive", co)) for co in COMPANIES]
    assert all(len(l) == 1 for l in placed)
    assert sorted(l[0].label for l in placed) == sorted(
        ["Locomotive 3", "Locomotive 4", "Locomotive 5", "Locomotive 6", INF])
    shares, removed, rails = FLOW[n]
    assert sum(len(cards(g, zone(g, "shares", p))) for p in g.players) == shares
    assert len(cards(g, zone(g, "removed"))) == removed
    assert sum(len(cards(g, zone(g, "railway", co))) for co in COMPANIES) == rails
    assert labels(g, zone(g, "removed")).count("Reservation") == {3: 3, 4: 1, 5: 0}[n]
    scores = independent_scores(g)
    assert g.scores() == scores
    best = max(scores.values())
    assert g.winners() == [p for p in g.players if scores[p] == best]


def test_heuristic_values_shares_by_the_locomotives_still_to_come():
    """scoring.heuristic: a share of a company with a locomotive is worth its share value; one
    without, the mean payoff of the locomotives still in the lane on its railway as it stands."""
    g = new_game(railways={"B&O": ["B&O Station", "B&O 10", "B&O 9"], "C&O": ["C&O Station", "C&O 1", "C&O 2"]},
                 locos={"B&O": "Locomotive 3"}, lane=["ERIE Exchange", "Locomotive 4", INF],
                 shares={1: ["B&O 1", "C&O 3"], 2: ["C&O 4", "C&O 5"]})
    # B&O 10 40 30 with the 3 (cost 40): 80 - 40 = 40. C&O 10 40 30 without: with the 4 (cost 50)
    # 80 - 50 = 30, with infinity (cost 80) 80 - 80 = 0; mean 15.
    assert g.estimates() == {Player(1): 40 + 15, Player(2): 15 + 15, Player(3): 0}
    assert g.scores() == {Player(1): 40, Player(2): 0, Player(3): 0}

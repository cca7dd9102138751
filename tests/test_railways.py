"""Scenario tests for the Railways of the World core (rulesets/railways.yaml).

Every expectation is worked out by hand from the rules the ruleset's header names (a quick-rules
summary, the Board Game Arena help page) and the values chosen in that header, with the
arithmetic in comments. Positions are built with `arrange` (run after setup, before the first
turn), then driven decision by decision with `pick`.

The map, by rows (hex numbers; cities by code; ~ water, ^ mountain, the rest plains):
  row 0:  AS   1   2  BA   3  ~4   5            AS Ashby (purple)    BA Bayfield (blue)
  row 1:    6  ~7  ~8   9  10 ^11  CO           CO Coalton (black)   KI Kingsport (red)
  row 2:  KI ~12  13  GO  14 ^15 ^16            GO Goldfield (yellow) IR Ironvale (black)
  row 3:   17 ~18  19  20 ^21  IR ^22           LA Lakeview (blue)   MA Marlow (red)
  row 4:  23  LA ~24 ~25  26  27 ^28            DU Dunmore (grey)    SU Sunmere (yellow)
  row 5:   29  30 ~31  MA  32 ^33  DU           VI Violetta (purple) EL Elmstead (grey)
  row 6:  34 ~35  36  37  38 ^39  40
  row 7:   SU  41  42  VI  43  EL  44
Prices: plains $2,000, water $3,000, mountain $4,000; engines $2,000 x level; bonds $5,000.
"""
from __future__ import annotations

import textwrap

import pytest

from engine.analysis.run import game_seed
from engine.core.table import Player
from engine.game.game import Game
from engine.game.view import label, render, view
from engine.players.agents import make_agents
from engine.players.loop import play
from engine.rules.ruleset import load_ruleset

from conftest import ROOT, cards, labels, options, pick, ruleset, zone

RS = ruleset("railways")


# ---------------------------------------------------------------- helpers

def opts(players, **given):
    return RS.resolve_options({k: str(v).lower() for k, v in given.items()}, players)


def place(game, pid):
    return game.rules.boards["map"][pid]


def counter(game, name, key=None):
    value = game.table.counters[name]
    return value if key is None else value[key]


def set_counter(game, name, key, value):
    game.table.counters[name][key] = value


def cubes(game, pid):
    return sorted(c.props["colour"] for c in cards(game, zone(game, "goods", place(game, pid))))


def put_cube(game, pid, colour):
    bag = zone(game, "bag")
    cube = next(c for c in cards(game, bag) if c.props["colour"] == colour)
    game.table.move(cube, zone(game, "goods", place(game, pid)))
    return cube


def make_link(game, owner, ids):
    """A completed link of `owner` along ids = [city, hex..., city]."""
    link = cards(game, zone(game, "link_supply"))[0]
    game.table.move(link, zone(game, "network"))
    c = game.table.counters
    hexes = [place(game, i) for i in ids[1:-1]]
    c["link_owner"][link] = Player(owner)
    c["link_a"][link] = place(game, ids[0])
    c["link_b"][link] = place(game, ids[-1])
    c["link_hexes"][link] = hexes
    for h in hexes:
        c["track_owner"][h] = Player(owner)
        c["track_link"][h] = link
    return link


def position(money=None, bonds=None, points=None, engine=None, goods=None, links=(), first=None,
             markers=None, extra=None):
    """An `arrange` function: every city is emptied, then the given goods, links and counters set.

    goods: {city: [colours]}; links: [(owner, [city, hex..., city])]; first: the first player of
    the previous turn (the one who opens the auction; if everybody passes, the next seat leads)."""
    def arrange(game: Game) -> None:
        bag = zone(game, "bag")
        for p in game.rules.boards["map"]:
            for cube in list(cards(game, zone(game, "goods", p))):
                game.table.move(cube, bag)
        for pid, colours in (goods or {}).items():
            for colour in colours:
                put_cube(game, pid, colour)
        for owner, ids in links:
            make_link(game, owner, ids)
        for name, values in (("money", money), ("bonds", bonds), ("points", points), ("engine", engine)):
            for seat, v in (values or {}).items():
                set_counter(game, name, Player(seat), v)
        if first is not None:
            game.table.counters["first_player"] = Player(first)
        if markers is not None:
            game.table.counters["markers"] = markers
        if extra:
            extra(game)
    return arrange


def new_game(players=2, seed=3, rules=RS, options_=None, **kw):
    kw.setdefault("first", players)   # everybody passes: seat 1 leads
    return Game(rules, players, options_ or opts(players), seed, arrange=position(**kw))


def prompt(game):
    return "".join(p if isinstance(p, str) else label(p, None) for p in game.pending.prompt)


def asked(game, seat, starts):
    assert game.pending is not None, "the game is over"
    assert game.pending.player == seat, f"P{seat} should decide; pending: {game.pending.player} {prompt(game)}"
    assert prompt(game).startswith(starts), prompt(game)


def everybody_passes_auction(game):
    while game.pending is not None and prompt(game).startswith("Auction"):
        pick(game, "pass")


def act(game, seat, action):
    asked(game, seat, "Turn ")
    pick(game, action)


def offered(game, word):
    """The option that is `word`, or `word` with its price: "urbanize ($10000)"."""
    found = [o for o in options(game) if o == word or o.startswith(word + " (")]
    return found[0] if found else None


def bid(game, amount):
    """Bid `amount`: the least bid is an option of its own; another is a jump bid, asked as an
    amount in $1,000s."""
    if str(amount) in options(game):
        pick(game, str(amount))
        return
    pick(game, offered(game, "jump bid"))
    asked(game, game.pending.player, "")
    pick(game, str(amount // 1000))


def pass_actions_until(game, seat=None):
    """Every pending action menu answers "pass" until seat `seat` is asked (or an auction starts)."""
    while game.pending is not None and prompt(game).startswith("Turn ") and game.pending.player != seat:
        pick(game, "pass")


def with_cards(tmp_path, cards_yaml):
    """The ruleset with extra card entries (as an event deck would add them); they start in `box`."""
    text = (ROOT / "rulesets" / "railways.yaml").read_text()
    marker = "\ncards:\n"
    assert marker in text
    text = text.replace(marker, marker + textwrap.indent(textwrap.dedent(cards_yaml), "  "), 1)
    path = tmp_path / "railways_with_event.yaml"
    path.write_text(text)
    return load_ruleset(path)


def money(game, seat):
    return counter(game, "money", Player(seat))


def points(game, seat):
    return counter(game, "points", Player(seat))


def bonds(game, seat):
    return counter(game, "bonds", Player(seat))


def network(game):
    c = game.table.counters
    return sorted((int(c["link_owner"][l]), c["link_a"][l].id, c["link_b"][l].id)
                  for l in cards(game, zone(game, "network")))


# ---------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_city_setup_counts(players):
    # Printed: red cities 3, the others 2; one fewer with 2-3 players (at least 1).
    game = Game(RS, players, opts(players), seed=5)
    small = players <= 3
    for city in game.rules.boards["map"]:
        if city.props["terrain"] != "city":
            assert len(cards(game, zone(game, "goods", city))) == 0
            continue
        printed = city.props["cubes"]
        expected = max(1, printed - 1) if small else printed
        assert len(cards(game, zone(game, "goods", city))) == expected, city.id
    total = sum(max(1, c.props["cubes"] - 1) if small else c.props["cubes"]
                for c in game.rules.boards["map"] if c.props["terrain"] == "city")
    assert len(cards(game, zone(game, "bag"))) == 60 - total
    # Markers scaled to the map; everyone starts with $0 and a level-1 engine; P? opens the auction.
    assert counter(game, "markers") == {2: 3, 3: 4, 4: 4, 5: 5, 6: 5}[players]
    assert all(money(game, p) == 0 and counter(game, "engine", Player(p)) == 1 for p in range(1, players + 1))
    assert prompt(game).startswith("Auction for first player")
    assert game.pending.player == counter(game, "first_player")
    # Hotels of seats not in the game stay in the box.
    assert len(cards(game, zone(game, "box"))) == 4 * (6 - players)


# ---------------------------------------------------------------- auction

def test_auction_standard_winner_pays_and_leads():
    game = new_game(3, money={1: 10000, 2: 10000, 3: 10000}, first=1)
    asked(game, 1, "Auction")
    # The least bid ($1,000), or a jump bid up to the limit: cash ($10,000) plus bonds, the
    # bonds counting up to $20,000 (max_bid).
    assert options(game) == ["pass", "1000", "jump bid ($2000 to $20000)"]
    bid(game, 1000)                                  # P1 1000
    asked(game, 2, "Auction")
    assert options(game) == ["pass", "2000", "jump bid ($3000 to $20000)"]
    bid(game, 3000)                                     # P2 3000: a jump bid
    bid(game, 4000)                                     # P3 4000
    bid(game, 6000)                                     # P1 6000
    asked(game, 2, "Auction")
    pick(game, "pass")                                  # P2 out
    asked(game, 3, "Auction")
    pick(game, "pass")                                  # P3 out: P1 wins
    assert money(game, 1) == 4000                       # 10000 - 6000
    assert money(game, 2) == 10000 and money(game, 3) == 10000   # no payments for passing
    assert counter(game, "first_player") == 1
    assert counter(game, "order") == [1, 2, 3]          # clockwise from the winner
    asked(game, 1, "Turn 1, round 1")


def test_auction_variant_passers_pay_half_and_order_from_the_back():
    game = new_game(3, options_=opts(3, first_to_pass=True), money={1: 10000, 2: 10000, 3: 10000}, first=1)
    for amount in [1000, 3000, 4000, 6000]:             # P1, P2, P3, P1
        bid(game, amount)
    pick(game, "pass")                                  # P2 passes first (last bid 3000)
    pick(game, "pass")                                  # P3 passes second (last bid 4000)
    assert money(game, 1) == 4000                       # the winner pays the full 6000
    assert money(game, 2) == 8000                       # half of 3000 = 1500, rounded up: 2000
    assert money(game, 3) == 8000                       # half of 4000 = 2000
    assert counter(game, "order") == [1, 3, 2]          # winner, then reverse passing order
    asked(game, 1, "Turn 1, round 1")
    pass_actions_until(game, 3)
    asked(game, 3, "Turn 1, round 1")                   # P3 acts second


def test_auction_variant_player_who_never_bid_pays_nothing():
    game = new_game(3, options_=opts(3, first_to_pass=True), money={1: 5000, 2: 5000, 3: 5000}, first=1)
    pick(game, "pass")                                  # P1 passes without a bid
    bid(game, 2000)                                  # P2 2000
    pick(game, "pass")                                  # P3 passes: P2 wins
    assert [money(game, s) for s in (1, 2, 3)] == [5000, 3000, 5000]
    assert counter(game, "order") == [2, 3, 1]          # P1 passed first: last


def test_auction_nobody_bids_marker_moves_on():
    game = new_game(3, first=2)
    everybody_passes_auction(game)
    assert counter(game, "first_player") == 3
    assert counter(game, "order") == [3, 1, 2]
    asked(game, 3, "Turn 1, round 1")


def test_auction_bids_issue_bonds_and_are_capped_by_what_can_be_paid():
    game = new_game(2, money={1: 0, 2: 0}, first=1)
    bid(game, 2000)                                     # P1 bids with no cash: bonds will pay
    pick(game, "pass")
    assert bonds(game, 1) == 1 and money(game, 1) == 3000   # one $5,000 bond, $2,000 paid
    # With the bond limit reached and $1,500 in cash, only a $1,000 bid can be paid.
    game = new_game(2, money={1: 1500}, bonds={1: 100}, first=1)
    assert options(game) == ["pass", "1000"]
    # Cash above max_bid may all be bid; bonds count up to it.
    game = new_game(2, money={1: 25000}, first=1)
    assert options(game)[-1] == "jump bid ($2000 to $25000)"


def test_a_jump_bid_is_asked_as_an_amount():
    # Rules: bids in $1,000 steps, any raise over the high bid. P1 jumps straight to $3,000:
    # the jump is asked once as a number (units of $1,000), which the terminal takes typed.
    game = new_game(2, money={1: 10000, 2: 10000}, first=1)
    pick(game, "jump bid ($2000 to $20000)")
    asked(game, 1, "Auction for first player: high bid $0: bid how many times $1000? (2 = $2000")
    assert options(game) == [str(n) for n in range(2, 21)]
    assert view(game, 1).amounts() == (2, 20)
    pick(game, "3")
    assert any("P1 bids $3000" in line for line in view(game, 2).log())
    asked(game, 2, "Auction")
    assert options(game) == ["pass", "4000", "jump bid ($5000 to $20000)"]
    pick(game, "pass")
    assert money(game, 1) == 7000 and counter(game, "first_player") == 1


def test_auction_pass_event_and_after_auction_event_fire(tmp_path):
    rules = with_cards(tmp_path, """
        - kind: operation
          name: Test Event
          zone: box
          goal: true
          text: Illegal Activity, and a check of after_auction.
          triggers:
            - {on: auction_pass, params: [p], do: "money[p] += 1000"}
            - {on: after_auction, do: "points[order[1]] += 5"}
        """)
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), first=2)
    everybody_passes_auction(game)                       # both pass: each +$1,000
    assert money(game, 1) == 1000 and money(game, 2) == 1000
    assert points(game, 2) == 5                          # order is [P1, P2]: the 2nd player


# ---------------------------------------------------------------- build track

def test_build_track_terrain_costs_and_link_completion():
    game = new_game(2, money={1: 20000})
    everybody_passes_auction(game)
    act(game, 1, "build track")
    asked(game, 1, "Build track from where?")
    pick(game, "Kingsport")
    asked(game, 1, "Track from Kingsport")
    # Quick links come first (whole tracks to a city), then single hexes.
    assert "hex 12 (water), hex 13 (plains), Goldfield" in options(game)
    assert "stop" not in options(game)                   # at least one hex must be laid
    pick(game, "hex 12 (water)")                         # water: $3,000
    assert money(game, 1) == 17000
    assert "stop" in options(game)
    pick(game, "hex 13 (plains)")                        # plains: $2,000
    assert money(game, 1) == 15000
    pick(game, "Goldfield")                              # entering a city completes the link
    assert network(game) == [(1, "KI", "GO")]
    assert counter(game, "railroads", Player(1)) == "KI-GO(2)"
    assert counter(game, "track_owner", place(game, "12")) == 1
    # One link per action: the action is over, P2 is asked.
    asked(game, 2, "Turn 1, round 1")
    # Mountain: $4,000, with a quick link in one decision.
    act(game, 2, "build track")
    pick(game, "Ironvale")
    pick(game, "hex 16 (mountain), Coalton")
    assert bonds(game, 2) == 1 and money(game, 2) == 1000   # $0 cash: a bond paid the $4,000
    assert network(game) == [(1, "KI", "GO"), (2, "IR", "CO")]


def test_build_track_at_most_four_hexes_and_no_second_direct_link():
    game = new_game(2, money={1: 50000}, links=[(2, ["KI", "12", "13", "GO"])])
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, "Lakeview")
    for step in ["hex 23 (plains)", "hex 29 (plains)", "hex 35 (water)", "hex 41 (plains)"]:
        pick(game, step)
    # 4 tokens laid: no fifth hex, but entering the city next to the end needs no token.
    assert options(game) == ["Sunmere", "stop"]
    pick(game, "Sunmere")
    assert network(game) == [(1, "LA", "SU"), (2, "KI", "GO")]
    assert money(game, 1) == 50000 - (3 * 2000 + 3000)
    # Kingsport and Goldfield are already joined: no quick link between them any more.
    game = new_game(2, money={1: 50000}, links=[(2, ["KI", "12", "13", "GO"])])
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, "Goldfield")
    assert "hex 13 (plains), hex 12 (water), Kingsport" not in options(game)
    assert not any(o.endswith("Kingsport") for o in options(game))
    assert "hex 8 (water), Bayfield" in options(game)


def test_unfinished_track_can_be_continued_and_is_removed_at_the_end_of_the_turn():
    game = new_game(2, money={1: 20000})
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, "Kingsport")
    pick(game, "hex 17 (plains)")
    pick(game, "stop")                                   # unfinished track from Kingsport
    h17 = place(game, "17")
    assert counter(game, "track_owner", h17) == 1
    assert "1-17" in render(view(game, 2))               # drawn as unfinished track of P1
    pass_actions_until(game, 1)
    act(game, 1, "build track")                          # round 2: the end of the track is a start
    assert "hex 17 (plains)" in options(game)
    pick(game, "hex 17 (plains)")
    pick(game, "hex 23 (plains)")
    pick(game, "stop")
    assert money(game, 1) == 16000                       # two plains hexes, $2,000 each
    # Round 3 and income pass; at the end of the turn the unfinished track is removed.
    pass_actions_until(game)
    asked(game, 1, "Auction")                            # turn 2: P1, first player of turn 1, opens
    assert counter(game, "track_owner", h17) == 0
    assert counter(game, "track_owner", place(game, "23")) == 0
    assert len(cards(game, zone(game, "unfinished"))) == 0
    assert len(cards(game, zone(game, "link_supply"))) == 30


def test_blocked_hexes_and_the_build_limit_hook(tmp_path):
    rules = with_cards(tmp_path, """
        - kind: operation
          name: Test Event
          zone: box
          goal: true
          text: Mountain Snow.
          modifiers:
            - modify: build_limit
              if: any(h.terrain == "mountain" for h in hexes)
              value: min(value, 3)
        """)
    def block(game):
        game.table.counters["blocked"][place(game, "17")] = Player(2)
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), money={1: 50000}, extra=block)
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, "Kingsport")
    assert "hex 17 (plains)" not in options(game)        # blocked this turn
    assert "#17" in render(view(game, 1))
    # Mountain Snow: with a mountain hex the limit is 3.
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), money={1: 50000})
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, "Ironvale")
    for step in ["hex 15 (mountain)", "hex 10 (plains)", "hex 3 (plains)"]:
        pick(game, step)
    assert all(not o.startswith("hex") for o in options(game))   # 3 tokens: no fourth


# ---------------------------------------------------------------- deliver

def test_delivery_stops_at_the_first_city_of_its_colour_and_scores_link_owners():
    # A blue cube in Goldfield. Links: GO-BA (P2), BA-AS (P2), AS-KI (P1), KI-LA (P1).
    # Engine 4 could reach Lakeview (blue) over 4 links, but Bayfield (blue) comes first.
    game = new_game(2, goods={"GO": ["blue", "yellow"]}, engine={1: 4},
                    links=[(2, ["GO", "8", "BA"]), (2, ["BA", "2", "1", "AS"]),
                           (1, ["AS", "6", "KI"]), (1, ["KI", "17", "LA"])])
    everybody_passes_auction(game)
    act(game, 1, "deliver goods")
    # The yellow cube has nowhere to go (Sunmere is not linked): only the blue one is offered,
    # and it has a single route, so nothing more is asked.
    asked(game, 2, "Turn 1, round 1")
    assert cubes(game, "GO") == ["yellow"]
    assert points(game, 2) == 1 and points(game, 1) == 0   # P2 owns the one link used
    assert any("to Bayfield over 1 link" in line for line in view(game, 1).log())


def test_points_go_to_every_link_owner_and_engine_level_limits_delivery():
    # A black cube in Bayfield; Ironvale (black) is 2 links away: BA-GO (P2), GO-IR (P3).
    game = new_game(3, goods={"BA": ["black"]}, money={1: 10000}, first=3,
                    links=[(2, ["BA", "8", "GO"]), (3, ["GO", "14", "21", "IR"])])
    everybody_passes_auction(game)
    asked(game, 1, "Turn 1, round 1")
    assert "deliver goods" not in options(game)          # engine 1 reaches 1 link only
    pick(game, "upgrade engine ($4000)")                 # level 2 for $4,000
    assert money(game, 1) == 6000 and counter(game, "engine", Player(1)) == 2
    pass_actions_until(game, 1)
    act(game, 1, "deliver goods")
    assert points(game, 2) == 1 and points(game, 3) == 1 and points(game, 1) == 0
    assert cubes(game, "BA") == []
    assert counter(game, "empty_marker", place(game, "BA")) == 1   # empty: it takes a marker
    assert counter(game, "markers") == 3                 # 4 at 3 players, one used
    assert "BAb*" in render(view(game, 1))


def test_engine_upgrades_stop_at_level_8_and_price_by_level():
    game = new_game(2, money={1: 100000}, engine={1: 7})
    everybody_passes_auction(game)
    act(game, 1, "upgrade engine ($16000)")
    assert money(game, 1) == 100000 - 16000 and counter(game, "engine", Player(1)) == 8
    pass_actions_until(game, 1)
    asked(game, 1, "Turn 1, round 2")
    assert offered(game, "upgrade engine") is None


def test_hotel_and_speed_record():
    # A purple cube in Ashby; Violetta is the only purple city, 4 links away:
    # AS-KI (P2), KI-LA (P2), LA-SU (P2), SU-VI (P2). A P2 hotel stands in Violetta.
    def extra(game):
        record = next(c for c in game.table.cards if c.label == "Speed Record")
        game.table.move(record, zone(game, "ops_market"))
        hotel = cards(game, zone(game, "hotel_supply", Player(2)))[0]
        game.table.move(hotel, zone(game, "hotel_at", "Violetta"))
    game = new_game(2, goods={"AS": ["purple"]}, engine={1: 4}, extra=extra,
                    links=[(2, ["AS", "6", "KI"]), (2, ["KI", "17", "LA"]),
                           (2, ["LA", "29", "34", "SU"]), (2, ["SU", "41", "42", "VI"])])
    everybody_passes_auction(game)
    assert "VIP0" in render(view(game, 1))               # capital letter: a hotel
    act(game, 1, "deliver goods")
    # P2: 4 links + 1 for the hotel; P1: the speed record, 2 points (4 links, engine 4).
    assert points(game, 2) == 5
    assert points(game, 1) == 2
    assert labels(game, zone(game, "ops_claimed", Player(1))) == ["Speed Record"]


def test_taking_a_hotel_concession_places_a_hotel():
    def extra(game):
        market = zone(game, "ops_market")
        for c in list(cards(game, market)):
            game.table.move(c, zone(game, "ops_deck"))
        concession = next(c for c in game.table.cards if c.label == "Hotel Concession")
        game.table.move(concession, market)
    game = new_game(2, money={1: 3000}, extra=extra)
    everybody_passes_auction(game)
    act(game, 1, "operations card")                      # the only card: taken at once
    asked(game, 1, "Place your hotel")
    pick(game, "Marlow")
    assert money(game, 1) == 1000                        # $2,000
    assert labels(game, zone(game, "hotel_at", "Marlow")) == ["P1 hotel"]
    assert counter(game, "hotels", Player(1)) == "MA (3 left)"
    assert len(cards(game, zone(game, "ops_market"))) == 3  # refilled from the deck


# ---------------------------------------------------------------- urbanize

def test_urbanize_places_a_tile_and_two_cubes_even_on_a_city_with_a_marker():
    def extra(game):
        game.table.counters["empty_marker"][place(game, "DU")] = 1
    game = new_game(2, money={1: 12000}, extra=extra,
                    goods={"IR": ["purple"]}, links=[(2, ["IR", "28", "DU"])])
    everybody_passes_auction(game)
    asked(game, 1, "Turn 1, round 1")
    assert "deliver goods" not in options(game)          # Dunmore (grey) takes no cube
    pick(game, "urbanize ($10000)")                      # the price is shown before it is paid
    asked(game, 1, "Urbanize which grey city?")
    assert options(game) == ["Dunmore", "Elmstead"]
    pick(game, "Dunmore")                                # it holds an empty-city marker: allowed
    assert options(game) == ["yellow New City", "black New City", "blue New City", "purple New City"]
    pick(game, "purple New City")
    assert money(game, 1) == 2000                        # $10,000
    assert len(cards(game, zone(game, "goods", place(game, "DU")))) == 2
    assert labels(game, zone(game, "tile", "Dunmore")) == ["purple New City"]
    assert game.call_function("city_colour", [place(game, "DU")]) == "purple"
    assert counter(game, "empty_marker", place(game, "DU")) == 1   # the marker stays
    # Dunmore now takes purple cubes: P2 can deliver the purple cube from Ironvale.
    asked(game, 2, "Turn 1")
    assert "deliver goods" in options(game)


def test_hooks_change_urbanize_and_upgrade_prices(tmp_path):
    rules = with_cards(tmp_path, """
        - kind: operation
          name: Test Event
          zone: box
          goal: true
          text: Urbanization Incentive and Used Engines.
          modifiers:
            - {modify: urbanize_cost, value: "[6000, 7000, 8000][min(n, 3) - 1]"}
            - modify: upgrade_cost
              if: any(engine[q] > engine[p] for q in players)
              value: value - 1000 * level
        """)
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), money={1: 30000}, engine={2: 5})
    everybody_passes_auction(game)
    act(game, 1, "urbanize ($6000)")                     # the label shows the changed price
    pick(game, "Dunmore")
    pick(game, "black New City")
    assert money(game, 1) == 24000                       # 1st city this turn: $6,000
    pass_actions_until(game, 1)
    act(game, 1, "upgrade engine ($2000)")
    assert money(game, 1) == 24000 - (4000 - 2000)       # level 2: $4,000 less $2,000


# ---------------------------------------------------------------- bonds, income, scoring

def test_income_minus_interest_and_bonds_when_short():
    # P1: 5 points, 3 bonds: income $5,000 - $3,000 interest = +$2,000.
    # P2: 0 points, 4 bonds, $1,000: owes $4,000; cash is short, so P2 says how many bonds to
    # issue: one (+$5,000, $2,000 left) or none (3 points lost: $3,000 missing).
    for answer, expected in [("1", (2000, 5, 0)), ("0", (0, 4, -3))]:
        game = new_game(2, money={1: 0, 2: 1000}, bonds={1: 3, 2: 4}, points={1: 5})
        everybody_passes_auction(game)
        pass_actions_until(game)                         # 3 rounds of passes, then income
        asked(game, 2, "You owe $4000 and have $1000: issue how many bonds (0 to 1, $5000 each)? "
                       "Without bonds you lose 3 point(s)")
        assert options(game) == ["0", "1"]
        pick(game, answer)
        asked(game, 1, "Auction")                        # turn 2
        assert money(game, 1) == 2000 and bonds(game, 1) == 3
        assert (money(game, 2), bonds(game, 2), points(game, 2)) == expected
        # Each change of cash has its news line (the interest had none).
        log = view(game, 1).log()
        assert "P1 receives $5000 income and pays $3000 interest on 3 bond(s)" in log
        assert "P2 pays $4000 interest on 4 bond(s)" in log


@pytest.mark.parametrize("issued, lost", [(0, 13), (1, 8), (2, 3), (3, 0)])
def test_a_forced_payment_asks_once_how_many_bonds(issued, lost):
    # The rule (header: Bonds): for a payment the player must make, a player short of cash is
    # asked once how many bonds to issue, from none to as many as pay it all; each $1,000 (or
    # part) still missing then costs a point. P2, 0 points (no income), 14 bonds, $1,000: owes
    # $14,000 interest, $13,000 missing: up to 3 bonds of $5,000.
    game = new_game(2, money={2: 1000}, bonds={2: 14})
    everybody_passes_auction(game)
    pass_actions_until(game)
    asked(game, 2, "You owe $14000 and have $1000: issue how many bonds (0 to 3, $5000 each)? "
                   "Without bonds you lose 13 point(s): 1 per $1000 (or part) still missing")
    assert options(game) == ["0", "1", "2", "3"]
    game.apply(issued)                                   # option i is the amount i: from 0
    asked(game, 1, "Auction")                            # one question, then turn 2
    assert bonds(game, 2) == 14 + issued
    assert points(game, 2) == -lost
    assert money(game, 2) == max(0, 1000 + 5000 * issued - 14000)
    issue_lines = [line for line in view(game, 1).log() if "P2 issues a bond for $5000" in line]
    assert len(issue_lines) == issued


def test_income_table_rises_then_falls():
    game = new_game(2)
    income = {pts: None for pts in (0, 1, 10, 11, 12, 13, 14, 29, 30, 45, -3)}
    for pts in income:
        set_counter(game, "points", Player(1), pts)
        income[pts] = game.call_function("income", [Player(1)])
    assert income == {0: 0, 1: 1000, 10: 10000, 11: 10000, 12: 9000, 13: 9000, 14: 8000,
                      29: 1000, 30: 0, 45: 0, -3: 0}


def test_past_the_bond_limit_a_shortfall_costs_points():
    # 100 bonds (the limit): interest $100,000 against $10,000 income and $500 cash:
    # $500 is paid, $89,500 is missing: 90 points lost.
    game = new_game(2, money={1: 500}, bonds={1: 100}, points={1: 10})
    everybody_passes_auction(game)
    pass_actions_until(game)
    assert money(game, 1) == 0 and bonds(game, 1) == 100 and points(game, 1) == 10 - 90


def test_bond_yield_hook_and_bonds_on_demand(tmp_path):
    rules = with_cards(tmp_path, """
        - kind: operation
          name: Test Event
          zone: box
          goal: true
          text: Bond Shortage, with bonds offered before each action.
          modifiers:
            - {modify: bond_yield, value: 4000}
            - {modify: voluntary_bond, value: "true"}
        """)
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2))
    everybody_passes_auction(game)
    act(game, 1, "issue a bond (+$4000, $1000 interest a turn)")   # not an action: the menu comes back
    asked(game, 1, "Turn 1, round 1")
    assert money(game, 1) == 4000 and bonds(game, 1) == 1


def test_bonds_on_demand_by_default_offers_a_bond_before_any_action():
    # Rules (the reference): "Bonds: taking one is not an action; +$5,000". By default (option
    # bonds_on_demand), "issue a bond" is offered before every action, with what it brings and
    # costs, and the menu comes back after it: P1 issues two bonds, then still has the turn's
    # first action.
    assert RS.options["bonds_on_demand"].default is True
    game = new_game(2)
    everybody_passes_auction(game)
    asked(game, 1, "Turn 1, round 1")
    assert options(game)[-2:] == ["issue a bond (+$5000, $1000 interest a turn)", "pass"]
    act(game, 1, "issue a bond (+$5000, $1000 interest a turn)")
    asked(game, 1, "Turn 1, round 1")
    act(game, 1, "issue a bond (+$5000, $1000 interest a turn)")
    asked(game, 1, "Turn 1, round 1")
    assert money(game, 1) == 10000 and bonds(game, 1) == 2
    assert any("P1 issues a bond for $5000" in line for line in view(game, 2).log())
    act(game, 1, "pass")
    asked(game, 2, "Turn 1, round 1")                    # P1's one action was the pass
    # Off (the old behaviour), only payments issue bonds: no "issue a bond".
    game = new_game(2, options_=opts(2, bonds_on_demand=False))
    everybody_passes_auction(game)
    asked(game, 1, "Turn 1, round 1")
    assert offered(game, "issue a bond") is None


def test_score_is_points_minus_bonds_and_ties_go_to_links_then_money():
    game = new_game(3, points={1: 10, 2: 9, 3: 12}, bonds={1: 2, 2: 1, 3: 4}, money={1: 0, 2: 5000},
                    links=[(1, ["KI", "17", "LA"]), (1, ["AS", "6", "KI"]), (2, ["GO", "8", "BA"])])
    assert game.scores() == {1: 8, 2: 8, 3: 8}
    assert game.winners() == [1]                         # 2 links against 1 and 0
    game = new_game(3, points={1: 10, 2: 9}, bonds={1: 2, 2: 1}, money={1: 0, 2: 5000},
                    links=[(1, ["KI", "17", "LA"]), (2, ["GO", "8", "BA"])])
    assert game.winners() == [2]                         # equal links: more money


# ---------------------------------------------------------------- end of the game

def test_end_markers_run_out_finish_the_turn_then_one_more():
    # One marker left; P1 empties Goldfield in round 1 of turn 1.
    game = new_game(2, goods={"GO": ["blue"]}, markers=1, links=[(2, ["GO", "8", "BA"])])
    everybody_passes_auction(game)
    act(game, 1, "deliver goods")
    assert counter(game, "markers") == 0
    asked(game, 2, "Turn 1, round 1")                    # the turn goes on
    pass_actions_until(game)
    assert counter(game, "last_turn") == 2
    asked(game, 1, "Auction")                            # turn 2 is played in full
    everybody_passes_auction(game)
    for _ in range(6):                                   # 3 rounds x 2 players
        assert not game.over
        pick(game, "pass")
    assert game.over and game.end_reason == "markers run out"
    assert counter(game, "turn") == 2
    assert game.scores() == {1: 0, 2: 1}


def test_the_safety_turn_limit_ends_the_game_with_its_own_reason():
    game = new_game(2, options_=opts(2, turn_limit=1))
    everybody_passes_auction(game)
    for _ in range(6):                                   # turn 1: 3 rounds x 2 players
        assert not game.over
        pick(game, "pass")
    assert game.over and game.end_reason == "turn limit" and counter(game, "limit_reached")
    assert counter(game, "turn") == 1


def test_damaged_track_carries_nothing_until_repaired(tmp_path):
    # Earthquake-style damage through the core's procedures: hex 8 of P1's link GO-BA is lost.
    rules = with_cards(tmp_path, """
        - kind: operation
          name: Test Event
          zone: box
          goal: true
          text: Earthquake on turn 1, track lost on turn 2 if not repaired.
          triggers:
            - on: turn_start
              params: [turn]
              do: |
                if turn == 1:
                    damage_track(map["8"])
                else:
                    lose_damaged_links()
        """)
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), money={1: 10000},
                    goods={"GO": ["blue"]}, links=[(1, ["GO", "8", "BA"]), (1, ["AS", "6", "KI"])])
    everybody_passes_auction(game)
    assert "1!8" in render(view(game, 1))
    asked(game, 1, "Turn 1, round 1")
    assert "deliver goods" not in options(game)          # the only route is broken
    pick(game, "build track")
    assert "hex 8 (water)" in options(game)              # a damaged hex of yours is a start
    pick(game, "hex 8 (water)")                          # repaired for $3,000
    assert money(game, 1) == 7000
    pass_actions_until(game, 1)
    assert "deliver goods" in options(game)
    # An unrepaired link is removed when the card leaves play.
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2),
                    links=[(1, ["GO", "8", "BA"]), (1, ["AS", "6", "KI"])])
    everybody_passes_auction(game)
    pass_actions_until(game)
    everybody_passes_auction(game)                       # turn 2 started: the damaged link is gone
    assert network(game) == [(1, "AS", "KI")]
    assert counter(game, "railroads", Player(1)) == "AS-KI(1)"


def test_free_trade_and_delivery_range_hooks(tmp_path):
    rules = with_cards(tmp_path, """
        - kind: operation
          name: Test Event
          zone: box
          goal: true
          text: Free Trade and Experimental Engine.
          modifiers:
            - {modify: delivery_passes, value: 1}
            - {modify: delivery_fee, if: passes > 0, value: "1000 * count(links)"}
            - {modify: delivery_range, value: value + 1}
        """)
    # The blue cube of the first delivery test, engine 3 (+1 = 4): it may go on past Bayfield.
    def extra(game):
        record = next(c for c in game.table.cards if c.label == "Speed Record")
        game.table.move(record, zone(game, "ops_market"))
    game = new_game(2, rules=rules, options_=rules.resolve_options({}, 2), goods={"GO": ["blue"]},
                    engine={1: 3}, money={1: 10000}, extra=extra,
                    links=[(2, ["GO", "8", "BA"]), (2, ["BA", "2", "1", "AS"]),
                           (1, ["AS", "6", "KI"]), (1, ["KI", "17", "LA"])])
    everybody_passes_auction(game)
    act(game, 1, "deliver goods")
    asked(game, 1, "Go on past Bayfield?")
    assert options(game) == ["deliver here", "Bayfield, Ashby, Kingsport, Lakeview"]
    pick(game, "Bayfield, Ashby, Kingsport, Lakeview")
    assert money(game, 1) == 6000                        # 4 links x $1,000
    assert points(game, 1) == 2 and points(game, 2) == 2
    # 4 links with a level-3 engine: no speed record (the +1 does not count).
    assert len(cards(game, zone(game, "ops_claimed", Player(1)))) == 0


def test_more_event_hooks(tmp_path):
    """Major City Unrest, Resource Shortage, Risky Business and Small Market Incentive as data."""
    rules = with_cards(tmp_path, """
        - kind: operation
          name: Test Event
          zone: box
          goal: true
          text: Several events at once.
          modifiers:
            - modify: delivery_allowed
              if: city_colour(origin) == "red" or city_colour(destination) == "red"
              value: "false"
            - {modify: can_upgrade, value: "false"}
            - {modify: pass_payment, value: 0}
          triggers:
            - on: city_connected
              params: [p, city]
              if: city.colour == "grey"
              do: "money[p] += 1000"
        """)
    options_ = rules.resolve_options({"first_to_pass": "true"}, 2)
    game = new_game(2, rules=rules, options_=options_, money={1: 10000, 2: 10000}, first=1,
                    goods={"AS": ["red"], "GO": ["blue"]},
                    links=[(2, ["AS", "6", "KI"]), (2, ["GO", "8", "BA"])])
    bid(game, 2000)                                   # P1 2000
    bid(game, 3000)                                   # P2 3000
    pick(game, "pass")                                   # P1 passes: with Risky Business, pays nothing
    assert money(game, 1) == 10000 and money(game, 2) == 7000
    asked(game, 2, "Turn 1, round 1")
    # The red cube cannot go to Kingsport (red); the blue one may go to Bayfield.
    assert offered(game, "upgrade engine") is None        # Resource Shortage
    pick(game, "deliver goods")
    assert cubes(game, "AS") == ["red"] and cubes(game, "GO") == []
    # P1 links Elmstead to Dunmore: two grey cities connected for the first time: +$1,000 each.
    act(game, 1, "build track")
    pick(game, "Elmstead")
    pick(game, "hex 40 (plains), Dunmore")
    assert money(game, 1) == 10000 - 2000 + 2 * 1000


# ---------------------------------------------------------------- terminal view and random games

def test_terminal_view_shows_the_map_links_and_legend():
    game = new_game(2, goods={"KI": ["red", "blue"]}, links=[(2, ["GO", "8", "BA"])])
    text = render(view(game, 1))
    assert "[map]" in text
    assert "KIr2" in text and "2=8" in text and "ASp0" in text and "DUg0" in text
    assert ".13" in text and "~12" in text and "^15" in text
    assert "legend" in text and "turn order" not in text
    assert "goods bag" in text


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_end_by_the_markers(players):
    """The safety turn limit is never what ends these games."""
    for i in range(6):
        seed = game_seed(players * 31, i)
        game = Game(RS, players, opts(players), seed)
        play(game, make_agents(["random"] * players, seed))
        assert game.over and game.end_reason == "markers run out"
        assert not counter(game, "limit_reached")
        # (Market Expansion may add a marker after they ran out: the end stays set.)
        assert counter(game, "last_turn") > 0 and counter(game, "turn") == counter(game, "last_turn")


def test_heuristic_counts_cash_income_links_and_engine():
    """scoring.heuristic (function standing): final score + (cash + net income x turns left) /
    $5,000 + 1 per completed link + 1/2 per engine level above 1."""
    g = new_game(2, money={1: 7000}, bonds={1: 2}, points={1: 5, 2: 12}, engine={1: 3}, markers=2,
                 links=[(1, ["KI", "12", "13", "GO"]), (1, ["GO", "8", "BA"])])
    # Turns left: no last turn yet, 2 markers: 3. P1: 5 - 2 bonds = 3; income $5,000 - interest
    # $2,000 = $3,000 a turn; (7,000 + 3 x 3,000) / 5,000 = 3.2; 2 links; engine 3: 1.
    # P2: 12; income at 12 points $9,000: 3 x 9,000 / 5,000 = 5.4.
    assert g.estimates() == pytest.approx({Player(1): 3 + 3.2 + 2 + 1, Player(2): 12 + 5.4})


def test_heuristic_counts_what_pays_later_for_less_as_the_end_comes():
    """With one turn left (no markers) the parts beyond the final score count for half; in the
    last turn for nothing, where a bond bought for track would cost a point and bring none."""
    g = new_game(2, money={1: 7000}, bonds={1: 2}, points={1: 5, 2: 12}, engine={1: 3}, markers=0,
                 links=[(1, ["KI", "12", "13", "GO"])])
    # P1: 5 - 2 = 3; 1 turn left: (7,000 + 3,000) / 5,000 = 2, 1 link, engine 1: half of 4.
    # P2: 12 + half of 9,000 / 5,000.
    assert g.estimates() == pytest.approx({Player(1): 3 + (2 + 1 + 1) / 2, Player(2): 12 + 1.8 / 2})
    g.table.counters["last_turn"] = g.table.counters["turn"]
    assert g.estimates() == g.scores() == {Player(1): 3, Player(2): 12}


def test_heuristic_counts_what_the_own_track_could_deliver():
    """prospects: the points a player's own links would score if it delivered every cube they
    can carry now, within its engine, each as far as it can go; standing counts half of it."""
    g = new_game(2, engine={1: 2}, markers=2,
                 goods={"KI": ["yellow", "blue", "purple"], "GO": ["red", "black"], "BA": ["yellow"]},
                 links=[(1, ["KI", "12", "13", "GO"]), (1, ["GO", "8", "BA"]), (2, ["GO", "14", "15", "IR"])])
    # P1 (KI red - GO yellow - BA blue): KI yellow to GO 1 link, KI blue to BA over GO 2 links,
    # GO red to KI 1, BA yellow to GO 1; the purple cube has no purple city on P1's track, and
    # the black one goes to Ironvale over P2's link only: 5. P2: the black cube, 1.
    assert g.call_function("prospects", [Player(1)]) == 5
    assert g.call_function("prospects", [Player(2)]) == 1
    # Turns left 3 (2 markers): no cash, no income. P1: half of 5, 2 links, engine 2: 1/2, and
    # half the income 5 more points would bring in the 2 turns after this one: $5,000 x 2 / 2,
    # a point. P2: half of 1, 1 link, half of $1,000 x 2: 0.2.
    assert g.estimates() == pytest.approx({Player(1): 2.5 + 2 + 0.5 + 1, Player(2): 0.5 + 1 + 0.2})
    set_counter(g, "engine", Player(1), 1)   # the blue cube's 2 links are out of reach
    assert g.call_function("prospects", [Player(1)]) == 3


def test_heuristic_counts_prospects_only_while_rounds_are_left_to_deliver():
    """In the last turn the prospects count by the action rounds left: all of them before the
    first round, a third in the last round."""
    g = new_game(2, markers=0, goods={"KI": ["yellow"]}, links=[(1, ["KI", "12", "13", "GO"])])
    g.table.counters["last_turn"] = g.table.counters["turn"]
    assert g.estimates()[Player(1)] == pytest.approx(0.5)
    g.table.counters["round"] = 3
    assert g.estimates()[Player(1)] == pytest.approx(0.5 / 3)


def test_heuristic_counts_a_bid_owed_and_the_auction_clears_it():
    """A bid counts against cash while its bidder leads the auction (else bidding would look
    free to the bots); once paid, the auction clears last_bid."""
    g = new_game(2, money={1: 0, 2: 0}, markers=2, first=1)
    assert g.estimates() == {Player(1): 0, Player(2): 0}
    bid(g, 2000)                                    # P1 leads with $2,000 it does not have
    # Turns left 3, no income: the $2,000 owed is short at the end: 2,000 / 5,000.
    assert g.estimates() == pytest.approx({Player(1): -0.4, Player(2): 0})
    bid(g, 3000)                                    # P2 leads: P1 owes nothing now
    assert g.estimates() == pytest.approx({Player(1): 0, Player(2): -0.6})
    pick(g, "pass")                                    # P1 passes: P2 pays with a bond
    assert bonds(g, 2) == 1 and money(g, 2) == 2000
    assert counter(g, "last_bid") == {Player(1): 0, Player(2): 0}
    # P2: -1 for the bond; $2,000 less $1,000 interest a turn for 3 turns, and the last turn's:
    # $2,000 short, 0.4.
    assert g.estimates() == pytest.approx({Player(1): 0, Player(2): -1 - 0.4})


def test_heuristic_counts_the_pass_payment_owed_in_the_variant():
    """First to pass: a bidder who no longer leads owes half its last bid if it passes."""
    g = new_game(2, options_=opts(2, first_to_pass=True), money={1: 0, 2: 0}, markers=2, first=1)
    bid(g, 2000)
    bid(g, 3000)                                    # P1 would pay $1,000 for passing
    assert g.estimates() == pytest.approx({Player(1): -0.2, Player(2): -0.6})


def test_heuristic_counts_the_interest_cash_cannot_pay_in_the_last_turn():
    """In the last turn cash is worth nothing, but interest that cash and income cannot pay
    will cost bonds: $5,000 (or part) a point."""
    g = new_game(2, money={1: 1000}, bonds={1: 3}, points={1: 2}, markers=0)
    g.table.counters["last_turn"] = g.table.counters["turn"]
    # Income $2,000, interest $3,000: $1,000 + $2,000 - $3,000 = 0, nothing short.
    assert g.estimates()[Player(1)] == g.scores()[Player(1)] == 2 - 3
    set_counter(g, "money", Player(1), 0)              # $1,000 short: a fifth of a bond
    assert g.estimates()[Player(1)] == pytest.approx(2 - 3 - 0.2)


def test_heuristic_counts_the_income_a_first_link_would_bring():
    """At the start, a first link bought with a bond, over which two cubes can go, is worth more
    than passing: the bond costs its point and $5,000 of interest in 5 turns, but the two points
    the link would score raise income by $2,000 for the 4 turns after this one (prospect_income),
    half of which counts, as half of the points do. Without that income, the link was worth no
    more than passing, and the bots passed."""
    g = new_game(2, money={1: 1000}, bonds={1: 1}, markers=4,
                 goods={"KI": ["yellow"], "GO": ["red"]}, links=[(1, ["KI", "12", "13", "GO"])])
    assert g.call_function("prospects", [Player(1)]) == 2
    assert g.call_function("prospect_income", [Player(1), 2]) == 2000 * 4
    # -1 for the bond, half of 2 points, 1 for the link, half of $8,000 of income; cash will be
    # $5,000 short at the last income phase ($1,000 and 5 turns of $1,000 interest, no income).
    assert g.estimates() == pytest.approx({Player(1): -1 + 1 + 1 + 0.8 - 1, Player(2): 0})
    # Past the middle of the income track more points bring less income: nothing counts then.
    set_counter(g, "points", Player(1), 30)
    assert g.call_function("prospect_income", [Player(1), 2]) == 0

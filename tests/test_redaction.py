"""Redaction in the engine, for every ruleset: counters, errors, the order of the zones of cards,
texts made from cards (`text(card)`, `card.label`, `card.name`) follow the one rule of
visibility (`Table.can_see`), and what an agent is given leads nowhere near the game."""
from __future__ import annotations

import gc
import inspect
import json
import random
import sys
import types
import weakref
from pathlib import Path

import pytest

from engine.core.errors import EffectError, RulesetError
from engine.core.table import Card, Table
from engine.core.values import Lambda
from engine.game.game import Game
from engine.game.view import PlayerView, render, view
from engine.rules.ruleset import load_ruleset

from conftest import card, put, swap, zone
from test_noninterference import check_seat

# No shuffle, so the deal is known: P1 holds Ruby and Garnet, P2 Opal and Pearl; Topaz and Jade
# stay in the bag. P2 never sees P1's hand, and no card is face up on the table.
RULES = """\
game: {name: Secrets, players: [2]}
card_kinds:
  gem:
    zone: bag
    label: "{name}"
    back: [colour]
    properties: {colour: string}
cards:
  - {kind: gem, name: Ruby, colour: red}
  - {kind: gem, name: Garnet, colour: red}
  - {kind: gem, name: Opal, colour: white}
  - {kind: gem, name: Pearl, colour: white}
  - {kind: gem, name: Topaz, colour: red}
  - {kind: gem, name: Jade, colour: white}
zones:
  bag: {visibility: hidden}
  hand: {per: player, visibility: owner}
  shown: {}
  under: {per: card}
counters:
  kept: {initial: none}
  keeps: {initial: []}
  by_gem: {initial: 0}
  kept_name: {initial: ""}
  keeps_text: {initial: ""}
  rule: {initial: 0}
procedures:
  refuse:
    params: [c]
    do: |
      fail("cannot keep ", c, " here")
  misuse:
    params: [c]
    do: |
      reveal(c, c)
  ask_cards:
    params: [cards]
    do: |
      let answer = choose(cards, ["yes", "no"], "Sure?")
setup: |
  deal(bag, hand[1], 2)
  deal(bag, hand[2], 2)
flow: |
  let c = first(hand[1])
  kept = c
  keeps = [c, first(hand[2])]
  kept_name = "kept " + text(c)
  keeps_text = text(keeps)
  rule = x -> x
  log(1, " keeps ", text(c), " (", c.name, ", ", c.label + "!", ")")
  let guess = choose(2, [text(c), "something else"], "Is it ", c.label, "?")
  let last_word = choose(1, ["yes", "no"], "Done?")
scoring:
  score: 0
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("secrets") / "secrets.yaml"
    path.write_text(RULES, encoding="utf-8")
    return load_ruleset(path)


@pytest.fixture
def game(rules):
    return Game(rules, 2, seed=1)


def test_the_deal_is_as_the_tests_expect(game):
    assert [c.label for c in game.table.cards_in(zone(game, "hand", 1))] == ["Ruby", "Garnet"]
    assert not game.table.can_see(card(game, "Ruby"), 2) and game.table.can_see(card(game, "Ruby"), 1)


def test_a_counter_holding_a_card_shows_it_as_the_player_may_see_it(game):
    assert game.table.counters["kept"] is card(game, "Ruby")
    theirs, mine = view(game, 2).counters(), view(game, 1).counters()
    assert theirs["kept"] == "a face-down red card" and mine["kept"] == "Ruby"
    assert theirs["keeps"] == ["a face-down red card", "Opal"] and mine["keeps"] == ["Ruby", "a face-down white card"]
    assert theirs["kept_name"] == "kept a face-down red card" and mine["kept_name"] == "kept Ruby"
    assert theirs["keeps_text"] == "a face-down red card, Opal" and mine["keeps_text"] == "Ruby, a face-down white card"
    assert theirs["rule"] == "a function"
    assert "Ruby" not in render(view(game, 2))


def test_a_table_keyed_by_cards_shows_only_the_cards_the_player_may_see(game):
    game.table.counters["by_gem"] = {card(game, "Ruby"): 1, card(game, "Opal"): 2}
    assert view(game, 2).counters()["by_gem"] == {"Opal": 2}
    assert view(game, 1).counters()["by_gem"] == {"Ruby": 1}
    assert view(game, None).counters()["by_gem"] == {"Ruby": 1, "Opal": 2}


def test_text_label_and_name_of_a_card_in_the_log_follow_who_could_see_it(game):
    line = view(game, 2).log()[-1]
    assert line == "1 keeps a face-down red card (a face-down red card, a face-down red card!)"
    assert view(game, 1).log()[-1] == "1 keeps Ruby (Ruby, Ruby!)"
    # Told as it was when logged: showing the card later does not change the line.
    put(game, "Ruby", zone(game, "shown"))
    assert view(game, 2).log()[-1] == line


def test_text_of_a_card_in_a_prompt_and_in_options(game):
    decision = view(game, 2).decision
    assert decision["prompt"] == "Is it a face-down red card?"
    assert decision["options"] == ["a face-down red card", "something else"]
    put(game, "Ruby", zone(game, "shown"))  # now everyone sees it
    assert view(game, 2).decision["prompt"] == "Is it Ruby?"


def test_a_text_naming_a_card_survives_a_save_a_copy_and_a_world(game):
    restored = Game.from_snapshot(game.rules, json.loads(json.dumps(game.snapshot())))
    for other in (restored, game.clone()):
        assert view(other, 2).as_dict() == view(game, 2).as_dict()
        assert view(other, 1).as_dict() == view(game, 1).as_dict()
    # In P2's world, P1's red cards are dealt again: the text names whichever the world holds.
    names = {view(game, 2).world(seed).table.counters["kept_name"] for seed in range(20)}
    assert names == {"kept Ruby", "kept Garnet", "kept Topaz"}


@pytest.mark.parametrize("procedure, told", [("refuse", "cannot keep {} here"),
                                             ("misuse", "expected a player, got the card {}")])
def test_an_error_names_a_card_only_when_everyone_may_see_it(game, procedure, told):
    ruby = card(game, "Ruby")
    with pytest.raises(EffectError) as hidden:
        game.run_procedure(procedure, [ruby])
    assert "Ruby" not in str(hidden.value) and told.format("a face-down red card") in str(hidden.value)
    put(game, "Ruby", zone(game, "shown"))
    with pytest.raises(EffectError) as public:
        game.run_procedure(procedure, [ruby])
    assert told.format("Ruby") in str(public.value)


def test_an_error_naming_a_list_of_cards_names_each_only_when_everyone_may_see_it(game):
    """A list (or table) of cards in a message was written by repr: every card by its name."""
    ruby, garnet = card(game, "Ruby"), card(game, "Garnet")
    with pytest.raises(EffectError) as hidden:
        game.run_procedure("ask_cards", [[ruby, garnet]])
    assert str(hidden.value).endswith("choose() needs a player, got [a face-down red card, a face-down red card] (in procedure ask_cards)")
    put(game, "Ruby", zone(game, "shown"))
    with pytest.raises(EffectError) as public:
        game.run_procedure("ask_cards", [[ruby, garnet]])
    assert str(public.value).endswith("choose() needs a player, got [Ruby, a face-down red card] (in procedure ask_cards)")


def test_an_error_of_an_expression_outside_the_flow_is_told_the_same_way(tmp_path):
    path = tmp_path / "score.yaml"
    path.write_text(RULES.replace("score: 0", "score: by_gem[kept]"), encoding="utf-8")
    game = Game(load_ruleset(path), 2, seed=1)
    game.table.counters["by_gem"] = {card(game, "Opal"): 1}
    with pytest.raises(EffectError) as error:
        game.scores()
    assert "Ruby" not in str(error.value) and "a face-down red card" in str(error.value)


def test_the_zones_of_hidden_cards_are_not_listed_by_which_card_they_are_of(game):
    """P2 sees Opal's zone and the zone of a face-down red card of P1. Where the latter is
    listed must not say whether it is Ruby's (card 1, before Opal) or Topaz's (card 5, after)."""
    put(game, "Jade", zone(game, "under", card(game, "Opal")))
    shown = []
    for holder in ("Ruby", "Topaz"):
        g = game.clone()
        if holder == "Topaz":  # Topaz takes Ruby's place in P1's hand, Ruby Topaz's in the bag
            swap(g, card(g, "Ruby"), card(g, "Topaz"))
        put(g, "Pearl", zone(g, "under", card(g, holder)))
        shown.append(view(g, 2).zones())
    assert shown[0] == shown[1]
    keys = [z["key"] for z in shown[0] if z["name"] == "under"]
    assert keys == ["Opal", "a face-down red card"]


def _reachable(*roots, besides=()):
    """Every object reachable from `roots` through their references, but for classes, modules
    and code (which reach anything in the program: no agent is kept from those), views (each a
    door of its own, checked in its turn) and `besides`."""
    skip = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType,
            types.MethodType, types.MethodWrapperType, types.WrapperDescriptorType, PlayerView)
    seen, stack, found = {id(b) for b in besides}, list(roots), []
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, skip):
            continue
        seen.add(id(obj))
        found.append(obj)
        stack.extend(gc.get_referents(obj))
    return found


def _given(pv):
    """What an agent gets from its view without going out of its way (gc, module internals):
    every attribute and property, what every method but world() gives, and what a copy or a
    pickle of it would hold."""
    given = [render(pv), pv.log(2), pv.__reduce_ex__(2)]
    for name in dir(pv):
        try:
            value = getattr(pv, name)
        except AttributeError:
            continue
        if isinstance(value, types.MethodType) and value.__self__ is pv and name != "world":
            if any(p.default is p.empty for p in inspect.signature(value).parameters.values()):
                continue  # it needs what only the view has (a table, a zone)
            value = value()
        given.append(value)
    return given


def test_nothing_an_agent_is_given_leads_to_the_game_or_a_card(game):
    agents = view(game, 2, {1: "P1 (random)", 2: "P2 (human)"})
    given = _given(agents)
    assert any(isinstance(v, PlayerView) and v.person for v in given), "for_person() was not asked for"
    for pv in (agents, agents.for_person()):  # a person's view, which the agent may ask for, too
        given = _given(pv)
        assert any(isinstance(v, dict) and "zones" in v for v in given), "as_dict() was not asked for"
        held = [o for o in _reachable(*given)
                if isinstance(o, (Game, Table, random.Random, Card, Lambda)) or o is game.table.counters]
        assert held == []


def test_a_world_leads_nowhere_near_the_real_game(game):
    world = view(game, 2).world(5)
    real = {id(game), id(game.table), id(game.rng), id(game.table.counters), id(game.log), id(game.options),
            id(game.players)}
    assert not [o for o in _reachable(world) if id(o) in real]
    # Still a game to think in, with its own chance.
    world.apply(0)
    assert world.rng is not game.rng


def test_a_view_keeps_its_game_for_as_long_as_it_lives_and_no_longer(rules):
    pv = view(Game(rules, 2, seed=1), 2)
    with pytest.raises(AttributeError):
        pv._game  # noqa: B018 (the slot has no name to read it by)
    game = weakref.ref(view_game(pv))
    assert pv.option_count == 2 and game() is not None
    del pv
    gc.collect()  # a game holds cycles (functions bound to it)
    assert game() is None


def view_game(pv):
    """The game of a view, read as this module may: through the slot's descriptor."""
    return sys.modules["engine.game.view"]._game_of(pv)


def test_an_end_reason_naming_a_card_is_refused(tmp_path):
    path = tmp_path / "end.yaml"
    path.write_text(RULES.replace('  let last_word = choose(1, ["yes", "no"], "Done?")',
                                  '  end_game(text(c) + " wins")'), encoding="utf-8")
    game = Game(load_ruleset(path), 2, seed=1)
    with pytest.raises(EffectError, match="names a card"):
        game.apply(0)


def test_the_check_of_every_shipped_ruleset_holds_for_this_game(game, monkeypatch, capsys):
    """The non-interference check (test_noninterference.py) on this game, which holds a hidden
    card in counters, texts, a prompt and options: it would have caught those gaps too."""
    check_seat(game, 2, card(game, "Ruby"), card(game, "Topaz"), monkeypatch, capsys)


# A hand held facing away (visibility `others`): its holder sees it as nobody's, and must learn
# nothing of it through anything they are given; the only way in is a rule that shows it.
FACING_AWAY = RULES.replace("hand: {per: player, visibility: owner}", "hand: {per: player, visibility: others}") \
    .replace("""  let guess = choose(2,""", """  let play = choose(1, hand[1], "Play one (not ", last(hand[1]), ")")
  move(play, shown)
  log(1, " plays ", play)
  let hinted = choose(2, ["hint", "peek"], "Tell P1 of ", first(hand[1]), "?")
  if hinted == "hint":
      log(2, " tells 1: your card 1 is ", first(hand[1]).colour)
  else:
      reveal(first(hand[1]), 1)
  let guess = choose(2,""")


@pytest.fixture
def facing_away(tmp_path):
    path = tmp_path / "facing_away.yaml"
    path.write_text(FACING_AWAY, encoding="utf-8")
    return Game(load_ruleset(path), 2, seed=1)


def test_a_hand_facing_away_is_dealt_as_the_tests_expect(facing_away):
    game = facing_away
    assert [c.label for c in game.table.cards_in(zone(game, "hand", 1))] == ["Ruby", "Garnet"]
    assert not game.table.can_see(card(game, "Ruby"), 1) and game.table.can_see(card(game, "Ruby"), 2)
    assert game.pending.player == 1 and view(game, 1).decision["options"] == ["your card 1 (red)", "your card 2 (red)"]


def told_all(game: Game, seat: int, saved: bool = True) -> dict[str, str]:
    """All `seat` is given: its view as an agent and as a person, the screen, the errors of bad
    moves, why each card label of the game is not an option, and (`saved`) its view of the game
    saved and loaded again."""
    pv = view(game, seat)
    shown = {"view": json.dumps(pv.as_dict(), sort_keys=True), "person": json.dumps(pv.for_person().as_dict()),
             "screen": render(pv.for_person(), log_lines=100),
             "options": json.dumps([pv.option_cards(), pv.option_count])}
    for c in game.table.cards:
        shown[f"why {c.label}"] = "\n".join(pv.why(c.label))
    for move in (99, -1, "x"):
        try:
            game.clone().apply(move)  # type: ignore[arg-type]
        except Exception as exc:  # noqa: BLE001 -- what is told is compared, whatever it is
            shown[f"error {move!r}"] = f"{type(exc).__name__}: {exc}"
    if saved:
        restored = Game.from_snapshot(game.rules, json.loads(json.dumps(game.snapshot())))
        shown["restored"] = json.dumps(view(restored, seat).as_dict(), sort_keys=True)
        assert shown["restored"] == shown["view"]
    return shown


def exchanged(game: Game, a: str, b: str) -> Game:
    """The game as it would be had `a` and `b` (cards P1 cannot see) been dealt into each other's
    places: read so everywhere (table, options, counters, texts, the log as P1 was told it)."""
    ca, cb = card(game, a), card(game, b)
    return game.dealt(1, {ca: cb, cb: ca} if a != b else {}, random.Random(0), 0)


@pytest.mark.parametrize("a, b", [("Ruby", "Garnet"), ("Ruby", "Topaz"), ("Garnet", "Topaz")])
def test_your_own_hand_facing_away_tells_you_nothing_of_itself(facing_away, a, b):
    """Had a card of P1's own hand been dealt where another of it is, or one in the bag, nothing
    P1 is given would change: the view, options (by place), counters, log, errors, why."""
    game = facing_away
    told_all(game, 1)  # a save tells P1 what the game does
    same, other = exchanged(game, a, a), exchanged(game, a, b)
    assert other.digest() != same.digest(), "the exchange changed nothing: the test could not fail"
    assert told_all(other, 1, saved=False) == told_all(same, 1, saved=False)
    assert view(other, 2).zones() != view(same, 2).zones(), "P2 sees P1's hand: the test could tell"
    for seed in (1, 2, 3):
        assert view(view(game, 1).world(seed), 1).as_dict() == view(game, 1).as_dict()


def test_after_a_play_and_a_hint_only_what_the_rules_told_is_known(facing_away):
    game = facing_away
    game.apply(0)  # P1 plays Ruby, face up to everyone now
    assert view(game, 1).log()[-1] == "1 plays Ruby"
    before = told_all(game, 1)
    game.apply(0)  # P2 hints the colour of P1's card 1 (Garnet, red)
    assert view(game, 1).log()[-1] == "2 tells 1: your card 1 is red"
    assert "Garnet" not in json.dumps(list(told_all(game, 1).values())) and before != told_all(game, 1)
    # A red card in the bag in Garnet's place: the hint is true of it, and P1 cannot tell.
    assert told_all(exchanged(game, "Garnet", "Topaz"), 1, False) == told_all(exchanged(game, "Garnet", "Garnet"), 1, False)


def test_a_card_the_rules_show_you_is_yours_to_see(facing_away):
    game = facing_away
    game.apply(0)
    game.apply(1)  # P2 peeks for P1: Garnet is shown to P1
    assert "Garnet" in render(view(game, 1).for_person())
    assert [c.get("label") for z in view(game, 1).zones() if z["name"] == "hand" and z["mine"] for c in z["cards"]] \
        == ["Garnet"]


# ---------------------------------------------------------------- simultaneous steps, hidden counters

PICNIC = Path(__file__).resolve().parent.parent / "examples" / "picnic" / "picnic.yaml"


def test_nothing_a_seat_of_an_open_step_is_given_leads_to_the_game_or_tells_another_answer():
    picnic = load_ruleset(PICNIC)
    game = Game(picnic, 3, seed=2, decisions=[2, 0, 1])  # favourites: fruit, bread, cheese
    game.apply(3)                                           # P1 keeps a dish; P2 and P3 have yet to
    for seat in (2, 3):
        for pv in (view(game, seat), view(game, seat).for_person()):
            given = _given(pv)
            held = [o for o in _reachable(*given) if isinstance(o, (Game, Table, random.Random, Card, Lambda))]
            assert held == []
            assert list(pv.counters()["favourite"]) == [f"P{seat}"]  # P1's favourite (fruit): theirs alone
            told = pv.log() + [pv.decision["prompt"]] + pv.decision["options"]
            assert not any("fruit" in line.replace("fruit ", "") for line in told)  # but as a dish's label
            assert pv.decision["waiting"] == ["P2", "P3"] and "options" in pv.decision
    mine = view(game, 1).as_dict()
    assert mine["counters"]["favourite"] == {"P1": "fruit"} and "options" not in mine["decision"]


# P2 puts 0 to 3 coins in a purse only P2 sees, asked in secret (a simultaneous step of one
# player: its answer is nobody else's, not even in the bots' worlds); then P1 decides.
PURSES = """\
game: {name: Purses, players: [2]}
card_kinds:
  coin: {zone: bank}
cards:
  - {kind: coin}
zones:
  bank: {}
counters:
  purse: {per: player, visibility: owner, initial: 0}
setup: |
  purse[1] = 3
flow: |
  let put = choose_amount_each([2], 0, 3, "Put how many coins in your purse?")
  purse[2] += put[2]
  log("P2 has filled their purse")
  let x = choose(1, ["save", "spend"], "Your purse: ", purse[1])
scoring:
  score: purse[player]
"""


def test_a_hidden_counter_is_in_its_owners_view_observation_and_worlds_only(tmp_path):
    pytest.importorskip("numpy")
    from engine.adapters.observation import Observation
    from engine.game import belief
    path = tmp_path / "purses.yaml"
    path.write_text(PURSES, encoding="utf-8")
    purses = load_ruleset(path)
    games = [Game(purses, 2, seed=1, decisions=[a]) for a in (1, 3)]
    assert [g.table.counters["purse"][2] for g in games] == [1, 3] and games[0].pending.player == 1
    encoding = Observation(purses, 2)
    for game in games:
        assert view(game, 1).counters() == {"purse": {"P1": 3}}
        assert view(game, 2).counters()["purse"] == {"P2": game.table.counters["purse"][2]}
        assert view(game, None).counters()["purse"] == {"P1": 3, "P2": game.table.counters["purse"][2]}
    vectors = [list(encoding.encode(view(g, 1))) for g in games]
    assert vectors[0] == vectors[1] and vectors[0][encoding.names.index("purse P1")] == 3
    assert render(view(games[0], 1, person=True)) == render(view(games[1], 1, person=True))
    dealt = []
    for game in games:
        belief.forget()
        dealt.append([view(game, 1).world(s).table.counters["purse"] for s in range(8)])
    assert dealt[0] == dealt[1]  # the worlds of P1 do not depend on what P2 put in
    assert len({purse[2] for purse in dealt[0]}) > 1 and all(purse[1] == 3 for purse in dealt[0])
    world = games[1].determinize(1, 5)
    assert world.table.counters["purse"] == {1: 3, 2: 0}  # no replay: the initial value


def test_a_counter_seen_by_its_owner_needs_one_value_a_player(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(PURSES.replace("purse: {per: player, visibility: owner", "purse: {visibility: owner"),
                    encoding="utf-8")
    with pytest.raises(RulesetError, match="visibility 'owner' needs 'per: player'"):
        load_ruleset(path)

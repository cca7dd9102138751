"""The game state as data: clone, snapshot and restore, determinize, state keys, and the
restore of a failed move from a checkpoint.

A small ruleset (Gems) waits in every way a ruleset can: inside loops, procedures that return
values, a trigger that asks a player, a function value and a list shared between a local and a
counter, face-down and remembered cards, cards under cards. The generic checks over the shipped
rulesets are in test_conformance.py.
"""
from __future__ import annotations

import json
import random

import pytest

from engine import Game, SaveError, load_ruleset, view
from engine.core.errors import EffectError, IllegalMove
from engine.core.values import Lambda
from engine.game.view import log_line

GEMS = """\
game:
  name: Gems
  players: [2, 3]
card_kinds:
  gem:
    zone: bag
    label: "{name}"
    back: [colour]
    properties: {colour: string, value: integer}
    triggers:
      - on: kept
        params: [p, c]
        if: c == card and card.colour == "red"
        do: |
          let bonus = choose(p, [1, 2], "Red bonus")
          points[p] += bonus
cards:
  - {kind: gem, name: Ruby, colour: red, value: 5}
  - {kind: gem, name: Garnet, colour: red, value: 3}
  - {kind: gem, name: Sapphire, colour: blue, value: 4}
  - {kind: gem, name: Lapis, colour: blue, value: 2}
  - {kind: gem, name: Emerald, colour: green, value: 6}
  - {kind: gem, name: Jade, colour: green, value: 1}
  - {kind: gem, name: Opal, colour: white, value: 7}
  - {kind: gem, name: Pearl, colour: white, value: 2}
  - {kind: gem, name: Topaz, colour: red, value: 4}
  - {kind: gem, name: Beryl, colour: blue, value: 3}
zones:
  bag: {visibility: hidden}
  hand: {per: player, visibility: owner}
  vault: {per: player}
  under: {per: card, visibility: hidden}
counters:
  points: {per: player, initial: 0}
  tally: {initial: []}
  marked: {per: card, initial: 0}
procedures:
  vault_value:
    params: [p]
    do: |
      return sum([c.value for c in vault[p]])
  keep:
    params: [p]
    do: |
      let c = choose(p, hand[p], "Keep a gem")
      move(c, vault[p])
      emit("kept", p, c)
      return c.value
  turn:
    params: [p]
    do: |
      let worth = x -> x * 2 + points[p]
      let seen = [0, 0]
      tally = seen
      for i in range(0, 2):
          if count(hand[p]) == 0:
              break
          let v = keep(p)
          seen[i] = v
          points[p] += worth(v)
      if count(bag) > 0 and count(vault[p]) > 0:
          let top = first(bag)
          let hide = choose(p, ["hide", "show"], "Hide the next gem under your last one?")
          if hide == "hide":
              move(top, under[last(vault[p])])
              turn_face_down(top)
              reveal(top, p)
              marked[top] = 1
          else:
              move(top, vault[p])
setup: |
  shuffle(bag)
  for p in players:
      deal(bag, hand[p], 2)
flow: |
  let rounds = 0
  while rounds < 3:
      rounds += 1
      for p in players:
          if count(hand[p]) == 0 and count(bag) > 0:
              deal(bag, hand[p], 1)
          turn(p)
scoring:
  score: points[player] + sum([c.value for c in vault[player]])
"""

# A long run of decisions in which "boom" fails: the failure comes after several checkpoints.
LONG = """\
game:
  name: Long
  players: [2]
zones:
  table: {}
counters:
  done: {initial: 0}
flow: |
  repeat 100:
      let x = choose(1 + done % 2, ["ok", "boom"], "Go")
      if x == "boom":
          done = 1 // 0
      done += 1
scoring:
  score: done
"""


@pytest.fixture(scope="module")
def gems(tmp_path_factory):
    path = tmp_path_factory.mktemp("gems") / "gems.yaml"
    path.write_text(GEMS, encoding="utf-8")
    return load_ruleset(path)


def play_randomly(game: Game, rng: random.Random, stop_at: int | None = None) -> list[int]:
    """Random decisions until the game ends (or has `stop_at` decisions); returns them."""
    taken = []
    while not game.over and (stop_at is None or len(game.decisions) < stop_at):
        choice = rng.randrange(len(game.legal_actions()))
        game.apply(choice)
        taken.append(choice)
    return taken


def observed(game: Game) -> dict:
    """Everything a test can observe of a game, as plain values."""
    return {"digest": game.digest(), "decisions": list(game.decisions), "over": game.over,
            "end_reason": game.end_reason,
            "log": [log_line(e, None) for e in game.log], "view": view(game, None).as_dict(),
            "scores": game.scores() if game.over else None}


def gem_games(gems, count=6):
    for players in gems.players:
        for seed in range(count):
            yield Game(gems, players, seed=seed), random.Random(seed)


def test_the_gems_game_waits_in_every_way(gems):
    """The fixture really reaches a trigger's choice, a face-down card and a card under a card."""
    prompts, hidden_under = set(), False
    for game, rng in gem_games(gems):
        while not game.over:
            prompts.add(game.pending.prompt[0])
            hidden_under |= any(game.table.cards_in(z) for z in game.table.zones["under"].values())
            game.apply(rng.randrange(len(game.legal_actions())))
    assert prompts == {"Keep a gem", "Red bonus", "Hide the next gem under your last one?"}
    assert hidden_under


def test_clone_is_independent_and_faithful(gems):
    for game, rng in gem_games(gems):
        play_randomly(game, rng, stop_at=rng.randrange(1, 8))
        before = observed(game)
        copy = game.clone()
        assert observed(copy) == before
        taken = play_randomly(copy, random.Random(99))
        assert copy.over
        assert observed(game) == before, "playing a clone changed the original"
        for choice in taken:
            game.apply(choice)
        assert observed(game) == observed(copy), "the original, given the clone's decisions, ends as the clone"


def test_each_counter_on_display_shows_its_own_values(tmp_path):
    """Two tables of counters in a row, then a per-card one: once, the view showed the first
    table's values for the second (its copier's memo, by id(), met a freed temporary)."""
    path = tmp_path / "counters.yaml"
    path.write_text(
        "game: {name: Counters, players: [2]}\n"
        "card_kinds: {token: {zone: pile, label: '{name}'}}\n"
        "cards: [{kind: token, name: Acorn}, {kind: token, name: Bell}]\n"
        "zones: {pile: {}}\n"
        "counters:\n"
        "  gold: {per: player, initial: 0}\n"
        "  silver: {per: player, initial: 0}\n"
        "  marks: {per: card, initial: 0}\n"
        "setup: |\n  gold[1] = 5\n  silver[2] = 7\n  marks[first(pile)] = 2\n"
        "flow: |\n  let c = choose(1, [1, 2], 'Pick')\n"
        "scoring: {score: 'gold[player]'}\n", encoding="utf-8")
    game = Game(load_ruleset(path), 2, seed=1)
    for _ in range(3):
        assert view(game, None).as_dict()["counters"] == {
            "gold": {"P1": 5, "P2": 0}, "silver": {"P1": 0, "P2": 7}, "marks": {"Acorn": 2}}


def test_snapshot_through_json_text_goes_on_exactly(gems):
    for game, rng in gem_games(gems):
        while not game.over:
            restored = Game.from_snapshot(gems, json.loads(json.dumps(game.snapshot())))
            assert observed(restored) == observed(game)
            assert restored.state_key() == game.state_key()
            assert restored.rng.getstate() == game.rng.getstate()
            game.apply(rng.randrange(len(game.legal_actions())))
        assert game.over


def test_restored_games_play_on_like_the_original(gems):
    for game, rng in gem_games(gems):
        play_randomly(game, rng, stop_at=rng.randrange(1, 10))
        restored = Game.from_snapshot(gems, json.loads(json.dumps(game.snapshot())))
        taken = play_randomly(game, random.Random(5))
        for choice in taken:
            restored.apply(choice)
        assert observed(restored) == observed(game)


def _frame(game: Game, code: str):
    return next(f for f in game.frames if f.code.id == code)


def test_a_restored_game_keeps_shared_lists_and_function_values(gems):
    game = Game(gems, 2, seed=3)
    assert game.pending.prompt[0] == "Keep a gem"  # inside keep(), called from turn()'s loop
    for copy in (game.clone(), Game.from_snapshot(gems, json.loads(json.dumps(game.snapshot())))):
        env = _frame(copy, "procedures.turn.do").env
        assert copy.table.counters["tally"] is env["seen"], "the local and the counter share one list"
        assert env["seen"] is not _frame(game, "procedures.turn.do").env["seen"]
        worth = env["worth"]
        assert isinstance(worth, Lambda) and worth.g is copy and worth.env is env
        env["seen"][0] = 42
        assert copy.table.counters["tally"] == [42, 0]
    assert game.table.counters["tally"] == [0, 0]
    later = Game(gems, 2, seed=3)
    later.apply(0)
    later.restore(game)
    assert _frame(later, "procedures.turn.do").env["worth"].g is later, "function values follow a restore"


def test_from_snapshot_refuses_another_ruleset(gems, tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text(GEMS.replace("value: 7", "value: 8"), encoding="utf-8")
    snapshot = Game(gems, 2, seed=1).snapshot()
    with pytest.raises(SaveError, match="differs"):
        Game.from_snapshot(load_ruleset(other), snapshot)


DAMAGE = {
    "format": lambda d: d.__setitem__("format", "other/1"),
    "players": lambda d: d.__setitem__("players", 9),
    "card-twice": lambda d: d["table"]["zones"][0].append(d["table"]["zones"][0][0] if d["table"]["zones"][0]
                                                          else 1),
    "card-unknown": lambda d: d["table"]["zones"][0].append(999),
    "zones-missing": lambda d: d["table"].__setitem__("zones", []),
    "code-unknown": lambda d: d["program"][-1].__setitem__("code", "procedures.nosuch.do"),
    "pc-out-of-range": lambda d: d["program"][-1].__setitem__("pc", 10_000),
    "value-tag": lambda d: d["program"][-1]["locals"].__setitem__("x", {"$nosuch": 1}),
    "card-value": lambda d: d["program"][-1]["locals"].__setitem__("x", {"$card": 0}),
    "rng": lambda d: d.__setitem__("rng", [3, [1, 2], None]),
    "no-table": lambda d: d.pop("table"),
    "pending-player": lambda d: d["pending"].__setitem__("player", 7),
    "option-unknown": lambda d: d["options"].__setitem__("nosuch", 1),
    "seed": lambda d: d.__setitem__("seed", "one"),
    "end-reason": lambda d: d.__setitem__("end_reason", 3),
}


@pytest.mark.parametrize("name", list(DAMAGE))
def test_damaged_snapshots_are_refused_clearly(gems, name):
    data = json.loads(json.dumps(Game(gems, 2, seed=1).snapshot()))
    DAMAGE[name](data)
    with pytest.raises(SaveError) as info:
        Game.from_snapshot(gems, data)
    assert "Traceback" not in str(info.value) and str(info.value)


def test_the_end_reason_is_state_and_old_snapshots_without_it_load(gems):
    """A finished game's end reason survives a clone, a restore and a snapshot through JSON
    text. A snapshot made before games had end reasons has no end_reason: a finished game
    loads with None, a running one ends with its reason as usual."""
    game = Game(gems, 2, seed=1)
    running = json.loads(json.dumps(game.snapshot()))
    assert running["end_reason"] is None
    play_randomly(game, random.Random(1))
    data = json.loads(json.dumps(game.snapshot()))
    assert game.over and game.end_reason == data["end_reason"] == "flow ended"
    assert game.clone().end_reason == Game.from_snapshot(gems, data).end_reason == "flow ended"
    again = Game(gems, 2, seed=1)
    again.restore(game)
    assert again.end_reason == "flow ended"
    del data["end_reason"]
    old = Game.from_snapshot(gems, data)
    assert old.over and old.end_reason is None and old.scores() == game.scores()
    del running["end_reason"]
    old = Game.from_snapshot(gems, running)
    assert old.end_reason is None
    play_randomly(old, random.Random(1))
    assert old.over and old.end_reason == "flow ended" and old.digest() == game.digest()


def test_determinize_keeps_the_players_view_and_deals_the_rest_again(gems):
    varied = 0
    for game, rng in gem_games(gems, count=4):
        while not game.over:
            me = game.current_player
            mine = view(game, me).as_dict()
            worlds = [game.determinize(me, s) for s in range(6)]
            for world in worlds:
                assert view(world, me).as_dict() == mine
                assert world.pending.player == me and len(world.legal_actions()) == len(game.legal_actions())
            varied += len({w.digest() for w in worlds}) > 1
            game.apply(rng.randrange(len(game.legal_actions())))
    assert varied > 10, "determinize never dealt the hidden cards differently"


def test_determinized_worlds_play_to_the_end(gems):
    for game, rng in gem_games(gems, count=3):
        play_randomly(game, rng, stop_at=4)
        if game.over:
            continue
        world = game.determinize(game.current_player, 11)
        before = observed(game)
        play_randomly(world, random.Random(1))
        assert world.over and observed(game) == before


def test_determinize_moves_only_cards_the_player_cannot_see(gems):
    game = Game(gems, 3, seed=4)
    me = game.current_player
    world = game.determinize(me, 2)
    for card in game.table.cards:
        if game.table.can_see(card, me):
            assert world.table.zone_of(card) is game.table.zone_of(card)
    # Each hidden card lands where a card of its colour was (its back is all anyone sees).
    for zone in game.table.all_zones():
        backs = sorted(c.props["colour"] for c in game.table.cards_in(zone) if not game.table.can_see(c, me))
        assert sorted(c.props["colour"] for c in world.table.cards_in(zone)
                      if not game.table.can_see(c, me)) == backs


def test_determinize_draws_new_randomness_from_its_seed(gems):
    game = Game(gems, 2, seed=4)
    a, b = game.determinize(1, 5), game.determinize(1, 5)
    assert a.digest() == b.digest() and a.rng.getstate() == b.rng.getstate()
    assert a.rng.getstate() != game.rng.getstate()
    with pytest.raises(IllegalMove):
        game.determinize(3, 1)


def test_state_key(gems):
    game = Game(gems, 2, seed=6)
    assert game.clone().state_key() == game.state_key()
    key = game.state_key()
    game.apply(0)
    assert game.state_key() != key


def test_restore_takes_a_game_back(gems):
    game = Game(gems, 2, seed=2)
    earlier = game.clone()
    before = observed(game)
    play_randomly(game, random.Random(3), stop_at=5)
    game.restore(earlier)
    assert observed(game) == before
    with pytest.raises(IllegalMove):
        game.restore(Game(gems, 3, seed=2))


def test_a_failed_move_late_in_a_game_is_undone_from_a_checkpoint(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text(LONG, encoding="utf-8")
    game = Game(load_ruleset(path), 2, seed=1)
    for _ in range(70):
        game.apply(0)
    before = {**observed(game), "rng": game.rng.getstate(), "snapshot": game.snapshot()}
    for _ in range(2):
        with pytest.raises(EffectError, match="division by zero"):
            game.apply(1)
        assert {**observed(game), "rng": game.rng.getstate(), "snapshot": game.snapshot()} == before
    while not game.over:
        game.apply(0)
    assert game.scores()[1] == 100


def test_run_procedure_from_python(gems):
    game = Game(gems, 2, seed=3)
    vault = game.table.zones["vault"][game.players[1]]
    game.table.move(game.table.cards_in(game.table.zones["bag"])[0], vault)
    before = observed(game)
    assert game.run_procedure("vault_value", [game.players[1]]) == game.table.cards_in(vault)[0].props["value"]
    assert len(game.table.cards_in(game.table.zones["hand"][game.players[1]])) == 2
    with pytest.raises(EffectError, match="asked a player"):
        game.run_procedure("keep", [game.players[1]])
    assert observed(game) == before and game.pending.prompt[0] == "Keep a gem"


def test_every_kind_of_value_survives_json_with_its_sharing(gems):
    game = Game(gems, 2, seed=3)
    env = game.frames[-1].env
    cards = list(game.table.cards[:3])  # (places, on boards, go through JSON in the Railways conformance runs)
    shared = list(cards)
    by_card = {cards[0]: shared, cards[1]: [1, 2]}
    env.update({
        "shared": shared, "by_card": by_card, "by_player": {game.players[0]: shared, game.players[1]: 0},
        "plain": {"a": by_card, "b": None}, "odd_keys": {"$x": 1, 2: "two"}, "floats": [float("inf"), 1.5],
        "tuple": (cards[2], "t"), "zone": game.table.zones["vault"][game.players[0]], "empty": [],
        "nested": [[cards[0]], [shared]],
    })
    restored = Game.from_snapshot(gems, json.loads(json.dumps(game.snapshot())))
    again = restored.frames[-1].env
    for name in ("shared", "by_card", "by_player", "plain", "odd_keys", "floats", "tuple", "zone", "empty",
                 "nested"):
        assert again[name] == env[name], name
    assert again["by_card"][cards[0]] is again["shared"] is again["by_player"][game.players[0]]
    assert again["plain"]["a"] is again["by_card"] and again["nested"][1][0] is again["shared"]
    again["shared"].append(cards[2])
    assert again["by_card"][cards[0]][-1] is cards[2] and len(shared) == 3


# ---------------------------------------------------------------- counters no rule changes after setup

FIXED = """\
game: {name: Fixed, players: [2]}
cards:
  - {kind: chip, name: A}
  - {kind: chip, name: B}
card_kinds:
  chip: {zone: pile, label: "{name}", properties: {}}
zones:
  pile: {visibility: hidden}
counters:
  paths: {per: player, initial: [], description: "written by setup alone"}
  costs: {initial: [], description: "written by a procedure setup calls, and nothing else"}
  steps: {initial: 0, description: "written by a procedure setup and the flow call"}
  seen: {initial: [], description: "a list holding a chip, written by setup alone"}
  alias: {initial: [], description: "set by setup to a list the flow's counter holds too"}
  moving: {initial: []}
  turns: {initial: 0}
procedures:
  price: {do: "costs = [[1, 2], [3]]"}
  step: {do: "steps += 1"}
setup: |
  for p in players:
      paths[p] = [[p, 1], [p, 2]]
  price()
  step()
  seen = [first(pile)]
  moving = [[7]]
  alias = moving[0]
  let start = choose(1, [1, 2], "Start?")
flow: |
  while turns < 3:
      let pick = choose(1, [r for r in paths[1]], "Path?")
      turns += 1
      step()
      moving = moving + [pick]
scoring:
  score: turns
"""


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    path = tmp_path_factory.mktemp("fixed") / "fixed.yaml"
    path.write_text(FIXED, encoding="utf-8")
    return load_ruleset(path)


def test_the_counters_no_rule_changes_after_setup_are_found(fixed, tmp_path):
    # steps: a procedure the flow calls too; moving, turns: the flow writes them.
    assert fixed.fixed_counters == {"paths", "costs", "seen", "alias"}
    # A trigger may run at any time, so what it writes is not fixed.
    path = tmp_path / "trigger.yaml"
    path.write_text(FIXED.replace("procedures:", "triggers:\n  - {on: chosen, do: 'costs = []'}\nprocedures:")
                    .replace("      turns += 1", "      turns += 1\n      emit(\"chosen\")"), encoding="utf-8")
    assert "costs" not in load_ruleset(path).fixed_counters
    # An entry of a local assigned after setup may be a counter's list: then none is proved fixed.
    path.write_text(FIXED.replace("      moving = moving + [pick]", "      let r = paths[1]\n      r[0] = pick"),
                    encoding="utf-8")
    assert load_ruleset(path).fixed_counters == frozenset()


def held(value) -> list:
    """The lists and tables in a value, itself first."""
    found, stack = [], [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, dict)):
            found.append(v)
            stack.extend(v.values() if isinstance(v, dict) else v)
    return found


def test_copies_past_setup_share_what_no_rule_changes_and_copy_the_rest(fixed):
    game = Game(fixed, 2, seed=1)
    assert game.table.shared == {}  # still in setup, at its question: copies copy everything
    during = game.clone()
    assert during.table.counters["paths"] is not game.table.counters["paths"]
    game.apply(0)  # setup is over
    restored = Game.from_snapshot(fixed, game.snapshot())
    for source, copy in ((game, game.clone()), (game, game.determinize(1, 5)), (restored, restored.clone())):
        counters, theirs = source.table.counters, copy.table.counters
        for name in ("paths", "costs"):
            assert [id(c) for c in held(theirs[name])] == [id(c) for c in held(counters[name])]
        # A list holding a card is relabelled by determinize; one another counter holds too changes with it.
        for name in ("seen", "alias", "moving"):
            assert theirs[name] is not counters[name] and theirs[name] == counters[name]
    # The flow's locals share the lists of the counters in a copy as they do in the game.
    game.apply(1)
    clone = game.clone()
    assert json.dumps(clone.snapshot()) == json.dumps(game.snapshot())
    play_randomly(clone, random.Random(3))
    assert game.table.counters["moving"] != clone.table.counters["moving"]  # the copies go their own ways


def test_a_world_without_its_log_is_the_same_table(gems):
    """Search bots ask for worlds without the past log (`PlayerView.world(seed, log=False)`),
    which they never read: the rest is the world they would get with it."""
    for game, rng in gem_games(gems, 3):
        play_randomly(game, rng, stop_at=12)
        if game.over:
            continue
        me = game.current_player
        full, bare = view(game, me).world(4), view(game, me).world(4, log=False)
        assert bare.log == [] and bare.forced == [] and full.log
        assert bare.digest() == full.digest() and bare.state_key() == full.state_key()
        assert view(bare, me).decision == view(full, me).decision


def test_a_card_dealt_into_a_place_takes_over_its_counters(gems):
    """`marked` is a counter per card; gems hidden under others are marked. In a world, the card
    dealt into a place holds what the card that was there held, and tables by card keep their
    order, whether the cards dealt again held the same (the usual case, copied as it is) or not."""
    differing = 0
    for game, rng in gem_games(gems, 6):
        while not game.over:
            play_randomly(game, rng, stop_at=len(game.decisions) + 1)
            if game.over:
                break
            for me in game.players:
                world = game.determinize(me, 3)
                was, now = game.table.counters["marked"], world.table.counters["marked"]
                assert list(now) == list(was)
                for zone in game.table.all_zones():
                    for a, b in zip(game.table.cards_in(zone), world.table.cards_in(zone), strict=True):
                        assert now[b] == was[a]
                        differing += a is not b and was[a] != was[b]
    assert differing, "no marked card was dealt again among unmarked ones: the test could not fail"

"""Generic checks run over every ruleset in rulesets/ at every supported player count.

Random games (with the options of conftest.RANDOM_PLAY, which a ruleset may need for random
players to finish) must reach the end without error and say why they ended; every card is in
exactly one zone after every decision; every decision offers at least one option; saving then
replaying reproduces the game.
The state is data: a clone is independent, a snapshot restored from JSON text goes on exactly as
the original, a determinized world looks the same to its player, and undo at the terminal puts
the game back exactly or changes nothing.
"""
from __future__ import annotations

import json
import random
import re

import pytest

from engine.analysis.run import game_seed
from engine.core.table import Card
from engine.game.game import Game
from engine.game.saves import replay, write_save
from engine.game.view import view
from engine.players.agents import make_agents
from engine.players.loop import play
from engine.players.undo import TakeBack, UndoHistory
from engine.rules.ruleset import load_ruleset

from conftest import ROOT, RULESETS, random_play_options

GAMES_PER_COUNT = 6

CASES = [(path, n) for path in RULESETS for n in load_ruleset(path).players]


def check_cards(game: Game) -> None:
    """Every card is in exactly one zone, and the zone it names is the zone holding it."""
    seen: dict[int, str] = {}
    for zone in game.table.all_zones():
        for card in game.table.cards_in(zone):
            where = game.table.zone_of(card)
            assert card.id not in seen, f"{card.label} is in {seen[card.id]} and in {zone.label}"
            assert where is zone, f"{card.label} thinks it is in {where.label}, not {zone.label}"
            seen[card.id] = zone.label
    assert len(seen) == len(game.table.cards), "a card was lost or created"


def check_decision(game: Game) -> None:
    if not game.over:
        assert game.pending is not None
        assert len(game.legal_actions()) >= 1
        assert 1 <= game.pending.player <= len(game.players)


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_random_games_end_cleanly(path, players):
    rs = load_ruleset(path)
    option_sets = [random_play_options(rs, players)]
    for name, spec in rs.options.items():
        if isinstance(spec.default, bool) and (not spec.players or players in spec.players):
            option_sets.append(random_play_options(rs, players, {name: str(not spec.default)}))
    for options in option_sets:
        for i in range(GAMES_PER_COUNT):
            seed = game_seed(players, i)
            game = Game(rs, players, options, seed)
            check_cards(game)
            check_decision(game)

            def after(g: Game) -> None:
                check_cards(g)
                check_decision(g)
            play(game, make_agents(["random"] * players, seed), after_each=after)
            assert game.over and isinstance(game.end_reason, str) and game.end_reason.strip()
            scores = game.scores()
            assert set(scores) == set(game.players)
            assert game.winners(), "a finished game has at least one winner"


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_save_then_replay_reproduces(path, players, tmp_path):
    rs = load_ruleset(path)
    seed = game_seed(players, 99)
    game = Game(rs, players, random_play_options(rs, players), seed)
    play(game, make_agents(["random"] * players, seed))
    save = tmp_path / "game.json"
    write_save(game, save)
    again, data, warnings = replay(save)
    assert warnings == []
    assert again.over
    assert again.digest() == game.digest() == data["result"]["digest"]
    assert again.end_reason == game.end_reason == data["result"]["end_reason"]
    assert again.scores() == game.scores()
    assert json.loads(save.read_text())["decisions"] == game.decisions


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_same_seed_same_decisions_same_game(path):
    rs = load_ruleset(path)
    n = rs.players[-1]
    first = Game(rs, n, random_play_options(rs, n), 1234)
    play(first, make_agents(["random"] * n, 1234))
    second = Game(rs, n, random_play_options(rs, n), 1234, decisions=first.decisions)
    assert second.over
    assert second.digest() == first.digest()
    assert second.scores() == first.scores()
    other = Game(rs, n, random_play_options(rs, n), 1235)
    assert other.digest() != Game(rs, n, random_play_options(rs, n), 1234).digest(), \
        "a different seed should deal a different game"


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_views_leak_nothing(path, players):
    """At every decision, a player's view (zones, counters, decision, and each log line as it
    is shown to them) never names a card that player has not been allowed to see. A card counts
    as seen once it was visible to them at a decision or when a log line named it."""
    from engine.game.view import log_line, view

    rs = load_ruleset(path)
    for i in range(2):
        seed = game_seed(players, 500 + i)
        game = Game(rs, players, random_play_options(rs, players), seed)
        seen: dict[int, set[int]] = {p: set() for p in game.players}
        agents = make_agents(["random"] * players, seed)
        logged = 0
        hidden_checks = 0
        while not game.over:
            new_entries = game.log[logged:]
            logged = len(game.log)
            for p in game.players:
                seen[p].update(c.id for c in game.table.cards if game.table.can_see(c, p))
                for entry in new_entries:
                    seen[p].update(v.id for v, who in entry.parts
                                   if isinstance(v, Card) and (who is None or p in who))
                seen_labels = {c.label for c in game.table.cards if c.id in seen[p]}
                unseen = {c.label for c in game.table.cards
                          if c.id not in seen[p] and c.label not in seen_labels}
                if not unseen:
                    continue
                hidden_checks += len(unseen)
                pattern = re.compile(r"(?<![\w&])(" + "|".join(map(re.escape, sorted(unseen, key=len,
                                                                                       reverse=True)))
                                     + r")(?![\w&])")
                shown = view(game, p).as_dict(log_last=0)
                text = json.dumps(shown, ensure_ascii=False) + "\n".join(log_line(e, p, table=game.table)
                                                                      for e in new_entries)
                found = pattern.search(text)
                assert not found, f"{p} can read {found.group(0)} in their view"
            decider = game.pending.player
            game.apply(agents[decider - 1].choose(view(game, decider)))
        assert hidden_checks > 0, "the game hid nothing to check"


# ------------------------------------------------------------------ the state as data


def play_randomly(game: Game, rng: random.Random, stop_at: int | None = None) -> list[int]:
    taken = []
    while not game.over and (stop_at is None or len(game.decisions) < stop_at):
        taken.append(rng.randrange(len(game.legal_actions())))
        game.apply(taken[-1])
    return taken


def state_text(game: Game) -> str:
    return json.dumps(game.snapshot(), sort_keys=True)


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_clone_is_independent(path, players):
    """Playing a clone to the end changes nothing in the original; the original, given the
    clone's decisions, ends exactly as the clone did."""
    rs = load_ruleset(path)
    for i in range(2):
        seed = game_seed(players, 300 + i)
        rng = random.Random(seed)
        game = Game(rs, players, random_play_options(rs, players), seed)
        play_randomly(game, rng, stop_at=rng.randrange(0, 80))
        before = (game.digest(), state_text(game))
        copy = game.clone()
        taken = play_randomly(copy, rng)
        assert copy.over
        assert (game.digest(), state_text(game)) == before, "playing a clone changed the original"
        for choice in taken:
            game.apply(choice)
        assert game.digest() == copy.digest() and game.scores() == copy.scores()


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_snapshot_round_trip_through_json_text(path, players):
    """At random points, a game restored from its snapshot (as JSON text) goes on exactly as
    the original under the same decisions."""
    rs = load_ruleset(path)
    seed = game_seed(players, 400)
    rng = random.Random(seed)
    game = Game(rs, players, random_play_options(rs, players), seed)
    while not game.over:
        restored = Game.from_snapshot(rs, json.loads(json.dumps(game.snapshot())))
        assert restored.digest() == game.digest() and restored.state_key() == game.state_key()
        ahead = random.Random(len(game.decisions))
        mine, theirs = game.clone(), restored
        for _ in range(40):
            if mine.over:
                break
            choice = ahead.randrange(len(mine.legal_actions()))
            mine.apply(choice)
            theirs.apply(choice)
        assert theirs.digest() == mine.digest() and state_text(theirs) == state_text(mine)
        play_randomly(game, rng, stop_at=len(game.decisions) + rng.randrange(1, 120))
    restored = Game.from_snapshot(rs, json.loads(json.dumps(game.snapshot())))
    assert restored.over and restored.scores() == game.scores() and restored.winners() == game.winners()
    assert restored.end_reason == game.end_reason


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_determinize_keeps_the_view_and_varies_the_hidden(path, players):
    """A determinized world looks to its player exactly like the game (whole view, whole log),
    and over repeated draws the cards hidden from them do land differently."""
    rs = load_ruleset(path)
    seed = game_seed(players, 500)
    rng = random.Random(seed)
    game = Game(rs, players, random_play_options(rs, players), seed)
    points = varied = 0
    while not game.over:
        me = game.current_player
        mine = json.dumps(view(game, me).as_dict(), sort_keys=True)
        worlds = [game.determinize(me, s) for s in range(6)]
        for world in worlds:
            assert json.dumps(view(world, me).as_dict(), sort_keys=True) == mine
        hidden = any(not game.table.can_see(c, me) for c in game.table.cards)
        if hidden:
            points += 1
            varied += len({w.digest() for w in worlds}) > 1
        play_randomly(game, rng, stop_at=len(game.decisions) + rng.randrange(1, 60))
    assert points > 0 and varied > 0, "nothing hidden was ever dealt differently"
    assert varied >= points // 2


class UndoingSeat:
    """A person at seat 1 who answers at random and now and then asks for an undo; it checks,
    through the test's own hold on the game, what each undo did."""

    def __init__(self, game: Game, rng: random.Random):
        self.game, self.rng = game, rng
        self.kept: list[Game] = []  # a copy of the game at each of my decisions
        self.undone = self.refused = 0

    def choose(self, pv) -> int:
        game = self.game
        if not self.kept or len(self.kept[-1].decisions) != len(game.decisions):
            self.kept.append(game.clone())
        if len(self.kept) > 1 and self.rng.random() < 0.15:
            raise TakeBack(self.check)
        return self.rng.randrange(len(pv.decision["options"]))

    def check(self, reply: str) -> None:
        if reply.startswith("Took back"):
            self.kept.pop()
            self.undone += 1
        else:
            assert reply.startswith("Undo refused"), reply
            self.refused += 1
        assert state_text(self.game) == state_text(self.kept[-1])


@pytest.mark.parametrize("path,players", CASES, ids=[f"{p.stem}-{n}p" for p, n in CASES])
def test_undo_at_the_terminal(path, players):
    """Seat 1 takes decisions back during a whole game: each undo puts the game exactly where
    that seat decided before, or is refused and changes nothing."""
    rs = load_ruleset(path)
    seed = game_seed(players, 600)
    game = Game(rs, players, random_play_options(rs, players), seed)
    person = UndoingSeat(game, random.Random(seed))
    play(game, [person] + make_agents(["random"] * players, seed)[1:], undo=UndoHistory({1}))
    assert game.over and person.undone + person.refused > 0


EXAMPLES = [(path, ()) for path in sorted((ROOT / "examples" / "guide").glob("*.yaml"))] + [
    (ROOT / "rulesets" / "railways.yaml", (ROOT / "examples" / "my_events.yaml", ROOT / "examples" / "my_engine_fair.yaml"))]


@pytest.mark.parametrize("path,extensions", EXAMPLES, ids=[p.stem + "".join("+" + e.stem for e in x)
                                                            for p, x in EXAMPLES])
def test_the_examples_copy_save_and_determinize(path, extensions):
    """The guide's games and the custom events: at every decision a clone, a snapshot through
    JSON text and a determinized world agree with the game as far as they should."""
    rs = load_ruleset(path, list(extensions))
    players = rs.players[0]
    seed = game_seed(players, 700)
    rng = random.Random(seed)
    game = Game(rs, players, random_play_options(rs, players), seed)
    while not game.over:
        choice = rng.randrange(len(game.legal_actions()))
        if len(game.decisions) < 30 or len(game.decisions) % 10 == 0:
            me = game.current_player
            assert state_text(game.clone()) == state_text(game)
            restored = Game.from_snapshot(rs, json.loads(json.dumps(game.snapshot())))
            assert state_text(restored) == state_text(game)
            world = game.determinize(me, len(game.decisions))
            assert json.dumps(view(world, me).as_dict()) == json.dumps(view(game, me).as_dict())
            for g in (restored, world):
                g.apply(choice)
            game.apply(choice)
            assert restored.digest() == game.digest()
        else:
            game.apply(choice)

"""One game of a simulation run: what the run's games depend on, each game's seed, its record.

A run is a `RunSpec` (ruleset, players, seats, options, seed, decision cap) and a number of
games. Game i (counted from 1) depends on the spec and i alone, through `game_seed`, so games
may be played in any order, in any process (workers.py), and a run can stop and go on: the
records are the same. Each game gives a record (a plain dict, one line of a run file, see
runfile.py).
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..core.errors import EngineError
from ..game.game import Game
from ..game.seeds import derived_seed
from ..players.agents import make_agents
from ..players.budget import timed
from ..players.isolation import Isolation
from ..players.loop import play
from ..rules.ruleset import Ruleset, load_ruleset
from .quality import StandingsRecorder


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` (from 0) of a simulation: a keyed hash of the one simulation
    seed, 64 bits wide, so that its bots' seeds (`seat_seed`) cannot be searched back to it."""
    return derived_seed(seed, "game", index)


DECISION_CAP = "decision cap"  # the end reason simulate() reports for a game stopped by max_decisions
# simulate()'s default cap. Random games of the shipped rulesets that end by their rules stay below
# it: the longest of 3,000 random games of the one with the longest games took 4,002 decisions.
MAX_DECISIONS = 5_000



@dataclass(frozen=True)
class RunSpec:
    """What a simulation's games depend on (with each game's index): plain data, so that it can
    be sent to other processes, which load the ruleset themselves from `ruleset` and
    `extensions` and check it is the same by `digest`."""

    ruleset: str
    players: int
    seats: list[str]
    options: dict[str, Any]
    seed: int
    max_decisions: int | None = MAX_DECISIONS
    extensions: list[str] = field(default_factory=list)
    digest: str = ""
    name: str = ""
    isolate: str = "files"  # which seats play in a process of their own (players/isolation.py)
    time_limit: float = 60.0  # the seconds an isolated seat has for a decision
    standings: bool = True  # record each game's standings round by round (quality.py)

    @classmethod
    def of(cls, ruleset: Ruleset, players: int, seats: list[str], options: dict[str, Any], seed: int,
           max_decisions: int | None = MAX_DECISIONS, isolate: str = "files", time_limit: float = 60.0,
           standings: bool = True) -> RunSpec:
        return cls(ruleset.loaded_as, players, list(seats), dict(options), seed, max_decisions,
                   list(ruleset.extensions), ruleset.digest, ruleset.name, isolate, time_limit, standings)

    def isolation(self) -> Isolation | None:
        if self.isolate == "none":
            return None
        return Isolation(self.ruleset, self.extensions, self.digest, self.isolate, self.time_limit)

    def load(self) -> Ruleset:
        """The run's ruleset, loaded again where its games are played (workers.py)."""
        return load_ruleset(self.ruleset, self.extensions)

    def arrangement(self, ruleset: Ruleset, number: int) -> Callable[[Game], None] | None:
        """The `arrange` hook of game `number` (Game's): none, but a run that puts a card into
        play (analysis/cards.py) arranges its games."""
        return None

    def play_out(self, game: Game, agents: list[Any], order: list[int], number: int) -> dict[str, Any]:
        """Play game `number` by its agents to its end (or the decision cap); what to add to its
        record: with `standings`, the standings round by round, for the report's game quality
        (quality.py). A run that steers or watches its seats (analysis/cards.py) plays its own way:
        a run of simulate pays nothing for it."""
        recorder = StandingsRecorder() if self.standings else None
        if recorder is not None:
            recorder.begin(game)
        play(game, agents, after_each=recorder, max_decisions=self.max_decisions, turn_order=order)
        return {} if recorder is None else recorder.record(game.scores())

    def reproduce(self, seed: int) -> str:
        """The shell command that plays the game of `seed` again, at the terminal: `engine play`
        seeds its bots from the game seed as simulate does, and with --think 0 (where a seat
        would have a time budget) gives them simulate's fixed budgets."""
        words = ["engine", "play", self.ruleset, "--players", str(self.players), "--seed", str(seed),
                 "--seats", ",".join(self.seats)] + (["--think", "0"] if timed(self.seats) else [])
        for name, value in self.options.items():
            words += ["-o", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
        for ext in self.extensions:
            words += ["--with", ext]
        return shlex.join(words)


def play_game(ruleset: Ruleset, spec: RunSpec, number: int) -> dict[str, Any]:
    """Play game `number` (from 1) of a run; its record. A game whose rules fail is recorded
    with the error and the command that replays it, and the run goes on."""
    seed = game_seed(spec.seed, number - 1)
    record: dict[str, Any] = {"game": number, "seed": seed, "seats": spec.seats, "options": spec.options}
    order: list[int] = []
    try:
        game, agents, noted = _played(ruleset, spec, number, spec.isolation(), order)
        final = game.scores()
        winners = game.winners(final)
        parts = game.breakdown(final) if ruleset.breakdown else None
    except EngineError as exc:
        message = " ".join(str(exc).split("\n"))
        return {**record, "error": message, "reproduce": spec.reproduce(seed)}
    order += [p for p in game.players if p not in order]
    record.update(scores={str(p): v for p, v in final.items()}, winners=[str(p) for p in winners],
                  turn_order=[str(p) for p in order], decisions=len(game.decisions),
                  end_reason=game.end_reason if game.over else DECISION_CAP)
    if parts is not None:
        record["breakdown"] = {str(p): v for p, v in parts.items()}
    record.update(noted)
    late = {str(p): agent.late for p, agent in zip(game.players, agents) if getattr(agent, "late", 0)}
    if late:
        record["late"] = late  # decisions an isolated seat lost to a random option, over its time limit
    return record



def _played(ruleset: Ruleset, spec: RunSpec, number: int, isolation: Isolation | None,
            order: list[int] | None = None) -> tuple[Game, list[Any], dict[str, Any]]:
    """Game `number` played by the run's bots, without a log; its agents, and what the run
    adds to its record."""
    seed = game_seed(spec.seed, number - 1)
    game = Game(ruleset, spec.players, spec.options, seed, arrange=spec.arrangement(ruleset, number),
                keep_log=False, rewind=False)
    agents = make_agents(spec.seats, seed, defaults=ruleset.bots, isolation=isolation)
    noted = spec.play_out(game, agents, order if order is not None else [], number)
    return game, agents, noted


def replay_game(ruleset: Ruleset, spec: RunSpec, number: int, watch: Callable[[Game], None] | None = None) -> Game:
    """Game `number` (from 1) of a run played again as `play_game` played it, its bots drawing
    from the same seeds, then replayed from its decisions with its log, to be watched: a run
    file keeps no decisions. Built-in seats only (see runfile.replay_record); EngineError if the
    rules fail. `watch` is called with the game after each of its decisions as it is played
    (a replay's page that grows meanwhile)."""
    seed = game_seed(spec.seed, number - 1)
    arrange = spec.arrangement(ruleset, number)
    if watch is None:
        played, _, _ = _played(ruleset, replace(spec, standings=False), number, None)  # watched, not reported on
    else:  # as play_out plays a game of no standings, each decision told to `watch`
        played = Game(ruleset, spec.players, spec.options, seed, keep_log=False, rewind=False, arrange=arrange)
        play(played, make_agents(spec.seats, seed, defaults=ruleset.bots, isolation=None), after_each=watch,
             max_decisions=spec.max_decisions, turn_order=[])
    return Game(ruleset, spec.players, spec.options, seed, decisions=played.decisions, arrange=arrange,
                rewind=False)

"""Games watched again on a server: a save, or one game of a run file, stepped through decision
by decision, as any seat or as the referee.

A replay is made from a save's JSON (what `engine play --save` writes) or from a run file's
header and one of its games' records (what `engine simulate --out` writes), with a ruleset the
server offers, by name: a file sent to the server never makes it read a file or run code of its
own. It is refused, in one line, if it does not replay to what it records, as `engine replay`
says "does NOT reproduce", or if it was made with other rules than the server's.

Whoever holds a save or a run file holds its seed, which tells every hidden card: `engine
replay` shows such a file to any seat, or to the referee (`--seat N`, `--referee`), and so does
a replay here. What a seat is sent still goes through `view(game, seat, person=True)` alone:
the choices of other seats are told as that seat's log tells them, never by the option taken,
which may be a hidden card or a secret bid.

Position N (after N decisions) is rebuilt from a copy kept every so many decisions (at least
`KEPT_EVERY`, and so that there are at most `MOST_KEPT`) and the decisions after it, so a replay
holds a few copies of its game, not one a decision.
"""
from __future__ import annotations

import asyncio
import json
import secrets
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from ..analysis.runfile import replay_record
from ..core.errors import EngineError, suggest
from ..game.clock import OutOfTime, time_limit
from ..game.game import Game
from ..game.saves import check_save, not_reproduced, replayed
from ..game.view import view
from ..players.agents import built_in, parse_seat, replay_seat
from ..rules import resources
from ..rules.ruleset import Ruleset
from .tables import BadRequest, results, seen_faces

MOST_REPLAYS = 50  # replays held at once (the oldest is let go for a new one)
# Making a replay plays a game again (a run's by its bots): in a pool of its own, within a budget.
REPLAY_WORKERS = 2  # replays made at once; the requests of games in play never wait for them
MOST_WAITING = 4  # replays waiting for a worker; more are refused (503) rather than queued for ever
REPLAY_SECONDS = 30.0  # the time a replay has to be made; past it, refused (engine replay has all the time)
MOST_DECISIONS = 20_000  # decisions of a game to replay, at most (the longest shipped games have some 2,000)
KEPT_EVERY = 64  # decisions between two kept copies of a replay's game, at least
MOST_KEPT = 32  # copies of its game a replay keeps, at most: a long game's are further apart


class NotReady(BadRequest):
    """A replay whose game is still being played again (`Replay.later`): answered 202, ask again."""

    def __init__(self) -> None:
        super().__init__("the game is being played again by its bots: the replay opens when it is ready", 202)


class Replay:
    """One game to watch: its ruleset, seed and decisions, the seats' names, and the seat
    `engine replay --show` shows by default (None: the referee)."""

    def __init__(self, game: Game, seats: list[str] | None, shown: int | None):
        self._named(seats, len(game.players))
        self._fill(game, shown)

    def _named(self, seats: list[str] | None, players: int) -> None:
        self.id = secrets.token_urlsafe(16)
        self.names = {i: f"P{i} ({parse_seat(s)[0]})" if built_in(s) else f"P{i}"
                      for i, s in enumerate(seats if seats and len(seats) == players else ["?"] * players, 1)}
        self.lock = threading.Lock()
        self.ready = threading.Event()
        self.error: str | None = None  # why the game could not be made (Replay.later)
        self.decisions: list[int] = []

    def _fill(self, game: Game, shown: int | None) -> None:
        with self.lock:
            self.decisions = list(game.decisions)
            self.shown = shown
            self._begin(game, max(KEPT_EVERY, -(-len(self.decisions) // MOST_KEPT)))
            self.ready.set()

    def _begin(self, game: Game, every: int) -> None:
        """The first position, that of `game` before its decisions (called with the lock held)."""
        self.every = every
        start = Game(game.rules, len(game.players), game.options, game.seed, rewind=False)
        self._kept = {0: start}  # copies of the game after that many decisions, never changed
        self._at = start.clone()  # the position last shown, stepped on from

    def _grown(self, game: Game) -> None:
        """`game`, being played again, took a decision: the replay has one step more."""
        with self.lock:
            if not hasattr(self, "_kept"):
                self._begin(game, KEPT_EVERY)
            self.decisions.append(game.decisions[-1])

    @classmethod
    def later(cls, make: Callable[[Callable[[Game], None]], Game], seats: list[str] | None, players: int,
              shown: Callable[[Game], int | None]) -> Replay:
        """A replay held at once whose game `make(watch)` plays again in a thread of its own (a
        run's game, by its bots: minutes for a long one), calling `watch(game)` after each
        decision: the replay grows meanwhile (its view says `growing`; NotReady before the first
        decision), and once `make` is done it is the game it returns, or the one line of the
        EngineError that stops `make`, if one does (422)."""
        replay = cls.__new__(cls)
        replay._named(seats, players)
        replay.shown = None  # until the game is over: an unfinished game is shown to no seat's eyes

        def run() -> None:
            try:
                game = make(replay._grown)
                replay._fill(game, shown(game))
            except EngineError as exc:
                replay.error = " ".join(str(exc).split())
                replay.ready.set()

        threading.Thread(target=run, name=f"replay {replay.id[:6]}", daemon=True).start()
        return replay

    @property
    def steps(self) -> int:
        return len(self.decisions)

    def seat_of(self, given: str | None, players: int) -> int | None:
        """The seat a request watches as (None: the referee); the default is `shown`."""
        if given is None:
            return self.shown
        if given == "referee":
            return None
        if not (given.isascii() and given.isdigit() and 1 <= int(given) <= players):
            raise BadRequest(f"seat must be referee or a seat from 1 to {players}")
        return int(given)

    def position(self, step: int) -> Game:
        """The game after `step` decisions (called with the lock held); not to be changed."""
        g = self._at
        if step < len(g.decisions):
            g = self._at = self._kept[step // self.every * self.every].clone()
        while len(g.decisions) < step:
            g.apply(self.decisions[len(g.decisions)])
            if len(g.decisions) % self.every == 0 and len(g.decisions) not in self._kept:
                self._kept[len(g.decisions)] = g.clone()
        return g

    def view(self, step_text: str | None, seat_text: str | None) -> dict[str, Any]:
        """What is shown at a step (by default the last) to a seat or the referee: their view
        as a seat's page has it, the decision taken from this position (what was chosen only to
        the one who chose and the referee), and the scores once the game is over."""
        if self.error is not None:
            raise BadRequest(self.error, 422)
        growing = not self.ready.is_set()
        if growing and not self.decisions:
            raise NotReady()
        step = self.steps if step_text is None else _whole(step_text, "step")
        if not 0 <= step <= self.steps:
            raise BadRequest(f"step {step} is not one of 0 to {self.steps}")
        seat = self.seat_of(seat_text, len(self.names))
        with self.lock:
            g = self.position(step)
            pv = view(g, seat, self.names, person=True)
            shown = pv.as_dict()
            decision = shown["decision"]
            chose = None
            if step < self.steps:
                options, index = decision.get("options"), self.decisions[step]
                chose = {"player": decision["player"], "option": options[index] if options is not None else None,
                         "index": index if options is not None else None}
            shown.update({
                "seat": "referee" if seat is None else seat,
                "step": step,
                "steps": self.steps,
                "chose": chose,
                "forced": [{"at": at, "text": text} for at, text in pv.forced()],
                "drawings": pv.drawings(),
                "results": results(g, self.names) if g.over else None,
                "page": g.rules.page.as_dict(len(g.players)),
                "growing": growing,
            })
            shown["faces"] = seen_faces(g.rules, shown)
            return shown


def _parsed(value: Any, what: str) -> Any:
    """A part of a request given as JSON text, read; any other value as it is."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except (ValueError, RecursionError):
        raise BadRequest(f"{what} is not JSON, so not a file of this engine") from None


def _whole(text: str, name: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise BadRequest(f"{name} must be a whole number from 0")
    return int(text)


class Replays:
    """The replays a server holds, by id, and the rulesets it replays games of; the workers that
    make them, within their budget of time and decisions."""

    def __init__(self, rulesets: dict[str, Ruleset]):
        self.rulesets = rulesets
        self.held: dict[str, Replay] = {}
        self.lock = threading.Lock()
        self.pool = ThreadPoolExecutor(REPLAY_WORKERS, thread_name_prefix="replays")
        self.waiting = 0  # requests given to the pool and not yet done

    async def make(self, request: Any) -> Replay:
        """`create`, in the replays' pool, within REPLAY_SECONDS; refused (503) when MOST_WAITING
        requests wait already, and (422) when the time is spent."""
        with self.lock:
            if self.waiting >= REPLAY_WORKERS + MOST_WAITING:
                raise BadRequest("the server is making other replays: try again in a moment", 503)
            self.waiting += 1
        try:
            return await asyncio.wrap_future(self.pool.submit(self._timed, request))
        finally:
            with self.lock:
                self.waiting -= 1

    def _timed(self, request: Any) -> Replay:
        try:
            with time_limit(REPLAY_SECONDS):
                return self.create(request)
        except OutOfTime:
            raise BadRequest(f"the game took more than {REPLAY_SECONDS:g} s to play again, this server's budget: "
                             "replay it with engine replay", 422) from None

    def hold(self, replay: Replay) -> Replay:
        """Keep `replay`, letting the oldest go if the server holds MOST_REPLAYS."""
        with self.lock:
            while len(self.held) >= MOST_REPLAYS:
                del self.held[next(iter(self.held))]
            self.held[replay.id] = replay
        return replay

    def get(self, replay_id: str) -> Replay:
        found = self.held.get(replay_id)
        if found is None:
            raise BadRequest("no such replay", 404)
        return found

    def create(self, request: Any) -> Replay:
        """A replay from a request's JSON: {"save": SAVE} or {"run": HEADER, "game": RECORD},
        HEADER being a run file's first line and RECORD one of its game lines. Each is the file's
        or line's text (what a browser sends: its numbers cannot hold every 64-bit seed) or the
        JSON object it holds."""
        if not isinstance(request, dict) or set(request) not in ({"save"}, {"run", "game"}):
            unknown = sorted(set(request) - {"save", "run", "game"}) if isinstance(request, dict) else []
            told = f"unknown field '{unknown[0]}'{suggest(unknown[0], ['save', 'run', 'game'])}; " if unknown else ""
            raise BadRequest(told + 'send {"save": SAVE} or {"run": RUN, "game": RECORD} (a run file\'s header '
                             "and one of its games)")
        try:
            if "save" in request:
                return self.hold(self._from_save(_parsed(request["save"], "the save")))
            head = _parsed(request["run"], "the run's first line")
            if not isinstance(head, dict) or set(head) != {"run"}:
                raise BadRequest('run: a run file\'s first line, {"run": {...}}')
            return self.hold(self._from_run(head["run"], _parsed(request["game"], "the game's line")))
        except BadRequest:
            raise
        except EngineError as exc:
            raise BadRequest(" ".join(str(exc).split())) from None

    def _ruleset(self, given: Any, digest: Any, what: str) -> Ruleset:
        """The server's ruleset that `given` (a save's or run's `ruleset`: a shipped name or a
        path) names, if it is the one the file was made with (`digest`, when it records one)."""
        name = given if isinstance(given, str) and resources.is_name(given) else Path(str(given)).stem
        rules = self.rulesets.get(name)
        if rules is None:
            shown = name if len(name) <= 40 else name[:40] + "..."
            raise BadRequest(f"this server does not offer the ruleset '{shown}' of the {what}"
                             f"{suggest(name, self.rulesets)}; it offers {', '.join(self.rulesets)}")
        if digest and digest != rules.digest:
            raise BadRequest(f"the {what} was made with other rules than this server's {name} (its rules or "
                             "card files have changed since); replay it with engine replay")
        return rules

    def _from_save(self, data: Any) -> Replay:
        save = check_save(data, "the save")
        if len(save["decisions"]) > MOST_DECISIONS:
            raise BadRequest(f"the save has {len(save['decisions'])} decisions, more than the {MOST_DECISIONS} this "
                             "server replays: replay it with engine replay", 422)
        rules = self._ruleset(save["ruleset"], save.get("ruleset_sha256"), "save")
        if not save.get("ruleset_sha256") and [Path(e).stem for e in save.get("extensions", [])] != \
                [Path(e).stem for e in rules.extensions]:  # older saves: their card files at least
            raise BadRequest("the save was made with other card files than this server's ruleset")
        game = replayed("the save", save, rules)
        why = not_reproduced(game, save)
        if why is not None:
            raise BadRequest(f"the save does not reproduce: {why}")
        return Replay(game, save.get("seats"), replay_seat(game.over, save.get("seats")))

    def _from_run(self, run: Any, record: Any) -> Replay:
        if not isinstance(run, dict):
            raise BadRequest('run: a run file\'s first line, {"run": {...}}')
        rules = self._ruleset(run.get("ruleset"), run.get("digest"), "run")
        decisions = record.get("decisions") if isinstance(record, dict) else None
        if type(decisions) is int and decisions > MOST_DECISIONS:
            raise BadRequest(f"the game has {decisions} decisions, more than the {MOST_DECISIONS} this server "
                             "replays: replay it with engine replay", 422)
        game = replay_record(rules, run, record, "the run")
        return Replay(game, run["seats"], replay_seat(game.over, run["seats"]))

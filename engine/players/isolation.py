"""Seats whose agent runs in a process of its own: the way to play agents you do not trust.

In one process an agent can reach anything (gc, frames, module globals): a view hides the game
from honest code only. An isolated agent runs in a child process that holds the ruleset, its
seat and its seed, and nothing of the game. At each decision it asks this process for the parts
of its player's view it reads, by name, and gets them back as data; `world(seed)` comes back as
the snapshot of a world dealt here (`PlayerView.world`), which the child makes a game of its
own. Only JSON lines cross, so the child can neither reach the game nor send code back.

Each decision has a time limit. An agent over it, or whose process dies, loses the decision to
a random legal option (from a generator of its seat's seed, so runs stay reproducible when no
agent is late) and is started again for the next one; `late` counts these decisions, and a
line on stderr tells each.

A child serves one seat of one ruleset in this process, game after game: a new agent of the
seat (a new "start") costs a message, not a new process. Pipes are waited on with `select`, as
on Linux and macOS.
"""
from __future__ import annotations

import atexit
import json
import operator
import os
import random
import select
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import EngineError
from ..game.game import Game
from ..game.view import PlayerView
from ..rules.ruleset import load_ruleset
from . import worlds
from .agents import make_agent

STARTUP_LIMIT = 120.0  # seconds a child may take to load the ruleset and make its agent
MESSAGE_LIMIT = 1 << 20  # the longest line a child may send (its messages are short)

# What a child may ask of its player's view: the properties, and the methods with the types each
# of their arguments may have (`world` is answered with a snapshot).
_PROPERTIES = ("you", "game_name", "option_count", "decision")
_METHODS: dict[str, tuple[tuple[type, ...], ...]] = {
    "amounts": (), "option_cards": (), "option_routes": (), "zones": (), "counters": (), "forced": (), "boards": (),
    "log": ((int, type(None)),), "as_dict": ((int, type(None)),), "world": ((int,), (bool,))}


@dataclass(frozen=True)
class Isolation:
    """Which seats of a run play in their own process (`which`: "files", those of FILE.py or
    module agents; "all" bots; "none"), with what to load there and the time limit."""

    ruleset: str  # as loaded: a path or a shipped name
    extensions: list[str] = field(default_factory=list)
    digest: str = ""
    which: str = "files"
    time_limit: float = 60.0

    def isolates(self, kind: str) -> bool:
        return kind != "human" and (self.which == "all" or self.which == "files" and ":" in kind)

    def agent(self, seat: str, number: int, seed: int, defaults: dict[str, dict[str, Any]] | None) -> IsolatedAgent:
        return IsolatedAgent(seat, number, seed, self, defaults)


class _Child:
    """A child process and the line reader of its answers."""

    def __init__(self, folder: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "engine.players.isolation"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=None, close_fds=True, cwd=folder)
        self.buffer = b""
        self.owner: IsolatedAgent | None = None
        _running.append(self)

    def send(self, message: dict[str, Any]) -> bool:
        try:
            self.process.stdin.write(json.dumps(message).encode() + b"\n")  # type: ignore[union-attr]
            self.process.stdin.flush()  # type: ignore[union-attr]
            return True
        except (BrokenPipeError, OSError):
            return False

    def receive(self, deadline: float) -> dict[str, Any] | None:
        """The child's next message; None if it sends none before `deadline` or has ended."""
        out = self.process.stdout
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([out], [], [], left)[0]:
                return None
            chunk = os.read(out.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk or len(self.buffer) + len(chunk) > MESSAGE_LIMIT:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError:
            return None
        return message if isinstance(message, dict) else None

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            stream.close()  # type: ignore[union-attr]
        if self in _running:
            _running.remove(self)


_running: list[_Child] = []
_children: dict[tuple, _Child] = {}  # by (ruleset digest, extensions, seat number, folder)


@atexit.register
def _stop_all() -> None:
    for child in list(_running):
        child.stop()


class IsolatedAgent:
    """The agent of seat `seat` (its text, e.g. `bot.py:Bot:depth=3`), played in a child
    process; this object answers its questions with the view it is given."""

    def __init__(self, seat: str, number: int, seed: int, isolation: Isolation,
                 defaults: dict[str, dict[str, Any]] | None = None):
        self.seat, self.seed, self.isolation = seat, seed, isolation
        # A FILE.py seat names its file from the current folder: the child works in it.
        self.key = (isolation.digest, tuple(isolation.extensions), number, os.getcwd())
        self.start = {"ruleset": isolation.ruleset, "extensions": list(isolation.extensions),
                      "digest": isolation.digest, "seat": seat, "seed": seed, "defaults": defaults or {}}
        self.rng = random.Random(seed)  # the random options of decisions over time
        self.late = 0  # decisions over the time limit (or lost with the child)
        self._take_child()  # a seat that cannot be made is refused before any game starts

    def _take_child(self) -> _Child:
        child = _children.get(self.key)
        if child is not None and child.owner is self:
            return child
        if child is None or child.process.poll() is not None:
            child = _children[self.key] = _Child(self.key[-1])
        child.owner = self
        reply = child.receive(time.monotonic() + STARTUP_LIMIT) if child.send({"start": self.start}) else None
        if reply is None or "error" in reply:
            self._drop(child)
            raise EngineError(str(reply["error"])[:500] if reply else
                              f"seat '{self.seat}': its process ended or did not answer")
        return child

    def _drop(self, child: _Child) -> None:
        child.stop()
        if _children.get(self.key) is child:
            del _children[self.key]

    def choose(self, view: PlayerView) -> int:
        n = view.option_count
        child = self._take_child()
        deadline = time.monotonic() + self.isolation.time_limit
        if child.send({"decide": view.player}):
            while (message := child.receive(deadline)) is not None:
                if "call" in message:
                    if not child.send(_answer(view, message)):
                        break
                elif "choice" in message:
                    worlds.tally.add(message.get("worlds"))  # what its worlds were, and how many failed
                    choice = message["choice"]
                    if type(choice) is not int or not 0 <= choice < n:
                        raise EngineError(f"seat '{self.seat}' (isolated) answered {str(choice)[:40]}, "
                                          f"not an option number from 0 to {n - 1}")
                    return choice
                elif "error" in message:
                    raise EngineError(f"seat '{self.seat}' (isolated): {str(message['error'])[:500]}")
                else:
                    break
        self._drop(child)
        self.late += 1
        print(f"engine: seat {view.you} ({self.seat}) gave no answer within {self.isolation.time_limit:g} s; "
              "a random option was played for it", file=sys.stderr)
        return self.rng.randrange(n)


def _answer(view: PlayerView, message: dict[str, Any]) -> dict[str, Any]:
    """What the child asked for, as data: a part of the view, or a world's snapshot."""
    name, args = message.get("call"), message.get("args", [])
    if name in _PROPERTIES and args == []:
        return {"result": getattr(view, name)}
    kinds = _METHODS.get(name) if isinstance(name, str) else None
    if kinds is None or not isinstance(args, list) or len(args) > len(kinds) \
            or not all(type(a) in k for a, k in zip(args, kinds)):
        return {"failed": f"no such question: {str(name)[:40]}({', '.join(map(repr, args))[:80]})"}
    try:
        result = getattr(view, name)(*args)
    except EngineError as exc:
        return {"failed": str(exc)}
    return {"result": result.snapshot() if name == "world" else result}


class RemoteView:
    """An isolated agent's view of its player: each part asked of the game's process when
    first read, a world made of the snapshot it sends. It offers what `PlayerView` offers."""

    person = False

    def __init__(self, player: int, rules: Any, ask: Any):
        self.player, self._rules, self._ask = player, rules, ask
        self._known: dict[str, Any] = {}

    def _part(self, name: str, *args: Any) -> Any:
        key = f"{name}{args}"
        if key not in self._known:
            self._known[key] = self._ask(name, list(args))
        return self._known[key]

    you = property(lambda self: self._part("you"))
    game_name = property(lambda self: self._part("game_name"))
    option_count = property(lambda self: self._part("option_count"))
    decision = property(lambda self: self._part("decision"))

    def amounts(self) -> tuple[int, int] | None:
        found = self._part("amounts")
        return tuple(found) if found is not None else None  # type: ignore[return-value]

    def option_cards(self) -> list:
        return self._part("option_cards")

    def option_routes(self) -> list:
        return self._part("option_routes")

    def zones(self) -> list:
        return self._part("zones")

    def counters(self) -> dict:
        return self._part("counters")

    def forced(self) -> list:
        return [tuple(f) for f in self._part("forced")]

    def boards(self) -> dict:
        return self._part("boards")

    def log(self, last: int | None = None) -> list:
        return self._part("log", last)

    def as_dict(self, log_last: int | None = None) -> dict:
        return self._part("as_dict", log_last)

    def world(self, seed: int, log: bool = True) -> Game:
        world = Game.from_snapshot(self._rules, self._ask("world", [int(seed), bool(log)]))
        world.keep_log = world.rewind = False
        world.arrange = None
        return world


def _end_with(parent: int) -> None:
    """End this process once its parent has ended (killed, it could not stop us), even while
    the agent is still thinking."""
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


def _serve() -> None:
    """The child's side: make the agent each start names, and answer each decision with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle; it stops us
    threading.Thread(target=_end_with, args=(os.getppid(),), daemon=True).start()
    channel = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # what the agent prints goes to stderr, not among the messages

    def send(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message).encode() + b"\n")
        channel.flush()

    def read() -> dict[str, Any]:
        line = sys.stdin.buffer.readline()
        if not line:
            raise SystemExit(0)  # the parent has gone
        return json.loads(line)

    def ask(name: str, args: list) -> Any:
        send({"call": name, "args": args})
        reply = read()
        if "failed" in reply:
            raise EngineError(reply["failed"])
        return reply["result"]

    rules, loaded, agent = None, None, None
    while True:
        message = read()
        if "start" in message:
            start = message["start"]
            try:
                if loaded != (start["ruleset"], start["extensions"]):
                    rules = load_ruleset(start["ruleset"], start["extensions"])
                    loaded = (start["ruleset"], start["extensions"])
                if rules.digest != start["digest"]:
                    raise EngineError(f"{start['ruleset']} changed since the run began")
                agent = make_agent(start["seat"], start["seed"], defaults=start["defaults"])
            except EngineError as exc:
                send({"error": str(exc)})
                continue
            send({"ready": True})
        elif "decide" in message:
            before = worlds.tally.copy()
            try:
                choice = operator.index(agent.choose(RemoteView(message["decide"], rules, ask)))
            except Exception as exc:  # the agent's own fault, told to the parent in a line
                send({"error": f"{type(exc).__name__}: {exc}"})
                continue
            counted = worlds.tally.since(before)
            send({"choice": choice, **({"worlds": counted} if counted else {})})


if __name__ == "__main__":
    _serve()

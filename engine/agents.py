"""Who decides: every driver gets a player's view and returns an option index.

A random agent, a person at the terminal and a replay all go through `Game.apply`, the
one door for decisions.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import random
import sys
from pathlib import Path
from typing import Any, Callable, Protocol, TextIO

from .errors import EngineError, suggest
from .undo import TakeBack
from .view import PlayerView, render


class Agent(Protocol):
    def choose(self, view: PlayerView) -> int:
        """Return the index of one of view.decision['options']."""


class RandomAgent:
    """Picks uniformly among the legal options, from its own seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> int:
        return self.rng.randrange(view.option_count)


class QuitGame(Exception):
    """The person at the terminal asked to stop."""


QUIT = ("q", "quit", "exit")
CLEAR_SCREEN = "\033[H\033[2J\033[3J"  # to the top, clear the screen, and its scrollback where the terminal can


def ask(stdin: TextIO, stdout: TextIO, prompt: str) -> str:
    """A line typed after `prompt`, stripped; the end of input, Ctrl-C or q stop the game."""
    stdout.write(prompt)
    stdout.flush()
    try:
        line = stdin.readline()
    except KeyboardInterrupt:
        raise QuitGame() from None
    if not line or line.strip().lower() in QUIT:
        raise QuitGame()
    return line.strip()


class HotSeat:
    """People taking turns at one terminal. Before one of them decides after another did, the
    screen is cleared and the next is asked to take the keyboard, so that nobody sees what is
    private to another."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.last: int | None = None  # who decided last at this terminal

    def clear(self) -> None:
        self.stdout.write(CLEAR_SCREEN)
        self.stdout.flush()

    def hand_to(self, player: int) -> None:
        """Unless `player` decided last: clear the screen, then wait for them to press Enter."""
        if player == self.last:
            return
        self.clear()
        ask(self.stdin, self.stdout, f"Pass to P{int(player)} and press Enter (q to quit): ")
        self.last = player


class HumanAgent:
    """A person at the terminal: sees their own view and the numbered options; `u` asks for
    their last decision back (see undo.py), `q` stops the game. With a `hot_seat`, one of several
    people at the terminal, who is handed the keyboard before seeing their view."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, hot_seat: HotSeat | None = None):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.hot_seat = hot_seat

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def choose(self, view: PlayerView) -> int:
        view = view.for_person()  # the screen does not remind them of what they must remember
        decision = view.decision
        if self.hot_seat is not None and view.player is not None:
            self.hot_seat.hand_to(view.player)
        self.say("")
        self.say(render(view))
        self.say(f"\n{view.you}: {decision['prompt']}")
        for i, option in enumerate(decision["options"], 1):
            self.say(f"  {i:>2}. {option}")
        n = len(decision["options"])
        while True:
            text = ask(self.stdin, self.stdout, f"Choose 1-{n} (u to undo, q to quit): ")
            if text.lower() in ("u", "undo"):
                raise TakeBack(self.say)
            if not text:
                self.say("Please type the number of an option.")
                continue
            if not (text.isascii() and text.isdigit()) or len(text) > 9:
                shown = text if len(text) <= 20 else text[:20] + "..."
                if text.isascii() and text.isdigit():
                    self.say(f"{shown} is not an option; type a number from 1 to {n}.")
                else:
                    self.say(f"'{shown}' is not a number; type a number from 1 to {n}.")
                continue
            choice = int(text)
            if not 1 <= choice <= n:
                self.say(f"{choice} is not an option; type a number from 1 to {n}.")
                continue
            return choice - 1


SEATS_HELP = """\
A seat is one of:
  random                 picks any legal option
  greedy                 looks to the end of its own run of decisions, by the ruleset's heuristic
  mcts                   Monte Carlo tree search (the strongest; about a second a decision at most)
  human                  a person at this terminal
  FILE.py:CLASS          your own agent class, e.g. examples/agents/flat_monte_carlo.py:FlatMonteCarlo
  MODULE:CLASS           the same from an importable module, e.g. mybots.cautious:CautiousAgent
Parameters follow the kind, each after a colon: mcts:iterations=400:depth=0, greedy:worlds=4,
mybots.cautious:CautiousAgent:risk=0.2. greedy takes worlds (default 1), tries (random play-outs
of the rest of its run of decisions, default 8) and steps (their length at most, default 40).
mcts takes iterations (default 200), depth (random moves after the tree before the heuristic
scores, default 20; 0 = play to the end), c (exploration, default 0.7), ms (also stop after
that many milliseconds a decision) and score_weight (0 to 1: how much of its reward is its own
score rather than its rank, default 0). A ruleset may change these defaults for its game (bots:)."""


def _builtin_kinds() -> dict[str, Callable[..., Agent]]:
    from .search import GreedyAgent, MctsAgent  # the search bots load only when a seat asks
    return {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent}


def _number(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_seat(text: str) -> tuple[str, dict[str, Any]]:
    """`kind[:name=value]...` or `module:Class[:name=value]...` as (kind, parameters)."""
    parts = [p.strip() for p in text.strip().split(":")]
    kind, rest = parts[0], parts[1:]
    if rest and "=" not in rest[0] and kind not in (*_builtin_kinds(), "human"):  # FILE.py:Class or module:Class
        kind, rest = f"{kind}:{rest[0]}", rest[1:]
    params: dict[str, Any] = {}
    for part in rest:
        name, eq, value = part.partition("=")
        if not eq or not name.strip():
            raise EngineError(f"seat '{text}': '{part}' is not a parameter; write name=value, "
                              "e.g. mcts:iterations=400")
        params[name.strip()] = _number(value.strip())
    if not kind:
        raise EngineError(f"seat '{text}' names no kind of player")
    return kind, params


def _agent_class(kind: str) -> Callable[..., Agent]:
    """A built-in kind, or a class named FILE.py:Class or module:Class (a module is looked for
    in the current folder too)."""
    kinds = _builtin_kinds()
    if kind in kinds:
        return kinds[kind]
    if ":" not in kind:
        raise EngineError(f"unknown seat kind '{kind}'{suggest(kind, [*kinds, 'human'])}; use "
                          f"{', '.join([*kinds, 'human'])}, FILE.py:CLASS or MODULE:CLASS")
    where, _, class_name = kind.rpartition(":")
    try:
        if where.endswith(".py"):
            spec = importlib.util.spec_from_file_location(Path(where).stem, where)
            if spec is None or not Path(where).is_file():
                raise ImportError(f"no file {where}")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        else:
            if "" not in sys.path and os.getcwd() not in sys.path:
                sys.path.append(os.getcwd())
            module = importlib.import_module(where)
    except ImportError as exc:
        raise EngineError(f"seat '{kind}': cannot import {where} ({exc})") from None
    found = getattr(module, class_name, None)
    if not isinstance(found, type):
        raise EngineError(f"seat '{kind}': {where} has no class {class_name}")
    return found


def make_agent(seat: str, seed: int, make_human: Callable[[], Agent] = HumanAgent,
               defaults: dict[str, dict[str, Any]] | None = None) -> Agent:
    """One agent from its seat text; a bot's class is called with `seed=`, the ruleset's
    `defaults` for its kind (`bots:`) and the seat's own parameters, which win."""
    kind, params = parse_seat(seat)
    if kind == "human":
        if params:
            raise EngineError("a human seat takes no parameters")
        return make_human()
    cls = _agent_class(kind)
    accepted = [name for name in inspect.signature(cls).parameters if name != "seed"] if params else []
    for name in params:
        if name not in accepted:
            raise EngineError(f"seat '{seat}': {kind} has no parameter '{name}'{suggest(name, accepted)}; "
                              f"its parameters: {', '.join(accepted) or 'none'}")
    try:
        return cls(seed=seed, **{**(defaults or {}).get(kind, {}), **params})
    except (TypeError, ValueError) as exc:
        raise EngineError(f"seat '{seat}': {exc}") from None


def make_agents(seats: list[str], seed: int, make_human: Callable[[], Agent] = HumanAgent,
                defaults: dict[str, dict[str, Any]] | None = None) -> list[Agent]:
    """Agents for the seats (with the ruleset's `bots:` defaults); each bot's seed derives from
    the game seed and its seat."""
    return [make_agent(seat, seed * 7919 + i + 1, make_human, defaults) for i, seat in enumerate(seats)]

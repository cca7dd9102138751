"""Who decides: every driver gets a player's view and returns an option index.

A random agent, a person at the terminal and a replay all go through `Game.apply`, the
one door for decisions.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
import math
import os
import random
import sys
from pathlib import Path
from typing import Any, Callable, Protocol, TextIO

from ..core.errors import EngineError, suggest
from ..game.saves import SaveRequest
from ..game.seeds import seat_seed
from ..game.view import PlayerView
from .foresee import forced_chain
from .screen import (Line, card_lines, decision_screen, fitted, heading, log_items, named_cards, news_heading,
                     option_order, own_lines, shown_cards, table_blocks, wrap)
from .terminal import Terminal
from .undo import TakeBack


class Isolating(Protocol):
    """Which seats play in a process of their own, and how they are made there (isolation.py,
    which imports this module, not the other way round)."""

    def isolates(self, kind: str) -> bool: ...

    def agent(self, seat: str, number: int, seed: int, defaults: dict[str, dict[str, Any]] | None) -> Agent: ...


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

    def hand_to(self, player: int, waiting: list[str] | None = None) -> None:
        """Unless `player` decided last: clear the screen, then wait for them to press Enter;
        in a simultaneous step, saying who has yet to choose (`waiting`), as a table would."""
        if player == self.last:
            return
        self.clear()
        at_once = f"; waiting for {', '.join(waiting)}" if waiting else ""
        ask(self.stdin, self.stdout, f"Pass to P{int(player)} and press Enter{at_once} (q to quit): ")
        self.last = player


HELP = """\
Type the number of an option to choose it (asked how many, the number itself),
or a command:
  i N, i NAME  what a card says: option N, or a card you see, by name (inf: ∞)
  why NAME     why a card you see, or an option's words, is not offered:
               the rule that leaves it out, with the values it read
  log          all that has happened that you may know, a page at a time
  t            the whole table
  r            this decision's screen again
  u            take back your last decision
  s [FILE]     save the game to FILE and go on (engine play --resume FILE)
  q            stop the game (you are offered to save)
  ?            how to win, and this help"""

CONFIRM = "Go on? (Enter: yes, n: choose again): "
END_PROMPT = "Game over: t, log, i NAME, ? (Enter: leave): "
END_HELP = """\
The game is over. Commands:
  i NAME       what a card you see says, by its name
  log          all that happened that you may know, a page at a time
  t            the whole table as the game ended
  r            the final screen again
  ?            how to win, and this help
  Enter, q     leave"""


class HumanAgent:
    """A person at the terminal: sees their own view on one screen (screen.py) with what
    happened since they last decided, and chooses an option by its number; commands (HELP)
    show a card, the log or the table, take back a decision (see undo.py), save or stop. With
    a `hot_seat`, one of several people at the terminal, who is handed the keyboard before
    seeing their view. `plain`: no colour even on a terminal."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None, hot_seat: HotSeat | None = None,
                 plain: bool = False):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.hot_seat = hot_seat
        self.terminal = Terminal(self.stdin, self.stdout, plain)
        # Per player, the log lines and forced choices they had been told of when they last chose.
        self.read: dict[int | None, tuple[int, int]] = {}
        self.notice: list[str] = []  # what came of a request (undo, save), told on the next screen
        self.replied = False  # an undo or a save was just answered: its screen is drawn without paging news first

    def say(self, text: str) -> None:
        self.terminal.say(text)

    def caught_up(self, view: PlayerView) -> None:
        """Count all `view` tells as read, so that the news of a resumed game starts where it
        was resumed (the whole game paged as news told nothing new); `log` shows the rest."""
        view = view.for_person()
        self.read[view.player] = (len(view.log()), len(view.forced()))
        self.notice.append("The game goes on from the save; type log for what happened before.")

    def choose(self, view: PlayerView) -> int:
        view = view.for_person()  # the screen does not remind them of what they must remember
        if self.hot_seat is not None and view.player is not None:
            self.hot_seat.hand_to(view.player, (view.decision or {}).get("waiting"))
        log, forced = view.log(), view.forced()
        news = self._news(log, forced, *self.read.get(view.player, (0, 0)))
        order = option_order(view)
        labels = [view.decision["options"][i] for i in order]
        notice, self.notice = self.notice, []
        self._draw(view, news, labels, notice, paged=not self.replied)
        self.replied = False
        # An amount is typed as itself; any other option by its number from 1.
        first, last = view.amounts() or (1, len(labels))
        n = f"{first} to {last}"
        while True:
            text = self._ask(f"Choose {first}-{last} (? for help): ")
            word, _, rest = text.partition(" ")
            word, rest = word.lower(), rest.strip()
            digits = text[1:] if first < 0 and text[:1] == "-" else text
            if digits.isascii() and digits.isdigit() and len(digits) <= 9:
                if first <= int(text) <= last:
                    if self.terminal.interactive and not self._confirmed(view, order[int(text) - first]):
                        continue
                    self.read[view.player] = (len(log), len(forced))
                    return order[int(text) - first]
                self.say(f"{int(text)} is not an option; type a number from {n}.")
            elif not text:
                self.say("Please type the number of an option (? for help).")
            elif text in ("?", "h", "help"):
                self._help(view, HELP)
            elif word in ("u", "undo") and not rest:
                raise TakeBack(self._replied)
            elif word in ("s", "save"):
                path = rest or ask(self.stdin, self.stdout, "Save to which file? (empty: don't save) ")
                if path:
                    raise SaveRequest(path, self._replied)
            elif word == "why":
                self._why(view, rest, labels)
            elif self._look(view, text, order):
                pass
            elif text.lower() in ("r", "redraw"):
                self._draw(view, news, labels, notice)
            else:
                what = "is not an option" if text.isascii() and text.isdigit() else "is not a number or a command"
                self.say(f"'{_short(text)}' {what}; type a number from {n}, or ? for help.")

    def _help(self, view: PlayerView, commands: str) -> None:
        """How to win (the ruleset's goal, wrapped to the terminal), then the `commands`."""
        width, _ = self.terminal.size()
        self.terminal.show([Line(t, "bold") for t in wrap(f"How to win: {view.goal}", width, 2)])
        self.say(commands)

    def _replied(self, text: str) -> None:
        """What came of an undo or a save, told on the next screen at once: its news, which
        the person read already (a save leaves the game as it was, an undo goes back to where
        they were), is not paged again before it."""
        self.notice.append(text)
        self.replied = True

    def _ask(self, prompt: str) -> str:
        """The person's next line at `prompt`: the one they typed at the pager, if they did
        (a command typed there is done, not lost), else one typed now."""
        typed = self.terminal.answer(prompt)
        if typed is None:
            return ask(self.stdin, self.stdout, prompt)
        if typed.lower() in QUIT:
            raise QuitGame()
        return typed

    def _confirmed(self, view: PlayerView, index: int) -> bool:
        """Whether the person still takes option `index` once shown the forced choices it sets
        off that take a card of theirs (foresee.py); True at once when it sets off none."""
        chain = forced_chain(view, index)
        if chain is None:
            return True
        width, _ = self.terminal.size()
        said = [f"{view.decision['options'][index]} leads to choices with one option each, made for you:",
                *(f"  {c}" for c in chain.choices),
                f"You would lose {', '.join(chain.lost)}."]
        self.terminal.show([Line(t, "bold yellow") for text in said for t in wrap(text, width, 4)])
        while True:
            answer = ask(self.stdin, self.stdout, CONFIRM).lower()
            if answer in ("", "y", "yes"):
                return True
            if answer in ("n", "no"):
                self.say("Not taken; choose again (? for help).")
                return False

    def _look(self, view: PlayerView, text: str, order: list[int]) -> bool:
        """Answer a command that only shows (i, log, t); False if `text` is none of them."""
        word, _, rest = text.partition(" ")
        width, _ = self.terminal.size()
        if word.lower() in ("i", "info"):
            self._info(view, rest.strip(), order)
        elif text.lower() == "log":
            self.terminal.page([line for item in log_items(view.log(), width) for line in item]
                               or [Line("Nothing has happened yet.")])
        elif text.lower() in ("t", "table"):
            self.terminal.page([line for block in table_blocks(view, width, everything=True) for line in block])
        else:
            return False
        return True

    def final(self, view: PlayerView, results: list[str]) -> None:
        """The last screen: what happened since the person's last decision, the table as it
        ended, their own position, then `results` (the scores, how they were counted, the
        winners), at the bottom where a page ends. A person at the terminal may then look at
        the table, the log and the cards (END_PROMPT) before leaving; input from a file or a
        pipe does not wait there."""
        view = view.for_person()
        news = self._news(view.log(), view.forced(), *self.read.get(view.player, (0, 0)))
        width, height = self.terminal.size()
        told = news_heading(news, width) + [line for item in log_items(news, width) for line in item]
        last = heading("yours") + own_lines(view, width, empty=False) + [Line(r, "bold") for r in results]
        blocks = table_blocks(view, width)
        whole = [line for block in blocks for line in block]
        title = heading("the table at the end", width)
        self.terminal.clear()
        if height is None or len(told) + len(title) + len(whole) + len(last) < height:
            last = (title if whole else []) + whole + last
            self.terminal.show(told + last)
        else:  # the news and the whole table a page at a time, then the results with what fits of it
            table = fitted(blocks, height - len(last) - len(title) - 1)  # 1: the prompt's line
            self.terminal.page(told + (title + whole if len(table) < len(whole) else []), more=True)
            last = (title + table if table else []) + last
            self.terminal.clear()
            self.terminal.page(last)
        self.linger(view, last)

    def linger(self, view: PlayerView, last: list[Line]) -> None:
        """After the end, answer t, log, i NAME and r (`last` again) until Enter, q or the end of
        input; at once where nobody types at a terminal. `view` is what may be shown: a person's
        own, or, with several at the terminal, what all may see."""
        while self.terminal.interactive:
            try:
                text = self._ask(END_PROMPT)
            except QuitGame:  # q, the end of input or Ctrl-C: leave
                return
            if not text:
                return
            if text in ("?", "h", "help"):
                self._help(view, END_HELP)
            elif text.lower() in ("r", "redraw"):
                self.terminal.clear()
                self.terminal.page(last)
            elif not self._look(view, text, []):
                self.say(f"'{_short(text)}' is not a command here; ? for help, Enter to leave.")

    @staticmethod
    def _news(log: list[str], forced: list[tuple[int, str]], lines: int, choices: int) -> list[str]:
        """What happened since the log had `lines` lines and `choices` choices had been forced:
        the new log lines, each new forced choice at its place among them."""
        news = log[lines:]
        for at, text in reversed(forced[choices:]):
            news.insert(max(at - lines, 0), text)
        return news

    def _draw(self, view: PlayerView, news: list[str], labels: list[str], notice: list[str],
              paged: bool = True) -> None:
        """The decision's screen, what does not fit on it (news first) paged before it (unless
        not `paged`: then only the screen)."""
        width, height = self.terminal.size()
        before, screen = decision_screen(view, news, labels, width, height, notice)
        self.terminal.clear()
        if before and paged:
            self.terminal.page(before, more=True)
            self.terminal.clear()
        elif not self.terminal.is_tty:
            self.say("")
        self.terminal.show(screen)

    def _info(self, view: PlayerView, what: str, order: list[int]) -> None:
        """What a card says, as the person may see it: option `what` (a number) or the card
        they can see whose name is, or holds, `what`."""
        if not what:
            self.say("Say which card: i 3 for option 3, or i and (part of) a card's name.")
            return
        if what.isascii() and what.isdigit() and len(what) <= 9:
            k, cards = int(what), view.option_cards()
            if not 1 <= k <= len(order):
                self.say(f"{k} is not an option; type i and a number from 1 to {len(order)}.")
            elif cards[order[k - 1]] is None:
                self.say(f"Option {k}, {view.decision['options'][order[k - 1]]}, is not a card.")
            else:
                self.terminal.show(card_lines(cards[order[k - 1]], self.terminal.size()[0]))
            return
        found = named_cards(view, what)
        if not found:
            labels = {c["label"] for c in shown_cards(view)}
            self.say(f"No card you can see is called '{_short(what)}'{suggest(what, sorted(labels))}.")
        elif len(found) > 1:
            names = list(found)
            listed = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
            self.say(f"'{_short(what)}' may be any of {listed}; say which.")
        else:
            self.terminal.show(card_lines(next(iter(found.values())), self.terminal.size()[0]))


    def _why(self, view: PlayerView, what: str, labels: list[str]) -> None:
        """Why something the person names is not among their options (PlayerView.why): option
        `what` (a number, which is offered), an option's words, a card they can see."""
        if not what:
            self.say("Say what: why and a card's name, or the words of an option (why 3: option 3).")
            return
        if what.isascii() and what.isdigit() and len(what) <= 9:
            k = int(what)
            self.say(f"Option {k}, {labels[k - 1]}, is offered: type {k} to choose it." if 1 <= k <= len(labels)
                     else f"{k} is not an option; type why and the name of what you miss.")
            return
        wanted = what.casefold()
        offered = [i for i, label in enumerate(labels, 1) if label.casefold() == wanted] or \
            [i for i, label in enumerate(labels, 1) if wanted in label.casefold()]
        if len(offered) == 1:
            self.say(f"{labels[offered[0] - 1]} is offered: it is option {offered[0]}.")
            return
        found = named_cards(view, what)
        if len(found) > 1 and not offered:
            names = list(found)
            listed = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
            self.say(f"'{_short(what)}' may be any of {listed}; say which.")
            return
        width, _ = self.terminal.size()
        lines = view.why(next(iter(found)) if len(found) == 1 else what)
        self.terminal.show([Line(t) for line in lines
                            for t in wrap(line, width, len(line) - len(line.lstrip()) + 4)])


def _short(text: str) -> str:
    """What a person typed, cut short to be quoted back to them."""
    return text if len(text) <= 20 else text[:20] + "..."


SEATS_HELP = """\
A seat is one of:
  random                 picks any legal option
  greedy                 looks to the end of its own run of decisions, by the ruleset's heuristic
  mcts                   Monte Carlo tree search, the strongest: 0.1-0.6 s CPU a decision
  scout                  plans its turn across worlds; milliseconds a decision (balance runs)
  human                  a person at this terminal
  FILE.py:CLASS          your own agent class, e.g. examples/agents/flat_monte_carlo.py:FlatMonteCarlo
  MODULE:CLASS           the same from an importable module, e.g. mybots.cautious:CautiousAgent
Parameters follow the kind, each after a colon: mcts:iterations=400:depth=0, greedy:worlds=4,
mybots.cautious:CautiousAgent:risk=0.2. greedy takes worlds (default 1), tries (random play-outs
of the rest of its run of decisions, default 8) and steps (their length at most, default 40).
mcts takes iterations (default 200), depth (random moves after the tree before the heuristic
scores, default 20; 0 = play to the end), c (exploration, default 0.7), ms (also stop after
that many milliseconds a decision; engine play and serve set it from --think) and
score_weight (0 to 1: how much of its reward is its own score rather than its rank, default
0). scout takes lines (lines of its own decisions listed per
plan, default 24), worlds (worlds a plan is judged in, default 8), steps (its longest run, default
40), further (worlds to play options on in, when no plan tells them apart, default 2), playouts
(random play-outs to the end a decision instead of plans, default 0) and depth (a play-out's most
decisions, default 500). A ruleset may change these defaults for its game (bots:)."""


def _builtin_kinds() -> dict[str, Callable[..., Agent]]:
    from .scout import ScoutAgent
    from .search import GreedyAgent, MctsAgent  # the search bots load only when a seat asks
    return {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent, "scout": ScoutAgent}


# The largest number a seat's parameter takes: far beyond any useful search (a million worlds or
# iterations a decision), so that a typo such as worlds=100000000000 is refused, not played for ever.
MOST_PARAMETER = 1_000_000


def _number(seat: str, name: str, text: str) -> int | float | str:
    """A parameter's value: a number where it reads as one (finite, at most MOST_PARAMETER
    either way), else the text."""
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        if not math.isfinite(value) or abs(value) > MOST_PARAMETER:
            raise EngineError(f"seat '{_short(seat)}': {name}={_short(text)} is out of range; a parameter is a "
                              f"number from -{MOST_PARAMETER:,} to {MOST_PARAMETER:,}")
        return value
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
        params[name.strip()] = _number(text, name.strip(), value.strip())
    if not kind:
        raise EngineError(f"seat '{text}' names no kind of player")
    return kind, params


def built_in(seat: str) -> bool:
    """Is `seat` a built-in kind (human or a bot of the engine's), one that runs no code of
    anyone else's? A save's seats are taken only if they are: a save may come from anyone."""
    try:
        kind, _ = parse_seat(seat)
    except EngineError:
        return False
    return kind in (*_builtin_kinds(), "human")


def replay_seat(over: bool, seats: list[str] | None) -> int | None:
    """Whose table a replay shows unless told (None: the referee's): the referee's for a game
    that is `over`, else the first human seat's of `seats` (or seat 1's). An unfinished game's
    hidden cards are shown only when asked for: the one who replays may be one of its players."""
    if over:
        return None
    humans = [i for i, seat in enumerate(seats or [], 1) if built_in(seat) and parse_seat(seat)[0] == "human"]
    return humans[0] if humans else 1


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
    if not where.endswith(".py") and not all(part.isidentifier() for part in where.split(".")):
        raise EngineError(f"seat '{kind}': '{where}' is neither a FILE.py nor a module name such as my_bots.greedy")
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
    except SyntaxError as exc:
        raise EngineError(f"{exc.filename or where}:{exc.lineno or 1}:{exc.offset or 1}: error: {exc.msg} "
                          f"(seat '{kind}')") from None
    except Exception as exc:  # the agent's own code failed as it loaded: its fault, told in one line
        raise EngineError(f"seat '{kind}': loading {where} failed: {type(exc).__name__}: {exc}") from None
    found = getattr(module, class_name, None)
    if not isinstance(found, type):
        raise EngineError(f"seat '{kind}': {where} has no class {class_name}")
    if not callable(getattr(found, "choose", None)):
        raise EngineError(f"seat '{kind}': the class {class_name} has no method choose(view), which a player needs")
    return found


def make_agent(seat: str, seed: int, make_human: Callable[[], Agent] = HumanAgent,
               defaults: dict[str, dict[str, Any]] | None = None, isolation: Isolating | None = None,
               number: int = 0) -> Agent:
    """One agent from its seat text; a bot's class is called with `seed=`, the ruleset's
    `defaults` for its kind (`bots:`) and the seat's own parameters, which win. A seat that
    `isolation` isolates plays in a process of its own (isolation.py), as seat `number`."""
    kind, params = parse_seat(seat)
    if kind == "human":
        if params:
            raise EngineError("a human seat takes no parameters")
        return make_human()
    if isolation is not None and isolation.isolates(kind):
        return isolation.agent(seat, number, seed, defaults)
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
                defaults: dict[str, dict[str, Any]] | None = None, isolation: Isolating | None = None
                ) -> list[Agent]:
    """Agents for the seats (with the ruleset's `bots:` defaults, those `isolation` isolates in
    their own processes); each bot's seed is a keyed hash of `seed` and its seat (`seat_seed`)."""
    return [make_agent(seat, seat_seed(seed, i), make_human, defaults, isolation, i) for i, seat in enumerate(seats)]

"""Running one game: a small state interface in the manner of OpenSpiel.

`Game` holds the state of one game as plain data: the table (core/table.py), the random generator,
the program's frames (core/program.py), the pending decision, the log and the decisions taken. The
program runs until a player must choose; `legal_actions()` lists the options by index and
`apply(i)` resumes it. All randomness comes from one `random.Random(seed)`, so ruleset +
options + seed + the decisions taken reproduce a game exactly.

Because the state is data, a game can be cloned, saved as JSON and restored, and dealt again
as one player sees it (`determinize`), in time proportional to the table, not the history.
"""
from __future__ import annotations

import hashlib
import random
from copy import deepcopy
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterator

from ..core.errors import EffectError, EngineError, IllegalMove, SaveError
from ..core.limits import STEP_BUDGET, TOO_LONG, LimitError
from ..core.program import CATCH, EMIT, SUSPENDED, Arrange, EndGame, Frame
from ..core.table import Card, Player, Table, Zone
from ..core.text import Text, card_text
from ..core.values import Copier, Decoder, Encoder, frozen, shareable, spell
from ..lang.compiler import evaluate, locate
from ..rules import scoring
from ..rules.ruleset import Ruleset
from .chance import ChanceDecision, Explicit, NeedChance
from .chance import pick as pick_explicit
from .chance import shuffle as shuffle_explicit
from .clock import check as check_clock
from .together import Together

MAX_FRAMES = 5_000  # procedures and triggers running at once (inside each other)
CHECKPOINT_EVERY = 100  # decisions between the copies a failed move is restored from
SNAPSHOT_FORMAT = "engine-state/1"


@dataclass
class Decision:
    """A point where `player` must pick one of `options`; the prompt is a list of parts."""

    player: Player
    options: list[Any]
    prompt: tuple


@dataclass(frozen=True)
class LogEntry:
    """One line of the game log; each part is (value, players who may see it, or None for all).
    A value is a card, a one-card Text (a card's label or name) or a value naming no card."""

    parts: tuple[tuple[Any, frozenset[int] | None], ...]

    @cached_property
    def private(self) -> bool:
        """Whether a part of it was hidden from someone when it was logged (most lines: no).
        Worked out once: a search bot's every world reads the whole log through it."""
        return any(seen is not None for _, seen in self.parts)

    def kept_from(self, player: int) -> bool:
        """Whether the line is not `player`'s to read at all: a part of it that names no card
        is kept from them (a line `log_to` others; any other line shows all such parts to all)."""
        return any(seen is not None and player not in seen and type(v) is not Card and type(v) is not Text
                   for v, seen in self.parts)


@dataclass(frozen=True)
class Forced:
    """A choice `player` did not make, `value` being the only option, after `at` log lines."""

    at: int
    player: Player
    value: Any
    prompt: tuple


_NOTHING = object()


class Game:
    """One game of a ruleset, from setup to scores."""

    def __init__(self, ruleset: Ruleset, players: int, options: dict[str, Any] | None = None,
                 seed: int = 0, decisions: list[int] | None = None,
                 arrange: Callable[[Game], None] | None = None, keep_log: bool = True,
                 rewind: bool = True, start: dict[Card, Card] | None = None,
                 chance: random.Random | str | None = None, ask_single: bool = False):
        """Set up a game and run it to its first decision, then replay `decisions`.

        `arrange`, for tests and puzzles, is called after setup and before the flow starts, to
        put the table into a chosen position (a game so arranged is not reproducible from a save).
        `start` puts card `start[c]` where card `c` starts, before setup (each starting where the
        other does): a deal no seed need give, for the candidate worlds of game/belief.py and
        for tests; like `arrange`, it is kept with the game but not in a save. `chance` is the
        random generator to draw from instead of `random.Random(seed)` (game/belief.py replays
        a history through one that deals its shuffles), or "explicit": the game draws nothing
        and waits at each draw for `apply_chance` (game/chance.py; "seeded", the default, draws
        from the seed).
        With `ask_single`, a decision of one option is asked as any other (by default the rules
        take it without asking: a solver counting positions may want it a position).
        Without `keep_log` the game writes no log: for simulations and searches nobody reads.
        Without `rewind` it keeps no checkpoints, so a move that makes a rule fail leaves the game
        as the fault left it: for simulations, which stop at a fault."""
        if players not in ruleset.players:
            raise IllegalMove(f"{ruleset.name} is for {', '.join(map(str, ruleset.players))} players, "
                              f"not {players}")
        self.rules = ruleset
        self.seed = seed
        self.options = dict(options) if options is not None else ruleset.resolve_options({}, players)
        self.players = [Player(i) for i in range(1, players + 1)]
        if isinstance(chance, str) and chance not in ("explicit", "seeded"):
            raise ValueError(f"chance is 'seeded' or 'explicit', not {chance!r}")
        self._explicit: Explicit | None = Explicit() if chance == "explicit" else None
        self._rng: random.Random | None = chance if isinstance(chance, random.Random) else random.Random(seed)
        self._rng_state: tuple | None = None
        layout = ruleset.layout(players)
        self.table = Table(layout, Copier(self)(layout.counters))
        self.start = start
        if start:
            self.table.put_all([[start.get(c, c) for c in held] for held in self.table.contents])
        self.log: list[LogEntry] = []
        self.forced: list[Forced] = []
        self.decisions: list[int] = []
        self.pending: Decision | None = None
        self.together: Together | None = None  # the open simultaneous step (game/together.py)
        self.over = False
        self.end_reason: str | None = None  # why the game ended, once it has (see end())
        self.steps = 0
        self.arrange = arrange
        self.keep_log = keep_log
        self.ask_single = ask_single
        self.rewind = rewind
        self.frames: list[Frame] = [Frame(ruleset.main, 0, {})]
        self._checkpoint: Game | None = None
        if self._explicit is None:
            self._run()
        else:
            self._chance_run(None)
        for index in decisions or []:
            self.apply(index)

    # ------------------------------------------------------------ the state interface

    @property
    def rng(self) -> random.Random:
        """The game's random generator. Copies of a game share the state it was in (a tuple)
        until one of them draws: a copy costs nothing for the many that never draw."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random.__new__(random.Random)
            rng.setstate(self._rng_state)
            self._rng_state = None
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng, self._rng_state = rng, None

    def _shared_rng_state(self) -> tuple:
        if self._rng is not None:
            self._rng_state, self._rng = self._rng.getstate(), None
        return self._rng_state

    @property
    def current_player(self) -> Player | None:
        return self.pending.player if self.pending else None

    def legal_actions(self) -> list[int]:
        """Indexes of the options of the pending decision (empty when the game is over)."""
        return list(range(len(self.pending.options))) if self.pending else []

    def apply(self, index: int) -> None:
        """Take option `index` of the pending decision. A refused move changes nothing. Work
        under a time limit (a search, a replay: clock.py) stops here once it is spent."""
        check_clock()
        if self.over or self.pending is None:
            raise IllegalMove("the game waits for chance (apply_chance), not for a player"
                              if self.chance_decision() is not None else "the game is over; no more decisions")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.pending.options):
            raise IllegalMove(f"option {index!r} is not legal here; choose 0 to {len(self.pending.options) - 1}")
        if self._explicit is not None:
            self._chance_run(index)
            return
        if self.rewind and (self._checkpoint is None
                            or len(self.decisions) - len(self._checkpoint.decisions) >= CHECKPOINT_EVERY):
            self._checkpoint = self._copy()
        try:
            self._answer(index)
        except EffectError:
            if self.rewind:
                self._rewind(len(self.decisions) - 1)
            raise

    def _answer(self, index: int) -> None:
        """Give the pending decision option `index` and run the rules on from it."""
        value = self.pending.options[index]
        step = self.together
        if step is not None:  # a simultaneous step: the rules go on once all have answered
            step.answers[step.open_for(self.pending.player)] = index
        self.decisions.append(index)
        self.pending = None
        self.steps = 0
        if step is not None:
            if self._ask_next(step):
                return
            value, self.together = step.result(), None
        self._run(value)

    # ------------------------------------------------------------ explicit chance (game/chance.py)

    def shuffle(self, cards: list) -> None:
        """Put `cards` (a zone's list) in random order: from the seed, or as chance decides."""
        if self._explicit is None:
            self.rng.shuffle(cards)
        else:
            shuffle_explicit(self._explicit, cards)

    def pick(self, values: list) -> Any:
        """One of `values` at random: from the seed (as `random.choice` draws), or as chance decides."""
        if self._explicit is None:
            return self.rng.choice(values)
        return pick_explicit(self._explicit, values)

    @property
    def explicit_chance(self) -> bool:
        """Whether the game was made with `chance="explicit"`: its draws are not its seed's, so
        it is not replayed from its seed and decisions (game/belief.py deals its worlds as
        `determinize` does)."""
        return self._explicit is not None

    def chance_decision(self) -> ChanceDecision | None:
        """What a game with explicit chance waits for nature to decide, if it does (no player
        is asked meanwhile: `pending` is None)."""
        return self._explicit.pending if self._explicit is not None else None

    def apply_chance(self, index: int) -> None:
        """Take outcome `index` of the chance decision and go on to the next decision (of a
        player or of chance). A refused outcome changes nothing."""
        check_clock()
        decision = self.chance_decision()
        if decision is None:
            raise IllegalMove("the game waits for no chance outcome now")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(decision.outcomes):
            raise IllegalMove(f"outcome {index!r} is not one of this draw's; choose 0 to {len(decision.outcomes) - 1}")
        ex = self._explicit
        before, base, answer, feed = self._copy(), ex.base, ex.answer, [*ex.feed, index]
        self.restore(base)
        try:
            self._chance_run(answer, feed, base)
        except EffectError:
            self.restore(before)
            raise

    def _chance_run(self, answer: int | None, feed: list[int] = (), base: Game | None = None) -> None:
        """Run the rules on with explicit chance from this position, `base` (taken now if not
        given): setup (`answer` None) or the pending decision answered `answer`, each draw taking
        the next outcome of `feed`, up to the next decision or a draw of no given outcome."""
        if base is None:
            base = self._copy()
            base._explicit = Explicit()
        ex = self._explicit
        ex.base, ex.answer, ex.feed, ex.used, ex.pending = base, answer, list(feed), 0, None
        try:
            if answer is None:
                self._run()
            else:
                self._answer(answer)
        except NeedChance:
            return
        except EffectError:
            self.restore(base)
            raise
        ex.base, ex.answer, ex.feed = None, None, []

    def _rewind(self, count: int) -> None:
        """Put the game back as it was after its first `count` decisions: the last checkpoint,
        then the decisions taken after it, replayed."""
        checkpoint, decisions = self._checkpoint, self.decisions[:count]
        self.restore(checkpoint)
        self._checkpoint = checkpoint
        for index in decisions[len(self.decisions):]:
            self.apply(index)

    # ------------------------------------------------------------ running the program

    def _run(self, answer: Any = _NOTHING) -> None:
        """Run the program (after giving the waiting instruction `answer`) until a player must
        choose or the game ends."""
        try:
            self._execute(0, answer)
        except EndGame as stop:
            self.frames.clear()
            self.end_reason = stop.reason
        if not self.frames:
            self.over = True

    def _execute(self, depth: int, answer: Any = _NOTHING) -> None:
        """Run instructions while more than `depth` frames are running and nobody is asked;
        a fault becomes an error located at the statement running."""
        frames = self.frames
        try:
            if answer is not _NOTHING:
                frame = frames[-1]
                frame.code.ops[frame.pc].resume(self, frame, answer)
            while len(frames) > depth and self.pending is None:
                frame = frames[-1]
                frame.code.ops[frame.pc].run(self, frame)
        except Exception as exc:
            located = self._locate(exc)
            if located is None:
                raise
            raise self.public_error(located) from None

    def _locate(self, exc: Exception) -> EffectError | None:
        """A fault inside an instruction is reported at the innermost statement running (None:
        raise it as it is; so does a fault of the arrange hook, which is no rule's)."""
        for frame in reversed(self.frames):
            op = frame.code.ops[frame.pc]
            if op.loc is not None:
                return locate(exc, op.loc, op.rule)
        return locate(exc, None, "")

    def run_procedure(self, name: str, args: list[Any]) -> Any:
        """Run a procedure of the ruleset to its end, from Python (an `arrange` hook, a test),
        and return its value. It must not ask a player."""
        frames = self.frames
        depth = len(frames)
        catch = Frame(CATCH, 0, {})
        frames.append(catch)
        waiting, self.pending = self.pending, None
        step, self.together = self.together, None
        try:
            self.call_procedure(name, args)
            self._execute(depth)
            if self.pending is not None:
                raise EffectError(f"procedure {name} asked a player; run_procedure() is for procedures that do not")
        finally:
            del frames[depth:]
            self.pending, self.together = waiting, step
        return catch.env["value"]

    def leave(self, value: Any) -> None:
        """The running frame returns `value` to the instruction that called it."""
        frames = self.frames
        frames.pop()
        if frames:
            caller = frames[-1]
            caller.code.ops[caller.pc].resume(self, caller, value)

    # ------------------------------------------------------------ services for compiled rules

    def ask(self, player: Any, options: list[Any], prompt: tuple) -> object:
        """Make `player` choose one of `options`; the game waits until `apply`."""
        if not isinstance(player, int) or isinstance(player, bool) or not 1 <= player <= len(self.players):
            raise EffectError("choose() needs a player, got " + card_text(player))
        self.pending = Decision(Player(player), options, prompt)
        return SUSPENDED

    def ask_each(self, players: list[Any], options: list[list[Any]], prompts: list[tuple]) -> Any:
        """Make `players` (in seat order, each once) choose at once, each one of their `options`
        (computed before anyone answers); the game waits until the last has answered, then the
        rules get a table player -> answer (game/together.py). A player with one option answers
        it at once, told as a forced choice; if all have one, nothing is asked."""
        seats: list[Player] = []
        for p in players:
            if not isinstance(p, int) or isinstance(p, bool) or not 1 <= p <= len(self.players):
                raise EffectError("a simultaneous choice needs players, got " + card_text(p))
            if p in seats:
                raise EffectError(f"a simultaneous choice asks each player once; {Player(p)} is named twice")
            seats.append(Player(p))
        order = sorted(range(len(seats)), key=lambda i: seats[i])
        step = Together([seats[i] for i in order], [options[i] for i in order], [prompts[i] for i in order],
                        [None] * len(seats), len(self.decisions))
        for i, (p, values) in enumerate(zip(step.players, step.options)):
            if not values:
                raise EffectError(f"a simultaneous choice has no option to offer {p}")
            if len(values) == 1 and not self.ask_single:
                step.answers[i] = 0
                if self.keep_log:
                    self.force(p, values[0], step.prompts[i])
        if self._ask_next(step):
            self.together = step
            return SUSPENDED
        return step.result()

    def _ask_next(self, step: Together) -> bool:
        """Ask the first player of the step who has yet to answer; False if none has."""
        for p, values, prompt, answer in zip(step.players, step.options, step.prompts, step.answers):
            if answer is None:
                self.pending = Decision(p, values, prompt)
                return True
        return False

    def withdrawn(self) -> Game:
        """This game as its open simultaneous step began, the answers given in it taken back
        (a copy; the game itself when no answer was given): what a save holds, since nothing
        readable by a player may tell an answer before the step is over. Nothing runs during a
        step, so this is exactly the position at its start."""
        step = self.together
        if step is None or step.start == len(self.decisions):
            return self
        other = self._copy()
        other.together, other.decisions = step.withdrawn(), other.decisions[:step.start]
        other._ask_next(other.together)
        return other

    def decision_of(self, player: int) -> Decision | None:
        """The decision `player` has to make now: the pending one if it is theirs, else theirs
        in the open simultaneous step if they have yet to answer it (asked after those before
        them in seat order, but already theirs to see)."""
        d = self.pending
        if d is None or d.player == player:
            return d
        step = self.together
        i = step.open_for(player) if step is not None else None
        return None if i is None else Decision(step.players[i], step.options[i], step.prompts[i])

    def force(self, player: Any, value: Any, prompt: tuple) -> None:
        """Note that `player` had `value` as their only option (choose() then asks nothing),
        to tell them so; choose() calls it only when the game keeps its log."""
        if isinstance(player, int):
            self.forced.append(Forced(len(self.log), Player(player), value, prompt))

    def end(self, reason: str) -> None:
        """Stop the game at once, wherever it is (end_game()); `reason` becomes its end_reason."""
        raise EndGame(reason)

    def record(self, parts: tuple, to: frozenset[int] | None = None) -> None:
        """Log a line; each card in it (and each card's label or name in a Text) keeps who could
        see it at this moment. Lists and tables are spelt out (`spell`): the log holds no value
        that changes, and no function of this game. A line `to` some players only keeps that
        every part of it is theirs alone (`LogEntry.kept_from`)."""
        if not self.keep_log:
            return
        if to is not None:
            self._record_to(parts, to)
            return
        flat: list[Any] = []
        for part in parts:
            t = type(part)
            if t is str or t is Player or t is Card or t is int:  # most parts: as they are, without a call
                flat.append(part)
            else:
                spell(part, flat)
        who_sees = self.who_sees
        # Who may see each part: a card, the card of a one-card Text; anything else, all (None).
        self.log.append(LogEntry(tuple([(p, who_sees(p) if type(p) is Card else who_sees(p.parts[0][0])
                                         if type(p) is Text else None) for p in flat])))

    def _record_to(self, parts: tuple, to: frozenset[int]) -> None:
        flat: list[Any] = [""]  # a part that names no card, kept from the others: the line is not theirs
        for part in parts:
            if type(part) in (str, Player, Card, int):
                flat.append(part)
            else:
                spell(part, flat)
        who_sees = self.who_sees

        def seen(p: Any) -> frozenset[int]:
            card = p if type(p) is Card else p.parts[0][0] if type(p) is Text else None
            everyone = None if card is None else who_sees(card)
            return to if everyone is None else to & everyone
        self.log.append(LogEntry(tuple((p, seen(p)) for p in flat)))

    def public_error(self, error: EffectError) -> EffectError:
        """The error as every player may read it, since it is shown to all of them: a card it
        names (through a Text) is told only if everyone may see it now, and no person's screen
        must keep it from them (`Table.unshown`), else it reads as its back. Every error of a
        rule leaves the game through here (`_execute`, `evaluate`)."""
        if type(error.message) is not Text:
            return error
        table = self.table
        told = error.message.reads(lambda card: self.who_sees(card) is None
                                   and not any(table.unshown(card, p) for p in self.players))
        return EffectError(told, error.location, error.rule)

    def who_sees(self, card: Card) -> frozenset[int] | None:
        """The players who may see this card now; None means everyone."""
        can_see = self.table.can_see
        seeing = frozenset([p for p in self.players if can_see(card, p)])
        return None if len(seeing) == len(self.players) else seeing

    def call_function(self, name: str, args: list[Any]) -> Any:
        """A function of the ruleset, with its modifiers, from Python."""
        return self.rules.calls[name](self, *args)

    def push(self, frame: Frame) -> object:
        """Start running a frame (a procedure, a trigger, the emit driver) inside the current one."""
        if len(self.frames) >= MAX_FRAMES:
            raise EffectError(f"rules call each other too deeply (more than {MAX_FRAMES} procedures and "
                              "triggers running inside each other): endless recursion?")
        self.steps += 1  # a call is a step: a procedure calling itself twice must end too
        if self.steps > STEP_BUDGET:
            raise LimitError(TOO_LONG)
        self.frames.append(frame)
        return SUSPENDED

    def call_procedure(self, name: str, args: list[Any]) -> object:
        procedure = self.rules.procedures[name]
        return self.push(Frame(procedure.code, 0, dict(zip(procedure.params, args))))

    def fire(self, event: Any, args: tuple) -> object:
        """Run the triggers listening to `event`, through the emit driver's frame."""
        if not self.rules.triggers.get(event):
            return None
        return self.push(Frame(EMIT, 0, {"event": event, "args": list(args), "t": 0, "sources": None, "s": 0}))

    # ------------------------------------------------------------ copies

    @property
    def setting_up(self) -> bool:
        """Whether the ruleset's setup is still running (waiting on a player's answer), so that
        the `arrange` hook has not run yet."""
        return bool(self.frames) and not any(type(op) is Arrange for op in self.frames[0].code.ops[:self.frames[0].pc])

    def set_up(self) -> None:
        """Setup is over (and the arrange hook has run): the counters no rule can change any more
        (`Ruleset.fixed_counters`) are shared by the copies made from now on, not copied. Which
        lists and tables those are is found at the first copy (most games are never copied)."""
        self.table.shared = None

    def clone(self) -> Game:
        """An independent copy: nothing done to one ever changes the other (the lists and tables
        of counters no rule can change after setup are shared: Python code must not change them)."""
        return self._copy()

    def restore(self, other: Game) -> None:
        """Become a copy of `other`, a clone of this game taken earlier (to take moves back)."""
        if other.rules is not self.rules or len(other.players) != len(self.players):
            raise IllegalMove("restore() takes a copy of a game of the same ruleset and players")
        other._copy(into=self)

    def _copy(self, cards: dict[Card, Card] | None = None, zones: dict[Zone, Zone] | None = None,
              into: Game | None = None) -> Game:
        """A copy of the state (in a new game, or `into` another game object), with every card
        `c` of `cards` read as `cards[c]` (and a zone of a card as the same zone of the card it
        becomes) everywhere but in the log. Function values in it are bound to the copy."""
        other = into if into is not None else Game.__new__(Game)
        if self.table.shared is None:
            self.table.shared = shareable(self.table.counters, self.rules.fixed_counters)
        copy = Copier(other, cards, zones, self.table.shared)
        other.rules, other.seed, other.options, other.players = self.rules, self.seed, self.options, self.players
        counters = copy(self.table.counters)
        other.table = self.table.copy(counters) if cards is None else self.table.relabelled(cards, zones, counters)
        other._rng, other._rng_state = None, self._shared_rng_state()
        other._explicit = None if self._explicit is None else self._explicit.copy()
        other.log = list(self.log)
        other.forced = list(self.forced)
        other.decisions = list(self.decisions)
        other.pending = None if self.pending is None else Decision(
            self.pending.player, copy(self.pending.options), copy(self.pending.prompt))
        other.together = None if self.together is None else self.together.copy(copy)
        other.over, other.end_reason = self.over, self.end_reason
        other.steps = self.steps
        other.arrange, other.start = self.arrange, self.start
        other.keep_log, other.rewind = self.keep_log, self.rewind
        other.ask_single = self.ask_single
        other.frames = [Frame(f.code, f.pc, copy(f.env)) for f in self.frames]
        other._checkpoint = None
        return other

    def hidden(self, player: int) -> list[list[Card]]:
        """The cards `player` can neither see nor remember, by their look (their backs: what the
        player's view shows of them, whatever their kinds), each group in the order of their
        places: what `determinize` deals again."""
        if not isinstance(player, int) or not 1 <= player <= len(self.players):
            raise IllegalMove(f"hidden() and determinize() need a player from 1 to {len(self.players)}, not {player!r}")
        table = self.table
        groups: dict[tuple, list[Card]] = {}
        for card in self._places():
            if not table.can_see(card, player):
                groups.setdefault(card.look, []).append(card)
        return list(groups.values())

    def determinize(self, player: int, seed: int, log: bool = True, hidden: list[list[Card]] | None = None) -> Game:
        """A world `player` cannot tell from this one: every card they can neither see nor
        remember is dealt again at random among the places of such cards (a card only where a
        card with the same back was, whatever its kind: the player sees only backs), everywhere in the state but the log; what is
        at each place (face down, who else remembers it) stays. Its random generator is new,
        from `seed`, so nothing about future draws carries over. view(world, player) equals
        view(game, player).

        Nothing of the hidden truth survives: the deal depends only on the places and the seed
        (not on which card was where), the world's seed is `seed`, it has no past decisions,
        and in its log a card this player did not see is a stand-in with the same back. Without
        `log` the world has no past log at all (nor forced choices): for searches, which read
        none, it saves rewriting it. `hidden`: `hidden(player)` at this position, if known (a
        search deals many worlds at one position)."""
        rng = random.Random(seed)
        cards: dict[Card, Card] = {}
        for group in hidden if hidden is not None else self.hidden(player):
            dealt = sorted(group, key=lambda c: c.index)
            rng.shuffle(dealt)
            cards.update((a, b) for a, b in zip(group, dealt) if a is not b)
        return self.dealt(player, cards, random.Random(rng.getrandbits(64)), seed, log)

    def dealt(self, player: int, cards: dict[Card, Card], rng: random.Random, seed: int,
              log: bool = True, secrets: dict[str, Any] | None = None) -> Game:
        """The world of `determinize` in which each card `c` of `cards` (cards `player` can
        neither see nor remember) is read as `cards[c]`: its generator `rng`, its seed `seed`, no
        past decisions, and the log as `player` was told it (or none). The answers other players
        gave in an open simultaneous step are drawn again from `rng` among their options: this
        player was told none of them. So is another's value of a counter of `visibility: owner`:
        it is theirs in `secrets["counters"]` (name -> player -> value, what game/belief.py's
        candidate made of it), else the counter's initial value. `secrets["frames"]`, the
        candidate's frames (code, place, its locals that hold no card), gives the locals of the
        rules running, where the frames are the same: they may hold what the player was not
        told (a table of answers). The deal is the caller's (determinize, game/belief.py): it
        must depend on nothing `player` may not know."""
        table = self.table
        zones: dict[Zone, Zone] = {}
        for name, spec in self.rules.zones.items():
            if spec.per == "card":
                family = table.zones[name]
                zones.update((family[a], family[b]) for a, b in cards.items())
        if self.chance_decision() is not None:
            raise IllegalMove("a game that waits for chance cannot be dealt again; give it its outcome first")
        world = self._copy(cards, zones)
        world._explicit = None  # a world draws from its own generator
        secrets = secrets or {}
        for name in self.rules.hidden_counters:  # a new table: it may be one the copies share
            initial, given = self.rules.counters[name].initial, secrets.get("counters", {}).get(name, {})
            world.table.counters[name] = {p: v if p == player else Copier(world)(given[p]) if p in given
                                          else deepcopy(initial) for p, v in world.table.counters[name].items()}
        frames = secrets.get("frames")
        if frames is not None and len(frames) == len(world.frames) and all(
                f.code.id == code and f.pc == pc for f, (code, pc, _) in zip(world.frames, frames)):
            copy = Copier(world)
            for f, (_, _, plain) in zip(world.frames, frames):
                f.env.update((name, copy(value)) for name, value in plain.items())
        if world.together is not None:
            world._step_again(player, rng)
        world.rng = rng
        world.seed, world.decisions, world.start = seed, [], None
        if not log:
            world.log, world.forced = [], []
            return world
        stand_in: dict[tuple, Card] = {}
        for card in table.cards:
            stand_in.setdefault(card.look, card)
        world.log = [_told(entry, player, stand_in) if entry.private else entry for entry in self.log]

        def sees(card: Card) -> bool:
            return table.can_see(card, player)

        def told(f: Forced) -> Forced:  # a forced choice as `player` sees it now (most name no card)
            if all(type(v) is not Card and type(v) is not Text for v in (f.value, *f.prompt)):
                return f
            return Forced(f.at, f.player, _stand_ins(f.value, stand_in, sees),
                          tuple(_stand_ins(v, stand_in, sees) for v in f.prompt))
        world.forced = [told(f) for f in self.forced if f.player == player]
        return world

    def _step_again(self, player: int, rng: random.Random) -> None:
        """In a world dealt for `player`: its open step begun again on the world's own table, so
        that another's options and prompt are what the world gives them (the real game's could
        tell a hidden counter of theirs), and the answers others gave drawn again among them;
        the player's own options, prompt and answer stay as they were shown to them."""
        real, frame, asked = self.together, self.frames[-1], self.pending
        forced, steps = self.forced, self.steps
        self.together = self.pending = None
        try:
            started = frame.code.ops[frame.pc].start(self, frame.env)
        except EngineError:  # the world's rules cannot ask it: the step as it was (drawn again below)
            started = None
        self.forced, self.steps = forced, steps
        step = self.together if started is SUSPENDED and self.together is not None \
            and self.together.players == real.players else real
        me = step.seat(player)
        for i in range(len(step.players)):
            if i == me:
                step.options[i], step.prompts[i], step.answers[i] = real.options[i], real.prompts[i], real.answers[i]
            elif real.answers[i] is None:
                step.answers[i] = None if len(step.options[i]) > 1 else 0
            else:
                step.answers[i] = rng.randrange(len(step.options[i]))
        step.start = 0
        self.together = step
        if not self._ask_next(step):  # all answered in the world (forced there): the real one asks
            step.answers[next(i for i, a in enumerate(real.answers) if a is None)] = None
            self._ask_next(step)
        if self.pending.player == asked.player == player:
            self.pending = asked  # the decision as the player is asked it (engine cards may narrow it)

    def _places(self) -> Iterator[Card]:
        """Every card, in the order of the places they are at: each zone's cards in order, a
        card's own zones right after it, so the order does not depend on which card is where."""
        table = self.table
        own = [table.zones[name] for name, spec in self.rules.zones.items() if spec.per == "card"]

        contents = table.contents

        def walk(zone: Zone) -> Iterator[Card]:
            for card in contents[zone.index]:
                yield card
                for family in own:
                    inside = family[card]
                    if contents[inside.index]:  # most of a card's own zones are empty
                        yield from walk(inside)
        for zone in table.all_zones():
            if zone.holder is None:
                yield from walk(zone)

    def state_key(self) -> int:
        """A hash of the table and of where the program is, for transposition tables (stable
        within one process; the log, the decisions, the random generator and the marks of
        `conceal`, which change only what a person's screen shows, are left out)."""
        t = self.table
        return hash((tuple(map(tuple, t.contents)), tuple(t.face_down), tuple(t.known), frozen(t.counters),
                     tuple((f.code.id, f.pc, frozen(f.env)) for f in self.frames),
                     self.pending.player if self.pending else None, self.over, self.end_reason,
                     self.together.key() if self.together is not None else None))

    # ------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; `Game.from_snapshot` makes a game of it that goes
        on exactly as this one would. A game waiting for chance is saved as the position its
        stretch of rules began at, with the answer that started it and the outcomes given since."""
        ex = self._explicit
        data = self._snapshot() if ex is None or ex.pending is None else ex.base._snapshot()
        if ex is not None:
            data["chance"] = {"mode": "explicit"} if ex.pending is None else {
                "mode": "explicit", "answer": ex.answer, "drawn": list(ex.feed)}
        if self.ask_single:
            data["ask_single"] = True
        return data

    def _snapshot(self) -> dict[str, Any]:
        table, enc = self.table, Encoder()
        log = [[(v, sorted(seen) if seen is not None else None) for v, seen in e.parts] for e in self.log]
        pending = self.pending
        roots = [table.counters, [f.env for f in self.frames], [v for e in log for v, _ in e]]
        if pending is not None:
            roots += [pending.options, pending.prompt]
        step = self.together
        if step is not None:
            roots += [step.options, step.prompts]
        for root in roots:
            enc.see(root)
        version, internal, gauss = self._shared_rng_state()
        return {
            "format": SNAPSHOT_FORMAT,
            "ruleset": self.rules.name,
            "ruleset_sha256": self.rules.digest,
            "players": len(self.players),
            "options": dict(self.options),
            "seed": self.seed,
            "decisions": list(self.decisions),
            "over": self.over,
            "end_reason": self.end_reason,
            "table": {
                "zones": [[c.id for c in cards] for cards in table.contents],
                "face_down": [c.id for c in table.cards if table.face_down[c.index]],
                "known": {str(c.id): table.remembered_by(c) for c in table.cards if table.known[c.index]},
                "concealed": {str(c.id): table.concealed_from(c) for c in table.cards if table.concealed[c.index]},
                "counters": enc.encode(table.counters),
            },
            "rng": [version, list(internal), gauss],
            "program": [{"code": f.code.id, "pc": f.pc, "locals": enc.encode(f.env)} for f in self.frames],
            "pending": None if pending is None else {
                "player": int(pending.player), "options": enc.encode(pending.options),
                "prompt": enc.encode(list(pending.prompt))},
            "log": [[[enc.encode(v), seen] for v, seen in entry] for entry in log],
            "together": None if step is None else {
                "players": [int(p) for p in step.players], "options": enc.encode(step.options),
                "prompts": enc.encode([list(p) for p in step.prompts]), "answers": list(step.answers),
                "start": step.start},
        }

    @classmethod
    def from_snapshot(cls, ruleset: Ruleset, data: dict[str, Any]) -> Game:
        """The game a snapshot describes. A snapshot of another ruleset (or of a changed one) is
        refused; damaged data raises SaveError."""
        if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
            raise SaveError(f"not a game state of this engine (expected format '{SNAPSHOT_FORMAT}')")
        if data.get("ruleset_sha256") != ruleset.digest:
            raise SaveError(f"this state is of {data.get('ruleset')!r} as it was when saved, and the ruleset "
                            f"{ruleset.path} ({ruleset.name}) differs from it; load the ruleset (and the "
                            "--with files) it was saved with")
        try:
            return cls._restore(ruleset, data)
        except SaveError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise SaveError(f"the saved state is damaged ({exc.__class__.__name__}: {exc})") from None

    @classmethod
    def _restore(cls, ruleset: Ruleset, data: dict[str, Any]) -> Game:
        players = data["players"]
        if players not in ruleset.players:
            raise SaveError(f"the saved state is for {players!r} players, which {ruleset.name} does not allow")
        if type(data["seed"]) is not int:
            raise SaveError(f"the saved state's seed {data['seed']!r} is not a whole number")
        try:
            options = ruleset.resolve_options({k: str(v) for k, v in data["options"].items()}, players)
        except ValueError as exc:
            raise SaveError(f"the saved state's options do not suit this ruleset: {exc}") from None
        g = cls.__new__(cls)
        g.rules, g.seed, g.options = ruleset, data["seed"], options
        g.players = [Player(i) for i in range(1, players + 1)]
        layout = ruleset.layout(players)
        g.table = Table(layout, {})
        dec = Decoder(g)
        saved = data["table"]
        if len(saved["zones"]) != len(layout.zone_list):
            raise SaveError("the saved state has a different number of zones than this ruleset")
        placed = [dec.lookup(layout.cards, i, "card", 1) for ids in saved["zones"] for i in ids]
        if sorted(c.id for c in placed) != [c.id for c in layout.cards]:
            raise SaveError("the saved state does not hold every card exactly once")
        g.table.put_all([[layout.cards[i - 1] for i in ids] for ids in saved["zones"]])
        for i in saved["face_down"]:
            g.table.face_down[dec.lookup(layout.cards, i, "card", 1).index] = True
        for i, seers in saved["known"].items():
            card = dec.lookup(layout.cards, int(i), "card", 1)
            for p in seers:
                g.table.reveal(card, dec.lookup(g.players, p, "player", 1))
        for i, hidden_from in saved.get("concealed", {}).items():  # none in snapshots made before conceal marks
            card = dec.lookup(layout.cards, int(i), "card", 1)
            for p in hidden_from:
                g.table.conceal(card, dec.lookup(g.players, p, "player", 1))
        g.table.counters = dec.decode(saved["counters"])
        version, internal, gauss = data["rng"]
        g.rng = random.Random.__new__(random.Random)
        g.rng.setstate((version, tuple(internal), gauss))
        g.frames = []
        for f in data["program"]:
            code = ruleset.codes.get(f["code"])
            if code is None or type(f["pc"]) is not int or not 0 <= f["pc"] < len(code.ops):
                raise SaveError(f"the saved state is at a place ({f['code']!r}, {f['pc']!r}) this ruleset "
                                "does not have")
            g.frames.append(Frame(code, f["pc"], dec.decode(f["locals"])))
        pending = data["pending"]
        g.pending = None if pending is None else Decision(
            Player(dec.lookup(g.players, pending["player"], "player", 1)), dec.decode(pending["options"]),
            tuple(dec.decode(pending["prompt"])))
        g.together = _step(g, dec, data.get("together"))  # absent from snapshots made before steps
        g.forced = []  # not saved: only what a person is told of their own forced choices
        g.log = [LogEntry(tuple((dec.decode(v), None if seen is None else frozenset(seen)) for v, seen in entry))
                 for entry in data["log"]]
        g.decisions = [int(d) for d in data["decisions"]]
        g.over = bool(data["over"])
        g.end_reason = data.get("end_reason")  # absent from snapshots made before end reasons
        if g.end_reason is not None and type(g.end_reason) is not str:
            raise SaveError(f"the saved state's end_reason {g.end_reason!r} is not a string")
        g.steps = 0
        g.arrange = g.start = None
        g.keep_log = g.rewind = True
        g.ask_single = data.get("ask_single", False) is True  # saved only when set
        g._checkpoint = None
        chance = data.get("chance")  # absent from snapshots of games drawing from their seed
        g._explicit = None if chance is None else Explicit()
        if chance is not None and "drawn" in chance:
            return _waiting_for_chance(g, chance)
        if not g.over and (g.pending is None or not g.frames or not g.pending.options):
            raise SaveError("the saved state is neither finished nor waiting for a decision")
        if not g.setting_up:
            g.set_up()  # saved after setup: its copies share what no rule changes any more
        return g

    # ------------------------------------------------------------ results

    def scores(self) -> dict[Player, Any]:
        """Each player's score by the ruleset's scoring; with teams, a team's sum for each member."""
        return scoring.checked_scores(self._by_team(self.rules.score), self.rules)

    def breakdown(self, scores: dict[Player, Any] | None = None) -> dict[Player, dict[str, Any]]:
        """Each player's own score by the named parts of the ruleset's `scoring.breakdown`
        (before team sums; empty without parts), checked to add up to their score (`scores`:
        the game's scores, if already known, spare evaluating them again)."""
        return scoring.breakdown(self, scores)

    def estimates(self) -> dict[Player, Any]:
        """Each player's standing by the ruleset's `heuristic` (default: its score), summed by
        team as scores are: what search bots maximise before a game is over."""
        return self._by_team(self.rules.heuristic or self.rules.score)

    def _by_team(self, expression: Any) -> dict[Player, Any]:
        own = {p: evaluate(expression, self, {"player": p}) for p in self.players}
        teams = self.team_groups()
        if not teams:
            return own
        result = dict(own)
        for group in teams:
            total = sum(own[p] for p in self.players if p in group)
            for p in group:
                if p in result:
                    result[Player(p)] = total
        return result

    def team_groups(self) -> list[list[int]] | None:
        if self.rules.teams is None:
            return None
        when, groups = self.rules.teams
        return groups if evaluate(when, self, {}) else None

    def standings(self, scores: dict[Player, Any] | None = None) -> dict[Player, tuple]:
        """What ranks each player: their score, then the tiebreak; the higher the better.
        `scores`, if given, are this game's `scores()`, computed once."""
        scores = self.scores() if scores is None else scores
        tiebreak = self.rules.tiebreak
        return {p: (scores[p], evaluate(tiebreak, self, {"player": p}) if tiebreak else 0) for p in self.players}

    def winners(self, scores: dict[Player, Any] | None = None) -> list[Player]:
        """The players with the best score (then tiebreak); tied players share the win. `scores`,
        if given, are this game's `scores()`, computed once."""
        standings = self.standings(scores)
        best = max(standings.values())
        return [p for p in self.players if standings[p] == best]

    def digest(self) -> str:
        """A fingerprint of the whole table, to check that a replay reproduces a game."""
        h = hashlib.sha256()
        for zone in self.table.all_zones():
            h.update(f"{zone.label}:{[c.id for c in self.table.contents[zone.index]]};".encode())
        h.update(repr(sorted((k, repr(v)) for k, v in self.table.counters.items())).encode())
        h.update(repr(self.decisions).encode())
        return h.hexdigest()


_KEPT = LogEntry((("", frozenset()),))  # in a world, a line to other players: kept from everyone


def _told(entry: LogEntry, player: int, stand_in: dict[tuple, Card]) -> LogEntry:
    """A log entry with every card `player` did not see when it was logged replaced by a
    stand-in with the same look, so the line reads the same to them and names nothing more."""
    parts = entry.parts
    if not any(seen is not None and player not in seen for _, seen in parts):
        return entry
    if entry.kept_from(player):  # a line to others: nothing of it, but that it is not theirs
        return _KEPT
    return LogEntry(tuple((_stand_ins(v, stand_in) if seen is not None and player not in seen else v, seen)
                          for v, seen in parts))


def _stand_ins(value: Any, stand_in: dict[tuple, Card], keep: Callable[[Card], bool] | None = None) -> Any:
    """`value` with every card in it (a card, or the cards of a text) replaced by the stand-in
    of its look; with `keep`, only those it refuses."""
    if type(value) is Card:
        return value if keep is not None and keep(value) else stand_in[value.look]
    if type(value) is Text:
        return value.relabelled({c: stand_in[c.look] for c in value.cards() if keep is None or not keep(c)})
    return value


def _waiting_for_chance(g: Game, chance: dict[str, Any]) -> Game:
    """The game of a snapshot that waits for chance: `g`, where its stretch of rules began,
    run on again with the saved answer and outcomes (game/chance.py)."""
    answer, drawn = chance["answer"], chance["drawn"]
    if answer is None:
        if g.pending is not None or g.decisions or not g.frames or g.frames[-1].pc != 0:
            raise SaveError("the saved state waits for chance in setup but is not where setup begins")
    elif g.pending is None or type(answer) is not int or not 0 <= answer < len(g.pending.options):
        raise SaveError(f"the saved state's answer {answer!r} is not an option of its decision")
    if type(drawn) is not list or any(type(i) is not int or i < 0 for i in drawn):
        raise SaveError(f"the saved state's chance outcomes {drawn!r} are not a list of whole numbers")
    if not g.setting_up:
        g.set_up()
    try:
        g._chance_run(answer, drawn)
    except EngineError as exc:
        raise SaveError(f"the saved state's chance outcomes do not replay: {exc}") from None
    if g._explicit.used != len(drawn):
        raise SaveError("the saved state has more chance outcomes than its rules draw")
    return g


def _step(g: Game, dec: Decoder, saved: Any) -> Together | None:
    """The open simultaneous step of a snapshot, checked against its pending decision."""
    if saved is None:
        return None
    players = [Player(dec.lookup(g.players, p, "player", 1)) for p in saved["players"]]
    options, prompts = dec.decode(saved["options"]), [tuple(p) for p in dec.decode(saved["prompts"])]
    answers = saved["answers"]
    if not (len(players) == len(options) == len(prompts) == len(answers)) or type(saved["start"]) is not int \
            or any(a is not None and (type(a) is not int or not 0 <= a < len(o)) for a, o in zip(answers, options)):
        raise SaveError("the saved state's simultaneous step is damaged")
    step = Together(players, options, prompts, list(answers), saved["start"])
    if g.pending is None or step.open_for(g.pending.player) is None:
        raise SaveError("the saved state's simultaneous step does not wait for its pending decision")
    return step

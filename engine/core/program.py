"""The resumable program of a game: instruction lists and a stack of frames that are plain data.

Rules that never ask a player compile to Python closures (see lang/compiler.py). Only the
statements that may suspend the game (a `choose`, an `emit` whose triggers may choose, a
procedure call) and the `if`s and loops around them become instructions of a `Code`. Where a
game waits is then a list of `Frame`s, each a code, an instruction index and a dict of locals:
data that can be copied and saved, unlike a suspended Python generator. The instructions are
run by `Game` (game/game.py), which also holds the frames.
"""
from __future__ import annotations

from typing import Any, Callable

from .errors import EffectError, Location
from .limits import STEP_BUDGET, TOO_LONG, LimitError

FLOW_ENDED = "flow ended"  # the end reason of a game whose flow ran to its end or returned nothing
SUSPENDED = object()  # returned by a call that pushed a frame or asked a player


class Break(Exception):
    pass


class Continue(Exception):
    pass


class Return(Exception):
    """Carries a procedure's return value out of nested statements."""

    def __init__(self, value: Any):
        self.value = value


class EndGame(Exception):
    """Raised by end_game(): the game stops at once and is scored; `reason` says why (it
    becomes `Game.end_reason`)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


CONTROL = (Break, Continue, Return, EndGame)


class Code:
    """The instructions of one program (setup, flow, a procedure, a trigger's body).

    `id` names it in saved frames: the path of its rule in the ruleset (e.g.
    'procedures.play_trick.do'), unique within a ruleset."""

    __slots__ = ("id", "ops")

    def __init__(self, ops: list[Op], code_id: str = ""):
        self.id = code_id
        self.ops = ops
        for i, op in enumerate(ops):  # where each instruction goes next, past any jumps
            op.next = self._past_jumps(i + 1)
            for slot in ("target", "exit", "brk", "cont"):
                if getattr(op, slot, -1) >= 0:
                    setattr(op, slot, self._past_jumps(getattr(op, slot)))

    def _past_jumps(self, pc: int) -> int:
        seen = set()
        while pc < len(self.ops) and type(self.ops[pc]) is Jump and pc not in seen:
            seen.add(pc)
            pc = self.ops[pc].target
        return pc

    def __repr__(self) -> str:
        return f"<code {self.id}>"


class Frame:
    """One running program: which code, which instruction is next, and its locals."""

    __slots__ = ("code", "pc", "env")

    def __init__(self, code: Code, pc: int, env: dict[str, Any]):
        self.code = code
        self.pc = pc
        self.env = env


class Op:
    """An instruction. `run` does its work and moves `frame.pc` on (or pushes a frame, or
    leaves one, or asks a player); `resume` receives the value a pushed frame returned or the
    option a player chose. `loc` and `rule` locate the statement it comes from; `next` is the
    instruction after it, past any jumps (set by Code)."""

    __slots__ = ("loc", "rule", "next")

    def __init__(self, loc: Location | None = None, rule: str = ""):
        self.loc = loc
        self.rule = rule
        self.next = -1

    def run(self, g: Any, frame: Frame) -> None:
        raise NotImplementedError

    def resume(self, g: Any, frame: Frame, value: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not wait for a value")


class Exec(Op):
    """Run a stretch of statements that never suspend, as one compiled function. `brk` and
    `cont` are where a break or continue inside it goes (the loop around it)."""

    __slots__ = ("fn", "brk", "cont")

    def __init__(self, fn: Callable, loc: Location | None, rule: str, brk: int = -1, cont: int = -1):
        super().__init__(loc, rule)
        self.fn, self.brk, self.cont = fn, brk, cont

    def run(self, g, frame):
        try:
            self.fn(g, frame.env)
        except Break:
            frame.pc = self.brk
            return
        except Continue:
            frame.pc = self.cont
            return
        except Return as ret:
            g.leave(ret.value)
            return
        frame.pc = self.next


class Jump(Op):
    __slots__ = ("target",)

    def __init__(self, target: int = -1):
        super().__init__()
        self.target = target

    def run(self, g, frame):
        frame.pc = self.target


class Branch(Op):
    """Go on if `cond` holds, else jump to `target` (if/elif)."""

    __slots__ = ("cond", "target")

    def __init__(self, cond: Callable, loc: Location, rule: str, target: int = -1):
        super().__init__(loc, rule)
        self.cond, self.target = cond, target

    def run(self, g, frame):
        frame.pc = self.next if self.cond(g, frame.env) else self.target


class ForInit(Op):
    """Start a for or repeat loop: its items, computed once, and a position, in local `slot`."""

    __slots__ = ("items", "slot")

    def __init__(self, items: Callable, slot: str, loc: Location, rule: str):
        super().__init__(loc, rule)
        self.items, self.slot = items, slot

    def run(self, g, frame):
        frame.env[self.slot] = [self.items(g, frame.env), 0]
        frame.pc = self.next


class ForNext(Op):
    """The next item into `var`, or leave the loop (to `exit`) when there is none."""

    __slots__ = ("slot", "var", "exit")

    def __init__(self, slot: str, var: str | None, loc: Location, rule: str, exit_: int = -1):
        super().__init__(loc, rule)
        self.slot, self.var, self.exit = slot, var, exit_

    def run(self, g, frame):
        state = frame.env[self.slot]
        items, i = state
        if i < len(items):
            g.steps += 1
            if g.steps > STEP_BUDGET:
                raise LimitError(TOO_LONG, self.loc, self.rule)
            if self.var is not None:
                frame.env[self.var] = items[i]
            state[1] = i + 1
            frame.pc = self.next
        else:
            frame.pc = self.exit


class WhileTest(Op):
    """Another iteration of a while loop if `cond` holds (always, if it is None: `while true`),
    else leave it (to `exit`)."""

    __slots__ = ("cond", "exit")

    def __init__(self, cond: Callable | None, loc: Location, rule: str, exit_: int = -1):
        super().__init__(loc, rule)
        self.cond, self.exit = cond, exit_

    def run(self, g, frame):
        if self.cond is None or self.cond(g, frame.env):
            g.steps += 1
            if g.steps > STEP_BUDGET:
                raise LimitError(TOO_LONG, self.loc, self.rule)
            frame.pc = self.next
        else:
            frame.pc = self.exit


class Drop(Op):
    """Forget a finished loop's position."""

    __slots__ = ("slot",)

    def __init__(self, slot: str):
        super().__init__()
        self.slot = slot

    def run(self, g, frame):
        frame.env.pop(self.slot, None)
        frame.pc = self.next


class Call(Op):
    """A statement whose call may suspend: a procedure, choose(), emit(). `start` returns the
    value at once or SUSPENDED. Then, with `leaves`, the value is what the frame returns;
    else `then` (g, env, value), if any, puts it where the statement wants it and runs the
    plain statements that follow. `site`, for a choose(), is where its options are written
    (lang/compiler.py's ChoiceSite), read only when a person asks why something is not offered."""

    __slots__ = ("start", "then", "leaves", "site")

    def __init__(self, start: Callable, then: Callable | None, loc: Location | None, rule: str,
                 leaves: bool = False, site: Any = None):
        super().__init__(loc, rule)
        self.start, self.then, self.leaves, self.site = start, then, leaves, site

    def run(self, g, frame):
        value = self.start(g, frame.env)
        if value is not SUSPENDED:
            self.resume(g, frame, value)

    def resume(self, g, frame, value):
        if self.leaves:
            g.leave(value)
            return
        if self.then is not None:
            self.then(g, frame.env, value)
        frame.pc = self.next


class Arrange(Op):
    """Between setup and flow: a test's or puzzle's hook to arrange the table (game/game.py)."""

    def run(self, g, frame):
        if g.arrange is not None:  # run here, at no rule's statement: its faults are its own
            g.arrange(g)
        frame.pc = self.next
        g.set_up()


class End(Op):
    """The end of a code: return none."""

    def run(self, g, frame):
        g.leave(None)


class EmitNext(Op):
    """The one instruction of the emit driver: run the next trigger listening to an event.

    Its frame's locals say where it is: the event, its arguments, the trigger reached ("t"),
    the cards carrying it that were in a `while_in` zone when it was reached ("sources", None
    for a rule of the game) and the next of them ("s")."""

    def run(self, g, frame):
        env = frame.env
        triggers = g.rules.triggers[env["event"]]
        table = g.table
        while True:
            t = env["t"]
            if t >= len(triggers):
                g.leave(None)
                return
            trigger = triggers[t]
            sources = env["sources"]
            if sources is None:
                args = env["args"]
                if len(args) != len(trigger.params):
                    named = f" ({', '.join(trigger.params)})" if trigger.params else ""
                    raise EffectError(f"event '{env['event']}' was given {len(args)} argument(s) but the "
                                      f"{trigger.rule} at {trigger.where} has {len(trigger.params)} "
                                      f"parameter(s){named}")
                sources = env["sources"] = [None] if trigger.holders is None else [
                    c for c in g.rules.holding(trigger.holders)
                    if trigger.while_in is None or table.where[c.index].name in trigger.while_in]
                env["s"] = 0
            s = env["s"]
            if s >= len(sources):
                env["t"], env["sources"] = t + 1, None
                continue
            env["s"] = s + 1
            card = sources[s]
            inner = dict(zip(trigger.params, env["args"]))
            if card is not None:
                inner["card"] = card
                inner["owner"] = table.owner(table.where[card.index])
            if trigger.condition is None or trigger.condition(g, inner):
                g.push(Frame(trigger.code, 0, inner))
                return

    def resume(self, g, frame, value):
        pass  # a trigger's body is done; the next run goes on to the next trigger


EMIT = Code([EmitNext()], "emit")


class Catch(Op):
    """Below a procedure called from Python (Game.run_procedure): keeps its value, then leaves."""

    def resume(self, g, frame, value):
        frame.env["value"] = value
        g.frames.pop()


CATCH = Code([Catch()], "catch")


class Assembler:
    """Collects the instructions of one code; jumps are patched once their targets are known."""

    def __init__(self) -> None:
        self.ops: list[Op] = []

    def add(self, op: Op) -> Op:
        self.ops.append(op)
        return op

    @property
    def here(self) -> int:
        return len(self.ops)


class Loop:
    """The loop an instruction is in: where `continue` goes, and the Execs whose `break` must
    be pointed at the loop's end once it is known."""

    def __init__(self, top: int):
        self.top = top
        self.breakers: list[Exec] = []

    def close(self, end: int) -> None:
        for op in self.breakers:
            op.brk = end

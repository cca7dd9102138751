"""How much work a game may do between two decisions, and how large a value its rules may make.

A ruleset may come from a stranger: these bound what running it can cost, so a rule that would
run for ever or fill the memory stops with an error at its text instead. Every bound is far
above what a real game needs (the shipped rulesets stay under a hundredth of each).

- Steps: every iteration of a loop or comprehension, every call of a procedure that may ask a
  player, of a function value, and of a function or procedure that may call itself or calls
  many others (lang/compiler.py's counted_calls), and every 64 items or characters of a list
  or text a rule makes, sums, or goes through with a function value (sorted_by...), count one
  step; STEP_BUDGET of them may run between two decisions (`Game.steps`, reset at each decision).
- Sizes: a whole number has at most MAX_DIGITS digits, a text at most MAX_TEXT characters and a
  list at most MAX_LIST items; a number that overflows to infinity is an error too (infinity
  itself is a value, YAML's `.inf`).

The generated code checks sizes only where a value can grow (`+`, `-` and `*`, and the
built-in functions that make lists and texts), and steps where work repeats, so the common
cheap expressions cost nothing more.
"""
from __future__ import annotations

import math
from typing import Any

from .errors import EffectError

STEP_BUDGET = 200_000  # steps a game may take between decisions
MAX_DIGITS = 1_000  # digits of a whole number
MAX_BITS = 3_322  # the same bound as bits: 2**3322 is just above 10**1000
_SMALL = 2 ** 62  # a whole number below this is within the limits, and quick to tell
MAX_TEXT = 1_000_000  # characters of a text
MAX_LIST = MAX_TEXT  # items of a list
SIZE_STEP = 6  # a list or text made costs one step per 2**SIZE_STEP of its items or characters
MAX_SCORE = 10 ** 15  # a game's score: simulate adds scores up over many games and averages them
MAX_NESTED_LOOPS = 20  # loops written inside each other in one rule: Python compiles no more

TOO_LONG = f"more than {STEP_BUDGET} steps without a decision: a loop, recursion or trigger that never ends?"


class LimitError(EffectError):
    """A rule went past one of these limits: a fault of the ruleset wherever it happens (so
    `engine validate` reports it in a game's setup too, where other faults may depend on the
    deal)."""


def too_long() -> None:
    """Stop a game that took more than STEP_BUDGET steps since its last decision."""
    raise LimitError(TOO_LONG)


def charge(g: Any, steps: int) -> None:
    """Count `steps` more steps of the game `g`; past the budget, stop it."""
    g.steps += steps
    if g.steps > STEP_BUDGET:
        raise LimitError(TOO_LONG)


def too_big(value: Any) -> str | None:
    """Why `value` is larger than a game may hold (None if it is not)."""
    t = type(value)
    if t is int:
        if value.bit_length() > MAX_BITS:
            return f"a whole number of more than {MAX_DIGITS} digits (the limit of numbers)"
    elif t is float:
        if not math.isfinite(value):
            return "a number too large to hold (it overflowed to infinity)"
    elif isinstance(value, str):
        if len(value) > MAX_TEXT:
            return f"a text of {len(value):,} characters, more than the limit of {MAX_TEXT:,}"
    elif isinstance(value, list) and len(value) > MAX_LIST:
        return f"a list of {len(value):,} items, more than the limit of {MAX_LIST:,}"
    return None


def sized(g: Any, value: Any) -> Any:
    """`value`, once it is known to be within the limits; a list or text made costs steps by
    its length."""
    t = type(value)
    if t is int:
        if value.bit_length() > MAX_BITS:
            raise LimitError(too_big(value))
    elif isinstance(value, (str, list)):
        size = len(value)
        if size >> SIZE_STEP:
            if too_big(value):
                raise LimitError(too_big(value))
            charge(g, size >> SIZE_STEP)
    return value


def add(g: Any, a: Any, b: Any) -> Any:
    """`a + b` within the limits. A small number or a short list or text, the common cases, is
    told at once, here: this runs for every `+` of the rules whose sides the tree cannot tell."""
    value = a + b
    t = type(value)
    if t is int:
        if -_SMALL < value < _SMALL:
            return value
    elif t is float:
        if value - value == 0:
            return value
    elif (t is list or t is str) and not len(value) >> SIZE_STEP:
        return value
    return _grown(g, value, a, b)


def subtract(g: Any, a: Any, b: Any) -> Any:
    """`a - b` within the limits (a number, or an error)."""
    value = a - b
    if type(value) is int and -_SMALL < value < _SMALL or type(value) is float and value - value == 0:
        return value
    return _grown(g, value, a, b)


def _grown(g: Any, value: Any, a: Any, b: Any) -> Any:
    """The result of an operator on `a` and `b`, checked: infinity is a number a ruleset may
    hold (YAML's `.inf`), but one made from two finite numbers is an overflow."""
    if type(value) is float:
        if value - value != 0 and _finite(a) and _finite(b):
            raise LimitError(too_big(value))
        return value
    return sized(g, value)


def _finite(x: Any) -> bool:
    return not isinstance(x, float) or math.isfinite(x)


def multiply(g: Any, a: Any, b: Any) -> Any:
    """`a * b` within the limits, checked before a text or list is repeated: `"x" * 10**9`
    must not be made to be refused. Its test of the result is `add`'s, written out again on
    purpose: shared through a function, every `+` of the rules cost 0.2-0.9% more instructions
    (benchmarks/instructions.py)."""
    if isinstance(a, (str, list)) or isinstance(b, (str, list)):
        items, times = (a, b) if isinstance(a, (str, list)) else (b, a)
        if type(times) is int and len(items) * times > MAX_LIST:
            raise LimitError(f"a {'text' if isinstance(items, str) else 'list'} repeated {number(times)} "
                             f"times: more than the limit of {MAX_LIST:,} items or characters")
    value = a * b
    t = type(value)
    if t is int:
        if -_SMALL < value < _SMALL:
            return value
    elif t is float:
        if value - value == 0:
            return value
    elif (t is list or t is str) and not len(value) >> SIZE_STEP:
        return value
    return _grown(g, value, a, b)


def number(value: int) -> str:
    """A whole number as text, or its size where it has too many digits to show."""
    return f"{value:,}" if value.bit_length() <= MAX_BITS else f"a number of more than {MAX_DIGITS} digits"


def call(g: Any, fn: Any, *args: Any) -> Any:
    """A function value (`x -> ...`) called in rule text: a step, since it may call itself
    through the local that holds it. (Built-in functions that call one, as sorted_by's key,
    count the items they go through.)"""
    g.steps += 1
    if g.steps > STEP_BUDGET:
        raise LimitError(TOO_LONG)
    return fn(*args)


def counted(g: Any, items: Any) -> Any:
    """The items a comprehension goes through, each counted as a step."""
    g.steps += len(items)
    if g.steps > STEP_BUDGET:
        raise LimitError(TOO_LONG)
    return items

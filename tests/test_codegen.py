"""Generated code: text a user wrote never becomes Python code.

The compiler turns checked effect-language trees into Python `ast` trees (engine/lang/codegen.py
compiles them). Hostile rulesets (quotes, newlines, backslashes, dunder and engine-like names,
very long literals and names) must play exactly as written, every generated function must run
with empty builtins, and the verifier must refuse any node the compiler does not emit.
"""
from __future__ import annotations

import ast
import textwrap

import pytest

from engine.core.errors import EffectError
from engine.game.game import Game
from engine.lang import codegen
from engine.lang.codegen import GeneratedCodeError, Unit, verify
from engine.rules.ruleset import load_ruleset

from conftest import ROOT

LONG = "x" * 5000
LONG_NAME = "n" + "_" * 300 + "z"

HOSTILE = textwrap.dedent('''\
    game:
      name: Hostile
      players: [2]
    card_kinds:
      token:
        zone: pile
        properties: {value: integer}
    cards:
      - {kind: token, name: "Quote \\" ' \\\\ ; __import__('os')", value: 1}
    zones:
      pile: {}
    counters:
      seen: {initial: []}
      total: {initial: 0}
    functions:
      twice:
        params: [__import__]
        expr: __import__ * 2
    setup: |
      let __import__ = 5
      let __builtins__ = "b"
      let env = 7
      let g = [g for g in [1, 2]]
      let _f0 = "f"
      let _r_attr = 3
      let _k0 = 11
      let exec = "exec('1')"
      let %(long_name)s = "%(long)s"
      seen = [__import__, __builtins__, env, g, _f0, _r_attr, _k0, exec]
      seen = seen + ["'); import os; ('", "line\\nbreak", "back\\\\slash", "\\"dq\\""]
      seen = seen + [%(long_name)s, text(first(pile).name)]
      let f = __class__ -> __class__ + __import__
      total = f(1) + twice(__import__) + sum(_v1 * 1 for _v1 in [1, 2])
      for __builtins__ in [1, 2, 3]:
          total += __builtins__
    flow: |
      let c = choose(1, [1, 2], "pick")
      total += c
    scoring:
      score: total
    ''') % {"long": LONG, "long_name": LONG_NAME}


def loaded(tmp_path, text: str):
    """The ruleset `text`, written to a file and loaded; and the file's path."""
    path = tmp_path / "rules.yaml"
    path.write_text(text)
    return load_ruleset(path), path


def test_hostile_names_and_literals_play_as_written(tmp_path):
    rs, _ = loaded(tmp_path, HOSTILE)
    game = Game(rs, 2, seed=1)
    assert game.table.counters["seen"] == [
        5, "b", 7, [1, 2], "f", 3, 11, "exec('1')",
        "'); import os; ('", "line\nbreak", "back\\slash", '"dq"',
        LONG, "Quote \" ' \\ ; __import__('os')"]
    # f(1) = 1 + 5, twice(5) = 10, the sum = 3, then 1 + 2 + 3
    assert game.table.counters["total"] == 6 + 10 + 3 + 6
    game.apply(1)
    assert game.over and game.scores()[1] == 27


def test_generated_functions_run_without_builtins(tmp_path):
    rs, path = loaded(tmp_path, HOSTILE)
    functions = [rs.functions["twice"].expr, rs.score, *rs.lambdas]
    functions += [op.fn for code in rs.codes.values() for op in code.ops if hasattr(op, "fn")]
    assert functions
    for fn in functions:
        assert fn.__globals__["__builtins__"] == {}
        assert fn.__code__.co_filename == str(path)
        assert all(n == "__builtins__" or codegen._ENGINE_NAME.fullmatch(n) for n in fn.__globals__)


def test_every_shipped_ruleset_compiles_through_the_verifier():
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        rs = load_ruleset(path)
        # A score left out is the engine's sum of the breakdown's parts (each one compiled).
        written = [rs.score] if rs.breakdown_checked or not rs.breakdown else []
        assert all(fn.__globals__["__builtins__"] == {} for fn in [*written, *rs.breakdown.values(), *rs.lambdas])


@pytest.mark.parametrize("source", [
    "import os",
    "from os import path",
    "def _f0(g, env):\n    return __import__('os')",
    "def _f0(g, env):\n    return g.__class__",
    "def _f0(g, env):\n    return os",
    "def _f0(g, env):\n    return b'bytes'",
    "def _f0(g, env):\n    return lambda: 1",
    "def _f0(g, env):\n    with g: pass",
    "def _f0(g, env):\n    global x",
    "def _f0(g, env, *args):\n    pass",
    "def _f0(g, env=1):\n    pass",
    "def evil(g, env):\n    pass",
    "@_r_attr\ndef _f0(g, env):\n    pass",
    "def _f0(g, env):\n    return (yield)",
    "def _f0(g, env):\n    return [x for x in g]",
    "def _f0(g, env):\n    return f'{g}'",
    "class _f0: pass",
])
def test_the_verifier_refuses_what_the_compiler_never_emits(source):
    with pytest.raises(GeneratedCodeError):
        verify(ast.parse(source))


def test_the_verifier_accepts_what_the_compiler_emits():
    verify(ast.parse("def _f0(g, env):\n    env['x'] = [_v1 for _v1 in _r_iterate(g, g.table.zones['a'])]\n"
                     "    g.steps += 1\n    return _b_count(g, _k0)"))


def test_a_unit_compiles_with_the_yaml_file_and_line(tmp_path):
    from engine.core.errors import Location
    unit = Unit("setup", "rules.yaml", {})
    ref = unit.define([ast.Return(ast.BinOp(ast.Constant(1), ast.Div(), ast.Constant(0)))],
                      Location("rules.yaml", 12, 5))
    unit.build()
    with pytest.raises(ZeroDivisionError) as info:
        ref.fn(None, {})
    location, rule, unset = codegen.fault_position(info.value)
    assert (location.file, location.line, location.column, rule, unset) == ("rules.yaml", 12, 5, "setup", None)


@pytest.mark.parametrize("flow, message, line", [
    ("if player_count > 5:\n    let x = 1\nlet y = x + 1\n", "'x' has no value yet at this point", 3),
    ("let k = 7\nlet y = hand[k]\n", "no entry 7 in that table or family", 2),
    ("let k = \"x\"\nlet y = hand[k]\n", "no entry 'x' in that table or family", 2),
    ("let y = count(hand[9])\n", "no entry 9 in that table or family", 1),
])
def test_faults_in_generated_code_are_explained_at_their_line(tmp_path, flow, message, line):
    head = "game:\n  name: Faults\n  players: [2]\nscoring:\n  score: 0\nzones:\n  hand: {per: player}\nflow: |\n"
    rs, path = loaded(tmp_path, head + textwrap.indent(flow, "  "))
    with pytest.raises(EffectError) as info:
        Game(rs, 2, seed=1)
    err = info.value
    assert err.message == message
    assert (err.location.file, err.location.line, err.rule) == (str(path), 8 + line, "flow")


PLAIN_PROCEDURES = textwrap.dedent('''\
    game:
      name: Plain procedures
      players: [2]
    zones:
      pile: {}
    counters:
      n: {initial: 0}
    procedures:
      down:
        params: [k]
        do: |
          n += 1
          down(k + 1)
      find:
        params: [k]
        do: |
          for i in range(0, 10):
              if i == k:
                  return i * 10
          return -1
      ask:
        params: []
        do: |
          return choose(1, [1, 2], "pick")
      asks_through:
        params: []
        do: |
          return ask()
    setup: |
      n = find(3)
    flow: |
      let c = asks_through()
      if c == 2:
          down(0)
    scoring:
      score: n
    ''')


def test_procedures_that_never_ask_are_plain_calls_and_fail_where_they_fail(tmp_path):
    rs, path = loaded(tmp_path, PLAIN_PROCEDURES)
    assert set(rs.calls) == {"down", "find"}  # ask and asks_through may make the game wait
    game = Game(rs, 2, seed=1)
    assert game.table.counters["n"] == 30  # find(3): a return from inside a loop
    assert game.run_procedure("find", [11]) == -1
    with pytest.raises(EffectError) as info:
        game.apply(1)
    err = info.value
    assert "rules call each other too deeply" in err.message and err.rule == "procedure down"
    assert (err.location.file, err.location.line) == (str(path), 13)
    assert game.table.counters["n"] == 30 and game.pending is not None  # as it was


def test_function_values_see_their_parameter_and_what_was_in_scope(tmp_path):
    """A lambda's parameter is a Python local of its body; the comprehension variables and
    parameters around it are passed to it with the rule's locals."""
    rs, _ = loaded(tmp_path, textwrap.dedent('''\
        game:
          name: Lambdas
          players: [2]
        zones:
          pile: {}
        counters:
          out: {initial: []}
        functions:
          nest:
            params: [k]
            expr: "[max_by([1, 2], y -> (y * x) % k) for x in [1, 2, 3]]"
          twice_over:
            params: [k]
            expr: max_by([1, 2, 3], x -> max_by([x, k], y -> 0 - (y - x) * (y - x)))
        setup: |
          let base = 10
          let add = v -> v + base
          base = 20
          out = nest(3) + [twice_over(2), add(1)]
        flow: |
          pass
        scoring:
          score: 0
        '''))
    game = Game(rs, 2, seed=1)
    # nest(3): x = 1 -> y = 2 (2 % 3); x = 2 -> y = 1 (2 % 3); x = 3 -> both 0, the first: 1.
    # twice_over(2): the inner max_by gives each x itself (distance 0), so the outer gives 3.
    # add(1): the lambda sees the local as it is when called: 1 + 20.
    assert game.table.counters["out"] == [2, 1, 1, 3, 21]


def test_a_procedure_that_never_asks_keeps_its_locals_in_python_and_means_the_same(tmp_path):
    """Its locals are Python locals, but for those a function value in it reads, which stay in
    `env` so that the function sees them as they change; its faults read as anywhere else."""
    rs, path = loaded(tmp_path, textwrap.dedent('''\
        game:
          name: Fast locals
          players: [2]
        zones:
          pile: {}
        counters:
          out: {initial: []}
        procedures:
          work:
            params: [k, n]
            do: |
              let base = 10
              let add = v -> v + base
              base = 20
              let seen = [0 for i in range(0, n)]
              let total = 0
              for i in range(0, n):
                  seen[i] = i * k
                  total += seen[i]
              let found = [x for x in range(0, n) if x * k > 2]
              return [add(1), total, found, seen[n - 1], k]
          unset:
            params: []
            do: |
              if player_count > 5:
                  let x = 1
              return x + 1
        setup: |
          out = work(2, 3)
        flow: |
          let u = unset()
          out = out + [u]
        scoring:
          score: 0
        '''))
    assert {"work", "unset"} <= set(rs.calls)
    after_setup = []
    with pytest.raises(EffectError) as info:
        Game(rs, 2, seed=1, arrange=lambda g: after_setup.append(g.table.counters["out"]))
    assert after_setup == [[21, 6, [2], 4, 2]]
    err = info.value
    assert err.message == "'x' has no value yet at this point" and err.rule == "procedure unset"
    assert (err.location.file, err.location.line) == (str(path), 27)

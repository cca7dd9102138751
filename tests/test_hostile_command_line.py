"""A command line that asks for too much, or names a broken agent: one line, never a traceback
nor a run that goes on for ever."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import EngineError
from engine.players.agents import make_agents

from test_cli import TRICK, engine, one_line_error

RUN = ["simulate", TRICK, "--players", "3"]


@pytest.mark.parametrize("flag, value, told", [
    ("--games", "1" + "0" * 30, "is not a whole number of at most 10,000,000"),
    ("--games", "20000000", "20000000 is too many: at most 10,000,000"),
    ("--games", "1e3", "'1e3' is not a whole number"),
    ("--jobs", "100000", "100000 is too many: at most 256"),
    ("--max-decisions", "9" * 5000, "is not a whole number of at most 1,000,000,000"),
])
def test_a_count_too_large_is_refused_before_anything_runs(flag, value, told):
    proc = engine(*RUN, flag, value)
    assert proc.returncode == 2 and told in proc.stderr.splitlines()[-1], proc.stderr


@pytest.mark.parametrize("seat, told", [
    ("..:X", "'..' is neither a FILE.py nor a module name"),
    ("mcts:iterations=1e400", "iterations=1e400 is out of range; a parameter is a number from -1,000,000 to 1,000,000"),
    ("greedy:worlds=100000000000", "worlds=100000000000 is out of range"),
    ("mcts:iterations=" + "9" * 5000, "is out of range"),
    ("mcts:c=nan", "c=nan is out of range"),
])
def test_a_seat_asking_for_endless_work_or_naming_no_module_is_refused_in_one_line(seat, told):
    line = one_line_error(engine(*RUN, "--games", "2", "--seats", f"{seat},random,random"))
    assert told in line and len(line) < 200, line


@pytest.mark.parametrize("source, told", [
    ("class Bot(:\n", "bot.py:1:11: error: invalid syntax (seat "),
    ("raise RuntimeError('boom')\n", "loading bot.py failed: RuntimeError: boom"),
    ("class Bot:\n    def __init__(self, seed):\n        pass\n", "the class Bot has no method choose(view)"),
])
def test_a_broken_agent_file_is_told_in_one_line(tmp_path, source, told):
    (tmp_path / "bot.py").write_text(source, encoding="utf-8")
    line = one_line_error(engine(*RUN, "--games", "2", "--seats", "bot.py:Bot,random,random", cwd=tmp_path))
    assert told in line, line


@settings(max_examples=300, deadline=None, derandomize=True)
@given(kind=st.sampled_from(["random", "greedy", "mcts", "scout", "human", ""]),
       rest=st.text(alphabet=":=.,-+_eEinfa0123456789 x/", max_size=40))
def test_any_seat_text_of_a_built_in_kind_is_made_or_refused_with_an_engine_error(kind, rest):
    """Parameters of every shape (none, empty, repeated, signs, exponents, inf, nan, unknown
    names): a bot is made, or EngineError says why; nothing else comes out."""
    try:
        make_agents([kind + rest], 1, make_human=lambda: None)
    except EngineError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 300

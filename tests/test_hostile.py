"""Hostile and broken input: each ends in a located error, never a traceback, and nothing is lost.

(The fuzz tests are in test_fuzz.py; YAML and schema mistakes in test_validate.py; saves and the
terminal in test_cli.py and test_human_agent.py.)"""
from __future__ import annotations

import copy
import json
import os
import pickle
import subprocess
import sys
import textwrap

import pytest
import yaml

from engine.cli import main
from engine.core import usercache
from engine.core.errors import EffectError, SaveError
from engine.core.limits import MAX_DIGITS, MAX_LIST, MAX_NESTED_LOOPS, MAX_TEXT, STEP_BUDGET
from engine.game import saves
from engine.game.game import Game
from engine.game.view import render, view
from engine.rules.ruleset import load_ruleset
from engine.rules.yamlload import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_TEXT_CHARS

from conftest import ROOT

TRICK = ROOT / "rulesets" / "trick_of_the_rails.yaml"


def validate(capsys, *args) -> tuple[int, str]:
    code = main(["validate", *map(str, args)])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out


def test_alias_bomb_is_stopped(tmp_path, capsys):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 12)]
    path = tmp_path / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n")
    code, out = validate(capsys, path)
    assert code == 1
    assert f"more than {MAX_NODES} values" in out


def test_long_text_repeated_by_aliases_is_counted_at_its_expanded_size(tmp_path, capsys):
    """A 1 MB string referred to 4,000 times is a few values, but 4 GB of text."""
    path = tmp_path / "amplified.yaml"
    path.write_text("constants:\n  long: &long " + "x" * 1_000_000 + "\n  many: [" + ", ".join(["*long"] * 4000)
                    + "]\n")
    code, out = validate(capsys, path)
    assert code == 1
    assert f"{path}:2:9: error: the document's text expands past the limit of {MAX_TEXT_CHARS} characters" in out


def test_very_deep_nesting_is_stopped(tmp_path, capsys):
    path = tmp_path / "deep.yaml"
    path.write_text("a: " + "[" * 20000 + "]" * 20000 + "\n")
    code, out = validate(capsys, path)
    assert code == 1
    assert f"{path}:1:1: error: nesting deeper than {MAX_DEPTH} levels" in out


def test_nesting_just_over_the_limit_is_reported_where_it_happens(tmp_path, capsys):
    path = tmp_path / "deep.yaml"
    path.write_text("game:\n  x: " + "[" * (MAX_DEPTH + 2) + "]" * (MAX_DEPTH + 2) + "\n")
    code, out = validate(capsys, path)
    assert code == 1
    assert f"nesting deeper than {MAX_DEPTH} levels" in out
    assert f"{path}:2:" in out


def test_very_large_file_is_refused(tmp_path, capsys):
    path = tmp_path / "large.yaml"
    path.write_bytes(b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    code, out = validate(capsys, path)
    assert code == 1
    assert f"larger than the limit of {MAX_FILE_BYTES} bytes" in out


def test_deeply_nested_rule_is_refused(tmp_path, capsys):
    text = TRICK.read_text(encoding="utf-8").replace(
        "      trick += 1", "      trick += " + "-" * 5000 + "1", 1)
    path = tmp_path / "rule.yaml"
    path.write_text(text, encoding="utf-8")
    code, out = validate(capsys, path)
    assert code == 1
    assert "the rule is nested too deeply" in out


@pytest.mark.parametrize("path,value,expected", [
    (("game", "players"), [0], "less than the minimum of 1"),
    (("game", "players"), [99], "greater than the maximum of 12"),
    (("cards", -1, "count"), 0, "less than the minimum of 1"),  # the reservations, one entry
    (("cards", -1, "count"), 10**6, "greater than the maximum of 1000"),
    (("cards", 0, "table", "rows", 0, 1), "seven", "property 'number' must be of type integer"),  # a railway
    (("cards", 0, "table", "rows", 1), {"company": "B&O", "number": 2, "value": 10, "count": 0},
     "less than the minimum of 1 in cards[0].table.rows[1].count"),
])
def test_numbers_out_of_range_and_wrong_types(tmp_path, capsys, path, value, expected):
    data = yaml.safe_load(TRICK.read_text(encoding="utf-8"))
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    target = tmp_path / "bad.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code, out = validate(capsys, target)
    assert code == 1
    assert expected in out
    assert all(line.startswith(f"{target}:") and ": error: " in line for line in out.splitlines())


SECTIONS = ["game", "options", "constants", "card_kinds", "cards", "zones", "counters", "functions",
            "procedures", "setup", "flow", "scoring"]


@pytest.mark.parametrize("section", SECTIONS)
@pytest.mark.parametrize("wrong", [12345, "text", [], {"x": 1}, None])
def test_wrong_type_in_every_section(tmp_path, capsys, section, wrong):
    data = yaml.safe_load(TRICK.read_text(encoding="utf-8"))
    data[section] = copy.deepcopy(wrong)
    target = tmp_path / "bad.yaml"
    target.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    code, out = validate(capsys, target)
    lines = out.splitlines()
    if (section, wrong) == ("cards", []):  # no cards at all is a valid (if dull) ruleset
        assert code == 0
        return
    assert code == 1
    assert lines and all(line.startswith(f"{target}:") and ": error: " in line for line in lines)


def test_a_ruleset_given_as_its_own_extension_is_refused(capsys):
    code, out = validate(capsys, TRICK, "--with", TRICK)
    assert code == 1
    line = TRICK.read_text(encoding="utf-8").splitlines().index("game:") + 1  # after its top comments
    assert out.startswith(f"{TRICK}:{line}:1: error: this is a ruleset, not an extension file")
    assert out.count("error:") == 1, out


SELF_TRIGGER = """
game: {name: Loop, players: [2]}
zones: {z: {}}
counters: {n: {initial: 0}}
triggers:
  - on: ping
    do: |
      n += 1
      emit("ping")
flow: |
  let go = choose(1, ["a", "b"], "Go?")
  emit("ping")
scoring:
  score: n
"""


def test_a_trigger_that_triggers_itself_stops_with_a_located_error(tmp_path):
    path = tmp_path / "loop.yaml"
    path.write_text(SELF_TRIGGER)
    game = Game(load_ruleset(path), 2, seed=1)
    before = game.digest()
    with pytest.raises(EffectError) as err:
        game.apply(0)
    message = str(err.value)
    assert "too deeply" in message or "steps without a decision" in message
    assert f"{path}:" in message and "trigger on 'ping'" in message
    assert game.digest() == before and game.pending is not None  # the game is as it was


def test_a_fault_in_a_card_ability_names_the_card_and_the_line(tmp_path):
    path = tmp_path / "card.yaml"
    path.write_text(textwrap.dedent("""
        game: {name: Faulty, players: [2]}
        card_kinds:
          gem: {zone: z, properties: {value: integer}}
        cards:
          - kind: gem
            name: Cursed Gem
            value: 0
            triggers:
              - on: tick
                do: |
                  let x = 10 // card.value
        zones: {z: {}}
        flow: |
          let go = choose(1, ["a", "b"], "Go?")
          emit("tick")
        scoring:
          score: 0
        """))
    game = Game(load_ruleset(path), 2, seed=1)
    with pytest.raises(EffectError) as err:
        game.apply(1)
    assert str(err.value) == (f"{path}:12:19: error: division by zero "  # the expression that failed
                              "(in trigger on 'tick' of card Cursed Gem)")
    assert game.decisions == [] and game.pending is not None


def test_saves_are_written_atomically(tmp_path, monkeypatch):
    rs = load_ruleset(TRICK)
    game = Game(rs, 3, seed=1)
    target = tmp_path / "game.json"
    saves.write_save(game, target)
    original = target.read_bytes()
    game.apply(0)

    def crash(src, dst):
        raise OSError("disk full")
    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SaveError, match="cannot save to .*: disk full"):
        saves.write_save(game, target)
    assert target.read_bytes() == original, "a failed write must not touch the old save"
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"], "no temporary file is left behind"


class _Planted:
    """A pickle that makes a directory when it is loaded: what a planted cache file would run."""

    def __init__(self, marker: str):
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (self.marker,)


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the cache directory is set by XDG_CACHE_HOME")
def test_files_planted_in_the_cache_directory_are_never_unpickled(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))

    def validate_trick() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "engine", "validate", str(TRICK)], capture_output=True,
                              text=True, cwd=ROOT, env=env, timeout=120, check=False)
    assert validate_trick().returncode == 0  # fills the cache
    folder = tmp_path / "cache" / "engine"
    planted = pickle.dumps(_Planted(str(tmp_path / "ran")))
    for path in folder.glob("effects-*"):
        # Lark reads a line, then unpickles; the trees are a pickle, with or without a signature.
        path.write_bytes(b"line\n" + planted if path.suffix == ".lark" else planted)
    (folder / "schema-passed").write_bytes(planted)
    again = validate_trick()
    assert again.returncode == 0 and again.stdout.startswith(f"{TRICK}: ok") and again.stderr == ""
    assert not (tmp_path / "ran").exists()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no file owners and modes here")
def test_a_cache_directory_others_can_write_to_is_not_used(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "engine"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert usercache.directory.__wrapped__() is None
    assert capsys.readouterr().err.splitlines() == [
        (f"engine: the cache directory {folder} is not used: another user owns it or can write to it "
         "(make it yours alone, or remove it)")]
    folder.chmod(0o700)
    assert usercache.directory.__wrapped__() == folder
    assert capsys.readouterr().err == ""


# ---------------------------------------------------------------- work and sizes without bound

HOSTILE = """\
game: {{name: Hostile, players: [2]}}
zones: {{z: {{}}}}
counters: {{x: {{initial: 2}}}}
functions:
  f: {{params: [n], expr: "0 if n == 0 else f(n - 1) + f(n - 1)"}}
procedures:
  twice:
    params: [n]
    do: |
      if n > 0:
          twice(n - 1)
          twice(n - 1)
  asking:
    params: [n]
    do: |
      if n > 0:
          asking(n - 1)
          asking(n - 1)
      if n < 0:
          let a = choose(1, [1, 2], "never asked")
setup: |
  {snippet}
flow: |
  let go = choose(1, ["a", "b"], "Go?")
scoring:
  score: x
"""
STEPS = f"more than {STEP_BUDGET} steps without a decision"


@pytest.mark.parametrize("snippet,where,message", [
    ("let y = sum(sum(1 for b in range(0, 100000)) for a in range(0, 100000))", "22:3", STEPS),
    ("let y = [[c for c in [1, 2]] for a in range(0, 999999)]", "22:3", STEPS),
    ("let y = f(60)", "5:27", STEPS),
    ("twice(60)", "10:7", STEPS),
    ("asking(60)", "18:11", STEPS),
    ("let h = 0\n  h = (n -> 0 if n == 0 else h(n - 1) + h(n - 1))\n  let y = h(60)", "23:41", STEPS),
    ("let l = range(0, 5000)\n  let y = [max_by(l, x -> x) for a in l]", "23:3", STEPS),
    ("while true:\n      x = 1", "22:3", STEPS),
    ("repeat 40:\n      x = x * x", "23:11", f"more than {MAX_DIGITS} digits"),
    ("repeat 5000:\n      x = x + x", "23:11", f"more than {MAX_DIGITS} digits"),
    ("let y = 1.5\n  repeat 20:\n      y = y * y", "24:11", "overflowed to infinity"),
    ("let s = \"ab\"\n  repeat 100:\n      s = s + s", "24:11", f"more than the limit of {MAX_TEXT:,}"),
    ("let s = [1]\n  repeat 100:\n      s += s", "24:7", f"more than the limit of {MAX_LIST:,}"),
    ("let s = join([\"abc\"] * 400000, \"--\")", "22:3", f"more than the limit of {MAX_TEXT:,}"),
    ("let r = range(0, 2000000000)", "22:3", "range() of 2,000,000,000 numbers, more than the limit"),
    ("let s = \"x\" * 3000000000", "22:11", "a text repeated 3,000,000,000 times"),
    ("let l = [0] * 3000000000", "22:11", "a list repeated 3,000,000,000 times"),
    ("repeat 3000000000:\n      let a = choose(1, [1, 2], \"?\")", "22:3", f"repeat of more than {MAX_LIST:,} times"),
    # A built-in reading a list of a million again and again: each reading counts its length.
    ("let l = range(0, 1000000)\n  repeat 100000:\n      let y = max(l)", "24:7", STEPS),
    # Every route of a dense graph, none ending: the search counts its steps.
    ("let e = []\n  for a in range(0, 16):\n      e += [[a, b, a * 100 + b] for b in range(0, 16) if a < b]\n"
     "  let y = routes(0, e, 1000, x -> false)", "25:3", STEPS),
    # One route of 3,000 edges (the nodes are the items of one list, so each is the same object
    # in both its edges): deeper than Python's calls go.
    ("let n = range(0, 3001)\n  let e = [[n[a], n[a + 1], a] for a in range(0, 3000)]\n"
     "  let y = routes(n[0], e, 5000, x -> x == 3000)", "24:3",
     "routes(): a search for routes of up to 3000 edges went too deep"),
])
def test_work_and_sizes_are_bounded_in_the_setup_that_validate_runs(tmp_path, capsys, snippet, where, message):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE.format(snippet=snippet))
    code, out = validate(capsys, path)
    assert code == 1
    assert out.startswith(f"{path}:{where}: error: ") and message in out, out
    assert len(out.splitlines()) == 1


def test_functions_calling_the_next_twice_are_counted_without_any_recursion(tmp_path, capsys):
    """40 functions, each calling the next twice: 2**40 calls, though none calls itself."""
    chain = "".join(f'  f{i}: {{params: [n], expr: "f{i + 1}(n) + f{i + 1}(n)"}}\n' for i in range(40))
    path = tmp_path / "chain.yaml"
    chain += "  f40: {params: [n], expr: n}\n"
    path.write_text(HOSTILE.format(snippet="let y = f0(1)").replace("functions:\n", "functions:\n" + chain))
    code, out = validate(capsys, path)
    assert code == 1
    assert STEPS in out and len(out.splitlines()) == 1


@pytest.mark.parametrize("snippet,where,message", [
    ("x = " + "9" * 4400, "22:7", f"a number of more than {MAX_DIGITS} digits"),
    ("x = " + "9" * 400 + ".0", "22:7", "overflowed to infinity"),
    ("".join(f"\n  {'    ' * i}for i{i} in [1]:" for i in range(MAX_NESTED_LOOPS + 1)) + "\n  " + "    " * 21 + "x = 1",
     f"{23 + MAX_NESTED_LOOPS}:", f"loops nested more than {MAX_NESTED_LOOPS} deep"),
])
def test_rule_text_past_the_limits_is_refused_where_it_is_written(tmp_path, capsys, snippet, where, message):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE.format(snippet=snippet))
    code, out = validate(capsys, path)
    assert code == 1
    assert out.startswith(f"{path}:{where}") and message in out, out
    assert len(out.splitlines()) == 1


def test_loops_nested_as_deep_as_allowed_still_run(tmp_path, capsys):
    loops = "".join(f"\n  {'    ' * i}for i{i} in [1]:" for i in range(MAX_NESTED_LOOPS))
    path = tmp_path / "deep.yaml"
    path.write_text(HOSTILE.format(snippet=loops + "\n  " + "    " * MAX_NESTED_LOOPS + "x = 7"))
    assert validate(capsys, path)[0] == 0
    assert Game(load_ruleset(path), 2, seed=1).table.counters["x"] == 7


def test_a_simulated_game_stops_at_the_budget_with_a_located_error(tmp_path):
    path = tmp_path / "hostile.yaml"
    path.write_text(HOSTILE.format(snippet="pass").replace(
        'let go = choose(1, ["a", "b"], "Go?")',
        'let go = choose(1, ["a", "b"], "Go?")\n  let y = f(60)'))
    proc = subprocess.run([sys.executable, "-m", "engine", "simulate", str(path), "--games", "2"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"{path}:5:27: error: {STEPS}" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- YAML values a game cannot hold

TINY = ROOT / "tests" / "fixtures" / "tiny.yaml"


@pytest.mark.parametrize("value,column,message", [
    ("!foo x", 11, "the YAML tag !foo is not supported"),
    ("!!python/name:os.system x", 11, "the YAML tag !!python/name:os.system is not supported"),
    ("!foo {a: 1}", 11, "the YAML tag !foo is not supported"),
    ("!!binary aGVsbG8=", 11, "the YAML tag !!binary is not supported"),
    ("9" * 4301, 11, f"a whole number of more than {MAX_DIGITS} digits"),
    ("9" * (MAX_DIGITS + 1), 11, f"a whole number of more than {MAX_DIGITS} digits"),
])
def test_yaml_tags_and_numbers_too_long_are_refused_where_they_stand(tmp_path, capsys, value, column, message):
    path = tmp_path / "tags.yaml"
    path.write_text(TINY.read_text(encoding="utf-8") + f"constants:\n  sneaky: {value}\n", encoding="utf-8")
    lines = TINY.read_text(encoding="utf-8").count("\n") + 2
    code, out = validate(capsys, path)
    assert code == 1
    assert out.splitlines() == [f"{path}:{lines}:{column}: error: {message}" + out.split(message, 1)[1].splitlines()[0]]


def test_a_yaml_date_is_read_as_the_text_it_is_written_as(tmp_path, capsys):
    path = tmp_path / "dated.yaml"
    path.write_text(TINY.read_text(encoding="utf-8") + "constants:\n  released: 2024-01-01\n", encoding="utf-8")
    assert load_ruleset(path).constants["released"] == "2024-01-01"
    assert main(["info", str(path), "--json"]) == 0
    assert '"2024-01-01"' in capsys.readouterr().out


def test_json_output_never_holds_infinity(tmp_path, capsys):
    """A score of .inf (a number YAML has, and Trick of the Rails uses): JSON has no such number."""
    path = tmp_path / "endless.yaml"
    path.write_text(TINY.read_text(encoding="utf-8").replace("score: points[player]", "score: endless")
                    + "constants:\n  endless: .inf\n", encoding="utf-8")
    assert main(["simulate", str(path), "--games", "2", "--json"]) == 0
    out = capsys.readouterr().out
    assert "infinity" in out
    json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in the JSON output"))


def test_the_largest_number_a_counter_may_hold_is_shown_and_logged(tmp_path):
    path = tmp_path / "large.yaml"
    largest = 10 ** MAX_DIGITS - 1
    path.write_text(HOSTILE.format(snippet=f"x = {10 ** (MAX_DIGITS - 1)}\n  x = x * 10 - 1\n  log(x)"))
    game = Game(load_ruleset(path), 2, seed=1)
    assert game.table.counters["x"] == largest
    assert str(largest) in render(view(game, 1, person=True))
    assert str(largest) in json.dumps(view(game, 1).as_dict())  # in the log
@pytest.mark.parametrize("score,message", [
    (str(9 * 10 ** 999), "a score is a number from"),
    ('"1.0e308"', "a score is a number from"),
])
def test_a_score_simulate_cannot_add_up_is_one_located_line(tmp_path, capsys, score, message):
    path = tmp_path / "score.yaml"
    path.write_text(TINY.read_text(encoding="utf-8").replace("score: points[player]", "score: big")
                    + f"constants:\n  big: {score}\n", encoding="utf-8")
    assert main(["simulate", str(path), "--games", "2"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and message in err and f"{path}:" in err


def test_going_through_a_long_list_again_and_again_counts_steps(tmp_path, capsys):
    path = tmp_path / "again.yaml"
    path.write_text(HOSTILE.format(snippet="let l = range(0, 1000000)\n  repeat 20:\n      x = sum(l)"))
    code, out = validate(capsys, path)
    assert code == 1
    assert out.startswith(f"{path}:24:7: error: {STEPS}") and len(out.splitlines()) == 1

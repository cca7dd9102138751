"""Fuzzing the loader, the parser, the compiler, compiled rules, saves and the terminal: only
clean errors may come out.

Budgets are fixed (max_examples) so the run stays short in CI; a failure prints the input."""
from __future__ import annotations

import copy
import io
import json
import os
import sys
import textwrap
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.core.errors import EffectError, EngineError, IllegalMove, RulesetError, SaveError
from engine.game.game import Game
from engine.game.saves import DIGEST, content_digest, resume, state_difference, write_save
from engine.lang.builtins import REGISTRY
from engine.rules.ruleset import load_ruleset

from conftest import ROOT

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

BASE = """
game: {name: Fuzz, players: [2]}
constants:
  colours: [red, blue]
card_kinds:
  token: {zone: supply, label: "{colour} {rank}", properties: {colour: string, rank: integer}}
cards:
  - {kind: token, colour: red, rank: 1}
  - {kind: token, colour: blue, rank: 3}
  - {kind: token, colour: blue, rank: 0, count: 2}
zones:
  supply: {}
  hand: {per: player, visibility: owner}
counters:
  total: {initial: 0}
  points: {per: player, initial: 0}
scoring:
  score: points[player]
"""


def write(tmp_path_factory, flow: str) -> str:
    path = tmp_path_factory.mktemp("fuzz") / "r.yaml"
    path.write_text(BASE + "flow: |\n" + textwrap.indent(flow, "  ") + "\n", encoding="utf-8")
    return str(path)


def play(path: str) -> None:
    """Load and play with the first option every time; only clean errors are allowed."""
    try:
        rs = load_ruleset(path)
    except RulesetError:
        return
    try:
        game = Game(rs, 2 if 2 in rs.players else rs.players[0], seed=1)
        for _ in range(50):
            if game.over:
                break
            before = game.digest()
            try:
                game.apply(0)
            except EffectError:
                assert game.digest() == before, "a failed move changed the game"
                return
        if game.over:
            game.scores()
            game.winners()
    except (EffectError, IllegalMove):
        return


@SETTINGS
@given(st.text(max_size=200))
def test_random_text_as_a_rule(tmp_path_factory, text):
    play(write(tmp_path_factory, text.replace("\r", "")))


# -------------------------------------------------------- programs built from the grammar

NAMES = ["total", "colours", "supply", "players", "player_count", "x", "c", "p"]
LITERALS = ["0", "1", "2", "-1", '"red"', "true", "false", "none", "[]", "[1, 2]"]


def expressions() -> st.SearchStrategy[str]:
    leaf = st.sampled_from(LITERALS + NAMES + ["hand[1]", "points[2]", "option.nosuch", "c.rank"])

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "==", "<", "and", "or",
                                                   "in", "not in"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})")
        calls = st.tuples(st.sampled_from(sorted(n for n, b in REGISTRY.items() if b.kind == "value")),
                          st.lists(inner, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})")
        comp = st.tuples(inner, inner).map(lambda t: f"[{t[0]} for c in {t[1]} if c]")
        other = st.one_of(st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
                          inner.map(lambda e: f"not {e}"), inner.map(lambda e: f"(c -> {e})"),
                          st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
                          inner.map(lambda e: f"{e}.rank"))
        return st.one_of(binary, calls, comp, other)
    return st.recursive(leaf, extend, max_leaves=8)


def statements(depth: int = 2) -> st.SearchStrategy[list[str]]:
    e = expressions()
    simple = st.one_of(
        e.map(lambda x: f"let x = {x}"), e.map(lambda x: f"total = {x}"), e.map(lambda x: f"points[1] += {x}"),
        e.map(lambda x: f"let c = choose(1, {x}, \"pick\")"), e.map(lambda x: f"move({x}, hand[2])"),
        e.map(lambda x: f"shuffle({x})"), e.map(lambda x: f"log({x})"), st.just("end_game()"),
        e.map(lambda x: f"deal(supply, hand[1], {x})"), st.just("break"), st.just("pass"))
    if depth == 0:
        return st.lists(simple, min_size=1, max_size=4)
    inner = statements(depth - 1)
    block = st.tuples(st.sampled_from(["if {}:", "while {}:", "for c in {}:", "repeat {}:"]), e, inner).map(
        lambda t: [t[0].format(t[1])] + ["    " + line for line in t[2]])
    return st.lists(st.one_of(simple.map(lambda s: [s]), block), min_size=1, max_size=4).map(
        lambda blocks: [line for b in blocks for line in b])


@SETTINGS
@given(statements())
def test_random_programs_compile_and_run_cleanly(tmp_path_factory, lines):
    play(write(tmp_path_factory, "let x = 0\nlet c = none\nlet p = 1\n" + "\n".join(lines)))


# -------------------------------------------------------- random YAML documents

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False),
                    st.text(max_size=20))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["game", "zones", "flow", "scoring", "cards", "card_kinds", "counters",
                                     "name", "players", "kind", "zone", "per", "score", "do", "on", "x"]),
                    inner, max_size=5)), max_leaves=25)


@SETTINGS
@given(documents)
def test_random_yaml_documents_are_rejected_cleanly(tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("doc") / "d.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    play(str(path))


@SETTINGS
@given(st.binary(max_size=300))
def test_random_bytes_are_rejected_cleanly(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("bytes") / "b.yaml"
    path.write_bytes(data)
    play(str(path))


# -------------------------------------------------------- saves edited at random

TINY_RULES = Path(__file__).resolve().parent / "fixtures" / "tiny.yaml"


def run_cli(args: list[str], typed: str = "") -> tuple[int, str, str]:
    """`engine ARGS` in this process, with `typed` as the terminal's input: (status, out, err).
    An exception that is not an exit status fails the test: it would be a traceback."""
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(typed)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = main(args)
    finally:
        sys.stdin = stdin
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[str, dict]:
    """A save of Tiny stopped after three decisions, and one of a finished game, as data."""
    folder = tmp_path_factory.mktemp("saves")
    rules = load_ruleset(TINY_RULES)
    made = {}
    for name, decisions in (("stopped", [0, 1, 0]), ("finished", [0, 1, 0, 1])):
        game = Game(rules, 2, seed=4)
        for d in decisions:
            game.apply(d)
        write_save(game, folder / f"{name}.json", ["human", "random"])
        made[name] = json.loads((folder / f"{name}.json").read_text())
    assert made["finished"]["result"] and "result" not in made["stopped"]
    return made


json_values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(),
                                     st.text(max_size=8)),
                           lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                   st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                           max_leaves=6)


def _places(data: object, path: tuple = ()) -> list[tuple]:
    """Every place in a JSON document, as a path of keys and indices."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _places(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += _places(value, path + (i,))
    return found


def _edit(data: dict, place: tuple, how: str, value: object) -> None:
    *parents, last = place
    holder = data
    for key in parents:
        holder = holder[key]
    if how == "replace":
        holder[last] = value
    elif how == "delete":
        del holder[last]
    elif isinstance(holder[last], dict):
        holder[last]["extra"] = value
    elif isinstance(holder[last], list):
        holder[last].append(value)
    else:
        holder[last] = [holder[last], value]


def _check_replay(path: Path, original: dict, data: dict) -> None:
    """A one-line error, a verdict that the save does not reproduce, or a faithful replay: only
    a save whose game is the saved one (same seed, players, options and decisions) replays."""
    status, out, err = run_cli(["replay", str(path)])
    errors = [line for line in err.splitlines() if line.strip() and not line.startswith("warning:")]
    if status != 0:
        assert status == 1 and (len(errors) == 1 or "does NOT reproduce" in out), (status, out, err)
        return
    assert not errors, err
    game = {k: original[k] for k in ("seed", "players", "options", "decisions")}
    assert {k: data.get(k) for k in game} == game, f"an edited save replayed another game:\n{out}"


def _edited(original: dict, how: str, data: st.DataObject) -> dict:
    """`original` with one place replaced, deleted or added to."""
    edited = copy.deepcopy(original)
    places = [p for p in _places(original) if p and (how != "delete" or not isinstance(p[-1], int))]
    _edit(edited, data.draw(st.sampled_from(places)), how, data.draw(json_values))
    return edited


def _written(tmp_path_factory, data: dict) -> Path | None:
    path = tmp_path_factory.mktemp("edited") / "save.json"
    try:
        path.write_text(json.dumps(data))
    except ValueError:  # an integer too long to write: test_cli writes such a save itself
        return None
    return path


@SETTINGS
@given(st.sampled_from(["stopped", "finished"]), st.sampled_from(["replace", "delete", "add"]), st.data())
def test_saves_changed_by_hand_are_refused(tmp_path_factory, saves, name, how, data):
    """Any change anywhere in a save, its digest left as it was: refused in one line."""
    edited = _edited(saves[name], how, data)
    path = _written(tmp_path_factory, edited)
    if path is None:
        return
    status, out, err = run_cli(["replay", str(path)])
    if edited == saves[name]:  # e.g. a float written in place of an equal integer
        assert status == 0, err
        return
    assert status == 1 and out == "" and len(err.strip().splitlines()) == 1, (out, err)
    assert "changed since it was written" in err or "not a save of this engine" in err, err


# Every field of a save, and of its state and result: each is edited in turn, so that none is left out.
FIELDS = [("format",), ("engine",), ("ruleset",), ("extensions",), ("ruleset_sha256",), ("players",), ("options",),
          ("seed",), ("decisions",), ("decisions", 0), ("seats",), ("seats", 0), ("state",), ("result",),
          *(("state", key) for key in ("format", "ruleset", "ruleset_sha256", "players", "options", "seed",
                                       "decisions", "over", "end_reason", "table", "rng", "program", "pending",
                                       "log")),
          *(("result", key) for key in ("digest", "scores", "winners", "end_reason"))]


@pytest.mark.parametrize("field", FIELDS, ids=[".".join(map(str, f)) for f in FIELDS])
@settings(SETTINGS, max_examples=12)
@given(how=st.sampled_from(["replace", "delete", "add"]), value=json_values)
def test_saves_edited_and_resealed_are_refused_or_replay_faithfully(tmp_path_factory, saves, field, how, value):
    """A field replaced, deleted or added to, and the save's digest worked out again, as whoever
    edits a save on purpose can: replay and resume end in one line of error or a faithful
    replay, never in a traceback."""
    for name in ("stopped", "finished") if field[0] != "result" else ("finished",):
        edited = copy.deepcopy(saves[name])
        if how == "delete" and isinstance(field[-1], int):
            how = "replace"
        _edit(edited, field, how, value)
        edited[DIGEST] = content_digest(edited)
        path = _written(tmp_path_factory, edited)
        if path is None:
            return
        _check_replay(path, saves[name], edited)
        status, out, err = run_cli(["play", "--resume", str(path), "--seats", "random,random"])
        if status != 0:
            assert status == 1 and len([line for line in err.splitlines() if not line.startswith("warning:")]) == 1, err


@SETTINGS
@given(st.sampled_from(["stopped", "finished"]), st.data())
def test_saves_with_bytes_changed_at_random_never_crash(tmp_path_factory, saves, name, data):
    text = json.dumps(saves[name], indent=1).encode()
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + 8)))
    changed = text[:start] + data.draw(st.binary(max_size=8)) + text[end:]
    path = tmp_path_factory.mktemp("bytes") / "save.json"
    path.write_bytes(changed)
    try:
        same = json.loads(changed) == saves[name]
    except (ValueError, RecursionError):
        same = False
    status, out, err = run_cli(["replay", str(path)])
    if same:
        assert status == 0, err
    else:
        assert status == 1 and out == "" and len(err.strip().splitlines()) == 1, (out, err)


@SETTINGS
@given(st.sampled_from(["replace", "delete", "add"]), st.data())
def test_a_resumed_save_is_the_game_of_its_seed_and_decisions_or_is_refused(tmp_path_factory, saves, how, data):
    """Any place of an unfinished save changed, its digest worked out again as whoever edits a
    save on purpose can: resuming refuses it in one line, or goes on from the game its seed and
    decisions lead to, whose state is the saved one; never from an edited state."""
    edited = _edited(saves["stopped"], how, data)
    edited[DIGEST] = content_digest(edited)
    path = _written(tmp_path_factory, edited)
    if path is None:
        return
    try:
        game, _, warnings = resume(path)
    except SaveError as exc:
        assert str(exc).startswith(f"{path}") and "\n" not in str(exc), str(exc)
        return
    except EngineError:  # the ruleset it names (a path of the file's) is not one
        assert edited["ruleset"] != saves["stopped"]["ruleset"] or edited.get("extensions")
        return
    replayed = Game(load_ruleset(TINY_RULES), edited["players"], game.options, edited["seed"])
    for decision in edited["decisions"]:
        replayed.apply(decision)
    assert game.snapshot() == replayed.snapshot()
    if isinstance(edited.get("state"), dict) and not warnings:
        assert state_difference(game, edited["state"]) is None


@pytest.fixture(scope="module")
def run_file(tmp_path_factory) -> bytes:
    """The bytes of a run file of three games of Tiny (engine simulate --out)."""
    path = tmp_path_factory.mktemp("run") / "runs.jsonl"
    assert run_cli(["simulate", str(TINY_RULES), "-n", "2", "-g", "3", "--seed", "1", "-j", "1",
                    "--out", str(path)])[0] == 0
    return path.read_bytes()


@SETTINGS
@given(st.data())
def test_run_files_with_bytes_changed_at_random_never_crash(tmp_path_factory, run_file, data):
    """report reads a changed run file, or refuses it in one line naming it; never a traceback."""
    start = data.draw(st.integers(0, len(run_file)))
    end = data.draw(st.integers(start, min(len(run_file), start + 8)))
    inserted = data.draw(st.one_of(st.binary(max_size=8), st.sampled_from([b"[" * 5000, b"[[[[", b"9" * 5000,
                                                                           b'{"game": ', b"\n", b"\xff"])))
    path = tmp_path_factory.mktemp("runs") / "runs.jsonl"
    path.write_bytes(run_file[:start] + inserted + run_file[end:])
    status, out, err = run_cli(["report", str(path)])
    errors = [line for line in err.splitlines() if not line.startswith("warning:")]
    if status != 0:
        assert status == 1 and out == "" and len(errors) == 1 and str(path) in errors[0], (out, err)
    else:
        assert errors == [] and "games played" in out


# -------------------------------------------------------- lines typed at the terminal

typed_lines = st.lists(st.one_of(st.text(max_size=12), st.sampled_from(["1", "2", "3", "u", "q", "", " 2 ", "0",
                                                                         "-1", "9" * 30, "\x1b[A", "undo", "s",
                                                                         "s game.json", "s /", "i 1", "log", "t"])),
                       max_size=25).map(lambda lines: "".join(line.replace("\n", " ") + "\n" for line in lines))


@SETTINGS
@given(typed_lines, st.sampled_from(["human,random", "human,human", "random,human"]))
def test_lines_typed_at_the_terminal_never_crash(tmp_path_factory, text, seats):
    # In a folder of its own: a line such as "s NAME" saves the game there.
    folder = tmp_path_factory.mktemp("typed")
    home = os.getcwd()
    os.chdir(folder)
    try:
        status, out, err = run_cli(["play", str(TINY_RULES), "--seats", seats, "--seed", "4"], typed=text)
    finally:
        os.chdir(home)
    assert status == 0 and err == "", err
    assert ("Final scores" in out) != ("Game stopped" in out)

# -------------------------------------------------------- a shipped ruleset, broken as an author might

SHIPPED = (ROOT / "rulesets" / "trick_of_the_rails.yaml").read_text(encoding="utf-8").split("\n")
PIECES = ["", "[]", "{}", '"x"', "3", "-1", "true", "null", ">-", "|", "'", "[a, b", "{a: 1}", "*x", "\t", "#"]


@st.composite
def broken_rulesets(draw) -> str:
    """The shipped ruleset after 1 to 3 slips: cut short (at a line or inside one), a line or a
    block lost or doubled, indentation changed, a tab typed, a value replaced, letters swapped."""
    lines = list(SHIPPED)
    for _ in range(draw(st.integers(1, 3))):
        if not lines:
            break
        k = draw(st.integers(0, len(lines) - 1))
        line = lines[k]
        op = draw(st.sampled_from(["cut", "cut inside", "lose", "lose block", "double", "indent", "dedent",
                                   "tab", "value", "swap"]))
        if op == "cut":
            lines = lines[:k]
        elif op == "cut inside":
            lines = lines[:k] + [line[:draw(st.integers(0, len(line)))]]
        elif op == "lose":
            del lines[k]
        elif op == "lose block":
            del lines[k:k + draw(st.integers(2, 12))]
        elif op == "double":
            lines.insert(k, line)
        elif op in ("indent", "dedent"):
            lines[k] = "  " + line if op == "indent" else line[2:]
        elif op == "tab":
            at = draw(st.integers(0, len(line) - len(line.lstrip())))
            lines[k] = line[:at] + "\t" + line[at:]
        elif op == "value" and ": " in line:
            lines[k] = line[:line.index(": ") + 2] + draw(st.sampled_from(PIECES))
        elif op == "swap" and len(line) > 1:
            i = draw(st.integers(0, len(line) - 2))
            lines[k] = line[:i] + line[i + 1] + line[i] + line[i + 2:]
    return "\n".join(lines)


@settings(SETTINGS, max_examples=60)
@given(broken_rulesets())
def test_a_broken_shipped_ruleset_is_rejected_or_played_cleanly(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("broken") / "r.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_ruleset(path)
    except RulesetError as exc:  # every problem at a line of the file
        assert exc.diagnostics and all(d.location.file == str(path) and d.location.line
                                       for d in exc.diagnostics), str(exc)
        return
    play(str(path))

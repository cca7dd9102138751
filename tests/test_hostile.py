"""Hostile and broken input: each ends in a located error, never a traceback, and nothing is lost.

(The fuzz tests are in test_fuzz.py; YAML and schema mistakes in test_validate.py; saves and the
terminal in test_cli.py and test_human_agent.py.)"""
from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap

import pytest
import yaml

from engine.cli import main
from engine.core import usercache
from engine.core.errors import EffectError
from engine.game import saves
from engine.game.game import Game
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
    with pytest.raises(OSError):
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
                              text=True, cwd=ROOT, env=env, timeout=120)
    assert validate_trick().returncode == 0  # fills the cache
    folder = tmp_path / "cache" / "engine"
    planted = pickle.dumps(_Planted(str(tmp_path / "ran")))
    for path in folder.glob("effects-*"):
        # Lark reads a line, then unpickles; the trees are a pickle, with or without a signature.
        path.write_bytes(b"line\n" + planted if path.suffix == ".lark" else planted)
    (folder / "schema-passed").write_bytes(planted)
    again = validate_trick()
    assert again.returncode == 0 and again.stderr.startswith(f"{TRICK}: ok") and again.stdout == ""
    assert not (tmp_path / "ran").exists()


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="no file owners and modes here")
def test_a_cache_directory_others_can_write_to_is_not_used(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "engine"
    folder.mkdir()
    folder.chmod(0o777)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert usercache.directory.__wrapped__() is None
    assert capsys.readouterr().err.splitlines() == [
        f"engine: the cache directory {folder} is not used: another user owns it or can write to it "
        "(make it yours alone, or remove it)"]
    folder.chmod(0o700)
    assert usercache.directory.__wrapped__() == folder
    assert capsys.readouterr().err == ""

"""Loading takes faster paths where it can: libyaml for YAML, a cached parser and cached parse
trees for the effect language. Each must give exactly what the slow path gives: the same data,
the same positions, the same messages."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token, Tree

from engine.core import usercache
from engine.lang import parser
from engine.lang.parser import ParseProblem, parse
from engine.rules import schema, yamlload

ROOT = Path(__file__).resolve().parent.parent
YAML_FILES = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))
needs_libyaml = pytest.mark.skipif(not yamlload._libyaml_usable(), reason="PyYAML without libyaml")


# -------------------------------------------------------- YAML: libyaml against pure Python

def load(text: str | bytes, libyaml: bool, monkeypatch) -> tuple:
    monkeypatch.setattr(yamlload, "_LIBYAML", None if libyaml else False)
    try:
        data, smap, problems = yamlload.load_yaml(text, "f.yaml")
    except Exception as exc:  # the same exception either way (today: an unknown tag)
        return "raised", type(exc).__name__, str(exc)
    return (typed(data), smap.marks, smap.key_marks, smap.segments, [str(p) for p in problems])


def typed(value):
    """Data with the type of every value, so that 1, 1.0 and True differ."""
    if isinstance(value, dict):
        return [(typed(k), typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [typed(v) for v in value]
    return type(value).__name__, repr(value)


def same_either_way(text: str | bytes, monkeypatch) -> None:
    assert load(text, True, monkeypatch) == load(text, False, monkeypatch), repr(text)


@needs_libyaml
@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.name)
def test_shipped_files_read_the_same_and_take_the_fast_path(path, monkeypatch):
    raw = path.read_bytes()
    same_either_way(raw, monkeypatch)
    monkeypatch.setattr(yamlload, "_LIBYAML", None)
    assert yamlload._load_with_libyaml(raw.decode("utf-8"), "f.yaml", raw.decode("utf-8").splitlines())


TRICKY = [
    "a: 1\n\tb: 2\n", "a:\tb\n", "\ufeffa: 1\n", "a: x\x85b: y\n", "a: x\u2028b\n",  # tabs, BOM, breaks
    "a: {b: }\n", "a: {b: , c: 1}\n", "a: [b: ]\n", "a:\n", "a:", "?\n", "---\n", "--- a\n", "",
    "{a: b?c}\n", "[what? x]\n", "a: why?\n", "[a, ?b]\n",  # '?' in and out of [ ] and { }
    "{a: !x, b: c}\n", "[!!str, x]\n", "[!x,y]\n", "a: !x,y z\n", "a: !foo x\n", "a: !!int x\n",
    "a: ! x\n", "a: !!str 1\n", "%TAG !e! tag:e,2000:\n---\na: !e!x y\n",  # tags
    "a: 1\na: 2\n", "<<: {a: 1}\n", "? [a]\n: b\n", "[a]: b\n", "a: &x [1, 2]\nb: *x\nc: *y\n",
    "a: |\n  x\n  y\n", "a: |\n  x", "a: >-\n  x\n\n  y\nb: 1", "a: |+\n  x\n\n\n", "a: |2\n    x\n",
    "a: |#c\n  x\n", "a: >2-#\n  x\n", "|-#x\n", "a: | #c\n  x\n", "a: |0\n  x\n", "a: &x |\n  x\n",
    "a: 'x\n  y'\n", 'a: "x\\\n  y"\n', "a: x\n  y\n  z\n", "a: {b: x\n  y}\n", "a: [x,\n  y]\n",
    "a: b\r\nc: d\r\n", "a: é\nb: 😀 x\nc: [é, 😀]\n", 'a: "\\ud800"\n', "a: 1 # c\n# c\n",
    "a: 2001-01-01\nb: 1e3\nc: 0x1F\nd: yes\ne: ~\nf: .inf\n", "a: b\n...\n", "a: 1\n---\nb: 2\n",
    "game:\n  x: " + "[" * 66 + "]" * 66 + "\n", "a: " + "[" * 500 + "]" * 500 + "\n",
    "a: " + "[" * 20000 + "]" * 20000 + "\n", "- " * 1500 + "x\n",
    "a: [1, 2\n", "a: {b: 1\n", "a: 'x\n", "a: b: c\n", "- a\nb: c\n", "a: \x07\n",
    "%YAML 1.2\n---\na: 1\n", "%FOO bar\n---\na: 1\n", "x" * 1100 + ": 1\n", "{? a: b}\n", "[a: b: c]\n",
    'a: "\\/\\N\\_\\x41\\u00e9\\U0001F600\\q"\n', "[:x, -x, http://x.y/z]\n", "a: &a.b x\nb: *a.b\n",
    "a:\n  b: 1\n c: 2\n", "a: {\n  b: 1\n}\n", "a: b#c\n", "a: 'b'#c\n", "[a,,b]\n",
]


@needs_libyaml
@pytest.mark.parametrize("text", TRICKY)
def test_unusual_yaml_reads_the_same(text, monkeypatch):
    same_either_way(text, monkeypatch)


_PIECES = st.sampled_from(list(":-?,[]{}#&*!|>'\"%@` \t\r\n\\é") + [
    "\n  ", "\n- ", ": ", "- ", "a", "b: ", "x", "1", "~", "...", "---", "<<", "!x", "!!str ",
    "&a ", "*a", "|-\n  ", ">\n  ", "|#", "\r\n", "\ufeff", "\x85", "😀", "{a: 1}", "[1, 2]", "''", '""'])
_SNIPPETS = st.sampled_from([p.read_text(encoding="utf-8") for p in YAML_FILES[:1]]).flatmap(
    lambda text: st.integers(0, max(0, len(text) - 400)).map(lambda i: text[i:i + 400]))


@needs_libyaml
@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.lists(_PIECES, max_size=30).map("".join),
                 st.tuples(_SNIPPETS, st.lists(st.tuples(st.integers(0, 400), _PIECES), max_size=3)).map(
                     lambda s: _insert(*s))))
def test_random_yaml_reads_the_same(monkeypatch, text):
    same_either_way(text, monkeypatch)


def _insert(text: str, edits: list[tuple[int, str]]) -> str:
    for at, piece in edits:
        text = text[:at] + piece + text[at:]
    return text


# -------------------------------------------------------- parse trees read back from the cache

def rule_texts() -> list[tuple[str, str]]:
    """Every string in the shipped rulesets that parses as a program, and every one-line string
    that parses as an expression."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            for start in ("program", "expression"):
                try:
                    parse(value, start)
                except ParseProblem:
                    continue
                found.append((value, start))
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


def same_tree(a, b) -> bool:
    """Equal, and so are the positions of every node and token (Tree == Tree compares neither).
    A rule's name is compared as a string: a parser that Lark read back from its cache names
    rules with plain strings, a parser built afresh with Token('RULE', name)."""
    if isinstance(a, Tree):
        return (type(a) is type(b) and vars(a).keys() == vars(b).keys() and str(a.data) == str(b.data)
                and isinstance(b.data, str) and vars(a.meta) == vars(b.meta)
                and len(a.children) == len(b.children)
                and all(same_tree(x, y) for x, y in zip(a.children, b.children)))
    if isinstance(a, Token):
        fields = ("type", "value", "start_pos", "line", "column", "end_line", "end_column", "end_pos")
        return type(a) is type(b) and all(getattr(a, f) == getattr(b, f) for f in fields)
    return a == b


def test_a_tree_read_back_is_the_tree_parsed():
    texts = rule_texts()
    assert len(texts) > 200
    for text, start in texts:
        source = text if text.endswith("\n") else text + "\n"
        fresh = parser._parser().parse(source, start=start)
        assert same_tree(pickle.loads(parser._dumps(fresh)), fresh)
        assert same_tree(parse(text, start), fresh)  # from the cache, or parsed and then kept


def test_each_caller_gets_its_own_tree():
    first, second = parse("x = 1\n", "program"), parse("x = 1\n", "program")
    assert first == second and first is not second


def test_a_damaged_cache_entry_is_parsed_again(monkeypatch):
    cache = parser._TreeCache()
    monkeypatch.setattr(parser, "_TREES", cache)
    monkeypatch.setattr(cache, "stored", {})
    tree = parse("y = 2\n", "program")
    for key in cache.used:
        cache.used[key] = b"not a pickle"
    assert parse("y = 2\n", "program") == tree


def test_the_cache_keeps_the_most_recent_trees_within_its_size(tmp_path, monkeypatch):
    files = (tmp_path / "p.lark", tmp_path / "p.trees", tmp_path / "p.sig")
    monkeypatch.setattr(parser, "_cache_files", lambda: files)
    monkeypatch.setattr(usercache, "_key", lambda: b"k" * 32)
    usercache.write_atomically(files[1], pickle.dumps({"old": b"o" * 60, "older": b"x" * 60}))
    cache = parser._TreeCache()
    cache.used = {"new": b"n" * 60}
    monkeypatch.setattr(parser._TreeCache, "MAX_BYTES", 130)
    cache.save()
    assert pickle.loads(usercache.read_signed(files[1])) == {"older": b"x" * 60, "new": b"n" * 60}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lock", "p.trees"]  # no temporary file is left


def test_processes_that_save_together_keep_each_others_work(tmp_path, monkeypatch):
    # Two runs that started with the same cache (jobs, a benchmark's runs) and parsed different
    # rules: the one that saves last keeps the other's trees too, and the digests of data that
    # passed the schema likewise. Each used to write what it read at its start plus its own.
    files = (tmp_path / "p.lark", tmp_path / "p.trees", tmp_path / "p.sig")
    monkeypatch.setattr(parser, "_cache_files", lambda: files)
    monkeypatch.setattr(usercache, "_key", lambda: b"k" * 32)
    monkeypatch.setattr(usercache, "directory", lambda: tmp_path)
    first, second = parser._TreeCache(), parser._TreeCache()
    assert first.get("a") is None and second.get("b") is None  # both read the empty cache
    first.used, second.used = {"a": b"1"}, {"b": b"2"}
    first.save()
    second.save()
    assert pickle.loads(usercache.read_signed(files[1])) == {"a": b"1", "b": b"2"}
    one, two = schema._Passed(), schema._Passed()
    one.add("x" * 64)
    two.add("y" * 64)
    one.save()
    two.save()
    assert list(schema._Passed()._read()) == ["x" * 64, "y" * 64]


# -------------------------------------------------------- `engine validate` with and without caches

# Errors of each kind: syntax (never cached), names in rules that parse (so come from cached
# trees on a warm run), and a rule nested too deeply to compile.
BROKEN = (ROOT / "rulesets" / "trick_of_the_rails.yaml").read_text(encoding="utf-8").replace(
    "      trick += 1", "      trick += (1\n      let = 2", 1).replace(
    "  score: sum(share_value(c.company) for c in shares[player])",
    "  score: sum(share_valu(c.company) for c in shares[playr]) + " + "-" * 3000 + "1", 1)


def validate(cache_home: Path, *paths: Path) -> tuple[int, str, str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    proc = subprocess.run([sys.executable, "-m", "engine", "validate", *map(str, paths)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the cache directory is set by XDG_CACHE_HOME")
def test_validate_says_the_same_with_a_cold_warm_damaged_or_missing_cache(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text(BROKEN, encoding="utf-8")
    paths = [ROOT / "rulesets" / "trick_of_the_rails.yaml", broken]
    no_cache = tmp_path / "a-file"
    no_cache.write_text("not a directory")
    reference = validate(no_cache, *paths)  # no cache directory can be made: everything is parsed
    assert reference[0] == 1 and "trick_of_the_rails.yaml: ok" in reference[1] and ": error: " in reference[1]
    assert "Traceback" not in reference[1] + reference[2]

    home = tmp_path / "cache"
    assert validate(home, *paths) == reference  # cold: builds and writes the caches
    files = sorted(p.name for p in (home / "engine").iterdir())
    assert [Path(f).suffix or f for f in files] == [".lark", ".sig", ".trees", "key", "lock", "schema-passed"]
    assert validate(home, *paths) == reference  # warm: reads them
    for path in (home / "engine").iterdir():  # damaged
        path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])
    assert validate(home, *paths) == reference
    (home / "engine" / "effects-0000000000000000.trees").write_bytes(b"an older version")
    for path in (home / "engine").iterdir():
        if path.suffix == ".lark":
            path.unlink()
    assert validate(home, *paths) == reference  # a new version removes the files of others
    assert sorted(p.name for p in (home / "engine").iterdir()) == files


def test_only_data_that_passed_the_schema_is_remembered(tmp_path, monkeypatch):
    monkeypatch.setattr(usercache, "directory", lambda: tmp_path)
    passed = schema._Passed()
    monkeypatch.setattr(schema, "_PASSED", passed)
    raw = (ROOT / "rulesets" / "trick_of_the_rails.yaml").read_bytes()
    data, smap, _ = yamlload.load_yaml(raw, "t.yaml")
    assert schema.schema_problems(data, smap, raw) == []
    assert schema._digest(raw, "ruleset.schema.json") in passed
    raw = raw.replace(b"players: [", b"players: three #[", 1)  # a changed file is checked again
    data, smap, _ = yamlload.load_yaml(raw, "t.yaml")
    for _ in range(2):
        problems = schema.schema_problems(data, smap, raw)
        assert [d.message for d, _ in problems] == ["expected a list in game.players, got 'three'"]
    assert schema._digest(raw, "ruleset.schema.json") not in passed
    passed.save()
    again = schema._Passed()
    assert list(again._read()) == list(passed._read()) and len(passed._read()) == 1
    (tmp_path / "schema-passed").write_bytes(b"\xff\xfe damaged")
    assert not schema._Passed()._read()


def test_no_trees_are_kept_without_a_cache_directory(monkeypatch):
    cache = parser._TreeCache()
    monkeypatch.setattr(parser, "_TREES", cache)
    monkeypatch.setattr(parser, "_cache_files", lambda: None)
    assert parse("z = 3\n", "program") == parse("z = 3\n", "program")
    assert not cache.used and not cache.changed


def test_a_syntax_error_in_rule_text_is_placed_the_same_either_way(monkeypatch):
    text = textwrap.dedent("""\
        game: {name: T, players: [2]}
        flow: |
          let x = 1
          x += 2 * * 3
        scoring: {score: "1 +"}
        """)
    places = []
    for libyaml in (True, False):
        monkeypatch.setattr(yamlload, "_LIBYAML", None if libyaml else False)
        data, smap, problems = yamlload.load_yaml(text, "t.yaml")
        for path, start in ((("flow",), "program"), (("scoring", "score"), "expression")):
            rule = data[path[0]] if len(path) == 1 else data[path[0]][path[1]]
            with pytest.raises(ParseProblem) as exc:
                parse(rule, start)
            places.append(str(smap.text_location(path, rule, exc.value.line, exc.value.column)))
    assert places == ["t.yaml:4:12", "t.yaml:5:22"] * 2


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the cache directory is set by XDG_CACHE_HOME")
def test_processes_that_start_together_on_a_new_cache_agree_on_one_key(tmp_path):
    """Each made a key and the last to write it won: the others signed with keys nobody kept, so
    what they cached was never read again (a cold load counted in CI's instruction gate)."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path))
    code = "from engine.core import usercache; print(usercache._key().hex())"
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
             for _ in range(8)]
    keys = {proc.communicate(timeout=120)[0].strip() for proc in procs}
    assert len(keys) == 1 and keys == {(tmp_path / "engine" / "key").read_bytes().hex()}

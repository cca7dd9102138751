"""Shipped files: the schemas, rulesets and examples are the package's resources, and a shipped
ruleset (or extension file) is found by name from any folder; a file of that name wins."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import RulesetError, load_ruleset
from engine.rules import resources

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
EXAMPLES = {p.stem: p for p in (ROOT / "examples").glob("*/*.yaml")}  # the example rulesets, in folders
TINY = (ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8")


def engine(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "engine", *map(str, args)], capture_output=True, text=True,
                          encoding="utf-8", errors="replace", cwd=cwd, timeout=120)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    return proc


def test_the_package_holds_every_shipped_file():
    """What the package finds is what the source tree holds, file by file."""
    assert list(resources.shipped(resources.RULESETS)) == NAMES
    assert list(resources.shipped(resources.EXTENSIONS)) == sorted(p.stem for p in (ROOT / "examples").glob("*.yaml"))
    for name, path in resources.shipped(resources.RULESETS).items():
        assert path.read_bytes() == (ROOT / "rulesets" / f"{name}.yaml").read_bytes()
    for schema in (ROOT / "schemas").glob("*.json"):
        assert (resources.SCHEMAS / schema.name).read_bytes() == schema.read_bytes()


@pytest.mark.parametrize("name", NAMES)
def test_a_shipped_ruleset_loads_by_name_as_by_path(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    by_name = load_ruleset(name)
    by_path = load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    assert by_name.digest == by_path.digest and by_name.name == by_path.name
    assert Path(by_name.path).read_bytes() == Path(by_path.path).read_bytes()
    assert by_name.loaded_as == name  # what a save or a run records: the name, found again anywhere


def test_a_shipped_extension_file_loads_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    by_name = load_ruleset("railways", ["my_events"])
    by_path = load_ruleset(ROOT / "rulesets" / "railways.yaml", [ROOT / "examples" / "my_events.yaml"])
    assert by_name.digest == by_path.digest and len(by_name.cards) == len(by_path.cards)
    assert by_name.extensions == ["my_events"]
    with pytest.raises(RulesetError, match="given twice"):
        load_ruleset("railways", ["my_events", ROOT / "examples" / "my_events.yaml"])


def test_a_file_of_that_name_wins(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "railways").write_text(TINY, encoding="utf-8")
    assert load_ruleset("railways").name == "Tiny"
    proc = engine("validate", "railways", cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("railways: ok (Tiny,"), proc.stderr
    # A folder of that name is no ruleset file: the name finds the shipped one.
    (tmp_path / "railways").unlink()
    (tmp_path / "railways").mkdir()
    assert load_ruleset("railways").digest == load_ruleset(ROOT / "rulesets" / "railways.yaml").digest


def test_an_unknown_name_lists_the_shipped_ones(tmp_path):
    proc = engine("play", "trick_of_the_rail", "--players", "4", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "trick_of_the_rail: error: no such file, nor a shipped ruleset named 'trick_of_the_rail' "
        f"(did you mean 'trick_of_the_rails'?); shipped rulesets: {', '.join(NAMES)}; examples: "
        f"{', '.join(sorted(EXAMPLES))}"]
    proc = engine("validate", "railways", "--with", "my_event", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        "my_event: error: no such file, nor a shipped extension file named 'my_event' (did you mean "
        "'my_events'?); shipped extension files: my_engine_fair, my_events"]


def test_a_path_of_the_source_tree_reads_the_shipped_file_outside_a_checkout(tmp_path):
    """As the docs write them (`engine play examples/lamplighters/lamplighters.yaml`), from any folder."""
    for given in ("rulesets/railways.yaml", "examples/lamplighters/lamplighters.yaml"):
        proc = engine("info", given, "--json", cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert Path(json.loads(proc.stdout)["path"]).samefile(ROOT / given)
    assert engine("info", "nothing/here.yaml", cwd=tmp_path).stderr.splitlines() == [
        "nothing/here.yaml: error: cannot read the file: No such file or directory"]
    assert engine("info", "rulesets/railway.yaml", cwd=tmp_path).stderr.splitlines() == [
        "rulesets/railway.yaml: error: cannot read the file: No such file or directory"]


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_example_plays_by_name_from_any_folder(tmp_path, name):
    rules = load_ruleset(name)
    assert Path(rules.path).samefile(EXAMPLES[name])
    players = str(rules.players[0])
    played = engine("play", name, "--players", players, "--seats", ",".join(["random"] * int(players)),
                    "--seed", "1", cwd=tmp_path)
    assert played.returncode == 0 and "Final scores" in played.stdout, played.stdout + played.stderr


def test_commands_take_names_from_any_folder(tmp_path):
    info = engine("info", "isle_of_trains", "--json", cwd=tmp_path)
    assert info.returncode == 0, info.stderr
    assert Path(json.loads(info.stdout)["path"]) == resources.shipped()["isle_of_trains"]
    save = tmp_path / "game.json"
    played = engine("play", "trick_of_the_rails", "--players", "3", "--seats", "random,random,random",
                    "--seed", "2", "--save", save, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert json.loads(save.read_text())["ruleset"] == "trick_of_the_rails"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert "reproduces exactly" in engine("replay", save, cwd=elsewhere).stdout
    simulated = engine("simulate", "railways", "--players", "3", "--games", "2", "--seed", "1", "--jobs", "1",
                       "--json", cwd=tmp_path)
    assert simulated.returncode == 0, simulated.stderr
    assert [r["game"] for r in json.loads(simulated.stdout)["results"]] == [1, 2]


def test_the_help_lists_the_shipped_names(tmp_path):
    out = engine("--help", cwd=tmp_path).stdout
    assert f"shipped rulesets: {', '.join(NAMES)}\n" in out
    assert f"example rulesets: {', '.join(sorted(EXAMPLES))}\n" in out
    assert "shipped extension files (for --with): my_engine_fair, my_events\n" in out



def test_from_the_source_folder_after_a_plain_install_the_top_level_folders_are_read(monkeypatch):
    """There `engine` is the source tree's, which has no engine.schemas package: `python -m
    engine` failed with "No module named 'engine.schemas'"."""
    def no_package(name):
        raise ModuleNotFoundError(f"No module named {name!r}")
    monkeypatch.setattr(resources, "files", no_package)
    root = Path(resources.__file__).resolve().parents[2]
    assert resources.folder("engine.schemas") == root / "schemas"
    assert resources.folder("engine.rulesets") == root / "rulesets"
    assert any(resources.folder("engine.schemas").glob("*.json"))


def test_the_wheel_holds_every_folder_of_examples():
    """pyproject.toml lists each folder of examples as a package with its YAML files, so that
    a wheel installs them (examples/kite_day was left out)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11 on
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    for folder in {p.parent.name for p in EXAMPLES.values()}:
        package = f"engine.examples.{folder}"
        assert package in config["packages"], package
        assert config["package-data"].get(package) == ["*.yaml"], package

"""The Python API page: its examples run, as one script, and the names it uses are exported."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "python-api.md"


BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
NEEDS = re.compile(r"# needs: (\w+)\n")
ADAPTER_LIBRARIES = ("pettingzoo", "pyspiel")


def run_script(blocks: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    script = tmp_path / "examples.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    return subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)


def test_the_examples_of_the_python_api_page_run(tmp_path):
    blocks = [b for b in BLOCKS if not NEEDS.match(b)]
    assert len(blocks) >= 8
    proc = run_script(blocks, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "option 99 is not legal here" in proc.stdout


def test_every_example_that_needs_a_library_names_one_the_tests_run():
    needs = {m.group(1) for m in map(NEEDS.match, BLOCKS) if m}
    assert needs == set(ADAPTER_LIBRARIES)


@pytest.mark.parametrize("library", ADAPTER_LIBRARIES)
def test_the_adapter_examples_run_where_their_library_is_installed(library, tmp_path):
    pytest.importorskip(library)
    blocks = [b for b in BLOCKS if (m := NEEDS.match(b)) and m.group(1) == library]
    proc = run_script(blocks, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout   # the results it prints


def test_the_package_exports_the_api():
    import engine
    for name in ("Game", "load_ruleset", "view", "PlayerView", "Ruleset", "EngineError", "RulesetError",
                 "EffectError", "IllegalMove", "SaveError"):
        assert hasattr(engine, name), name
    for method in ("legal_actions", "apply", "clone", "restore", "snapshot", "from_snapshot", "determinize",
                   "state_key", "scores", "winners"):
        assert callable(getattr(engine.Game, method)), method


# ---------------------------------------------------------------- names the docs give, old and new

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# What the docs named before the engine's modules moved into layers (docs/architecture.md): each
# still imports, and is the very object of its new home.
BEFORE_THE_LAYERS = {
    "engine.agents.make_agents": "engine.players.agents.make_agents",
    "engine.checks.terminal_problems": "engine.game.trial.terminal_problems",
    "engine.game.Game": "engine.game.game.Game",
    "engine.report.build_report": "engine.analysis.report.build_report",
    "engine.report.render_text": "engine.analysis.report.render_text",
    "engine.resources": "engine.rules.resources",
    "engine.ruleset.load_ruleset": "engine.rules.ruleset.load_ruleset",
    "engine.runfile.header": "engine.analysis.runfile.header",
    "engine.scoring.results_lines": "engine.rules.scoring.results_lines",
    "engine.search.MctsAgent": "engine.players.search.MctsAgent",
    "engine.search.GreedyAgent": "engine.players.search.GreedyAgent",
    "engine.simulate.RunSpec": "engine.analysis.run.RunSpec",
    "engine.simulate.game_seed": "engine.analysis.run.game_seed",
    "engine.simulate.play": "engine.players.loop.play",
    "engine.simulate.play_game": "engine.analysis.run.play_game",
    "engine.simulate.simulate": "engine.analysis.simulate.simulate",
    "engine.table.Player": "engine.core.table.Player",
    "engine.view.view": "engine.game.view.view",
    "engine.view.render": "engine.game.view.render",
}


def resolve(dotted: str):
    """The module or object a dotted name gives: its longest importable prefix, then attributes."""
    import importlib
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError as missing:
            if missing.name and not missing.name.startswith("engine"):
                raise  # the module is there, a package it needs (an extra's) is not
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ModuleNotFoundError(dotted)


def documented_names() -> set[str]:
    names = set()
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"^\s*from (engine[\w.]*) import ([\w, ]+)", text, re.M):
            names |= {f"{m.group(1)}.{n.strip().split(' as ')[0]}" for n in m.group(2).split(",") if n.strip()}
        for m in re.finditer(r"`(engine(?:\.\w+)+)(?::(\w+))?", text):  # engine.x.y, MODULE:CLASS
            names.add(m.group(1) + (f".{m.group(2)}" if m.group(2) else ""))
    return names


def test_every_name_the_docs_give_imports():
    names = documented_names()
    assert {"engine.players.loop.play", "engine.analysis.simulate.simulate", "engine.adapters.pettingzoo.env",
            "engine.examples.agents.flat_monte_carlo.FlatMonteCarlo"} <= names
    unavailable = {}
    for name in sorted(names):
        try:
            resolve(name)
        except ModuleNotFoundError as missing:
            if missing.name and missing.name.startswith("engine"):
                raise
            unavailable[name] = missing.name
    if unavailable:  # every other name was checked; CI installs every extra
        pytest.skip(f"not installed: {', '.join(sorted(set(unavailable.values())))}, which "
                    f"{', '.join(sorted(unavailable))} need(s)")


def test_every_engine_path_the_docs_give_exists():
    for path in DOCUMENTS:
        for m in re.finditer(r"engine/[\w/]+\.(?:py|lark)", path.read_text(encoding="utf-8")):
            assert (ROOT / m.group(0)).is_file(), f"{path.name} names {m.group(0)}, which is not there"


@pytest.mark.parametrize("old, new", sorted(BEFORE_THE_LAYERS.items()))
def test_a_name_of_before_the_layers_is_the_same_object(old, new):
    assert resolve(old) is resolve(new)


def test_every_module_of_before_the_layers_is_the_module_it_became():
    import importlib

    import engine
    for old, new in engine._MOVED.items():
        module = importlib.import_module(old)
        assert module is importlib.import_module(new) and module.__spec__.name == new, old
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("engine.no_such_module")


def test_importing_the_names_of_before_the_layers_leaves_the_api_as_it_was():
    import importlib

    import engine
    api = {name: getattr(engine, name) for name in engine.__all__}
    for old in engine._MOVED:
        importlib.import_module(old)
    assert {name: getattr(engine, name) for name in engine.__all__} == api
    assert callable(engine.view)  # not the module engine.view was


def test_a_seat_named_by_its_module_of_before_the_layers_still_plays():
    from engine.players.agents import make_agents
    from engine.players.search import MctsAgent
    assert isinstance(make_agents(["engine.search:MctsAgent"], 1)[0], MctsAgent)


def test_python_m_with_a_module_name_of_before_the_layers_says_the_new_one():
    proc = subprocess.run([sys.executable, "-m", "engine.docgen", "--stdout"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "engine.docgen is engine.lang.docgen now: python -m engine.lang.docgen" in proc.stderr

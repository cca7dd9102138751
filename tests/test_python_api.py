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

"""The Python API page: its examples run, as one script, and the names it uses are exported."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "python-api.md"


def test_the_examples_of_the_python_api_page_run(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 8
    script = tmp_path / "examples.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "option 99 is not legal here" in proc.stdout


def test_the_package_exports_the_api():
    import engine
    for name in ("Game", "load_ruleset", "view", "PlayerView", "Ruleset", "EngineError", "RulesetError",
                 "EffectError", "IllegalMove", "SaveError"):
        assert hasattr(engine, name), name
    for method in ("legal_actions", "apply", "clone", "restore", "snapshot", "from_snapshot", "determinize",
                   "state_key", "scores", "winners"):
        assert callable(getattr(engine.Game, method)), method

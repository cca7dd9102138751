"""docs/cli.md is the help of every command, generated from the parser: it must be current."""
from __future__ import annotations

import re
import sys

import pytest

from engine.cli import REFERENCE, reference


def test_the_command_reference_is_current():
    written = REFERENCE.read_text(encoding="utf-8")
    version = re.search(r"Python (\d+)\.(\d+) -->", written)
    if version is None or tuple(map(int, version.groups())) != sys.version_info[:2]:
        pytest.skip("docs/cli.md was written by another Python, whose argparse words its help otherwise")
    assert written == reference(), \
        "docs/cli.md is stale: run python -c 'import engine.cli; engine.cli.write_reference()'"


def test_the_reference_has_every_command_and_its_options():
    text = reference()
    for command in ("validate", "info", "play", "simulate", "compare", "ladder", "cards", "replay", "report",
                    "schema", "serve"):
        assert f"\n## engine {command}\n" in text and f"usage: engine {command}" in text
    assert "--max-decisions" in text and "--resume" in text and "--strict" in text

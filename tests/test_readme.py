"""The README: short (a screen or two), its two setup commands exactly as .ci/run and a newcomer
use them, links that lead to files, and docs/commands.md naming every option of every shipped
ruleset."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PLAY = ("python3 -m venv .venv && . .venv/bin/activate && pip install '.[terminal]' && "
        "engine play trick_of_the_rails --players 4")
TESTS = ("python3 -m venv .venv && . .venv/bin/activate && pip install -e "
         "'.[test,pettingzoo,openspiel,terminal,web,browser,print]' && python -m pytest -q")


def test_the_readme_is_short_and_starts_with_the_two_commands():
    assert len(README.splitlines()) <= 80
    blocks = re.findall(r"```sh\n(.*?)\n```", README, flags=re.S)
    assert blocks[:2] == [PLAY, TESTS]
    assert README.index(PLAY) < README.index("## A short tour")


def test_ci_installs_what_the_readme_tells_and_runs_the_tests():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    extras = re.search(r"pip install -e '(\.\[[^\]]+\])'", TESTS).group(1)
    assert f"pip install --quiet -e '{extras}" in ci and "python -m pytest -q" in ci


def test_every_link_of_the_readme_leads_to_a_file():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        assert (ROOT / target).exists(), target


@pytest.mark.parametrize("path", sorted((ROOT / "rulesets").glob("*.yaml")), ids=lambda p: p.stem)
def test_commands_md_names_every_option_of_each_shipped_ruleset(path):
    page = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    part = page[page.index(f"- `{path.stem}`"):]
    part = part[:part.index("\n- ") if "\n- " in part else part.index("\n\n")]
    for option in load_ruleset(path).options:
        assert f"`{option}`" in part, (path.stem, option)

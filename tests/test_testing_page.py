"""docs/testing.md, "Testing your ruleset": its code is examples/guide/test_pearl_divers.py, shown
whole and in order. That file's tests pass under pytest in a folder of their own (the file and
its ruleset, nothing of tests/), use the public API alone, and each test of a rule fails when
that rule of the ruleset is broken. The families of zones the page lists are reached as it says.
"""
from __future__ import annotations

import ast
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import Game, load_ruleset

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "testing.md"
EXAMPLE = ROOT / "examples" / "guide" / "test_pearl_divers.py"
RULESET = ROOT / "examples" / "guide" / "step5_options_triggers_modifiers.yaml"


def page_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.S | re.M)


def example_module():
    spec = importlib.util.spec_from_file_location("pearl_divers_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def example_tests() -> list[str]:
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]


def test_the_page_shows_the_example_file_whole_and_in_order():
    blocks = page_blocks()
    assert len(blocks) >= 6
    shown = "\n\n\n".join(b.strip("\n") for b in blocks) + "\n"
    assert shown == EXAMPLE.read_text(encoding="utf-8"), \
        "docs/testing.md's python blocks, joined by two blank lines, must be examples/guide/test_pearl_divers.py"


def test_the_page_links_and_is_linked():
    text = PAGE.read_text(encoding="utf-8")
    assert "](../examples/guide/test_pearl_divers.py)" in text
    assert f"{len(example_tests())} passed" in text, "the pytest output the page shows counts the example's tests"
    for source, link in [("README.md", "](docs/testing.md)"), ("docs/guide.md", "](testing.md)"),
                         ("docs/python-api.md", "](testing.md)")]:
        assert link in (ROOT / source).read_text(encoding="utf-8"), f"{source} does not link to docs/testing.md"


def test_the_example_uses_the_public_api_only():
    tree = ast.parse(EXAMPLE.read_text(encoding="utf-8"))
    imported = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            imported += [(a.name, []) for a in node.names]
    modules = {m for m, _ in imported}
    assert modules <= {"engine", "pytest", "random", "pathlib"}, modules
    names = [n for m, ns in imported if m == "engine" for n in ns]
    assert names and set(names) <= set(engine.__all__), names


def test_the_example_passes_under_pytest_in_a_folder_of_its_own(tmp_path):
    shutil.copy(EXAMPLE, tmp_path / EXAMPLE.name)
    shutil.copy(RULESET, tmp_path / RULESET.name)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", EXAMPLE.name],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(example_tests())} passed" in proc.stdout, proc.stdout


# Each test of a rule, run on a copy of the ruleset with that rule broken, must fail.
BROKEN = {
    "test_the_jellyfish_stings_the_winner_of_its_dive": ("          stings[diver] += 1\n", ""),
    "test_the_crown_makes_its_owners_big_pearls_worth_one_more": ("value: value + 1", "value: value"),
    "test_players_must_follow_the_colour_led": (
        "[c for c in hand[p] if c.color == led] if any(c.color == led for c in hand[p]) else list(hand[p])",
        "list(hand[p])"),
    "test_a_player_with_no_fish_to_play_is_an_error_of_the_rules": (
        "for p in players_from(leader):", "for p in [q for q in players_from(leader) if count(hand[q]) > 0]:"),
    # The prize turned up is no longer told: a card moves into the offer with no line.
    "test_every_change_a_player_sees_is_told": ('log("Dive ", dive, ": the prize is ", prize)', "pass"),
    # The clear water no longer shows the prize to everyone.
    "test_clear_water_shows_each_prize_to_everyone": ("reveal(prize, q)", "pass"),
}


def test_every_test_of_a_rule_is_checked_against_a_broken_rule():
    rule_tests = [name for name in example_tests() if "replay" not in name]
    assert sorted(BROKEN) == sorted(rule_tests)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_each_test_of_a_rule_fails_when_the_rule_is_broken(name, tmp_path):
    module = example_module()
    rules = load_ruleset(RULESET)
    getattr(module, name)(rules)                         # passes on the real rules
    old, new = BROKEN[name]
    text = RULESET.read_text(encoding="utf-8")
    assert text.count(old) == 1
    broken = tmp_path / RULESET.name
    broken.write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(AssertionError):
        getattr(module, name)(load_ruleset(broken))


def test_the_families_of_zones_are_reached_as_the_page_says():
    zone = example_module().zone
    text = PAGE.read_text(encoding="utf-8")

    pearls = load_ruleset(RULESET)
    game = Game(pearls, 2, seed=1)
    assert 'zone(game, "hand", 2)' in text
    assert zone(game, "hand", 2) is zone(game, "hand", game.players[1]) and zone(game, "hand", 2).player == 2
    assert zone(game, "deck").name == "deck"
    assert game.table.counters["stings"] == {1: 0, 2: 0}

    trainsilvania = load_ruleset("trainsilvania")
    assert 'zone(game, "at_station", "Bat Mansion")' in text
    station = zone(Game(trainsilvania, 2, seed=1), "at_station", "Bat Mansion")
    assert (station.name, station.key) == ("at_station", "Bat Mansion")

    isle = load_ruleset("isle_of_trains")
    assert 'zone(game, "cargo", card)' in text
    card = isle.cards[0]
    assert zone(Game(isle, 2, seed=1), "cargo", card).holder is card

    railways = load_ruleset("railways")
    assert 'zone(game, "goods", rules.boards["map"]["AS"])' in text
    place = railways.boards["map"]["AS"]
    assert place.label == "Ashby"
    assert zone(Game(railways, 3, seed=1), "goods", place).key is place


def test_the_guides_python_excerpts_are_quoted_from_the_example():
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", guide, re.S | re.M)
    assert blocks
    example = EXAMPLE.read_text(encoding="utf-8")
    for block in blocks:
        assert block in example, f"this block of docs/guide.md is not in {EXAMPLE.name}:\n{block}"
    assert "tests/" not in "".join(blocks) and "conftest" not in guide


def test_the_page_says_when_arrange_runs_and_which_choices_are_made_without_asking():
    """A test's hook runs after setup, and choices with one option are not asked: a test that
    did not know either expected the wrong thing (issue 29)."""
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    assert "The hook runs **after** `setup`" in text
    section = text.split("## Choices made without asking")[1].split("## ")[0]
    for made in ("**`choose()` with a single option**", "**`choose_amount(p, low, high)` with `low == high`**",
                 "`view(game, player).forced()`", "`game.decisions`"):
        assert made in section, made
    for helper in ("stack", "face_down", "face_up", "show", "set_counter", "put", "zone", "card"):
        assert f"`position.{helper}(game, " in text, helper

"""How to win, for people (`game: goal:`): every shipped ruleset says it, and a ruleset that
does not is described by its scoring."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.game.game import Game
from engine.game.view import view
from engine.rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ["trick_of_the_rails", "isle_of_trains", "trainsilvania", "railways"]


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_says_how_to_win(name):
    rules = load_ruleset(name)
    assert "goal:" in (ROOT / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8")
    assert len(rules.goal) > 40 and "\n" not in rules.goal
    assert view(Game(rules, rules.players[0], seed=1), 1).goal == rules.goal


def write(tmp_path, game: str, scoring: str) -> Path:
    text = (ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8")
    text = text.replace("game:\n", "game:\n" + game, 1).replace("scoring:\n", "scoring:\n" + scoring, 1)
    path = tmp_path / "tiny.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_without_a_goal_the_scorings_description_says_it_and_else_its_parts(tmp_path):
    described = load_ruleset(write(tmp_path, "", "  description: Most points wins.\n"))
    assert described.goal == "Most points wins."
    bare = load_ruleset(ROOT / "tests" / "fixtures" / "tiny.yaml")
    assert bare.goal == ""
    assert view(Game(bare, 2, seed=1), 1).goal == "The highest score wins."


def test_a_goal_that_is_not_text_is_a_located_error(tmp_path):
    from engine.core.errors import EngineError
    with pytest.raises(EngineError) as caught:
        load_ruleset(write(tmp_path, "  goal: [win]\n", ""))
    assert "tiny.yaml:" in str(caught.value) and "goal" in str(caught.value)

"""Saves hold the game's state: `engine play --resume` goes on from it at once, and `engine
replay` checks that seed and decisions lead to it. Saves of the first format still work."""
from __future__ import annotations

import json

import pytest

from engine import Game
from engine.saves import DIGEST, content_digest, replay, resume

from test_cli import TINY, engine, one_line_error


@pytest.fixture
def stopped(tmp_path):
    """A game of Tiny stopped after P1's first decision (and P2's reply), saved."""
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    save = tmp_path / "stopped.json"
    proc = engine("play", rules, "--seats", "human,random", "--seed", "4", "--save", save, input="1\nq\n")
    assert proc.returncode == 0 and "engine play --resume" in proc.stdout
    return rules, save


def observed(game: Game) -> tuple:
    return game.digest(), game.decisions, game.snapshot()


def test_a_save_holds_state_seats_seed_and_decisions(stopped):
    _, save = stopped
    data = json.loads(save.read_text())
    assert data["format"] == "engine-save/3" and data["save_sha256"] == content_digest(data)
    assert data["seats"] == ["human", "random"] and data["seed"] == 4 and len(data["decisions"]) == 2
    assert data["state"]["decisions"] == data["decisions"]


def test_resume_restores_the_state_the_decisions_lead_to(stopped):
    _, save = stopped
    resumed, _, warnings = resume(save)
    replayed, _, _ = replay(save)
    assert warnings == [] and observed(resumed) == observed(replayed)


def test_play_resume_goes_on_and_the_result_replays(stopped, tmp_path):
    _, save = stopped
    final = tmp_path / "final.json"
    proc = engine("play", "--resume", save, "--save", final, input="1\n1\n")
    assert proc.returncode == 0, proc.stderr
    assert "resumed from" in proc.stdout and "after 2 decisions" in proc.stdout
    assert "Final scores" in proc.stdout
    data = json.loads(final.read_text())
    assert data["decisions"][:2] == json.loads(save.read_text())["decisions"]
    assert data["seats"] == ["human", "random"]
    proc = engine("replay", final)
    assert proc.returncode == 0 and "reproduces" in proc.stdout


def test_resume_with_other_seats(stopped):
    _, save = stopped
    proc = engine("play", "--resume", save, "--seats", "random,random")
    assert proc.returncode == 0 and "Final scores" in proc.stdout
    assert "P1 (random)" in proc.stdout


@pytest.mark.parametrize("extra,words", [
    (["--players", "3"], "--players"), (["--seed", "1"], "--seed"), (["--option", "x=1"], "--option"),
    (["--seats", "human"], "--seats names 1 seat(s) for 2 players"),
])
def test_resume_refuses_what_the_save_decides(stopped, extra, words):
    _, save = stopped
    assert words in one_line_error(engine("play", "--resume", save, *extra))


def test_resume_of_a_finished_game(tmp_path):
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    save = tmp_path / "done.json"
    assert engine("play", rules, "--seats", "random,random", "--seed", "2", "--save", save).returncode == 0
    assert "over" in one_line_error(engine("play", "--resume", save))


def test_play_without_ruleset_or_resume():
    proc = engine("play")
    assert proc.returncode == 2 and "needs a RULESET file (or --resume FILE)" in proc.stderr


def test_a_save_of_the_first_format_still_replays_and_resumes(stopped, tmp_path):
    _, save = stopped
    data = json.loads(save.read_text())
    for key in ("state", "seats"):
        data.pop(key)
    data["format"] = "engine-save/1"
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    proc = engine("replay", old)
    assert "not over" in proc.stdout
    assert proc.stderr == f"warning: {old} was saved by an older version of the engine, without a digest: a " \
        "change made to it since cannot be noticed\n"
    resumed, _, warnings = resume(old)
    assert warnings == [] and observed(resumed) == observed(replay(save)[0])
    proc = engine("play", "--resume", old, input="1\n1\n")
    assert proc.returncode == 0 and "Final scores" in proc.stdout


def test_resume_after_the_ruleset_changed_replays_with_a_warning(stopped):
    rules, save = stopped
    with rules.open("a", encoding="utf-8") as f:
        f.write("\n# edited after the save\n")
    proc = engine("play", "--resume", save, input="1\n1\n")
    assert proc.returncode == 0 and "Final scores" in proc.stdout
    assert "warning" in proc.stderr and "changed" in proc.stderr


def test_replay_notices_an_edited_unfinished_save(stopped, tmp_path):
    """Other decisions that are still legal lead to another state than the saved one."""
    _, save = stopped
    data = json.loads(save.read_text())
    data["decisions"][0] = 1 - data["decisions"][0]
    data[DIGEST] = content_digest(data)  # the digest worked out again: the replay still notices
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    proc = engine("replay", edited)
    assert proc.returncode == 1 and "does NOT reproduce" in proc.stdout


def test_a_damaged_state_is_refused_in_one_line(stopped, tmp_path):
    _, save = stopped
    data = json.loads(save.read_text())
    data["state"]["program"][0]["code"] = "nowhere"
    data[DIGEST] = content_digest(data)
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(data))
    message = one_line_error(engine("play", "--resume", damaged))
    assert str(damaged) in message and "nowhere" in message


def test_a_save_of_the_second_format_still_replays_and_resumes_with_a_warning(stopped, tmp_path):
    """A save written before saves had a digest loads, and says in one line that it has none."""
    _, save = stopped
    data = json.loads(save.read_text())
    del data[DIGEST]
    data["format"] = "engine-save/2"
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data))
    for args, words in ((["replay", old], "not over"), (["play", "--resume", old], "Final scores")):
        proc = engine(*args, input="1\n1\n")
        assert proc.returncode == 0 and words in proc.stdout, proc.stdout + proc.stderr
        assert proc.stderr.count("\n") == 1 and "without a digest" in proc.stderr


@pytest.mark.parametrize("command", [["replay"], ["play", "--resume"]])
def test_an_edited_unfinished_save_is_refused(stopped, tmp_path, command):
    """An unfinished save whose decisions (and state) were changed used to replay another game
    with exit status 0; its digest no longer matches."""
    _, save = stopped
    data = json.loads(save.read_text())
    data["decisions"][0] = 1 - data["decisions"][0]
    del data["state"]
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    proc = engine(*command, edited, input="1\n1\n")
    assert proc.returncode == 1 and proc.stdout == ""
    assert "has been changed since it was written" in one_line_error(proc)

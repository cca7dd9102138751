"""Saves hold the game's state: `engine play --resume` goes on from it at once, and `engine
replay` checks that seed and decisions lead to it. Saves of the first format still work."""
from __future__ import annotations

import json
import re

import pytest

from engine import Game
from engine.game.saves import DIGEST, content_digest, replay, resume

from test_cli import TINY, engine, one_line_error
from conftest import labels


@pytest.fixture
def stopped(tmp_path):
    """A game of Tiny stopped after P1's first decision (and P2's reply), saved."""
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    save = tmp_path / "stopped.json"
    proc = engine("play", rules, "--seats", "human,random", "--seed", "4", "--save", save, input="1\nq\n")
    assert proc.returncode == 0 and "engine play --resume" in proc.stdout
    assert f"{save} holds the seed and every hidden card: keep it from the other players" in proc.stdout
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
    assert proc.returncode == 2 and "needs a RULESET, a file or a shipped ruleset's name (or --resume FILE)" in proc.stderr


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
    assert str(damaged) in message and "(first difference: state.program[0].code)" in message


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


def hands(save) -> dict[int, list[str]]:
    game = replay(save)[0]
    return {p: labels(game, game.table.zones["hand"][p]) for p in (1, 2)}


@pytest.mark.parametrize("args,seat", [([], 1), (["--seat", "1"], 1), (["--seat", "2"], 2)])
def test_replay_show_of_an_unfinished_game_shows_one_seat(stopped, args, seat):
    """It used to print every hand and the deck in order to whoever replayed the save."""
    _, save = stopped
    proc = engine("replay", save, "--show", *args)
    assert proc.returncode == 0, proc.stderr
    held = hands(save)
    assert f"(you are P{seat})" in proc.stdout and f"the table as P{seat} sees it" in proc.stdout
    assert all(card in proc.stdout for card in held[seat])
    assert not any(card in proc.stdout for card in held[3 - seat]), proc.stdout
    assert re.search(r"^  deck +6 face-down$", proc.stdout, re.M), proc.stdout


def test_replay_show_defaults_to_the_human_seat_of_the_save(stopped, tmp_path):
    _, save = stopped
    data = json.loads(save.read_text())
    data["seats"] = ["random", "human"]
    data[DIGEST] = content_digest(data)
    other = tmp_path / "other.json"
    other.write_text(json.dumps(data))
    assert "(you are P2)" in engine("replay", other, "--show").stdout


def test_replay_referee_shows_every_card_of_an_unfinished_game(stopped):
    _, save = stopped
    proc = engine("replay", save, "--referee")
    assert proc.returncode == 0
    assert all(card in proc.stdout for held in hands(save).values() for card in held)
    assert "face-down" not in proc.stdout


@pytest.mark.parametrize("args,words", [(["--seat", "3"], "--seat 3: this game has seats 1 to 2"),
                                        (["--seat", "0"], "--seat 0")])
def test_replay_seat_out_of_range(stopped, args, words):
    _, save = stopped
    assert words in one_line_error(engine("replay", save, *args))


def test_replay_seat_and_referee_exclude_each_other(stopped):
    _, save = stopped
    proc = engine("replay", save, "--seat", "1", "--referee")
    assert proc.returncode == 2 and "not allowed with" in proc.stderr


def test_a_resumed_game_tells_no_old_news_and_says_where_the_rest_is(stopped):
    """Resuming paged the whole game so far as news since the person's last decision."""
    _, save = stopped
    proc = engine("play", "--resume", save, input="log\nq\n")
    assert proc.returncode == 0, proc.stderr
    first_screen = proc.stdout.split("(? for help): ")[0]
    assert "nothing new since your last decision" in first_screen
    assert "The game goes on from the save; type log for what happened before." in first_screen
    assert " plays " not in first_screen
    assert " plays " in proc.stdout.split("(? for help): ")[1]  # log tells the game so far


@pytest.fixture
def finished(tmp_path):
    """A finished game of Tiny, saved."""
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    save = tmp_path / "done.json"
    assert engine("play", rules, "--seats", "random,random", "--seed", "2", "--save", save).returncode == 0
    return rules, save


@pytest.mark.parametrize("old, new", [("  pile: {}", "  pile: {label: the pile}"),
                                      ('    label: "{name}"', '    label: "the {name}"'),
                                      ("  deck: {visibility: hidden}",
                                       "  deck: {visibility: hidden, description: Where cards wait.}")])
def test_a_change_of_presentation_only_still_reproduces(finished, old, new):
    rules, save = finished
    text = rules.read_text(encoding="utf-8")
    assert text.count(old) == 1
    rules.write_text(text.replace(old, new), encoding="utf-8")
    proc = engine("replay", save)
    assert proc.returncode == 0 and "reproduces exactly" in proc.stdout, proc.stdout + proc.stderr
    assert "has changed since this game was saved" in proc.stderr  # the file did change


def test_a_result_that_differs_is_named(finished, tmp_path):
    _, save = finished
    data = json.loads(save.read_text())
    scores = data["result"]["scores"]
    told = scores["P2"]
    scores["P2"] += 5
    data[DIGEST] = content_digest(data)
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    proc = engine("replay", edited)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[-1] == (f"{edited}: does NOT reproduce: the replayed game differs from "
                                            f"the saved result: P2 scores {told}, the save says {told + 5}.")

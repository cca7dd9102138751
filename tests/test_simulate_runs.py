"""Simulations at scale: several processes (--jobs), a run file kept as games end (--out) that
survives a kill and is continued, CSV, games whose rules fail, turn order, progress, Ray.

Small budgets throughout: random seats, Trick of the Rails or a tiny ruleset, few games.
"""
from __future__ import annotations

import csv
import io
import itertools
import json
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, ruleset
from engine.analysis import workers
from engine.analysis.run import RunSpec, game_seed
from engine.analysis.simulate import simulate
from engine.game.game import Game
from engine.game.view import view
from engine.players.agents import make_agents
from engine.rules.ruleset import load_ruleset

TRICK = ROOT / "rulesets" / "trick_of_the_rails.yaml"
RUN = [TRICK, "--players", "3", "--seed", "7"]

# Tiny (tests/fixtures/tiny.yaml) with a rule that fails when Amber is played: random players
# play it in some games and not in others.
FAILING = (ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8").replace(
    "          move(c, pile)\n",
    "          if c.name == \"Amber\":\n              fail(\"Amber may not be played\")\n          move(c, pile)\n")


def engine(*args, cwd: Path = ROOT, timeout: float = 120) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "engine", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def start(*args) -> subprocess.Popen:
    """`engine ARGS` running, with Ctrl-C as at a terminal. A shell without job control starts a
    command it runs in the background (`.ci/run &`) with Ctrl-C ignored, and the engine, like any
    program, would inherit that: the test of Ctrl-C must not depend on how the tests were run."""
    return subprocess.Popen([sys.executable, "-m", "engine", *map(str, args)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def results(*args) -> list[dict]:
    proc = engine("simulate", *args, "--json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", "no progress on stderr when it is not a terminal"
    return json.loads(proc.stdout)["results"]


def run_file(path: Path) -> tuple[dict, list[dict]]:
    """The header and the records of a run file, in game order; every line whole."""
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")
    lines = [json.loads(line) for line in text.splitlines()]
    return lines[0]["run"], sorted(lines[1:], key=lambda r: r["game"])


def wait_for_lines(path: Path, proc: subprocess.Popen, count: int) -> None:
    deadline = time.monotonic() + 60
    while not (path.exists() and path.read_text(encoding="utf-8").count("\n") > count):
        assert proc.poll() is None, f"the run ended before it could be stopped: {proc.communicate()}"
        assert time.monotonic() < deadline, "no games were written"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def uninterrupted() -> list[dict]:
    """600 games played in this process, one after the other: what every other way must give."""
    rs = ruleset("trick_of_the_rails")
    return simulate(rs, 3, 600, 7, rs.resolve_options({}, 3))["results"]


def test_records_have_the_run_format(uninterrupted):
    r = uninterrupted[0]
    assert list(r) == ["game", "seed", "seats", "options", "scores", "winners", "turn_order", "decisions",
                       "end_reason", "breakdown"]  # the score's parts: this ruleset has scoring.breakdown
    # (random seats keep no standings by default: test_quality.py)
    assert r["game"] == 1 and r["seed"] == game_seed(7, 0)
    assert r["seats"] == ["random"] * 3 and r["options"] == {"expert": False, "teams": False, "first_leader": 0}
    assert [r["game"] for r in uninterrupted] == list(range(1, 601))


def test_more_jobs_give_the_same_records(uninterrupted):
    one = results(*RUN, "--games", "60", "--jobs", "1")
    two = results(*RUN, "--games", "60", "--jobs", "2")
    assert one == two == uninterrupted[:60]


@pytest.mark.parametrize("threads", [1, 2])
def test_jobs_from_python_give_the_same_records(uninterrupted, monkeypatch, threads):
    """Workers copied from this process (no other thread runs) or started afresh (another
    thread runs: they load the ruleset themselves) play the same games."""
    monkeypatch.setattr(workers.threading, "active_count", lambda: threads)
    rs = ruleset("trick_of_the_rails")
    report = simulate(rs, 3, 100, 7, rs.resolve_options({}, 3), jobs=2)
    assert report["results"] == uninterrupted[:100]
    assert sum(report["totals"]["wins_by_seat"].values()) == pytest.approx(100)
    assert not workers._loaded, "the ruleset lent to forked workers is not kept"


def test_chunks_are_sized_by_the_pace_of_the_games():
    """A game a chunk until the pace is known; then about CHUNK_SECONDS of play a chunk, and never
    more than about 8 chunks a job: long games then reach the progress bar as they end, not a
    chunk of 25 later (a time left 30-40% too long, in a run of 2-second games). Runs of
    several sides (compare, ladder) take the same game numbers in turns."""
    pace = [None]
    parts = workers.paced_chunks([list(range(1, 1001))] * 2, 2, lambda: pace[0])
    assert [next(parts) for _ in range(2)] == [(0, [1]), (1, [1])]
    pace[0] = workers.CHUNK_SECONDS / 5
    assert [next(parts) for _ in range(2)] == [(0, [2, 3, 4, 5, 6]), (1, [2, 3, 4, 5, 6])]
    pace[0] = 1e-5
    side, part = next(parts)
    assert side == 0 and part[0] == 7 and len(part) == workers.chunk_size(2000, 2) == workers.CHUNK_MAX
    pace[0] = 10.0
    assert [part for _, part in itertools.islice(parts, 1, 3)] == [[7 + workers.CHUNK_MAX]] * 2
    assert [part for _, part in workers.paced_chunks([[1, 2, 3]], 2, lambda: 1e-5)] == [[1], [2], [3]]
    uneven = workers.paced_chunks([[1, 2, 3], [1, 2]], 1, lambda: workers.CHUNK_SECONDS / 2)
    assert list(uneven) == [(0, [1]), (1, [1]), (0, [2]), (1, [2]), (0, [3])]


def test_a_killed_run_goes_on_where_it_stopped(tmp_path, uninterrupted):
    out = tmp_path / "runs.jsonl"
    proc = start("simulate", *RUN, "--games", "600", "--jobs", "2", "--out", out)
    wait_for_lines(out, proc, 40)
    proc.kill()  # SIGKILL: no chance to tidy up
    proc.wait()
    whole = out.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [json.loads(line) for line in whole[1:] if line.endswith("\n")]  # the last may be cut short
    assert 40 <= len(kept) < 600
    assert all(r == uninterrupted[r["game"] - 1] for r in kept)
    again = engine("simulate", *RUN, "--games", "600", "--out", out)
    assert again.returncode == 0, again.stderr
    assert again.stderr == f"engine: {len(kept)} of 600 games were in {out} already; played the other {600 - len(kept)}\n"
    assert again.stdout == engine("report", out).stdout
    header, records = run_file(out)
    assert records == uninterrupted
    assert header["games"] == 600 and header["seed"] == 7


def test_a_cut_last_line_is_dropped_and_its_game_played_again(tmp_path, uninterrupted):
    out = tmp_path / "runs.jsonl"
    assert engine("simulate", *RUN, "--games", "20", "--jobs", "1", "--out", out).returncode == 0
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:12]) + lines[12][:40], encoding="utf-8")  # killed while writing game 12
    proc = engine("simulate", *RUN, "--games", "20", "--jobs", "1", "--out", out, "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"] == uninterrupted[:20]
    assert run_file(out)[1] == uninterrupted[:20]


def test_more_games_extend_the_run_and_fewer_play_none(tmp_path, uninterrupted):
    out = tmp_path / "runs.jsonl"
    assert engine("simulate", *RUN, "--games", "10", "--jobs", "1", "--out", out).returncode == 0
    with open(out, "a", encoding="utf-8") as cut:
        cut.write('{"game": 11, "se')  # and a line cut short, left by a kill
    proc = engine("simulate", *RUN, "--games", "25", "--out", out, "--json")
    assert json.loads(proc.stdout)["results"] == uninterrupted[:25]
    header, records = run_file(out)
    assert header["games"] == 25 and records == uninterrupted[:25]
    before = out.read_bytes()
    fewer = engine("simulate", *RUN, "--games", "5", "--out", out)
    assert fewer.returncode == 0 and fewer.stderr == f"engine: all 5 games were in {out} already; none to play\n"
    assert "\n5 games played, 0 failed (5 planned)\n" in fewer.stdout
    assert out.read_bytes() == before


@pytest.mark.parametrize("change, said", [
    (["--seed", "8"], "seed 7 there, 8 here"),
    (["--option", "expert=true"], "options"),
    (["--seats", "random,random,greedy"], "seats"),
    (["--max-decisions", "30"], "max-decisions 5000 there, 30 here"),
])
def test_another_run_is_refused_with_another_file_name(tmp_path, change, said):
    out = tmp_path / "runs.jsonl"
    assert engine("simulate", *RUN, "--games", "3", "--jobs", "1", "--out", out).returncode == 0
    before = out.read_bytes()
    proc = engine("simulate", *RUN, "--games", "3", "--out", out, *change)
    lines = proc.stderr.splitlines()
    assert proc.returncode == 1 and len(lines) == 1, proc.stderr
    assert f"{out} holds another run" in lines[0] and said in lines[0]
    assert f"another file name, e.g. {tmp_path / 'runs-2.jsonl'}" in lines[0]
    assert out.read_bytes() == before


def test_a_changed_ruleset_is_another_run(tmp_path):
    rules = tmp_path / "tiny.yaml"
    rules.write_text((ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "runs.jsonl"
    assert engine("simulate", rules, "--games", "3", "--out", out).returncode == 0
    rules.write_text(rules.read_text(encoding="utf-8").replace("value: 12", "value: 13"), encoding="utf-8")
    proc = engine("simulate", rules, "--games", "3", "--out", out)
    assert proc.returncode == 1 and "the ruleset (or a --with file) has changed" in proc.stderr


def test_a_file_that_is_not_a_run_is_left_alone(tmp_path):
    notes = tmp_path / "notes.jsonl"
    notes.write_text("my notes\n", encoding="utf-8")
    proc = engine("simulate", *RUN, "--games", "3", "--out", notes)
    assert proc.returncode == 1 and "is not a run file of engine simulate" in proc.stderr
    assert notes.read_text(encoding="utf-8") == "my notes\n"


def test_ctrl_c_keeps_the_finished_games_and_says_how_to_go_on(tmp_path, uninterrupted):
    out = tmp_path / "runs.jsonl"
    # So many games that the run cannot end before the signal, however fast the machine.
    proc = start("simulate", *RUN, "--games", "50000", "--jobs", "2", "--out", out)
    wait_for_lines(out, proc, 40)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    _, kept = run_file(out)
    assert proc.returncode == 130 and stdout == ""
    assert stderr.splitlines() == [f"engine: interrupted: {len(kept)} of 50000 games are kept in {out}; "
                                   "run the same command again to play the rest"]
    first = [r for r in kept if r["game"] <= len(uninterrupted)]
    assert len(first) >= 40 and all(r == uninterrupted[r["game"] - 1] for r in first)


def test_csv_has_a_row_a_game(uninterrupted):
    proc = engine("simulate", *RUN, "--games", "8", "--csv")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.reader(io.StringIO(proc.stdout)))
    assert rows[0] == ["game", "seed", "end_reason", "decisions", "winners", "score_P1", "score_P2", "score_P3",
                       "turn_order", "error"]
    assert len(rows) == 9
    for row, r in zip(rows[1:], uninterrupted):
        assert row == [str(r["game"]), str(r["seed"]), r["end_reason"], str(r["decisions"]), " ".join(r["winners"]),
                       *(str(r["scores"][p]) for p in ("P1", "P2", "P3")), " ".join(r["turn_order"]), ""]


def test_json_keeps_its_shape_with_the_new_fields():
    report = json.loads(engine("simulate", *RUN, "--games", "4", "--json").stdout)
    assert {"results", "totals", "ruleset", "players", "seats", "seed", "options"} <= set(report)
    assert report["totals"]["errors"] == 0 and report["totals"]["played"] == 4
    assert all({"seats", "options", "turn_order"} <= set(r) for r in report["results"])


def test_a_failing_game_is_recorded_with_a_command_that_replays_it(tmp_path):
    rules = tmp_path / "failing.yaml"
    rules.write_text(FAILING, encoding="utf-8")
    proc = engine("simulate", rules, "--players", "2", "--games", "12", "--seed", "1", "--jobs", "2", "--json",
                  cwd=tmp_path)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    failed = [r for r in report["results"] if "error" in r]
    ended = [r for r in report["results"] if "error" not in r]
    assert failed and ended, "the rule fails in some games, not in all"
    assert report["totals"]["errors"] == len(failed)
    assert sum(report["totals"]["wins_by_seat"].values()) == pytest.approx(len(ended))
    first = failed[0]
    assert set(first) == {"game", "seed", "seats", "options", "error", "reproduce"}
    assert first["error"] == f"{rules}:39:15: error: Amber may not be played (in flow)"
    said = proc.stderr.splitlines()
    assert said == [f"engine: the rules failed in {len(failed)} of 12 games; game {first['game']}: "
                    f"{first['error']}; replay it with: {first['reproduce']}"]
    command = shlex.split(first["reproduce"])
    assert command[:2] == ["engine", "play"] and f"--seed {first['seed']}" in first["reproduce"]
    replayed = engine(*command[1:], cwd=tmp_path)
    assert replayed.returncode == 1 and replayed.stderr.strip() == first["error"]
    # The same command with a game that ended replays it to the same scores.
    game = ended[0]
    command[command.index("--seed") + 1] = str(game["seed"])
    played = engine(*command[1:], cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    for seat, score in game["scores"].items():
        assert re.search(rf"^  {seat} \(random\)\s+{score}$", played.stdout, re.M), played.stdout


def test_workers_read_relative_paths_from_the_simulations_folder(tmp_path, monkeypatch):
    """Worker processes read a relative ruleset path as the simulation does, also after it moved
    to another folder, and name the file alike in error messages."""
    rs = ruleset("trick_of_the_rails")
    simulate(rs, 3, 4, 1, rs.resolve_options({}, 3), jobs=2)  # processes started in the project's folder
    monkeypatch.chdir(tmp_path)
    Path("failing.yaml").write_text(FAILING, encoding="utf-8")
    rules = load_ruleset("failing.yaml")
    one, two = (simulate(rules, 2, 12, 1, rules.resolve_options({}, 2), jobs=jobs)["results"] for jobs in (1, 2))
    assert one == two
    assert any(r.get("error", "").startswith("failing.yaml:39:15: error:") for r in two)


def test_engine_play_replays_a_simulated_game_with_its_options():
    """`engine play` seeds its bots as simulate does: a record's reproduce command (here with
    options and a bot other than random) plays the same game."""
    args = [TRICK, "--players", "3", "--seed", "3", "--seats", "greedy,random,random", "-o", "expert=true"]
    game = results(*args, "--games", "2")[1]
    rs = ruleset("trick_of_the_rails")
    spec = RunSpec.of(rs, 3, game["seats"], rs.resolve_options({"expert": "true"}, 3), 3)
    command = shlex.split(spec.reproduce(game["seed"]))
    assert command[-4:] == ["-o", "teams=false", "-o", "first_leader=0"]
    played = engine(*command[1:])
    assert played.returncode == 0, played.stderr
    scores = {line.split()[0]: line.split()[-1] for line in played.stdout.splitlines() if "(" in line
              and line.startswith("  P")}
    assert scores == {p: str(s) for p, s in game["scores"].items()}


def test_turn_order_is_who_decided_first():
    capped = results(*RUN, "--games", "3", "--option", "first_leader=2", "--max-decisions", "1")
    assert [r["turn_order"] for r in capped] == [["P2", "P1", "P3"]] * 3, "those who never decided follow in seat order"
    games = results(*RUN, "--games", "30")
    assert {r["turn_order"][0] for r in games} == {"P1", "P2", "P3"}, "the first leader is drawn at random"
    rs = ruleset("trick_of_the_rails")
    r = games[4]
    game = Game(rs, 3, rs.resolve_options({}, 3), r["seed"], keep_log=False, rewind=False)
    agents, order = make_agents(r["seats"], r["seed"]), []
    while not game.over:
        p = game.pending.player
        order += [] if str(p) in order else [str(p)]
        game.apply(agents[p - 1].choose(view(game, p)))
    assert r["turn_order"] == order


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_progress_without_rich(monkeypatch):
    monkeypatch.setitem(sys.modules, "rich", None)
    shown = Terminal()
    rs = ruleset("trick_of_the_rails")
    simulate(rs, 3, 5, 1, rs.resolve_options({}, 3), progress=shown)
    assert shown.getvalue().startswith("\r  ") and shown.getvalue().endswith("\n")
    last = shown.getvalue().rstrip("\n").split("\r")[-1]
    assert last.startswith("  5/5 games, ") and last.endswith(" games/s")


def test_rich_progress_bar_when_installed():
    pytest.importorskip("rich")
    shown = Terminal()
    rs = ruleset("trick_of_the_rails")
    simulate(rs, 3, 5, 1, rs.resolve_options({}, 3), progress=shown)
    assert "5/5" in shown.getvalue() and "games/s" in shown.getvalue()


def test_rich_bar_time_left_is_by_the_whole_run_not_by_the_last_burst(monkeypatch):
    """Worker processes send games back a chunk at a time: 10 games arriving at once after 100
    seconds are 0.1 games a second, so 90 more take 15 minutes (rich's own estimate, from the
    last 30 seconds, read the burst as 10 games in no time and said seconds)."""
    console = pytest.importorskip("rich.console")
    from engine.analysis.progress import progress_display
    clock = [0.0]
    monkeypatch.setattr(console, "monotonic", lambda: clock[0])
    shown = Terminal()
    with progress_display(shown, 100) as advance:
        clock[0] = 100.0
        for _ in range(10):
            advance()
    text = shown.getvalue()
    assert "10/100" in text and "0.1 games/s" in text and "0:15:00" in text, text[-300:]


def test_bad_settings_are_one_line_errors(tmp_path):
    for args, said in ((["--jobs", "0"], "--jobs must be at least 1"),
                       (["--address", "127.0.0.1:1"], "use it with --backend ray"),
                       (["--out", tmp_path], "is a directory")):
        proc = engine("simulate", *RUN, "--games", "2", *args)
        assert proc.returncode == 1 and len(proc.stderr.splitlines()) == 1 and said in proc.stderr, proc.stderr


def test_ray_missing_is_a_one_line_error_saying_how_to_install():
    code = ("import sys; sys.modules['ray'] = None\nfrom engine.cli import main\n"
            f"sys.exit(main(['simulate', {str(TRICK)!r}, '--games', '2', '--backend', 'ray']))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == ["engine: --backend ray needs Ray, which is not installed: "
                                        "pip install 'tabletop-rules-engine[ray]' (from a checkout: pip install -e '.[ray]')"]


def test_ray_gives_the_same_records(uninterrupted):
    pytest.importorskip("ray")
    rs = ruleset("trick_of_the_rails")
    report = simulate(rs, 3, 50, 7, rs.resolve_options({}, 3), jobs=2, backend="ray")
    assert report["results"] == uninterrupted[:50]


def test_no_worker_outlives_a_killed_run(tmp_path):
    """Workers notice their simulation is gone and exit (instead of waiting for work forever)."""
    if not Path("/proc/self/stat").exists():
        pytest.skip("needs /proc to list processes")
    out = tmp_path / "runs.jsonl"
    proc = start("simulate", *RUN, "--games", "600", "--jobs", "2", "--out", out)
    wait_for_lines(out, proc, 10)
    helpers = _descendants(proc.pid)
    assert len(helpers) >= 2, "the workers (and the fork server) run"
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 20
    while any(Path(f"/proc/{pid}").exists() for pid in helpers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [pid for pid in helpers if Path(f"/proc/{pid}").exists()]
    assert not left, f"processes of the killed run still running: {left}"


def _descendants(pid: int) -> list[int]:
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = [], [pid]
    while frontier:
        children = [p for p, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def test_ctrl_c_right_after_a_record_is_written_counts_it(tmp_path, monkeypatch):
    """The count of kept games was taken from memory, which Ctrl-C could leave a record behind
    the file: 'interrupted: 44 of 50000 games are kept' with 45 in the file."""
    from engine.analysis.runfile import RunFile
    from engine.analysis.simulate import Interrupted
    written = []

    def append_then_ctrl_c(self, record):
        self._stream.write(json.dumps(record) + "\n")
        self._stream.flush()
        written.append(record)
        if len(written) == 3:
            raise KeyboardInterrupt  # after the line, before append notes it
        append_rest(self, record)

    def append_rest(self, record):
        self.records[record["game"]] = record
    monkeypatch.setattr(RunFile, "append", append_then_ctrl_c)
    out = tmp_path / "runs.jsonl"
    with pytest.raises(Interrupted) as stopped:
        rules = ruleset("trick_of_the_rails")
        simulate(rules, 3, 10, 1, rules.resolve_options({}, 3), jobs=1, out=out)
    assert stopped.value.kept == len(run_file(out)[1]) == 3

"""The instruction-count gate of CI (benchmarks/instructions.py --check): its comparison of fresh
counts with the committed baseline, without valgrind (the measuring is replaced by numbers)."""
from __future__ import annotations

import json

import pytest

from conftest import benchmark

gate = benchmark("instructions")
MACHINE = {"python": "CPython 3.11.7 (main, May  9 2026, 07:35:25) [GCC 12.2.0]", "machine": "x86_64",
           "platform": "Linux-6.1-x86_64-with-glibc2.36", "libc": "glibc 2.36", "valgrind": "valgrind-3.19.0"}


def counts(**cases: int) -> dict[str, dict]:
    """Results as measure() gives them: a case name (`_` for a space) and its count."""
    return {name.replace("_", " "): {"instructions": n, "setup": f"setup of {name}", "decisions": 100}
            for name, n in cases.items()}


def verdicts(rows) -> dict[str, str]:
    return {row.case: row.verdict for row in rows}


@pytest.mark.parametrize("now,verdict,fails", [
    (1_000_000, "ok", False),
    (1_090_000, "ok", False),  # +9%
    (1_100_000, "ok", False),  # +10%: fails only above
    (1_110_000, "grew", True),  # +11%
    (3_000_000, "grew", True),
    (910_000, "ok", False),  # -9%
    (890_000, "shrank", False),  # -11%: a hint, not a failure
])
def test_a_count_fails_when_it_grows_by_more_than_ten_percent(now, verdict, fails):
    rows = gate.compare(counts(a_game=1_000_000, a_mcts=500_000), counts(a_game=now, a_mcts=500_000))
    assert verdicts(rows) == {"a game": verdict, "a mcts": "ok"}
    assert gate.failed(rows) is fails


def test_the_table_tells_case_baseline_now_and_change():
    rows = gate.compare(counts(a_game=1_000_000, b_mcts=2_000_000), counts(a_game=1_110_000, b_mcts=1_780_000))
    lines = gate.table(rows).splitlines()
    assert lines[0].split() == ["case", "baseline", "now", "change"]
    assert lines[1].split() == ["a", "game", "1,000,000", "1,110,000", "+11.0%", "GREW", "more", "than", "10%"]
    assert lines[2].split() == ["b", "mcts", "2,000,000", "1,780,000", "-11.0%", "shrank", "more", "than", "10%"]
    text = gate.summary(rows)
    assert "FAILED: a game grew by more than 10%" in text and gate.WRITE_COMMAND in text
    assert "b mcts shrank by more than 10%" in text


def test_a_pass_says_so_and_notes_a_shrink():
    rows = gate.compare(counts(a_game=1_000_000), counts(a_game=500_000))
    assert not gate.failed(rows)
    assert gate.summary(rows).splitlines()[0] == "ok: no count grew by more than 10%."
    assert "shrank" in gate.summary(rows)


def test_a_case_missing_on_either_side_fails():
    rows = gate.compare(counts(a_game=1_000_000, a_mcts=500_000), counts(a_game=1_000_000, b_game=7))
    assert verdicts(rows) == {"a game": "ok", "a mcts": "missing", "b game": "new"}
    assert gate.failed(gate.compare(counts(a_game=1_000_000, a_mcts=500_000), counts(a_game=1_000_000)))
    assert gate.failed(gate.compare(counts(a_game=1_000_000), counts(a_game=1_000_000, b_game=7)))
    table = gate.table(rows)
    assert "a mcts" in table and "MISSING" in table and "NEW" in table
    assert "a mcts, b game: the cases and the baseline differ" in gate.summary(rows)


def test_a_case_measured_in_another_setup_fails_whatever_its_count():
    before = counts(a_game=1_000_000)
    now = counts(a_game=1_000_000)
    now["a game"]["setup"] = "4p, 41 random games from seed 1000"
    rows = gate.compare(before, now)
    assert verdicts(rows) == {"a game": "redefined"}
    assert gate.failed(rows)
    assert "was: setup of a_game" in gate.table(rows)


def test_other_games_are_told_not_failed():
    now = counts(a_game=1_050_000)
    now["a game"]["decisions"] = 120
    rows = gate.compare(counts(a_game=1_000_000), now)
    assert verdicts(rows) == {"a game": "ok"} and not gate.failed(rows)
    assert "other games: 100 decisions, now 120" in gate.table(rows)


def test_counts_compare_only_on_the_same_python_and_architecture():
    assert gate.incomparable(MACHINE, dict(MACHINE)) == []
    # The platform, libc and valgrind are told, not compared: they barely move a count.
    assert gate.incomparable(MACHINE, {**MACHINE, "platform": "Linux-6.18", "valgrind": "valgrind-3.22.0"}) == []
    other = gate.incomparable(MACHINE, {**MACHINE, "python": "CPython 3.12.1 (main) [GCC 12.2.0]", "machine": "aarch64"})
    assert len(other) == 2 and "3.12.1" in other[0] and "aarch64" in other[1]


@pytest.fixture
def checked(tmp_path, monkeypatch):
    """Runs `--check` against a baseline of `before` with `now` as the fresh counts (no valgrind):
    (exit status, what was printed)."""
    def run(before, now, machine=MACHINE, valgrind="/usr/bin/valgrind"):
        path = tmp_path / "baseline.json"
        path.write_text(json.dumps({"commit": "abc", **MACHINE, "cases": before}))
        monkeypatch.setattr(gate.shutil, "which", lambda name: valgrind)
        monkeypatch.setattr(gate, "machine", lambda: machine)
        monkeypatch.setattr(gate, "measure", lambda root, cases, jobs: now)
        return gate.main(["--check", "--baseline", str(path)])
    return run


def test_check_exits_1_on_growth_and_0_within_the_limit(checked, capsys):
    assert checked(counts(a_game=1_000_000), counts(a_game=1_110_000)) == 1
    out = capsys.readouterr().out
    assert "a game" in out and "+11.0%" in out and "FAILED" in out
    assert checked(counts(a_game=1_000_000), counts(a_game=1_090_000)) == 0
    assert "ok: no count grew" in capsys.readouterr().out


def test_check_on_another_valgrind_compares_and_says_so(checked, capsys):
    assert checked(counts(a_game=1_000), counts(a_game=1_000), machine={**MACHINE, "valgrind": "valgrind-3.22.0"}) == 0
    out = capsys.readouterr().out
    assert "Note: the same Python, but another" in out and "valgrind-3.22.0" in out and "ok: no count grew" in out


def test_check_on_another_python_measures_nothing_and_exits_2(checked, capsys, monkeypatch):
    def no_measuring(*args):
        raise AssertionError("measured")
    monkeypatch.setattr(gate, "measure", no_measuring)
    status = checked(counts(a_game=1), counts(a_game=1), machine={**MACHINE, "python": "CPython 3.13.0 [Clang]"})
    assert status == 2
    err = capsys.readouterr().err
    assert "cannot check" in err and "3.13.0" in err and "--against" in err and gate.WRITE_COMMAND in err


def test_check_without_valgrind_exits_2(checked, capsys):
    assert checked(counts(a_game=1), counts(a_game=1), valgrind=None) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


def test_check_without_a_baseline_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(gate.shutil, "which", lambda name: "/usr/bin/valgrind")
    assert gate.main(["--check", "--baseline", str(tmp_path / "none.json")]) == 2
    assert gate.WRITE_COMMAND in capsys.readouterr().err
    (tmp_path / "bad.json").write_text('{"cases": {"a game": {"instructions": "many"}}}')
    assert gate.main(["--check", "--baseline", str(tmp_path / "bad.json")]) == 2
    assert "no cases with counts" in capsys.readouterr().err


def test_help_tells_the_cases_and_the_baseline_command(capsys):
    with pytest.raises(SystemExit) as exit:
        gate.main(["--help"])
    assert exit.value.code == 0
    out = capsys.readouterr().out
    assert "--check" in out and gate.WRITE_COMMAND in out and "grew by more than 10%" in out


def test_a_written_baseline_is_read_back(tmp_path, monkeypatch):
    monkeypatch.setattr(gate, "machine", lambda: MACHINE)
    path = tmp_path / "baseline.json"
    gate.write_baseline(path, counts(a_game=123, a_mcts=45))
    data = gate.read_baseline(path)
    assert data["cases"] == counts(a_game=123, a_mcts=45)
    assert gate.incomparable(data, MACHINE) == []
    assert not gate.failed(gate.compare(data["cases"], counts(a_game=123, a_mcts=45)))


def test_the_committed_baseline_has_every_case_as_defined_now():
    """A change of the cases (games, positions, the mcts seat) writes the baseline anew in the
    same commit: this says so in seconds, before the check's minutes of valgrind."""
    data = gate.read_baseline(gate.BASELINE)
    setups = {name: setup for case in gate.CASES for name, setup in case.setups().items()}
    assert {name: case["setup"] for name, case in data["cases"].items()} == setups, \
        f"the cases changed: run `{gate.WRITE_COMMAND}`"
    assert all(case["instructions"] > 0 for case in data["cases"].values())
    assert data["python"] and data["machine"] and data["platform"]


"""`engine info RULESET`: what a ruleset offers, told from the file itself.

The expected figures are counted here from the YAML, not from the engine's own reading of it.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
import yaml

from engine.cli import main

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples" / "guide").glob("*.yaml"))


def info(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["info", *map(str, args)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _counts(data: dict) -> Counter:
    """Cards by kind, counting each entry's `count:` copies, and each row of a table once for
    every combination of its `for_each` values."""
    counts: Counter = Counter()
    for entry in data.get("cards", []):
        if "table" not in entry:
            counts[entry["kind"]] += entry.get("count", 1)
            continue
        table = entry["table"]
        combinations = 1
        for values in table.get("for_each", {}).values():
            combinations *= len(values)
        for row in table.get("rows", [{}]):
            row = dict(zip(table["columns"], row)) if isinstance(row, list) else row
            whole = {**table, **row}
            counts[whole["kind"]] += whole.get("count", 1) * combinations
    return counts


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_info_shows_players_options_and_card_counts(capsys, path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    code, out, err = info(capsys, path)
    assert code == 0, err
    assert out.startswith(data["game"]["name"])
    assert all(len(line) <= 100 for line in out.splitlines()), "a line is wider than 100 columns"
    counts = _counts(data)
    assert f"Cards: {sum(counts.values())}\n" in out
    for kind, n in counts.items():
        assert any(line.split()[:2] == [kind, str(n)] for line in out.splitlines()), f"{kind}: {n} not shown"
    for name, option in data.get("options", {}).items():
        shown = [line for line in out.splitlines() if line.split()[:1] == [name]]
        assert shown and "default " + str(option["default"]).lower() in shown[0].lower(), f"option {name}"
    for name in data.get("constants", {}):
        assert any(line.split()[:1] in ([name], [name + ":"]) for line in out.splitlines()), f"constant {name}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_json_tells_the_same_facts(capsys, path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    code, out, _ = info(capsys, path, "--json")
    assert code == 0
    facts = json.loads(out)
    assert facts["name"] == data["game"]["name"] and facts["players"] == sorted(data["game"]["players"])
    assert [o["name"] for o in facts["options"]] == list(data.get("options", {}))
    assert {o["name"]: o["default"] for o in facts["options"]} == {
        name: o["default"] for name, o in data.get("options", {}).items()}
    counts = _counts(data)
    assert facts["cards"]["total"] == sum(counts.values())
    assert {k["kind"]: k["count"] for k in facts["cards"]["kinds"]} == {
        kind: counts[kind] for kind in data.get("card_kinds", {})}
    assert facts["constants"] == json.loads(json.dumps(data.get("constants", {})))  # JSON keys are text
    assert facts["heuristic"] == ("heuristic" in data.get("scoring", {}))
    assert facts["breakdown"] == list(data.get("scoring", {}).get("breakdown", {}))
    assert facts["bots"] == data.get("bots", {})
    modeline, first = path.read_text(encoding="utf-8").splitlines()[:2]
    assert modeline.startswith("# yaml-language-server: $schema=")  # for editors, left out of the notes
    assert facts["notes"].splitlines()[0] == first[2:] if first.startswith("# ") else facts["notes"] == ""
    assert "yaml-language-server" not in facts["notes"]
    assert [(b["name"], b["places"]) for b in facts["boards"]] == [
        (name, len(b["places"])) for name, b in data.get("boards", {}).items()]


def test_trick_of_the_rails_in_full(capsys):
    code, out, _ = info(capsys, ROOT / "rulesets" / "trick_of_the_rails.yaml")
    assert code == 0
    assert "Players: 3, 4 or 5" in out and "Cards: 71\n" in out
    assert "  Score parts: B&O, C&O, ERIE, NYC, PRR\n" in out
    lines = out.splitlines()
    teams = next(line for line in lines if line.split()[:1] == ["teams"])
    assert "default false" in teams and "true or false" in teams and "only with 4 players" in teams
    first = next(line for line in lines if line.split()[:1] == ["first_leader"])
    assert "default 0" in first and "0, 1, 2, 3, 4 or 5" in first
    assert "  mcts: depth=0" in lines
    assert "  hand_size    {3: 15, 4: 11, 5: 9}" in lines
    assert "  Notes (the comments at the top of the file):" in lines
    assert "    Trick of the Rails, for 3 to 5 players." in lines
    assert not any("yaml-language-server" in line for line in lines)


def test_long_notes_are_only_pointed_to(capsys):
    code, out, _ = info(capsys, ROOT / "rulesets" / "railways.yaml", "--json")
    notes = json.loads(out)["notes"]
    assert "CHOSEN VALUES" in notes
    code, out, _ = info(capsys, ROOT / "rulesets" / "railways.yaml")
    assert f"  Notes: {len(notes.splitlines())} lines of comments at the top of the file (--json gives them)" \
        in out.splitlines()
    assert "CHOSEN VALUES" not in out


def test_a_board_is_shown_with_its_places(capsys):
    code, out, _ = info(capsys, ROOT / "rulesets" / "railways.yaml")
    assert code == 0
    assert "  map  56 places  (hex)" in out.splitlines()


def test_with_an_extension_the_counts_change_by_what_it_adds(capsys):
    base, mine = ROOT / "rulesets" / "railways.yaml", ROOT / "examples" / "my_events.yaml"
    ext = yaml.safe_load(mine.read_text(encoding="utf-8"))
    named = {e.get("name"): e.get("count", 1) for e in yaml.safe_load(base.read_text(encoding="utf-8"))["cards"]}
    change = sum(_counts(ext).values()) - sum(named[name] for name in ext.get("remove_cards", []))
    assert change != 0
    _, before, _ = info(capsys, base, "--json")
    code, after, _ = info(capsys, base, "--with", mine, "--json")
    assert code == 0
    before, after = json.loads(before), json.loads(after)
    assert after["cards"]["total"] == before["cards"]["total"] + change
    assert after["extensions"] == [str(mine)]
    code, text, _ = info(capsys, base, "--with", mine)
    assert f"Cards: {before['cards']['total'] + change}\n" in text


def test_a_broken_ruleset_gets_the_located_errors_of_validate(capsys, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game:\n  name: X\n  players: [2]\ncards:\n  - kind: nope\n", encoding="utf-8")
    assert main(["validate", str(bad)]) == 1
    located = capsys.readouterr().out.splitlines()
    assert f"{bad}:5:11: error: unknown card kind 'nope'" in located
    code, out, err = info(capsys, bad)
    assert code == 1 and out == ""
    assert err.splitlines() == located


def test_a_missing_file_is_one_line(capsys, tmp_path):
    code, out, err = info(capsys, tmp_path / "none.yaml")
    assert code == 1 and out == ""
    assert err.splitlines() == [f"{tmp_path / 'none.yaml'}: error: cannot read the file: No such file or directory"]


def test_help_has_an_example(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["info", "--help"])
    out = capsys.readouterr().out
    assert stop.value.code == 0
    assert "engine info rulesets/" in out and "--with" in out and "--json" in out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_info_fits_80_columns(capsys, path):
    """A person at an 80-column terminal reads every line whole (it was laid out at 100)."""
    code, out, _ = info(capsys, path)
    assert code == 0
    assert [line for line in out.splitlines() if len(line) > 80] == []


def test_a_long_path_fits_80_columns(capsys, tmp_path, monkeypatch):
    """A clone at a long path, read from another folder: the file's path is broken after a
    separator, and reads whole again when its lines are joined."""
    deep = tmp_path.joinpath(*["a_folder_with_a_long_name"] * 5)
    deep.mkdir(parents=True)
    ruleset = deep / "guide.yaml"
    ruleset.write_text((ROOT / "examples" / "guide" / "step5_options_triggers_modifiers.yaml").read_text(encoding="utf-8"),
                       encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, _ = info(capsys, ruleset)
    assert code == 0
    assert [line for line in out.splitlines() if len(line) > 80] == []
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  File: "))
    end = next(i for i, line in enumerate(lines) if line.startswith("  Players: "))
    assert "".join(line.strip() for line in lines[start:end]) == f"File: {ruleset}"


def test_a_path_inside_the_folder_is_told_relative(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    code, out, _ = info(capsys, ROOT / "rulesets" / "railways.yaml")
    assert code == 0
    assert "  File: rulesets/railways.yaml" in out.splitlines()

"""The compatibility corpus: rulesets written against earlier versions still load and play the
same games (issue 29). See tests/fixtures/compat/README.md.

Each line of tests/fixtures/compat/pinned.txt names a ruleset of the corpus (with `+EXT` for
an extension file played with it), a number of players, and what random play of it with a
fixed seed gave: the number of decisions, the start of `Game.digest()` (every zone, counter and
decision, as in test_same_games.py) and the scores, by seat. A file that no longer loads, or a
game that no longer plays the same, is a compatibility bug: fix the engine, or, for a deliberate
change of the format, add a migration (engine/rules/migrations.py) and say so in the README.
Print the lines anew with `python tests/test_compat.py` only when a game is meant to change, and
say why in the commit.
"""
from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

import pytest

from engine.cli import main
from engine.game.game import Game
from engine.core.errors import RulesetError
from engine.rules.migrations import Outdated, fix
from engine.rules.ruleset import load_ruleset

CORPUS = Path(__file__).resolve().parent / "fixtures" / "compat"
PINNED = CORPUS / "pinned.txt"
SEED, LIMIT = 1, 250
OLD_FORMS = "old_forms/"  # files in a form a deliberate change stopped reading: played after --fix


def pinned() -> dict[tuple[str, int], tuple[int, str, str]]:
    """Each game of the corpus, (files, players), and its decisions, digest and scores."""
    games = {}
    for line in PINNED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            files, players, decisions, digest, scores = line.split()
            games[(files, int(players))] = (int(decisions), digest, scores)
    return games


def migrated(name: str, folder: Path) -> Path:
    """The corpus file `name`, copied to `folder` and, if of an old form, with its migrations applied."""
    copy = folder / Path(name).name
    shutil.copy(CORPUS / name, copy)
    if name.startswith(OLD_FORMS):
        with pytest.raises(RulesetError) as refused:
            load_ruleset(copy)
        assert fix(refused.value.diagnostics)
    return copy


def _load(files: str):
    ruleset, *extensions = files.split("+")
    with tempfile.TemporaryDirectory() as folder:
        return load_ruleset(migrated(ruleset, Path(folder)), [migrated(e, Path(folder)) for e in extensions])


def played(files: str, players: int) -> tuple[int, str, str]:
    """A game of random legal decisions, the same for the same seed, up to LIMIT of them."""
    game, rng = Game(_load(files), players, None, SEED), random.Random(SEED)
    while not game.over and len(game.decisions) < LIMIT:
        game.apply(rng.randrange(len(game.legal_actions())))
    scores = ",".join(str(game.scores()[p]) for p in game.players)
    return len(game.decisions), game.digest()[:16], scores


GAMES = pinned()


def test_every_file_of_the_corpus_is_played():
    named = {name for files, _ in GAMES for name in files.split("+")}
    assert {str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.yaml")} == named


def test_each_ruleset_is_played_at_its_smallest_player_count_and_one_more():
    for files in {files for files, _ in GAMES}:
        least = min(_load(files).players)
        assert {n for f, n in GAMES if f == files} == {least, least + 1}, files


@pytest.mark.parametrize("files", sorted({files for files, _ in GAMES} - {f for f, _ in GAMES if OLD_FORMS in f}))
def test_the_file_validates(files, capsys):
    ruleset, *extensions = files.split("+")
    args = ["validate", str(CORPUS / ruleset)] + [a for e in extensions for a in ("--with", str(CORPUS / e))]
    assert main(args) == 0, capsys.readouterr().out
    assert ": ok (" in capsys.readouterr().out


@pytest.mark.parametrize("files, players", sorted(GAMES))
def test_the_same_game_as_when_it_was_written(files, players):
    assert played(files, players) == GAMES[(files, players)]



@pytest.mark.parametrize("name", sorted({f for f, _ in GAMES if f.startswith(OLD_FORMS)}))
def test_an_old_form_is_reported_at_its_line_and_fixed_there_alone(name, tmp_path, capsys):
    """validate names each old line and says --fix does it; --fix rewrites those lines and no
    other (comments, layout, the rest of the file as written), and the file then validates."""
    path = tmp_path / Path(name).name
    shutil.copy(CORPUS / name, path)
    before = path.read_text(encoding="utf-8").split("\n")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    old = sorted({int(line.split(":")[1]) for line in out})
    assert old and all(line.endswith("`engine validate --fix` does it") for line in out)
    assert main(["validate", "--fix", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [int(line.split(":")[1]) for line in out if ": fixed: " in line] == old
    assert out[-1].startswith(f"{path}: ok (")
    after = path.read_text(encoding="utf-8").split("\n")
    assert [i + 1 for i, (a, b) in enumerate(zip(before, after)) if a != b] == old and len(after) == len(before)
    assert all(after[i - 1].strip() == before[i - 1].strip() for i in old)  # only indentation moved


def test_fix_keeps_line_ends_comments_and_other_lines(tmp_path):
    text = ("game: {name: T, players: [2]}\r\ncard_kinds: {n: {zone: deck}}\r\ncards: [{kind: n}]\r\n"
            "zones: {deck: {}}\r\nflow: |\r\n  if true:   # a comment\r\n  \t log(\"a\")  # kept\r\n"
            "  log(\"b\")\r\nscoring: {score: 0}\r\n")
    path = tmp_path / "crlf.yaml"
    path.write_bytes(text.encode())
    with pytest.raises(RulesetError) as refused:
        load_ruleset(path)
    found = [d for d in refused.value.diagnostics if isinstance(d, Outdated)]
    assert [(d.location.line, d.location.column) for d in found] == [(7, 3)]
    assert fix(refused.value.diagnostics) == found
    assert path.read_bytes().decode() == text.replace("  \t log", "           log")
    assert load_ruleset(path).name == "T"
    assert fix(refused.value.diagnostics) == []  # the line reads otherwise now: left alone


if __name__ == "__main__":
    for files, players in sorted(GAMES):
        print(files, players, *played(files, players))

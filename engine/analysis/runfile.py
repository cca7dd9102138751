"""A simulation's run file (JSON Lines): a header line saying what the run is, then one record
per game, appended as games end, in the order they end.

Appending and flushing each line means a run killed at any moment keeps every game it
finished; the last line may be cut short, and is dropped. Opening the file again for the same
run gives back its games, so that the run plays only the others (and more if more are asked
for); a different run is refused rather than mixed in.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any, Callable

from ..core.errors import EngineError
from ..core.jsonfiles import MAX_DEPTH, TooLarge, deeper_than, limited_lines
from ..game.game import Game
from ..game.seeds import SEED_LIMIT
from ..players.agents import built_in
from ..rules.ruleset import Ruleset
from .run import DECISION_CAP, RunSpec, game_seed, replay_game

# A record is some hundred bytes, so a million games take about 600 MB; a longer line, or a larger
# file, is no run file of engine simulate (`/dev/zero` is both), found before it fills the memory.
MAX_LINE_BYTES = 1 << 20
MAX_RUN_BYTES = 1 << 30
SAME_RUN = ("digest", "players", "seats", "options", "seed", "max_decisions")  # what a game depends on


def header(spec: RunSpec, games: int) -> dict[str, Any]:
    return {"run": {"ruleset": spec.ruleset, "name": spec.name, "digest": spec.digest,
                    "extensions": spec.extensions, "players": spec.players, "seats": spec.seats,
                    "options": spec.options, "seed": spec.seed, "games": games,
                    "max_decisions": spec.max_decisions}}


def read_run(path: str | Path, command: str | None = None, key: Callable[[dict[str, Any]], Any] = lambda r: r["game"]
             ) -> tuple[dict[str, Any], dict[Any, dict[str, Any]], int]:
    """The header, the records by `key` (by game number: the first of any game given twice) and
    the length of the file's whole lines (a cut last line lies beyond it); read a line at a
    time. The header's `command` must be the one given: none for simulate's."""
    what = f"a run file of engine {command or 'simulate'}"
    with open(path, "rb") as stream:
        lines = limited_lines(stream, MAX_LINE_BYTES, MAX_RUN_BYTES)
        try:
            first = next(lines, b"")
            try:
                head = json.loads(first) if first.endswith(b"\n") else None
            except (ValueError, RecursionError):
                head = None
            if not isinstance(head, dict) or not isinstance(head.get("run"), dict) \
                    or head["run"].get("command") != command:
                raise EngineError(f"{path} is not {what} (its first line is not its run header)")
            records: dict[Any, dict[str, Any]] = {}
            whole = len(first)
            for number, line in enumerate(lines, start=2):
                if not line.endswith(b"\n"):
                    break
                try:
                    record = json.loads(line)
                    if deeper_than(record, MAX_DEPTH) or not isinstance(record["game"], int):
                        raise ValueError("not a record")
                    records.setdefault(key(record), record)
                except (ValueError, TypeError, KeyError, RecursionError):
                    raise EngineError(f"{path}:{number}: not a game record; the file is damaged") from None
                whole += len(line)
        except TooLarge:
            raise EngineError(f"{path} is not {what} (a line longer than {MAX_LINE_BYTES} "
                              f"bytes, or more than {MAX_RUN_BYTES} bytes in all)") from None
    return head["run"], records, whole


class RunFile:
    """A run file open for appending, with the games it already holds (`records`, by `key`)."""

    COMMAND: str | None = None  # what the header's "command" says: simulate's files say nothing

    def __init__(self, path: str | Path, records: dict[Any, dict[str, Any]], stream: IO[str]):
        self.path, self.records, self._stream = path, records, stream

    @staticmethod
    def key(record: dict[str, Any]) -> Any:
        return record["game"]

    @classmethod
    def read(cls, path: str | Path) -> tuple[dict[str, Any], dict[Any, dict[str, Any]], int]:
        return read_run(path, cls.COMMAND, cls.key)

    @classmethod
    def open(cls, path: str | Path, spec: RunSpec, games: int, extra: dict[str, Any] | None = None) -> RunFile:
        """Start the run file at `path`, or go on with the same run in it; a cut last line is
        removed, and the header is rewritten when more games are asked for than before. `extra`
        is more the run's games depend on (compare's other variant), in the header and checked."""
        target = Path(path)
        if target.is_dir():
            raise EngineError(f"--out {path} is a directory; give a file name such as runs.jsonl")
        fresh = header(spec, games)
        fresh["run"].update(extra or {})
        if cls.COMMAND is not None:
            fresh["run"]["command"] = cls.COMMAND
        records: dict[Any, dict[str, Any]] = {}
        try:
            if not target.exists() or target.stat().st_size == 0:
                target.write_text(json.dumps(fresh) + "\n", encoding="utf-8")
            else:
                run, records, whole = cls.read(target)
                _check_same(path, run, fresh["run"], SAME_RUN + tuple(extra or {}))
                if games > run.get("games", 0):
                    _rewrite_header(target, fresh, whole)
                elif whole < target.stat().st_size:
                    os.truncate(target, whole)
            stream = open(target, "a", encoding="utf-8")
        except OSError as exc:
            raise EngineError(f"--out {path}: {exc.strerror or exc}") from None
        return cls(path, records, stream)

    def append(self, record: dict[str, Any]) -> None:
        """Add a game's record, on disk at once: a run killed after this keeps it."""
        self._stream.write(json.dumps(record) + "\n")
        self._stream.flush()
        self.records[self.key(record)] = record

    def close(self) -> None:
        self._stream.close()


def _check_same(path: str | Path, there: dict[str, Any], here: dict[str, Any], keys: tuple[str, ...] = SAME_RUN
                ) -> None:
    for key in keys:
        if there.get(key) != here[key]:
            what = "the ruleset (or a --with file) has changed" if key == "digest" else \
                f"{key.replace('_', '-')} {json.dumps(there.get(key))} there, {json.dumps(here[key])} here"
            raise EngineError(f"{path} holds another run ({what}); give --out another file name, "
                              f"e.g. {_free_name(Path(path))}")


def _free_name(path: Path) -> str:
    n = 2
    while path.with_name(f"{path.stem}-{n}{path.suffix}").exists():
        n += 1
    return str(path.with_name(f"{path.stem}-{n}{path.suffix}"))


def _rewrite_header(path: Path, head: dict[str, Any], whole: int) -> None:
    """Replace the header line (and drop a cut last line): write a new file beside, then put it
    in place, so that a kill meanwhile leaves the old file whole."""
    temporary = path.with_name(path.name + ".tmp")
    with open(path, "rb") as old, open(temporary, "wb") as new:
        left = whole - len(old.readline())
        new.write(json.dumps(head).encode("utf-8") + b"\n")
        while left > 0:
            block = old.read(min(left, 1 << 20))
            if not block:
                break
            new.write(block)
            left -= len(block)
    os.replace(temporary, path)


def replay_record(ruleset: Ruleset, run: Any, record: Any, where: str,
                  watch: Callable[[Game], None] | None = None) -> Game:
    """The game of a run file's `record` (a run's header is `run`), played again by its bots as
    `engine simulate` played it, with `ruleset`, and checked against the record: its number of
    decisions, scores and end reason. Both come from whoever wrote the file (`where` names it in
    messages): every field is checked, and a seat that is not a built-in kind is refused, as a
    file runs no code. EngineError in one line for what cannot be replayed. `watch`: see
    run.replay_game."""
    if deeper_than([run, record], MAX_DEPTH):
        raise EngineError(f"{where}: values nested more than {MAX_DEPTH} deep; not a run file of engine simulate")
    if not isinstance(run, dict) or not isinstance(record, dict):
        raise EngineError(f"{where}: a run's header and a game's record are JSON objects")
    seats, players, seed, cap = run.get("seats"), run.get("players"), run.get("seed"), run.get("max_decisions")
    number, options = record.get("game"), run.get("options")
    if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats) and players == len(seats)
            and type(seed) is int and 0 <= seed < SEED_LIMIT and (cap is None or type(cap) is int and cap > 0)
            and isinstance(options, dict) and all(type(v) in (str, int, bool) for v in options.values())):
        raise EngineError(f"{where}: the run's header is damaged (seats, players, seed, options, max_decisions)")
    if type(number) is not int or number < 1:
        raise EngineError(f"{where}: the game's record has no game number")
    for i, seat in enumerate(seats, 1):
        if not built_in(seat):
            shown = seat if len(seat) <= 24 else seat[:24] + "..."
            raise EngineError(f"{where}: seat {i} '{shown}' is not a built-in kind: a run file runs no code, "
                              "so its games cannot be played again from it")
    if "error" in record or "late" in record:
        raise EngineError(f"{where}: game {number} " + ("failed; replay it with the command of its record"
                          if "error" in record else "had bots over their time limit: it cannot be played again"))
    decisions = record.get("decisions")
    if type(decisions) is not int or decisions < 0 or (record.get("end_reason") == DECISION_CAP and decisions != cap):
        raise EngineError(f"{where}: game {number}'s record is damaged (its decisions, its end reason)")
    try:
        resolved = ruleset.resolve_options({k: str(v) for k, v in options.items()}, players)
    except ValueError as exc:
        raise EngineError(f"{where}: {exc}") from None
    if players not in ruleset.players:
        raise EngineError(f"{where}: {ruleset.name} is for {', '.join(map(str, ruleset.players))} players, not {players}")
    if record.get("seed") != game_seed(seed, number - 1):
        raise EngineError(f"{where}: game {number}'s seed is not the one the run's seed gives it")
    # Played no further than its record says it went: a game that would go on past it does not
    # reproduce, whatever it does then (one that random players never end, under no cap, stops).
    spec = RunSpec(ruleset.loaded_as, players, seats, resolved, seed, decisions if cap is None else min(cap, decisions),
                   list(ruleset.extensions), ruleset.digest)
    game = replay_game(ruleset, spec, number, watch)
    if (record.get("decisions"), record.get("scores"), record.get("end_reason")) != (
            len(game.decisions), {str(p): v for p, v in game.scores().items()},
            game.end_reason if game.over else DECISION_CAP):
        raise EngineError(f"{where}: game {number} does not reproduce: played again, it is not the game of its "
                          "record (another ruleset, or another version of its bots?)")
    return game

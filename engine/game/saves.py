"""Saved games: ruleset, options, seed, the decisions taken and the state they led to.

`engine play --resume` and `engine replay` both rebuild the game from seed and decisions, and
check that this gives the saved state (and, for a finished game, the saved digest and scores):
the saved state is a claim to check, never a game to go on from, so a save edited to give a
player another hand is refused, naming the first place where it differs. The file also records a
hash of the ruleset (to notice a changed ruleset) and the seats (who played: only built-in kinds
are made from a save, so that opening one never runs code; see cli.py).

A save is a referee's record: its seed and state tell every hidden card and every future draw.
It carries a digest of its content (`save_sha256`), so that a save changed by hand or damaged
is refused rather than replayed as another game; the digest is no signature (whoever edits the
file can compute it again), and the replay's check against the saved state stays. Saves of the
older formats still load, and are replayed as well: those of the first have no state; neither
has a digest.

A save is written beside its target and renamed onto it, and only a regular file (or nothing)
is replaced: a device, a directory or a pipe named as a save is refused before play starts.
"""
from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any, Callable

from .. import __version__
from ..core.errors import EngineError, IllegalMove, SaveError
from ..core.jsonfiles import MAX_DEPTH, TooLarge, deeper_than, read_limited
from ..rules.ruleset import Ruleset, load_ruleset
from .game import Game
from .seeds import SEED_LIMIT

FORMAT = "engine-save/3"
FORMATS = ("engine-save/1", "engine-save/2", FORMAT)  # the first had no state and no seats; neither a digest
DIGEST = "save_sha256"
MAX_SAVE_BYTES = 20_000_000
# The fields of a save: those every save has, then those some have (None: this field may be null).
REQUIRED = {"ruleset": str, "players": int, "seed": int, "decisions": list, "options": dict}
OPTIONAL = {"engine": str, "extensions": list, "ruleset_sha256": (str, None), "seats": (list, None),
            "state": dict, "result": (dict, None), "error": (str, None)}


def content_digest(data: dict[str, Any]) -> str:
    """The digest of a save's content: every field but the digest itself, as canonical JSON."""
    rest = {k: v for k, v in data.items() if k != DIGEST}
    return hashlib.sha256(json.dumps(rest, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def save_data(game: Game, seats: list[str] | None = None, error: str | None = None) -> dict[str, Any]:
    """A save of `game`; `error`: the rule error that stopped it, the game being as it was
    before the decision that failed. A game saved during a simultaneous step is saved as the
    step began (`Game.withdrawn`): whoever reads the save must not learn an answer given in
    it, and the step asks them all again when the game is resumed."""
    game = game.withdrawn()
    data: dict[str, Any] = {
        "format": FORMAT,
        "engine": __version__,
        "ruleset": game.rules.loaded_as,
        "extensions": list(game.rules.extensions),
        "ruleset_sha256": game.rules.digest,
        "players": len(game.players),
        "options": game.options,
        "seed": game.seed,
        "decisions": list(game.decisions),
        "seats": list(seats) if seats else None,
        "state": game.snapshot(),
    }
    if error is not None:
        data["error"] = "".join(c if c.isprintable() else " " for c in error)  # read back as one line
    if game.over:
        data["result"] = {"digest": game.digest(),
                          "scores": {str(p): s for p, s in game.scores().items()},
                          "winners": [str(p) for p in game.winners()], "end_reason": game.end_reason}
    data[DIGEST] = content_digest(data)
    return data


class SaveRequest(Exception):
    """Raised by a person's agent to have the game saved to `path` and go on: the agent has
    no path to the game, so the driver that has it writes the save (players/loop.play); `reply`
    tells the person what came of it."""

    def __init__(self, path: str, reply: Callable[[str], None]):
        super().__init__("save")
        self.path, self.reply = path, reply


def write_save(game: Game, path: str | Path, seats: list[str] | None = None, error: str | None = None) -> None:
    """Write atomically: a temporary file in the same folder, then a rename onto the target,
    which must be absent or a regular file (through a symbolic link, the file it names).
    SaveError, in one line, if it cannot be written; the old save is then left as it was."""
    target = _save_target(path)
    text = json.dumps(save_data(game, seats, error), indent=1)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise SaveError(f"cannot save to {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise SaveError(f"cannot save to {path}: {exc.strerror or exc}") from None
        raise


def check_save_path(path: str | Path) -> None:
    """Can a save be written to `path`? Asked before a game starts, so that a game is not
    played to the end to be lost for a bad file name: SaveError in one line if not."""
    target = _save_target(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise SaveError(f"cannot save to {path}: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(tmp)


def _save_target(path: str | Path) -> Path:
    """The file a save to `path` replaces: absent or a regular file, else SaveError."""
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        if not target.parent.is_dir():
            raise SaveError(f"cannot save to {path}: there is no folder {target.parent}") from None
        return target
    except OSError as exc:
        raise SaveError(f"cannot save to {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(mode):
        what = "a folder" if stat.S_ISDIR(mode) else "a device, a pipe or a socket, not a file"
        raise SaveError(f"cannot save to {path}: it is {what}; give a file name such as game.json")
    return target


def read_save(path: str | Path) -> dict[str, Any]:
    """The fields of a save, each checked for its type; SaveError in one line if it is not one.
    The file is read up to its size limit only (a device may have no end)."""
    try:
        raw = read_limited(path, MAX_SAVE_BYTES)
    except TooLarge:
        raise SaveError(f"{path}: larger than {MAX_SAVE_BYTES} bytes; not a save of this engine") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the save: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        where = f" at line {exc.lineno}, column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise SaveError(f"{path}: not a readable save file{where} (truncated or not JSON)") from None
    except (ValueError, RecursionError):  # a number of thousands of digits, lists nested thousands deep
        raise SaveError(f"{path}: not a save of this engine (it holds a number too long or lists nested "
                        "too deep)") from None
    return check_save(data, path)


def check_save(data: Any, path: str | Path) -> dict[str, Any]:
    """`data`, read from JSON, if it is a save (`path` names it in messages): its digest, format and
    fields checked; else SaveError in one line. For saves read from a file or sent to a server."""
    if deeper_than(data, MAX_DEPTH):
        raise SaveError(f"{path}: not a save of this engine (it holds values nested more than {MAX_DEPTH} deep)")
    if isinstance(data, dict) and data.get("format") == FORMAT and data.get(DIGEST) != content_digest(data):
        raise SaveError(f"{path}: this save has been changed since it was written (its content does not "
                        "match its digest); it is refused")
    if not isinstance(data, dict) or data.get("format") not in FORMATS:
        raise SaveError(f"{path}: not a save of this engine (expected format '{FORMAT}')")
    _check_fields(path, data)
    return data


def _check_fields(path: str | Path, data: dict[str, Any]) -> None:
    """Every field of a save has the type it must have, or a one-line SaveError says which not."""
    def damaged(key: str, why: str = "is damaged") -> SaveError:
        return SaveError(f"{path}: the field '{key}' {why}")
    for key, kind in [*REQUIRED.items(), *((k, v) for k, v in OPTIONAL.items() if k in data)]:
        if not _is(data.get(key), kind):
            raise damaged(key, "is missing or damaged" if key in REQUIRED else "is damaged")
    if not all(type(d) is int for d in data["decisions"]):
        raise SaveError(f"{path}: the decisions must be whole numbers")
    if not -SEED_LIMIT < data["seed"] < SEED_LIMIT:  # saves made before seeds were checked may hold negative ones
        raise damaged("seed", f"is not a seed (a whole number from 0 to {SEED_LIMIT - 1})")
    if not data["ruleset"].isprintable():
        raise damaged("ruleset")
    if not (data.get("error") or "").isprintable():
        raise damaged("error")
    for key in ("extensions", "seats"):
        if not all(isinstance(item, str) and item.isprintable() for item in data.get(key) or []):
            raise damaged(key, "must be a list of texts")
    for name, value in data["options"].items():  # names and values are quoted in messages: one line each
        if not name.isprintable() or not (_is(value, (int, float, None)) or isinstance(value, bool)
                                          or isinstance(value, str) and value.isprintable()):
            raise damaged("options")
    result = data.get("result")
    if result is not None and not (_is(result.get("digest"), str) and _is(result.get("scores"), dict)
                                   and _is(result.get("end_reason"), (str, None))):
        raise damaged("result")


def _is(value: Any, kind: type | tuple[type | None, ...]) -> bool:
    """Is `value` of `kind` (a type, or a tuple of types where None stands for null)? A bool is
    no whole number here."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return not isinstance(value, bool) and any(value is None if k is None else isinstance(value, k) for k in kinds)


def old_format_warnings(path: str | Path, data: dict[str, Any]) -> list[str]:
    """What to tell about a save of an older format: it has no digest to notice edits by."""
    if data.get("format") == FORMAT:
        return []
    return [f"{path} was saved by an older version of the engine, without a digest: a change made to it "
            "since cannot be noticed"]


def _ruleset(path: str | Path, data: dict[str, Any], ruleset_path: str | None) -> tuple[Ruleset, list[str]]:
    """The save's ruleset (or `ruleset_path`), with its extension files; a warning if it changed."""
    rules_file = ruleset_path or data["ruleset"]
    extensions = data.get("extensions", [])
    ruleset: Ruleset = load_ruleset(rules_file, extensions)
    warnings = []
    if data.get("ruleset_sha256") and data["ruleset_sha256"] != ruleset.digest:
        warnings.append(f"the ruleset {rules_file} has changed since this game was saved; "
                        "the replay may differ")
    return ruleset, warnings


def state_difference(game: Game, saved: Any) -> str | None:
    """Where a save's recorded state first differs from the game's (as JSON text would give it
    back), as a path such as `state.table.zones[3]`; None if nowhere. Only the place is named:
    the values there may be cards hidden from whoever reads the message. A save made before
    games had end reasons has no end_reason to compare, and one made before `conceal` marks no
    marks. Which file of rules it was (its name, its digest) is not compared: a ruleset changed
    since is told by a warning, and one whose presentation only changed (labels, texts,
    descriptions) leads to the same state."""
    state = json.loads(json.dumps(game.snapshot()))
    if isinstance(saved, dict):
        saved = {k: v for k, v in saved.items() if k not in ("ruleset", "ruleset_sha256")}
        state = {k: v for k, v in state.items() if k not in ("ruleset", "ruleset_sha256")}
    if isinstance(saved, dict) and "end_reason" not in saved:
        del state["end_reason"]
    table = saved.get("table") if isinstance(saved, dict) else None
    if isinstance(table, dict) and "concealed" not in table:
        del state["table"]["concealed"]
    return _first_difference(state, saved, "state")


def _first_difference(mine: Any, theirs: Any, where: str) -> str | None:
    """The first place where `theirs` differs from `mine`, by the order of `mine`. A key that
    only `theirs` has is not quoted: it is whatever the file holds."""
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key, value in mine.items():
            if key not in theirs:
                return f"{where}.{key}"
            found = _first_difference(value, theirs[key], f"{where}.{key}")
            if found:
                return found
        return None if len(theirs) == len(mine) else f"{where} (a field the game has not)"
    if isinstance(mine, list) and isinstance(theirs, list):
        for i, (one, other) in enumerate(zip(mine, theirs)):
            found = _first_difference(one, other, f"{where}[{i}]")
            if found:
                return found
        return None if len(mine) == len(theirs) else f"{where}[{min(len(mine), len(theirs))}]"
    return None if mine == theirs else where


def not_reproduced(game: Game, data: dict[str, Any]) -> str | None:
    """Why `game`, replayed from a save, is not the game the save records (its state, its
    result), naming the first difference, or None: what `engine replay` checks, for those who
    refuse such a save outright."""
    state = data.get("state")
    if isinstance(state, dict):
        place = state_difference(game, state)
        if place is not None:
            return f"the replayed game differs from the saved state (first at {place})"
    expected = data.get("result")
    if expected is not None and not game.over:
        return "the save records a finished game"
    if expected is not None:
        relabelled = isinstance(state, dict) and data.get("ruleset_sha256") != game.rules.digest
        return result_difference(game, expected, relabelled)
    return None


def result_difference(game: Game, expected: dict[str, Any], relabelled: bool) -> str | None:
    """The first difference between a finished game and the result a save records (scores,
    winners, end reason, then the table's digest), in words; None if there is none. The digest
    reads the zones' labels, which a changed ruleset may have changed without changing the
    game: when it is `relabelled` (changed since, and the saved state matched already), the
    digest is not compared."""
    scores = {str(p): s for p, s in game.scores().items()}
    saved = expected.get("scores")
    if saved != scores:
        if not isinstance(saved, dict):
            return "the replayed game differs from the saved result (the save has no scores)"
        player = next((p for p in scores if saved.get(p) != scores[p]), None) or \
            next(p for p in saved if p not in scores)
        return (f"the replayed game differs from the saved result: {player} scores "
                f"{scores.get(player, 'nothing')}, the save says {saved.get(player, 'nothing')}")
    winners = [str(p) for p in game.winners()]
    told = expected.get("winners", winners)  # (the first saves kept no winners)
    if told != winners:
        said = ", ".join(map(str, told)) if isinstance(told, list) else "something else"
        return (f"the replayed game differs from the saved result: the winners are {', '.join(winners)}, "
                f"the save says {said}")
    if expected.get("end_reason", game.end_reason) != game.end_reason:  # older saves have none
        return (f"the replayed game differs from the saved result: it ended by {game.end_reason!r}, "
                f"the save says {expected['end_reason']!r}")
    if not relabelled and expected.get("digest") != game.digest():
        return ("the replayed game differs from the saved result: the same scores, but not the same "
                "table at the end (its digest differs)")
    return None


def resume(path: str | Path, ruleset_path: str | None = None) -> tuple[Game, dict[str, Any], list[str]]:
    """The saved game, ready to go on: replayed from its seed and decisions, and refused if its
    recorded state is not the one they lead to (unless the ruleset changed since, when the
    replay is what counts and a warning says so). Saves of every format are replayed."""
    game, data, warnings = replay(path, ruleset_path)
    if isinstance(data.get("state"), dict) and not warnings:
        place = state_difference(game, data["state"])
        if place is not None:
            raise SaveError(f"{path}: the saved state is not the one its seed and decisions lead to "
                            f"(first difference: {place}); it is refused")
    return game, data, warnings


def replay(path: str | Path, ruleset_path: str | None = None) -> tuple[Game, dict[str, Any], list[str]]:
    """Re-run a save. Returns the game, the save data and a list of warnings."""
    data = read_save(path)
    ruleset, warnings = _ruleset(path, data, ruleset_path)
    return replayed(path, data, ruleset), data, warnings


def replayed(path: str | Path, data: dict[str, Any], ruleset: Ruleset) -> Game:
    """The game of a save (checked by `check_save`), from its seed and decisions played with
    `ruleset`; SaveError in one line if they cannot be."""
    try:
        options = ruleset.resolve_options({k: str(v) for k, v in data["options"].items()}, data["players"])
        game = Game(ruleset, data["players"], options, data["seed"])
    except (ValueError, IllegalMove) as exc:
        raise SaveError(f"{path}: {exc}") from None
    for i, index in enumerate(data["decisions"]):
        try:
            game.apply(index)
        except IllegalMove as exc:
            raise SaveError(f"{path}: decision {i + 1} of {len(data['decisions'])} cannot be replayed: {exc}") from None
        except EngineError as exc:
            raise SaveError(f"{path}: replaying decision {i + 1} failed: {exc}") from None
    return game

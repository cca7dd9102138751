"""Saved games: ruleset, options, seed and the decisions taken; replaying them rebuilds the game.

The file also records a hash of the ruleset (to notice a changed ruleset) and the final
digest and scores (to tell whether a replay reproduces the game).
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from . import __version__
from .errors import EngineError, IllegalMove, SaveError
from .game import Game
from .ruleset import Ruleset, load_ruleset

FORMAT = "engine-save/1"
MAX_SAVE_BYTES = 20_000_000


def save_data(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "engine": __version__,
        "ruleset": game.rules.path,
        "extensions": list(game.rules.extensions),
        "ruleset_sha256": game.rules.digest,
        "players": len(game.players),
        "options": game.options,
        "seed": game.seed,
        "decisions": list(game.decisions),
    }
    if game.over:
        data["result"] = {"digest": game.digest(),
                          "scores": {str(p): s for p, s in game.scores().items()},
                          "winners": [str(p) for p in game.winners()]}
    return data


def write_save(game: Game, path: str | Path) -> None:
    """Write atomically: a temporary file in the same folder, then a rename."""
    target = Path(path)
    text = json.dumps(save_data(game), indent=1)
    fd, tmp = tempfile.mkstemp(dir=target.parent or Path("."), prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_save(path: str | Path) -> dict[str, Any]:
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the save: {exc.strerror or exc}") from None
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(f"{path}: larger than {MAX_SAVE_BYTES} bytes; not a save of this engine")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        where = f" at line {exc.lineno}, column {exc.colno}" if isinstance(exc, json.JSONDecodeError) else ""
        raise SaveError(f"{path}: not a readable save file{where} (truncated or not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{path}: not a save of this engine (expected format '{FORMAT}')")
    checks = {"ruleset": str, "players": int, "seed": int, "decisions": list, "options": dict}
    for key, kind in checks.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise SaveError(f"{path}: the field '{key}' is missing or damaged")
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in data["decisions"]):
        raise SaveError(f"{path}: the decisions must be whole numbers")
    return data


def replay(path: str | Path, ruleset_path: str | None = None) -> tuple[Game, dict[str, Any], list[str]]:
    """Re-run a save. Returns the game, the save data and a list of warnings."""
    data = read_save(path)
    rules_file = ruleset_path or data["ruleset"]
    extensions = data.get("extensions", [])
    if not isinstance(extensions, list) or not all(isinstance(e, str) for e in extensions):
        raise SaveError(f"{path}: the field 'extensions' is damaged")
    ruleset: Ruleset = load_ruleset(rules_file, extensions)
    warnings = []
    if data.get("ruleset_sha256") and data["ruleset_sha256"] != ruleset.digest:
        warnings.append(f"the ruleset {rules_file} has changed since this game was saved; "
                        "the replay may differ")
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
    return game, data, warnings

"""The engine's files in the user's cache directory: work kept to make the next run faster.

Everything here is optional: deleting the directory is always safe, and where it cannot be
made or written the work is simply done again (see the parser's caches in lang/parser.py and
the schema check's in rules/schema.py).
"""
from __future__ import annotations

import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path


def _user_cache_dir() -> Path | None:
    """The engine's directory in the user's cache directory (it may not exist yet)."""
    try:
        if sys.platform == "win32":
            base = Path(os.environ["LOCALAPPDATA"])
        elif sys.platform == "darwin":
            base = Path.home() / "Library" / "Caches"
        else:
            xdg = os.environ.get("XDG_CACHE_HOME", "")
            base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache"
    except (KeyError, RuntimeError):  # no LOCALAPPDATA, no home directory
        return None
    return base / "engine" if base.is_absolute() else None


@lru_cache(maxsize=1)
def directory() -> Path | None:
    """The engine's cache directory, made if need be; None if there is none that can be made."""
    path = _user_cache_dir()
    if path is None:
        return None
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return path


def write_atomically(path: Path, data: bytes) -> None:
    """Write a cache file whole or not at all (a temporary file that then replaces it); a
    failure leaves the old file, or none."""
    temporary = None
    try:
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=".engine-", delete=False) as f:
            temporary = f.name
            f.write(data)
        os.replace(temporary, path)
    except OSError:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass

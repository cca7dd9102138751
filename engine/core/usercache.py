"""The engine's files in the user's cache directory: work kept to make the next run faster.

Everything here is optional: deleting the directory is always safe, and where it cannot be
made or written the work is simply done again (see the parser's caches in lang/parser.py and
the schema check's in rules/schema.py).

What is read back from the cache is trusted as the engine's own work (parse trees are
unpickled), so the directory must be the user's alone: one that another user owns or can write
to is not used (with a one-line notice), and every file is signed with a key kept in it that
only the user can read. A file whose signature does not match, planted or damaged, is ignored.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

KEY_FILE = "key"
LOCK_FILE = "lock"  # held while a cache file is merged and written (`locked`): one for all
_SIGNATURE = hashlib.sha256().digest_size


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
        found = path.stat()
    except OSError:
        return None
    if not _private(found, 0o022):
        sys.stderr.write(f"engine: the cache directory {path} is not used: another user owns it or can write "
                         f"to it (make it yours alone, or remove it)\n")
        return None
    return path


def _private(found: os.stat_result, others: int) -> bool:
    """The file or directory is the user's and no one else has the permissions `others`
    (always true where there are no owners and modes to tell, as on Windows)."""
    if not hasattr(os, "getuid"):
        return True
    return found.st_uid == os.getuid() and not stat.S_IMODE(found.st_mode) & others


@lru_cache(maxsize=1)
def _key() -> bytes | None:
    """The key that signs the cache's files: read from the cache directory if only the user
    can read it, else made anew (which makes every file signed before unreadable)."""
    folder = directory()
    if folder is None:
        return None
    path = folder / KEY_FILE
    found = _read_key(path)
    if found is not None:
        return found
    # Made anew. Processes that start together (jobs, a benchmark's runs) must agree on one key,
    # or each would sign with its own and read nothing the others wrote: the key is put in place
    # by a hard link, which only the first of them can make; the others read the first one's.
    key = secrets.token_bytes(_SIGNATURE)
    temporary = None
    try:
        with tempfile.NamedTemporaryFile("wb", dir=folder, prefix=".engine-", delete=False) as f:
            temporary = f.name
            f.write(key)
        try:
            os.link(temporary, path)
        except FileExistsError:
            found = _read_key(path)
            if found is not None:
                return found
            os.replace(temporary, path)  # a key that is not the user's alone, or damaged: replaced
        return key
    except OSError:
        return None
    finally:
        if temporary is not None and os.path.exists(temporary):
            os.unlink(temporary)


def _read_key(path: Path) -> bytes | None:
    """The key in `path`, if it is a whole key that only the user can read."""
    try:
        with open(path, "rb") as f:
            if _private(os.fstat(f.fileno()), 0o077) and not path.is_symlink():
                key = f.read(_SIGNATURE + 1)
                if len(key) == _SIGNATURE:
                    return key
    except OSError:
        pass
    return None


def sign(data: bytes) -> bytes | None:
    """`data` with its signature in front, to write to the cache; None without a key."""
    key = _key()
    return None if key is None else hmac.digest(key, data, "sha256") + data


def signed(blob: bytes) -> bytes | None:
    """The data of a cache file written by `sign`, or None if its signature does not match."""
    key = _key()
    if key is None or len(blob) < _SIGNATURE:
        return None
    data = blob[_SIGNATURE:]
    return data if hmac.compare_digest(blob[:_SIGNATURE], hmac.digest(key, data, "sha256")) else None


def read_signed(path: Path) -> bytes | None:
    """A cache file's data, if it is there and signed with the user's key."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    return signed(blob)


def write_atomically(path: Path, data: bytes, signed: bool = True) -> bool:
    """Write a cache file whole or not at all (a temporary file, readable by the user alone,
    that then replaces it), signed unless told not to; a failure leaves the old file, or none.
    Whether it was written."""
    blob = sign(data) if signed else data
    if blob is None:
        return False
    temporary = None
    try:
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=".engine-", delete=False) as f:
            temporary = f.name
            f.write(blob)
        os.replace(temporary, path)
        return True
    except OSError:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
        return False


@contextmanager
def locked(path: Path) -> Iterator[None]:
    """Hold the lock of a cache file while it is read again, merged with this process's work
    and written. Processes that end together (`--jobs`, a benchmark's runs) would otherwise each
    write what they read at their start plus their own, and the last would drop the others'
    (a lost tree is parsed again: slower, and a benchmark's counts jump). Without a lock to take
    (no fcntl, or the lock file cannot be made) the last writer wins, as before."""
    try:
        import fcntl
        handle = os.open(path.parent / LOCK_FILE, os.O_CREAT | os.O_WRONLY, 0o600)
    except (ImportError, OSError):
        yield
        return
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:
            pass
        yield
    finally:
        os.close(handle)  # lets the lock go

"""JSON files that may come from anyone (saves, run files): read within a size and nested
within a depth, so that `/dev/zero` or a value nested thousands deep ends in a one-line error
naming the file, never in a MemoryError or a RecursionError.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, BinaryIO, Iterator

MAX_DEPTH = 200  # lists and objects within each other; a game's saves nest about a dozen deep


class TooLarge(Exception):
    """A file or a line longer than its limit: read no further."""


def read_limited(path: str | Path, limit: int) -> bytes:
    """The bytes of a file of at most `limit` bytes; TooLarge if it has more, found without
    reading more than `limit + 1` of them (a device or a pipe has no size to ask first).
    OSError as `open` raises it."""
    with open(path, "rb") as f:
        raw = f.read(limit + 1)
    if len(raw) > limit:
        raise TooLarge
    return raw


def limited_lines(stream: BinaryIO, line_limit: int, total_limit: int) -> Iterator[bytes]:
    """The lines of a binary stream, each with its newline (the last may lack one); TooLarge
    at a line longer than `line_limit` or once more than `total_limit` bytes were read."""
    total = 0
    while True:
        line = stream.readline(line_limit + 1)
        if not line:
            return
        total += len(line)
        if len(line) > line_limit or total > total_limit:
            raise TooLarge
        yield line


def deeper_than(value: Any, depth: int) -> bool:
    """Are lists and objects nested more than `depth` deep in `value`? Walked without recursion,
    so that the answer never needs the depth it refuses."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            if level > depth:
                return True
            stack.extend((inner, level + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return False

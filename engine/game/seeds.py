"""Seeds: a game's one seed, and the bots' seeds of `engine play` derived from it.

Whoever knows a game's seed can rebuild every hidden card and every future draw, so by default
`engine play` draws a secret 64-bit seed that nobody sees before the game ends. Its bots draw
from seeds derived from it through a hash: they are as secret as the game's seed, knowing one
tells nothing of it, and the game stays reproducible from ruleset, options, seed and decisions.
A seed given with --seed is the user's own choice; simulations derive every game's seed from it
(`game_seed` in analysis/run.py). Each seat's bot draws from `seat_seed`, a keyed hash of its
game's seed: a bot cannot work the game's seed back out of its own, nor another seat's.
"""
from __future__ import annotations

import argparse
import hashlib
import hmac
import secrets

SEED_LIMIT = 2**64  # seeds are whole numbers from 0 to SEED_LIMIT - 1


def secret_seed() -> int:
    """A new seed nobody can guess: 64 bits from the operating system's secure source."""
    return secrets.randbits(64)


def derived_seed(seed: int, *what: object) -> int:
    """A 64-bit seed for `what` (a purpose and its place) of whatever draws from `seed`: an HMAC
    keyed by `seed`, so it can be neither inverted nor told from another derived seed."""
    message = "/".join(["engine", *map(str, what)]).encode()
    return int.from_bytes(hmac.new(str(seed).encode(), message, hashlib.sha256).digest()[:8], "big")


def bots_seed(seed: int, decisions: int) -> int:
    """The seed the bots of a game of secret seed `seed` draw from after `decisions` decisions
    (0: from the start; a resumed game gives its bots new ones)."""
    return derived_seed(seed, "bots", decisions)


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the bot in seat `seat` (from 0) of a game whose bots draw from `seed`."""
    return derived_seed(seed, "seat", seat)


def seed_argument(text: str) -> int:
    """--seed: a whole number from 0 to 2^64 - 1. A negative seed is refused, not read as its
    absolute value (as Python's generator would): -5 and 5 would be one game under two names."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(SEED_LIMIT)) or int(text) >= SEED_LIMIT:
        shown = text if len(text) <= 24 else text[:24] + "..."
        raise argparse.ArgumentTypeError(f"'{shown}' is not a seed: give a whole number from 0 to {SEED_LIMIT - 1}")
    return int(text)

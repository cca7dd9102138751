"""The line that shows, at the terminal, that a bot is deciding (players/thinking.py)."""
from __future__ import annotations

import io
import threading
import time

from conftest import ruleset
from engine.game.game import Game
from engine.game.view import view
from engine.players.thinking import BotClock, Thinking


class Screen(io.StringIO):
    """A terminal that tells when something was written to it."""

    def __init__(self):
        super().__init__()
        self.written = threading.Event()

    def write(self, text):
        self.written.set()
        return super().write(text)


class Slow:
    """A bot that decides once the screen has shown something (or after 10 s)."""

    def __init__(self, screen):
        self.screen = screen

    def choose(self, pv):
        self.screen.written.wait(10)
        return 1


def test_while_a_bot_decides_a_line_names_it_and_is_rubbed_out_when_it_has_chosen():
    game = Game(ruleset("trick_of_the_rails"), 3, seed=1)
    screen = Screen()
    pv = view(game, game.pending.player, {game.pending.player: f"P{game.pending.player} (mcts)"})
    assert Thinking(Slow(screen), screen, BotClock(), delay=0).choose(pv) == 1
    text = screen.getvalue()
    line = f"P{game.pending.player} (mcts) is thinking... 0 s"
    assert text.startswith("\r" + line) and text.endswith("\r" + " " * len(line) + "\r")


def test_a_bot_that_decides_at_once_shows_nothing():
    class Quick:
        def choose(self, pv):
            return 0
    game = Game(ruleset("trick_of_the_rails"), 3, seed=1)
    screen = Screen()
    assert Thinking(Quick(), screen, BotClock(), delay=5).choose(view(game, game.pending.player)) == 0
    assert screen.getvalue() == ""


def test_bots_deciding_one_after_another_are_one_run_and_the_line_counts_from_its_start():
    """Many short decisions in a row (each too quick for the line alone) still show it."""
    clock = BotClock()
    first = clock.start()
    clock.last_end = time.monotonic()  # a bot has just chosen: the next one goes on the run
    assert clock.start() == first
    clock.last_end = time.monotonic() - 10  # long ago: a person decided in between
    assert clock.start() > first

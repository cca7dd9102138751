"""A trial of a ruleset in play, for `engine validate`: what only a running game shows wrong.

Some rules run only when a game is shown to someone (board `display` and `draw` rules, the labels of
zones and counters, a decision's prompt and options, the log). `engine validate` sets up a
game of each allowed number of players and shows it to the referee and to every seat, so
that a mistake in them is reported with the others, not in the middle of someone's game.
"""
from __future__ import annotations

from ..core.errors import Diagnostic, EffectError, EngineError, Location
from ..core.limits import LimitError
from ..rules.ruleset import Ruleset
from .game import Game
from .view import render, view


def terminal_problems(ruleset: Ruleset, seed: int = 1) -> list[Diagnostic]:
    """Run what only `engine play` and `engine serve` run (board `display` and `draw` rules, the
    labels of zones, counters, the decision's prompt and options, the log) on a newly set up game of each allowed number of
    players, with the default options, as the referee and every seat see it; each failure is a
    problem at the rule that failed (once, however many games and seats show it), and so is a
    rule going past a limit (core/limits.py) in the setup of one of these games. Another fault
    of a setup may depend on the deal: it is left to `engine simulate` and `engine play` to
    report, with its seed."""
    problems: dict[tuple, Diagnostic] = {}
    for players in ruleset.players:
        try:
            game = Game(ruleset, players, ruleset.resolve_options({}, players), seed=seed)
        except LimitError as exc:
            where = exc.location or Location(ruleset.path)
            problems.setdefault((str(where), exc.message), Diagnostic(where, (
                f"{exc.message} (in {exc.rule or 'a rule'}; found by setting up a game of {players} players, "
                f"seed {seed})")))
            continue
        except (EngineError, ValueError):
            continue
        for viewer in [None, 0, *range(1, players + 1)]:
            try:
                render(view(game, viewer, person=True))
                view(game, viewer, person=True).drawings()
                view(game, viewer).as_dict()
            except EffectError as exc:
                where = exc.location or Location(ruleset.path)
                key = (str(where), exc.message)
                message = (f"{exc.message} (in {exc.rule or 'a rule'}; found by showing a newly set up game "
                           f"of {players} players at the terminal, as engine play does)")
            except Exception as exc:  # an engine fault: still a message, never a traceback
                where = Location(ruleset.path)
                key = (str(where), str(exc))
                message = (f"showing a newly set up game of {players} players at the terminal failed: "
                           f"{exc.__class__.__name__}: {exc}")
            else:
                continue
            problems.setdefault(key, Diagnostic(where, message))
            break
    return list(problems.values())

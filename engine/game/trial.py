"""A trial of a ruleset in play, for `engine validate`: what only a running game shows wrong.

Some rules run only when a game is shown to someone (board `display` and `draw` rules, the labels of
zones and counters, a decision's prompt and options, the log). `engine validate` sets up a
game of each allowed number of players and shows it to the referee and to every seat, so
that a mistake in them is reported with the others, not in the middle of someone's game.
The same set-up games show which cards of several kinds look alike face down (`alike_notes`).
"""
from __future__ import annotations

from ..core.errors import Diagnostic, EffectError, EngineError, Location
from ..core.limits import LimitError
from ..rules.ruleset import Ruleset
from ..rules.shadowing import Note
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


def alike_notes(ruleset: Ruleset, seed: int = 1) -> list[Note]:
    """A note for each set of card kinds whose cards lie hidden from some seat, looking alike
    (the same back), in a newly set up game of an allowed number of players, when none of
    those kinds says what its back shows (`back:`, even `back: []`). Bots deal such cards
    among each other in the worlds they imagine, as a player who sees only backs would: an
    author whose cards have different backs learns it here, before the bots play."""
    found: dict[tuple[str, ...], set[str]] = {}
    for players in ruleset.players:
        try:
            game = Game(ruleset, players, ruleset.resolve_options({}, players), seed=seed)
        except (EngineError, ValueError):
            continue  # terminal_problems and the game itself say why
        for player in game.players:
            for group in game.hidden(player):
                kinds = tuple(sorted({c.kind for c in group}, key=list(ruleset.card_kinds).index))
                if len(kinds) > 1 and not ruleset.backs_declared.intersection(kinds):
                    found.setdefault(kinds, set()).update(game.table.zone_of(c).spec.label for c in group)
    return [Note(ruleset.kind_at.get(kinds[0], Location(ruleset.path)), (
        f"cards of the kinds {', '.join(kinds)} look alike face down (none of them declares `back`) and lie "
        f"hidden in {', '.join(sorted(zones))}: bots deal them among each other in the games they imagine, "
        f"as a player who sees only their backs would. If their backs differ, say what is printed there "
        f"(`back: [kind]` prints the kind); if they look alike, `back: []` on one of them says so"))
        for kinds, zones in found.items()]

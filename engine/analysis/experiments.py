"""What a designer asks of many games: did my change change anything (compare), and does
better play win more (ladder)?

Both run `simulate` with fixed seeds. `compare` plays the two variants of a ruleset on the same
seeds (common random numbers: the same deals, the same bots' seeds) and judges each difference
by its paired 95% interval, so a change shows with fewer games than two separate runs need.
`ladder` plays every pair of agents with seats alternating, in the manner of the TAG balancing
competition: if better agents do not win more, skill matters little in the game.
"""
from __future__ import annotations

import itertools
import math
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..rules.ruleset import Ruleset
from .progress import progress_display, status_display
from .run import DECISION_CAP, RunSpec
from .runfile import RunFile
from .sequential import Plan, interval, settled
from .simulate import Interrupted, end_reasons, win_share
from .stats import detectable, summary, wilson


@dataclass
class Variant:
    """One side of a comparison: a ruleset (with its card files) and its options."""

    label: str
    ruleset: Ruleset
    options: dict[str, Any]


class CompareFile(RunFile):
    """The run file of `engine compare`: simulate's (runfile.py), its header saying "compare"
    and what the other variant is, its records keyed by variant (0: changed, 1: base) and game."""

    COMMAND = "compare"

    @staticmethod
    def key(record: dict[str, Any]) -> tuple[int, int]:
        return record["variant"], record["game"]


def compare(changed: Variant, base: Variant, players: int, games: int, seed: int, seats: list[str],
            max_decisions: int | None, progress: TextIO | None = None, jobs: int | None = 1,
            isolate: str = "files", time_limit: float = 60.0, out: str | Path | None = None,
            plan: Plan | None = None) -> dict[str, Any]:
    """Play both variants on the same seeds; per seat, the paired differences (changed minus
    base) of win share and score, and of game length. With `out`, each game is kept in a run
    file as it ends and a run started again plays only the others. With a `plan`
    (sequential.py), rounds of games until the change to every seat's score and to their mean
    is known, or the budget is spent, with always-valid intervals."""
    variants = (changed, base)
    specs = [RunSpec.of(v.ruleset, players, seats, v.options, seed, max_decisions, isolate, time_limit)
             for v in variants]
    against = {"against": {"digest": specs[1].digest, "options": specs[1].options,
                           "extensions": specs[1].extensions}}
    store = CompareFile.open(out, specs[0], games if plan is None else 0, against) if out is not None else None
    records: list[dict[int, dict[str, Any]]] = [{}, {}]
    for (side, number), record in (store.records if store else {}).items():
        records[side][number] = record
    stopped, reached = "games", games
    try:
        if plan is None:
            _play_compare(specs, variants, games, records, store, jobs, progress)
        else:
            reached, stopped = _compare_rounds(plan, specs, variants, records, store, jobs, progress, players)
    except KeyboardInterrupt:
        raise Interrupted(sum(map(len, records)), 2 * reached, out) from None
    finally:
        if store:
            store.close()
    result = _compared(changed, base, players, reached, seed, seats, records, plan is not None)
    if plan is not None:
        result["sequential"] = {"budget": plan.budget, "precision": plan.precision, "stopped": stopped,
                                "intervals": "always valid (confidence sequence)"}
    return result


def _play_compare(specs: list[RunSpec], variants: tuple[Variant, Variant], games: int,
                  records: list[dict[int, dict[str, Any]]], store: CompareFile | None, jobs: int | None,
                  step: Any = None, plan: Plan | None = None) -> None:
    """Play the games 1..`games` of both variants not in `records`; `step`, a progress stream
    (a bar is drawn) or a function called after each game. With a `plan`, stop when its budget
    is spent."""
    from .workers import play_side_by_side  # here, not above: multiprocessing costs every command 7 ms to import

    todo = [[n for n in range(1, games + 1) if n not in r] for r in records]
    left = sum(map(len, todo))
    # One bar, whose time left is the whole job's; the variants are played in turns, so that
    # a variant with longer games does not make the time left wrong while it plays alone.
    bar = progress_display(None if callable(step) else step, 2 * games, 2 * games - left)
    with bar as advance, closing(play_side_by_side(specs, todo, jobs, [v.ruleset for v in variants])) as played:
        for side, record in played:
            records[side][record["game"]] = record
            if store:
                store.append({"variant": side, **record})
            (step if callable(step) else advance)()
            if plan is not None and plan.out_of_time():
                break


def _compare_rounds(plan: Plan, specs: list[RunSpec], variants: tuple[Variant, Variant],
                    records: list[dict[int, dict[str, Any]]], store: CompareFile | None, jobs: int | None,
                    progress: TextIO | None, players: int) -> tuple[int, str]:
    """Rounds of games of both variants until every seat's score change and their mean are
    known (sequential.py), the budget is spent or `plan.most` games are played; the games
    reached and why the run stopped."""
    import os
    processes = jobs or os.cpu_count() or 1
    target, stopped = 0, "games"
    started, at_start = time.monotonic(), sum(map(len, records))

    def known() -> list[tuple[str, dict[str, Any]]]:
        result = _compared(*variants, players, target, 0, [], records, True)
        return [*result["score"].items(), ("all", result["all_seats_score"])]

    with status_display(progress) as show:
        def line() -> str:
            cells = [f"{seat} {c['diff']:+.2f} ± {c['half_width']:.2f}{' *' if settled(c, plan.precision) else ''}"
                     for seat, c in known() if c["diff"] is not None and math.isfinite(c["half_width"])]
            left = plan.left()
            return (f"{target} games a variant" + (f", {int(left) // 60}:{int(left) % 60:02d} left"
                                                  if left is not None else "") + ": " + "; ".join(cells))
        while True:
            if target and all(settled(c, plan.precision) for _, c in known()):
                stopped = "known"
                break
            if plan.out_of_time():
                stopped = "budget"
                break
            if plan.most is not None and target >= plan.most:
                break
            done = sum(map(len, records)) - at_start
            pace = (time.monotonic() - started) * processes / done if done else None
            target = plan.next_target(target, pace, 2, processes)
            _play_compare(specs, variants, target, records, store, jobs, lambda: show(line), plan)
            show(line, force=True)
    return target, stopped


def _compared(changed: Variant, base: Variant, players: int, games: int, seed: int, seats: list[str],
              records: list[dict[int, dict[str, Any]]], always_valid: bool) -> dict[str, Any]:
    """The comparison of the games 1..`games` both variants played."""
    pairs = [(records[0][n], records[1][n]) for n in range(1, games + 1) if n in records[0] and n in records[1]]
    runs = [[a for a, _ in pairs], [b for _, b in pairs]]
    pairs = [(a, b) for a, b in pairs if "error" not in a and "error" not in b]
    seat_names = [f"P{i}" for i in range(1, players + 1)]

    def paired(measure) -> dict[str, Any]:
        a = [measure(x) for x, _ in pairs]
        b = [measure(y) for _, y in pairs]
        if always_valid:
            cell = interval([x - y for x, y in zip(a, b)])
            return {"changed": summary(a).mean, "base": summary(b).mean, "diff": cell["diff"],
                    "half_width": math.inf if cell["half_width"] is None else cell["half_width"],
                    "detectable": cell["detectable"], "games": cell["games"]}
        diff = summary([x - y for x, y in zip(a, b)])
        return {"changed": summary(a).mean, "base": summary(b).mean, "diff": diff.mean,
                "half_width": diff.half_width, "detectable": detectable(diff)}

    return {
        "changed": changed.label, "base": base.label, "players": players, "games": games, "seed": seed,
        "seats": seats, "pairs": len(pairs),
        "win_share": {s: paired(lambda r, s=s: win_share(r, s)) for s in seat_names},
        "score": {s: paired(lambda r, s=s: r["scores"][s]) for s in seat_names},
        "all_seats_score": paired(lambda r: sum(r["scores"].values()) / len(r["scores"])),
        "decisions": paired(lambda r: r["decisions"]),
        "end_reasons": {"changed": end_reasons([r for r in runs[0] if "error" not in r]),
                        "base": end_reasons([r for r in runs[1] if "error" not in r])},
    }


def _signed(value: float, percent: bool) -> str:
    """With its sign; a difference that rounds to nothing reads +0.0%, not -0.0%."""
    text = f"{value:+.1%}" if percent else f"{value:+.2f}"
    return "+" + text[1:] if text[1:].strip("0.%") == "" else text


def render_compare(result: dict[str, Any]) -> str:
    """The comparison as a table and a plain verdict."""
    lines = [f"{result['changed']}  against  {result['base']}",
             f"{result['pairs']} games on the same seeds, {result['players']} players "
             f"({', '.join(result['seats'])}), seed {result['seed']}", "",
             f"{'':<6}{'win share':<35}{'mean score'}",
             f"{'seat':<6}{'changed':>8}{'base':>8}{'difference':>17}  {'changed':>9}{'base':>9}{'difference':>18}"]
    found = []
    for seat, win in result["win_share"].items():
        score = result["score"][seat]
        win_diff = f"{_signed(win['diff'], True)} ± {win['half_width']:.1%}" + (" *" if win["detectable"] else "  ")
        score_diff = f"{_signed(score['diff'], False)} ± {score['half_width']:.2f}" + (" *" if score["detectable"] else "")
        lines.append(f"{seat:<6}{win['changed']:>8.1%}{win['base']:>8.1%}{win_diff:>19}"
                     f"{score['changed']:>9.1f}{score['base']:>9.1f}{score_diff:>20}")
        if win["detectable"]:
            found.append(f"{seat} wins {_signed(win['diff'], True)} ± {win['half_width']:.1%}")
        if score["detectable"]:
            found.append(f"{seat} scores {_signed(score['diff'], False)} ± {score['half_width']:.2f}")
    every = result["all_seats_score"]
    every_diff = f"{_signed(every['diff'], False)} ± {every['half_width']:.2f}" + (" *" if every["detectable"] else "")
    lines.append(f"{'all':<6}{'':>35}{every['changed']:>9.1f}{every['base']:>9.1f}{every_diff:>20}")
    if every["detectable"]:
        found.append(f"the mean score of all seats moves {_signed(every['diff'], False)} ± {every['half_width']:.2f}")
    length = result["decisions"]
    lines.append(f"game length: {length['changed']:.1f} against {length['base']:.1f} decisions, "
                 f"{_signed(length['diff'], False)} ± {length['half_width']:.2f}{' *' if length['detectable'] else ''}")
    if length["detectable"]:
        found.append(f"games are {_signed(length['diff'], False)} ± {length['half_width']:.2f} decisions longer")
    ends = result["end_reasons"]
    if ends["changed"] != ends["base"]:
        lines.append(f"ended by: {_reasons(ends['changed'])}  against  {_reasons(ends['base'])}")
    lines.append("")
    lines.append("* detectable at 95% (the paired interval excludes no change)")
    run = result.get("sequential")
    if run is not None:
        why = {"known": "every change is known", "budget": "the budget was spent", "games": "the games ran out"}
        lines.append(f"played until {why[run['stopped']]}; the intervals are always valid (a confidence sequence: "
                     "Howard et al. 2021), wider than a fixed run's")
    lines.append("verdict: " + ("; ".join(found) if found else
                                f"no change detectable at 95% in {result['pairs']:,} games"))
    return "\n".join(lines)


def _reasons(counts: dict[str, int]) -> str:
    total = sum(counts.values()) or 1
    return ", ".join(f"{reason} {n / total:.0%}" for reason, n in counts.items())


def ladder(ruleset: Ruleset, players: int, agents: list[str], games: int, seed: int, options: dict[str, Any],
           max_decisions: int | None, progress: TextIO | None = None, jobs: int | None = 1,
           isolate: str = "files", time_limit: float = 60.0) -> dict[str, Any]:
    """Every pair of agents, `games` games a pair: half with the first agent in seats 1, 3, 5...
    and the second in the others, half the other way round, on the same seeds. A cell is the
    share of the games won by the row agent's seats (shared wins in part); 50% is even. It also
    counts the games stopped by the decision cap (scored as they stood) and the failed ones (not
    in the share), which the text points out."""
    from .workers import play_side_by_side  # here, not above: multiprocessing costs every command 7 ms to import

    matrix: dict[str, dict[str, dict[str, float]]] = {a: {} for a in agents}
    pairs = list(itertools.combinations(agents, 2))
    runs = [(a, b, first, second, count) for a, b in pairs
            for first, second, count in ((a, b, games - games // 2), (b, a, games // 2)) if count]
    seats = [[first if i % 2 == 0 else second for i in range(players)] for _, _, first, second, _ in runs]
    specs = [RunSpec.of(ruleset, players, s, options, seed, max_decisions, isolate, time_limit) for s in seats]
    records: list[list[dict[str, Any]]] = [[] for _ in runs]
    # One bar for the whole ladder; every pair's games in turns, so that a pair of slower
    # agents does not make the time left wrong while it plays alone.
    with progress_display(progress, games * len(pairs)) as advance, \
            closing(play_side_by_side(specs, [list(range(1, run[4] + 1)) for run in runs], jobs,
                                      [ruleset] * len(runs))) as stream:
        for side, record in stream:
            records[side].append(record)
            advance()
    for a, b in pairs:
        wins, played, capped, failed = 0.0, 0, 0, 0
        for run, kept, seated in zip(runs, records, seats):
            if run[:2] != (a, b):
                continue
            for record in kept:
                if "error" in record:
                    failed += 1
                    continue
                played += 1
                capped += record["end_reason"] == DECISION_CAP
                wins += sum(win_share(record, f"P{i + 1}") for i in range(players) if seated[i] == a)
        low, high = wilson(wins, played)
        counts = {"games": played, "capped": capped, "failed": failed}
        matrix[a][b] = {"share": wins / played if played else 0.0, "low": low, "high": high, **counts}
        matrix[b][a] = {"share": 1 - matrix[a][b]["share"], "low": 1 - high, "high": 1 - low, **counts}
    return {"players": players, "agents": agents, "games": games, "seed": seed, "options": options,
            "matrix": matrix}


def _listed(first: str, items: list[str], width: int = 80) -> list[str]:
    """`items` after `first`, comma-separated, in lines of at most `width` where they fit,
    never breaking an item."""
    lines = [first]
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(lines[-1]) + len(piece) > width and lines[-1].strip():
            lines.append("  ")
        lines[-1] += piece + " "
    return [line.rstrip() for line in lines]


def render_ladder(result: dict[str, Any]) -> str:
    """The win-share matrix, row against column, and which agents beat which."""
    agents, matrix = result["agents"], result["matrix"]
    # Agents are numbered, columns by number alone, so that the matrix of five agents fits 80
    # columns however long their names; rows carry the names where they fit.
    cell = 14  # "100% [34-100]" and a space
    names = [f"{i} {a}" for i, a in enumerate(agents, 1)]
    label = max(map(len, names))
    if label + 1 + cell * len(agents) > 80:
        names, label = [str(i) for i in range(1, len(agents) + 1)], len(str(len(agents)))
    lines = [f"{result['players']} players, {result['games']} games a pair (seats alternating), seed {result['seed']}",
             *_listed("agents: ", [f"{i} {a}" for i, a in enumerate(agents, 1)]),
             "row's win share against column, 95% interval; 50% is even", "",
             " " * (label + 1) + "".join(f"{i:>{cell}}" for i in range(1, len(agents) + 1))]
    for a, name in zip(agents, names):
        cells = ["-" if a == b else
                 f"{matrix[a][b]['share']:.0%} [{matrix[a][b]['low'] * 100:.0f}-{matrix[a][b]['high'] * 100:.0f}]"
                 for b in agents]
        lines.append(f"{name:<{label + 1}}" + "".join(f"{c:>{cell}}" for c in cells))
    lines.append("")
    for a, b in itertools.combinations(agents, 2):
        cell = matrix[a][b]
        if cell["low"] > 0.5:
            lines.append(f"{a} beats {b}: {cell['share']:.0%} [{cell['low']:.0%}, {cell['high']:.0%}]")
        elif cell["high"] < 0.5:
            lines.append(f"{b} beats {a}: {1 - cell['share']:.0%} [{1 - cell['high']:.0%}, {1 - cell['low']:.0%}]")
        else:
            lines.append(f"{a} and {b}: no difference detectable at 95% in {cell['games']} games")
        if cell["capped"]:
            lines.append(f"  {cell['capped']} of these {cell['games']} games were stopped by the decision cap and "
                         f"scored as they stood: their winners are not the rules' winners")
        if cell["failed"]:
            lines.append(f"  {cell['failed']} more failed with an error and are not counted (engine simulate "
                         f"with these seats shows the command that replays each)")
    return "\n".join(lines)

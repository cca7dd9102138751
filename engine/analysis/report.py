"""Balance reports: what a simulation's results file says about a game's balance.

`read_jsonl` loads the JSON Lines that `engine simulate --out` writes (a `{"run": ...}` header,
then one record per game, in any order); `build_report` turns the records into plain data (win
shares with 95% Wilson intervals by seat and by turn position, scores, game lengths, end
reasons, failed games, the game's quality by quality.py); `render_text` prints it for the
terminal. The HTML page is in report_html.py, so that the text report never needs matplotlib.
"""
from __future__ import annotations

import json
import math
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import EngineError
from ..core.jsonfiles import MAX_DEPTH, TooLarge, deeper_than, limited_lines
from .quality import quality
from .runfile import MAX_LINE_BYTES, MAX_RUN_BYTES
from .simulate import end_reasons, mean_breakdown, win_share
from .stats import histogram, quartiles, summary, wilson

HOW = "write one with: engine simulate RULESET --out FILE.jsonl"
SHOWN_FAILURES = 10  # the text lists this many reproduce commands; --json has them all


@dataclass
class Results:
    """A results file as read: its run header, its game records (file order) and warnings."""

    run: dict[str, Any]
    records: list[dict[str, Any]]
    warnings: list[str] = field(default_factory=list)


def read_jsonl(path: str | Path) -> Results:
    """Read a results file. Records may come in any order (games finish out of order), but
    nothing is skipped silently: a damaged last line (a run killed mid-write) is dropped with
    a warning, and any other bad line is an EngineError naming its line. A file or a line over
    its size limit (`/dev/zero` is both) is refused as it is read, not after."""
    try:
        with open(path, "rb") as f:
            lines = [(n, line.decode("utf-8")) for n, line in
                     enumerate(limited_lines(f, MAX_LINE_BYTES, MAX_RUN_BYTES), 1) if line.strip()]
    except FileNotFoundError:
        raise EngineError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise EngineError(f"{path}: not a simulation's results (not text); {HOW}") from None
    except TooLarge:
        raise EngineError(f"{path}: not a simulation's results (a line longer than {MAX_LINE_BYTES} bytes, or "
                          f"more than {MAX_RUN_BYTES} bytes in all)") from None
    except OSError as exc:
        raise EngineError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not lines:
        raise EngineError(f"{path}: empty; {HOW}")
    run = _header(path, lines[0][1])
    players = run["players"]
    results = Results(run, [])
    first_seen: dict[int, int] = {}
    for n, line in lines[1:]:
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            if n == lines[-1][0]:
                results.warnings.append(f"{path}:{n}: the last line is incomplete (a run stopped while "
                                        f"writing?); ignored it")
                break
            raise EngineError(f"{path}:{n}: damaged line ({exc.msg}); only the last line of a stopped "
                              f"run may be incomplete") from None
        except (ValueError, RecursionError):  # a number of thousands of digits, lists nested thousands deep
            raise EngineError(f"{path}:{n}: not a game record (a number too long or lists nested too deep)") from None
        problem = _problem(record, players)
        if problem:
            raise EngineError(f"{path}:{n}: {problem}")
        if record["game"] in first_seen:
            raise EngineError(f"{path}:{n}: game {record['game']} again (first at line "
                              f"{first_seen[record['game']]})")
        first_seen[record["game"]] = n
        results.records.append(record)
    return results


def _header(path: str | Path, line: str) -> dict[str, Any]:
    try:
        run = json.loads(line).get("run")
    except (ValueError, RecursionError, AttributeError):
        run = None
    if not isinstance(run, dict) or deeper_than(run, MAX_DEPTH):
        raise EngineError(f"{path}: not a simulation's results (line 1 is no {{\"run\": ...}} header); "
                          f"{HOW}")
    if run.get("command") == "cards":  # games of several variants: one report would mix them
        raise EngineError(f"{path}: a run of engine cards, not of simulate; the engine cards command that "
                          f"wrote it, run again with the same --out, prints its report without playing again")
    players, seats = run.get("players"), run.get("seats")
    if not isinstance(players, int) or players < 1 or not isinstance(seats, list) or len(seats) != players:
        raise EngineError(f"{path}:1: the run header needs 'players' and one of 'seats' per player")
    return run


def _problem(record: Any, players: int) -> str:
    """What is wrong with a game record, or ''."""
    if not isinstance(record, dict) or not isinstance(record.get("game"), int):
        return "not a game record (no 'game' number)"
    if deeper_than(record, MAX_DEPTH):
        return f"not a game record (values nested more than {MAX_DEPTH} deep)"
    if "error" in record:
        return ""
    names = {f"P{i}" for i in range(1, players + 1)}
    scores, winners, order = record.get("scores"), record.get("winners"), record.get("turn_order")
    if not isinstance(scores, dict) or set(scores) != names \
            or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in scores.values()):
        return f"game {record['game']}: 'scores' must give a number for each of {', '.join(sorted(names))}"
    for key, value in (("winners", winners), ("turn_order", order)):
        if not isinstance(value, list) or not set(value) <= names or len(set(value)) != len(value):
            return f"game {record['game']}: '{key}' must list distinct players among {', '.join(sorted(names))}"
    if not isinstance(record.get("decisions"), int) or not isinstance(record.get("end_reason"), str):
        return f"game {record['game']}: a game record needs 'decisions' (a number) and 'end_reason'"
    parts = record.get("breakdown", {n: {} for n in names})
    if not isinstance(parts, dict) or set(parts) != names or not all(
            isinstance(p, dict) and all(isinstance(v, (int, float)) and math.isfinite(v) for v in p.values())
            for p in parts.values()):
        return f"game {record['game']}: 'breakdown' must give numbered parts for each of {', '.join(sorted(names))}"
    return ""


def build_report(records: list[dict[str, Any]], run: dict[str, Any],
                 warnings: list[str] | None = None) -> dict[str, Any]:
    """The report as plain data (JSON-ready). Shares count a win shared by k players as 1/k to
    each; a share's interval is the 95% Wilson interval over the games played (failed games
    are listed, not counted). Sections are None when no game was played."""
    seats = [f"P{i}" for i in range(1, run["players"] + 1)]
    bots = dict(zip(seats, run["seats"]))
    played = sorted((r for r in records if "error" not in r), key=lambda r: r["game"])
    failed = sorted((r for r in records if "error" in r), key=lambda r: r["game"])
    n, even = len(played), 1 / len(seats)
    report: dict[str, Any] = {
        "run": run, "warnings": list(warnings or []), "even_share": even,
        "games": {"planned": run.get("games"), "played": n, "failed": len(failed)},
        "failures": [{k: r.get(k) for k in ("game", "seed", "error", "reproduce")} for r in failed],
        "win_share_by_seat": None, "win_share_by_turn_position": None, "score_by_seat": None,
        "breakdown_by_seat": None, "length": None, "end_reasons": None, "quality": None,
    }
    if n == 0:
        return report
    by_seat = {s: sum(win_share(r, s) for r in played) for s in seats}
    by_position = [0.0] * len(seats)
    for r in played:
        for w in r["winners"]:
            if w in r["turn_order"]:
                by_position[r["turn_order"].index(w)] += win_share(r, w)
    report["win_share_by_seat"] = [{"seat": s, "bot": bots[s], **_share(by_seat[s], n)} for s in seats]
    report["win_share_by_turn_position"] = [{"position": i + 1, **_share(w, n)}
                                            for i, w in enumerate(by_position)]
    report["score_by_seat"] = [{"seat": s, "bot": bots[s], **_spread([r["scores"][s] for r in played])}
                               for s in seats]
    parts = mean_breakdown(played)
    if parts:
        report["breakdown_by_seat"] = [{"seat": s, "bot": bots[s], "mean": parts[s]} for s in seats]
    lengths = [r["decisions"] for r in played]
    report["length"] = {**_spread(lengths), "histogram": [{"from": a, "to": b, "games": c}
                                                          for a, b, c in histogram(lengths)]}
    report["end_reasons"] = [{"reason": k, "games": c, "share": c / n} for k, c in end_reasons(played).items()]
    report["quality"] = quality(played, len(seats))
    return report


def _share(wins: float, games: int) -> dict[str, float]:
    low, high = wilson(wins, games)
    return {"wins": wins, "share": wins / games, "low": low, "high": high}


def _spread(values: list[float]) -> dict[str, float]:
    s = summary(values)
    q1, median, q3 = quartiles(values)
    return {"mean": s.mean, "sd": s.sd, "min": s.low, "q1": q1, "median": median, "q3": q3, "max": s.high}


def findings(report: dict[str, Any]) -> list[str]:
    """Plain sentences on what matters: shares whose interval leaves out the even share
    (1/players), games stopped by the decision cap, failed games, a run that stopped early.
    Intervals are judged as printed, in tenths of a percent, so that a sentence never says
    "below 25.0%" of an interval printed as [23.3%, 25.0%]."""
    out = []
    even = report["even_share"]
    tenths = round(even * 1000)
    games = report["games"]
    rows = [(seat_label(r), r) for r in report["win_share_by_seat"] or []]
    # Of seats that are not all the same kind of bot, a turn position's share is mostly the share
    # of the seats that took it: no finding is made of it.
    alike = len({r["bot"] for r in report["win_share_by_seat"] or []}) <= 1
    rows += [(f"turn position {r['position']}", r) for r in report["win_share_by_turn_position"] or [] if alike]
    for name, r in rows:
        low, high = round(r["low"] * 1000), round(r["high"] * 1000)
        if not low <= tenths <= high:
            side = "above" if low > tenths else "below"
            out.append(f"{name} wins {_interval(r)}, {side} the {even:.1%} of an even game.")
    capped = sum(e["games"] for e in report["end_reasons"] or [] if e["reason"] == "decision cap")
    if capped:
        out.append(f"{capped} game(s) were stopped by the decision cap and scored as they stood: their "
                   f"winners are not the rules' winners.")
    if games["failed"]:
        out.append(f"{games['failed']} game(s) failed with an error; they are not counted above.")
    recorded = games["played"] + games["failed"]
    if isinstance(games["planned"], int) and recorded < games["planned"]:
        out.append(f"Only {recorded} of the {games['planned']} games planned are in the file: the run "
                   f"stopped early or is still going.")
    return out


def seat_label(row: dict[str, Any]) -> str:
    """A seat with its bot, as "P1 (mcts)"."""
    return f"{row['seat']} ({row['bot']})"


def _interval(r: dict[str, Any]) -> str:
    return f"{r['share']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def _intervals(rows: list[dict[str, Any]]) -> list[str]:
    """The rows' intervals as "[ 7.3%, 70.1%]", padded so that the bounds line up."""
    lows, highs = [f"{r['low']:.1%}" for r in rows], [f"{r['high']:.1%}" for r in rows]
    lw, hw = max(map(len, lows)), max(map(len, highs))
    return [f"[{lo:>{lw}}, {hi:>{hw}}]" for lo, hi in zip(lows, highs)]


def _num(x: float) -> str:
    """A number as short as it stays exact to a tenth: 3, 2.5, 12.3."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


BARS = " ▁▂▃▄▅▆▇█"
ASCII_BARS = " .:-=+*#%@"


def sparkline(counts: list[int], bars: str = BARS) -> str:
    """One character a bin, its height the bin's count (an empty bin is a space, any other
    at least the lowest bar, so that rare lengths stay visible)."""
    top = max(counts, default=0) or 1
    return "".join(bars[0] if c == 0 else bars[max(1, round(c / top * (len(bars) - 1)))] for c in counts)


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    """Rows of cells as aligned lines; columns in `right` are right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(c.rjust(w) if i in right else c.ljust(w)
                             for i, (c, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def render_text(report: dict[str, Any], ascii_only: bool = False) -> str:
    """The report for the terminal: aligned tables, a one-line histogram, then findings.
    `ascii_only` draws the histogram with ASCII characters, for a terminal without Unicode."""
    lines = _heading(report)
    if report["games"]["played"]:
        lines += _shares(report) + _scores(report) + _parts(report) + _length(report, ascii_only) + ["", "Ended by:"]
        lines += _table([[e["reason"], str(e["games"]), f"{e['share']:.1%}"] for e in report["end_reasons"]],
                        {1, 2})
        lines += _quality(report)
    if report["failures"]:
        lines += ["", "Failed games (reproduce each with its command):"]
        for f in report["failures"][:SHOWN_FAILURES]:
            lines += [f"  game {f['game']}: {f.get('error')}",
                      f"    {f.get('reproduce') or '(no command recorded)'}"]
        if len(report["failures"]) > SHOWN_FAILURES:
            lines.append(f"  ... and {len(report['failures']) - SHOWN_FAILURES} more (all in --json)")
    found = findings(report)
    return "\n".join(lines + ([""] + found if found else []))


def _heading(report: dict[str, Any]) -> list[str]:
    run, games = report["run"], report["games"]
    options = ", ".join(f"{k}={json.dumps(v)}" for k, v in (run.get("options") or {}).items())
    details = [f"seed {run['seed']}" if "seed" in run else "", f"options {options}" if options else "",
               f"with {', '.join(run['extensions'])}" if run.get("extensions") else "",
               f"at most {run['max_decisions']} decisions a game" if run.get("max_decisions") else ""]
    planned = f" ({games['planned']} planned)" if isinstance(games["planned"], int) else ""
    lines = [f"{run.get('name') or 'A game'} ({run.get('ruleset', '?')}), {run['players']} players: "
             f"{', '.join(run['seats'])}", "; ".join(d for d in details if d),
             f"{games['played']} games played, {games['failed']} failed{planned}"]
    return [line for line in lines if line]


def _shares(report: dict[str, Any]) -> list[str]:
    seats, positions = report["win_share_by_seat"], report["win_share_by_turn_position"]
    lines = ["", f"Win share by seat (an even game gives each {report['even_share']:.1%}):"]
    lines += _table([["", "", "share", "95% interval", "wins"]]
                    + [[r["seat"], r["bot"], f"{r['share']:.1%}", i, f"{r['wins']:.1f}"]
                       for r, i in zip(seats, _intervals(seats))], {2, 4})
    lines += ["", "Win share by turn position (1: the first player to decide):"]
    lines += _table([["", "share", "95% interval", "wins"]]
                    + [[str(r["position"]), f"{r['share']:.1%}", i, f"{r['wins']:.1f}"]
                       for r, i in zip(positions, _intervals(positions))], {0, 1, 3})
    return lines


def _scores(report: dict[str, Any]) -> list[str]:
    rows = [[r["seat"], r["bot"], f"{r['mean']:.1f}", f"{r['sd']:.1f}", _num(r["min"]), _num(r["median"]),
             _num(r["max"])] for r in report["score_by_seat"]]
    header = ["", "", "mean", "sd", "min", "median", "max"]
    return ["", "Score by seat:"] + _table([header] + rows, {2, 3, 4, 5, 6})


def _parts(report: dict[str, Any]) -> list[str]:
    rows = report["breakdown_by_seat"]
    if not rows:
        return []
    names = list(rows[0]["mean"])
    return ["", "Mean score by part (scoring.breakdown):"] + _table(
        [["", "", *names]] + [[r["seat"], r["bot"], *(f"{r['mean'][n]:.1f}" for n in names)] for r in rows],
        set(range(2, 2 + len(names))))


OLD_RUN = ("Lead changes, uncertainty, lead for good and comebacks need each game's standings round "
           "by round, which the games of this run file were recorded without (all seats random, "
           "--no-standings, or an older engine simulate): simulate them with --standings to see them.")


def quality_rows(q: dict[str, Any]) -> list[list[str]]:
    """The quality measures as [measure, value, 95% interval, what it means] (docs/balance.md
    defines each), for the text report and the HTML page."""
    first = q["first_player_advantage"]
    rows = [["first-player advantage", f"{first['advantage']:+.1%}",
             f"[{first['low']:+.1%}, {first['high']:+.1%}]", f"position 1 wins {first['share']:.1%}"],
            ["ties (a shared win)", *_rate_cells(q["ties"]), ""],
            ["draws (all share it)", *_rate_cells(q["draws"]), ""],
            ["decisions a game", *_mean_cells(q["decisions"], 1), ""]]
    if not q["with_standings"]:
        return rows
    rows += [["rounds a game", *_mean_cells(q["rounds"], 1), "turn to turn of position 1"],
             ["lead changes a game", *_mean_cells(q["lead_changes"], 1),
              f"{q['lead_changes_per_round']['mean']:.2f} a round" if q["lead_changes_per_round"] else ""],
             ["uncertainty", *_mean_cells(q["uncertainty"], 2), "0: one leader, 1: even"]]
    if q["lead_for_good"]:
        rows += [["winner leads for good", *_mean_cells(q["lead_for_good"], 2), "from 0: start, to 1: end"],
                 ["comebacks", *_rate_cells(q["comebacks"]), "the winner was behind"],
                 ["winner's worst deficit", *_mean_cells(q["worst_deficit"], 1), "in standings"]]
    return rows


def _rate_cells(rate: dict[str, float]) -> list[str]:
    return [f"{rate['share']:.1%}", f"[{rate['low']:.1%}, {rate['high']:.1%}]"]


def _mean_cells(mean: dict[str, float] | None, digits: int) -> list[str]:
    if mean is None:
        return ["-", ""]
    return [f"{mean['mean']:.{digits}f}", f"[{mean['low']:.{digits}f}, {mean['high']:.{digits}f}]"]


def _quality(report: dict[str, Any]) -> list[str]:
    q = report["quality"]
    lines = ["", "Game quality (docs/balance.md defines each):"]
    lines += _table([["", "value", "95% interval", ""]] + quality_rows(q), {1})
    games = report["games"]["played"]
    if not q["with_standings"]:
        lines += ["  " + line for line in textwrap.wrap(OLD_RUN, 76)]
    elif q["with_standings"] < games:
        lines.append(f"  (standings by round: {q['with_standings']} of the {games} games)")
    return lines


def _length(report: dict[str, Any], ascii_only: bool) -> list[str]:
    length, bins = report["length"], report["length"]["histogram"]
    numbers = [_num(length[k]) for k in ("min", "q1", "median", "q3", "max")] + [f"{length['mean']:.1f}"]
    width = bins[0]["to"] - bins[0]["from"] + 1
    line = sparkline([b["games"] for b in bins], ASCII_BARS if ascii_only else BARS)
    return (["", "Game length in decisions:"]
            + _table([["min", "q1", "median", "q3", "max", "mean"], numbers], set(range(6)))
            + [f"  {numbers[0]} |{line}| {numbers[4]}   (bins of {width} decision{'s' if width > 1 else ''})"])

"""A balance report as one self-contained HTML page: the report's tables, its findings and
plots drawn with matplotlib, embedded as base64 PNG so the page needs no other file and no
network (it can be mailed or attached to an issue).

matplotlib is an optional extra (`plots`; `pip install matplotlib`), imported only here and only when
a page is written: the core install and the text report stay light. Figures are made with
matplotlib.figure.Figure, which renders with the Agg backend and never touches pyplot's global
state or a display.
"""
from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path
from typing import Any

from ..core.errors import EngineError
from .report import OLD_RUN, findings, quality_rows, seat_label

INSTALL = "pip install matplotlib"  # the plots extra's one package: right for a wheel and a checkout alike
BLUE, GREY = "#3b6ea5", "#888888"

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 56rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { padding: .2rem .8rem; text-align: right; } th { border-bottom: 1px solid #aaa; }
table.labels td:first-child, table.labels th:first-child, table.text td, table.text th { text-align: left; }
.findings li { margin: .3rem 0; } .warning { color: #a33; }
table.text td:last-child { font-family: monospace; font-size: .85rem; }
img { max-width: 100%; display: block; margin: .5rem 0; }
p.note { color: #555; font-size: .9rem; }
"""


def require_matplotlib() -> None:
    """Fail with the one line that says how to install the plots extra."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise EngineError(f"--html needs matplotlib: {INSTALL}") from None


def write_html(report: dict[str, Any], path: str | Path) -> None:
    text = html_page(report)
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise EngineError(f"{path}: cannot write: {exc.strerror or exc}") from None


def html_page(report: dict[str, Any]) -> str:
    require_matplotlib()
    run, games = report["run"], report["games"]
    title = f"Balance report: {run.get('name') or run.get('ruleset') or 'a game'}"
    planned = f" ({games['planned']} planned)" if isinstance(games["planned"], int) else ""
    options = ", ".join(f"{k}={json.dumps(v)}" for k, v in (run.get("options") or {}).items()) or "defaults"
    added = f"; with {', '.join(run['extensions'])}" if run.get("extensions") else ""
    parts = [f"<h1>{_e(title)}</h1>",
             f"<p>{_e(str(run.get('ruleset', '?')))}, {run['players']} players: {_e(', '.join(run['seats']))}; "
             f"seed {_e(str(run.get('seed', '?')))}; options {_e(options + added)}.<br>"
             f"{games['played']} games played, {games['failed']} failed{planned}.</p>"]
    parts += [f'<p class="warning">warning: {_e(w)}</p>' for w in report["warnings"]]
    found = findings(report)
    if found:
        parts.append('<ul class="findings">' + "".join(f"<li>{_e(f)}</li>" for f in found) + "</ul>")
    if games["played"]:
        ends = [[r["reason"], str(r["games"]), f"{r['share']:.1%}"] for r in report["end_reasons"]]
        parts += _shares(report) + _scores(report) + _parts(report) + _length(report)
        parts += ["<h2>Ended by</h2>", _table(["reason", "games", "share"], ends)] + _quality(report)
    if report["failures"]:
        rows = [[str(f["game"]), str(f.get("error")), str(f.get("reproduce") or "")] for f in report["failures"]]
        parts += ["<h2>Failed games</h2>", _table(["game", "error", "reproduce with"], rows, kind="text")]
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
            f"<style>{STYLE}</style></head>\n<body>\n" + "\n".join(parts) + "\n</body></html>\n")


def _e(text: str) -> str:
    """Text from the results file, safe in the page."""
    return html.escape(text)


def _shares(report: dict[str, Any]) -> list[str]:
    even = report["even_share"]
    seats, positions = report["win_share_by_seat"], report["win_share_by_turn_position"]
    top = min(1.0, 1.15 * max([even] + [r["high"] for r in seats + positions]))  # one scale for both plots
    by_seat, by_position = [seat_label(r) for r in seats], [f"position {r['position']}" for r in positions]
    return ["<h2>Win share by seat</h2>", _share_table("seat", by_seat, seats),
            _img(_share_plot(by_seat, seats, even, top), "win share by seat with 95% intervals"),
            f'<p class="note">Bars: 95% Wilson intervals. Dashed line: {even:.1%}, the share of each player in '
            f'an even game. A win shared by k players counts 1/k to each.</p>',
            "<h2>Win share by turn position</h2>",
            '<p class="note">Position 1 is the first player to decide in a game.</p>',
            _share_table("position", [str(r["position"]) for r in positions], positions),
            _img(_share_plot(by_position, positions, even, top), "win share by turn position with 95% intervals")]


def _scores(report: dict[str, Any]) -> list[str]:
    rows = report["score_by_seat"]
    return ["<h2>Score by seat</h2>",
            _table(["seat", "mean", "sd", "min", "q1", "median", "q3", "max"],
                   [[seat_label(r), f"{r['mean']:.1f}", f"{r['sd']:.1f}"]
                    + [f"{r[k]:g}" for k in ("min", "q1", "median", "q3", "max")] for r in rows]),
            _img(_score_plot(rows), "box plots of the scores by seat"),
            '<p class="note">Boxes: quartiles; line: median; triangle: mean; whiskers: lowest and highest '
            'score.</p>']


def _parts(report: dict[str, Any]) -> list[str]:
    """The mean of each named part of the score by seat (scoring.breakdown), as the text report has it."""
    rows = report["breakdown_by_seat"]
    if not rows:
        return []
    names = list(rows[0]["mean"])
    return ["<h2>Mean score by part</h2>",
            '<p class="note">The named parts of the score (scoring.breakdown), by seat.</p>',
            _table(["seat", *names], [[seat_label(r), *(f"{r['mean'][n]:.1f}" for n in names)] for r in rows])]


def _length(report: dict[str, Any]) -> list[str]:
    length = report["length"]
    numbers = [f"{length[k]:g}" for k in ("min", "q1", "median", "q3", "max")] + [f"{length['mean']:.1f}"]
    return ["<h2>Game length in decisions</h2>",
            _table(["min", "q1", "median", "q3", "max", "mean"], [numbers], kind="numbers"),
            _img(_length_plot(length["histogram"]), "histogram of game lengths in decisions")]


def _quality(report: dict[str, Any]) -> list[str]:
    q = report["quality"]
    parts = ["<h2>Game quality</h2>",
             '<p class="note">Each measure is defined, with its source, in docs/balance.md. The '
             "standings are the ruleset's heuristic (its score without one) after each round, the "
             "final scores last.</p>",
             _table(["measure", "value", "95% interval", ""], quality_rows(q))]
    if not q["with_standings"]:
        return parts + [f'<p class="note">{_e(OLD_RUN)}</p>']
    curve = q["margin_curve"]
    if curve:
        parts += [_img(_leads_plot(curve), "share of games whose winner leads, over the game"),
                  '<p class="note">The share of games whose eventual winner leads (alone or tied) at each '
                  "point of the game: it rises to 100% at the end; the earlier it does, the earlier games "
                  "are decided.</p>",
                  _img(_margin_plot(curve), "the winner's margin over the game"),
                  '<p class="note">The eventual winner\'s standing minus the best other player\'s, over '
                  "the game: median (line), quartiles (band) and mean (dashed). Below zero, the winner "
                  "was behind.</p>"]
    return parts


def _table(header: list[str], rows: list[list[str]], kind: str = "labels") -> str:
    """A table of right-aligned numbers, with a first column of labels ("labels"), without
    ("numbers"), or of left-aligned text ("text"). Cells are escaped."""
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f'<table class="{kind}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _share_table(what: str, labels: list[str], rows: list[dict[str, Any]]) -> str:
    return _table([what, "win share", "95% interval", "wins"],
                  [[label, f"{r['share']:.1%}", f"[{r['low']:.1%}, {r['high']:.1%}]", f"{r['wins']:.1f}"]
                   for label, r in zip(labels, rows)])


def _figure(rows: int) -> Any:
    from matplotlib.figure import Figure
    fig = Figure(figsize=(7.5, 0.45 * rows + 1.3), dpi=110, layout="constrained")
    return fig, fig.add_subplot()


def _img(fig: Any, alt: str) -> str:
    """The figure as an <img> holding its PNG: the page needs no file beside it."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return f'<img alt="{alt}" src="data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode("ascii")}">'


def _share_plot(labels: list[str], rows: list[dict[str, Any]], even: float, top: float) -> Any:
    from matplotlib.ticker import PercentFormatter
    fig, ax = _figure(len(rows))
    y = list(range(len(rows)))[::-1]  # the first row on top, as in the table
    shares = [r["share"] for r in rows]
    errors = [[r["share"] - r["low"] for r in rows], [r["high"] - r["share"] for r in rows]]
    ax.errorbar(shares, y, xerr=errors, fmt="o", color=BLUE, capsize=4)
    ax.axvline(even, color=GREY, linestyle="--", linewidth=1)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlim(0, top)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("win share")
    return fig


def _score_plot(rows: list[dict[str, Any]]) -> Any:
    fig, ax = _figure(6)  # upright boxes: bxp's keyword for lying ones changed in matplotlib 3.10
    stats = [{"label": f"{r['seat']} ({r['bot']})", "med": r["median"], "q1": r["q1"], "q3": r["q3"],
              "whislo": r["min"], "whishi": r["max"], "mean": r["mean"], "fliers": []} for r in rows]
    ax.bxp(stats, showmeans=True, widths=0.5, patch_artist=True,
           boxprops={"facecolor": "#dce6f2", "edgecolor": BLUE}, medianprops={"color": BLUE},
           meanprops={"markerfacecolor": "#c0504d", "markeredgecolor": "#c0504d"})
    ax.set_ylabel("score")
    return fig


def _length_plot(bins: list[dict[str, int]]) -> Any:
    from matplotlib.ticker import MaxNLocator
    fig, ax = _figure(6)
    width = bins[0]["to"] - bins[0]["from"] + 1
    ax.bar([(b["from"] + b["to"]) / 2 for b in bins], [b["games"] for b in bins], width=width,
           color=BLUE, edgecolor="white")  # centred: a bin of one length sits on its tick
    ax.set_xlabel("decisions in a game")
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts: no tick at 0.5 game
    return fig


def _leads_plot(curve: list[dict[str, float]]) -> Any:
    from matplotlib.ticker import PercentFormatter
    fig, ax = _figure(6)
    ax.plot([c["at"] for c in curve], [c["winner_leads"] for c in curve], marker="o", color=BLUE)
    ax.set_ylim(0, 1.05)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("point of the game (rounds played)")
    ax.set_ylabel("games whose winner leads")
    return fig


def _margin_plot(curve: list[dict[str, float]]) -> Any:
    from matplotlib.ticker import PercentFormatter
    fig, ax = _figure(6)
    at = [c["at"] for c in curve]
    ax.fill_between(at, [c["q1"] for c in curve], [c["q3"] for c in curve], color="#dce6f2")
    ax.plot(at, [c["median"] for c in curve], color=BLUE)
    ax.plot(at, [c["mean"] for c in curve], color=BLUE, linestyle="--", linewidth=1)
    ax.axhline(0, color=GREY, linewidth=1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("point of the game (rounds played)")
    ax.set_ylabel("winner's margin (standings)")
    return fig

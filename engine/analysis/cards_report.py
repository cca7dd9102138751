"""`engine cards` shown: a ranked text table in 80 columns, CSV rows, and an HTML page with
plots (matplotlib, as report_html.py draws them)."""
from __future__ import annotations

import csv
import html
import textwrap
from pathlib import Path
from typing import Any, TextIO

from ..core.errors import EngineError
from .report_html import STYLE, _figure, _img, require_matplotlib

WIDTH = 80
BLUE, RED, GREY = "#3b6ea5", "#c0504d", "#888888"


def _short(name: str, width: int) -> str:
    return name if len(name) <= width else name[:width - 1] + "~"


def _pm(value: float | None, half: float | None, percent: bool) -> str:
    """`+12.3% ± 4.0%` or `+1.2 ± 0.8`, compact; `-` for no value."""
    if value is None:
        return "-"
    if half is None:
        return f"{value:+.1%}" if percent else f"{value:+.1f}"
    if percent:
        return f"{value * 100:+.1f}±{half * 100:.1f}%"
    digits = 0 if max(abs(value), half) >= 10 else 1
    return f"{value:+.{digits}f}±{half:.{digits}f}"


def _mark(cell: dict[str, Any]) -> str:
    return "*" if cell.get("detectable") else " "


def render_text(result: dict[str, Any]) -> str:
    """The cards by strength, the cards taken out by what they change, how each was used, and
    a sentence for each detectable finding."""
    players = result["players"]
    seats = [f"P{i}" for i in range(1, players + 1)]
    added = f"with {', '.join(result['extensions'])}; " if result["extensions"] else ""
    lines = [f"What each card is worth: {result['ruleset']}",
             f"{players} players ({', '.join(result['seats'])}), seed {result['seed']}",
             f"{added}{result['games']} games a card and variant"]
    rows = result["cards"]
    strong = [r for r in rows if "strength" in r]
    if strong:
        lines += ["", "Restricted play: the win share of a seat barred from the card or favouring it,",
                  "less the same seat's in the same games as they are; strength = favoured - barred",
                  f"{'card':<24}{'strength':>14} {'barred':>13}{'favoured':>13}{'offered':>8}{'copies':>7}"]
        for r in strong:
            s = r["strength"]
            lines.append(f"{_short(r['card'], 23):<24}"
                         f"{_pm(s['strength']['diff'], s['strength']['half_width'], True):>14}"
                         f"{_mark(s['strength'])}"
                         f"{_pm(s['barred']['diff'], s['barred']['half_width'], True):>13}"
                         f"{_pm(s['favoured']['diff'], s['favoured']['half_width'], True):>13}"
                         f"{max(s['barred_acted'], s['favoured_acted']):>8.0%}{r.get('copies', 1):>7}")
    for how, head in (("taken out", ["Never chosen, taken out: each seat's score in the games where the card came",
                                      "up, less its score in the same games without it"]),
                      ("brought into play", ["Never chosen, brought into play: each seat's score in each game arranged",
                                             "so that the card comes up, less its score in the same game without it"])):
        measured = [r for r in rows if "removed" in r and r["removed"].get("how", "taken out") == how]
        lines += _changes(measured, head, seats, players)
    lines += ["", "Use in the games as they are (held, came up: a share of the games; drawn,",
              "played: times a game), and the win share of the players who played it (else",
              "held it) less the others'; for a card nobody held, the mean score in the games",
              "it came up in less the others'",
              f"{'card':<24}{'held':>6}{'drawn':>7}{'played':>7}{'came up':>8}{'by':>8}{'outcome':>16}"]
    for r in rows:
        u = r["use"]
        w = u["score"] if u["basis"] == "came up" else u["win_share"]
        lines.append(f"{_short(r['card'], 23):<24}{u['held']:>6.0%}{u['drawn_per_game']:>7.2f}"
                     f"{u['played_per_game']:>7.2f}{u['came_up']:>8.0%}{u['basis']:>8}"
                     f"{_pm(w['diff'], w['half_width'], u['basis'] != 'came up'):>15}{_mark(w)}")
    notes = [f"{r['card']}: {r['note']}" for r in rows if "note" in r]
    if notes:
        lines += ["", *notes]
    lines += ["", "* detectable at 95% (the interval leaves out no difference)"]
    run = result.get("sequential")
    if run is not None:
        why = {"known": "every card's effect was known", "budget": "the budget was spent",
               "games": "the games ran out"}
        lines.append(f"Played in rounds until {why[run['stopped']]}; the intervals are always valid (a confidence "
                     "sequence, Howard et al. 2021), so wider than a fixed run's of as many games.")
    lines += _curve_lines(result.get("curve"))
    lines.append("")
    lines += [f"- {f}" for f in result["findings"]] or [
        f"No card's strength or effect is detectable at 95% in {result['games']} games a variant."]
    took = f"{result['played']} games played in {result['seconds']:.0f} s"
    if result["seconds_per_game"]:
        took += f" ({result['seconds_per_game'] * 1000:.1f} ms a game)"
    lines += ["", took]
    return "\n".join(_fit(line) for line in lines)


def _curve_lines(curve: dict[str, Any] | None) -> list[str]:
    """The cost curve's fit and the cards off it (curve.py)."""
    if not curve:
        return []
    from .curve import render_curve
    return ["", *render_curve(curve)]


def _changes(out: list[dict[str, Any]], head: list[str], seats: list[str], players: int) -> list[str]:
    """The table of the cards never chosen, measured one way (`head` says which): each seat's
    score change and the mean of all seats'."""
    lines: list[str] = []
    if out:
        table = []
        for r in out:
            m = r["removed"]
            cells = [f"{_pm(v['diff'], v['half_width'], False)}{_mark(v)}" for v in m["score_by_seat"].values()]
            cells.append(f"{_pm(m['all_seats']['diff'], m['all_seats']['half_width'], False)}{_mark(m['all_seats'])}")
            table.append((r, cells))
        heads = [*seats, "all"]
        cell = 1 + max(*(len(c) for _, cells in table for c in cells), *(len(h) for h in heads))
        name = WIDTH - 8 - cell * (players + 1)
        alone = name < 12  # too many seats for the names: each name on a line of its own, above its figures
        lines += ["", *head, f"{'card':<{max(name, 0)}}{'came up':>8}" + "".join(f"{s:>{cell}}" for s in heads)]
        for r, cells in table:
            up = r["removed"].get("came_up", r["use"]["came_up"])
            figures = f"{up:>8.0%}" + "".join(f"{c:>{cell}}" for c in cells)
            lines += [r["card"], " " * max(name, 0) + figures] if alone else \
                [f"{_short(r['card'], name - 1):<{name}}" + figures]
    return lines


def _fit(line: str) -> str:
    """A line of at most WIDTH columns: findings are wrapped, tables are made to fit."""
    line = line.rstrip()
    if len(line) <= WIDTH:
        return line
    return "\n".join(textwrap.wrap(line, WIDTH, subsequent_indent="  ", break_on_hyphens=False))


CSV_FIELDS = ["card", "kind", "held", "drawn_per_game", "played_per_game", "came_up", "basis",
              "win_share_diff", "win_share_half_width", "strength", "strength_half_width",
              "barred", "barred_half_width", "favoured", "favoured_half_width", "removed_all_seats",
              "removed_all_seats_half_width"]


def write_csv(result: dict[str, Any], out: TextIO) -> None:
    """A row a card, in the ranked order; a seat's score change, where the card was taken
    out, in a column of its own."""
    seats = [f"P{i}" for i in range(1, result["players"] + 1)]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS + [f"removed_{s}" for s in seats] + [f"removed_{s}_half_width" for s in seats])
    for r in result["cards"]:
        u, s, m = r["use"], r.get("strength"), r.get("removed")
        row = [r["card"], r["kind"], u["held"], u["drawn_per_game"], u["played_per_game"], u["came_up"],
               u["basis"], u["win_share"]["diff"], u["win_share"]["half_width"]]
        for part in ("strength", "barred", "favoured"):
            row += [s[part]["diff"], s[part]["half_width"]] if s else ["", ""]
        row += [m["all_seats"]["diff"], m["all_seats"]["half_width"]] if m else ["", ""]
        row += [m["score_by_seat"][x]["diff"] for x in seats] if m else [""] * len(seats)
        row += [m["score_by_seat"][x]["half_width"] for x in seats] if m else [""] * len(seats)
        writer.writerow(["" if v is None else v for v in row])


def write_html(result: dict[str, Any], path: str | Path) -> None:
    """The text report and its plots on one self-contained page."""
    require_matplotlib()
    title = f"What each card is worth: {result['ruleset']}"
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{STYLE}</style></head><body><h1>{html.escape(title)}</h1>"]
    if result["findings"]:
        parts.append("<h2>Findings</h2><ul class='findings'>"
                     + "".join(f"<li>{html.escape(f)}</li>" for f in result["findings"]) + "</ul>")
    strong = [r for r in result["cards"] if "strength" in r]
    if strong:
        parts.append("<h2>Strength (restricted play)</h2>" + _img(_strength_plot(strong), "strength by card"))
    out = [r for r in result["cards"] if "removed" in r]
    if out:
        parts.append("<h2>Cards taken out: score change by seat</h2>" + _img(_removed_plot(out), "score change"))
    if result.get("curve", {}).get("cards"):
        from .curve import curve_plot
        curve = result["curve"]
        parts.append(f"<h2>Cost curve: {html.escape(curve['measure'])} against {html.escape(curve['property'])}</h2>"
                     + _img(curve_plot(curve), "cost curve"))
    parts.append(f"<h2>Tables</h2><pre>{html.escape(render_text(result))}</pre></body></html>")
    try:
        Path(path).write_text("".join(parts), encoding="utf-8")
    except OSError as exc:
        raise EngineError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _strength_plot(rows: list[dict[str, Any]]) -> Any:
    from matplotlib.ticker import PercentFormatter
    fig, ax = _figure(len(rows))
    y = list(range(len(rows)))[::-1]
    for key, colour, shift in (("strength", BLUE, 0.0), ("barred", RED, -0.2), ("favoured", GREY, 0.2)):
        cells = [r["strength"][key] for r in rows]
        ax.errorbar([c["diff"] or 0 for c in cells], [v + shift for v in y],
                    xerr=[c["half_width"] or 0 for c in cells], fmt="o", color=colour, capsize=3, label=key)
    ax.axvline(0, color=GREY, linestyle="--", linewidth=1)
    ax.set_yticks(y, [r["card"] for r in rows])
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("win share of the restricted seat, against the games as they are")
    ax.legend(loc="lower right")
    return fig


def _removed_plot(rows: list[dict[str, Any]]) -> Any:
    fig, ax = _figure(len(rows))
    y = list(range(len(rows)))[::-1]
    seats = list(rows[0]["removed"]["score_by_seat"])
    step = 0.6 / max(1, len(seats))
    for i, seat in enumerate(seats):
        cells = [r["removed"]["score_by_seat"][seat] for r in rows]
        ax.errorbar([c["diff"] or 0 for c in cells], [v + 0.3 - i * step for v in y],
                    xerr=[c["half_width"] or 0 for c in cells], fmt="o", capsize=2, label=seat)
    ax.axvline(0, color=GREY, linestyle="--", linewidth=1)
    ax.set_yticks(y, [r["card"] for r in rows])
    ax.set_xlabel("score where the card came up, less without it")
    ax.legend(loc="lower right")
    return fig

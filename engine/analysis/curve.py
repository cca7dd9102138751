"""A cost curve for `engine cards --curve PROPERTY`: how a card's measured strength grows with
a property of it (its cost), and which cards lie off that line.

Designers balance cards against a power curve: benefit against cost, the outliers flagged
(Schreiber, "Game Balance Concepts", level 2; "the cost curve"). Here the benefit is what
`engine cards` measured in play: the strength of one copy (restricted play), or, for cards
nobody chooses, the change to the mean score where a card comes up. A straight line is fitted
to it by least squares, weighted by each card's precision (1 / its half width squared), with
95% intervals of the intercept and slope; a card is off the curve when its strength, less the
value at its property of the line fitted through the other cards, leaves zero out of the
interval that adds the card's own and that line's. Cards of one measure are fitted together: the one most cards have.
"""
from __future__ import annotations

import math
from typing import Any

from ..core.errors import EngineError, suggest
from ..rules.ruleset import Ruleset
from .stats import Z95

FEWEST_CARDS = 3  # a card is judged against the line through the others: two of them at least


def _strength(row: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The measure a row is fitted by, and its cell: one copy's strength, or the mean score change."""
    if "strength" in row:
        return "strength per copy", row.get("per_copy") or row["strength"]["strength"]
    if "removed" in row:
        return "score change", row["removed"]["all_seats"]
    return None


def property_values(ruleset: Ruleset, prop: str) -> dict[str, float]:
    """Each card's `prop`, by name, where it is a number; none is an error with the nearest name."""
    values: dict[str, float] = {}
    known: set[str] = set()
    for card in ruleset.cards:
        known.update(card.props)
        value = card.props.get(prop)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            values.setdefault(card.name or card.label, float(value))
    if not values:
        raise EngineError(f"--curve {prop}: no card has a number named so{suggest(prop, sorted(known - {'kind'}))}")
    return values


def fit_curve(ruleset: Ruleset, rows: list[dict[str, Any]], prop: str) -> dict[str, Any]:
    """The fit of the cards' strength to `prop` (a number on each card of the entry), and how
    far each card lies off it. A property no card has is an error with the nearest name."""
    values = property_values(ruleset, prop)
    measured = [(r, *_strength(r)) for r in rows if _strength(r) is not None and r["card"] in values]
    kinds = [m for _, m, _ in measured]
    measure = max(set(kinds), key=kinds.count) if kinds else "strength per copy"
    points = [(r["card"], values[r["card"]], c["diff"], c["half_width"]) for r, m, c in measured
              if m == measure and c["diff"] is not None and c["half_width"] not in (None, 0)
              and math.isfinite(c["half_width"])]
    left_out = sorted({r["card"] for r in rows} - {p[0] for p in points})
    result: dict[str, Any] = {"property": prop, "measure": measure, "cards": [], "left_out": left_out}
    if len(points) < FEWEST_CARDS or len({x for _, x, _, _ in points}) < 2:
        result["note"] = (f"fewer than {FEWEST_CARDS} measured cards with different {prop}: no line to fit")
        return result
    line = _fit([(x, y, h) for _, x, y, h in points])
    result.update(slope={"value": line.slope, "half_width": Z95 * line.se_slope},
                  intercept={"value": line.intercept, "half_width": Z95 * line.se_intercept})
    for i, (name, x, y, h) in enumerate(points):
        # Judged against the line through the other cards: an outlier pulls the line fitted
        # through it towards itself, and widens its intervals, enough to hide among few cards.
        others = [(a, b, c) for j, (_, a, b, c) in enumerate(points) if j != i]
        apart = _fit(others) if len({a for a, _, _ in others}) >= 2 else line
        expected, spread = apart.at(x)
        half = math.sqrt(h * h + (Z95 * spread) ** 2)
        off = y - expected
        result["cards"].append({"card": name, prop: x, "strength": y, "half_width": h, "curve": line.at(x)[0],
                                "off": off, "off_half_width": half, "off_curve": abs(off) > half})
    result["cards"].sort(key=lambda c: -abs(c["off"]) / c["off_half_width"])
    return result


class _Line:
    """A straight line fitted by weighted least squares, with the standard errors of its terms."""

    def __init__(self, points: list[tuple[float, float, float]]):
        weights = [1 / (h / Z95) ** 2 for _, _, h in points]
        self.total = math.fsum(weights)
        self.mx = math.fsum(w * x for w, (x, _, _) in zip(weights, points)) / self.total
        my = math.fsum(w * y for w, (_, y, _) in zip(weights, points)) / self.total
        self.sxx = math.fsum(w * (x - self.mx) ** 2 for w, (x, _, _) in zip(weights, points))
        self.slope = math.fsum(w * (x - self.mx) * (y - my) for w, (x, y, _) in zip(weights, points)) / self.sxx
        self.intercept = my - self.slope * self.mx
        # The weights are the cards' own variances; a scatter about the line larger than they
        # say (a curve that fits badly) widens the intervals by it.
        residual = math.fsum(w * (y - self.intercept - self.slope * x) ** 2 for w, (x, y, _) in zip(weights, points))
        self.scale = max(1.0, residual / (len(points) - 2)) if len(points) > 2 else 1.0
        self.se_slope = math.sqrt(self.scale / self.sxx)
        self.se_intercept = math.sqrt(self.scale * (1 / self.total + self.mx * self.mx / self.sxx))

    def at(self, x: float) -> tuple[float, float]:
        """The line's value at `x`, and its standard error."""
        return (self.intercept + self.slope * x,
                math.sqrt(self.scale * (1 / self.total + (x - self.mx) ** 2 / self.sxx)))


def _fit(points: list[tuple[float, float, float]]) -> _Line:
    return _Line(points)


def render_curve(curve: dict[str, Any]) -> list[str]:
    """The fit in a line, then every card by how far it lies off the line, the cards off it marked."""
    prop, measure = curve["property"], curve["measure"]
    lines = [f"Cost curve: {measure} against {prop}"]
    if "note" in curve:
        return lines + [curve["note"]]
    percent = measure == "strength per copy"
    show = (lambda v, h: f"{v * 100:+.1f}±{h * 100:.1f}%") if percent else (lambda v, h: f"{v:+.2f}±{h:.2f}")
    lines.append(f"fit: {show(curve['intercept']['value'], curve['intercept']['half_width'])} "
                 f"+ ({show(curve['slope']['value'], curve['slope']['half_width'])}) x {prop}")
    lines.append(f"{'card':<24}{prop[:8]:>8}{'measured':>14}{'curve':>9}{'off the curve':>17}")
    for c in curve["cards"]:
        curve_value = f"{c['curve'] * 100:+.1f}%" if percent else f"{c['curve']:+.2f}"
        lines.append(f"{c['card'][:23]:<24}{c[prop]:>8g}{show(c['strength'], c['half_width']):>14}{curve_value:>9}"
                     f"{show(c['off'], c['off_half_width']):>16}{'*' if c['off_curve'] else ' '}")
    off = [c["card"] for c in curve["cards"] if c["off_curve"]]
    lines.append(f"off the curve at 95%: {', '.join(off)}" if off else "no card is off the curve at 95%")
    if curve["left_out"]:
        lines.append(f"not fitted (no {prop}, or no measure): {', '.join(curve['left_out'])}")
    return lines


def curve_plot(curve: dict[str, Any]) -> Any:
    """The cards and the fitted line, for the HTML page (matplotlib)."""
    from .report_html import _figure
    fig, ax = _figure(6)
    prop = curve["property"]
    xs = [c[prop] for c in curve["cards"]]
    ax.errorbar(xs, [c["strength"] for c in curve["cards"]], yerr=[c["half_width"] for c in curve["cards"]],
                fmt="o", capsize=3, color="#3b6ea5")
    for c in curve["cards"]:
        ax.annotate(c["card"], (c[prop], c["strength"]), fontsize=7, xytext=(3, 3), textcoords="offset points",
                    color="#c0504d" if c["off_curve"] else "#333333")
    if xs and "slope" in curve:
        low, high = min(xs), max(xs)
        a, b = curve["intercept"]["value"], curve["slope"]["value"]
        ax.plot([low, high], [a + b * low, a + b * high], color="#888888", linestyle="--")
    ax.set_xlabel(prop)
    ax.set_ylabel(curve["measure"])
    return fig

"""A card's face description (faces.describe) as an SVG document, in mm: for `engine print`.

static/cards.js draws the same description in the page, shape for shape; what either
draws is only what the description holds. Every text is escaped.
"""
from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .faces import PAPER

FONT = "Helvetica, Arial, sans-serif"


def svg(face: dict[str, Any]) -> str:
    """The SVG of one card, face up or (`hidden`) its back, at its size in mm."""
    w, h = face["w"], face["h"]
    body = back(face) if face["hidden"] else front(face)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}mm" height="{h}mm" '
            f'viewBox="0 0 {w} {h}">{"".join(body)}</svg>')


def _attrs(**attrs: Any) -> str:
    return "".join(f" {k.replace('_', '-')}={quoteattr(str(v))}" for k, v in attrs.items() if v is not None)


def _el(tag: str, **attrs: Any) -> str:
    return f"<{tag}{_attrs(**attrs)}/>"


def _text(x: float, y: float, words: str, size: float, fill: str, anchor: str = "middle", bold: bool = False) -> str:
    weight = "bold" if bold else None
    return (f"<text{_attrs(x=round(x, 2), y=round(y, 2), font_size=size, font_family=FONT, fill=fill, text_anchor=anchor, font_weight=weight)}>"
            f"{escape(words)}</text>")


def icon(drawn: dict[str, Any], x: float, y: float, size: float, colour: str, edge: str) -> str:
    """An icon (icons.py) in a square of `size` mm at (x, y): a fill of None in the card's
    colour, a stroke of None in its edge's (as static/cards.js draws it)."""
    vx, vy, vw, vh = (float(n) for n in drawn["view"].split())
    shapes = []
    for s in drawn["shapes"]:
        attrs = {k: v for k, v in s.items() if k not in ("tag", "fill", "stroke")}
        fill = colour if s.get("fill") is None else s["fill"]
        stroke = "none" if "stroke" not in s else (edge if s["stroke"] is None else s["stroke"])
        shapes.append(_el(s["tag"], **attrs, fill=fill, stroke=stroke, stroke_width=1.5))
    return (f'<g transform="translate({round(x, 2)},{round(y, 2)}) scale({round(size / max(vw, vh), 4)}) '
            f'translate({-vx},{-vy})">{"".join(shapes)}</g>')


def front(face: dict[str, Any]) -> list[str]:
    w, h, colour, ink, edge = face["w"], face["h"], face["colour"], face["ink"], face["edge"]
    band = h * 0.17
    out = [_el("rect", x=0.3, y=0.3, width=w - 0.6, height=h - 0.6, rx=3, fill=PAPER, stroke=edge, stroke_width=0.6),
           _el("rect", x=1.5, y=1.5, width=w - 3, height=band, rx=2, fill=colour)]
    title_size = min(4.0, (w - 22) / max(1, len(face["title"])) * 1.9)
    out.append(_text(w / 2, 1.5 + band / 2 + title_size * 0.35, face["title"], round(max(2.2, title_size), 2), ink,
                     bold=True))
    top = 1.5 + band + 3
    figures = [ln for ln in face["lines"]]
    size = min(10.0, (w - 10) / max(1, len(face["icons"])) - 1)
    row = len(face["icons"]) * (size + 1) - 1
    for i, drawn in enumerate(face["icons"]):
        out.append(icon(drawn, (w - row) / 2 + i * (size + 1), top, size, colour, edge))
    y = top + (size + 3 if face["icons"] else 2)
    for line in figures:
        out.append(_text(w / 2, y + 2.5, line, 2.8, "#222222"))
        y += 3.6
    if face["text_lines"]:
        bx, by, bw, bh = face["text_box"]
        out.append(_el("rect", x=bx, y=by, width=bw, height=bh, rx=1.5, fill="#ffffff", stroke=colour,
                       stroke_width=0.4))
        ts = face["text_size"]
        for i, line in enumerate(face["text_lines"]):
            out.append(_text(bx + 1.5, by + 1 + ts * (1.2 * i + 1), line, ts, "#222222", anchor="start"))
    for corner, figure in face["corners"].items():
        cx = 6.5 if corner.endswith("left") else w - 6.5
        cy = 6.5 if corner.startswith("top") else h - 6.5
        out.append(_el("circle", cx=cx, cy=cy, r=5, fill="#ffffff", stroke=edge, stroke_width=0.6))
        if figure["icons"]:
            out.append(icon(figure["icons"][0], cx - 3, cy - 4.6, 3.2, colour, edge))
        fs = 4.2 if len(figure["text"]) <= 2 else max(2.2, 8.4 / len(figure["text"]))
        out.append(_text(cx, cy + fs * 0.35 + (1.2 if figure["icons"] else 0), figure["text"], round(fs, 2),
                         "#111111", bold=True))
    return out


def back(face: dict[str, Any]) -> list[str]:
    w, h, colour, ink, edge = face["w"], face["h"], face["colour"], face["ink"], face["edge"]
    out = [_el("rect", x=0.3, y=0.3, width=w - 0.6, height=h - 0.6, rx=3, fill=colour, stroke=edge, stroke_width=0.6)]
    out += _pattern(face.get("pattern", "plain"), w, h, ink)
    out.append(_el("rect", x=3, y=3, width=w - 6, height=h - 6, rx=2, fill="none", stroke=ink, stroke_width=0.5,
                   stroke_opacity=0.6))
    lines = [t for t in [face["title"], *face["lines"], face["label"]] if t]
    for i, line in enumerate(lines):
        y = h / 2 + (i - (len(lines) - 1) / 2) * 6
        out.append(_el("rect", x=6, y=y - 4, width=w - 12, height=5.6, rx=1.5, fill=colour, fill_opacity=0.85))
        out.append(_text(w / 2, y + 0.6, line, 3.6 if i == 0 else 2.8, ink, bold=i == 0))
    return out


def _pattern(pattern: str, w: float, h: float, ink: str) -> list[str]:
    """The back's pattern, as plain shapes (no <pattern> element: PDF and page draw it alike)."""
    shapes: list[str] = []
    faint = {"stroke": ink, "stroke_opacity": 0.18, "stroke_width": 0.6, "fill": "none"}
    if pattern == "stripes":
        for c in range(-int(h), int(w), 4):  # the lines y = x - c, clipped to the inner box
            x1, x2 = max(3, c + 3), min(w - 3, c + h - 3)
            if x1 < x2:
                shapes.append(_el("line", x1=x1, y1=x1 - c, x2=x2, y2=x2 - c, **faint))
    elif pattern == "grid":
        shapes += [_el("line", x1=x, y1=3, x2=x, y2=h - 3, **faint) for x in range(6, int(w) - 3, 5)]
        shapes += [_el("line", x1=3, y1=y, x2=w - 3, y2=y, **faint) for y in range(6, int(h) - 3, 5)]
    elif pattern == "dots":
        shapes += [_el("circle", cx=x, cy=y, r=0.7, fill=ink, fill_opacity=0.2)
                   for x in range(6, int(w) - 3, 5) for y in range(6, int(h) - 3, 5)]
    elif pattern == "diamonds":
        shapes += [_el("path", d=f"M{x} {y - 3}l3 3-3 3-3-3z", **faint)
                   for x in range(7, int(w) - 4, 6) for y in range(7, int(h) - 4, 6)]
    return shapes

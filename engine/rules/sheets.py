"""Card sheets to print (`engine print`): every card from its face, at its real size, in a grid
on A4 or Letter pages with cut marks; with `backs`, after each page of faces a page of their
backs, mirrored left to right, so that printed on both sides (flipped on the long edge) each
back lands behind its face. The PDF is drawn by fpdf2 (the `print` extra) from the same SVG
the faces are (cardsvg.py); the PDF's core fonts read Latin-1 alone, so other letters are
spelt in it (… as ...).
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from ..core.errors import EngineError
from ..core.table import Card
from .cardsvg import svg
from .faces import describe

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 5.0  # mm the printer may not reach, left free around the grid
MARK = 4.0  # mm: the length of a cut mark, outside the grid
GAP = 0.0  # cards touch: one cut between two
_SPELT = {"…": "...", "–": "-", "—": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "∞": "inf", "→": "->", "×": "x",
          "•": "-", "≤": "<=", "≥": ">="}


@dataclass
class Sheets:
    """What was printed: pages, cards, and the grid of each size."""

    pages: int
    cards: int
    grids: dict[tuple[float, float], tuple[int, int]]


def face_up(card: Card) -> dict[str, Any]:
    """A card as a view shows it face up (`card_view`): what its face is drawn from."""
    return {"id": card.id, "label": card.label, **card.props, **({"text": card.text} if card.text else {})}


def face_down(card: Card) -> dict[str, Any]:
    """A card as a view shows it face down: its back alone."""
    return {"hidden": True, **card.back}


def _latin(value: Any) -> Any:
    if isinstance(value, str):
        text = "".join(_SPELT.get(ch, ch) for ch in value)
        return text.encode("latin-1", "replace").decode("latin-1")
    if isinstance(value, list):
        return [_latin(v) for v in value]
    if isinstance(value, dict):
        return {k: _latin(v) for k, v in value.items()}
    return value


def grid(paper: tuple[float, float], size: tuple[float, float]) -> tuple[int, int]:
    """How many cards of `size` go across and down a page: 3 by 3 poker cards on A4 or Letter,
    as many smaller ones as fit."""
    (pw, ph), (w, h) = paper, size
    across, down = int((pw - 2 * MARGIN) // (w + GAP)), int((ph - 2 * MARGIN) // (h + GAP))
    if across < 1 or down < 1:
        raise EngineError(f"a card of {w:g}x{h:g} mm does not fit on a page of {pw:g}x{ph:g} mm")
    return across, down


def write(rules: Any, cards: list[Card], out: str, paper: str = "a4", backs: bool = False) -> Sheets:
    """Print `cards` of `rules` into the PDF file `out`."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise EngineError("engine print needs the print extra: pip install 'tabletop-rules-engine[print]'") from None
    pw, ph = PAPERS[paper]
    pdf = FPDF(unit="mm", format=(pw, ph))
    pdf.set_auto_page_break(False)
    pdf.set_creator("engine print")
    pdf.set_title(_latin(f"{rules.name}: cards"))
    by_size: dict[tuple[float, float], list[tuple[dict, dict]]] = {}
    for card in cards:
        front = _latin(describe(rules, face_up(card)))
        by_size.setdefault((front["w"], front["h"]), []).append((front, _latin(describe(rules, face_down(card)))))
    grids, pages = {}, 0
    drawn: dict[str, bytes] = {}  # each SVG once: copies of a card share it
    for size, faces in by_size.items():
        across, down = grids[size] = grid((pw, ph), size)
        per = across * down
        for start in range(0, len(faces), per):
            page = faces[start:start + per]
            sides = [False, True] if backs else [False]
            for back in sides:
                pdf.add_page()
                pages += 1
                x0 = (pw - across * size[0]) / 2
                y0 = (ph - down * size[1]) / 2
                for i, (front, behind) in enumerate(page):
                    col, row = i % across, i // across
                    if back:  # mirrored, so that it lands behind its face
                        col = across - 1 - col
                    text = svg(behind if back else front)
                    data = drawn.setdefault(text, text.encode("utf-8"))
                    pdf.image(io.BytesIO(data), x=x0 + col * size[0], y=y0 + row * size[1], w=size[0], h=size[1])
                _cut_marks(pdf, x0, y0, across, down, size)
    if not pages:
        raise EngineError("no card to print")
    try:
        pdf.output(out)
    except OSError as exc:
        raise EngineError(f"cannot write {out}: {exc.strerror or exc}") from None
    return Sheets(pages, len(cards), grids)


def _cut_marks(pdf: Any, x0: float, y0: float, across: int, down: int, size: tuple[float, float]) -> None:
    """Short lines in the margins at every cut, where a guillotine or a knife is set."""
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.2)
    w, h = size
    bottom, right = y0 + down * h, x0 + across * w
    for c in range(across + 1):
        x = x0 + c * w
        pdf.line(x, max(0.5, y0 - MARK - 1), x, y0 - 1)
        pdf.line(x, bottom + 1, x, bottom + 1 + MARK)
    for r in range(down + 1):
        y = y0 + r * h
        pdf.line(max(0.5, x0 - MARK - 1), y, x0 - 1, y)
        pdf.line(right + 1, y, right + 1 + MARK, y)

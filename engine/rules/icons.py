"""The icons a card's face may show: a small built-in set, and SVG files next to a ruleset.

An icon is plain data, `{"view": "0 0 24 24", "shapes": [{"tag": "path", "d": ...}, ...]}`,
that the browser and the printer draw alike. A shape's `fill` (or `stroke`) of None is drawn
in the card's ink. A file is read safely: no DOCTYPE or entity (what an XML bomb needs), at
most MAX_ICON_BYTES, and only shapes with geometry and colours are kept; scripts, links,
styles, text and every other element or attribute are dropped, so nothing in it runs or loads.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

MAX_ICON_BYTES = 64_000
MAX_SHAPES = 200

# A few CSS colour names, by their hex code: what a ruleset may name (PDF and page alike).
COLOURS = {
    "black": "#000000", "white": "#ffffff", "red": "#c62828", "green": "#2e7d32", "blue": "#1565c0",
    "yellow": "#f9c80e", "orange": "#ef6c00", "purple": "#6a1b9a", "pink": "#d81b60", "brown": "#795548",
    "grey": "#808080", "gray": "#808080", "silver": "#c0c0c0", "gold": "#c9a227", "cyan": "#00acc1",
    "teal": "#00796b", "navy": "#1a237e", "maroon": "#800000", "olive": "#808000", "lime": "#7cb342",
    "beige": "#e8dcc0", "tan": "#d2b48c", "ivory": "#fffff0", "crimson": "#b71c1c", "indigo": "#3949ab",
    "violet": "#8e24aa", "magenta": "#c2185b", "turquoise": "#26a69a", "khaki": "#c3b091", "salmon": "#fa8072",
    "darkgreen": "#1b5e20", "darkblue": "#0d47a1", "darkred": "#8b0000", "lightblue": "#90caf9",
    "lightgreen": "#a5d6a7", "lightgrey": "#d3d3d3", "lightgray": "#d3d3d3", "darkgrey": "#505050",
    "darkgray": "#505050", "slategrey": "#5d6d7e", "slategray": "#5d6d7e", "coral": "#ff7f50",
}
HEX = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")


def colour(value: Any) -> str | None:
    """A colour's hex code (#rrggbb), from a name of COLOURS or a hex code; None if it is neither."""
    if not isinstance(value, str):
        return None
    v = value.strip().lower()
    if v in COLOURS:
        return COLOURS[v]
    if HEX.fullmatch(v):
        return v if len(v) == 7 else "#" + "".join(c * 2 for c in v[1:])
    return None


def _i(tag: str, **attrs: Any) -> dict[str, Any]:
    return {"tag": tag, **attrs}


# The built-in icons, each in a 24x24 box; fill None: the card's ink.
BUILT_IN: dict[str, list[dict[str, Any]]] = {
    "coin": [_i("circle", cx=12, cy=12, r=10, fill="#c9a227", stroke="#7a5c00"),
             _i("circle", cx=12, cy=12, r=6, fill="none", stroke="#7a5c00")],
    "star": [_i("path", d="M12 2l3 7 7 .6-5.3 4.7 1.6 7.2L12 17.8 5.7 21.5l1.6-7.2L2 9.6 9 9z", fill="#f2b01e",
                stroke="#7a5c00")],
    "point": [_i("path", d="M12 2l3 7 7 .6-5.3 4.7 1.6 7.2L12 17.8 5.7 21.5l1.6-7.2L2 9.6 9 9z", fill=None)],
    "coal": [_i("path", d="M4 16l2-7 5-3 6 2 3 6-3 5H8z", fill="#2b2b2b", stroke="#000000")],
    "oil": [_i("path", d="M12 2C9 8 6 11 6 15a6 6 0 0 0 12 0c0-4-3-7-6-13z", fill="#1f2a44", stroke="#000000")],
    "box": [_i("rect", x=4, y=5, width=16, height=14, fill="#b5835a", stroke="#5d3a1a"),
            _i("path", d="M4 5l16 14M20 5L4 19", fill="none", stroke="#5d3a1a")],
    "wild": [_i("path", d="M12 2v20M2 12h20M5 5l14 14M19 5L5 19", fill="none", stroke=None)],
    "train": [_i("rect", x=3, y=6, width=13, height=10, fill=None),
              _i("rect", x=16, y=9, width=5, height=7, fill=None),
              _i("circle", cx=7, cy=18, r=2.5, fill="#333333"), _i("circle", cx=16, cy=18, r=2.5, fill="#333333")],
    "car": [_i("rect", x=2, y=7, width=20, height=9, fill=None),
            _i("circle", cx=7, cy=18, r=2.5, fill="#333333"), _i("circle", cx=17, cy=18, r=2.5, fill="#333333")],
    "weight": [_i("path", d="M7 8h10l4 13H3z", fill=None), _i("circle", cx=12, cy=5, r=3, fill="none", stroke=None)],
    "power": [_i("path", d="M13 2L4 14h7l-2 8 9-12h-7z", fill="#f9c80e", stroke="#7a5c00")],
    "house": [_i("path", d="M3 11l9-8 9 8v10H3z", fill=None), _i("rect", x=10, y=14, width=4, height=7, fill="#ffffff")],
    "flag": [_i("path", d="M5 2v20M5 3h13l-3 4 3 4H5", fill=None, stroke=None)],
    "cube": [_i("path", d="M12 2l9 5v10l-9 5-9-5V7z", fill=None), _i("path", d="M3 7l9 5 9-5M12 12v10", fill="none",
                                                                       stroke="#ffffff")],
    "track": [_i("path", d="M7 2L5 22M17 2l2 20M5 6h14M5 11h14M4 16h16M4 21h16", fill="none", stroke=None)],
    "clock": [_i("circle", cx=12, cy=12, r=10, fill="none", stroke=None), _i("path", d="M12 6v6l4 3", fill="none",
                                                                                stroke=None)],
    "share": [_i("rect", x=4, y=3, width=16, height=18, fill="#ffffff", stroke=None),
              _i("path", d="M7 8h10M7 12h10M7 16h6", fill="none", stroke=None)],
    "ticket": [_i("path", d="M2 7h20v3a2 2 0 0 0 0 4v3H2v-3a2 2 0 0 0 0-4z", fill=None)],
    "monster": [_i("path", d="M4 20V10a8 8 0 0 1 16 0v10l-3-2-2 2-3-2-3 2-2-2z", fill=None),
                _i("circle", cx=9, cy=10, r=2, fill="#ffffff"), _i("circle", cx=15, cy=10, r=2, fill="#ffffff")],
    "eye": [_i("path", d="M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z", fill="none", stroke=None),
            _i("circle", cx=12, cy=12, r=3, fill=None)],
    "arrow": [_i("path", d="M3 12h15M13 6l6 6-6 6", fill="none", stroke=None)],
    "city": [_i("rect", x=3, y=10, width=6, height=11, fill=None), _i("rect", x=10, y=4, width=5, height=17, fill=None),
             _i("rect", x=16, y=8, width=5, height=13, fill=None)],
    "plus": [_i("path", d="M12 4v16M4 12h16", fill="none", stroke=None)],
    "minus": [_i("path", d="M4 12h16", fill="none", stroke=None)],
    "question": [_i("circle", cx=12, cy=12, r=10, fill="none", stroke=None),
                 _i("path", d="M9 9a3 3 0 1 1 4 3c-1 .5-1 1-1 2M12 17v1", fill="none", stroke=None)],
}


def built_in(name: str) -> dict[str, Any]:
    return {"view": "0 0 24 24", "shapes": BUILT_IN[name]}


_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH = re.compile(r"[MmLlHhVvCcSsQqTtAaZz0-9eE.,\s+-]*")
_POINTS = re.compile(r"[0-9eE.,\s+-]*")
_GEOMETRY = {"path": ("d",), "circle": ("cx", "cy", "r"), "ellipse": ("cx", "cy", "rx", "ry"),
             "rect": ("x", "y", "width", "height", "rx", "ry"), "line": ("x1", "y1", "x2", "y2"),
             "polygon": ("points",), "polyline": ("points",)}
SVG_NS = "{http://www.w3.org/2000/svg}"


def read_file(path: Path) -> dict[str, Any]:
    """An icon from an SVG file, safely (module docstring); raises ValueError saying what is wrong."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read it: {exc.strerror or exc}") from None
    if len(raw) > MAX_ICON_BYTES:
        raise ValueError(f"it is {len(raw)} bytes, more than {MAX_ICON_BYTES}")
    if re.search(rb"<!DOCTYPE|<!ENTITY", raw, flags=re.I):
        raise ValueError("it has a DOCTYPE or an entity; an icon needs neither")
    try:
        root = ET.fromstring(raw)
    except ET.ParseError as exc:
        raise ValueError(f"it is not well-formed SVG: {exc}") from None
    if root.tag not in ("svg", SVG_NS + "svg"):
        raise ValueError(f"its top element is <{root.tag.split('}')[-1]}>, not <svg>")
    view = root.get("viewBox") or f"0 0 {root.get('width', '24')} {root.get('height', '24')}"
    numbers = _NUMBER.findall(view.replace("px", ""))
    if len(numbers) != 4:
        raise ValueError(f"its viewBox '{view}' is not four numbers")
    shapes = []
    for node in root.iter():
        tag = node.tag.split("}")[-1]
        if tag not in _GEOMETRY or len(shapes) >= MAX_SHAPES:
            continue
        shape: dict[str, Any] = {"tag": tag}
        for key in _GEOMETRY[tag]:
            value = node.get(key)
            if value is None:
                continue
            if key == "d" and not _PATH.fullmatch(value) or key == "points" and not _POINTS.fullmatch(value):
                raise ValueError(f"a <{tag}>'s {key} has more than path data")
            if key not in ("d", "points"):
                if not _NUMBER.fullmatch(value.strip()):
                    raise ValueError(f"a <{tag}>'s {key} '{value}' is not a number")
                value = float(value)
            shape[key] = value
        for key in ("fill", "stroke"):
            value = node.get(key)
            if value is None:
                continue
            shape[key] = "none" if value.strip() == "none" else (None if value.strip() == "currentColor"
                                                                 else colour(value))
        shapes.append(shape)
    if not shapes:
        raise ValueError("it has no shape (path, circle, rect, ellipse, line, polygon or polyline)")
    return {"view": " ".join(numbers), "shapes": shapes}

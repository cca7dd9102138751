"""How a card looks: a kind's `face:` block, checked at load, and a card's drawing described.

`check` reads every kind's `face:` (the schema has checked its shape) against the kind's
properties and cards, reporting each mistake where it is written, with a "did you mean".
`describe` turns one card *as a player's view gives it* (`card_view`: a face-up card's
properties, or a face-down card's back alone) into a face description, plain data that the
page (static/cards.js) and the printer (cardsvg.py) draw alike. It reads nothing but that
dictionary and the ruleset's faces, so a drawing can never show more than the view gives.
A kind without `face:` is still drawn: its label, a few key properties, a colour of its own.
"""
from __future__ import annotations

import hashlib
import re
import string
import textwrap
from pathlib import Path
from typing import Any, Callable

from ..core.errors import suggest
from . import icons
from .checks import template_problem

SIZES = {"poker": (63, 88), "bridge": (57, 89), "mini": (44, 68), "tarot": (70, 120), "square": (70, 70),
         "domino": (44, 88)}
SIZE = re.compile(r"(\d{1,3}(?:\.\d+)?)x(\d{1,3}(?:\.\d+)?)")
CORNERS = ("top_left", "top_right", "bottom_left", "bottom_right")
PATTERNS = ("plain", "stripes", "dots", "grid", "diamonds")
PAPER = "#fbf8f0"
# The colours a kind without one gets, by a hash of its name (its family).
FAMILY = ["#5b7db1", "#b1625b", "#5ba17a", "#a1885b", "#8a5ba1", "#5b9ea1", "#a15b86", "#7a8a4a"]
HIDDEN_DEFAULT = "#44546a"
TEXT_SIZES = (3.2, 2.9, 2.6, 2.3, 2.0, 1.75, 1.5)  # mm: the card's text shrinks to fit its box
MAX_LINES = 4  # key properties listed on a card without a face


def check(kinds: dict, cards: list, error: Callable[..., None], folder: Path | None) -> dict[str, dict]:
    """Every kind's face, ready for `describe`; each mistake goes to `error(path, message)`."""
    faces = {}
    for name, kind in kinds.items():
        face = kind.get("face")
        if not isinstance(face, dict):
            continue
        path = ("card_kinds", name, "face")
        props = list(kind.get("properties", {}))
        back = [p for p in kind.get("back", []) or []]
        values = {p: {key(x) for c in cards if c.kind == name
                      for x in (c.props[p] if isinstance(c.props.get(p), (list, tuple)) else [c.props.get(p)])}
                  for p in props}
        faces[name] = _face(path, name, face, props, back, values, error, folder)
    _backs_agree(kinds, faces, error)
    return faces


def _face(path: tuple, kind: str, face: dict, props: list[str], back: list[str], values: dict,
          error: Callable[..., None], folder: Path | None) -> dict:
    fields = ["label", "kind", "name"] + props
    out: dict[str, Any] = {"size": _size(path + ("size",), face.get("size", "poker"),
                                         face.get("orientation", "portrait"), error)}
    out["colour"] = _colour_rule(path + ("colour",), face.get("colour"), props, values, kind, error)
    out["title"] = _template(path + ("title",), face.get("title", "{label}"), fields, kind, error)
    out["corners"] = {}
    for corner in CORNERS:
        given = (face.get("corners") or {}).get(corner)
        if given is None:
            continue
        at = path + ("corners", corner)
        given = given if isinstance(given, dict) else {"value": given}
        figure = {"value": _figure(at + (("value",) if "value" in given else ()), str(given.get("value", "")),
                                   props, fields, kind, error)}
        if "icon" in given:
            figure["icon"] = _icon(at + ("icon",), given["icon"], props, values, kind, error, folder)
        out["corners"][corner] = figure
    out["icons"] = [_icon(path + ("icons", i), entry, props, values, kind, error, folder)
                    for i, entry in enumerate(face.get("icons", []))]
    out["show"] = []
    for i, p in enumerate(face.get("show", [])):
        if p not in props:
            error(path + ("show", i), f"'{p}' is not a property of {kind}{suggest(p, props)}")
        else:
            out["show"].append(p)
    out["text"] = face.get("text", True)
    out["back_props"] = sorted(back)
    if "back" in face:
        out["back"] = _back(path + ("back",), face["back"], back, values, kind, error)
    return out


def _size(at: tuple, size: str, orientation: str, error: Callable[..., None]) -> tuple[float, float]:
    """The size in mm: a name of SIZES, or "WIDTHxHEIGHT" (each 10 to 300 mm)."""
    given = SIZE.fullmatch(size)
    if size in SIZES:
        w, h = SIZES[size]
    elif given and all(10 <= float(n) <= 300 for n in given.groups()):
        w, h = (float(n) for n in given.groups())
    else:
        error(at, f"'{size}' is not a card size{suggest(size, SIZES)}; give one of {', '.join(SIZES)}, or "
              "WIDTHxHEIGHT in mm from 10 to 300 (63x88)")
        w, h = SIZES["poker"]
    return (max(w, h), min(w, h)) if orientation == "landscape" else (min(w, h), max(w, h))


def _colour_rule(at: tuple, given: Any, props: list[str], values: dict, kind: str,
                 error: Callable[..., None]) -> dict | None:
    """A colour fixed (`"#c0392b"`, `red`) or by a property (`{property, map, default}`)."""
    if given is None:
        return None
    if isinstance(given, str):
        fixed = icons.colour(given)
        if fixed is None:
            error(at, f"'{given}' is not a colour{suggest(given, icons.COLOURS)}; give #rrggbb or a name: "
                  f"{', '.join(sorted(icons.COLOURS))}")
        return {"fixed": fixed}
    p = given.get("property")
    if p not in props:
        error(at + ("property",), f"'{p}' is not a property of {kind}{suggest(p, props)}")
        return None
    colours = {}
    for value, c in (given.get("map") or {}).items():
        hexed = icons.colour(str(c))
        if hexed is None:
            error(at + ("map", value), f"'{c}' is not a colour{suggest(str(c), icons.COLOURS)}; give #rrggbb "
                  "or a colour's name")
        _seen(at + ("map", value), value, values.get(p, set()), p, kind, error)
        colours[key(value)] = hexed
    default = icons.colour(given["default"]) if "default" in given else None
    if "default" in given and default is None:
        error(at + ("default",), f"'{given['default']}' is not a colour{suggest(str(given['default']), icons.COLOURS)}")
    return {"property": p, "map": colours, "default": default}


def _template(at: tuple, template: str, fields: list[str], kind: str, error: Callable[..., None]) -> str:
    problem = template_problem(template, fields)
    if problem is not None:
        error(at, f"the face's '{template}' of '{kind}' cannot be filled: {problem}")
        return "{label}"
    return template


def _figure(at: tuple, value: str, props: list[str], fields: list[str], kind: str,
            error: Callable[..., None]) -> str:
    """A corner's figure: a property's name, or a template such as "{cost}$"; as a template."""
    if "{" in value:
        return _template(at, value, fields, kind, error)
    if value.lstrip("-").isdigit():  # a figure printed alike on every card of the kind
        return value
    if value not in fields:
        error(at, f"'{value}' is not a property of {kind}{suggest(value, fields)}; a corner shows a property "
              "or a template such as '{cost}$'")
        return ""
    return "{" + value + "}"


def _icon(at: tuple, entry: Any, props: list[str], values: dict, kind: str, error: Callable[..., None],
          folder: Path | None) -> dict | None:
    """An icon: a built-in name, an SVG file next to the ruleset, or `{property, map}` choosing one
    by a property's value (a list property: one icon for each of its items)."""
    if isinstance(entry, dict):
        p = entry.get("property")
        if p not in props:
            error(at + ("property",), f"'{p}' is not a property of {kind}{suggest(p, props)}")
            return None
        chosen = {}
        for value, name in (entry.get("map") or {}).items():
            _seen(at + ("map", value), value, values.get(p, set()), p, kind, error)
            chosen[key(value)] = _one_icon(at + ("map", value), str(name), error, folder)
        return {"property": p, "map": chosen}
    return {"fixed": _one_icon(at, str(entry), error, folder)}


def key(value: Any) -> str:
    """A property's value as a map's key: YAML reads a key `true` or `1` as text or not, alike."""
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text.lower() if text.lower() in ("true", "false") else text


def _seen(at: tuple, value: Any, seen: set[str], p: str, kind: str, error: Callable[..., None]) -> None:
    """A map's value that no card of the kind has is a slip: say which it may have meant (a kind
    with no cards yet, whose cards an extension may bring, has none to check against)."""
    if seen and key(value) not in seen:
        error(at, f"no card of {kind} has {p} '{value}'{suggest(key(value), sorted(seen))}", key=True)


def _one_icon(at: tuple, name: str, error: Callable[..., None], folder: Path | None) -> dict | None:
    if name.endswith(".svg"):
        if folder is None or Path(name).is_absolute() or ".." in Path(name).parts:
            error(at, f"the icon file '{name}' must be a path inside the ruleset's folder")
            return None
        try:
            return icons.read_file(folder / name)
        except ValueError as exc:
            error(at, f"the icon file '{name}': {exc}")
            return None
    if name not in icons.BUILT_IN:
        error(at, f"'{name}' is not a built-in icon{suggest(name, icons.BUILT_IN)}, nor an .svg file; the "
              f"built-in icons are: {', '.join(icons.BUILT_IN)}")
        return None
    return icons.built_in(name)


def _back(at: tuple, given: dict, back: list[str], values: dict, kind: str, error: Callable[..., None]) -> dict:
    """A face-down card's drawing: it may read only the properties its kind's `back:` shows."""
    shown = back + (["kind"] if "kind" not in back else [])
    colour = given.get("colour")
    if isinstance(colour, dict) and colour.get("property") not in back:
        p = colour.get("property")
        error(at + ("colour", "property"), f"'{p}' is not shown on the back of {kind}{suggest(str(p), back)}; "
              f"a face-down card shows only the properties its `back:` lists ({', '.join(back) or 'none'})")
        colour = None
    title = given.get("title", "")
    problem = template_problem(title, [p for p in shown if p in back])
    if problem is not None:
        error(at + ("title",), f"the back's title '{title}' of '{kind}' cannot be filled: {problem}")
        title = ""
    return {"colour": _colour_rule(at + ("colour",), colour, back, values, kind, error) if colour else None,
            "title": title, "pattern": given.get("pattern", "diamonds")}


def _backs_agree(kinds: dict, faces: dict, error: Callable[..., None]) -> None:
    """Face down, kinds whose backs show the same properties but not `kind` cannot be told apart,
    so they must draw the same back: which of them a face-down card is, the drawing would say."""
    by_shown: dict[tuple, list[str]] = {}
    for name, kind in kinds.items():
        shown = tuple(sorted(kind.get("back", []) or []))
        if "kind" not in shown:
            by_shown.setdefault(shown, []).append(name)
    for names in by_shown.values():
        drawn = [n for n in names if "back" in faces.get(n, {})]
        for n in drawn[1:]:
            if faces[n]["back"] != faces[drawn[0]]["back"]:
                error(("card_kinds", n, "face", "back"), f"face down, {n} looks like {drawn[0]} (their backs "
                      "show the same properties, not `kind`), so it must draw the same back; or add `kind` "
                      "to both kinds' `back:`")


# ------------------------------------------------------------------ describing a card


def describe(rules: Any, card: dict[str, Any]) -> dict[str, Any]:
    """The face description of one card as a player's view gives it (`card_view`)."""
    faces: dict[str, dict] = getattr(rules, "faces", {}) or {}
    if card.get("hidden"):
        return _describe_back(rules, faces, card)
    kind = str(card.get("kind", ""))
    face = faces.get(kind) or {}
    w, h = face.get("size", SIZES["poker"])
    fill = _fill(face.get("colour"), card) or _family(kind)
    fields = {k: _shown(v) for k, v in card.items()}
    fields["name"] = _name(rules, card)
    title = _fill_template(face.get("title", "{label}"), fields) or str(card.get("label", ""))
    corners = {corner: {"text": _fill_template(f["value"], fields),
                        "icons": _icons(f.get("icon"), card)[:1]}
               for corner, f in face.get("corners", {}).items()}
    drawn = [icon for rule in face.get("icons", []) for icon in _icons(rule, card)]
    if face:
        lines = [f"{p.replace('_', ' ')}: {fields[p]}" for p in face.get("show", [])
                 if fields.get(p, "-") not in ("-", "")]  # an empty list says nothing
    else:
        lines = _key_lines(card, title)
    text = str(card.get("text", "")) if face.get("text", True) else ""
    low = any(c.startswith("bottom") for c in corners)  # the box stops above the bottom figures
    drawn = drawn[:8]
    icon = min(10.0, (w - 10) / max(1, len(drawn)) - 1)  # as the renderers lay them out
    above = 1.5 + h * 0.17 + 3 + (icon + 3 if drawn else 2) + 3.6 * len(lines) + 1.5
    top = round(max(above, h * 0.32), 2)  # the box takes what the icons and lines leave
    box = [3.0, top, w - 6.0, round(h - top - 3 - (8 if low else 0), 2)]
    size, wrapped = _wrap(text, box[2], box[3])
    return {"w": w, "h": h, "hidden": False, "colour": fill, "ink": _ink(fill), "edge": _darker(fill),
            "title": title, "corners": corners, "icons": drawn, "lines": lines, "text": text,
            "text_lines": wrapped, "text_size": size, "text_box": box, "label": str(card.get("label", "")),
            "tip": "\n".join([str(card.get("label", "")), *([text] if text else []), *lines])}


def _name(rules: Any, card: dict) -> str:
    """A face-up card's name, printed on it as its label says: the view gives its id."""
    cards = getattr(rules, "cards", [])
    ident = card.get("id")
    return cards[ident - 1].name if isinstance(ident, int) and 0 < ident <= len(cards) else ""


def _describe_back(rules: Any, faces: dict, card: dict) -> dict[str, Any]:
    shown = {k: v for k, v in card.items() if k not in ("hidden", "label")}
    kind = shown.get("kind")
    back: dict | None = None
    if kind is not None:
        back = (faces.get(kind) or {}).get("back")
        w, h = (faces.get(kind) or {}).get("size", SIZES["poker"])
    else:  # the kinds whose backs show these properties draw alike (_backs_agree): the first's
        kinds = [n for n, k in faces.items() if "back" in k and k["back_props"] == sorted(shown)]
        back = faces[kinds[0]]["back"] if kinds else None
        w, h = faces[kinds[0]]["size"] if kinds else SIZES["poker"]
    fields = {k: _shown(v) for k, v in shown.items()}
    fill = (_fill(back.get("colour"), shown) if back else None) or next(
        (c for v in shown.values() if (c := icons.colour(v))), None) or HIDDEN_DEFAULT
    title = _fill_template(back["title"], fields) if back and back.get("title") else (
        str(kind).replace("_", " ") if kind else "")
    lines = [f"{k.replace('_', ' ')}: {v}" for k, v in fields.items() if k != "kind" and str(v) not in title]
    place = str(card.get("label", ""))
    return {"w": w, "h": h, "hidden": True, "colour": fill, "ink": _ink(fill), "edge": _darker(fill),
            "title": title, "pattern": back.get("pattern", "diamonds") if back else "diamonds",
            "lines": lines, "label": place, "corners": {}, "icons": [], "text": "", "text_lines": [],
            "text_size": TEXT_SIZES[0], "text_box": [0, 0, 0, 0],
            "tip": "\n".join(x for x in [place or "face down", title, *lines] if x)}


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or "-"
    return str(value)


def _fill_template(template: str, fields: dict[str, str]) -> str:
    try:
        return string.Formatter().vformat(template, (), fields)
    except (KeyError, ValueError, TypeError):  # a field the view does not give, or a format for a number
        try:
            return string.Formatter().vformat(template, (), {k: _number(v) for k, v in fields.items()})
        except (KeyError, ValueError, TypeError):
            return ""


def _number(value: str) -> Any:
    try:
        return int(value)
    except ValueError:
        return value


def _fill(rule: dict | None, card: dict) -> str | None:
    if not rule:
        return None
    if "fixed" in rule:
        return rule["fixed"]
    value = card.get(rule["property"])
    return rule["map"].get(key(value)) or rule.get("default") or icons.colour(value) or (
        _family(str(value)) if value is not None else None)


def _icons(rule: dict | None, card: dict) -> list[dict]:
    if not rule:
        return []
    if "fixed" in rule:
        return [rule["fixed"]] if rule["fixed"] else []
    value = card.get(rule["property"])
    items = value if isinstance(value, (list, tuple)) else [value]
    return [rule["map"][key(v)] for v in items if rule["map"].get(key(v))]


def _key_lines(card: dict, title: str) -> list[str]:
    """A card without a face: the properties its title does not already say, the figures first."""
    words = set(title.replace("(", " ").replace(")", " ").replace(",", " ").split())
    props = [(k, v) for k, v in card.items() if k not in ("id", "label", "hidden", "text", "kind")
             and not (isinstance(v, str) and v and v in title) and _shown(v) not in words]
    props.sort(key=lambda kv: (not isinstance(kv[1], (int, float)) or isinstance(kv[1], bool)))
    return [f"{k.replace('_', ' ')}: {_shown(v)}" for k, v in props[:MAX_LINES]]


def _wrap(text: str, box_w: float, box_h: float) -> tuple[float, list[str]]:
    """The text's lines in its box, at the largest size that fits."""
    box_w, box_h = box_w - 3, box_h - 2
    for size in TEXT_SIZES:
        lines = textwrap.wrap(text, max(8, int(box_w / (size * 0.5))))
        if len(lines) * size * 1.2 <= box_h:
            return size, lines
    size = TEXT_SIZES[-1]
    lines = textwrap.wrap(text, max(8, int(box_w / (size * 0.5))))
    most = max(1, int(box_h / (size * 1.2)))
    return size, lines[:most - 1] + [lines[most - 1][:-1] + "…"] if len(lines) > most else lines


def _family(name: str) -> str:
    return FAMILY[int(hashlib.sha256(name.encode()).hexdigest(), 16) % len(FAMILY)]


def _rgb(hexed: str) -> tuple[int, int, int]:
    return int(hexed[1:3], 16), int(hexed[3:5], 16), int(hexed[5:7], 16)


def _ink(fill: str) -> str:
    """Black or white, whichever reads on `fill`."""
    r, g, b = _rgb(fill)
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _darker(fill: str) -> str:
    return "#" + "".join(f"{int(c * 0.6):02x}" for c in _rgb(fill))


def back_key(card: dict[str, Any]) -> str:
    """What tells a face-down card's drawing from another's: the back it shows, as the page
    (static/cards.js, backKey) writes it too."""
    return "|".join(f"{k}={key(v)}" for k, v in sorted(card.items()) if k not in ("hidden", "label"))


def faces_of(rules: Any, cards: Any) -> dict[str, dict]:
    """The drawings of the cards a view gives (dicts of `card_view`; None is skipped): face-up
    ones by id, face-down ones by their back (`back_key`), for a page to draw them with."""
    ids: dict[str, dict] = {}
    backs: dict[str, dict] = {}
    for card in cards:
        if not isinstance(card, dict):
            continue
        if card.get("hidden"):
            k = back_key(card)
            if k not in backs:
                backs[k] = describe(rules, {k2: v for k2, v in card.items() if k2 != "label"})
        elif "id" in card and str(card["id"]) not in ids:
            ids[str(card["id"])] = describe(rules, card)
    return {"ids": ids, "backs": backs}

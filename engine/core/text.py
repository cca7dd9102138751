"""Text that names cards, so that each reader is told only the names they may see.

`text(card)`, `card.label` and `card.name` give a `Text`, and so does an error message that
names a card. A plain string would carry a face-down card's name to whoever reads it; a `Text`
is that same string (it compares, hashes and joins with `+` as one, so rules use it as any
string) and also keeps which cards it names. Whatever shows it to a player reads it through
`Text.reads` with that player's `can_see`: the view, a log line (each card as the player could
see it when it was logged) and an error (each card as everyone can see it).
"""
from __future__ import annotations

import math
import unicodedata
from typing import Any, Callable

from .board import Board, Place
from .table import OTHERS, OWNER, Card, Table, Zone


def back_words(card: Card) -> str:
    """What is printed on a card's back, as words: its back's values, the kind's name last
    (which `back: [kind]` prints there, with _ as spaces: "red seat")."""
    back = card.back
    words = [str(v) for k, v in back.items() if k != "kind"]
    return " ".join(words + ([str(back["kind"]).replace("_", " ")] if "kind" in back else []))


def face_down(card: Card) -> str:
    """How a card reads to someone who may not see its face: its back ("a face-down red card";
    one whose back shows its kind is named by it: "a face-down red seat")."""
    back = back_words(card)
    if "kind" in card.back:
        return f"a face-down {back}"
    return f"a face-down {back} card".replace("  ", " ") if back else "a face-down card"


def held_by(zone: Zone, viewer: int | None) -> bool:
    """Whether `viewer` holds the zone as a hand: an ordered zone of theirs whose cards are
    someone's to see (visibility `owner` or `others`), not a pile nobody sees. Where each card
    lies in it is theirs to know (as everyone's: it is held in the open)."""
    return viewer is not None and zone.player == viewer and zone.spec.ordered \
        and zone.spec.visibility in (OWNER, OTHERS)


def held_back(table: Table, card: Card, viewer: int | None) -> str:
    """How a card reads to a `viewer` who may not see its face: by its place, when it lies in
    a zone they hold (`held_by`: a hand held facing away, a card turned face down in it), so
    that a menu of such cards tells them apart ("your card 2"); any other card by its back.
    The place is the card's now: a log line, told as it was, never uses it."""
    zone = table.where[card.index]
    if not held_by(zone, viewer):
        return face_down(card)
    place = table.contents[zone.index].index(card) + 1
    back = back_words(card)
    said = f"your card {place}" if table.layout.held_families == 1 and type(zone.key) is not tuple \
        else f"card {place} of {zone.label}"
    return f"{said} ({back})" if back else said


class Text(str):
    """A string made of pieces: strings, and (card, "label" or "name") for that of a card.

    `Text(pieces)` takes strings, Texts, cards (their labels), zones and other values (as `str`
    gives them), and gives a plain string when no card is named. Joined with another string by
    `+`, it stays a Text; anything else done with it gives a plain value."""

    parts: tuple

    def __new__(cls, parts: Any) -> Any:
        merged: list = []
        for part in parts:
            pieces = part.parts if type(part) is Text else (part,)
            for piece in pieces:
                if type(piece) is str and merged and type(merged[-1]) is str:
                    merged[-1] += piece
                elif type(piece) is str or type(piece) is tuple:
                    merged.append(piece)
                elif type(piece) is Card:
                    merged.append((piece, "label"))
                elif type(piece) is Zone and piece.holder is not None:
                    merged.extend(zone_text(piece).parts)
                elif isinstance(piece, (list, tuple, set, frozenset, dict)):  # never a card by repr
                    named = card_text(piece)
                    merged.extend(named.parts if type(named) is Text else (named,))
                else:
                    merged.append(str(piece))
        if all(type(p) is str for p in merged):
            return "".join(merged)
        text = str.__new__(cls, "".join(p if type(p) is str else getattr(*p) for p in merged))
        text.parts = tuple(merged)
        return text

    @classmethod
    def of_card(cls, card: Card, what: str = "label") -> Text:
        """A card's label (or name) as text; made once a card, since rules read them often."""
        made = card._texts.get(what)
        if made is None:
            made = card._texts[what] = cls(((card, what),))
        return made

    def __getnewargs__(self) -> tuple:  # copies and pickles rebuild it from its parts
        return (self.parts,)

    def __add__(self, other: Any) -> Any:
        if isinstance(other, str):
            return Text((self, other))
        return str.__add__(self, other)  # raises as for any string

    def __radd__(self, other: Any) -> Any:
        if isinstance(other, str):
            return Text((other, self))
        return NotImplemented

    def cards(self) -> list[Card]:
        """The cards it names, in order."""
        return [p[0] for p in self.parts if type(p) is tuple]

    def reads(self, sees: Callable[[Card], bool], back: Callable[[Card], str] = face_down) -> str:
        """The text as someone reads it who sees the cards for which `sees` is true; another
        card as `back` gives it (its back, or its place: `held_back`)."""
        return "".join(p if type(p) is str else getattr(*p) if sees(p[0]) else back(p[0])
                       for p in self.parts)

    def relabelled(self, cards: dict[Card, Card]) -> Any:
        """The same text with each card `c` of `cards` read as `cards[c]`."""
        return Text(p if type(p) is str else (cards.get(p[0], p[0]), p[1]) for p in self.parts)


def card_text(value: Any) -> Any:
    """A card, a zone or other value as it is named in a message: a card by its label, a zone
    of a card as that of its card (both as Text), a place or a board by its label or name;
    anything else as `repr` gives it."""
    if type(value) is Card:
        return Text.of_card(value)
    if type(value) is Zone:
        return zone_text(value)
    if type(value) is Text:
        return Text(("'", value, "'"))
    if type(value) is Place:
        return f"the place {value.label}"
    if type(value) is Board:
        return f"the board {value.name}"
    if isinstance(value, (list, tuple, set, frozenset, dict)):  # its cards as cards, never by repr
        return _container_text(value)
    return repr(value)


_BRACKETS = {list: "[]", tuple: "()", set: "{}", frozenset: "{}", dict: "{}"}


def _container_text(value: list | tuple | set | frozenset | dict) -> Any:
    """A list, tuple, set or table as Python writes it, each card in it as a card (Text), so a
    reader who may not see a card is not told its name."""
    items = [Text((card_text(k), ": ", card_text(v))) for k, v in value.items()] if isinstance(value, dict) \
        else [card_text(v) for v in value]
    opening, closing = next(b for t, b in _BRACKETS.items() if isinstance(value, t))
    pieces: list = [opening]
    for i, item in enumerate(items):
        pieces += [", "] * (i > 0) + [item]
    if type(value) is tuple and len(items) == 1:
        pieces.append(",")
    return Text([*pieces, closing])


def card_zone_words(template: str) -> tuple[str, str]:
    """The words before and after its card in the label of a zone of a card: where `{card}`
    stands in the zone's `label`, else "LABEL of CARD"."""
    before, found, after = template.partition("{card}")
    return (before, after) if found else (f"{template} of ", "")


def zone_text(zone: Zone) -> Any:
    """A zone's label; the zone of a card is named after its card, as Text."""
    if zone.holder is None:
        return zone.label
    before, after = card_zone_words(zone.spec.label)
    return Text((before, Text.of_card(zone.holder), after))


def number_text(value: int | float) -> str:
    """A number as text: a whole number without ".0" (4 / 2 reads "2"), infinity as a word."""
    if isinstance(value, float):
        if math.isinf(value):
            return "infinity" if value > 0 else "-infinity"
        if value.is_integer() and abs(value) < 1e16:
            return str(int(value))
    return str(value)


def finite(data: Any) -> Any:
    """`data` with every infinite or NaN number replaced by its words ("infinity", "nan"), so
    that JSON can hold it (a rule's "no limit" is infinity)."""
    if isinstance(data, float) and not math.isfinite(data):
        return number_text(data)
    if isinstance(data, dict):
        return {k: finite(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [finite(v) for v in data]
    return data


# What a person types for a symbol a keyboard may not have: "i Engine inf" names "Engine ∞".
_STAND_INS = {"∞": "inf", "×": "x", "–": "-", "—": "-", "−": "-", "’": "'", "‘": "'", "“": '"', "”": '"',
              "…": "...", "½": "1/2", "→": "->", "←": "<-", "≥": ">=", "≤": "<=", "★": "*", "☆": "*", "•": "*"}


def typed(text: str) -> str:
    """`text` as a person may type it, to compare names with what they typed: case and accents
    left out, runs of spaces as one, and each symbol of `_STAND_INS` as its stand-in."""
    spelt = unicodedata.normalize("NFKD", "".join(_STAND_INS.get(ch, ch) for ch in text))
    return " ".join("".join(ch for ch in spelt if not unicodedata.combining(ch)).casefold().split())

"""Checks across a whole ruleset, with its extension files, that no single entry can make.

Each finds a mistake that used to load without a word and show only in play: two entries
making the same card, and a trigger taking more or fewer parameters than its event is
emitted with.
"""
from __future__ import annotations

from typing import Any

from .errors import Diagnostic, Location
from .table import Card
from .yamlload import MergedSourceMap, SourceMap

COPIES = "for several copies of one card, write one entry with `count: N`"


def _place(here: Location, there: Location) -> str:
    """Where `there` is, said from `here`: its line, or its file and line."""
    return f"line {there.line}" if there.file == here.file else f"{there.file}:{there.line}"


def duplicate_cards(cards: list[Card], smap: SourceMap | MergedSourceMap) -> list[Diagnostic]:
    """Two entries of one kind that make the same card: the same name shown the same way (a
    name may repeat when the label tells the cards apart), or, unnamed, the same properties.
    Copies of a card come from one entry's `count:`; each repeat is reported at its entry."""
    problems = []
    first: dict[tuple, int] = {}
    for card in cards:
        if card.index and cards[card.index - 1].entry == card.entry:
            continue  # a copy made by `count:`
        key: tuple[Any, ...] = (card.kind, "name", card.name, card.label) if card.name else \
            (card.kind, "properties", repr(sorted(card.props.items())))
        if key not in first:
            first[key] = card.entry
            continue
        if card.name:
            here = smap.at(("cards", card.entry, "name"))
            there = smap.at(("cards", first[key], "name"))
            message = (f"the card '{card.name}' of kind '{card.kind}' is already an entry at {_place(here, there)}; "
                       f"{COPIES}; cards that differ need different names (or a label that tells them apart)")
        else:
            here, there = smap.at(("cards", card.entry)), smap.at(("cards", first[key]))
            message = (f"this entry repeats the one at {_place(here, there)} (the same kind and properties); "
                       f"{COPIES}")
        if here.file != there.file:
            message += f"; to replace a card of {there.file}, add its name to remove_cards"
        problems.append(Diagnostic(here, message))
    return problems

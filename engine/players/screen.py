"""The screen of a person at a decision: what they must see, laid out to fit the terminal.

Their own hand and position, what happened since they last decided and the options stay on
one screen with the prompt; the rest of the table fills the room that is left, and the `t`
command shows all of it. Built from a PlayerView only, with game/view.py's functions for cards
and counters, so the screen shows nothing the view does not and reads cards as it does.
"""
from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import Any

from ..core.text import typed
from ..game.view import PlayerView, counter_text, face_shown, zone_text

LABEL_WIDTH = 20  # the column of labels; a longer label pushes its value along, after a colon


@dataclass(frozen=True)
class Line:
    """One line of the screen; `style` (a rich style) colours it where the terminal can."""

    text: str
    style: str = ""


def heading(text: str, width: int | None = None) -> list[Line]:
    """A section's title, wrapped to `width`."""
    return [Line(t, "bold cyan") for t in wrap(f"-- {text} --", width)]


def wrap(text: str, width: int | None, indent: int = 4) -> list[str]:
    """`text` cut into lines of `width` (None: one line), the later ones indented; at spaces,
    not at hyphens ('MA-VI(1)' is one name), and a word is cut only if it is longer than a line."""
    return [text] if width is None or len(text) <= width else textwrap.wrap(
        text, width, subsequent_indent=" " * indent, break_on_hyphens=False)


def entry(label: str, value: str, width: int | None, style: str = "") -> list[Line]:
    """`label: value`, the value wrapped to `width` (None: one line) under itself, between the
    items of a list where it can (a card's label is not cut in two)."""
    head = f"  {label}: ".ljust(LABEL_WIDTH + 4)
    if width is None or len(head) + len(value) <= width:
        return [Line(head + value, style)]
    indent = min(len(head), LABEL_WIDTH + 4)
    lines = [head.rstrip()] if len(head) > width // 2 else []  # a label too long to leave room: the value below
    line = " " * indent if lines else head
    for item in re.split(r", (?![^()]*\))", value):  # not at a comma inside brackets
        if len(line) + len(item) + 1 > width and len(line) > indent:
            lines.append(line.rstrip())
            line = " " * indent
        line += item + ", "
    lines.append(line[:-2])
    return [Line(t, style) for w in lines for t in wrap(w, width, indent)]


def log_items(lines: list[str], width: int | None) -> list[list[Line]]:
    """Log lines as the screen shows them, each indented and wrapped into a block of its own."""
    return [[Line(t) for t in wrap(f"  {line}", width, 6)] for line in lines]


def news_heading(news: list[str], width: int | None) -> list[Line]:
    return heading("since your last decision" if news else "nothing new since your last decision", width)


def _per_player(value: Any, pv: PlayerView) -> bool:
    return isinstance(value, dict) and pv.you is not None and pv.you in value


def own_lines(pv: PlayerView, width: int | None, empty: bool = True) -> list[Line]:
    """The viewer's own zones (a zone of a family per player: their hand, their tableau...), in
    the order the rules declare them (the empty ones too unless not `empty`: at the end, an
    empty hand says nothing), and their share of every counter kept per player, on one line."""
    lines: list[Line] = []
    for z in pv.zones():
        if z["display"] and z["mine"] and (empty or z["cards"]):
            lines += entry(z["label"], zone_text(z), width, "bold")
    named = pv.counter_labels()
    mine = [f"{named[name]} {counter_text(value[pv.you], False)}"
            for name, value in pv.counters().items() if _per_player(value, pv) and counter_text(value[pv.you]).strip()]
    if mine:
        lines += entry(f"{pv.you}", " | ".join(mine), width, "bold")
    return lines


def board_block(name: str, art: str, width: int | None) -> list[Line]:
    """A drawn board under its name."""
    return [Line(f"  [{name}]", "bold")] + [Line(t) for a in art.split("\n") for t in wrap(a, width, 4)]


# Words of a zone's label that say nothing of what it is about, when a prompt is read for them.
_PLAIN_WORDS = frozenset("a an and at by for from in into of on or the to with your their front back".split())


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[\w&'-]+", text)}


def decision_zones(pv: PlayerView) -> list[int]:
    """The zones (indexes of `pv.zones()`) the decision is about, the most closely first: those
    its options' cards lie in, and those holding a card its prompt names (where the card of
    the question comes from), then those whose label's words its prompt says (where it goes:
    "Which end of the red row?" is about "row red" above the other rows); a zone
    of a player's ("hand P2") so only where the prompt names the player too."""
    decision = pv.decision or {}
    prompt = str(decision.get("prompt", ""))
    said = _words(prompt)
    offered = {c["id"] for c in pv.option_cards() if c is not None and "id" in c}
    ranks: dict[int, int] = {}
    for i, z in enumerate(pv.zones()):
        if not z["display"]:
            continue
        named = any(face_shown(c) and len(c["label"]) > 2 and c["label"] in prompt for c in z["cards"])
        rank = 2 * (named or any(c.get("id") in offered for c in z["cards"]))
        words = _words(z["label"]) - _PLAIN_WORDS
        seats = {w for w in words if re.fullmatch(r"p\d+", w)}
        if seats <= said:  # another player's zone ("hand P2") only where the prompt names them
            rank += len({w for w in words - seats if len(w) > 2} & said)
        if rank:
            ranks[i] = rank
    return sorted(ranks, key=lambda i: -ranks[i])


def table_blocks(pv: PlayerView, width: int | None, everything: bool = False,
                 skip: frozenset[str] = frozenset(), first: list[int] = ()) -> list[list[Line]]:
    """The rest of the table in blocks that are shown whole: each board drawn (but those in
    `skip`, shown already), then the zones and counters that are not the viewer's own, the
    zones `first` (indexes of `pv.zones()`: those the decision is about) before the others.
    Empty zones and counters only with `everything` (the `t` command), since they say little
    and the screen is small."""
    blocks: list[list[Line]] = []
    zones = pv.zones()
    for i in first:
        z = zones[i]
        if z["display"] and not z["mine"] and z["cards"]:
            blocks.append(entry(z["label"], zone_text(z), width))
    for name, art in pv.boards().items():
        if name not in skip:
            blocks.append(board_block(name, art, width))
    for i, z in enumerate(zones):
        if i not in first and z["display"] and (everything or not z["mine"]) and (everything or z["cards"]):
            blocks.append(entry(z["label"], zone_text(z), width))
    named = pv.counter_labels()
    for name, value in pv.counters().items():
        text = counter_text(value)
        if everything or (text.strip() and text != "-"):
            blocks.append(entry(named[name], text, width))
    return blocks


def fitted(blocks: list[list[Line]], room: int) -> list[Line]:
    """The table's blocks in `room` lines: all of them, or the whole blocks that fit in their
    order and a note of the rest (nothing where there is no room)."""
    table = [line for block in blocks for line in block]
    if len(table) > room:
        table = []
        for block in blocks:
            if len(table) + len(block) < room:
                table += block
        if room > 0:
            table.append(Line("  ... more of the table: type t", "dim"))
    return table


def option_order(pv: PlayerView) -> list[int]:
    """The options' indexes in the order they are shown: options that are all cards the viewer
    sees on the table in the order the table shows them (a hand as it is shown, sorted where
    its order means nothing); any others as the rules list them."""
    cards = pv.option_cards()
    at = {c["id"]: (zi, ci) for zi, z in enumerate(pv.zones()) for ci, c in enumerate(z["cards"]) if "id" in c}
    if cards and all(c is not None and c.get("id") in at for c in cards):
        return sorted(range(len(cards)), key=lambda i: at[cards[i]["id"]])
    return list(range(pv.option_count))


def option_boards(drawn: dict[str, str], routes: list[list[dict[str, Any]]]) -> dict[str, list[int]]:
    """The boards drawn (`drawn`, PlayerView.boards()) that the options' places lie on, each
    with the lines of its art they are drawn on: a decision among places shows their board."""
    found: dict[str, list[int]] = {}
    for route in routes:
        for place in route:
            if place["board"] in drawn:
                found.setdefault(place["board"], []).append(place["line"])
    return found


def board_part(name: str, art: str, lines: list[int], width: int | None, room: int | None) -> list[Line]:
    """Board `name` as it fits `room` lines (None: no limit): whole, with its legend; else the
    lines its options lie on and one either side; else those lines alone; else nothing (`t`
    shows it)."""
    rows = art.split("\n")
    drawn = [r for r in rows if not r.startswith("  legend: ")]
    whole = board_block(name, art, width)
    if room is None or len(whole) <= room:
        return whole
    for margin in (1, 0):
        low, high = max(min(lines) - margin, 0), min(max(lines) + margin, len(drawn) - 1)
        part = [Line(f"  [{name}] (the part your options are on; t: all of it)", "bold")] + \
            [Line(t) for a in drawn[low:high + 1] for t in wrap(a, width, 4)]
        if len(part) <= room:
            return part
    return []


def route_labels(boards: dict[str, str], routes: list[list[dict[str, Any]]], order: list[int],
                 labels: list[str]) -> list[str]:
    """The options' labels (in `order`), a route (an option that is a list of places) named as
    its board (in `boards`, PlayerView.boards()) shows it: the ids of its places joined by ">"
    ("1>2>BA"), and so every place option of that decision. Only where some option is a route
    and the board drawn shows every id."""
    drawn = {name: art.split("\n") for name, art in boards.items()}
    places = [p for route in routes for p in route]
    if not any(len(route) > 1 for route in routes) or not all(
            p["board"] in drawn and p["id"] in drawn[p["board"]][p["line"]] for p in places):
        return labels
    return [">".join(p["id"] for p in routes[i]) if routes[i] else text for i, text in zip(order, labels)]


def option_lines(labels: list[str], width: int | None, amounts: tuple[int, int] | None = None) -> list[Line]:
    """The options numbered from 1, in as many columns as fit `width` (one a line without); for
    a question of an amount, the range to type a number from."""
    if amounts is not None:
        return [Line(f"  type a number from {amounts[0]} to {amounts[1]}")]
    cells = [f"{i:>3}. {text}" for i, text in enumerate(labels, 1)]
    if width is None or not cells:
        return [Line(c) for c in cells]
    cell_width = max(len(c) for c in cells) + 2
    columns = max(1, min(len(cells), width // cell_width))
    if columns == 1:
        return [Line(t) for c in cells for t in wrap(c, width, 5)]
    rows = -(-len(cells) // columns)
    return [Line("".join(cells[r + c * rows].ljust(cell_width) for c in range(columns)
                         if r + c * rows < len(cells)).rstrip()) for r in range(rows)]


def decision_screen(pv: PlayerView, news: list[str], labels: list[str], width: int | None,
                    height: int | None, notice: list[str] = ()) -> tuple[list[Line], list[Line]]:
    """The screen of a decision as (what does not fit on it, to be paged first; the screen).
    The screen has a title, the table as far as it fits, what happened since the viewer last
    decided, their own hand and position, the options and any `notice` (what came of a
    request); the prompt goes on the line after it. The news that does not fit is paged first,
    and so, when the options leave no room, is all of it, and then the top of the screen
    itself. With no `height` (not a terminal), all of it on the screen."""
    decision = pv.decision
    art = pv.boards()
    routes = pv.option_routes()
    on = option_boards(art, routes)
    labels = route_labels(art, routes, option_order(pv), labels)
    title = f"== {pv.game_name} ==  you are {pv.you}"
    hint = "  (t: the whole table, ?: help)"
    title = [Line(title + hint if width is None or len(title + hint) <= width else title, "bold")]
    mine = heading("yours") + own_lines(pv, width) + heading(decision["prompt"], width) + \
        together_lines(decision, pv.you, width) + option_lines(labels, width, pv.amounts()) + \
        [Line(t, "bold yellow") for text in notice for t in wrap(text, width, 2)]
    items = log_items(news, width)
    news_head = news_heading(news, width)
    blocks = table_blocks(pv, width, skip=frozenset(on), first=decision_zones(pv))
    if height is None:
        table = [line for name, lines in on.items() for line in board_part(name, art[name], lines, width, None)]
        table += [line for block in blocks for line in block]
        return [], title + table + news_head + [line for item in items for line in item] + mine
    room = height - (len(title) + len(news_head) + len(mine) + 1)  # the prompt's line too
    boards: list[Line] = []  # the boards the options lie on come first, as far as they fit
    for name, lines in on.items():
        boards += board_part(name, art[name], lines, width, max(room - len(boards), 0))
    room -= len(boards)
    if room < 0:  # the options fill the screen: news first, then the screen as far as it fits
        before = (heading(f"since your last decision ({len(news)} lines)", width) if news else news_head) + \
            [line for item in items for line in item]
        screen = title + mine
        cut = max(len(screen) + 1 - height, 0)
        return before + screen[:cut], screen[cut:]
    shown = 0  # the last news items that fit, whole; the earlier ones are paged first
    while shown < len(items) and sum(len(item) for item in items[-shown - 1:]) <= room:
        shown += 1
    before = [line for item in items[:len(items) - shown] for line in item]
    news_lines = [line for item in items[len(items) - shown:] for line in item]
    room -= len(news_lines)
    table = fitted(blocks, room)
    if before:
        before = heading(f"since your last decision ({len(news)} lines)", width) + before
        news_head = heading(f"since your last decision (the last {shown} of {len(news)} lines)", width)
    return before, title + boards + table + news_head + news_lines + mine


def together_lines(decision: dict[str, Any], you: str | None, width: int | None) -> list[Line]:
    """For a decision of a simultaneous step (one with `waiting`), who else has yet to choose,
    and that nobody is told another's choice before all have chosen; else nothing."""
    if "waiting" not in decision:
        return []
    others = [p for p in decision["waiting"] if p != you]
    text = ("Everyone chooses at once" + (f"; waiting for {', '.join(others)} too" if others else
                                          "; the others have chosen") +
            ": nobody is told another's choice before all have chosen.")
    return [Line(t, "dim") for t in wrap(text, width, 2)]


def card_lines(card: dict[str, Any], width: int | None) -> list[Line]:
    """A card as `card_view` shows it to the viewer: its label, the words printed on it (what it
    does, wrapped), then every property it shows (a face-down card: only those on its back)."""
    title = card["label"] if face_shown(card) else "a face-down card"
    props = {k: v for k, v in card.items() if k not in ("id", "label", "hidden", "text")}
    lines = [Line(title, "bold")]
    if card.get("text"):
        lines += [Line(t) for t in wrap(f"  {card['text']}", width, 2)]
    for name, value in props.items():
        lines += entry(name.replace("_", " "), counter_text(value), width)
    return lines + ([] if props else [Line("  (nothing more is printed on it)")])


def shown_cards(pv: PlayerView) -> list[dict[str, Any]]:
    """The cards whose faces the viewer can see: on the table, or among their options."""
    cards = [c for z in pv.zones() for c in z["cards"] if face_shown(c)]
    return cards + [c for c in pv.option_cards() if c is not None and face_shown(c)]


def named_cards(pv: PlayerView, name: str) -> dict[str, dict[str, Any]]:
    """The cards the viewer can see (`shown_cards`) called `name`, or, when none is, whose
    label holds it; by label (copies of a card read alike), as typed (`typed`: any case, and
    "inf" for "∞")."""
    cards = shown_cards(pv)
    wanted = typed(name)
    for match in (lambda label: label == wanted, lambda label: wanted in label):
        found = {c["label"]: c for c in cards if match(typed(c["label"]))}
        if found:
            return found
    return {}

"""What one player may know: the single door through which hidden information passes.

`view(game, player)` builds everything a player is shown (zones, counters, log, their
decision); agents, the terminal and saved logs use it and nothing else. Hidden cards
appear without identity, only with the properties printed on their back, and so do the cards
a text names (core/text.py). What a view gives is plain data: no card, and no path to the game.

A view is an agent's unless made for a person (`person=True`, `PlayerView.for_person()`): an
agent is told all its player was shown, as it is its information set; a person's screen does
not show a card concealed from them (`conceal`, `Table.unshown`) that only their memory would
show, anywhere in the view (zones, counters, decision, log), as a ruleset that makes
remembering part of the game wants. So a renderer given a person's view needs no rule of its own.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..core.board import HEX_DIRECTIONS, Board, Place, drawn_line, render_board
from ..core.errors import EffectError, IllegalMove
from ..core.table import OWNER, Card, Player, Table, Zone
from ..core.text import Text, card_zone_words, face_down, held_back, held_by, number_text
from ..core.values import Lambda
from ..lang.builtins import describe
from ..lang.compiler import evaluate
from . import belief, why
from .clock import check as check_clock
from .game import Decision, Game, LogEntry


def sees(table: Table | None, card: Card, viewer: int | None, person: bool = False) -> bool:
    """Is the card's face shown to `viewer` (None: the referee)? To a `person`, not a card
    concealed from them that only their memory shows (`Table.unshown`)."""
    if viewer is None:
        return True
    return table is not None and table.can_see(card, viewer) and not (person and table.unshown(card, viewer))


def card_view(table: Table, card: Card, viewer: int | None, person: bool = False) -> dict[str, Any]:
    """A card as `viewer` reads it: its face (id, label, properties, and its `text` when it has
    one), or, when they may not see it, only its back: a hidden card's text would tell it. A
    hidden card in an ordered zone of theirs is labelled by its place there (`held_back`)."""
    if sees(table, card, viewer, person):
        if card.text:
            return {"id": card.id, "label": card.label, **card.props, "text": card.text}
        return {"id": card.id, "label": card.label, **card.props}
    if held_by(table.where[card.index], viewer):
        return {"hidden": True, "label": held_back(table, card, viewer), **card.back}
    return {"hidden": True, **card.back}


def _display_order(card: dict[str, Any]) -> tuple:
    """Natural order of labels ('B 2' before 'B 10'); face-down cards last, by their backs only."""
    if card.get("hidden"):
        return (1, [], sorted(map(str, card.values())))
    parts = re.split(r"(\d+)", card["label"])
    return (0, [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts], [])


def label(value: Any, viewer: int | None, names: dict[int, str] | None = None,
          table: Table | None = None, person: bool = False, places: bool = False) -> str:
    """How a value reads for `viewer` (None: the referee; a `person`, as `sees` says): hidden
    cards stay hidden; with `places`, one in an ordered zone of theirs reads as its place there
    ("your card 2", `held_back`), for what tells of the table now (options, a prompt), not for
    what was told before (the log). A player's reading of a card needs the `table` it is on."""
    if isinstance(value, Card):
        if sees(table, value, viewer, person):
            return value.label
        return held_back(table, value, viewer) if places and table is not None else face_down(value)
    if isinstance(value, Text):
        if places and table is not None:
            return value.reads(lambda card: sees(table, card, viewer, person),
                               lambda card: held_back(table, card, viewer))
        return value.reads(lambda card: sees(table, card, viewer, person))
    if isinstance(value, Player):
        return names.get(int(value), str(value)) if names else str(value)
    if isinstance(value, Place):
        return value.label
    if isinstance(value, Zone):
        if value.spec.per == "card":
            before, after = card_zone_words(value.spec.label)
            return before + label(value.key, viewer, names, table, person) + after
        return value.label
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(label(v, viewer, names, table, person, places) for v in value)
    if value is None:
        return "nothing"
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, Board):
        return value.name
    if isinstance(value, Lambda):
        return "a function"
    return str(value)


def log_line(entry: LogEntry, viewer: int | None, names: dict[int, str] | None = None,
             table: Table | None = None, person: bool = False) -> str:
    """A log line as `viewer` reads it: a card (or its label or name in a text) shows as its
    back to a player who could not see it when the line was logged, and to a `person` from whom
    it is concealed now (`Table.unshown`: the log must not remind them of it either); other
    values read as `label` does, on `table`. A line not the viewer's to read at all
    (`LogEntry.kept_from`: `log_to` others) reads as nothing: callers leave it out."""
    if viewer is not None and entry.kept_from(viewer):
        return ""
    out = []
    for value, seen_by in entry.parts:
        t = type(value)
        if t is Card or t is Text:
            if viewer is not None and seen_by is not None and viewer not in seen_by:
                out.append(face_down(value) if t is Card else value.reads(lambda _: False))
            elif person and table is not None:
                if t is Card:
                    out.append(face_down(value) if table.unshown(value, viewer) else value.label)
                else:
                    out.append(value.reads(lambda card: not table.unshown(card, viewer)))
            else:
                out.append(value.label if t is Card else value)
        else:
            out.append(label(value, viewer, names, table, person))
    return "".join(out)


def plain(value: Any, viewer: int | None, names: dict[int, str] | None, table: Table,
          person: bool = False, inside: frozenset[int] = frozenset()) -> Any:
    """A value of the game as plain data for `viewer` (a `person`, as `sees` says): numbers,
    strings, players, lists and tables of them. Cards, zones and places become their labels (a
    hidden card its back, as in `label`); a table keyed by cards keeps only the entries of cards
    the viewer may see, as a counter per card does. Nothing in it is the game's own, so it
    never changes."""
    t = type(value)
    if t is int or t is float or t is str or t is bool or t is Player or value is None:
        return value
    if id(value) in inside:
        return "..."  # a list that holds itself
    inner = inside | {id(value)}
    if isinstance(value, (list, tuple)):
        return [plain(v, viewer, names, table, person, inner) for v in value]
    if isinstance(value, Mapping):
        return {label(k, viewer, names, table, person): plain(v, viewer, names, table, person, inner)
                for k, v in value.items() if type(k) is not Card or sees(table, k, viewer, person)}
    if t is Lambda:
        return "a function"
    if t is Board:
        return value.name
    return label(value, viewer, names, table, person)


class PlayerView:
    """Everything one player may know now; parts are computed when first asked for.

    Built only by `view()`. Agents that need little (a random agent reads the number of
    options) pay for little; `as_dict()` gives all of it as plain data.

    An agent is given a view, so the view must not lead to the game. Its game is in a slot
    without a name: the slot's descriptor is taken out of the class (`_GAME`, below), so no
    attribute, property or method result of a view is the game, its table or its generator;
    only this module's functions read the slot. A registry keyed by the view would do as much
    at twice the cost a decision (a store, a lookup, a __del__), and a closure would not do: a
    method's `__closure__` is an attribute away. Code that goes out of its way (gc, this
    module's globals) can still find the game; Python hides nothing from that. `world(seed)`
    reads the slot too, so it costs what it did: one determinized copy."""

    __slots__ = ("_game", "player", "person", "_names", "_decision")
    player: int | None
    person: bool  # a person's screen (see the module's docstring), else an agent's view
    _names: dict[int, str] | None
    _decision: dict[str, Any] | None | bool  # False until worked out

    def _label(self, value: Any) -> str:
        return label(value, self.player, self._names, _game_of(self).table, self.person)

    def for_person(self) -> PlayerView:
        """This view as a person's screen shows it: what a person must remember is not shown.
        What shows a person a view it was given as an agent (the terminal) asks for this first."""
        return view(_game_of(self), self.player, self._names, person=True)

    @property
    def you(self) -> str | None:
        return label(Player(self.player), None, self._names) if self.player else None  # 0: no seat

    @property
    def game_name(self) -> str:
        return _game_of(self).rules.name

    @property
    def goal(self) -> str:
        """How to win, for people: as the ruleset says it (`game: goal:`, else its scoring's
        description), else what the score counts (`scoring: breakdown:`)."""
        rules = _game_of(self).rules
        if rules.goal:
            return rules.goal
        parts = "; ".join(f"{part}: {' '.join(text.split())}" for part, text in rules.breakdown_descriptions.items())
        return "The highest score wins" + (f". It counts {parts}." if parts else ".")

    @property
    def option_count(self) -> int:
        """How many options this player has now (0 when another player decides)."""
        mine = _mine(self)
        return len(mine.options) if mine is not None else 0

    def amounts(self) -> tuple[int, int] | None:
        """(low, high) when this player's options are the whole numbers from low to high in order
        (a `choose_amount` question), which a person answers with the number itself; else None."""
        d = _mine(self)
        if d is None or len(d.options) < 2 or any(type(o) is not int for o in d.options):
            return None
        low = d.options[0]
        return (low, d.options[-1]) if d.options == list(range(low, low + len(d.options))) else None

    def why(self, what: str) -> list[str]:
        """Why nothing this player may name `what` (a card they see, an option's words) is among
        their options, in the words of the rule that leaves it out (game/why.py), as lines; only
        what this player may see is said (as a person's screen shows it). Never changes the game."""
        game = _game_of(self)
        if self.player is None:
            return ["why is asked by a player."]
        table, player = game.table, self.player

        def read(value: Any) -> str | None:
            return None if why.reaches_hidden(value, unseen, table) else label(value, player, self._names, table, True)

        def unseen(card: Card) -> bool:
            return not sees(table, card, player, True)
        return why.explain(game, player, what, read, lambda v: why.reaches_hidden(v, unseen, table))

    def world(self, seed: int, log: bool = True) -> Game:
        """A game this player cannot tell from the real one, to think ahead in: the cards they
        have not seen dealt so as to agree with everything they observed (game/belief.py; else
        at random, `Game.determinize`), one of the deals found picked by `seed`, with chance of
        its own. The way search bots look ahead without reading what they may not know. It
        shares nothing that changes with the real game, and has no arrange hook (which could
        hold the game). Without `log` it has no past log (a search reads none, and it is faster
        to make)."""
        if self.player is None:
            raise IllegalMove("world() is for a player's view; the referee has the game itself")
        check_clock()  # a search deals a world for each line it looks at: its time limit is checked here
        world = belief.world(_game_of(self), self.player, seed, log, observed)
        world.keep_log = world.rewind = False
        world.arrange = None
        world.options, world.players = dict(world.options), list(world.players)
        return world

    @property
    def decision(self) -> dict[str, Any] | None:
        """The pending decision: who decides; prompt and options only for the decider. In a
        simultaneous step (game/together.py), each of its players who has yet to answer is a
        decider and sees their own decision, and everyone sees who has yet to answer
        (`waiting`), never another's answer nor another's options."""
        if self._decision is False:
            game = _game_of(self)
            d = game.pending
            if d is None:
                self._decision = None
            else:
                mine = _mine(self)
                self._decision = {"player": self._label(mine.player if mine is not None else d.player)}
                if game.together is not None:
                    self._decision["waiting"] = [self._label(p) for p in game.together.waiting()]
                if mine is not None:
                    d = mine
                    table = game.table

                    def at(value: Any) -> str:  # a card of theirs they may not see: by its place
                        return label(value, self.player, self._names, table, self.person, True)
                    self._decision["prompt"] = "".join(p if type(p) is str else at(p) for p in d.prompt)
                    self._decision["options"] = [at(o) for o in d.options]
        return self._decision  # type: ignore[return-value]

    def option_cards(self) -> list[dict[str, Any] | None]:
        """For each option of this player's decision, the card it is (as `card_view` shows it
        to them), or None for an option that is no card: what a person may read of an option."""
        game = _game_of(self)
        d = _mine(self)
        if d is None:
            return []
        return [card_view(game.table, o, self.player, self.person) if type(o) is Card else None for o in d.options]

    def option_places(self) -> list[dict[str, str] | None]:
        """For each option of this player's decision, the place it stands for ({"board", "id"}):
        the option itself if it is a place, the last item of a list that ends with one (a route
        ends where it goes); None for another option. What a drawn board lets a person click."""
        d = _mine(self)
        if d is None:
            return []
        places = []
        for o in d.options:
            if type(o) in (list, tuple) and o:
                o = o[-1]
            places.append({"board": o.board, "id": o.id} if type(o) is Place else None)
        return places

    def previews(self) -> list[dict[str, Any] | None]:
        """For each option of this player's decision, what the ruleset's `previews:` say of it
        before it is taken ({"text", "warn"}), or None: the first entry whose prompt text the
        decision's prompt holds and whose `when` holds for the option. Like a board's draw rules,
        they should read only what the player may know; a text reads as the log reads it."""
        d = _mine(self)
        game = _game_of(self)
        if d is None or not game.rules.page.previews:
            return []
        prompt = (self.decision or {}).get("prompt", "")
        applying = [pv for pv in game.rules.page.previews if pv.prompt in prompt]
        shown: list[dict[str, Any] | None] = []
        for o in d.options:
            env = {"option": o, "player": d.player}
            entry = next((pv for pv in applying if pv.when is None or evaluate(pv.when, game, env)), None)
            said = evaluate(entry.says, game, env) if entry is not None else None
            shown.append(None if said is None or said == "" else {"text": self._label(said), "warn": entry.warn})
        return shown

    def option_routes(self) -> list[list[dict[str, Any]]]:
        """For each option of this player's decision, the places of a board it is or holds, in
        order (a place; a route, a list of places), each as {"board", "id", "line"}, `line` the
        line of the drawn board it is on (`render_board`); [] for another option. What a screen
        needs to show the part of a board its options lie on, and to name them as it does."""
        d = _mine(self)
        if d is None:
            return []
        boards = _game_of(self).rules.boards
        routes = []
        for o in d.options:
            items = o if type(o) in (list, tuple) else [o]
            routes.append([{"board": p.board, "id": p.id, "line": drawn_line(boards[p.board], p)}
                           for p in items if type(p) is Place] if all(type(p) is Place for p in items) else [])
        return routes

    def zones(self) -> list[dict[str, Any]]:
        """Every zone with what the player may see of it; empty zones of a card or of a place
        (there are many, and an empty one says nothing) are left out. Within a family of zones
        per card, the zones of cards the player may not see come after the others, in the order
        of what is shown of them: their place in the family would tell which card they are of."""
        game = _game_of(self)
        rules, table = game.rules, game.table
        shown: list[dict[str, Any]] = []
        unseen: list[dict[str, Any]] = []  # zones of hidden cards, in the current family
        for z in table.all_zones():
            if unseen and z.spec is not unseen[-1]["spec"]:
                shown += _in_shown_order(unseen)
            held = table.contents[z.index]
            per = z.spec.per
            board = next((p for p in per if p in rules.boards), None) if type(per) is tuple else (
                per if per in rules.boards else None)
            if (per == "card" or board is not None) and not held:
                continue
            key = z.key if type(z.key) is not tuple else " ".join(self._label(k) for k in z.key)
            entry = {"name": z.name, "key": self._label(key) if key is not None else None,
                     "mine": type(z.key) is Player and z.key == self.player,
                     "label": self._label(z), "display": z.spec.display, "count": len(held),
                     "cards": self._cards(table, z), "board": board}
            if z.holder is not None and not sees(table, z.holder, self.player, self.person):
                unseen.append({**entry, "spec": z.spec})
            else:
                shown.append(entry)
        return shown + _in_shown_order(unseen)

    def _cards(self, table: Table, zone: Zone) -> list[dict[str, Any]]:
        cards = [card_view(table, c, self.player, self.person) for c in table.contents[zone.index]]
        if not zone.spec.ordered:
            # The order of an unordered zone carries no information, so none may leak through it.
            cards.sort(key=_display_order)
        return cards

    def counters(self) -> dict[str, Any]:
        """Counters on display, as plain data (`plain`): a card in a counter's value shows as
        the player may see it; a per-card counter shows only the visible cards' set values, a
        counter of `visibility: owner` only the viewer's own value (the referee's view: all).
        Lists and tables are new: the view does not change as the game goes on."""
        game = _game_of(self)
        table, player, names, person = game.table, self.player, self._names, self.person
        shown: dict[str, Any] = {}
        for name, value in table.counters.items():
            spec = game.rules.counters[name]
            if not spec.display:
                continue
            if spec.per == "card":
                shown[name] = {self._label(c): plain(v, player, names, table, person) for c, v in value.items()
                               if v != spec.initial and sees(table, c, player, person)}
            elif spec.visibility == OWNER and player is not None:  # each player's own value, to them alone
                shown[name] = {self._label(p): plain(v, player, names, table, person) for p, v in value.items()
                               if p == player}
            else:
                shown[name] = plain(value, player, names, table, person)
        return shown

    def log(self, last: int | None = None) -> list[str]:
        game = _game_of(self)
        entries = game.log if last is None else game.log[-last:] if last else []
        return [log_line(e, self.player, self._names, game.table, self.person) for e in entries
                if self.player is None or not e.kept_from(self.player)]

    def forced(self) -> list[tuple[int, str]]:
        """This player's choices that the rules made for them, each option being the only one,
        as (the number of log lines before it, a line telling it)."""
        game = _game_of(self)
        return [(f.at, f"Your only option: {self._label(f.value)} ("
                       + "".join(p if type(p) is str else self._label(p) for p in f.prompt) + ")")
                for f in game.forced if f.player == self.player]

    def boards(self) -> dict[str, str]:
        """Each board with a `display` rule, drawn as text (displays must read public facts only)."""
        game = _game_of(self)
        return {name: render_board(game.rules.boards[name],
                                 lambda place, show=show: self._label(evaluate(show, game, {"place": place})))
                for name, show in game.rules.board_display.items()}

    def drawings(self) -> dict[str, dict[str, Any]]:
        """Every board as data to draw a picture from: its layout, its places (id, label, hex
        coordinates or x, y properties) with what its `draw:` rules say of each (the text defaults
        to the display's), a graph's connections, and the board's paths. The rules should read
        public facts only, as displays do; what they give is checked and made plain (a card reads
        as `label` shows it to this player), and a value of the wrong kind is an error at its rule."""
        game = _game_of(self)
        rules = game.rules
        drawn = {}
        for name, board in rules.boards.items():
            draw = rules.board_draw.get(name, {})
            show = draw.get("text", (rules.board_display.get(name), None))[0]
            hexes = board.layout == "hex"
            places = []
            for p in board.places:
                at = {"place": p}
                entry: dict[str, Any] = {"id": p.id, "label": p.label}
                if hexes:
                    entry["q"], entry["r"] = p.q, p.r
                elif _is_number(p.props.get("x")) and _is_number(p.props.get("y")):
                    entry["x"], entry["y"] = p.props["x"], p.props["y"]
                text = evaluate(show, game, at) if show is not None else None
                entry["text"] = "" if text is None else self._label(text)
                entry["fill"] = _colour(_drawn(draw, "fill", game, at), draw, name, "fill")
                entry["owner"] = self._owner(_drawn(draw, "owner", game, at), draw, name, "owner")
                entry["tokens"] = [_colour(t, draw, name, "tokens")
                                   for t in _list(_drawn(draw, "tokens", game, at), draw, name, "tokens")]
                badge = _drawn(draw, "badge", game, at)
                entry["badge"] = None if badge is None or badge == "" else self._label(badge)
                places.append(entry)
            order = {p.id: i for i, p in enumerate(board.places)}
            edges = [[p.id, n.id] for p in board.places for n in p.neighbours  # each once; not touching hexes
                     if order[n.id] > order[p.id] and not (hexes and (n.q - p.q, n.r - p.r) in HEX_DIRECTIONS)]
            paths = _list(_drawn(draw, "paths", game, {}), draw, name, "paths")
            drawn[name] = {"layout": board.layout, "legend": board.legend, "places": places, "edges": edges,
                           "paths": [self._path(path, draw, board) for path in paths]}
        return drawn

    def _owner(self, value: Any, draw: dict[str, tuple], board: str, key: str) -> int | None:
        """A player's number, from a player or a seat number (none, 0: nobody)."""
        if value is None or (type(value) is int and value == 0):
            return None
        if isinstance(value, int) and type(value) is not bool and 1 <= value <= len(_game_of(self).players):
            return int(value)
        raise _bad(draw, board, key, value, "a player, a seat number, 0 or none")

    def _path(self, value: Any, draw: dict[str, tuple], board: Board) -> dict[str, Any]:
        """One of the board's paths, [player, places] or [player, places, finished], as data."""
        if type(value) not in (list, tuple) or len(value) not in (2, 3) or type(value[1]) not in (list, tuple) \
                or any(type(p) is not Place or p.board != board.name for p in value[1]) \
                or (len(value) == 3 and type(value[2]) is not bool):
            raise _bad(draw, board.name, "paths", value,
                       f"a list of [player, places of {board.name}] or [player, places, finished]")
        return {"owner": self._owner(value[0], draw, board.name, "paths"), "places": [p.id for p in value[1]],
                "finished": len(value) < 3 or value[2]}

    def counter_labels(self) -> dict[str, str]:
        """How screens name each counter of `counters` (its `label`)."""
        return {name: spec.label for name, spec in _game_of(self).rules.counters.items() if spec.display}

    def as_dict(self, log_last: int | None = None) -> dict[str, Any]:
        game = _game_of(self)
        return {
            "game": game.rules.name,
            "you": self.you,
            "players": [label(p, None, self._names) for p in game.players],
            "boards": self.boards(),
            "zones": self.zones(),
            "counters": self.counters(),
            "counter_labels": self.counter_labels(),
            "log": self.log(log_last),
            "decision": self.decision,
            "over": game.over,
            "end_reason": game.end_reason,
        }


_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}")  # a CSS colour name or hex code, nothing more


def _drawn(draw: dict[str, tuple], key: str, game: Game, env: dict[str, Any]) -> Any:
    """The value of a board's draw rule `key` (none where the board has no such rule)."""
    return evaluate(draw[key][0], game, env) if key in draw else None


def _list(value: Any, draw: dict[str, tuple], board: str, key: str) -> list | tuple:
    if value is None:
        return []
    if type(value) not in (list, tuple):
        raise _bad(draw, board, key, value, "a list")
    return value


def _colour(value: Any, draw: dict[str, tuple], board: str, key: str) -> str | None:
    """A colour a draw rule gives: a CSS name or #hex code; none or "": no colour."""
    if value is None or value == "":
        return None
    if type(value) is not str or not _COLOUR.fullmatch(value):
        raise _bad(draw, board, key, value, "a colour (a CSS name or #hex code)")
    return value


def _bad(draw: dict[str, tuple], board: str, key: str, value: Any, wanted: str) -> EffectError:
    """The error of a draw rule's value of the wrong kind, at the rule. It names only the kind
    of value (never a card nor a text, which could be what the viewer may not see)."""
    kind = "a card" if type(value) is Card else "a text" if isinstance(value, str) else describe(value)
    return EffectError(f"draw {key} of board {board} gives {kind}, not {wanted}", draw[key][1],
                       f"draw {key} of board {board}")


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


_GAME = PlayerView._game  # the slot's descriptor, out of the class: a view's game is read here only
del PlayerView._game
_game_of, _set_game = _GAME.__get__, _GAME.__set__
_new = object.__new__


def _mine(pv: PlayerView) -> Decision | None:
    """The viewer's decision now (the referee's: the pending one): the pending decision if it
    is theirs, else theirs in the open simultaneous step if they have yet to answer it. A
    function, not a method: what a view's methods give must hold no card."""
    game = _game_of(pv)
    return game.pending if pv.player is None else game.decision_of(pv.player)


def _in_shown_order(zones: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Zones of cards a player may not see, in an order that depends only on what is shown of
    them; emptied (the list is the caller's, for the next family)."""
    for z in zones:
        del z["spec"]
    ordered = sorted(zones, key=repr)
    zones.clear()
    return ordered


def view(game: Game, player: int | None, names: dict[int, str] | None = None, person: bool = False) -> PlayerView:
    """What `player` may know now (None: the referee's full view; 0: no seat's, what is public to
    all), as an agent is told it or, for a `person`, as their screen shows it. The one way to
    look at a game. (Made without __init__: an agent gets a view every decision, and a call less
    shows.)"""
    pv = _new(PlayerView)
    _set_game(pv, game)
    pv.player, pv.person, pv._names, pv._decision = player, person, names, False
    return pv


def observed(game: Game, player: int, lines: int, forced: int, final: bool) -> list:
    """What `player` was told after the first `lines` log lines and `forced` forced choices of
    the game, and, when they decide (or at the `final` position), what they are shown: the
    observations game/belief.py compares, as plain data, one item each."""
    table = game.table
    items: list[Any] = [log_line(e, player, None, table) for e in game.log[lines:] if not e.kept_from(player)]
    pv = view(game, player)
    items += [("forced", pv._label(f.value), "".join(p if type(p) is str else pv._label(p) for p in f.prompt))
              for f in game.forced[forced:] if f.player == player]
    if final or game.pending is not None and game.decision_of(player) is not None:
        items.append((pv.decision, _table_seen(table, player), pv.counters(), game.over, game.end_reason))
    return items


def _table_seen(table: Table, player: int) -> tuple:
    """The cards of every zone as `player` sees them, as `PlayerView.zones` shows them (an
    unordered zone sorted, the zones of cards they do not see by what they hold), in short:
    a card they see by its face (not its number: which of identical copies is where is no
    observation), another by its back (`look`: what `card_view` shows of it)."""
    can_see, shown, unseen = table.can_see, [], {}
    for zone in table.all_zones():
        held = table.contents[zone.index]
        if not held:
            continue
        cards = tuple([(0, c.face) if can_see(c, player) else (1, c.look) for c in held])
        if not zone.spec.ordered:
            cards = tuple(sorted(cards))
        if zone.holder is not None and not can_see(zone.holder, player):
            unseen.setdefault(zone.name, []).append(cards)
        else:
            shown.append((zone.index, cards))
    return tuple(shown), tuple((name, tuple(sorted(held))) for name, held in unseen.items())


def counter_text(value: Any, top: bool = True) -> str:
    """A counter's plain value (`plain`) as the terminal shows it, in the words of the log:
    a list as its items with ", " between (an empty one "-", one inside a list in brackets), a
    table as "key: value" pairs (but those of an empty text, which say nothing), yes/no,
    "nothing", numbers plainly."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "nothing"
    if isinstance(value, float):
        return number_text(value)
    if isinstance(value, (list, tuple)):
        if not value:
            return "-"
        inner = ", ".join(counter_text(v, False) for v in value)
        return inner if top or len(value) < 2 else f"({inner})"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {counter_text(x, False)}" for k, x in value.items() if x != "")
    return str(value)


def face_shown(card: dict[str, Any]) -> bool:
    """Whether a person is shown a card of a view (`card_view`) by its face: the one test the
    terminal's screens make before they show a card's label or properties."""
    return not card.get("hidden")


FACE_DOWN_LISTED = 6  # face-down cards whose backs are listed one by one, in order; more are counted by back


def zone_text(zone: dict[str, Any]) -> str:
    """What a zone of `PlayerView.zones()` holds, as one line: the labels of the cards shown
    and of the viewer's own face-down cards labelled by their place ("your card 2"), then how
    many others are face down, with what their backs show where they show something ("3
    face-down (red seat, green seat, green seat)"; "9 face-down (5 yellow, 4 red)"); "-" when
    empty."""
    shown = [c.get("label") or "?" for c in zone["cards"] if face_shown(c) or "label" in c]
    backs = [back_text(c) for c in zone["cards"] if not face_shown(c) and "label" not in c]
    parts = shown + ([f"{len(backs)} face-down{_backs_told(backs)}"] if backs else [])
    return ", ".join(parts) if parts else "-"


def back_text(card: dict[str, Any]) -> str:
    """What the back of a face-down card of a view shows, as words (its back's values, the
    kind last, as the log names it: "red seat"); "" for a plain back."""
    words = [str(v) for k, v in card.items() if k not in ("hidden", "label", "kind")]
    return " ".join(words + ([str(card["kind"]).replace("_", " ")] if "kind" in card else []))


def _backs_told(backs: list[str]) -> str:
    """The backs of face-down cards in brackets: one alike for all, each in order when they
    are few, else each back with how many show it; nothing when no back shows anything."""
    if not any(backs):
        return ""
    backs = [b or "plain" for b in backs]
    if len(set(backs)) == 1:
        return f" ({backs[0]})"
    if len(backs) <= FACE_DOWN_LISTED:
        return f" ({', '.join(backs)})"
    counted = {b: backs.count(b) for b in backs}
    return f" ({', '.join(f'{n} {b}' for b, n in counted.items())})"


def render(pv: PlayerView, log_lines: int = 8) -> str:
    """A view as text for the terminal: a person's view (`for_person`) for a person to read."""
    v = pv.as_dict(log_last=log_lines)
    lines = [f"== {v['game']} ==" + (f"  (you are {v['you']})" if v["you"] else "")]
    for name, art in v["boards"].items():
        lines.append(f"  [{name}]")
        lines.append(art)
    for z in v["zones"]:
        if not z["display"]:
            continue
        lines.append(f"  {z['label']:<22} {zone_text(z)}")
    for name, value in v["counters"].items():
        lines.append(f"  {v['counter_labels'][name]:<22} {counter_text(value)}")
    if v["log"]:
        lines.append("  -- recent --")
        lines.extend(f"  {line}" for line in v["log"])
    return "\n".join(lines)

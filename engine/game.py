"""Running one game: a small state interface in the manner of OpenSpiel.

`Game` holds the table and a suspended program (setup, then flow). The program runs until a
player must choose; `legal_actions()` lists the options by index and `apply(i)` resumes it.
All randomness comes from one `random.Random(seed)`, so ruleset + options + seed + the
decisions taken reproduce a game exactly; a move that fails is undone by replaying them.
"""
from __future__ import annotations

import copy
import hashlib
import random
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from .errors import EffectError, IllegalMove, Location
from .lang.compiler import EndGame, Return
from .ruleset import Ruleset
from .table import Card, Player, Table, Zone, can_see

STEP_BUDGET = 200_000


@dataclass
class Decision:
    """A point where `player` must pick one of `options`; the prompt is a list of parts."""

    player: Player
    options: list[Any]
    prompt: tuple


@dataclass
class LogEntry:
    """One line of the game log; each part is (value, players who may see it, or None for all)."""

    parts: list[tuple[Any, frozenset[int] | None]]


class Game:
    """One game of a ruleset, from setup to scores."""

    def __init__(self, ruleset: Ruleset, players: int, options: dict[str, Any] | None = None,
                 seed: int = 0, decisions: list[int] | None = None,
                 arrange: Callable[[Game], None] | None = None):
        """Set up a game and run it to its first decision, then replay `decisions`.

        `arrange`, for tests and puzzles, is called after setup and before the flow starts, to
        put the table into a chosen position (a game so arranged is not reproducible from a save)."""
        if players not in ruleset.players:
            raise IllegalMove(f"{ruleset.name} is for {', '.join(map(str, ruleset.players))} players, "
                              f"not {players}")
        self.rules = ruleset
        self.seed = seed
        self.options = dict(options) if options is not None else ruleset.resolve_options({}, players)
        self.players = [Player(i) for i in range(1, players + 1)]
        self.rng = random.Random(seed)
        self.table = self._build_table()
        self._by_entry: dict[int, list[Card]] = {}
        for card, d in zip(self.table.cards, ruleset.cards):
            self._by_entry.setdefault(d.entry, []).append(card)
        self._holding: dict[frozenset[int], list[Card]] = {}
        self.log: list[LogEntry] = []
        self.decisions: list[int] = []
        self.pending: Decision | None = None
        self.over = False
        self.steps = 0
        self._arrange = arrange
        self._program = self._run()
        self._advance(None)
        for index in decisions or []:
            self.apply(index)

    # ------------------------------------------------------------ building

    def _build_table(self) -> Table:
        rs = self.rules
        table = Table()
        table.cards = [Card(i + 1, d.kind, d.name, {"kind": d.kind, **d.props}, d.label, d.back)
                       for i, d in enumerate(rs.cards)]

        def keys(per: str) -> list:
            if per == "player":
                return self.players
            if per == "card":
                return table.cards
            if per in rs.boards:
                return rs.boards[per].places
            return rs.constants[per]
        for name, spec in rs.zones.items():
            if spec.per is None:
                table.zones[name] = Zone(spec, None, spec.label)
            else:
                table.zones[name] = {k: Zone(spec, k, f"{spec.label} {getattr(k, 'label', k)}")
                                     for k in keys(spec.per)}
        for name, spec in rs.counters.items():
            # Every counter gets its own copy of the initial value: nothing is shared.
            if spec.per is None:
                table.counters[name] = copy.deepcopy(spec.initial)
            else:
                table.counters[name] = {k: copy.deepcopy(spec.initial) for k in keys(spec.per)}
        for card, d in zip(table.cards, rs.cards):
            table.move(card, table.zones[d.zone])
        return table

    def _run(self) -> Iterator[Decision]:
        try:
            if self.rules.setup is not None:
                yield from self._top(self.rules.setup)
            if self._arrange is not None:
                self._arrange(self)
            yield from self._top(self.rules.flow)
        except EndGame:
            return

    def _top(self, program: Callable) -> Iterator[Decision]:
        """Run setup or flow; `return` ends that program only."""
        try:
            yield from program(self, {})
        except Return:
            return

    # ------------------------------------------------------------ the state interface

    @property
    def current_player(self) -> Player | None:
        return self.pending.player if self.pending else None

    def legal_actions(self) -> list[int]:
        """Indexes of the options of the pending decision (empty when the game is over)."""
        return list(range(len(self.pending.options))) if self.pending else []

    def apply(self, index: int) -> None:
        """Take option `index` of the pending decision. A refused move changes nothing."""
        if self.over or self.pending is None:
            raise IllegalMove("the game is over; no more decisions")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.pending.options):
            raise IllegalMove(f"option {index!r} is not legal here; choose 0 to {len(self.pending.options) - 1}")
        self.decisions.append(index)
        try:
            self._advance(index)
        except EffectError:
            self._restore(self.decisions[:-1])
            raise

    def _restore(self, decisions: list[int]) -> None:
        """Put the game back exactly as it was after `decisions`, by replaying them."""
        again = Game(self.rules, len(self.players), self.options, self.seed, decisions, self._arrange)
        self.__dict__.update(again.__dict__)

    def _advance(self, answer: int | None) -> None:
        self.steps = 0
        self.pending = None
        try:
            self.pending = next(self._program) if answer is None else self._program.send(answer)
        except StopIteration:
            self.over = True

    # ------------------------------------------------------------ services for compiled rules

    def step(self, location: Location, rule: str) -> None:
        self.steps += 1
        if self.steps > STEP_BUDGET:
            raise EffectError(f"more than {STEP_BUDGET} steps without a decision: a loop or trigger "
                              "that never ends?", location, rule)

    def decision(self, player: Any, options: list[Any], prompt: tuple) -> Decision:
        if not isinstance(player, int) or not 1 <= player <= len(self.players):
            raise EffectError(f"choose() needs a player, got {player!r}")
        return Decision(Player(player), options, prompt)

    def end(self) -> None:
        raise EndGame()

    def record(self, parts: tuple) -> None:
        """Log a line; each card in it keeps who could see it at this moment (lists are spelt out)."""
        flat: list[Any] = []
        for part in parts:
            if isinstance(part, (list, tuple)):
                for i, item in enumerate(part):
                    flat += [", "] * bool(i) + [item]
            else:
                flat.append(part)
        self.log.append(LogEntry([(p, self.who_sees(p) if isinstance(p, Card) else None) for p in flat]))

    def who_sees(self, card: Card) -> frozenset[int] | None:
        """The players who may see this card now; None means everyone."""
        seeing = frozenset(p for p in self.players if can_see(card, p))
        return None if len(seeing) == len(self.players) else seeing

    def holding(self, holders: frozenset[int]) -> list[Card]:
        """The cards that carry an ability (cards of the entries in `holders`), in card order."""
        cards = self._holding.get(holders)
        if cards is None:
            cards = self._holding[holders] = [c for e in sorted(holders) for c in self._by_entry.get(e, ())]
        return cards

    def call_function(self, name: str, args: list[Any]) -> Any:
        function = self.rules.functions[name]
        env = dict(zip(function.params, args))
        value = function.expr(self, env)
        for modifier in self.rules.modifiers.get(name, ()):
            for card in self.holding(modifier.holders):
                if modifier.while_in is not None and card.zone.name not in modifier.while_in:
                    continue
                inner = {**env, "value": value, "card": card, "owner": card.zone.owner}
                if modifier.condition is None or modifier.condition(self, inner):
                    value = modifier.value(self, inner)
        return value

    def call_procedure(self, name: str, args: list[Any]) -> Iterator[Decision]:
        procedure = self.rules.procedures[name]
        try:
            yield from procedure.body(self, dict(zip(procedure.params, args)))
        except Return as ret:
            return ret.value
        return None

    def fire(self, event: Any, args: tuple) -> Iterator[Decision]:
        for trigger in self.rules.triggers.get(event, ()):
            if len(args) != len(trigger.params):
                raise EffectError(f"event '{event}' was given {len(args)} argument(s) but its trigger "
                                  f"takes {len(trigger.params)} ({', '.join(trigger.params)})")
            env = dict(zip(trigger.params, args))
            sources: list[Card | None] = [None] if trigger.holders is None else [
                c for c in self.holding(trigger.holders)
                if trigger.while_in is None or c.zone.name in trigger.while_in]
            for card in sources:
                inner = env if card is None else {**env, "card": card, "owner": card.zone.owner}
                if trigger.condition is None or trigger.condition(self, inner):
                    try:
                        yield from trigger.body(self, inner)
                    except Return:
                        pass

    # ------------------------------------------------------------ results

    def scores(self) -> dict[Player, Any]:
        """Each player's score by the ruleset's scoring; with teams, a team's sum for each member."""
        own = {p: self.rules.score(self, {"player": p}) for p in self.players}
        teams = self.team_groups()
        if not teams:
            return own
        result = dict(own)
        for group in teams:
            total = sum(own[p] for p in self.players if p in group)
            for p in group:
                if p in result:
                    result[Player(p)] = total
        return result

    def team_groups(self) -> list[list[int]] | None:
        if self.rules.teams is None:
            return None
        when, groups = self.rules.teams
        return groups if when(self, {}) else None

    def winners(self) -> list[Player]:
        """The players with the best score (then tiebreak); tied players share the win."""
        scores = self.scores()
        tiebreak = self.rules.tiebreak

        def key(p: Player) -> tuple:
            return (scores[p], tiebreak(self, {"player": p}) if tiebreak else 0)
        best = max(key(p) for p in self.players)
        return [p for p in self.players if key(p) == best]

    def digest(self) -> str:
        """A fingerprint of the whole table, to check that a replay reproduces a game."""
        h = hashlib.sha256()
        for zone in self.table.all_zones():
            h.update(f"{zone.label}:{[c.id for c in zone.cards]};".encode())
        h.update(repr(sorted((k, repr(v)) for k, v in self.table.counters.items())).encode())
        h.update(repr(self.decisions).encode())
        return h.hexdigest()

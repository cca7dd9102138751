"""What each card is worth, from many games between bots: `engine cards`.

Three measures, all on the seeds of one run, so that the games they compare differ by the card
alone (common random numbers, as `compare` uses):

- use and outcome: in the run's ordinary games, how often each card is held, drawn, played
  (chosen by a seat) and comes up (lies face up where every player sees it); the win share and
  score of the players who played it against those who did not. Not a cause: good players
  may play a card because they are winning.
- restricted play (Jaffe et al., "Evaluating Competitive Game Balance with Restricted Play",
  AIIDE 2012): the same games with one seat (seat 1 in game 1, seat 2 in game 2...) barred from
  the card (its options that are the card leave its choices while another option is left),
  and again with it favouring the card (taking it whenever offered), against unrestricted
  seats. The card's strength is the restricted seat's win share favouring it minus barred
  from it, game by game, with a paired 95% interval.
- cards no seat ever chooses (events, which act on everyone): each seat's score in the games
  where the card came up, against the same games with the card taken out of the ruleset; or,
  brought into play (bring.py), each seat's score in a game arranged so that the card comes
  up, against the same game without it.

A card's name counts its copies: its row says how many, and restricted play's strength per
copy. Kinds marked `analysis: false` (markers, tokens) are left out. A run of a fixed number
of games uses Student's t intervals; a run with a `Plan` (sequential.py) plays rounds until
each card is known, with always-valid intervals.

The games are simulate's (run.py, workers.py): a `CardRun` is a run whose games are played by
the loop below, which watches the table or steers one seat. Only `engine cards` pays for it.
"""
from __future__ import annotations

import sys
import time
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from ..core.errors import EngineError, RulesetError, suggest
from ..core.table import Card
from ..core.text import typed
from ..game.game import Decision, Game
from ..game.view import view
from ..rules.ruleset import Ruleset, load_ruleset
from . import sequential
from .bring import Aside, Draws, home
from .progress import progress_display, status_display
from .run import MAX_DECISIONS, RunSpec
from .runfile import RunFile
from .sequential import Plan
from .simulate import Interrupted, win_share
from .stats import Z95, summary, t95

AS_IS, BARRED, FAVOURED, WITHOUT, BROUGHT = "as is", "barred", "favoured", "without", "brought in"


def entry_of(card: Card) -> str:
    """The name a card is counted under: its name (copies and cards sharing a name are one
    entry), or its label for a card without a name."""
    return card.name or card.label


def entries(ruleset: Ruleset) -> dict[str, str]:
    """Every entry of the ruleset, in card order, with its cards' kind."""
    return {entry_of(c): c.kind for c in ruleset.cards}


def select(ruleset: Ruleset, wanted: list[str] | None) -> list[str]:
    """The entries named by `wanted` (a card's name or label, or a kind: all its entries), in
    card order; every entry when none is named. A name that is neither is an error with the
    nearest one."""
    known = entries(ruleset)
    if not wanted:
        return [e for e, kind in known.items() if kind not in ruleset.unanalysed]
    chosen: set[str] = set()
    for name in wanted:
        if name in known:
            chosen.add(name)
        elif name in known.values():
            chosen.update(e for e, kind in known.items() if kind == name)
        else:
            chosen.update(_typed_entries(ruleset, name))
    return [e for e in known if e in chosen]


def _typed_entries(ruleset: Ruleset, name: str) -> set[str]:
    """The entries `name` gives as a person types it (`typed`: any case, "inf" for "∞"): of
    the cards with that name or label (what every screen shows), else of the kind so named.
    None, or entries of different kinds of card that read alike, is an error."""
    wanted = typed(name)
    found = {entry_of(c) for c in ruleset.cards if wanted in (typed(c.name or ""), typed(c.label))}
    if not found:
        found = {entry_of(c) for c in ruleset.cards if typed(c.kind) == wanted}
    if not found:
        known = entries(ruleset)
        labels = {c.label for c in ruleset.cards}
        raise EngineError(f"--card {name}: no card or kind of card is named so"
                          f"{suggest(name, [*known, *labels, *set(known.values())])}")
    if len({c.kind for c in ruleset.cards if entry_of(c) in found}) > 1:
        raise EngineError(f"--card {name}: cards of several kinds are named so ({', '.join(sorted(found))}); "
                          "give a kind, or a name as it is written")
    return found


def restricted_seat(number: int, players: int) -> int:
    """The seat restricted in game `number`: each seat in turn, so that none is favoured."""
    return (number - 1) % players + 1


def _is_entry(option: Any, entry: str) -> bool:
    """Is this option the card (or a list of values holding it, such as a card and a place)?"""
    if type(option) is Card:
        return entry_of(option) == entry
    return isinstance(option, (list, tuple)) and any(type(o) is Card and entry_of(o) == entry for o in option)


def _entries_in(option: Any) -> list[str]:
    if type(option) is Card:
        return [entry_of(option)]
    if isinstance(option, (list, tuple)):
        return [entry_of(o) for o in option if type(o) is Card]
    return []


class _Watch:
    """What happens to the cards of one game, seat by seat, seen at each decision: who holds
    which (a card in a zone of theirs), who drew which (it came to their zones after the
    first decision: a deal at setup is held, not drawn), who played which (chose it among
    two or more options), and which came up (lay face up in sight of every player)."""

    def __init__(self, game: Game):
        self.game = game
        self.entries = [entry_of(c) for c in game.table.cards]
        self.owner: list[int | None] = [None] * len(game.table.cards)
        self.where: list[Any] = []  # where each card was, and which were face down, at the last look
        self.face_down: list[bool] = []
        self.first = True
        self.held: dict[int, set[str]] = {int(p): set() for p in game.players}
        self.drawn: dict[int, Counter[str]] = {int(p): Counter() for p in game.players}
        self.played: dict[int, Counter[str]] = {int(p): Counter() for p in game.players}
        self.up: set[str] = set()

    def look(self) -> None:
        """Where every card is, unless no card moved or turned since the last look (most
        decisions move none)."""
        table = self.game.table
        if table.where == self.where and table.face_down == self.face_down:
            return
        self.where, self.face_down = list(table.where), list(table.face_down)
        for card in table.cards:
            owner = table.owner(table.where[card.index])
            entry = self.entries[card.index]
            if owner is not None:
                self.held[owner].add(entry)
                if not self.first and owner != self.owner[card.index]:
                    self.drawn[owner][entry] += 1
            if table.can_see(card, 0, memory=False):  # seat 0, no player, sees what is public
                self.up.add(entry)
            self.owner[card.index] = owner
        self.first = False

    def chose(self, player: int, option: Any) -> None:
        for entry in _entries_in(option):
            self.played[player][entry] += 1

    def noted(self) -> dict[str, Any]:
        return {"cards": {"held": {f"P{p}": sorted(e) for p, e in self.held.items()},
                          "drawn": {f"P{p}": dict(c) for p, c in self.drawn.items()},
                          "played": {f"P{p}": dict(c) for p, c in self.played.items()},
                          "came_up": sorted(self.up)}}


@dataclass(frozen=True)
class CardRun(RunSpec):
    """A run of `engine cards`: its games as they are (`side` AS_IS, watched), with one seat
    barred from or favouring the card `entry`, or with the card taken out of the ruleset."""

    side: str = AS_IS
    entry: str = ""
    # Brought into play (bring.py): the cards brought in, one game each, and the cards of the
    # run set aside in the game without them all, which every one of them is measured against.
    entries: tuple[str, ...] = ()
    aside: tuple[str, ...] = ()

    def load(self) -> Ruleset:
        return load_ruleset(self.ruleset, self.extensions, remove=[self.entry] if self.side == WITHOUT else [])

    def arrangement(self, ruleset: Ruleset, number: int) -> Aside | None:
        """Brought into play, the game played is the game without the cards (bring.py); the
        games with each are played after it, in play_out."""
        if self.side != BROUGHT:
            return None
        return Aside(self._copies(ruleset, self.aside), home(ruleset, self.entries[0], entry_of) or "")

    @staticmethod
    def _copies(ruleset: Ruleset, names: tuple[str, ...]) -> list[int]:
        return [c.index for c in ruleset.cards if entry_of(c) in names]

    def play_out(self, game: Game, agents: list[Any], order: list[int], number: int) -> dict[str, Any]:
        if self.side == WITHOUT:
            return super().play_out(game, agents, order, number)
        if self.side == BROUGHT:
            aside = game.arrange
            if not isinstance(aside, Aside):
                raise EngineError("a game brought into play lost its arrangement")
            draws = Draws(game, agents, aside, self.max_decisions, order)
            return {"depth": draws.depth, "with": {
                e: draws.played_with(game.rules, self, game.seed, self._copies(game.rules, (e,))[0])
                for e in self.entries}}
        seat = restricted_seat(number, self.players) if self.side in (BARRED, FAVOURED) else None
        watch = _Watch(game) if self.side == AS_IS else None
        cap = sys.maxsize if self.max_decisions is None else self.max_decisions
        acted = 0
        while not game.over and len(game.decisions) < cap:
            decision = game.pending
            player = decision.player
            if player not in order:
                order.append(player)
            if watch is not None:
                watch.look()
            choice = self._restricted(game, agents, decision) if player == seat else None
            if choice is not None:
                acted += 1
            else:
                choice = agents[player - 1].choose(view(game, player))
                if watch is not None:
                    watch.chose(player, decision.options[choice])
            game.apply(choice)
        if watch is not None:
            watch.look()
            return watch.noted()
        return {"restricted": f"P{seat}", "acted": acted}

    def _restricted(self, game: Game, agents: list[Any], decision: Decision) -> int | None:
        """The restricted seat's choice when the card is among its options (None: it is not,
        or it is the only option left): favoured, the card; barred, what its agent picks
        among the other options, the game showing it those alone."""
        options = decision.options
        card = [i for i, o in enumerate(options) if _is_entry(o, self.entry)]
        if not card or (self.side == BARRED and len(card) == len(options)):
            return None
        if self.side == FAVOURED:
            return card[0]
        keep = [i for i in range(len(options)) if i not in card]
        game.pending = Decision(decision.player, [options[i] for i in keep], decision.prompt)
        try:
            return keep[agents[decision.player - 1].choose(view(game, decision.player))]
        finally:
            game.pending = decision


# ---------------------------------------------------------------- the run file

class CardsFile(RunFile):
    """The run file of `engine cards`: simulate's (runfile.py), its header saying "cards", its
    records keyed by side, card and game, so that a run may add cards or games and keeps the
    games it has."""

    COMMAND = "cards"

    @staticmethod
    def key(record: dict[str, Any]) -> tuple[str, str, int]:
        return record["side"], record["entry"], record["game"]


# ---------------------------------------------------------------- the runs

def cards(ruleset: Ruleset, players: int, games: int, seed: int, options: dict[str, Any],
          seats: list[str] | None = None, wanted: list[str] | None = None,
          max_decisions: int | None = MAX_DECISIONS, jobs: int | None = 1, backend: str = "local",
          address: str | None = None, out: str | Path | None = None, progress: TextIO | None = None,
          isolate: str = "files", time_limit: float = 60.0, bring_in: bool = False,
          plan: Plan | None = None, curve: str | None = None) -> dict[str, Any]:
    """What each card of `wanted` (all: None) is worth: `games` games as they are, then for
    each card `games` games of each of its variants (barred and favoured for a card a seat
    chose in them; for one never chosen, without it, or with `bring_in` brought into play
    against the same game without it: bring.py), on the same seeds. With a `plan`
    (sequential.py), rounds of games until each card's effect is known or the budget is spent,
    with always-valid intervals; a card never chosen is then brought into play. With `curve`,
    the strengths fitted to that property of the cards (curve.py). See the module."""
    chosen = select(ruleset, wanted)
    if curve is not None:
        from .curve import property_values
        property_values(ruleset, curve)  # a mistyped property is told before any game is played
    seats = seats or ["random"] * players
    base = CardRun.of(ruleset, players, seats, options, seed, max_decisions, isolate, time_limit,
                      standings=False)  # a card's worth needs no game quality
    store = CardsFile.open(out, base, games if plan is None else plan.most or 0) if out is not None else None
    records: dict[tuple[str, str, int], dict[str, Any]] = dict(store.records) if store else {}
    started = time.perf_counter()
    processes = _processes(jobs)
    first = games if plan is None else plan.next_target(0, None, 1, processes)
    played, planned = 0, first
    reached: dict[str, int] = {}
    stopped = "games"
    try:
        with progress_display(progress if plan is None else None, first,
                              sum((AS_IS, "", n) in records for n in range(1, first + 1))) as step:
            played += _play([base], [ruleset], first, records, store, jobs, backend, address, step, plan)
        as_is = _kept(records, AS_IS, "", first)
        use = {e: usage(e, as_is, players) for e in chosen}
        specs, rulesets, notes = _variants(ruleset, base, chosen, use, bring_in or plan is not None)
        if plan is None:
            planned = games * len(specs)
            left = sum((s.side, s.entry, n) not in records for s in specs[1:] for n in range(1, games + 1))
            with progress_display(progress, games * (len(specs) - 1), games * (len(specs) - 1) - left) as step:
                played += _play(specs[1:], rulesets[1:], games, records, store, jobs, backend, address, step)
            reached = {e: games for e in chosen}
        else:
            more, reached, stopped = _rounds(plan, specs, rulesets, chosen, first, records, store, jobs, backend,
                                             address, progress, players, processes)
            played += more
            planned = played
    except KeyboardInterrupt:
        raise Interrupted(len(records), planned, out) from None
    finally:
        if store:
            store.close()
    elapsed = time.perf_counter() - started
    result: dict[str, Any] = {
        "ruleset": ruleset.name, "players": players, "seats": seats, "games": max(reached.values(), default=first),
        "seed": seed, "options": options, "extensions": list(ruleset.extensions), "played": played,
        "seconds": round(elapsed, 3), "seconds_per_game": round(elapsed / played, 4) if played else None,
        "cards": [], "findings": []}
    if plan is not None:
        result["sequential"] = {"budget": plan.budget, "precision": plan.precision, "most": plan.most,
                                "stopped": stopped, "intervals": "always valid (confidence sequence)"}
    copies = Counter(entry_of(c) for c in ruleset.cards)
    for entry in chosen:
        row = {"card": entry, "kind": entries(ruleset)[entry], "copies": copies[entry], "use": use[entry],
               **_measure(entry, specs, records, reached.get(entry, first), as_is_up_to(records, reached, entry),
                          players, plan is not None)}
        games_here = reached.get(entry, first)
        if row.get("removed", {}).get("how") == "brought into play" and row["removed"]["games"] \
                and row["removed"]["came_up"] < 1:
            notes[entry] = (f"brought into play, it came up in {row['removed']['came_up']:.0%} of the games: its "
                            "deck is drawn from little or not at all once setup is over (--bring-in does not suit it)")
        if "removed" in row and row["removed"]["failed"]:
            notes[entry] = (f"without it the rules failed in {row['removed']['failed']} of {games_here} games: "
                            f"{row['removed']['error']}")
        if entry in notes:
            row["note"] = notes[entry]
        per_copy(row)
        result["cards"].append(row)
    result["cards"] = ranked(result["cards"])
    result["findings"] = findings(result)
    if curve is not None:
        from .curve import fit_curve
        result["curve"] = fit_curve(ruleset, result["cards"], curve)
    return result


def _processes(jobs: int | None) -> int:
    import os
    return jobs or os.cpu_count() or 1


def _kept(records: dict[tuple[str, str, int], dict[str, Any]], side: str, entry: str, games: int
          ) -> list[dict[str, Any]]:
    """The records of a variant's games 1..`games` that were played (a stopped round leaves gaps)."""
    return [records[(side, entry, n)] for n in range(1, games + 1) if (side, entry, n) in records]


def as_is_up_to(records: dict[tuple[str, str, int], dict[str, Any]], reached: dict[str, int], entry: str
                ) -> list[dict[str, Any] | None]:
    """The games as they are, by number, up to the games the card reached (None: not played)."""
    top = max(reached.get(entry, 0), max((n for s, _, n in records if s == AS_IS), default=0))
    return [records.get((AS_IS, "", n)) for n in range(1, top + 1)]


def _variants(ruleset: Ruleset, base: CardRun, chosen: list[str], use: dict[str, dict[str, Any]],
              bring_in: bool) -> tuple[list[CardRun], list[Ruleset], dict[str, str]]:
    """The runs of every card's variants (the games as they are first), their rulesets, and a
    note for each card that has none."""
    specs, rulesets, notes = [base], [ruleset], {}
    for entry in chosen:
        if use[entry]["played_per_game"] > 0:
            for side in (BARRED, FAVOURED):
                specs.append(replace(base, side=side, entry=entry))
                rulesets.append(ruleset)
        elif bring_in and home(ruleset, entry, entry_of) is not None:
            specs.append(replace(base, side=BROUGHT, entry=entry, entries=(entry,)))
            rulesets.append(ruleset)
        elif entry not in {c.name for c in ruleset.cards}:
            notes[entry] = "never chosen, and it has no name to take it out by"
        else:
            try:
                variant = load_ruleset(ruleset.loaded_as, ruleset.extensions, remove=[entry])
            except RulesetError as exc:
                notes[entry] = f"never chosen; the rules do not load without it: {exc.diagnostics[0].message}"
                continue
            specs.append(replace(base, side=WITHOUT, entry=entry, digest=variant.digest))
            rulesets.append(variant)
    brought = [s for s in specs if s.side == BROUGHT]
    for i, spec in enumerate(specs):  # the cards of one deck are set aside together
        if spec.side == BROUGHT:
            zone = home(ruleset, spec.entry, entry_of)
            specs[i] = replace(spec, aside=tuple(s.entry for s in brought if home(ruleset, s.entry, entry_of) == zone))
    return specs, rulesets, notes


def _measure(entry: str, specs: list[CardRun], records: dict[tuple[str, str, int], dict[str, Any]], games: int,
             as_is: list[dict[str, Any] | None], players: int, always_valid: bool) -> dict[str, Any]:
    """The card's measure over its first `games` games: its strength (restricted play), or the
    change it makes where it comes up (brought into play, or taken out)."""
    sides = {s.side for s in specs if s.entry == entry}
    interval = sequential.interval if always_valid else _paired
    got = lambda side: [records.get((side, entry, n)) for n in range(1, games + 1)]  # noqa: E731
    if BARRED in sides:
        return {"strength": strength(got(BARRED), got(FAVOURED), as_is, interval)}
    if BROUGHT in sides:
        return {"removed": brought(got(BROUGHT), players, interval)}
    if WITHOUT in sides:
        return {"removed": removed(entry, [a for a in as_is[:games] if a is not None], got(WITHOUT), players,
                                   interval)}
    return {}


def _settling(row: dict[str, Any]) -> dict[str, Any] | None:
    """The interval that says whether a card's effect is known: its strength, or its change
    to the mean score of all seats."""
    if "strength" in row:
        return row["strength"]["strength"]
    if "removed" in row:
        return row["removed"]["all_seats"]
    return None


def _rounds(plan: Plan, specs: list[CardRun], rulesets: list[Ruleset], chosen: list[str], first: int,
            records: dict[tuple[str, str, int], dict[str, Any]], store: CardsFile | None, jobs: int | None,
            backend: str, address: str | None, progress: TextIO | None, players: int, processes: int
            ) -> tuple[int, dict[str, int], str]:
    """Rounds of games for the cards whose effect is not known yet, each round to the next
    target, until none is left, the budget is spent or `plan.most` games are played; the games
    each card reached, and why the run stopped."""
    reached = {e: 0 for e in chosen}  # games of each card's variants played so far
    measured = [e for e in chosen if any(s.entry == e for s in specs)]
    played, target, stopped = 0, first, "games"
    started, at_start = time.monotonic(), len(records)
    with status_display(progress) as show:
        def line() -> str:
            cells = []
            for e in measured:
                cell = _settling(_measure(e, specs, records, target, as_is_up_to(records, reached, e), players, True))
                if cell and cell["half_width"] is not None:
                    cells.append(f"{e} {cell['diff']:+.2f} ± {cell['half_width']:.2f}"
                                 f"{' *' if sequential.settled(cell, plan.precision) else ''}")
                else:
                    cells.append(f"{e} -")
            left = plan.left()
            return (f"{target} games a variant" + (f", {_clock(left)} left" if left is not None else "")
                    + ": " + "; ".join(cells))
        while True:
            open_ = [e for e in measured if not sequential.settled(
                _settling(_measure(e, specs, records, reached[e], as_is_up_to(records, reached, e), players, True))
                or {}, plan.precision)]
            if not open_:
                stopped = "known"
                break
            if plan.out_of_time():
                stopped = "budget"
                break
            if plan.most is not None and all(reached[e] >= plan.most for e in open_):
                break
            pace = (time.monotonic() - started) * processes / (len(records) - at_start) if len(records) > at_start \
                else None
            playing = [s for s in specs[1:] if s.entry in open_]
            target = plan.next_target(max(reached[e] for e in open_), pace, len(playing), processes)
            if any(s.side in (BARRED, FAVOURED, WITHOUT) for s in playing):
                playing = [specs[0]] + playing  # restricted play and cards taken out are read against these
            for e in open_:
                reached[e] = target
            played += _play(playing, [rulesets[specs.index(s)] for s in playing], target, records, store, jobs,
                            backend, address, lambda: show(line), plan)
            show(line, force=True)
    return played, reached, stopped


def _clock(seconds: float) -> str:
    whole = int(round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _play(specs: list[CardRun], rulesets: list[Ruleset], games: int,
          records: dict[tuple[str, str, int], dict[str, Any]], store: CardsFile | None, jobs: int | None,
          backend: str, address: str | None, step: Any, plan: Plan | None = None) -> int:
    """Play the games 1..`games` of `specs` not yet in `records`, in turns, calling `step` after
    each; each record is tagged with its side and card, kept, and appended to the run file.
    With a `plan`, stop once its budget is spent (the games not finished are lost)."""
    from .workers import play_runs  # here, not above: multiprocessing costs every command 7 ms to import

    if not specs:
        return 0
    specs = _together(specs)
    rulesets = [rulesets[0]] * len(specs) if all(r is rulesets[0] for r in rulesets) else rulesets
    todo = [[n for n in range(1, games + 1) if any((s.side, e, n) not in records for e in s.entries or (s.entry,))]
            for s in specs]
    played = 0
    with closing(play_runs(specs, todo, jobs, backend, address, rulesets)) as stream:
        for side, record in stream:
            for one in _split(specs[side], record):
                if CardsFile.key(one) in records:
                    continue
                if store:
                    store.append(one)
                records[CardsFile.key(one)] = one
                played += 1
                step()
            if plan is not None and plan.out_of_time():
                break
    return played


def _together(specs: list[CardRun]) -> list[CardRun]:
    """The runs to play: the cards brought into one deck share their games without them (one
    run plays the game without them all and then one with each), the others as they are."""
    merged: dict[tuple[str, ...], CardRun] = {}
    out: list[CardRun] = []
    for spec in specs:
        if spec.side != BROUGHT:
            out.append(spec)
        elif spec.aside in merged:
            first = merged[spec.aside]
            merged[spec.aside] = replace(first, entries=first.entries + spec.entries)
            out[out.index(first)] = merged[spec.aside]
        else:
            merged[spec.aside] = replace(spec, entry="")
            out.append(merged[spec.aside])
    return out


def _split(spec: CardRun, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The records of a game played by `spec`, tagged with its side and card: for cards
    brought into play, one a card, each holding the game without them (bring.py)."""
    if spec.side != BROUGHT:
        return [{"side": spec.side, "entry": spec.entry, **record}]
    head = {k: record[k] for k in ("game", "seed", "seats", "options")}
    if "error" in record:
        return [{"side": BROUGHT, "entry": e, **record} for e in spec.entries]
    without = {"scores": record["scores"], "winners": record["winners"], "decisions": record["decisions"],
               "depth": record["depth"]}
    return [{"side": BROUGHT, "entry": e, **head, **{k: v for k, v in record["with"][e].items() if k != "at"},
             "without": {**without, "at": record["with"][e]["at"]}} for e in spec.entries]


# ---------------------------------------------------------------- the measures

FEWEST = 5  # pairs below which nothing is called detectable: two equal differences have no spread


def _difference(a: list[float], b: list[float]) -> dict[str, Any]:
    """Two groups' means and the difference of the first from the second, with its 95%
    interval (independent groups: the two spreads add)."""
    sa, sb = summary(a), summary(b)
    if sa.n < 2 or sb.n < 2:
        return {"with": sa.mean if sa.n else None, "without": sb.mean if sb.n else None, "diff": None,
                "half_width": None, "detectable": False, "n_with": sa.n, "n_without": sb.n}
    diff = sa.mean - sb.mean
    half = t95(min(sa.n, sb.n)) * (sa.sd ** 2 / sa.n + sb.sd ** 2 / sb.n) ** 0.5  # the smaller group's t: cautious
    return {"with": sa.mean, "without": sb.mean, "diff": diff, "half_width": half,
            "detectable": min(sa.n, sb.n) >= FEWEST and abs(diff) > half, "n_with": sa.n, "n_without": sb.n}


def usage(entry: str, as_is: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """How often the card was held, drawn, played and came up in the games as they are, and
    how the players who played it (or, for a card nobody played, held it; for one nobody
    held, the games it came up in) fared against the others."""
    good = [r for r in as_is if "error" not in r and "cards" in r]
    seats = [f"P{i}" for i in range(1, players + 1)]
    n = len(good)

    def count(what: str) -> float:
        return sum(r["cards"][what][s].get(entry, 0) for r in good for s in seats)
    held = [[entry in r["cards"]["held"][s] for s in seats] for r in good]
    up = [entry in r["cards"]["came_up"] for r in good]
    played = [[r["cards"]["played"][s].get(entry, 0) > 0 for s in seats] for r in good]
    basis, marks = "played", played
    if not any(map(any, played)):
        basis, marks = ("held", held) if any(map(any, held)) else ("came up", [[u] * players for u in up])
    pairs = [(r, s, mark) for r, row in zip(good, marks) for s, mark in zip(seats, row)]
    win = _difference([win_share(r, s) for r, s, m in pairs if m], [win_share(r, s) for r, s, m in pairs if not m])
    score = _difference([r["scores"][s] for r, s, m in pairs if m], [r["scores"][s] for r, s, m in pairs if not m])
    return {"games": n, "held": sum(map(any, held)) / n if n else 0.0,
            "played_per_game": count("played") / n if n else 0.0,
            "drawn_per_game": count("drawn") / n if n else 0.0,
            "came_up": sum(up) / n if n else 0.0, "basis": basis, "win_share": win, "score": score}


def _paired(values: list[float]) -> dict[str, Any]:
    """The mean of paired differences with its 95% interval (Student's t)."""
    s = summary(values)
    if s.n < 2:
        return {"diff": s.mean if s.n else None, "half_width": None, "detectable": False}
    half = t95(s.n) * s.sd / s.n ** 0.5
    return {"diff": s.mean, "half_width": half, "detectable": s.n >= FEWEST and abs(s.mean) > half}


def strength(barred: list[dict[str, Any] | None], favoured: list[dict[str, Any] | None],
             as_is: list[dict[str, Any] | None], interval: Any = _paired) -> dict[str, Any]:
    """Restricted play, game by game on the same seeds: the restricted seat's win share barred
    from the card and favouring it, less its win share in the game as it is; and the card's
    strength, favoured less barred."""
    bar, fav, both = [], [], []
    acted_bar = acted_fav = games = 0
    for b, f, a in zip(barred, favoured, as_is):
        if b is None or f is None or a is None or any("error" in r for r in (b, f, a)):
            continue
        seat = b["restricted"]
        base = win_share(a, seat)
        bar.append(win_share(b, seat) - base)
        fav.append(win_share(f, seat) - base)
        both.append(win_share(f, seat) - win_share(b, seat))
        acted_bar += b["acted"] > 0
        acted_fav += f["acted"] > 0
        games += 1
    return {"games": games, "strength": interval(both), "barred": interval(bar), "favoured": interval(fav),
            "barred_acted": acted_bar / games if games else 0.0,
            "favoured_acted": acted_fav / games if games else 0.0}


def removed(entry: str, as_is: list[dict[str, Any] | None], without: list[dict[str, Any] | None],
            players: int, interval: Any = _paired) -> dict[str, Any]:
    """Each seat's score in the games where the card came up, less its score in the same
    games (same seeds) without the card in the ruleset; and the mean over the seats."""
    seats = [f"P{i}" for i in range(1, players + 1)]
    pairs = [(a, w) for a, w in zip(as_is, without)
             if a is not None and w is not None and "error" not in a and "error" not in w
             and entry in a["cards"]["came_up"]]
    by_seat = {s: interval([a["scores"][s] - w["scores"][s] for a, w in pairs]) for s in seats}
    every = interval([sum(a["scores"][s] - w["scores"][s] for s in seats) / players for a, w in pairs])
    failed = [w["error"] for w in without if w is not None and "error" in w]
    return {"how": "taken out", "games": len(pairs), "score_by_seat": by_seat, "all_seats": every,
            "failed": len(failed), **({"error": failed[0]} if failed else {})}


def brought(records: list[dict[str, Any] | None], players: int, interval: Any = _paired) -> dict[str, Any]:
    """Each seat's score in the game the card was brought into, less its score in the same
    game without it (bring.py); and the mean over the seats; how many games it came up in, and
    the win share of each seat, the same way."""
    seats = [f"P{i}" for i in range(1, players + 1)]
    pairs = [r for r in records if r is not None and "error" not in r]
    by_seat = {s: interval([r["scores"][s] - r["without"]["scores"][s] for r in pairs]) for s in seats}
    every = interval([sum(r["scores"][s] - r["without"]["scores"][s] for s in seats) / players for r in pairs])

    def won(record: dict[str, Any], seat: str) -> float:
        return 1 / len(record["winners"]) if seat[1:] in record["winners"] else 0.0
    wins = {s: interval([won(r, s) - won(r["without"], s) for r in pairs]) for s in seats}
    failed = [r["error"] for r in records if r is not None and "error" in r]
    return {"how": "brought into play", "games": len(pairs), "score_by_seat": by_seat, "all_seats": every,
            "win_share_by_seat": wins, "came_up": sum(r["came_up"] for r in pairs) / len(pairs) if pairs else 0.0,
            "failed": len(failed), **({"error": failed[0]} if failed else {})}


MANY_COPIES = 3  # copies from which the report warns that one of them moves little


def per_copy(row: dict[str, Any]) -> None:
    """A card of several copies: restricted play measured them together (always taking one
    against never taking any), so one copy is worth about that over its copies, which the row
    gets as `per_copy` (the strength over the copies, as if they added up), with a note where
    there are many copies, each of which moves little. Brought into play, one copy is
    measured: `per_copy` is the measure itself."""
    copies = row["copies"]
    if copies < 2:
        return
    if "strength" in row:
        cell = row["strength"]["strength"]
        if cell["diff"] is None:
            return
        half = None if cell["half_width"] is None else cell["half_width"] / copies
        row["per_copy"] = {"diff": cell["diff"] / copies, "half_width": half,
                           "detectable": half is not None and abs(cell["diff"]) / copies > half}
        if copies >= MANY_COPIES:
            note = (f"{copies} copies measured together: one copy is worth about "
                    f"{_pct(row['per_copy']['diff'], half or 0.0)}; one copy among many moves little (to measure "
                    "one alone, give it a name of its own in a --with file)")
            row["note"] = f"{row['note']}; {note}" if "note" in row else note
    elif row.get("removed", {}).get("how") == "brought into play":
        row["per_copy"] = dict(row["removed"]["all_seats"])


def _size(row: dict[str, Any]) -> float:
    """How much a card does, to rank by: its strength, or the largest change it makes to a seat."""
    if "strength" in row:
        return row["strength"]["strength"]["diff"] or 0.0
    if "removed" in row:
        return max((abs(v["diff"] or 0.0) for v in row["removed"]["score_by_seat"].values()), default=0.0)
    return 0.0


def ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Cards with a strength first, strongest first; then the cards taken out, the largest
    change first; then the others, in card order."""
    def order(row: dict[str, Any]) -> tuple:
        group = 0 if "strength" in row else 1 if "removed" in row else 2
        return group, -_size(row) if group < 2 else 0
    return sorted(rows, key=order)


def _pct(value: float, half: float) -> str:
    return f"{value:+.1%} ± {half:.1%}"


def _num(value: float, half: float) -> str:
    return f"{value:+.1f} ± {half:.1f}"


def _copies(row: dict[str, Any]) -> str:
    """What a finding says of a card's copies."""
    if row.get("copies", 1) < 2:
        return ""
    if "per_copy" in row and "strength" in row:
        one = row["per_copy"]
        return f"; its {row['copies']} copies together, one copy about {_pct(one['diff'], one['half_width'] or 0.0)}"
    return f"; one copy of its {row['copies']}"


def findings(result: dict[str, Any]) -> list[str]:
    """A plain sentence for every card whose strength, or whose change to a seat's score, is
    detectable at 95%."""
    said = []
    for row in result["cards"]:
        name = row["card"]
        if "strength" in row:
            s = row["strength"]
            if not s["strength"]["detectable"]:
                continue
            word = "strong" if s["strength"]["diff"] > 0 else "weak"
            said.append(f"{name} is {word}: a seat that favours it wins "
                        f"{_pct(s['favoured']['diff'], s['favoured']['half_width'])} of its games more, one "
                        f"barred from it {_pct(s['barred']['diff'], s['barred']['half_width'])} (strength "
                        f"{_pct(s['strength']['diff'], s['strength']['half_width'])}, "
                        f"{s['games']} games each way{_copies(row)}).")
        elif "removed" in row:
            r = row["removed"]
            moved = [f"{seat} {_num(v['diff'], v['half_width'])}" for seat, v in r["score_by_seat"].items()
                     if v["detectable"]]
            if r["all_seats"]["detectable"]:
                moved.append(f"every seat {_num(r['all_seats']['diff'], r['all_seats']['half_width'])} on average")
            if moved and r.get("how") == "brought into play":
                said.append(f"{name}, brought into play (it came up in {r['came_up']:.0%} of {r['games']} games): "
                            f"scores change by {', '.join(moved)} against the same games without it"
                            f"{_copies(row)}.")
            elif moved:
                said.append(f"{name} (came up in {row['use']['came_up']:.0%} of the games): where it came up, "
                            f"scores change by {', '.join(moved)} against the same games without it "
                            f"({r['games']} games).")
    return said

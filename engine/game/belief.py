"""Worlds that agree with everything a player has observed (docs/python-api.md, "Worlds a
player cannot tell apart", says what bots believe and why that keeps every secret).

`Game.determinize` deals the cards a player can neither see nor remember at random among the
places of cards of the same look. That forgets what the player was told: a hint "your cards 1
and 3 are amber", a card a failed move named, a colour a player could not follow. Here the
game's history is played again from its start, with the same choices, but with all its chance
dealt anew (a candidate): every shuffle (the cards the player saw after it where it put them,
the others in an order of this module's own) and every draw of random_choice (the card the
player saw drawn, else a value of this module's choosing: who starts, a card drawn from a pile
never shuffled into a hidden hand). The real seed only keeps the replay's generator in step;
what it drew is not read. A candidate is kept if the player is told exactly what the real game
told them: every log line as they read it, what they were shown at each of their decisions,
their view now. The world is the real game with its hidden places holding what the candidate
ends with there (`Game.dealt`), and chance of its own.

A world depends on the player's observations, the public course of the game (what each player
chose, a card by its place), the places of the hidden cards, this module's own generator and
the deals found at the positions searched before in the same game: never on which hidden card
is where, nor on how a real shuffle or draw fell. Deals are searched once a position (a few: `worlds`),
and `world(seed)` takes one by its seed. Where random deals already agree, past a budget of
replays, or where the game cannot be replayed, worlds are `determinize`'s, and `counts` says
how often.
"""
from __future__ import annotations

import random
import re
import weakref
from collections import Counter, OrderedDict
from dataclasses import dataclass
from typing import Any, Callable

from ..core.errors import EngineError
from ..core.table import Card, Zone
from ..core.text import Text
from ..core.values import frozen
from .game import Game

# What a player was told, as comparable items: `observe(game, player, lines, forced, final)`
# gives the items after the first `lines` log lines and `forced` forced choices (view.py).
Observe = Callable[[Game, int, int, int, bool], list]

# How the worlds of this process were dealt: "belief" (a deal that agrees with everything the
# player observed), "fallback" (none found within the budget, or no history to replay:
# determinize), "free" (random deals agree: determinize), "off" (not tried: a game longer than
# `decisions`, an arranged one, `replays: 0`).
counts: Counter[str] = Counter()

_CACHED = 16  # positions kept
_SEARCHED: OrderedDict[tuple, _Position] = OrderedDict()
_VERDICTS: OrderedDict[tuple, str] = OrderedDict()  # "free" or not, at decisions 0, 1, 2, 4, 8...
_LAST: dict[tuple[int, int], _Here] = {}  # by game object and player
_PROBES = 2  # random deals that must agree before a position counts as free
_THIN = 8  # swaps tried between two deals kept, at most
_DRAWS = 6  # changes to what the draws of a random deal drew, at most, before its shuffles are searched
_WORD = re.compile(r"\w+")
_FAR = 1 << 30  # the distance of a history that could not go on (a choice it did not offer)


@dataclass(frozen=True)
class Settings:
    """A ruleset's `bots: belief:` (docs/reference.md), with the engine's defaults."""

    replays: int = 300  # histories played again at one position, at most; 0: never
    decisions: int = 60  # tried only while the game has taken at most this many decisions
    worlds: int = 16  # deals kept for a position; world(seed) takes one of them

    @classmethod
    def of(cls, game: Game) -> Settings:
        return cls(**{k: int(v) for k, v in game.rules.bots.get("belief", {}).items()})


def world(game: Game, player: int, seed: int, log: bool, observe: Observe) -> Game:
    """A world `player` cannot tell from `game`: dealt as all they observed allows, else as
    `Game.determinize` deals it. Which of the deals found it is depends on `seed` alone."""
    here = _here(game, player, observe)
    found = here.found
    if type(found) is str:
        counts[found] += 1
        if here.hidden is None:
            here.hidden = game.hidden(player)
        return game.determinize(player, seed, log, here.hidden)
    counts["belief"] += 1
    which = seed % len(found.deals)
    cards = {a: b for a, b in zip(found.hidden, found.deals[which]) if a is not b}
    return game.dealt(player, cards, random.Random(random.Random(seed).getrandbits(64)), seed, log,
                      found.secrets[which])


class _Here:
    """What a search keeps for one player at one position of a game: the deals found there (or
    why there are none), and the hidden cards `determinize` deals, once asked. A search asks
    for a world many times a decision."""

    __slots__ = ("game", "decisions", "count", "found", "hidden")

    def __init__(self, game: Game, found: _Position | str):
        self.game = weakref.ref(game)
        self.decisions, self.count = game.decisions, len(game.decisions)
        self.found, self.hidden = found, None

    def holds(self, game: Game) -> bool:
        """Whether this is still `game`'s position: the same object, with the same list of
        decisions (a restore, as undo does, gives it a new one) and as many of them."""
        return self.game() is game and self.decisions is game.decisions and self.count == len(game.decisions)


def _here(game: Game, player: int, observe: Observe) -> _Here:
    """What is kept for `player` at this position of `game`, found anew if it moved on."""
    mark = (id(game), player)
    last = _LAST.get(mark)
    if last is not None and last.holds(game):
        return last
    here = _Here(game, _find(game, player, observe))
    if len(_LAST) >= _CACHED:
        _LAST.clear()
    _LAST[mark] = here
    return here


def _find(game: Game, player: int, observe: Observe) -> _Position | str:
    settings = Settings.of(game)
    n = len(game.decisions)
    if settings.replays <= 0 or game.arrange is not None or game.explicit_chance or n > settings.decisions:
        return "off"
    start = None if game.start is None else frozen(sorted(game.start.items(), key=lambda kv: kv[0].index))
    history = (game.rules.digest, len(game.players), frozen(game.options), game.seed, start, player)
    # Whether random deals agree with what the player observed is asked at decisions 0, 1, 2,
    # 4, 8... (and holds until the next), so that a game where they do, as most do, is played
    # again a few times in all, not at every decision. What was observed stays observed.
    at = 1 << (n.bit_length() - 1) if n else 0
    asked = history + (tuple(game.decisions[:at]),)
    if _VERDICTS.get(history + (tuple(game.decisions[:at // 2]),), "free") != "free":
        _keep(_VERDICTS, asked, "facts")
    if at < n and asked not in _VERDICTS:
        _keep(_VERDICTS, asked, _Position(game, player, settings, observe, probe=at).verdict)
    verdict = _VERDICTS.get(asked)
    if verdict == "free":
        return "free"
    key = history + (tuple(game.decisions), game.state_key())
    if key not in _SEARCHED:
        # The search starts from the deals found at the last position searched; where it found
        # none, it is tried again only at the next of decisions 1, 2, 4, 8...: a search that
        # failed costs its whole budget, and what was observed stays observed.
        last = next((p for k, p in reversed(_SEARCHED.items()) if k[:len(history)] == history
                     and len(k[-2]) < n and k[-2] == tuple(game.decisions[:len(k[-2])])), None)
        if last is not None and not last.deals and last.verdict == "fallback" and at < n:
            return "fallback"
        _keep(_SEARCHED, key, _Position(game, player, settings, observe, free=verdict is None,
                                        earlier=last.kept if last is not None else []))
        if at == n:
            _keep(_VERDICTS, asked, _SEARCHED[key].verdict)
    position = _SEARCHED[key]
    return position if position.deals else position.verdict


def forget() -> None:
    """Forget the positions searched: the deals found there are where the next position's
    search starts, so a test that compares worlds starts from none."""
    _SEARCHED.clear()
    _VERDICTS.clear()
    _LAST.clear()


def _keep(cache: OrderedDict, key: tuple, value: Any) -> None:
    cache[key] = value
    cache.move_to_end(key)
    if len(cache) > _CACHED:
        cache.popitem(last=False)


def _hidden(game: Game, player: int) -> list[Card]:
    """The cards `player` can neither see nor remember, in the order of their places."""
    can_see = game.table.can_see
    return [c for c in game._places() if not can_see(c, player)]


# A deal: for places a shuffle of the history deals anew, (shuffle number, place) -> the face of
# the card wished there; for a draw the player did not see, (its number, 0) -> the face of the
# value wished drawn (and (its number, -1) -> the faces it could draw, as the candidate that
# made the deal could); and a seed that orders the cards no wish places (None: by number).
Wishes = dict[tuple[int, int], tuple]
Deal = tuple[Wishes, int | None]


class _Position:
    """The deals found for one player at one position of a game, or why there are none."""

    def __init__(self, game: Game, player: int, settings: Settings, observe: Observe, free: bool = True,
                 probe: int | None = None, earlier: list[Wishes] = ()):
        """Search deals, unless a few random deals agree and the position may be `free` (the
        verdict then); with `probe`, only try those, at the position after the game's first
        `probe` decisions (verdict "free" or "facts"). The deals found
        at an `earlier` position of the game are tried first: they agree with all but what was
        observed since. The same deals are found whatever the verdict was known to be."""
        self.deals: list[list[Card]] = []  # for each deal, the real hidden card for each hidden place
        self.kept: list[Wishes] = []  # ...and the deal itself, for the positions that follow
        self.secrets: list[dict[str, Any]] = []  # ...and what its candidate holds of others' secrets
        self.verdict = "fallback"
        self.ends: dict[tuple[int, int], Zone | None] = {}  # where the cards a deal places end (not for a probe)
        self.tried: dict[int, set] = {}  # by draw, the faces it was dealt in the search under way
        self.drew: Wishes = {}  # what the draws of the last probe that agreed drew
        self.hidden = _hidden(game, player)  # the real game's, by place
        # Random deals agreeing says nothing of others' hidden counters or secret answers, which
        # no deal holds: their worlds come from replays while there are any.
        free = free and not game.rules.hidden_counters and not game.rules.simultaneous
        self.history = _Replay(game, player, observe, probe)
        base = self.history.play(None)
        if base is None:
            return
        if probe is None:
            if observe(game, player, len(game.log), len(game.forced), True)[-1] != self.history.record[-1]:
                return  # not the game its seed and choices give (arranged by a test, a world)
            # Where the card a shuffle deals anew to each place goes: a swap of two cards bound
            # for different zones (the deck and a hand, say) changes more than an order.
            ends = {c: base.table.zone_of(c) for c in self.hidden}
            self.ends = {(k, j): ends.get(c) for k, (cards, seen) in enumerate(zip(self.history.shuffled, self.history.seen))
                         if k not in self.history.draws for j, c in enumerate(cards) if c not in seen}
        self.rng = random.Random(0)  # this module's own: nothing of the game's chance
        self.budget = settings.replays
        self.full = (len(self.history.record), 0)
        for wishes in earlier:
            if self.budget > 0 and self._progress((wishes, None)) == self.full:
                self._keep()
        if self.deals:
            self._sample(settings.worlds)
        elif earlier:
            if self._solve((earlier[0], None)):
                self._sample(settings.worlds)
        elif all(self._agrees(self._random_deal()) for _ in range(_PROBES)) and free:
            self.verdict = "free"
        elif probe is not None:
            self.verdict = "facts"
        elif self._solve(self._random_deal()):
            self._sample(settings.worlds)
        self.history = self.last = None  # what a world needs is kept; the games played are not

    def _random_deal(self) -> Deal:
        return {}, self.rng.getrandbits(32)

    def _progress(self, deal: Deal) -> tuple[int, int]:
        """How far the history replayed with this deal agrees with what the player observed:
        the items that agree before the first that does not, and minus how far that one is.
        Keeps the candidate and the deal it made (`dealt`: each place's face)."""
        self.budget -= 1
        progress, self.last = self.history.play(deal)
        self.dealt = dict(self.history.dealt)
        return progress

    def _keep(self) -> None:
        """Keep the deal of the candidate played last, which agrees."""
        self.verdict = "belief"
        self.deals.append(self._placed())
        self.kept.append(self.dealt)
        self.secrets.append(self._secrets())

    def _secrets(self) -> dict[str, Any]:
        """What the candidate played last made of what the player was not told, for its world
        (`Game.dealt`): others' hidden counters, and the locals of the rules running (a table
        of answers of a simultaneous step, a number read off a hidden card); only values that
        hold nothing of that game (a card, a function): the world keeps the others as they are
        (its cards dealt by place), and gives another's hidden counter its initial value."""
        me, last = self.history.player, self.last
        counters = last.table.counters
        return {"counters": {name: {p: v for p, v in counters[name].items() if p != me and _plain(v)}
                             for name in last.rules.hidden_counters},
                "frames": [(f.code.id, f.pc, {k: v for k, v in f.env.items() if _plain(v)}) for f in last.frames]}

    def _placed(self) -> list[Card]:
        """The real game's hidden cards, each where the candidate played last ends with a card
        of its face (of identical copies, the lowest numbered first: which copy was where is
        nobody's to know)."""
        copies: dict[tuple, list[Card]] = {}
        for card in sorted(self.hidden, key=lambda c: c.index, reverse=True):
            copies.setdefault(card.face, []).append(card)
        return [copies[c.face].pop() for c in _hidden(self.last, self.history.player)]

    def _swap(self, dealt: Wishes, draws: bool = False) -> Wishes | None:
        """`dealt` with the faces at two places of one shuffle swapped, at random; mostly two
        places bound for different zones. Or (only, with `draws`) a draw's outcome changed to
        another value it could draw in the candidate that dealt `dealt` (at (k, -1)), one not
        tried yet in this search if any is left."""
        rng, drawn, tried = self.rng, self.history.draws, self.tried
        by_shuffle: dict[int, list[tuple[int, int]]] = {}
        for place in dealt:
            by_shuffle.setdefault(place[0], []).append(place)
        shuffles = [k for k, places in by_shuffle.items()
                    if (len(dealt[(k, -1)]) > 1 if k in drawn else not draws and len({dealt[p] for p in places}) > 1)]
        if draws:
            shuffles = [k for k in shuffles if len(tried.get(k, ())) < len(dealt[(k, -1)])] or shuffles
        if not shuffles:
            return None
        k = rng.choice(shuffles)
        wishes = dict(dealt)
        if k in drawn:
            now = dealt[(k, 0)]
            seen = tried.setdefault(k, {now})
            others = [f for f in dealt[(k, -1)] if f not in seen] or [f for f in dealt[(k, -1)] if f != now]
            wishes[(k, 0)] = rng.choice(others)
            seen.add(wishes[(k, 0)])
            return wishes
        places = by_shuffle[k]
        a = rng.choice(places)
        others = [b for b in places if dealt[b] != dealt[a]]
        apart = [b for b in others if self.ends.get(b) is not self.ends.get(a)]
        b = rng.choice(apart if apart and rng.random() < 0.75 else others)
        wishes[a], wishes[b] = dealt[b], dealt[a]
        return wishes

    def _solve(self, deal: Deal) -> bool:
        """Whether a deal that agrees with everything observed is found, and kept: from `deal`
        (its draws first searched, as `_agrees` does), swaps that do not take it further from
        agreeing (min-conflicts), until one agrees or the budget is spent."""
        if self._search(*self._search(self._progress(deal), self.dealt, True, _DRAWS), False, self.budget)[0] == self.full:
            self._keep()
            return True
        return False

    def _agrees(self, deal: Deal) -> bool:
        """Whether a random deal agrees with everything observed once what its draws drew is
        searched (a few tries; what the last probe's drew first): a draw is dealt as the
        player saw it drawn, but not as they were told of it otherwise (a first player, say)."""
        draws = self.history.draws
        best, dealt = self._search(self._progress(({**self.drew, **deal[0]}, deal[1])), self.dealt, True, _DRAWS)
        if best != self.full:
            return False
        self.drew = {p: f for p, f in dealt.items() if p[0] in draws}
        return True

    def _search(self, best: tuple[int, int], dealt: Wishes, draws: bool, tries: int) -> tuple[tuple[int, int], Wishes]:
        """From a deal that agrees as far as `best`, `tries` changes at most (with `draws`, of
        its draws only) that do not take it further from agreeing: `best` and the deal found.
        What a draw drew is kept if as many items agree, however far the next is: another value
        (a first player) may change what is observed next the more, and yet be right."""
        self.tried = {}
        while best != self.full and self.budget > 0 and tries > 0:
            tries -= 1
            wishes = self._swap(dealt, draws)
            if wishes is None:
                break
            now = self._progress((wishes, None))
            if now >= best or draws and now[0] >= best[0]:
                best, dealt = now, self.dealt
        return best, dealt

    def _sample(self, worlds: int) -> None:
        """More deals that agree, by swaps that keep agreeing (a Markov chain from the last deal
        kept), the budget left shared out between them."""
        dealt, placed, secrets = self.kept[-1], self.deals[-1], self.secrets[-1]
        thin = min(_THIN, max(1, self.budget // max(1, worlds - len(self.deals))))
        while len(self.deals) < worlds and self.budget > 0:
            for _ in range(thin):
                wishes = self._swap(dealt)
                if wishes is None:
                    break
                if self._progress((wishes, None)) == self.full:
                    dealt, placed, secrets = self.dealt, self._placed(), self._secrets()
            self.deals.append(placed)
            self.kept.append(dealt)
            self.secrets.append(secrets)


class _Replay:
    """A game's history played again, as one player observed it. The first `play` records what
    they observed, every choice made (asked, or forced: a choice of one option asks nothing),
    how each shuffle fell and which of its cards the player saw before it was shuffled again;
    later ones deal each shuffle anew and compare with the record as they go, stopping at the
    first item that differs.

    Another player's choice is replayed as the same option (a card: the one at the same place),
    not by its index: which index it was, or whether they were asked at all, is not this
    player's to know (another hand offers other cards). This player's own choices keep their
    index: they made them, as they were shown. Another's answer in a simultaneous step is not
    replayed at all: it is dealt, as a draw among the step's options is (`_drawn_answer`), and
    the observations after the step keep the candidates whose answers agree with what was told.
    A hidden counter of another player (`visibility: owner`) is what the candidate's rules made
    of it, never the real game's."""

    def __init__(self, game: Game, player: int, observe: Observe, upto: int | None = None):
        """The history of `game` as `player` observed it: its first `upto` decisions (all)."""
        self.game, self.player, self.observe = game, player, observe
        self.decisions = game.decisions if upto is None else game.decisions[:upto]
        self.record: list = []
        self.choices: list[tuple[int, Any, int | None, dict[Card, tuple[int, int]]]] = []
        self.shuffled: list[list] = []  # each shuffle's cards, as it left them; each draw's values, the one drawn first
        self.draws: set[int] = set()  # which of them are draws (of random_choice, or others' answers)
        self.answers: set[int] = set()  # which draws are others' answers in a simultaneous step
        self._named: dict[tuple, str | None] = {}  # see _told
        self.at: dict[int, int] = {}  # for each draw, the items observed before it
        self.seen: list[set[Card]] = []  # ...and those the player saw before they were shuffled again
        self._since: dict[Card, set[Card]] = {}  # each card's set in `seen`: of its last shuffle
        self.dealt: Wishes = {}  # the face the last candidate's shuffles dealt to each place they chose

    def play(self, deal: Deal | None) -> Any:
        """Without `deal`, the history: the game replayed (None if it cannot be). With it, a
        candidate: how far it agrees (items agreeing, minus the distance of the first that does
        not), and the candidate game."""
        game, player, observe, record, choices = self.game, self.player, self.observe, self.record, self.choices
        first = deal is None
        done = made = 0  # items compared (or recorded), choices made
        self.dealt = {}
        g = None
        try:
            chance = _Chance(game.seed, self._record if first else self._dealer(deal))
            g = Game(game.rules, len(game.players), game.options, game.seed, keep_log=True, rewind=False,
                     start=game.start, chance=chance)
            lines = forced = 0
            decisions = iter(self.decisions)
            before = g.table.contents  # where the cards were when the rules last went on
            while True:
                for f in g.forced[forced:]:  # choices of one option the rules made since `before`
                    if first:
                        choices.append((f.player, f.value, None, _spots(f.value, before)))
                    elif made >= len(choices) or _same(choices[made], f.player, [f.value], before, g) is None:
                        return (done, -_FAR), g
                    made += 1
                index = next(decisions, None) if first else None
                final = index is None if first else made == len(choices)
                if first:
                    self._saw(g, lines)
                items = observe(g, player, lines, forced, final)
                lines, forced = len(g.log), len(g.forced)
                for item in items:
                    if first:
                        record.append(item)
                    elif done >= len(record) or item != record[done]:
                        return (done, -_distance(record[done] if done < len(record) else "", item)), g
                    done += 1
                if final:
                    break
                pending, contents = g.pending, g.table.contents
                if pending is None:
                    return None if first else ((done, -_FAR), g)
                if g.together is not None and pending.player != player:
                    # Another's answer in a simultaneous step, which this player was not told
                    # when it was given: dealt as a draw of the step's options (`_draw`), never
                    # copied, so that the candidates that agree with what was told after are kept.
                    if not first and (choices[made][0] != pending.player or choices[made][2] != _TOGETHER):
                        return (done, -_FAR), g
                    index = _drawn_answer(self, chance, pending.options, index if first else 0, first)
                    if first:
                        choices.append((pending.player, None, _TOGETHER, {}))
                elif first:
                    chosen = pending.options[index]
                    choices.append((pending.player, chosen, index, _spots(chosen, contents)))
                else:
                    index = _same(choices[made], pending.player, pending.options, contents, g, player)
                    if index is None:
                        return (done, -_FAR), g
                made += 1
                before = [list(cards) for cards in contents]
                g.apply(index)
        except EngineError:
            return None if first else ((done, -_FAR), g)
        return g if first else ((done, 0) if done == len(record) else (done, -_FAR), g)

    def _told(self, names: tuple, k: int) -> str | None:
        """Which of `names` (words) the player's observations after the k-th event name first,
        if any; after another's answer in a simultaneous step, which log line names first (the
        player's own decision of the step offers every option: it tells nothing of the answer)."""
        key = (names, k)
        if key not in self._named:
            wanted, self._named[key] = set(names), None
            for item in self.record[self.at[k]:]:
                if k in self.answers and type(item) is not str:
                    continue
                found = [w for w in _WORD.findall(item if type(item) is str else repr(item)) if w in wanted]
                if found:
                    self._named[key] = found[0]
                    break
        return self._named[key]

    def _record(self, cards: list, drawn: int | None) -> None:
        """Note how a shuffle fell, or what a draw drew (`drawn`: its place among `cards`):
        that value, then all of them. Of a draw, only the card drawn counts as dealt by it."""
        if drawn is not None:
            self.draws.add(len(self.shuffled))
            self.at[len(self.shuffled)] = len(self.record)
            cards[0], cards[drawn] = cards[drawn], cards[0]
        self.shuffled.append(list(cards))
        self.seen.append(set())
        self._since.update((c, self.seen[-1]) for c in (cards[:1] if drawn is not None else cards) if type(c) is Card)

    def _saw(self, g: Game, lines: int) -> None:
        """Note the shuffled cards the player sees now, or that a log line since `lines` named
        to them."""
        player, can_see, since = self.player, g.table.can_see, self._since
        shown = [c for c in since if can_see(c, player)]
        for entry in g.log[lines:]:
            for value, seen_by in entry.parts:
                if seen_by is None or player in seen_by:
                    shown += value.cards() if type(value) is Text else [value] if type(value) is Card else []
        for c in shown:
            if c in since:
                since[c].add(c)

    def _dealer(self, deal: Deal) -> Callable[[list, int | None], None]:
        """How a candidate deals its shuffles and draws, the k-th as the history's k-th: a
        shuffle puts each card the player saw after it (or a copy of it) where that one was, a
        card of the face wished at another place if one is left, and the cards left over in an
        order of the deal's seed (or by number); a draw, see `_draw`."""
        wishes, seed = deal
        events = iter(range(len(self.shuffled)))

        def arrange(cards: list, drawn: int | None) -> None:
            k = next(events, None)
            if drawn is not None:  # what the real chance drew is not read
                self._draw(cards, k, wishes, seed)
                return
            slots: list[Card | None] = [None] * len(cards)
            left: dict[tuple, list[Card]] = {}
            for c in sorted(cards, key=lambda c: c.index, reverse=True):
                left.setdefault(c.face, []).append(c)
            free: list[int] = []  # the places this deal chooses for
            if k is not None and k not in self.draws and len(self.shuffled[k]) == len(cards):
                seen = self.seen[k]
                for j, c in enumerate(self.shuffled[k]):
                    same = left.get(c.face) if c in seen else None
                    if same:
                        slots[j] = c if c in same else same[-1]
                        same.remove(slots[j])
                free = [j for j, c in enumerate(slots) if c is None]
                for j in free:
                    face = wishes.get((k, j))
                    if face is not None and left.get(face):
                        slots[j] = left[face].pop()
            rest = sorted((c for same in left.values() for c in same), key=lambda c: c.index)
            if seed is not None:
                random.Random(seed * 1000 + (k or 0)).shuffle(rest)
            dealt = iter(rest)
            cards[:] = [c if c is not None else next(dealt) for c in slots]
            self.dealt.update(((k, j), cards[j].face) for j in free)
        return arrange

    def _draw(self, values: list, k: int | None, wishes: Wishes, seed: int | None) -> None:
        """A candidate's k-th event, a draw of one of `values` (put first): the card the player
        saw drawn after the history's k-th (or a copy of it), else a value of the face the deal
        wishes at (k, 0), else of values not cards (players, numbers) the one the player was
        told of first after the draw (who starts is mostly the first player a log line names
        then: a guess, from what the player observed only, that spares the search replays),
        else one at random from the deal's seed (or the first by number)."""
        pick = None
        if k is not None and k in self.draws:
            real = self.shuffled[k][0]
            if type(real) is Card and real in self.seen[k]:
                if real in values:
                    pick = values.index(real)
                else:
                    pick = min((i for i, v in enumerate(values) if type(v) is Card and v.face == real.face),
                               key=lambda i: values[i].index, default=None)
                k = None  # the player saw it: not the deal's to choose
            elif (k, 0) in wishes:
                face = wishes[(k, 0)]
                pick = next((i for i in sorted(range(len(values)), key=lambda i: _number(values[i], i))
                             if _face(values[i]) == face), None)
            elif values and all(type(v) is not Card for v in values):
                names = [_name(v) for v in values]
                told = self._told(tuple(names), k)
                if told is not None:
                    pick = names.index(told)
        if pick is None:
            order = sorted(range(len(values)), key=lambda i: _number(values[i], i))
            pick = order[0 if seed is None else random.Random(seed * 1000 + (k or 0)).randrange(len(order))]
        values[0], values[pick] = values[pick], values[0]
        if k is not None and k in self.draws:
            self.dealt[(k, 0)] = _face(values[0])
            self.dealt[(k, -1)] = tuple(sorted({_face(v) for v in values}, key=repr))  # what it could draw


_TOGETHER = -1  # the index of a choice of the history that a replay deals as a draw (see play)


def _drawn_answer(replay: _Replay, chance: _Chance, options: list[Any], index: int, first: bool) -> int:
    """The option a replay takes for another player's answer in a simultaneous step: the
    `first` play records the real one (`index`) as a draw's outcome, a candidate deals it."""
    values = list(options)
    if first:
        replay.answers.add(len(replay.shuffled))
    chance.arrange(values, index)
    return next(i for i, o in enumerate(options) if o is values[0])  # the same objects, reordered


def _plain(value: Any) -> bool:
    """Whether a value holds nothing of one game (a card, a zone, a function): a candidate's
    hidden counter a world may take as it is (else the world holds the initial value)."""
    t = type(value)
    if t is list or t is tuple:
        return all(_plain(v) for v in value)
    if t is dict:
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return value is None or t in (int, float, str, bool) or isinstance(value, int)


def _face(value: Any) -> Any:
    """What tells a card (or a value random_choice draws) from others: copies are alike."""
    return value.face if type(value) is Card else ("value", frozen(value))


def _name(value: Any) -> str | None:
    """The first word of a value as a log line names it (a player: "P2")."""
    word = _WORD.search(str(value))
    return word.group() if word else None


def _number(value: Any, place: int) -> int:
    """The order of cards left over: by number; values by their place among those drawn from."""
    return value.index if type(value) is Card else place


class _Chance(random.Random):
    """The real game's generator, from its seed, but each shuffle and each draw of
    random_choice goes through `arrange` once it has drawn what the real one drew, so that the
    rest of the game's chance stays in step: a shuffle's cards as it left them, a draw's values
    with what was drawn (its place among them: `drawn`). A candidate's `arrange` puts them in
    an order of its own (a draw's outcome: the first), whatever the real chance drew."""

    def __init__(self, seed: int, arrange: Callable[[list, int | None], None]):
        super().__init__(seed)
        self.arrange = arrange

    def shuffle(self, x: list) -> None:
        super().shuffle(x)
        self.arrange(x, None)

    def choice(self, seq: Any) -> Any:
        values = list(seq)
        drawn = self._randbelow(len(values))  # as random.Random.choice draws
        self.arrange(values, drawn)
        return values[0]


def _spots(value: Any, contents: list[list[Card]]) -> dict[Card, tuple[int, int]]:
    """Where each card of a chosen value is in `contents`: its zone's number, its place there."""
    return {c: next((z, held.index(c)) for z, held in enumerate(contents) if c in held) for c in _cards_of(value)}


def _cards_of(value: Any) -> list[Card]:
    t = type(value)
    if t is Card:
        return [value]
    if t is list or t is tuple:
        return [c for v in value for c in _cards_of(v)]
    if t is Text:
        return list(value.cards())
    if t is Zone and value.holder is not None:
        return [value.holder]
    return []


def _same(choice: tuple, player: int, options: list[Any], contents: list[list[Card]], g: Game,
          me: int | None = None) -> int | None:
    """The option that makes the history's `choice` again (by the same player): for `me`, the
    one at the same index, if they were asked then too; for another player, the same option,
    each card of it the one at the same place of `contents` (preferably at the same index).
    None if there is none."""
    who, chosen, index, spots = choice
    if who != player:
        return None
    if player == me:
        return index if index is not None and index < len(options) else None
    there = {c: contents[z][i] for c, (z, i) in spots.items() if i < len(contents[z])}
    if len(there) < len(spots):
        return None
    want = frozen(_relabelled(chosen, there, g))
    if index is not None and index < len(options) and frozen(options[index]) == want:
        return index
    return next((i for i, o in enumerate(options) if frozen(o) == want), None)


def _relabelled(value: Any, relabel: dict[Card, Card], g: Game) -> Any:
    t = type(value)
    if t is Card:
        return relabel.get(value, value)
    if t is list or t is tuple:
        return t(_relabelled(v, relabel, g) for v in value)
    if t is Text:
        return value.relabelled({c: relabel[c] for c in value.cards() if c in relabel})
    if t is Zone and value.holder in relabel:
        return g.table.zones[value.name][relabel[value.holder]]
    return value


def _distance(want: Any, got: Any) -> int:
    """How far an observed item is from the one recorded: the words one has and the other has
    not ("amber at 1, 3" is 1 from "amber at 1" and 2 from "amber at 1, 4"), so that a search
    can tell which of two wrong deals is nearer."""
    a = Counter(_WORD.findall(want if type(want) is str else repr(want)))
    b = Counter(_WORD.findall(got if type(got) is str else repr(got)))
    return sum(((a - b) + (b - a)).values())

"""The games in play on a server: each seat's token, the bots that play between people's turns.

A request names a seat by its game's id and the seat's token, drawn with `secrets`: knowing one
seat's address tells nothing of another's. What a seat is sent is `seat_view`, built from
`view(game, player, person=True)` alone (game/view.py), with who is thinking and, once the
game is over, its scores: never the game, its seed or another seat's view. Bots are built-in
kinds only (`built_in`): a request never makes the server import code. They play in a thread of
their game's, so the server answers while they think; every change to a game is made under its
lock, and a decision that is refused leaves the game as it was.
"""
from __future__ import annotations

import asyncio
import re
import secrets
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core.errors import EngineError, suggest
from ..game.clock import OutOfTime, time_limit
from ..game.game import Game
from ..game.saves import DIGEST, SaveError, content_digest, save_data, write_save
from ..game.seeds import SEED_LIMIT, bots_seed, secret_seed
from ..game.view import view
from ..players.agents import Agent, built_in, make_agents, parse_seat
from ..players.budget import THINK, timed_defaults
from ..players.undo import UndoHistory
from ..rules import resources
from ..rules.faces import faces_of
from ..rules.ruleset import Ruleset

MOST_LISTENERS = 16  # pages a game pushes its changes to at once (a seat's tabs, several browsers)
MOST_POLLS = 32  # long polls waiting on a game at once; more are answered at once
MOST_GAMES = 200  # games in play at once (those over or stopped do not count): a server on one's own machine needs no more
BOT_SECONDS = 10.0  # the time a bot has for a decision on a server; past it, a random option is taken for it
MCTS_SHARE = 0.8  # of that time, what an mcts seat searches for (then it takes its best move so far)
# A seat's parameters a request may give, from low to high: searches that end in seconds, not hours
# (engine simulate and engine play take more). depth 0, "no limit", is not among them.
SEAT_BOUNDS = {"iterations": (1, 2000), "worlds": (1, 32), "tries": (1, 32), "steps": (1, 100), "lines": (1, 100),
               "playouts": (0, 1000), "further": (0, 8), "depth": (1, 500), "c": (0, 10), "score_weight": (0, 1)}


# A folder of an absolute path (POSIX or Windows), not one of a relative path such as ../rules/
_FOLDERS = re.compile(r"(?<![\w.~])(?:[A-Za-z]:)?[\\/](?:[^\s\\/:'\"()<>]+[\\/])+")


def public(text: str) -> str:
    """`text` in one line without the folders of absolute paths: a file is named by its name
    alone (rules.yaml:12:3), so that nothing a client reads tells how the server's disk is laid out."""
    return " ".join(_FOLDERS.sub("", text).split())


class BadRequest(EngineError):
    """A request the server refuses, told in one line; `status` is its HTTP status."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class Hosted:
    """One game in play: its seats, their tokens, the thread its bots play in, the positions its
    people decided at (for undo, as at the terminal) and the file it is saved to, if any."""

    def __init__(self, game: Game, seats: list[str], agents: list[Agent | None], save_to: Path | None = None,
                 bot_seconds: float = BOT_SECONDS):
        self.id = secrets.token_urlsafe(9)
        self.game = game
        self.seats = seats
        self.names = {i + 1: f"P{i + 1} ({parse_seat(seat)[0]})" for i, seat in enumerate(seats)}
        self.agents = agents  # None for a person's seat
        self.tokens = {secrets.token_urlsafe(24): i + 1 for i, agent in enumerate(agents) if agent is None}
        self.changed = threading.Condition()  # its lock guards every change to the game
        self.thinking: int | None = None  # the bot deciding now
        self.error: str | None = None  # why the game stopped, if a rule or a bot failed
        self.worker: threading.Thread | None = None
        self.history = UndoHistory(set(self.tokens.values()))
        self.save_to = save_to
        self.bot_seconds = bot_seconds  # the time a bot has for a decision
        self.notes: list[str] = []  # what seats are told of the game besides its view: bots that were late
        self.touched = time.monotonic()  # the last request of a seat's, or decision of a bot's
        self.dropped = False  # let go by the server (idle): its pages are closed
        self.listeners: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []  # pages and polls told of changes
        self.polls = 0  # of them, long polls
        # The answers people gave in the open simultaneous step before their turn in it came (the
        # game asks its players in seat order): kept here, never in the game, so that no view,
        # save or bot's world holds them, and applied as each one's turn comes (`_answer_early`).
        self.early: dict[int, int] = {}

    def _told(self) -> None:
        """Wake whoever waits for a change: threads on the lock's condition, pages through
        their event (called with the lock held, from any thread)."""
        self.changed.notify_all()
        for loop, event in list(self.listeners):
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # its event loop has closed (the server is stopping): nobody to tell
                self.listeners.remove((loop, event))

    def listen(self, event: asyncio.Event, poll: bool = False) -> bool:
        """Have `event` set, in the running event loop, whenever the game changes: for a page's
        websocket (at most MOST_LISTENERS, else refused) or a long poll (`poll`: at most
        MOST_POLLS; False when there are as many already, the poll then answered at once)."""
        with self.changed:
            if poll:
                if self.polls >= MOST_POLLS:
                    return False
                self.polls += 1
            elif len(self.listeners) - self.polls >= MOST_LISTENERS:
                raise BadRequest(f"this game is open in {MOST_LISTENERS} pages already", 503)
            self.listeners.append((asyncio.get_running_loop(), event))
            return True

    def unlisten(self, event: asyncio.Event, poll: bool = False) -> None:
        with self.changed:
            self.listeners = [(loop, e) for loop, e in self.listeners if e is not event]
            self.polls -= poll

    async def wait(self, player: int, timeout: float) -> None:
        """Return when `player` is to decide, the game is over, stopped or let go, or after
        `timeout` seconds: a client that long-polls instead of asking again and again. It waits
        in the event loop, holding no thread."""
        event = asyncio.Event()
        if not self.listen(event, poll=True):
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while True:
                event.clear()
                with self.changed:
                    if not self._waiting_for_others(player):
                        return
                left = deadline - loop.time()
                if left <= 0:
                    return
                try:
                    await asyncio.wait_for(event.wait(), left)
                except asyncio.TimeoutError:  # TimeoutError itself from Python 3.11 on
                    return
        finally:
            self.unlisten(event, poll=True)

    def player_of(self, token: str) -> int | None:
        """The seat `token` stands for, compared in constant time, or None."""
        found = None
        for known, player in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = player
        return found

    def in_play(self) -> bool:
        """Neither over nor stopped on an error: what counts against MOST_GAMES."""
        return not self.game.over and self.error is None

    def _bots_turn(self) -> bool:
        return self.in_play() and not self.dropped and self.agents[self.game.pending.player - 1] is not None

    def wake(self) -> None:
        """Let the bots play until a person is to decide (called with the lock held)."""
        if self.worker is None and self._bots_turn():
            self.worker = threading.Thread(target=self._play_bots, name=f"bots of {self.id}", daemon=True)
            self.worker.start()

    def _play_bots(self) -> None:
        while True:
            with self.changed:
                if not self._bots_turn():
                    self.thinking = self.worker = None
                    self._told()
                    return
                player = self.game.pending.player
                self.thinking = player
                self._told()
                seen = view(self.game, player, self.names)
                count, step = len(self.game.pending.options), self.step()
            try:
                late = False
                try:
                    with time_limit(self.bot_seconds):  # thinking without the lock: views are read meanwhile
                        choice = self.agents[player - 1].choose(seen)
                except OutOfTime:  # over its time: the decision goes to a random option, and the game says so
                    choice, late = secrets.randbelow(count), True
                with self.changed:
                    self.touched = time.monotonic()
                    if late:
                        self.notes.append(f"{self.names[player]} took more than {self.bot_seconds:g} s over the "
                                          f"decision of step {step}: a random option was taken for it")
                    self.game.apply(choice)
                    self._answer_early()
                    self._saved_at_the_end()
            except Exception as exc:  # a rule or the bot failed: the game stops as it was before that decision
                with self.changed:
                    self.error = _one_line(exc)
                    self._saved_at_the_end()
                    self.thinking = self.worker = None
                    self._told()
                return

    def step(self) -> int:
        """The game's step: the number of decisions taken so far. A seat's answer names the step
        of the question it answers, so that one click sent twice is one decision."""
        return len(self.game.decisions)

    def _asked_at(self, player: int) -> int:
        """The step at which `player`'s question was asked (called with the lock held): the
        game's step while one seat decides at a time; in a simultaneous step, the step it began
        at, for each of its players who has yet to answer (they are all asked at once)."""
        together = self.game.together
        if together is not None and self._may_answer(player):
            return together.start
        return self.step()

    def _may_answer(self, player: int) -> bool:
        """Whether `player` may answer now: the pending decision is theirs, or they are of the
        open simultaneous step and have not answered it yet (called with the lock held)."""
        g = self.game
        if g.over or g.pending is None or player in self.early:
            return False
        return g.pending.player == player or g.decision_of(player) is not None

    def _answer_early(self) -> None:
        """Apply the answers people gave ahead of their turn in the step, as their turn comes
        (called with the lock held, after each decision applied)."""
        g = self.game
        while not g.over and g.pending is not None and g.pending.player in self.early:
            option = self.early.pop(g.pending.player)
            self.history.mark(g)
            g.apply(option)

    def _waiting(self) -> list[str]:
        """Who the game waits for: the decider, or in a simultaneous step everyone of it who
        has yet to answer (public: at a table you see who has put their card down)."""
        g = self.game
        if g.over or g.pending is None:
            return []
        if g.together is None:
            return [self.names[int(g.pending.player)]]
        return [self.names[int(p)] for p in g.together.waiting() if p not in self.early]

    def _to_decide(self, player: int, step: int | None = None) -> None:
        """Refuse (409) unless `player` is to decide now and, given a `step`, that is the step of
        their question (called with the lock held)."""
        if self.error is not None:
            raise BadRequest(f"the game stopped on an error: {self.error}", 409)
        if self.game.over:
            raise BadRequest("the game is over", 409)
        if step is not None and step != self._asked_at(player):
            raise BadRequest(f"that answers the question of step {step}, and the game is at step {self.step()} "
                             "now: nothing was changed (look at the table again)", 409)
        if player in self.early:
            raise BadRequest(f"you have answered; waiting for {', '.join(self._waiting())}", 409)
        if not self._may_answer(player):
            raise BadRequest(f"it is not your turn: waiting for {', '.join(self._waiting())}", 409)

    def choose(self, player: int, option: Any, step: Any) -> None:
        """A person's decision, answering the question of `step`; refused (the game unchanged)
        unless it is theirs, the question is still the one asked, and it is an option."""
        if type(option) is not int:
            raise BadRequest('give the option as a whole number: {"option": 0, "step": 0}')
        if type(step) is not int:
            raise BadRequest('give the step of the question answered, from its view: {"option": 0, "step": 12}')
        with self.changed:
            g = self.game
            self._to_decide(player, step)
            count = len(g.decision_of(player).options)
            if not 0 <= option < count:
                raise BadRequest(f"option {option} is not one of 0 to {count - 1}")
            if g.pending.player != player:  # of a simultaneous step, before their turn in it came
                self.early[player] = option
                self._told()
                return
            self.history.mark(g)
            try:
                g.apply(option)
                self._answer_early()
            except Exception as exc:  # a rule failed: the game is kept as it was before this decision
                self.error = _one_line(exc)
            self._saved_at_the_end()
            self._told()
            self.wake()

    def undo(self, player: int, step: int | None = None) -> str:
        """Take back `player`'s last decision, on their turn (at `step`, if given, as a choice
        is), as the terminal's `u` does: refused (and said why) when it would take back another
        person's decision, or when a card they could not see has been shown to them since. What
        came of it, in one line."""
        with self.changed:
            self._to_decide(player, step)
            if self.game.pending.player != player:
                raise BadRequest("take back a decision on your turn: others of this step answer before you", 409)
            self.early.clear()  # the step they were given in may be taken back: asked again
            self.history.mark(self.game)
            reply = self.history.take_back(self.game)
            self._told()
            return reply

    def save(self, player: int) -> str:
        """Write the game to its save file now (a seat may ask at any time; the file is the
        server's, never sent to a seat): the file's name."""
        with self.changed:
            if self.save_to is None:
                raise BadRequest("this server keeps no saves: start it with engine serve --saves FOLDER "
                                 "(or engine play --web --save FILE)", 409)
            try:
                write_save(self.game, self.save_to, self.seats, self.error)
            except SaveError as exc:
                raise BadRequest(f"the game could not be saved: {exc}", 409) from None
            return self.save_to.name

    def record(self, player: int) -> dict[str, Any]:
        """The game's save, once it is over (before, it would tell every hidden card and draw)."""
        with self.changed:
            if not self.game.over and self.error is None:
                raise BadRequest("the game's record (its seed and every hidden card) is given once the game is over", 409)
            try:
                data = save_data(self.game, self.seats, self.error)
            except Exception as exc:  # its scores cannot be counted: the rules fail
                raise BadRequest(f"the game's record cannot be made: {_one_line(exc)}", 409) from None
            # Files by their names alone: the server's folders are none of a seat's business.
            data["ruleset"] = _file_name(data["ruleset"])
            data["extensions"] = [_file_name(e) for e in data["extensions"]]
            data[DIGEST] = content_digest(data)
            return data

    def _saved_at_the_end(self) -> None:
        """Write the save file, if there is one, once the game is over or stopped on an error."""
        if self.save_to is not None and (self.game.over or self.error is not None):
            try:
                write_save(self.game, self.save_to, self.seats, self.error)
            except SaveError as exc:  # no seat to tell: the server's terminal is
                print(f"engine serve: {exc}", file=sys.stderr)

    def _waiting_for_others(self, player: int) -> bool:
        return self.in_play() and not self.dropped and not self._may_answer(player)

    def seat_view(self, player: int) -> dict[str, Any]:
        """What seat `player` is sent: their view as a person's screen shows it (`as_dict`), the
        options that are cards and the places they stand for, each board as a picture is drawn
        from it, an amount question's range, whose turn it is and whether a bot
        thinks, the error that stopped the game, and the scores once it is over."""
        with self.changed:
            try:
                return self._seat_view(player)
            except Exception as exc:  # a rule the view runs failed (a board's draw:, the scoring): the game stops
                if self.error is None:
                    self.error = _one_line(exc)
                    self._saved_at_the_end()
                    self._told()
            try:
                return self._seat_view(player, drawn=False)
            except Exception:  # the view itself cannot be made: what the seat is told is why the game stopped
                return self._bare_view(player)

    def _seat_view(self, player: int, drawn: bool = True) -> dict[str, Any]:
        """The seat's view; without `drawn`, with no part that runs rules of the ruleset's own
        beyond the view's (no drawings, no options' places, no scores): for a game stopped by
        one of those."""
        g = self.game
        pv = view(g, player, self.names, person=True)
        shown = pv.as_dict()
        amounts = pv.amounts()
        if player in self.early:  # answered ahead of their turn: the question is no longer open to them
            shown["decision"] = {"player": shown["decision"]["player"], "answered": shown["decision"]["options"][
                self.early[player]]}
        if shown["decision"] is not None and "waiting" in shown["decision"]:
            answered = {self.names[p] for p in self.early}
            shown["decision"]["waiting"] = [w for w in shown["decision"]["waiting"] if w not in answered]
        shown.update({
            "seat": player,
            "step": self._asked_at(player),
            "option_cards": pv.option_cards(),
            "option_places": pv.option_places() if drawn else [None] * len(pv.option_cards()),
            "drawings": pv.drawings() if drawn else {},
            "amounts": list(amounts) if amounts else None,
            "forced": [{"at": at, "text": text} for at, text in pv.forced()],
            "turn": None if g.over else ", ".join(self._waiting()),
            "thinking": self.names[self.thinking] if self.thinking is not None else None,
            "can_save": self.save_to is not None,
            "error": self.error,
            "notes": list(self.notes),
            "results": results(g, self.names) if g.over and drawn else None,
            "page": g.rules.page.as_dict(len(g.players)),
            "previews": pv.previews() if drawn else [],
        })
        shown["faces"] = seen_faces(g.rules, shown)
        return shown

    def _bare_view(self, player: int) -> dict[str, Any]:
        """What a seat is sent when not even its view can be made: who it is, and why the game stopped."""
        return {"game": self.game.rules.name, "you": self.names[player], "players": list(self.names.values()),
                "boards": {}, "zones": [], "counters": {}, "log": [], "decision": None, "over": self.game.over,
                "end_reason": self.game.end_reason, "seat": player, "step": self.step(), "option_cards": [],
                "option_places": [], "drawings": {}, "amounts": None, "forced": [], "turn": None, "thinking": None,
                "can_save": self.save_to is not None, "error": self.error, "notes": list(self.notes), "results": None,
                "page": self.game.rules.page.as_dict(len(self.game.players)), "previews": [],
                "faces": {"ids": {}, "backs": {}}}


def seen_faces(rules: Any, shown: dict[str, Any]) -> dict[str, dict]:
    """The drawings of the cards of a view as sent (its zones' and its options'): faces.faces_of."""
    return faces_of(rules, [c for z in shown["zones"] for c in z["cards"]] + list(shown.get("option_cards") or []))


def results(game: Game, names: dict[int, str]) -> dict[str, Any]:
    """A finished game's scores, each player's parts, and the winners (not its seed)."""
    scores = game.scores()
    parts = game.breakdown(scores)
    return {"parts": list(game.rules.breakdown),
            "players": [{"player": names[int(p)], "parts": list(parts[p].values()), "score": scores[p]}
                        for p in game.players],
            "winners": [names[int(p)] for p in game.winners(scores)]}


def _one_line(exc: Exception) -> str:
    """Why a rule or a bot failed, in one line a seat may read: no folder of the server's in it."""
    return public(str(exc) if isinstance(exc, EngineError) else f"{type(exc).__name__}: {exc}")


def _file_name(given: str) -> str:
    """A ruleset's or card file's name as a record a seat downloads holds it: a shipped one's
    name as it is, a file's name without its folder (`engine replay` finds it beside the record)."""
    return given if resources.is_name(given) else Path(given).name


class Tables:
    """The rulesets a server offers, by name, and its games in play."""

    def __init__(self, rulesets: Mapping[str, Ruleset], saves: Path | None = None, bot_seconds: float = BOT_SECONDS,
                 idle: float | None = None, think: float = THINK):
        """`saves`: the folder each game is saved in (as RULESET-ID.json), or None; `bot_seconds`:
        the time a bot has for a decision; `idle`: the seconds after which a game nobody has
        touched is let go (None: never, as for the one game of engine play --web); `think`: the
        time budget of an mcts decision (players/budget.py; 0: its fixed budget)."""
        self.rulesets = dict(rulesets)
        self.saves = saves
        self.bot_seconds = bot_seconds
        self.idle = idle
        self.think = think
        self._swept = 0.0  # when idle games were last looked for
        self.games: dict[str, Hosted] = {}
        self.lock = threading.Lock()

    def listing(self) -> list[dict[str, Any]]:
        """The rulesets offered, each with its player counts, options and seat kinds."""
        return [{"name": name, "title": r.name, "players": list(r.players),
                 "options": [{"name": o.name, "default": o.default, "values": o.values, "players": o.players,
                              "description": o.description} for o in r.options.values()]}
                for name, r in self.rulesets.items()]

    def create(self, request: Any) -> Hosted:
        """A new game from a request's JSON: {"ruleset", "players", "seats", "seed"?, "options"?}."""
        if not isinstance(request, dict):
            raise BadRequest('send a JSON object: {"ruleset": ..., "players": ..., "seats": [...]}')
        unknown = sorted(set(request) - {"ruleset", "players", "seats", "seed", "options"})
        if unknown:
            raise BadRequest(f"unknown field '{unknown[0]}'{suggest(unknown[0], ['ruleset', 'players', 'seats', 'seed', 'options'])}")
        name = request.get("ruleset")
        if not isinstance(name, str) or name not in self.rulesets:
            shown = name if isinstance(name, str) and len(name) <= 40 else "..."
            raise BadRequest(f"unknown ruleset '{shown}'{suggest(str(name), self.rulesets)}; "
                             f"this server offers {', '.join(self.rulesets)}")
        rules = self.rulesets[name]
        players = request.get("players", rules.players[0])
        if type(players) is not int or players not in rules.players:
            raise BadRequest(f"{rules.name} is for {', '.join(map(str, rules.players))} players, not {players!r:.20}")
        seats = _seats(request.get("seats"), players, self.bot_seconds)
        options = _options(rules, request.get("options"), players)
        seed = request.get("seed")
        chosen = seed is not None
        if chosen and (type(seed) is not int or not 0 <= seed < SEED_LIMIT):
            raise BadRequest(f"a seed is a whole number from 0 to {SEED_LIMIT - 1}")
        try:
            game = Game(rules, players, options, seed if chosen else secret_seed())
        except EngineError as exc:  # the setup refuses these options (a seat that is not in the game...)
            raise BadRequest(f"the game cannot start so: {_one_line(exc)}") from None
        # As `engine play` seeds them: a chosen seed's bots as simulate's, a secret seed's from a hash of it.
        try:
            # An mcts seat stops searching in time and takes its best move so far (unless told sooner):
            # after `think` seconds, and in any case well before the time a bot has.
            share = MCTS_SHARE * self.bot_seconds
            defaults = timed_defaults(rules.bots, min(self.think, share)) if self.think > 0 else \
                {**rules.bots, "mcts": {"ms": share * 1000, **rules.bots.get("mcts", {})}}
            agents = make_agents(seats, game.seed if chosen else bots_seed(game.seed, 0),
                                 make_human=lambda: None, defaults=defaults)
        except (EngineError, ValueError) as exc:
            raise BadRequest(str(exc)) from None
        return self.host(game, seats, agents)

    def host(self, game: Game, seats: list[str], agents: list[Agent | None], save_to: Path | None = None) -> Hosted:
        """Take a game in: its bots start if they are to decide. It is saved to `save_to`, else
        in the server's folder of saves, if it has one. Refused (503) when MOST_GAMES are in
        play (the idle ones let go first); of the games over, the oldest are let go to hold at
        most MOST_GAMES of them."""
        self.let_go_idle()
        with self.lock:
            ended = [i for i, h in self.games.items() if not h.in_play()]
            for gone in ended[:max(0, len(ended) - MOST_GAMES + 1)]:
                self._drop(gone)
            if len(self.games) - len(ended) >= MOST_GAMES:
                raise BadRequest(f"this server holds {MOST_GAMES} games in play already: try again once some "
                                 "are over or left alone", 503)
            hosted = Hosted(game, seats, agents, save_to, self.bot_seconds)
            if save_to is None and self.saves is not None:
                hosted.save_to = self.saves / f"{Path(game.rules.loaded_as).stem or 'game'}-{hosted.id}.json"
            self.games[hosted.id] = hosted
        with hosted.changed:
            hosted.wake()
        return hosted

    def seat(self, game_id: str, token: str) -> tuple[Hosted, int]:
        """The game and seat of an address; one and the same refusal for a wrong id or token,
        which says nothing of the games there are."""
        self.let_go_idle()
        hosted = self.games.get(game_id)
        player = hosted.player_of(token) if hosted is not None else None
        if player is None:
            raise BadRequest("no such seat", 404)
        hosted.touched = time.monotonic()
        return hosted, player

    def let_go_idle(self) -> None:
        """Let go the games nobody has touched (a seat's request, a bot's decision) for `idle`
        seconds: saved first where the server keeps saves, their pages told. Looked at once a
        second at most, as requests come."""
        now = time.monotonic()
        if self.idle is None or now - self._swept < 1.0:
            return
        self._swept = now
        with self.lock:
            for gone in [i for i, h in self.games.items() if now - h.touched > self.idle]:
                self._drop(gone)

    def _drop(self, game_id: str) -> None:
        """Let a game go (called with the lock held): saved if it has a file, its pages told."""
        hosted = self.games.pop(game_id)
        with hosted.changed:
            hosted.dropped = True
            if hosted.save_to is not None and hosted.in_play():
                try:
                    write_save(hosted.game, hosted.save_to, hosted.seats, hosted.error)
                except SaveError as exc:  # no seat to tell: the server's terminal is
                    print(f"engine serve: {exc}", file=sys.stderr)
            hosted._told()


def _seats(given: Any, players: int, bot_seconds: float) -> list[str]:
    """The seats of a request: built-in kinds only (a request runs no code), one a human, each
    parameter within SEAT_BOUNDS (and an mcts seat's ms within the time a bot has)."""
    if given is None:
        given = ["human"] + ["mcts"] * (players - 1)
    if isinstance(given, str):
        given = [s.strip() for s in given.split(",")]
    if not isinstance(given, list) or not all(isinstance(s, str) for s in given):
        raise BadRequest('give the seats as a list, e.g. ["human", "mcts", "random"]')
    if len(given) != players:
        raise BadRequest(f"{len(given)} seat(s) for {players} players")
    for seat in given:
        if not built_in(seat):
            shown = seat if len(seat) <= 40 else seat[:40] + "..."
            raise BadRequest(f"seat '{shown}' is not a built-in kind: use human, random, greedy, mcts or scout "
                             "(a server runs no code of a request's)")
    bounds = {**SEAT_BOUNDS, "ms": (1, bot_seconds * 1000)}
    for seat in given:
        shown = seat if len(seat) <= 40 else seat[:40] + "..."
        for name, value in parse_seat(seat)[1].items():
            low, high = bounds.get(name, (None, None))
            if low is not None and type(value) in (int, float) and not low <= value <= high:  # text: refused as made
                raise BadRequest(f"seat '{shown}': {name} is from {low:g} to {high:g} on this server, so that "
                                 "a bot decides in seconds (engine simulate and engine play take more)")
    if not any(parse_seat(s)[0] == "human" for s in given):
        raise BadRequest("no human seat: a game of bots alone is for engine simulate")
    return given


def _options(rules: Ruleset, given: Any, players: int) -> dict[str, Any]:
    """A request's options, checked as --option's are, with the ruleset's defaults for the rest."""
    if given is None:
        given = {}
    if not isinstance(given, dict) or not all(type(v) in (str, int, bool) for v in given.values()):
        raise BadRequest('give the options as an object of names and values, e.g. {"expert": true}')
    text = {k: (str(v).lower() if type(v) is bool else str(v)) for k, v in given.items()}
    try:
        return rules.resolve_options(text, players)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None

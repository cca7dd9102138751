"""Loading a ruleset: YAML, then the JSON Schema, then the engine's own checks and compilation.

Every problem of every phase is collected with its file position, and all are reported
together in one RulesetError. A Ruleset that loads is ready to play many games.
"""
from __future__ import annotations

import copy
import hashlib
import string
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from lark import Tree

from ..core.board import Board, Place
from ..core.errors import Diagnostic, Location, RulesetError, suggest
from ..core.program import EMIT, FLOW_ENDED, Arrange, Call, Code, End, Frame
from ..core.table import OTHERS, OWNER, PUBLIC, Card, Layout, Player, ZoneSpec
from ..core.values import freeze
from ..lang import recovery
from ..lang.builtins import HIDING, RANDOM, SIMULTANEOUS, end_reason
from ..lang.compiler import Compiler, Names, assigned, called, card_parameter, counted_calls, never_suspending
from ..lang.parser import ParseProblem, indentation_tabs, parse
from . import faces as card_faces
from . import resources
from .cardtables import CardSourceMap, expand_cards
from .checks import duplicate_cards, emits, shared_names, template_problem, trigger_arity
from .filekind import directory_hint, wrong_file
from .layout import PageLayout, Preview, page_layout
from .migrations import Outdated
from .schema import EXTENSION, RULESET, entry_problems, schema_problems
from .scoring import sum_of_parts
from .shadowing import global_notes, local_notes
from .typecheck import check_types
from .yamlload import MAX_FILE_BYTES, MergedSourceMap, SourceMap, load_yaml

MAX_CARDS = 5000
# The sections of names an extension file may declare, as in a ruleset; each name in the words
# of a clash. Boards and zones are the ruleset's alone, but an extension's name must not clash.
NAMED_SECTIONS = {"constants": "constant", "counters": "counter", "functions": "function",
                  "procedures": "procedure"}
TAKEN_SECTIONS = {**NAMED_SECTIONS, "zones": "zone", "boards": "board"}
PROPERTY_TYPES: dict[str, tuple[type, ...]] = {
    "integer": (int,), "number": (int, float), "string": (str,), "boolean": (bool,), "list": (list,),
}


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    values: list | None
    players: list[int] | None
    description: str


@dataclass(frozen=True)
class CounterSpec:
    name: str
    per: str | None
    initial: Any
    display: bool
    visibility: str = PUBLIC  # OWNER: each player's value is seen by that player alone (per: player)
    label: str = ""  # how screens name it


@dataclass
class Function:
    name: str
    params: list[str]
    expr: Callable


@dataclass
class Procedure:
    name: str
    params: list[str]
    code: Code


@dataclass
class Trigger:
    event: str
    params: list[str]
    condition: Callable | None
    code: Code
    holders: frozenset[int] | None  # card entries whose cards carry it; None: a rule of the game
    while_in: frozenset[str] | None
    rule: str
    where: Location | None = None  # where it is written (an extension's trigger: in that file)


@dataclass
class Modifier:
    function: str
    condition: Callable | None
    value: Callable
    holders: frozenset[int]
    while_in: frozenset[str] | None
    card_at: int | None = None  # the parameter the condition requires to be the carrying card (`op == card`)


@dataclass
class Ruleset:
    """A loaded, checked and compiled game."""

    path: str
    name: str
    players: list[int]
    options: dict[str, OptionSpec]
    constants: dict[str, Any]
    cards: list[Card]
    zones: dict[str, ZoneSpec]
    counters: dict[str, CounterSpec]
    functions: dict[str, Function] = field(default_factory=dict)
    procedures: dict[str, Procedure] = field(default_factory=dict)
    triggers: dict[str, list[Trigger]] = field(default_factory=dict)
    modifiers: dict[str, list[Modifier]] = field(default_factory=dict)
    setup: Code | None = None
    flow: Code | None = None
    main: Code | None = None  # setup, then the arrange hook, then flow: where every game starts
    codes: dict[str, Code] = field(default_factory=dict)  # every code by id, to restore frames
    # Counters no rule can change once setup is over: copies of a game past setup may share them.
    fixed_counters: frozenset[str] = frozenset()
    # Counters per player seen by their owner alone (`visibility: owner`): worlds do not copy them.
    hidden_counters: tuple[str, ...] = ()
    # Whether a rule asks several players at once (choose_each...): the adapters say so.
    simultaneous: bool = False
    # Whether a rule draws at random (shuffle, random_choice), and whether nothing is ever hidden
    # from a player (every zone public, no card turned face down, no secret counter or line, no
    # simultaneous step): what the adapters type a game by, read from the rules, not from play.
    draws: bool = True
    perfect_information: bool = False
    lambdas: list[Callable] = field(default_factory=list)
    calls: dict[str, Callable] = field(default_factory=dict)  # each function (g, *args), with its modifiers
    score: Callable | None = None  # a player's own score: `score`, or the sum of the breakdown's parts
    breakdown: dict[str, Callable] = field(default_factory=dict)  # the score's named parts, in order
    breakdown_descriptions: dict[str, str] = field(default_factory=dict)  # how parts are counted, in words
    breakdown_checked: bool = False  # both `score` and `breakdown` are written: the parts must add up to it
    breakdown_at: Location | None = None
    score_at: Location | None = None  # where the score is written: its rule, or the breakdown's
    tiebreak: Callable | None = None
    heuristic: Callable | None = None  # a player's standing mid-game, for search bots; None: the score
    bots: dict[str, dict[str, float]] = field(default_factory=dict)  # the search bots' default parameters, by kind
    teams: tuple[Callable, list[list[int]]] | None = None
    boards: dict[str, Board] = field(default_factory=dict)
    board_display: dict[str, Callable] = field(default_factory=dict)
    # Each board's `draw:` rules, by key: the compiled expression and where it is written (a value
    # of the wrong kind is found only when the board is drawn, and is reported there).
    board_draw: dict[str, dict[str, tuple[Callable, Location]]] = field(default_factory=dict)
    page: PageLayout = field(default_factory=PageLayout)  # how a page lays out the table (layout.py)
    loaded_as: str = ""  # the path or shipped name it was loaded by, which loads it again (saves record it)
    extensions: list[str] = field(default_factory=list)  # as given: paths or shipped names
    digest: str = ""
    description: str = ""  # what the game is about, for `engine info`
    source: str = ""  # where its rules and figures come from
    goal: str = ""  # how to win, for people (game: goal:, else scoring: description:)
    card_kinds: dict[str, str] = field(default_factory=dict)  # each kind's description, in the file's order
    kind_at: dict[str, Location] = field(default_factory=dict, repr=False)  # where each kind is declared
    backs_declared: frozenset[str] = frozenset()  # the kinds that say what their back shows (`back:`, even [])
    unanalysed: frozenset[str] = frozenset()  # kinds marked `analysis: false`: not game cards, `engine cards` leaves them out
    kind_texts: dict[str, str] = field(default_factory=dict)  # each kind's `text:` template, for `engine info`
    faces: dict[str, dict] = field(default_factory=dict, repr=False)  # each kind's checked `face:` (faces.py)
    names: Any = field(default=None, repr=False, compare=False)  # the compiler's Names, to explain choices (why)
    notes: list[Diagnostic] = field(default_factory=list, repr=False)  # told by `validate --strict` alone
    _layouts: dict[int, Layout] = field(default_factory=dict, repr=False)
    _holding: dict[frozenset[int], list[Card]] = field(default_factory=dict, repr=False)
    _loaded: bool = field(default=False, repr=False)

    def __setattr__(self, name: str, value: Any) -> None:
        """Once loaded, a ruleset is read-only: every game and every world of it shares it, so
        one agent's write would change them all."""
        if self._loaded:
            raise AttributeError(f"the ruleset {self.name} is read-only once loaded; '{name}' cannot be set")
        object.__setattr__(self, name, value)

    def layout(self, players: int) -> Layout:
        """The cards, zones and starting counters of a game of this ruleset for `players`."""
        layout = self._layouts.get(players)
        if layout is None:
            seats = [Player(i) for i in range(1, players + 1)]

            def keys(per: str) -> list:  # the keys of one family
                if per == "player":
                    return seats
                if per == "card":
                    return self.cards
                if per in self.boards:
                    return self.boards[per].places
                return list(self.constants[per])
            counters: dict[str, Any] = {}
            for name, spec in self.counters.items():
                # Every counter gets its own copy of the initial value: nothing is shared.
                counters[name] = copy.deepcopy(spec.initial) if spec.per is None else {
                    k: copy.deepcopy(spec.initial) for k in keys(spec.per)}
            layout = self._layouts[players] = Layout(self.cards, self.zones, keys, counters)
        return layout

    def holding(self, holders: frozenset[int]) -> list[Card]:
        """The cards that carry an ability (cards of the entries in `holders`), in card order."""
        cards = self._holding.get(holders)
        if cards is None:
            cards = self._holding[holders] = [c for c in self.cards if c.entry in holders]
        return cards

    def resolve_options(self, given: dict[str, str], players: int) -> dict[str, Any]:
        """Turn --option NAME=VALUE strings into typed option values; raise ValueError if wrong."""
        values = {name: spec.default for name, spec in self.options.items()}
        for name, text in given.items():
            if name not in self.options:
                raise ValueError(f"unknown option '{name}'{suggest(name, self.options)}; "
                                 f"options are: {', '.join(self.options) or 'none'}")
            values[name] = _parse_option(self.options[name], text)
        for name, spec in self.options.items():
            if spec.players and values[name] != spec.default and players not in spec.players:
                raise ValueError(f"option '{name}' needs {' or '.join(map(str, spec.players))} players")
        return values


def _parse_option(spec: OptionSpec, text: str) -> Any:
    if isinstance(spec.default, bool):
        lowered = text.lower()
        if lowered in ("true", "yes", "on", "1"):
            value: Any = True
        elif lowered in ("false", "no", "off", "0"):
            value = False
        else:
            raise ValueError(f"option '{spec.name}' takes true or false, not '{text}'")
    elif isinstance(spec.default, int):
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"option '{spec.name}' takes a whole number, not '{text}'") from None
    else:
        value = text
    if spec.values is not None and value not in spec.values:
        raise ValueError(f"option '{spec.name}' takes one of {', '.join(map(str, spec.values))}, not '{text}'")
    return value


def _read(given: str | Path, package: str) -> tuple[str, bytes | None, list[Diagnostic]]:
    """The file `given` names, a path or the name of a file shipped in `package` (a file of
    that name wins), and its bytes, read up to just past the size limit (so /dev/zero ends too)."""
    what = "ruleset" if package == resources.RULESETS else "extension file"
    names = list(resources.shipped(package))
    examples = list(resources.examples()) if package == resources.RULESETS else []
    file = resources.locate(str(given), package)
    if file is None:
        return str(given), None, [Diagnostic(Location(str(given)), f"no such file, nor a shipped {what} named "
                                             f"'{given}'{suggest(str(given), names + examples)}; shipped {what}s: "
                                             f"{', '.join(names)}" + (f"; examples: {', '.join(examples)}"
                                                                      if examples else ""))]
    try:
        with open(file, "rb") as f:
            return file, f.read(MAX_FILE_BYTES + 1), []
    except IsADirectoryError:
        why = directory_hint(Path(file))
    except FileNotFoundError as exc:
        stem = Path(file).stem
        why = (exc.strerror or str(exc)) + (f"; the shipped {what} of that name is '{stem}'" if stem in names else "")
    except OSError as exc:
        why = exc.strerror or str(exc)
    return file, None, [Diagnostic(Location(file), f"cannot read the file: {why}")]


def _load_checked(raw: bytes, file: str,
                  schema: str) -> tuple[Any, SourceMap, list[Diagnostic], list[tuple]]:
    """YAML plus schema; what the schema rejects is left out so the rest can still be checked.
    The last item lists the paths of what was left out (or of the mappings that lost keys)."""
    data, smap, problems = load_yaml(raw, file)
    wrong = wrong_file(file, raw, data, smap, problems, schema)
    if wrong is not None:
        return None, smap, [wrong], []
    if data is None:
        return None, smap, problems, []
    schema_errors = schema_problems(data, smap, raw, schema)
    problems += [d for d, _ in schema_errors]
    if not isinstance(data, dict):
        return None, smap, problems, []
    for _, (path, keys) in schema_errors:
        _prune(data, path, keys)
    return data, smap, problems, [path for _, (path, _) in schema_errors]


def load_ruleset(path: str | Path, extensions: list[str | Path] = (), remove: list[str] = ()) -> Ruleset:
    """Load, check and compile the ruleset at `path` (or the shipped ruleset of that name, when
    no such file exists), with the cards of any extension files (paths or shipped names too)
    added and the cards they name removed, and the cards named in `remove` too (a variant made
    in memory, as an extension file's remove_cards would: `engine cards`); raise RulesetError
    listing every problem."""
    file, raw, problems = _read(path, resources.RULESETS)
    if raw is None:
        raise RulesetError(problems)
    data, smap, problems, rejected = _load_checked(raw, file, RULESET)
    if data is None:
        raise RulesetError(problems)
    digest = hashlib.sha256(raw)
    sources = MergedSourceMap(_expand_tables(data, smap, problems, raw))
    cards = data.setdefault("cards", [])
    read: list[Path] = []
    for ext in extensions:
        ext_file, ext_raw, ext_problems = _read(ext, resources.EXTENSIONS)
        if Path(ext_file).resolve() in read:
            problems.append(Diagnostic(Location(str(ext)), "this extension file is given twice with --with "
                                       "(its cards would be added twice); give it once"))
            continue
        read.append(Path(ext_file).resolve())
        problems += ext_problems
        if ext_raw is None:
            continue
        digest.update(ext_raw)
        ext_data, ext_map, ext_problems, _ = _load_checked(ext_raw, ext_file, EXTENSION)
        problems += ext_problems
        if ext_data is None:
            continue
        ext_map = _expand_tables(ext_data, ext_map, problems, ext_raw)
        _add_names(data, ext_data, ext_map, sources, problems)
        added = ext_data.get("cards", [])
        # Its removals take out the cards before it (the ruleset's, earlier files'), never its
        # own: a file that removes a card and adds one of that name replaces it.
        own = {e.get("name") for e in added if isinstance(e, dict)}
        _remove_cards(cards, [(name, ext_map.at(("remove_cards", i)))
                              for i, name in enumerate(ext_data.get("remove_cards", []))], own, problems)
        sources.add_cards(len(cards), len(added), ext_map)
        cards.extend(added)
    for name in remove:
        digest.update(f"\0remove {name}".encode())
    _remove_cards(cards, [(name, Location(str(path))) for name in remove], set(), problems)
    builder = _Builder(data, sources, rejected)
    try:
        ruleset = builder.build()
    except (KeyError, TypeError, AttributeError, IndexError, ValueError):
        if not problems:
            raise
        ruleset = None  # the data was too broken to check further; the schema's reports say why
    problems += builder.problems
    if problems or ruleset is None:
        # A mistake in what a table's rows share is met once for each card: report it once.
        raise RulesetError(list(dict.fromkeys(problems)))
    ruleset.digest = digest.hexdigest()
    ruleset.loaded_as = str(path)
    ruleset.extensions = [str(e) for e in extensions]
    ruleset._loaded = True
    return ruleset


def _remove_cards(cards: list, removals: list[tuple[str, Location]], own: set, problems: list[Diagnostic]) -> None:
    """Take every copy of each named card out of `cards` (left as None, so that the entries keep
    their places); a name of no card there is an error, which says so when only the file's own
    cards (`own`) have it."""
    names = {e.get("name") for e in cards if isinstance(e, dict)}
    for name, where in removals:
        if name in own and name not in names:
            problems.append(Diagnostic(where, f"'{name}' is a card of this file only: remove_cards takes "
                                              "out cards of the ruleset (and of files given before this "
                                              f"one), never the file's own; to leave '{name}' out, delete "
                                              "its entry from cards"))
        elif name not in names:
            problems.append(Diagnostic(where, f"no card is named '{name}'{suggest(name, [n for n in names if n])}"))
        cards[:] = [None if isinstance(e, dict) and e.get("name") == name else e for e in cards]


def _add_names(data: dict, ext_data: dict, ext_map: CardSourceMap, sources: MergedSourceMap,
               problems: list[Diagnostic]) -> None:
    """Add the constants, counters, functions and procedures an extension declares to the
    ruleset's sections (then checked and compiled like its own); a name the ruleset (or an
    extension before) already uses is reported in the extension, naming where it is taken."""
    for section in NAMED_SECTIONS:
        for name, entry in (ext_data.get(section) or {}).items():
            taken = next((s for s in TAKEN_SECTIONS if name in (data.get(s) or {})), None)
            if taken is not None:
                problems.append(Diagnostic(ext_map.at((section, name), key=True),
                                           f"'{name}' is already a {TAKEN_SECTIONS[taken]} at "
                                           f"{sources.at((taken, name), key=True)}; rename yours"))
                continue
            data.setdefault(section, {})[name] = entry
            sources.add_name(section, name, ext_map)


def _expand_tables(data: dict, smap: SourceMap, problems: list[Diagnostic], raw: bytes) -> CardSourceMap:
    """Replace each table of `data`'s cards (loaded from the bytes `raw`) by the entries it
    makes (checked by the schema as written cards); the source map that places them where the
    table writes them."""
    if not isinstance(data.get("cards"), list):
        return CardSourceMap(smap, [])
    cards, cmap, found = expand_cards(data["cards"], smap, MAX_CARDS)
    problems += found
    data["cards"] = cards
    for d, (path, keys) in entry_problems(cards, [k for k, o in enumerate(cmap.origins) if o.made], cmap, raw):
        problems.append(d)
        _prune(data, path, keys)
    return cmap


# The sections of named entries: an entry the schema rejects whole is kept, empty, by its name.
_NAMED = ("card_kinds", "zones", "counters", "functions", "procedures", "options")


def _prune(data: Any, path: tuple, keys: list | None) -> None:
    """Remove a value the schema rejected (or only the unknown `keys` of a mapping)."""
    node = data
    for key in path[:-1] if keys is None else path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return
    if keys is not None:
        for k in keys:
            node.pop(k, None) if isinstance(node, dict) else None
    elif len(path) == 2 and path[0] in _NAMED and isinstance(node, dict) and path[1] in node:
        node[path[1]] = {}  # its name stays known, so that its uses are not reported as unknown
    elif path and isinstance(node, dict):
        node.pop(path[-1], None)
    elif path and isinstance(node, list) and isinstance(path[-1], int) and path[-1] < len(node):
        node[path[-1]] = None


class _Builder:
    """The engine's checks and the compilation of every rule, collecting problems."""

    def __init__(self, data: dict, smap: SourceMap | MergedSourceMap, rejected: list[tuple] = ()):
        self.data = data
        self.smap = smap
        self.rejected = rejected  # where the schema left something out (it has reported it)
        self.problems: list[Diagnostic] = []
        self.codes: dict[str, Code] = {}
        self._trees: dict[tuple, Tree | None] = {}
        self.triggers: list[tuple[tuple, dict]] = []  # where each trigger is written, and its entry
        self._bad_templates: set[tuple] = set()  # label templates already reported
        self._compiled_at: set[tuple] = set()  # where each rule compiled so far is written, and how
        self.compiled: list[tuple[tuple, str, list[str], str]] = []  # each rule compiled, for the type check
        self._syntax: dict[tuple, ParseProblem] = {}  # each program's syntax error, by path

    def _left_out(self, prefix: tuple) -> bool:
        """The schema left out something at or under `prefix`."""
        return any(path[:len(prefix)] == prefix for path in self.rejected)

    def error(self, path: tuple, message: str, key: bool = False) -> None:
        self.problems.append(Diagnostic(self.smap.at(path, key), message))

    # ------------------------------------------------------------ build

    def build(self) -> Ruleset:
        d = self.data
        game = d.get("game") or {}
        constants = {k: freeze(v) for k, v in d.get("constants", {}).items()}
        options = {name: OptionSpec(name, o.get("default"), o.get("values"), o.get("players"),
                                    o.get("description", ""))
                   for name, o in d.get("options", {}).items()}
        for name, o in options.items():
            if o.values is not None and o.default not in o.values:
                self.error(("options", name, "default"), f"the default {o.default!r} is not among the values")
        boards = self._boards(d.get("boards", {}))
        self.boards = boards
        zones = self._zones(d.get("zones", {}), constants)
        counters = self._counters(d.get("counters", {}), constants)
        kinds = d.get("card_kinds", {})
        cards = self._cards(d.get("cards", []), kinds, zones)
        self.problems += duplicate_cards(cards, self.smap)
        card_notes = shared_names(cards, self.smap)
        properties = {p for k in kinds.values() for p in k.get("properties", {})}
        properties |= {p for b in d.get("boards", {}).values() for p in b.get("properties", {})}
        names = Names(constants={**constants, **boards}, counters={n: c.per for n, c in counters.items()},
                      zones={n: z.per for n, z in zones.items()},
                      functions={n: _params(f) for n, f in d.get("functions", {}).items()},
                      procedures={n: _params(p) for n, p in d.get("procedures", {}).items()},
                      options=set(options), properties=properties)
        self._check_name_clashes(names)
        players = sorted(p for p in game.get("players", []) if type(p) is int)  # the schema reported others
        rs = Ruleset(path=self.smap.file, name=game.get("name", "?"), players=players,
                     options=options, constants=constants, cards=cards, zones=zones, counters=counters,
                     boards=boards, description=game.get("description", ""), source=game.get("source", ""),
                     goal=_goal(game, d.get("scoring")),
                     card_kinds={name: k.get("description", "") for name, k in kinds.items()},
                     kind_texts={name: k["text"] for name, k in kinds.items() if isinstance(k.get("text"), str)},
                     kind_at={name: self.smap.at(("card_kinds", name), key=True) for name in kinds},
                     backs_declared=frozenset(name for name, k in kinds.items() if "back" in k),
                     unanalysed=frozenset(name for name, k in kinds.items() if k.get("analysis") is False))
        self.names = rs.names = names
        rs.page = page_layout(d, zones, max(players, default=0), self.error)
        if d.get("previews"):
            rs.page = replace(rs.page, previews=tuple(self._preview(i, entry) for i, entry in enumerate(d["previews"])))
        rs.faces = card_faces.check(kinds, cards, self.error, Path(self.smap.file).parent)
        for name, b in d.get("boards", {}).items():
            if "display" in b:
                rs.board_display[name] = self.compile(("boards", name, "display"), "expression", ["place"],
                                                      f"display of board {name}")
            for key in b.get("draw") or {}:
                path = ("boards", name, "draw", key)
                params = [] if key == "paths" else ["place"]  # paths are the board's, the rest a place's
                rs.board_draw.setdefault(name, {})[key] = (
                    self.compile(path, "expression", params, f"draw {key} of board {name}"), self.smap.at(path))
        trees = {name: tree for name in d.get("procedures", {})
                 if (tree := self._parse(("procedures", name, "do"), "program", f"procedure {name}")) is not None}
        names.direct = never_suspending(trees, names)
        functions = {name: tree for name in d.get("functions", {})
                     if (tree := self._parse(("functions", name, "expr"), "expression", f"function {name}"))
                     is not None}
        names.counted = counted_calls({**functions, **{name: trees[name] for name in names.direct}})
        names.sources = {**{name: (tree, self._text(("functions", name, "expr"))) for name, tree in functions.items()},
                         **{name: (tree, self._text(("procedures", name, "do"))) for name, tree in trees.items()}}
        names.descriptions = {name: " ".join(entry["description"].split())
                              for section in ("functions", "procedures") for name, entry in d.get(section, {}).items()
                              if isinstance(entry, dict) and isinstance(entry.get("description"), str)
                              and entry["description"].strip()}
        for name, f in d.get("functions", {}).items():
            expr = self.compile(("functions", name, "expr"), "function", _params(f), f"function {name}")
            rs.functions[name] = Function(name, _params(f), expr)
        for name, p in d.get("procedures", {}).items():
            path, params, rule = ("procedures", name, "do"), _params(p), f"procedure {name}"
            if name in names.direct:  # a plain call; its code, for Python's run_procedure, calls it
                names.calls[name] = self.compile(path, "procedure", params, rule)
                code = self.codes[".".join(path)] = Code([Call(names.calls[name], None, None, rule, leaves=True)],
                                                         ".".join(path))
            else:
                code = names.codes[name] = self.compile(path, "program", params, rule)
            rs.procedures[name] = Procedure(name, params, code)
        for i, t in enumerate(d.get("triggers", [])):
            self._trigger(rs, ("triggers", i), t, None, "", zones)
        entries = d.get("cards", [])
        abilities = [(("card_kinds", name), kind, f"card kind {name}",
                      frozenset(i for i, e in enumerate(entries) if isinstance(e, dict) and e.get("kind") == name))
                     for name, kind in kinds.items()]
        abilities += [(("cards", i), e, f"card {e.get('name') or e.get('kind')}", frozenset({i}))
                      for i, e in enumerate(entries) if isinstance(e, dict)]
        for path, holder, what, holders in abilities:
            for i, t in enumerate(holder.get("triggers", [])):
                self._trigger(rs, path + ("triggers", i), t, holders, what, zones)
            for i, m in enumerate(holder.get("modifiers", [])):
                self._modifier(rs, path + ("modifiers", i), m, holders, what, zones)
        for name, function in rs.functions.items():
            names.calls[name] = _with_modifiers(function, rs.modifiers.get(name, []), rs)
        rs.calls = names.calls
        if "setup" in d:
            rs.setup = self.compile(("setup",), "program", [], "setup")
        rs.flow = self.compile(("flow",), "program", [], "flow") if "flow" in d else Code([End()], "flow")
        rs.main = _main(rs.setup, rs.flow, self.smap.at(("flow",)) if "flow" in d else None)
        rs.codes = {**self.codes, rs.main.id: rs.main, EMIT.id: EMIT}
        rs.lambdas = names.lambdas
        scoring = d.get("scoring", {})
        for part, written in scoring.get("breakdown", {}).items():
            at = ("scoring", "breakdown", part) + (("expr",) if isinstance(written, dict) else ())
            rs.breakdown[part] = self.compile(at, "expression", ["player"], f"breakdown part {part}")
            if isinstance(written, dict) and "description" in written:
                rs.breakdown_descriptions[part] = written["description"]
        if rs.breakdown:
            rs.breakdown_at = self.smap.at(("scoring", "breakdown"), key=True)
        if "score" in scoring:
            rs.score = self.compile(("scoring", "score"), "expression", ["player"], "scoring")
            rs.breakdown_checked = bool(rs.breakdown)
            rs.score_at = self.smap.at(("scoring", "score"))
        elif rs.breakdown:
            rs.score = sum_of_parts(rs.breakdown)
            rs.score_at = rs.breakdown_at
        if "tiebreak" in scoring:
            rs.tiebreak = self.compile(("scoring", "tiebreak"), "expression", ["player"], "tiebreak")
        if "heuristic" in scoring:
            rs.heuristic = self.compile(("scoring", "heuristic"), "expression", ["player"], "heuristic")
        if "when" in scoring.get("teams", {}) and "groups" in scoring["teams"]:
            when = self.compile(("scoring", "teams", "when"), "expression", [], "teams")
            groups = scoring["teams"]["groups"]
            seats = [s for g in groups for s in g]
            if len(seats) != len(set(seats)):
                self.error(("scoring", "teams", "groups"), "a seat is in more than one team")
            rs.teams = (when, groups)
        rs.bots = {kind: dict(params) for kind, params in d.get("bots", {}).items()}
        rs.fixed_counters = self._fixed_counters(names)
        rs.hidden_counters = tuple(n for n, c in rs.counters.items() if c.visibility == OWNER)
        calls = set().union(*(called(tree) for tree in self._trees.values() if tree is not None))
        rs.simultaneous = bool(calls & SIMULTANEOUS)
        rs.draws = bool(calls & RANDOM)
        rs.perfect_information = not (rs.simultaneous or rs.hidden_counters or calls & HIDING) and all(
            z.visibility == PUBLIC for z in rs.zones.values())
        self.problems += trigger_arity(self.triggers, self._emits(), self.smap)
        notes = card_notes + global_notes(d, self.triggers, self.smap.at) + local_notes(
            {path: tree for (path, _), tree in self._trees.items() if tree is not None},
            lambda path, line, column: self._where(path)(line, column))
        rs.notes = sorted(dict.fromkeys(notes),  # a table's rows share their rules' text: a note once
                          key=lambda n: (n.location.file, n.location.line, n.location.column))
        self.problems += check_types(d, self.compiled, self._trees, names, cards, self._where, self.smap.at,
                                     bool(self.problems))
        return rs

    def _where(self, path: tuple) -> Callable[[int, int], Location]:
        """How a line and column of the rule text at `path` are placed in the files."""
        text = self._text(path)
        return lambda line, column: self.smap.text_location(path, text, line, column)

    def _fixed_counters(self, names: Names) -> frozenset[str]:
        """The counters no rule can change after setup: no rule that may run after setup assigns
        to one or to an entry of it. Such a rule is any but setup and the procedures that only
        setup calls. If one assigns to an entry of a local (`t[k] = ...`: the local may hold a
        counter's list or table), none is proved fixed."""
        trees = {path: tree for (path, _), tree in self._trees.items() if tree is not None}
        procedure = {("procedures", name, "do"): name for name in names.procedures}
        later = {callee for path, tree in trees.items() if path != ("setup",) and path not in procedure
                 for callee in called(tree)}
        grown = True
        while grown:  # the procedures the rules that run after setup call, and those they call
            reached = {callee for path, name in procedure.items() if name in later and path in trees
                       for callee in called(trees[path])}
            grown = not reached <= later
            later |= reached
        written: set[str] = set()
        for path, tree in trees.items():
            if path == ("setup",) or (path in procedure and procedure[path] not in later):
                continue
            for name, entry in assigned(tree):
                if name in names.counters:
                    written.add(name)
                elif entry:
                    return frozenset()
        return frozenset(names.counters) - written

    def _emits(self) -> list:
        """Every `emit(...)` of every rule that parsed, with its place in the files (none when
        the ruleset's own `emit` hides the built-in)."""
        found: list = []
        if self.names.own("emit"):
            return found
        for (path, _), tree in self._trees.items():
            if tree is not None:
                text = self._text(path)
                found += emits(tree, lambda line, col, path=path, text=text:
                               self.smap.text_location(path, text, line, col))
        return found

    def _check_name_clashes(self, names: Names) -> None:
        seen: dict[str, str] = {}
        for section, table in (("constants", names.constants), ("counters", names.counters),
                               ("zones", names.zones), ("functions", names.functions),
                               ("procedures", names.procedures)):
            for name in table:
                if name in seen:
                    self.error((section, name), f"'{name}' is already defined in {seen[name]}", key=True)
                else:
                    seen[name] = section

    def _per_keys_ok(self, path: tuple, per: str | None, constants: dict) -> None:
        if per is None or per in ("player", "card") or per in self.boards:
            return
        if per not in constants:
            self.error(path, f"'per: {per}' names no constant list or board"
                             f"{suggest(per, list(constants) + list(self.boards) + ['player', 'card'])}; "
                             "use player, card, a board or the name of a constant list")
        elif not isinstance(constants[per], tuple) or not constants[per]:
            self.error(path, f"'per: {per}' must name a constant that is a non-empty list")

    def _per_pair(self, path: tuple, per: list, constants: dict) -> tuple[str, str] | None:
        """The two families of a zone keyed by two keys (`per: [player, colours]`), checked;
        None after an error (the schema has said what is wrong with a list of other length)."""
        if len(per) != 2 or not all(isinstance(p, str) for p in per):
            return None
        for i, p in enumerate(per):
            if p == "card":
                self.error(path + (i,), "a zone keyed by two keys cannot be per card; "
                                        "use player, a board or the name of a constant list")
            else:
                self._per_keys_ok(path + (i,), p, constants)
        if per[0] == per[1]:
            self.error(path + (1,), f"'per: [{per[0]}, {per[1]}]' names the same family twice")
        return per[0], per[1]

    def _preview(self, i: int, entry: dict) -> Preview:
        """One entry of `previews:`, its expressions compiled (of `option` and `player`)."""
        path = ("previews", i)
        when = self.compile(path + ("when",), "expression", ["option", "player"],
                            f"previews[{i}] when") if "when" in entry else None
        says = self.compile(path + ("says",), "expression", ["option", "player"], f"previews[{i}] says")
        return Preview(entry["prompt"], when, says, entry.get("warn", False), self.smap.at(path))

    def _boards(self, boards: dict) -> dict[str, Board]:
        result = {}
        for name, b in boards.items():
            board = Board(name, b["layout"], description=b.get("description", ""), legend=b.get("legend", ""))
            declared = b.get("properties", {})
            for i, entry in enumerate(b["places"]):
                path = ("boards", name, "places", i)
                if not isinstance(entry, dict) or "id" not in entry:
                    continue
                props = self._properties(path, entry, declared, ("id", "q", "r"), f"the places of board '{name}'",
                                         self._left_out(("boards", name, "properties")))
                if board.layout == "hex" and not ("q" in entry and "r" in entry):
                    self.error(path, "a place of a hex board needs coordinates q and r")
                place_id = str(entry["id"])
                if place_id in board.by_id:
                    self.error(path + ("id",), f"duplicate place id '{place_id}'")
                    continue
                place = Place(place_id, name, props,
                              self._label(path, ("boards", name, "label"), b.get("label", ""),
                                          list(declared) + ["id"], place_id, name, {"id": place_id, **props})
                              if b.get("label") else place_id, entry.get("q"), entry.get("r"))
                board.places.append(place)
                board.by_id[place_id] = place
            edges = []
            for i, (a, z) in enumerate(b.get("edges", [])):
                for end in (a, z):
                    if end not in board.by_id:
                        self.error(("boards", name, "edges", i), f"unknown place '{end}'{suggest(end, board.by_id)}")
                if a in board.by_id and z in board.by_id:
                    edges.append((a, z))
            board.connect(edges)
            result[name] = board
        return result

    def _zones(self, zones: dict, constants: dict) -> dict[str, ZoneSpec]:
        result = {}
        for name, z in zones.items():
            per = z.get("per")
            if isinstance(per, list):
                per = self._per_pair(("zones", name, "per"), per, constants)
            else:
                self._per_keys_ok(("zones", name, "per"), per, constants)
            visibility = z.get("visibility", PUBLIC)
            owned = per in ("player", "card") or (type(per) is tuple and per[0] == "player")
            if visibility in (OWNER, OTHERS) and not owned:
                self.error(("zones", name, "visibility"),
                           f"visibility '{visibility}' needs 'per: player', 'per: card' or 'per: [player, ...]'")
            if "{card}" in z.get("label", "") and per != "card":
                self.error(("zones", name, "label"), "'{card}' in a zone's label stands for the card the zone "
                                                     "belongs to: only a zone with 'per: card' has one")
            result[name] = ZoneSpec(name, per, visibility, z.get("ordered", True), z.get("display", True),
                                    z.get("label", name.replace("_", " ")), z.get("description", ""))
        return result

    def _counters(self, counters: dict, constants: dict) -> dict[str, CounterSpec]:
        result = {}
        for name, c in counters.items():
            per = c.get("per")
            self._per_keys_ok(("counters", name, "per"), per, constants)
            visibility = c.get("visibility", PUBLIC)
            if visibility == OWNER and per != "player":
                self.error(("counters", name, "visibility"), "visibility 'owner' needs 'per: player': "
                           "a counter seen by its owner alone has one value for each player")
            result[name] = CounterSpec(name, per, c.get("initial", 0), c.get("display", True), visibility,
                                       c.get("label", name.replace("_", " ")))
        return result

    def _cards(self, cards: list, kinds: dict, zones: dict[str, ZoneSpec]) -> list[Card]:
        result: list[Card] = []
        for kind_name, kind in kinds.items():
            z = kind.get("zone")
            if z is None:
                continue
            if z not in zones:
                self.error(("card_kinds", kind_name, "zone"), f"unknown zone '{z}'{suggest(z, zones)}")
            elif zones[z].per is not None:
                self.error(("card_kinds", kind_name, "zone"),
                           f"cards cannot start in '{z}': it is one zone per {_per_text(zones[z].per)}")
            for p in kind.get("back", []):
                if p not in kind.get("properties", {}) and p != "kind":
                    props = list(kind.get("properties", {})) + ["kind"]
                    self.error(("card_kinds", kind_name, "back"),
                               f"'{p}' is not a property of {kind_name}{suggest(p, props)}; the back may show "
                               f"its properties and `kind` (the kind's name)")
        total = 0
        for i, entry in enumerate(cards):
            path = ("cards", i)
            if not isinstance(entry, dict) or "kind" not in entry:
                continue
            kind_name = entry["kind"]
            if kind_name not in kinds:
                self.error(path + ("kind",), f"unknown card kind '{kind_name}'{suggest(kind_name, kinds)}")
                continue
            kind = kinds[kind_name]
            declared = kind.get("properties", {})
            own_text = "text" not in declared  # an old file's property `text` stays a property
            props = self._properties(path, entry, declared,
                                     ("kind", "name", "count", "zone", "triggers", "modifiers")
                                     + (("text",) if own_text else ()), f"card kind '{kind_name}'",
                                     self._left_out(("card_kinds", kind_name)))
            zone = entry.get("zone", kind.get("zone"))
            if "zone" in entry and zone not in zones:
                self.error(path + ("zone",), f"unknown zone '{zone}'{suggest(zone, zones)}")
            elif "zone" in entry and zones[zone].per is not None:
                self.error(path + ("zone",),
                           f"cards cannot start in '{zone}': it is one zone per {_per_text(zones[zone].per)}")
            name = entry.get("name", "")
            label = self._label(path, ("card_kinds", kind_name, "label"), kind.get("label", ""),
                                list(kind.get("properties", {})), name, kind_name, props)
            if own_text and isinstance(entry.get("text"), str):
                text = self._card_text(path + ("text",), entry["text"], list(declared), name, kind_name, label, props)
            elif isinstance(kind.get("text"), str):
                text = self._card_text(("card_kinds", kind_name, "text"), kind["text"], list(declared), name,
                                       kind_name, label, props)
            else:
                text = str(props.get("text", ""))
            back = {p: kind_name if p == "kind" else props[p] for p in kind.get("back", [])
                    if p in props or p == "kind"}
            count = entry.get("count", 1)
            total += count
            if total > MAX_CARDS:
                self.error(path + ("count",), f"more than {MAX_CARDS} cards in all")
                break
            props = {"kind": kind_name, **{k: freeze(v) for k, v in props.items()}}
            first = len(result)
            result.extend(Card(first + n, kind_name, name, props, label, back, i, zone, text) for n in range(count))
        return result

    def _properties(self, path: tuple, entry: dict, declared: dict, reserved: tuple, owner: str,
                    unsure: bool = False) -> dict:
        """The declared properties of an entry, each of its declared type; reports the rest,
        unless the declaration is `unsure` (the schema left part of it out: its mistake is
        reported once, there, not again at every entry)."""
        props: dict[str, Any] = {}
        misspelt: set[str] = set()
        for key, value in entry.items():
            if key in reserved:
                continue
            if key not in declared and unsure:
                props[key] = value
                continue
            if key not in declared:
                hint = suggest(key, list(declared) + list(reserved))
                misspelt.update(k for k in declared if f"'{k}'" in hint)
                self.error(path + (key,), f"'{key}' is not a property of {owner}{hint}", key=True)
                continue
            expected = PROPERTY_TYPES[declared[key]]
            if not isinstance(value, expected) or (isinstance(value, bool) and bool not in expected):
                self.error(path + (key,), f"property '{key}' must be of type {declared[key]}, got {value!r}")
            props[key] = value
        for key in declared:
            if key not in entry and key not in misspelt and not unsure:  # a misspelt key is reported
                self.error(path, f"missing the property '{key}' of {owner}")
        return props

    def _label(self, path: tuple, template_path: tuple, template: str, fields: list[str], name: str,
               kind: str, props: dict) -> str:
        """The label of the card or place at `path` from the template at `template_path` (a
        mistake in the template itself is reported there, once; one in filling it, at `path`)."""
        if not template:
            return name or kind.replace("_", " ")
        problem = template_problem(template, ["name", "kind"] + fields)
        if problem is not None:
            if template_path not in self._bad_templates:
                self._bad_templates.add(template_path)
                self.error(template_path, f"the label '{template}' of '{kind}' cannot be filled: {problem}")
            return name or kind
        try:
            return string.Formatter().vformat(template, (), {"name": name, "kind": kind, **props})
        except (KeyError, TypeError, ValueError) as exc:  # a value missing, or a format not for it
            self.error(path, f"the label '{template}' of '{kind}' cannot be filled: {exc}")
            return name or kind

    def _card_text(self, template_path: tuple, template: str, fields: list[str], name: str, kind: str,
                   label: str, props: dict) -> str:
        """A card's text from the template at `template_path` (its own `text:` or its kind's),
        filled once, at load: lists read "a, b", so a rollout never pays for it. A mistake is
        reported at the template, once."""
        problem = template_problem(template, ["name", "kind", "label"] + fields)
        if problem is None:
            shown = {k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in props.items()}
            try:
                return string.Formatter().vformat(template, (), {"name": name, "kind": kind, "label": label,
                                                                 **shown}).strip()
            except (KeyError, TypeError, ValueError) as exc:  # a format not for its value
                problem = str(exc)
        if template_path not in self._bad_templates:
            self._bad_templates.add(template_path)
            self.error(template_path, f"the text '{template}' of '{kind}' cannot be filled: {problem}")
        return ""

    def _trigger(self, rs: Ruleset, path: tuple, t: dict, holders: frozenset[int] | None, what: str,
                 zones: dict) -> None:
        if not isinstance(t, dict) or "on" not in t or "do" not in t:
            return
        self.triggers.append((path, t))
        params = _params(t)
        scope = params + (["card", "owner"] if holders is not None else [])
        rule = f"trigger on '{t['on']}'" + (f" of {what}" if what else "")
        while_in = self._while_in(path, t, holders, zones)
        cond = self.compile(path + ("if",), "expression", scope, rule) if "if" in t else None
        code = self.compile(path + ("do",), "program", scope, rule)
        rs.triggers.setdefault(t["on"], []).append(Trigger(t["on"], params, cond, code, holders, while_in, rule,
                                                           self.smap.at(path + ("on",))))

    def _modifier(self, rs: Ruleset, path: tuple, m: dict, holders: frozenset[int], what: str,
                  zones: dict) -> None:
        if not isinstance(m, dict) or "modify" not in m or "value" not in m:
            return
        fname = m["modify"]
        if fname not in self.names.functions:
            self.error(path + ("modify",), f"unknown function '{fname}'{suggest(fname, self.names.functions)}")
            # Its other mistakes still count; only names, which depend on the function, are not checked.
            self._while_in(path, m, holders, zones)
            for key in ("if", "value"):
                if key in m:
                    self._parse(path + (key,), "expression", f"modifier of {fname} on {what}")
            return
        scope = self.names.functions[fname] + ["value", "card", "owner"]
        rule = f"modifier of {fname} on {what}"
        cond = self.compile(path + ("if",), "expression", scope, rule) if "if" in m else None
        value = self.compile(path + ("value",), "expression", scope, rule)
        tree = self._trees.get((path + ("if",), "expression")) if "if" in m else None
        card_at = card_parameter(tree, self.names.functions[fname]) if tree is not None else None
        rs.modifiers.setdefault(fname, []).append(
            Modifier(fname, cond, value, holders, self._while_in(path, m, holders, zones), card_at))

    def _while_in(self, path: tuple, entry: dict, holders: frozenset[int] | None,
                  zones: dict) -> frozenset[str] | None:
        if "while_in" not in entry:
            return None
        if holders is None:
            self.error(path + ("while_in",), "'while_in' is only for abilities of cards and card kinds")
        names = [z for z in entry["while_in"] if isinstance(z, str)]  # the schema reported the others
        for z in names:
            if z not in zones:
                self.error(path + ("while_in",), f"unknown zone '{z}'{suggest(z, zones)}")
        return frozenset(names)

    # ------------------------------------------------------------ compiling rules

    def compile(self, path: tuple, start: str, params: list[str], rule: str) -> Any:
        """A rule's text compiled: a Code for a 'program' (registered under its path), a
        function (g, env) for an 'expression' or a procedure that never asks a player
        ('procedure'), a function (g, *params) for a 'function'."""
        # The triggers a table's rows share are one text compiled for each card: its mistakes
        # are reported for the first (they would only differ in the card's name).
        written = (self.smap.at(path), start, tuple(params))
        self.compiled.append((path, start, list(params), rule))
        if written in self._compiled_at:
            reported, self.problems = self.problems, []
            try:
                compiled = self._compile(path, start, params, rule)
            finally:
                self.problems = reported
        else:
            self._compiled_at.add(written)
            compiled = self._compile(path, start, params, rule)
        if start == "program":
            compiled.id = ".".join(map(str, path))
            self.codes[compiled.id] = compiled
        return compiled

    def _compile(self, path: tuple, start: str, params: list[str], rule: str) -> Any:
        text = self._text(path)
        nothing = _nothing() if start == "program" else _none
        tree = self._parse(path, "program" if start in ("program", "procedure") else "expression", rule)
        if tree is None:
            self._check_rest(path, text, params, rule)
            return nothing
        compiler = Compiler(self.names, lambda line, col: self.smap.text_location(path, text, line, col),
                            rule, self.problems)
        compiler.text = text
        try:
            if start == "program":
                return compiler.program(tree, params)
            if start == "function":
                return compiler.function(tree, params, path[1] in self.names.counted)
            if start == "procedure":
                return compiler.procedure(tree, params, path[1] in self.names.counted)
            return compiler.expression(tree, params)
        except RecursionError:
            self.problems.append(Diagnostic(self.smap.at(path), f"in {rule}: the rule is nested too deeply"))
            return nothing

    def _check_rest(self, path: tuple, text: str | None, params: list[str], rule: str) -> None:
        """Report the mistakes of the statements after a program's syntax error too (their
        syntax errors, the names they misspell), checking the rest as recovery.py makes it."""
        problem = self._syntax.get(path)
        tree, later = recovery.rest_of(text, problem) if problem is not None and text is not None else (None, [])
        if tree is None:
            return
        self.problems += [Diagnostic(self.smap.text_location(path, text, p.line, p.column),
                                     f"in {rule}: {p.message}") for p in later]
        compiler = Compiler(self.names, lambda line, col: self.smap.text_location(path, text, line, col),
                            rule, self.problems)
        compiler.text = text
        try:
            compiler.program(tree, params + [recovery.UNKNOWN])
        except RecursionError:
            pass  # the syntax error is reported: the rest is not worth a second complaint

    def _parse(self, path: tuple, start: str, rule: str) -> Tree | None:
        """The tree of a rule's text (parsed once), or None after reporting its syntax error."""
        key = (path, start)
        if key not in self._trees:
            text = self._text(path)
            if text is None:  # the schema rejected it (and said why): the rest is still checked
                self._trees[key] = None
                return None
            tabs = indentation_tabs(text)
            for line, column in tabs:
                self.problems.append(Outdated(self.smap.text_location(path, text, line, column),
                                              f"in {rule}: a tab in the indentation; indent rule text with "
                                              "spaces (a tab counts as 8 columns, whatever an editor shows)",
                                              migration="tabs"))
            try:
                self._trees[key] = parse(text, start)  # with tabs, for the other errors it may have
            except ParseProblem as exc:
                if not tabs:  # with tabs, a syntax error is likely their doing: they are reported
                    if start == "program":
                        self._syntax[path] = exc
                    self.problems.append(Diagnostic(self.smap.text_location(path, text, exc.line, exc.column),
                                                    f"in {rule}: {exc.message}"))
                self._trees[key] = None
        return self._trees[key]

    def _text(self, path: tuple) -> str | None:
        """The text of the rule at `path`; None where there is none (the schema left it out)."""
        node: Any = self.data
        for key in path:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                return None
        if node is None:
            return None
        if isinstance(node, bool):
            return "true" if node else "false"
        return node if isinstance(node, str) else repr(node)


def _params(entry: dict) -> list[str]:
    """The parameters of a function, procedure or trigger. One the schema rejected (and
    reported) is held by a name no rule can write, so the rule and its calls are still
    checked, with their number of arguments right."""
    return [p if isinstance(p, str) else f"#{i}" for i, p in enumerate(entry.get("params", []))]


def _nothing() -> Code:
    return Code([End()])


def _none(g, *args):
    return None


def _with_modifiers(function: Function, modifiers: list[Modifier], rs: Ruleset) -> Callable:
    """A function (g, *args) with its modifiers: each card carrying one, where it applies,
    changes the value in turn (modifiers in ruleset order, cards in card order). A modifier
    whose condition requires an argument to be its card (`op == card`) is passed over at once
    for the other cards, as its condition would be false."""
    fn, params = function.expr, function.params
    if not modifiers:
        return fn
    plan = [(m.condition, m.value, m.while_in, card, m.card_at) for m in modifiers for card in rs.holding(m.holders)]

    def call(g, *args):
        value = fn(g, *args)
        table = g.table
        where = table.where
        for condition, change, while_in, card, card_at in plan:
            if card_at is not None and args[card_at] is not card:
                continue
            zone = where[card.index]
            if while_in is not None and zone.name not in while_in:
                continue
            inner = dict(zip(params, args))
            inner.update(value=value, card=card, owner=table.owner(zone))
            if condition is None or condition(g, inner):
                value = change(g, inner)
        return value
    return call


def _main(setup: Code | None, flow: Code, flow_at: Location | None) -> Code:
    """The code every game starts in: setup, the arrange hook (for tests), flow. What the flow
    returns is the game's end reason: a string names it; nothing (a flow that runs to its end,
    or a bare `return`) gives FLOW_ENDED. A wrong value is reported at the flow (`flow_at`)."""
    def enter(code: Code, then: Callable | None = None, loc: Location | None = None, rule: str = "") -> Call:
        def start(g, env):
            return g.push(Frame(code, 0, {}))
        return Call(start, then, loc, rule)

    def ended(g, env, value) -> None:
        g.end_reason = FLOW_ENDED if value is None else end_reason(value, "what the flow returns")
    return Code(([enter(setup)] if setup else []) + [Arrange(), enter(flow, ended, flow_at, "flow"), End()],
                "main")


def _per_text(per: str | tuple[str, str]) -> str:
    """A zone's `per` in words: "player", or "player and colours" for two keys."""
    return per if isinstance(per, str) else " and ".join(per)


def _goal(game: dict[str, Any], scoring: Any) -> str:
    """How to win, for people: the game's `goal`, else what its scoring says (the description),
    in one line; "" if neither says."""
    for text in (game.get("goal"), scoring.get("description") if isinstance(scoring, dict) else None):
        if isinstance(text, str) and text.strip():
            return " ".join(text.split())
    return ""

"""Card entries written as a table: each row of a `table:` entry becomes one plain card entry.

    cards:
      - table:
          kind: tile                         # keys every row shares
          for_each: {colour: [red, blue]}    # optional: the rows again for each value
          columns: [name, points]
          rows:
            - [Small, 1]
            - [Large, 3]

makes the entries {kind: tile, colour: red, name: Small, points: 1}, then red Large, blue
Small, blue Large: for each combination of the `for_each` values (the first name
outermost), every row in order. The entries are made before the engine's checks, so the
cards are exactly those of the entries written out one by one (same order, ids, properties
and abilities). A CardSourceMap remembers where each value of a made entry is written, so
every error points at the row, the cell, the column or the shared key in the file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from math import prod

from ..core.errors import Diagnostic, Location
from .yamlload import SourceMap

TABLE_KEYS = ("columns", "rows", "for_each")  # the keys of a table that are not keys of its entries


@dataclass
class Origin:
    """Where an entry of the expanded card list is written: `entry` is the path of the row
    (or of a plain entry); `values` and `names`, for each key of a table-made entry, the path
    of its value and of where its name is written (a shared key, a column, a row's key)."""

    entry: tuple
    made: bool = False  # made from a table
    values: dict[str, tuple] = field(default_factory=dict)
    names: dict[str, tuple[tuple, bool]] = field(default_factory=dict)  # path, and whether it is a key's mark


class CardSourceMap:
    """The source map of a file whose `cards` were expanded: paths into the expanded list are
    turned into the paths where the values are written."""

    def __init__(self, base: SourceMap, origins: list[Origin]):
        self.base = base
        self.file = base.file
        self.origins = origins

    def route(self, path: tuple, key: bool = False) -> tuple[tuple, bool]:
        """The path in the file of the value at `path` of the expanded data (and whether its
        key's mark is meant)."""
        path = tuple(path)
        if len(path) < 2 or path[0] != "cards" or not isinstance(path[1], int) or path[1] >= len(self.origins):
            return path, key
        origin = self.origins[path[1]]
        if len(path) == 2 or not origin.made:
            return origin.entry + path[2:], key
        name = path[2]
        if key and len(path) == 3 and name in origin.names:
            return origin.names[name]
        if name in origin.values:
            return origin.values[name] + path[3:], key
        return origin.entry, False

    def at(self, path: tuple, key: bool = False) -> Location:
        return self.base.at(*self.route(path, key))

    def text_location(self, path: tuple, text: str, line: int, column: int) -> Location:
        return self.base.text_location(self.route(path)[0], text, line, column)


def expand_cards(cards: list, smap: SourceMap, limit: int) -> tuple[list, CardSourceMap, list[Diagnostic]]:
    """The card list with every table entry replaced by the entries it makes, its source map,
    and the problems of the tables (at most `limit` entries come from tables)."""
    result: list = []
    origins: list[Origin] = []
    problems: list[Diagnostic] = []
    for i, entry in enumerate(cards):
        if not (isinstance(entry, dict) and "table" in entry):
            result.append(entry)
            origins.append(Origin(("cards", i)))
            continue
        table = entry["table"]
        if isinstance(table, dict):  # else the schema said so
            made = _expand(table, ("cards", i, "table"), smap, problems, limit - len(result), limit)
            for e, origin in made:
                result.append(e)
                origins.append(origin)
    return result, CardSourceMap(smap, origins), problems


def _expand(table: dict, at: tuple, smap: SourceMap, problems: list[Diagnostic],
            room: int, limit: int) -> list[tuple[dict, Origin]]:
    def error(path: tuple, message: str, key: bool = False) -> None:
        problems.append(Diagnostic(smap.at(path, key), message))

    shared = {k: v for k, v in table.items() if k not in TABLE_KEYS}
    columns = table.get("columns") or []
    for_each = table.get("for_each") or {}
    if "rows" not in table and "for_each" not in table:
        error(at, "a table needs `rows` (one card each), `for_each` (one card for each value), or both", key=True)
        return []
    if not all(isinstance(c, str) for c in columns) or ("for_each" in table and not for_each):
        return []  # a column or every for_each name was rejected by the schema, which said why
    taken = set(shared)
    for name in for_each:
        if name in taken:
            error(at + ("for_each", name), f"'{name}' is given both by the table and by its for_each; "
                                           "give it in one place", key=True)
        taken.add(name)
    bad_columns = False
    for j, name in enumerate(columns):
        if name == "table":
            error(at + ("columns", j), "'table' cannot be a column: a table's rows make plain cards")
            bad_columns = True
        elif name in TABLE_KEYS:
            error(at + ("columns", j), f"'{name}' cannot be a column: it is a key of the table itself")
            bad_columns = True
        elif name in taken:
            error(at + ("columns", j), f"'{name}' is given both by the table and by this column; "
                                       "give it in one place")
            bad_columns = True
    if bad_columns:
        return []
    rows = table.get("rows", [None])  # no rows: one card for each combination of for_each
    lists = [v if isinstance(v, list) else [] for v in for_each.values()]
    if prod(map(len, lists)) * len(rows) > room:
        error(at, f"this table makes {prod(map(len, lists)) * len(rows)} entries: with the cards before it, "
                  f"more than the limit of {limit} cards in all", key=True)
        return []
    base_values = {k: at + (k,) for k in shared}
    base_names = {k: (at + (k,), True) for k in shared}
    made_rows = []  # (the row's own keys, their value paths, their name paths, the row's path)
    for r, row in enumerate(rows):
        where = at + ("rows", r) if "rows" in table else at
        if row is None:
            if "rows" in table:
                continue  # a row the schema rejected
            made_rows.append(({}, {}, {}, where))
        elif isinstance(row, list):
            if not columns:
                error(where, "a row written as a list needs the table's `columns`, the names of its values "
                             "(or write the row as a mapping)")
                continue
            if len(row) != len(columns):
                error(where, f"this row has {len(row)} value{'s' * (len(row) != 1)}, but the table has "
                             f"{len(columns)} column{'s' * (len(columns) != 1)} ({', '.join(columns)})")
                continue
            made_rows.append((dict(zip(columns, row)), {c: where + (j,) for j, c in enumerate(columns)},
                              {c: (at + ("columns", j), False) for j, c in enumerate(columns)}, where))
        elif isinstance(row, dict):
            fine = True
            for k in row:
                if k == "table" or k in TABLE_KEYS:
                    error(where + (k,), f"'{k}' cannot be a key of a row: a table's rows make plain cards",
                          key=True)
                    fine = False
                elif k in taken:
                    error(where + (k,), f"'{k}' is given both by the table and by this row; give it in one place",
                          key=True)
                    fine = False
            if fine:
                made_rows.append((row, {k: where + (k,) for k in row}, {k: (where + (k,), True) for k in row},
                                  where))
    names = list(for_each)
    made = []
    for combination in product(*(enumerate(v) for v in lists)):
        chosen = {n: value for n, (_, value) in zip(names, combination)}
        chosen_values = {n: at + ("for_each", n, index) for n, (index, _) in zip(names, combination)}
        chosen_names = {n: (at + ("for_each", n), True) for n in names}
        for own, values, row_names, where in made_rows:
            made.append((_in_written_order(table, chosen, own),
                         Origin(where, True, {**base_values, **chosen_values, **values},
                                {**base_names, **chosen_names, **row_names})))
    return made


def _in_written_order(table: dict, chosen: dict, own: dict) -> dict:
    """A made entry, its keys in the order the table writes them (as the entry written out
    would most likely have them): shared keys where they stand, the for_each names at
    `for_each`, the row's own keys at `columns` (or at `rows`, for rows written as mappings)."""
    entry: dict = {}
    for key, value in table.items():
        if key == "for_each":
            entry.update(chosen)
        elif key in ("columns", "rows"):
            entry.update(own)
        else:
            entry[key] = value
    return entry

"""Cards written as tables, and copies by `count:`: a table entry makes one card entry for each
row (and for each combination of its `for_each` values), exactly the cards the entries written
out make (same order, ids, properties, abilities); a mistake in a row is reported at that row,
cell or column; the shipped rulesets written with tables make the cards they made before."""
from __future__ import annotations

import json
import random
import re
import textwrap
from pathlib import Path

import jsonschema
import pytest
from referencing import Registry, Resource

from engine.cli import main
from engine.core.errors import RulesetError
from engine.game.game import Game
from engine.rules.ruleset import MAX_CARDS, Ruleset, load_ruleset

from conftest import ROOT

HEAD = textwrap.dedent("""\
    game: {name: Tiles, players: [2]}
    card_kinds:
      tile:
        zone: bag
        label: "{colour} {name} ({points})"
        properties: {colour: string, points: integer, marks: list}
      blank:
        zone: bag
        properties: {}
    zones:
      bag: {}
      hand: {per: player}
    counters:
      score: {per: player, initial: 0}
    flow: |
      shuffle(bag)
      repeat 2:
          for p in players:
              let c = choose(p, [x for x in bag if x.kind == "tile"], "Take a tile")
              move(c, hand[p])
              emit("taken", c, p)
    scoring:
      score: score[player]
    """)


def load(tmp_path: Path, cards: str, name: str = "tiles.yaml", extensions: list[Path] = ()) -> Ruleset:
    path = tmp_path / name
    path.write_text(HEAD + "cards:\n" + textwrap.indent(textwrap.dedent(cards), "  "), encoding="utf-8")
    return load_ruleset(path, list(extensions))


def errors(tmp_path: Path, cards: str, extension: str | None = None) -> list[str]:
    """Every error, as 'LINE:COLUMN: message' (the file's name left out)."""
    extensions = []
    if extension is not None:
        extensions = [tmp_path / "mine.yaml"]
        extensions[0].write_text(textwrap.dedent(extension), encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load(tmp_path, cards, extensions=extensions)
    return [f"{Path(d.location.file).name}:{d.location.line}:{d.location.column}: {d.message}"
            for d in caught.value.diagnostics]


def made(rs: Ruleset) -> list[tuple]:
    """Everything a card is made of, its properties in their order."""
    return [(c.id, c.index, c.kind, c.name, list(c.props.items()), c.label, c.back, c.entry, c.start)
            for c in rs.cards]


def play(rs: Ruleset, seed: int) -> str:
    game, rng = Game(rs, 2, None, seed), random.Random(seed)
    while not game.over:
        game.apply(rng.randrange(len(game.legal_actions())))
    return game.digest()


WRITTEN = """\
- {kind: tile, colour: red, name: Small, points: 1, marks: []}
- {kind: tile, colour: red, name: Large, points: 3, marks: [star], count: 2}
- {kind: tile, colour: blue, name: Small, points: 1, marks: []}
- {kind: tile, colour: blue, name: Large, points: 3, marks: [star], count: 2}
- {kind: blank, count: 2}
"""

AS_TABLE = """\
- table:
    kind: tile
    for_each: {colour: [red, blue]}
    columns: [name, points, marks]
    rows:
      - [Small, 1, []]
      - {name: Large, points: 3, marks: [star], count: 2}
- {kind: blank, count: 2}
"""


def test_count_makes_identical_cards_one_after_another(tmp_path):
    rs = load(tmp_path, """\
        - {kind: tile, colour: red, name: Small, points: 1, marks: [], count: 3}
        - {kind: blank}
        """)
    assert [c.id for c in rs.cards] == [1, 2, 3, 4]
    copies = rs.cards[:3]
    assert {(c.kind, c.name, c.label, c.entry) for c in copies} == {("tile", "Small", "red Small (1)", 0)}
    assert all(c.props == {"kind": "tile", "colour": "red", "points": 1, "marks": ()} for c in copies)
    assert (rs.cards[3].kind, rs.cards[3].entry) == ("blank", 1)


def test_a_table_makes_one_card_per_row_with_what_the_rows_share(tmp_path):
    rs = load(tmp_path, """\
        - table:
            kind: tile
            colour: green
            columns: [name, points, marks]
            rows:
              - [Small, 1, []]
              - [Large, 3, [star, moon]]
        - table:
            kind: tile
            rows:
              - {colour: red, name: Small, points: 2, marks: []}
              - {colour: red, name: Large, points: 4, marks: [], count: 2}
        """)
    assert [(c.id, c.label, c.props["marks"], c.entry) for c in rs.cards] == [
        (1, "green Small (1)", (), 0), (2, "green Large (3)", ("star", "moon"), 1),
        (3, "red Small (2)", (), 2), (4, "red Large (4)", (), 3), (5, "red Large (4)", (), 3)]
    assert list(rs.cards[0].props) == ["kind", "colour", "points", "marks"]


def test_for_each_repeats_the_rows_for_each_value_first_name_outermost(tmp_path):
    rs = load(tmp_path, """\
        - table:
            kind: tile
            marks: []
            for_each: {colour: [red, blue], points: [1, 2, 3]}
            columns: [name]
            rows: [[Small], [Large]]
        """)
    assert [f"{c.props['colour']} {c.props['points']} {c.name}" for c in rs.cards] == [
        f"{colour} {points} {name}" for colour in ("red", "blue") for points in (1, 2, 3)
        for name in ("Small", "Large")]
    assert [c.entry for c in rs.cards] == list(range(12))


def test_for_each_without_rows_makes_one_card_per_combination(tmp_path):
    rs = load(tmp_path, """\
        - table: {kind: tile, name: Dot, marks: [], for_each: {colour: [red, blue], points: [1, 2]}}
        """)
    assert [(c.props["colour"], c.props["points"]) for c in rs.cards] == [
        ("red", 1), ("red", 2), ("blue", 1), ("blue", 2)]


def test_a_table_makes_the_cards_of_the_entries_written_out(tmp_path):
    written = load(tmp_path, WRITTEN, "written.yaml")
    table = load(tmp_path, AS_TABLE, "table.yaml")
    assert made(table) == made(written)
    assert len(table.cards) == 8
    assert [play(table, seed) for seed in (1, 2)] == [play(written, seed) for seed in (1, 2)]


def test_abilities_shared_by_a_table_belong_to_each_card_as_if_written_out(tmp_path):
    ability = """\
        triggers:
          - on: taken
            params: [c, p]
            if: c == card
            do: score[p] += card.points
    """
    written = load(tmp_path, "".join(
        f"- kind: tile\n  colour: {colour}\n  name: Tile\n  points: {points}\n  marks: []\n"
        + textwrap.indent(textwrap.dedent(ability), "  ")
        for colour, points in (("red", 1), ("red", 5), ("blue", 1), ("blue", 5))).replace(
        "name: Tile\n  points: 5", "name: Big\n  points: 5"), "written.yaml")
    table = load(tmp_path, "- table:\n    kind: tile\n" + textwrap.indent(textwrap.dedent(ability), "    ")
                 + "    for_each: {colour: [red, blue]}\n    columns: [name, points]\n"
                   "    rows: [[Tile, 1], [Big, 5]]\n    marks: []\n", "table.yaml")
    assert [c.label for c in table.cards] == ["red Tile (1)", "red Big (5)", "blue Tile (1)", "blue Big (5)"]
    assert len(table.triggers["taken"]) == len(written.triggers["taken"]) == 4
    assert made(table) == made(written)
    games = [play(table, seed) for seed in (1, 2, 3)]
    assert games == [play(written, seed) for seed in (1, 2, 3)]


@pytest.mark.parametrize("name", ["trainsilvania", "trick_of_the_rails"])
def test_a_shipped_ruleset_makes_the_cards_it_made_written_out(tmp_path, name):
    """tests/fixtures/written_out holds the ruleset's cards as it wrote them before it used
    tables; put back into the ruleset, they make the same cards in the same order."""
    shipped = (ROOT / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8")
    assert re.search(r"^\s+- table:", shipped, re.M), "the shipped ruleset writes a table"
    written = (ROOT / "tests" / "fixtures" / "written_out" / f"{name}.yaml").read_text(encoding="utf-8")
    assert "- table:" not in written
    entries = written.split("\ncards:\n", 1)[1]
    before = re.sub(r"^cards:\n.*?(?=^\S)", lambda _: "cards:\n" + entries + "\n", shipped, count=1,
                    flags=re.S | re.M)
    assert before != shipped
    path = tmp_path / f"{name}.yaml"
    path.write_text(before, encoding="utf-8")
    old, new = load_ruleset(path), load_ruleset(ROOT / "rulesets" / f"{name}.yaml")
    assert len(old.cards) > 40
    assert made(new) == made(old)


def test_a_wrong_row_is_reported_at_the_row(tmp_path):
    problems = errors(tmp_path, """\
        - table:
            kind: tile
            columns: [colour, name, points, marks]
            rows:
              - [red, Small, 1, []]
              - [red, Large, 3]
              - [red, Huge, three, []]
              - [red, Tiny, 1, [], 4]
        """)
    assert problems == [
        "tiles.yaml:30:11: this row has 3 values, but the table has 4 columns (colour, name, points, marks)",
        "tiles.yaml:31:23: property 'points' must be of type integer, got 'three'",
        "tiles.yaml:32:11: this row has 5 values, but the table has 4 columns (colour, name, points, marks)",
    ]


def test_an_unknown_kind_or_property_points_at_the_cell_or_the_column(tmp_path):
    problems = errors(tmp_path, """\
        - table:
            columns: [kind, colour, name, points, marks]
            rows:
              - [tile, red, Small, 1, []]
              - [tiel, red, Large, 1, []]
        - table:
            kind: tile
            columns: [color, name, points, marks]
            rows:
              - [red, Small, 2, []]
              - [blue, Small, 2, []]
        - table:
            kind: tile
            rows:
              - {colour: red, name: Big, pionts: 2, marks: []}
        """)
    located = ["tiles.yaml:29:12: unknown card kind 'tiel' (did you mean 'tile'?)",
               "tiles.yaml:32:17: 'color' is not a property of card kind 'tile' (did you mean 'colour'?)",
               "tiles.yaml:39:36: 'pionts' is not a property of card kind 'tile' (did you mean 'points'?)"]
    assert [p for p in problems if "unknown" in p or "is not a property" in p] == located
    # The label, without the misspelt property, cannot be filled: said at each row, as when written out.
    assert [p.split(": the label")[0] for p in problems if "the label" in p] == [
        "tiles.yaml:34:11", "tiles.yaml:35:11", "tiles.yaml:39:11"]


def test_a_key_given_twice_a_bad_count_and_a_missing_kind_are_located(tmp_path):
    problems = errors(tmp_path, """\
        - table:
            kind: tile
            marks: []
            for_each: {marks: [[a]]}
            rows:
              - {colour: red, name: A, points: 1, kind: blank}
              - {colour: red, name: B, points: 1, count: two}
              - {colour: red, name: C, points: 1, count: 0}
        - table:
            colour: red
            rows:
              - {name: D, points: 1, marks: []}
        - table:
            columns: [name, rows]
            rows: []
        - table:
            kind: tile
        - table:
            kind: tile
            rows: [[red, E, 1, []]]
        """)
    assert problems == [
        "tiles.yaml:28:18: 'marks' is given both by the table and by its for_each; give it in one place",
        "tiles.yaml:30:45: 'kind' is given both by the table and by this row; give it in one place",
        "tiles.yaml:31:52: expected a whole number in cards[0].table.rows[1].count, got 'two'",
        "tiles.yaml:32:52: 0 is less than the minimum of 1 in cards[0].table.rows[2].count",
        "tiles.yaml:36:11: missing required key in cards[1].table.rows[0]: 'kind'",
        "tiles.yaml:38:23: 'rows' cannot be a column: it is a key of the table itself",
        "tiles.yaml:40:5: a table needs `rows` (one card each), `for_each` (one card for each value), or both",
        "tiles.yaml:44:14: a row written as a list needs the table's `columns`, the names of its values "
        "(or write the row as a mapping)",
    ]


def test_repeated_cards_of_a_table_are_reported_at_their_rows(tmp_path):
    problems = errors(tmp_path, """\
        - table:
            kind: tile
            marks: []
            columns: [colour, name, points]
            rows:
              - [red, Small, 1]
              - [red, Small, 1]
        """)
    assert problems == [
        "tiles.yaml:31:17: the card 'Small' of kind 'tile' is already an entry at line 30; for several copies "
        "of one card, write one entry with `count: N`; cards that differ need different names (or a label "
        "that tells them apart)"]


def test_a_mistake_the_rows_share_is_reported_once(tmp_path):
    problems = errors(tmp_path, """\
        - table:
            kind: tile
            points: many
            marks: []
            triggers:
              - {on: taken, params: [c, p], do: "score[p] += "}
            for_each: {colour: [red, blue]}
            columns: [name]
            rows: [[A], [B], [C]]
        """)
    assert len(problems) == 2, problems
    assert problems[0] == "tiles.yaml:27:15: property 'points' must be of type integer, got 'many'"
    assert problems[1].startswith("tiles.yaml:30:56: in trigger on 'taken' of card A:")


def test_a_table_may_not_make_more_than_the_limit_of_cards(tmp_path):
    values = list(range(1, 101))
    problems = errors(tmp_path, f"""\
        - table:
            kind: tile
            marks: []
            name: Dot
            for_each: {{colour: [red, blue, green], points: {values}}}
            rows: {[{"count": 1}] * (MAX_CARDS // 300 + 1)}
        """.replace("'", '"'))
    assert problems == [f"tiles.yaml:25:5: this table makes {300 * (MAX_CARDS // 300 + 1)} entries: with the "
                        f"cards before it, more than the limit of {MAX_CARDS} cards in all"]


def test_an_extension_file_writes_tables_and_its_mistakes_are_located_in_it(tmp_path):
    extension = """\
        cards:
          - table:
              kind: tile
              for_each: {colour: [red, blue]}
              columns: [name, points, marks]
              rows:
                - [Star, 9, [star]]
                - [Moon, 9]
        """
    problems = errors(tmp_path, "- {kind: blank}\n", extension)
    assert problems == ["mine.yaml:8:11: this row has 2 values, but the table has 3 columns (name, points, marks)"]
    (tmp_path / "mine.yaml").write_text(textwrap.dedent(extension).replace("[Moon, 9]", "[Moon, 9, []]"))
    rs = load(tmp_path, "- {kind: blank}\n", extensions=[tmp_path / "mine.yaml"])
    assert [c.label for c in rs.cards] == ["blank", "red Star (9)", "red Moon (9)", "blue Star (9)",
                                           "blue Moon (9)"]


def test_validate_prints_each_row_error_with_its_place(tmp_path, capsys):
    path = tmp_path / "tiles.yaml"
    path.write_text(HEAD + "cards:\n  - table:\n      kind: tile\n      columns: [colour, name]\n"
                           "      rows: [[red, A], [blue]]\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    printed = capsys.readouterr()
    lines = (printed.out + printed.err).splitlines()
    assert f"{path}:28:24: error: this row has 1 value, but the table has 2 columns (colour, name)" in lines
    assert f"{path}:28:14: error: missing the property 'points' of card kind 'tile'" in lines
    assert not any("Traceback" in line for line in lines)


def test_an_editor_checks_a_table_entry_with_the_schemas_alone():
    def read(name: str) -> dict:
        return json.loads((ROOT / "schemas" / name).read_text(encoding="utf-8"))
    registry = Registry(retrieve=lambda uri: Resource.from_contents(read(uri)))
    validator = jsonschema.Draft202012Validator(read("extension.schema.json"), registry=registry)
    good = {"cards": [{"table": {"kind": "tile", "for_each": {"colour": ["red"]}, "columns": ["name"],
                                 "rows": [["A"], {"name": "B"}]}}]}
    assert list(validator.iter_errors(good)) == []
    for card, complaint in [({"table": {"kind": "tile"}, "kind": "tile"}, "'kind' was unexpected"),
                            ({"table": {"rows": ["A"]}}, "is not of type 'array', 'object'"),
                            ({"table": {"for_each": {"colour": []}}}, "should be non-empty"),
                            ({"table": {"columns": ["a", "a"]}}, "non-unique")]:
        messages = [e.message for e in validator.iter_errors({"cards": [card]})]
        assert any(complaint in m for m in messages), messages


@pytest.mark.parametrize("entry, message", [
    ("- table: 5", "expected a mapping in cards[0].table, got 5"),
    ("- table: {kind: tile}", "a table needs `rows`"),
    ("- table: {kind: tile, columns: [1, a], rows: [[x, y]]}", "expected a string in cards[0].table.columns[0]"),
    ("- table: {kind: tile, for_each: {colour: []}}", "[] should be non-empty in cards[0].table.for_each.colour"),
    ("- table: {kind: tile, for_each: {}, rows: []}", "{} should be non-empty in cards[0].table.for_each"),
    ("- table: {kind: tile, rows: [null, 5]}", "expected a list or a mapping in cards[0].table.rows[1], got 5"),
    ("- {table: {kind: tile, rows: []}, kind: tile}", "unknown key 'kind' in cards[0]; allowed keys: table"),
    ("- table: {kind: tile, columns: [table], rows: [[1]]}", "'table' cannot be a column"),
    ("- table: {kind: tile, rows: [{rows: 1}]}", "'rows' cannot be a key of a row"),
    ("- table: {kind: tile, triggers: [{on: 1}], rows: [{colour: a, points: 1, marks: []}]}",
     "missing required key in cards[0].table.triggers[0]: 'do'"),
])
def test_a_broken_table_is_an_error_on_its_line_never_a_crash(tmp_path, entry, message):
    problems = errors(tmp_path, entry + "\n")
    assert any(p.startswith("tiles.yaml:25:") and message in p for p in problems), problems

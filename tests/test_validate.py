"""`engine validate`: every mistake in a ruleset is reported as FILE:LINE:COL: error: MESSAGE.

Each case starts from a tiny valid ruleset (BASE), breaks one thing, and checks the exit
status, the form of every output line, the line (and for the effect language the column)
of the report, the words of the message (what was expected, a 'did you mean' for a
near-miss name) and that no traceback reaches the user. The checks run in-process through
engine.cli.main; a representative subset also runs as `python -m engine validate`.
"""
from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parent.parent
TRICK = ROOT / "rulesets" / "trick_of_the_rails.yaml"

BASE = """\
game:
  name: Tiny
  players: [2, 3]
options:
  bonus:
    default: false
card_kinds:
  number:
    zone: deck
    label: "{name}"
    properties: {value: integer}
cards:
  - {kind: number, name: Amber, value: 1}
  - {kind: number, name: Beryl, value: 2}
  - {kind: number, name: Coral, value: 3}
  - {kind: number, name: Dune, value: 4}
  - {kind: number, name: Ember, value: 5}
  - {kind: number, name: Frost, value: 6}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner}
  pile: {}
counters:
  points: {per: player, initial: 0}
functions:
  double:
    params: [x]
    expr: x * 2
setup: |
  shuffle(deck)
  for p in players:
      deal(deck, hand[p], 3)
flow: |
  repeat 3:
      for p in players:
          let c = choose(p, hand[p], "Play a card")
          move(c, pile)
          points[p] += c.value
scoring:
  score: points[player]
"""

DIAG = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$")
# A problem with the file as a whole (missing, a directory, binary) has no line to point at.
FILE_DIAG = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+):(?P<col>\d+))?: error: (?P<msg>.+)$")


def mutate(old: str, new: str, text: str = BASE) -> str:
    """BASE with one exact, unique piece replaced."""
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
    return text.replace(old, new)


def where(text: str, marker: str, offset: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the first occurrence of marker (plus offset characters)."""
    i = text.index(marker) + offset
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col


@dataclass
class Diag:
    file: str
    line: int | None
    col: int | None
    msg: str


@dataclass
class Result:
    rc: int
    out: str
    err: str
    diags: list[Diag] = field(default_factory=list)


def parse_diags(out: str, files: list[str], file_level_ok: bool = False) -> list[Diag]:
    """Every stdout line must be a diagnostic about one of the given files, or say one is ok."""
    diags = []
    for raw in out.splitlines():
        if not raw.strip() or raw.startswith("  ") or any(raw.startswith(f"{file}: ok (") for file in files):
            continue
        m = (FILE_DIAG if file_level_ok else DIAG).match(raw)
        assert m, f"not of the form FILE:LINE:COL: error: MESSAGE: {raw!r}"
        assert m["file"] in files, f"diagnostic names {m['file']!r}, not one of {files}: {raw!r}"
        diags.append(Diag(m["file"], int(m["line"]) if m["line"] else None,
                          int(m["col"]) if m["col"] else None, m["msg"]))
    return diags


def validate_inprocess(capsys, *paths: Path | str) -> Result:
    capsys.readouterr()
    try:
        rc = main(["validate", *map(str, paths)])
    except SystemExit as exc:  # argparse
        rc = exc.code
    except BaseException as exc:  # a traceback would reach the user
        pytest.fail(f"engine.cli.main raised {exc.__class__.__name__}: {exc}")
    captured = capsys.readouterr()
    return Result(rc, captured.out, captured.err)


def validate_subprocess(*paths: Path | str) -> Result:
    proc = subprocess.run([sys.executable, "-m", "engine", "validate", *map(str, paths)],
                          capture_output=True, text=True, encoding="utf-8", errors="replace",
                          cwd=ROOT, timeout=60)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def assert_no_traceback(r: Result) -> None:
    assert "Traceback" not in r.out and "Traceback" not in r.err, r.out + r.err


def write(tmp_path: Path, content: str | bytes, name: str = "rules.yaml") -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# ------------------------------------------------------------------ the good ruleset


def test_shipped_ruleset_is_ok_inprocess(capsys):
    r = validate_inprocess(capsys, TRICK)
    assert r.rc == 0, r.out + r.err
    assert "ok" in r.out + r.err
    assert "error" not in r.out
    assert_no_traceback(r)


def test_shipped_ruleset_is_ok_subprocess():
    r = validate_subprocess(TRICK)
    assert r.rc == 0, r.out + r.err
    assert "ok" in r.out + r.err
    assert_no_traceback(r)


def test_base_ruleset_is_ok(tmp_path, capsys):
    r = validate_inprocess(capsys, write(tmp_path, BASE))
    assert r.rc == 0, r.out + r.err
    assert "ok" in r.out


# ------------------------------------------------------------------ one mistake each


@dataclass
class Case:
    content: str | bytes
    line: int | None          # the line the report must point at
    col: int | None = None    # checked when given
    must: tuple[str, ...] = ()  # words every matching report contains
    file_level: bool = False  # the report may be FILE: error: ... (no line)


def _cases() -> dict[str, Case]:
    c: dict[str, Case] = {}

    # ---- schema
    t = mutate("zones:\n  deck:", "zonse:\n  deck:")
    c["unknown-top-level-key"] = Case(t, where(t, "zonse")[0], 1,
                                      ("unknown key 'zonse'", "did you mean 'zones'"))
    t = mutate("  pile: {}", "  pile: {visibilty: public}")
    c["unknown-key-in-zone"] = Case(t, *where(t, "visibilty"),
                                    must=("unknown key 'visibilty'", "did you mean 'visibility'"))
    t = BASE + "bots:\n  mcts: {iteration: 400}\n"
    c["unknown-bot-parameter"] = Case(t, *where(t, "iteration"),
                                      must=("unknown key 'iteration'", "did you mean 'iterations'"))
    t = mutate("  players: [2, 3]", '  players: "four"')
    c["wrong-type"] = Case(t, where(t, '"four"')[0], None, ("list", "four"))
    t = mutate("  deck: {visibility: hidden}", "  deck: {visibility: secret}")
    c["bad-enum-lists-choices"] = Case(t, where(t, "secret")[0], None,
                                       ("'secret'", "public", "owner", "hidden"))
    t = mutate("  deck: {visibility: hidden}", "  deck: {visibility: hiden}")
    c["bad-enum-near-miss"] = Case(t, where(t, "hiden")[0], None, ("did you mean 'hidden'",))
    t = mutate("    properties: {value: integer}", "    properties: {value: int}")
    c["bad-property-type"] = Case(t, where(t, "value: int}")[0], None, ("'int'", "integer"))
    t = mutate("game:\n  name: Tiny\n", "game:\n")
    # reported at the mapping that lacks the key
    c["missing-required-key"] = Case(t, where(t, "  players")[0], None, ("missing", "'name'"))

    # ---- YAML
    t = mutate("  points: {per: player, initial: 0}\n",
               "  points: {per: player, initial: 0}\n  points: {initial: 1}\n")
    c["duplicate-key"] = Case(t, where(t, "  points: {initial: 1}")[0], None, ("duplicate key 'points'",))
    t = mutate("  pile: {}", "  pile: {display: true, display: false}")
    c["duplicate-key-inline"] = Case(t, where(t, "display: false")[0], None, ("duplicate key 'display'",))
    t = mutate("  name: Tiny", "\tname: Tiny")
    c["tab-indentation"] = Case(t, where(t, "\tname")[0], None, ("tab",))
    t = mutate("      deal(deck, hand[p], 3)", "\t    deal(deck, hand[p], 3)")
    c["tab-in-block-scalar"] = Case(t, where(t, "\t    deal")[0], None, ("tab",))
    t = mutate("  players: [2, 3]", "   players: [2, 3]")
    c["bad-indentation"] = Case(t, where(t, "   players")[0], None, ("YAML",))
    t = mutate("    label: \"{name}\"\n", "    label: \"{name}\"\n      description: oops\n")
    c["bad-indentation-deeper"] = Case(t, where(t, "description: oops")[0], None, ("YAML",))
    c["empty-file"] = Case("", 1, None, ("empty",))
    c["only-comments"] = Case("# nothing here\n\n", 1, None, ("empty",))
    c["binary-file"] = Case(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01", None, None, ("binary",),
                            file_level=True)
    t8 = mutate("  name: Tiny", "  name: Tiny\n  description: caf\xe9").encode("latin-1")
    c["not-utf8"] = Case(t8, BASE.count("\n", 0, BASE.index("  name: Tiny")) + 2, None, ("UTF-8",))
    c["not-a-mapping"] = Case("- just\n- a list\n", 1, None, ("mapping",))

    # ---- the engine's checks on cards
    t = mutate("  - {kind: number, name: Beryl, value: 2}", "  - {kind: number, name: Beryl, valeu: 2}")
    c["card-property-not-declared"] = Case(t, where(t, "valeu")[0], None,
                                           ("'valeu'", "did you mean 'value'"))
    t = mutate("  - {kind: number, name: Coral, value: 3}", "  - {kind: number, name: Coral}")
    c["card-missing-property"] = Case(t, where(t, "name: Coral}")[0], None, ("missing", "'value'"))
    t = mutate("    zone: deck", "    zone: dekc")
    c["card-kind-unknown-zone"] = Case(t, where(t, "dekc")[0], None, ("'dekc'", "did you mean 'deck'"))
    t = mutate("  - {kind: number, name: Dune, value: 4}", "  - {kind: numbr, name: Dune, value: 4}")
    c["card-unknown-kind"] = Case(t, where(t, "numbr")[0], None, ("'numbr'", "did you mean 'number'"))
    t = mutate("  - {kind: number, name: Ember, value: 5}", '  - {kind: number, name: Ember, value: "five"}')
    c["card-property-wrong-type"] = Case(t, where(t, '"five"')[0], None, ("integer", "five"))

    # ---- the effect language: syntax
    t = mutate("          move(c, pile)", "          move(c, pile))")
    c["syntax-in-block-scalar"] = Case(t, *where(t, "pile))", 5), must=("')'",))
    t = mutate("  score: points[player]", "  score: points[player] + * 2")
    c["syntax-in-one-line-string"] = Case(t, *where(t, "+ * 2", 2), must=("'*'",))
    t = mutate("  score: points[player]", '  score: "points[player] + * 2"')
    c["syntax-in-quoted-string"] = Case(t, *where(t, "+ * 2", 2), must=("'*'",))
    t = mutate("    expr: x * 2", "    expr: x * 2 $")
    c["bad-character-in-function"] = Case(t, *where(t, "$"), must=("'$'",))
    t = mutate("  repeat 3:\n", "  repeat 3\n")
    c["missing-colon"] = Case(t, where(t, "  repeat 3\n")[0], None, ("':'",))

    # ---- the effect language: names
    t = mutate("  for p in players:\n      deal", "  for p in plyers:\n      deal")
    c["unknown-name"] = Case(t, *where(t, "plyers"), must=("'plyers'", "did you mean 'players'"))
    t = mutate("          move(c, pile)", "          move(c, piel)")
    c["unknown-zone-name"] = Case(t, *where(t, "piel"), must=("'piel'", "did you mean 'pile'"))
    t = mutate("  shuffle(deck)", "  shufle(deck)")
    c["unknown-function"] = Case(t, *where(t, "shufle"), must=("'shufle'", "did you mean 'shuffle'"))
    t = mutate("  score: points[player]", "  score: doubel(points[player])")
    c["unknown-user-function"] = Case(t, *where(t, "doubel"), must=("'doubel'", "did you mean 'double'"))
    t = mutate("  shuffle(deck)", "  shuffle(deck, 3)")
    c["builtin-wrong-argument-count"] = Case(t, *where(t, "shuffle(deck, 3)"),
                                             must=("argument", "shuffle(zone)"))
    t = mutate("  score: points[player]", "  score: double(points[player], 1)")
    c["function-wrong-argument-count"] = Case(t, *where(t, "double(points"),
                                              must=("double()", "1 argument", "given 2"))
    t = mutate("  score: points[player]", "  score: points[player] + move(first(pile), deck)")
    c["effect-inside-expression"] = Case(t, *where(t, "move(first"), must=("move()", "statement"))
    t = mutate("          points[p] += c.value", "          pionts = c.value")
    c["assign-to-unknown-name"] = Case(t, *where(t, "pionts"),
                                       must=("cannot assign", "'pionts'", "did you mean 'points'"))
    t = mutate("  score: points[player]", "  score: points[player] + (1 if option.bonsu else 0)")
    c["unknown-option"] = Case(t, *where(t, "bonsu"), must=("'bonsu'", "did you mean 'bonus'"))
    t = mutate("          points[p] += c.value", "          points[p] += c.vlaue")
    c["unknown-property"] = Case(t, *where(t, "vlaue"), must=("'vlaue'", "did you mean 'value'"))
    return c


CASES = _cases()


def _matching(diags: list[Diag], case: Case) -> list[Diag]:
    return [d for d in diags if all(m in d.msg for m in case.must)]


def _check_case(case: Case, path: Path, r: Result) -> None:
    assert_no_traceback(r)
    assert r.rc == 1, f"exit status {r.rc}\n{r.out}{r.err}"
    diags = parse_diags(r.out, [str(path)], file_level_ok=case.file_level)
    assert diags, f"no diagnostic printed\nstdout: {r.out!r}\nstderr: {r.err!r}"
    found = _matching(diags, case)
    assert found, f"no report contains {case.must}:\n{r.out}"
    if case.line is not None:
        at_line = [d for d in found if d.line == case.line]
        assert at_line, f"expected a report at line {case.line}, got:\n{r.out}"
        if case.col is not None:
            assert any(d.col == case.col for d in at_line), \
                f"expected a report at {case.line}:{case.col}, got:\n{r.out}"


@pytest.mark.parametrize("name", list(CASES))
def test_one_mistake_is_reported_inprocess(name, tmp_path, capsys):
    case = CASES[name]
    path = write(tmp_path, case.content)
    _check_case(case, path, validate_inprocess(capsys, path))


SUBPROCESS_CASES = ["unknown-top-level-key", "duplicate-key", "tab-indentation", "empty-file",
                    "binary-file", "not-utf8", "card-property-not-declared", "syntax-in-block-scalar",
                    "unknown-name", "effect-inside-expression"]


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_one_mistake_is_reported_subprocess(name, tmp_path):
    case = CASES[name]
    path = write(tmp_path, case.content)
    _check_case(case, path, validate_subprocess(path))


def test_unclosed_bracket_points_at_the_bracket(tmp_path, capsys):
    """The report must lead to the line where '[' was opened (as its location or in its text)."""
    t = mutate("  players: [2, 3]", "  players: [2, 3")
    path = write(tmp_path, t)
    r = validate_inprocess(capsys, path)
    assert_no_traceback(r)
    assert r.rc == 1
    diags = parse_diags(r.out, [str(path)])
    line = where(t, "[2, 3")[0]
    assert any(d.line == line or f"line {line}" in d.msg for d in diags), \
        f"the '[' opened at line {line}, but the report says:\n{r.out}"


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_unreadable_path(kind, tmp_path, capsys):
    path = tmp_path / "nosuch.yaml" if kind == "missing" else tmp_path
    for r in (validate_inprocess(capsys, path), validate_subprocess(path)):
        assert_no_traceback(r)
        assert r.rc == 1
        diags = parse_diags(r.out, [str(path)], file_level_ok=True)
        assert len(diags) == 1, r.out
        msg = diags[0].msg.lower()
        assert "cannot read" in msg
        assert ("no such file" in msg) if kind == "missing" else ("directory" in msg)


# ------------------------------------------------------------------ the same card twice


def test_a_card_name_repeated_in_a_kind_is_an_error_at_the_repeat(tmp_path, capsys):
    t = mutate("  - {kind: number, name: Frost, value: 6}\n",
               "  - {kind: number, name: Frost, value: 6}\n  - {kind: number, name: Amber, value: 1}\n")
    diags = _single_report(capsys, tmp_path, t)
    repeat = t.rindex("Amber")
    assert [(d.line, d.col) for d in diags] == [(t.count("\n", 0, repeat) + 1, where(t, "Amber")[1])], diags
    assert f"already an entry at line {where(t, 'Amber')[0]}" in diags[0].msg
    assert "count: N" in diags[0].msg


def test_a_repeated_entry_without_a_name_is_an_error(tmp_path, capsys):
    t = mutate("  - {kind: number, name: Frost, value: 6}\n",
               "  - {kind: number, name: Frost, value: 6}\n  - {kind: number, value: 7}\n"
               "  - {kind: number, value: 8}\n  - {kind: number, value: 7}\n")
    diags = _single_report(capsys, tmp_path, t)
    first, repeat = where(t, "{kind: number, value: 7}")[0], t.count("\n", 0, t.rindex("value: 7")) + 1
    assert [d.line for d in diags] == [repeat], diags
    assert f"repeats the one at line {first}" in diags[0].msg and "count: N" in diags[0].msg


def test_copies_by_count_and_names_told_apart_by_the_label_are_fine(tmp_path, capsys):
    """As a ruleset's tickets of several colours: one name, a label showing the colour."""
    t = mutate('    label: "{name}"', '    label: "{name} {value}"')
    t = mutate("  - {kind: number, name: Frost, value: 6}\n",
               "  - {kind: number, name: Frost, value: 6}\n  - {kind: number, name: Amber, value: 9}\n"
               "  - {kind: number, name: Gem, value: 1, count: 3}\n", t)
    r = validate_inprocess(capsys, write(tmp_path, t))
    assert r.rc == 0, r.out + r.err


def test_an_extension_repeating_a_card_is_reported_in_the_extension(tmp_path, capsys):
    rules = write(tmp_path, BASE)
    ext = write(tmp_path, "cards:\n  - {kind: number, name: Gem, value: 8}\n"
                          "  - {kind: number, name: Coral, value: 3}\n", "more.yaml")
    r = validate_inprocess(capsys, rules, "--with", ext)
    diags = parse_diags(r.out, [str(rules), str(ext)])
    assert [(d.file, d.line) for d in diags] == [(str(ext), 3)], r.out
    assert f"already an entry at {rules}:{where(BASE, 'Coral')[0]}" in diags[0].msg
    assert "remove_cards" in diags[0].msg


def test_an_extension_given_twice_is_reported_once(tmp_path, capsys):
    rules = write(tmp_path, BASE)
    ext = write(tmp_path, "cards:\n  - {kind: number, name: Gem, value: 8}\n", "more.yaml")
    r = validate_inprocess(capsys, rules, "--with", ext, "--with", ext)
    diags = parse_diags(r.out, [str(ext)], file_level_ok=True)
    assert r.rc == 1 and len(diags) == 1 and "given twice" in diags[0].msg, r.out


# ------------------------------------------------------------------ triggers and the events they hear

EMITTING = mutate("          points[p] += c.value\n",
                  "          points[p] += c.value\n          emit(\"played\", p, c)\n") + \
    "triggers:\n  - on: played\n    params: [p, c]\n    do: points[p] += 1\n"


def test_trigger_arity_matching_every_emit_is_fine(tmp_path, capsys):
    r = validate_inprocess(capsys, write(tmp_path, EMITTING))
    assert r.rc == 0, r.out + r.err


def test_trigger_with_the_wrong_number_of_parameters_is_reported_at_its_params(tmp_path, capsys):
    t = mutate("    params: [p, c]", "    params: [p]", EMITTING)
    t = mutate("  shuffle(deck)\n", "  shuffle(deck)\n  emit(\"played\", 1, first(deck))\n  emit(\"played\", 2)\n", t)
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, "params: [p]", 8)], diags
    msg = diags[0].msg
    assert "has 1 parameter(s) (p)" in msg and "params:" in msg
    first, second = where(t, 'emit("played", p'), where(t, 'emit("played", 1')
    assert f"with 2 argument(s) at line {first[0]}:{first[1]}" in msg
    assert f"with 2 argument(s) at line {second[0]}:{second[1]}" in msg
    matching = where(t, 'emit("played", 2)')
    assert f"line {matching[0]}:{matching[1]}" not in msg  # that one has the parameters' number


def test_trigger_on_an_event_no_rule_emits_gets_did_you_mean(tmp_path, capsys):
    t = mutate("  - on: played\n", "  - on: plaid\n", EMITTING)
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, "plaid")], diags
    assert "no rule emits the event 'plaid'" in diags[0].msg and "did you mean 'played'" in diags[0].msg


def test_an_event_emitted_under_a_computed_name_is_left_to_play(tmp_path, capsys):
    """`emit(name, ...)` with a name worked out in play could emit anything: no 'never emitted'."""
    t = mutate("  - on: played\n", "  - on: plaid\n", EMITTING)
    t = mutate("  shuffle(deck)\n", "  shuffle(deck)\n  let e = \"x\"\n  emit(e)\n", t)
    r = validate_inprocess(capsys, write(tmp_path, t))
    assert r.rc == 0, r.out + r.err


# ------------------------------------------------------------------ label templates


@pytest.mark.parametrize("template,words", [
    ("{value[0]}", "not a plain field"),        # was a TypeError: an int has no items
    ("{value.real.x}", "not a plain field"),    # was an AttributeError
    ("{name.__class__}", "not a plain field"),  # was accepted, showing "<class 'str'>"
    ("{name:>2000}", "width over 1000"),        # a label of any size was made
    ("{name:>{value}}", "nested field"),
    ("{valeu}", "did you mean 'value'"),
    ("{name", "'{{'"),
])
def test_a_label_template_mistake_is_reported_once_at_the_template(template, words, tmp_path, capsys):
    t = mutate('    label: "{name}"', f'    label: "{template}"')
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, f'"{template}"')], diags  # not once a card
    assert words in diags[0].msg, diags[0].msg


def test_a_label_format_that_does_not_suit_a_value_is_reported_at_the_card(tmp_path, capsys):
    t = mutate('    label: "{name}"', '    label: "{name} {value:.2s}"')
    diags = _single_report(capsys, tmp_path, t)
    assert len(diags) == 6 and diags[0].line == where(t, "Amber")[0], diags


# ------------------------------------------------------------------ a file that is no ruleset

NOT_RULESETS: dict[str, str | bytes] = {
    "notes.txt": "Remember to buy milk\nand call the plumber\n",
    "script.py": "import os\n\n\ndef main():\n    print(os.getcwd())\n",
    "readme.md": "# My game\n\nRules: draw a card, then play one.\n\n```yaml\ngame: {name: X}\n```\n",
    "pyproject.toml": '[project]\nname = "x"\nversion = "1.0"\n',
    "schema.json": '{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",'
                   ' "properties": {"procedures": {}}}',
    "table.csv": "name,value\nAmber,1\nBeryl,2\n",
    "page.html": "<html><body><p>Hello</p></body></html>\n",
    "run.sh": "#!/bin/sh\necho hello\n",
    "ci.yml": "name: CI\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n",
    "number.yaml": "42\n",
    "list.yaml": "- Amber\n- Beryl\n",
    "nothing.yaml": "null\n",
    "dashes.yaml": "---\n",
    "mapping.yaml": "{}\n",
    "empty.yaml": "",
    "comments.yaml": "# to do\n",
    "image.png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01",
}


@pytest.mark.parametrize("name", list(NOT_RULESETS))
def test_a_file_that_is_no_ruleset_gets_one_line_saying_so(name, tmp_path, capsys):
    content = NOT_RULESETS[name]
    path = write(tmp_path, content, name)
    r = validate_inprocess(capsys, path)
    assert_no_traceback(r)
    assert r.rc == 1
    diags = parse_diags(r.out, [str(path)], file_level_ok=True)
    assert len(diags) == 1, r.out
    msg = diags[0].msg
    assert msg.startswith("this is not a ruleset ("), msg
    assert "game:" in msg and "zones:" in msg and "flow:" in msg, msg  # what a ruleset looks like
    first = (content.decode("latin-1") if isinstance(content, bytes) else content).split("\n")[0]
    assert not first.strip() or first not in msg, f"the first line is quoted back: {msg}"


def test_a_saved_game_named_as_a_ruleset(tmp_path, capsys):
    path = write(tmp_path, '{"format": "engine-save/2", "ruleset": "r.yaml", "options": {}, "seed": 1}',
                 "game.json")
    diags = parse_diags(validate_inprocess(capsys, path).out, [str(path)])
    assert [d.msg.split(":")[0] for d in diags] == ["this is a saved game, not a ruleset"], diags
    assert "--resume" in diags[0].msg and "replay" in diags[0].msg


def test_an_extension_file_named_as_a_ruleset(tmp_path, capsys):
    path = ROOT / "examples" / "my_events.yaml"
    diags = parse_diags(validate_inprocess(capsys, path).out, [str(path)])
    assert len(diags) == 1 and "extension file" in diags[0].msg and "--with" in diags[0].msg, diags


def test_a_text_file_given_as_an_extension(tmp_path, capsys):
    ext = write(tmp_path, "Remember to buy milk\n", "notes.txt")
    r = validate_inprocess(capsys, TRICK, "--with", ext)
    diags = parse_diags(r.out, [str(ext)])
    assert r.rc == 1 and len(diags) == 1, r.out
    assert diags[0].msg.startswith("this is not an extension file (") and "cards:" in diags[0].msg


def test_a_directory_names_its_yaml_files(capsys):
    r = validate_inprocess(capsys, ROOT / "rulesets")
    diags = parse_diags(r.out, [str(ROOT / "rulesets")], file_level_ok=True)
    assert r.rc == 1 and len(diags) == 1, r.out
    assert "directory" in diags[0].msg and str(ROOT / "rulesets" / "railways.yaml") in diags[0].msg


def test_a_half_typed_ruleset_with_a_misspelt_section_gets_did_you_mean(tmp_path, capsys):
    path = write(tmp_path, "gmae:\n  name: Tiny\n  players: [2]\n")
    diags = parse_diags(validate_inprocess(capsys, path).out, [str(path)])
    assert any("unknown key 'gmae'" in d.msg and "did you mean 'game'" in d.msg for d in diags), diags


def test_a_broken_ruleset_is_still_reported_at_its_line(tmp_path, capsys):
    """A ruleset with a syntax error is taken for a ruleset, even with its first section misspelt."""
    for first in ("game:", "gmae:"):
        t = mutate("game:", first, mutate("  players: [2, 3]", "  players: [2, 3"))
        diags = _single_report(capsys, tmp_path, t)
        assert [d.msg[:12] for d in diags] == ["YAML syntax:"], diags


# ------------------------------------------------------------------ positions in rule text


def _single_report(capsys, tmp_path, text: str) -> list[Diag]:
    path = write(tmp_path, text)
    r = validate_inprocess(capsys, path)
    assert_no_traceback(r)
    assert r.rc == 1, r.out + r.err
    return parse_diags(r.out, [str(path)])


def test_syntax_error_deep_in_procedure_block(tmp_path, capsys):
    t = mutate("functions:\n", "procedures:\n  helper:\n    params: [x]\n    do: |\n"
               "      let y = x\n      if y > 1:\n          y += plyers\nfunctions:\n")
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, "plyers")], diags


def test_block_scalar_with_strip_indicator(tmp_path, capsys):
    t = mutate("setup: |\n  shuffle(deck)\n", "setup: |-\n  shuffle(deck)\n  shufle(deck)\n")
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, "shufle")], diags


def test_block_scalar_starting_with_a_blank_line(tmp_path, capsys):
    t = mutate("setup: |\n  shuffle(deck)\n", "setup: |\n\n  shuffle(deck)\n  x = = 1\n")
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, "= 1")], diags


def test_folded_block_scalar(tmp_path, capsys):
    t = mutate("  score: points[player]", "  score: >\n    points[player]\n    + plyers")
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, "plyers")], diags


def test_multi_line_plain_scalar(tmp_path, capsys):
    t = mutate("  score: points[player]", "  score: points[player]\n    + plyers")
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, "plyers")], diags


def test_unexpected_indentation_points_at_the_indented_line(tmp_path, capsys):
    t = mutate("          move(c, pile)", "           move(c, pile)")
    diags = _single_report(capsys, tmp_path, t)
    assert len(diags) == 1 and "indent" in diags[0].msg, diags
    assert diags[0].line == where(t, "           move(c, pile)")[0], diags


def test_inconsistent_dedent_points_at_the_dedented_line(tmp_path, capsys):
    t = mutate("          move(c, pile)", "        move(c, pile)")
    diags = _single_report(capsys, tmp_path, t)
    assert len(diags) == 1 and "indent" in diags[0].msg, diags
    assert diags[0].line == where(t, "        move(c, pile)")[0], diags


def test_tab_in_the_indentation_of_rule_text_is_an_error_where_it_is(tmp_path, capsys):
    """The parser counts a tab as 8 columns: here it would put `points[p] += 1` inside the
    `if`, though an editor showing tabs 4 wide shows it outside. Reported, never guessed."""
    t = mutate("          points[p] += c.value\n",
               "          points[p] += c.value\n          if c.value > 3:\n"
               "                  points[p] += 1\n          \tpoints[p] += 1\n")
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, "\tpoints")], diags
    assert "tab" in diags[0].msg and "spaces" in diags[0].msg and "in flow" in diags[0].msg


def test_every_tab_in_rule_text_is_reported(tmp_path, capsys):
    t = mutate("  shuffle(deck)\n", "  shuffle(deck)\n  if true:\n  \tshuffle(deck)\n")
    t = mutate("  score: points[player]", "  score: |\n    (points[player]\n    \t+ 1)", t)
    t = mutate("  for p in players:\n      deal", "  for p in plyers:\n      deal", t)
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == sorted([where(t, "\tshuffle"), where(t, "plyers"),
                                                      where(t, "\t+ 1")]), diags


def test_tabs_elsewhere_in_rule_text_are_fine(tmp_path, capsys):
    t = mutate("          points[p] += c.value", "          points[p] +=\tc.value  \t# a comment\n  \t\n")
    r = validate_inprocess(capsys, write(tmp_path, t))
    assert r.rc == 0, r.out + r.err


# ------------------------------------------------------------------ half-typed and truncated files


@pytest.mark.parametrize("header", [">-", ">", "|", "|-", ">+"])
def test_empty_block_scalar_followed_by_a_key_is_the_empty_string(header, tmp_path, capsys):
    """`description: >-` with nothing under it, as a half-typed file has it, is YAML's empty string."""
    t = mutate("  name: Tiny\n", f"  name: Tiny\n  description: {header}\n")
    r = validate_inprocess(capsys, write(tmp_path, t))
    assert_no_traceback(r)
    assert r.rc == 0, r.out + r.err


@pytest.mark.parametrize("ending", ["", "\n"])
def test_empty_block_scalar_at_the_end_of_the_file(ending, tmp_path, capsys):
    t = BASE + "constants:\n  note: >-" + ending
    r = validate_inprocess(capsys, write(tmp_path, t))
    assert_no_traceback(r)
    assert r.rc == 0, r.out + r.err


def test_truncated_rule_after_an_empty_block_header_is_reported_at_its_key(tmp_path, capsys):
    t = mutate("scoring:\n  score: points[player]\n", "scoring:\n  score: >-")
    diags = _single_report(capsys, tmp_path, t)
    assert [(d.line, d.col) for d in diags] == [where(t, ">-")], diags
    assert "ends too early" in diags[0].msg


# ------------------------------------------------------------------ every error, not only the first


def test_several_rule_errors_all_reported(tmp_path, capsys):
    t = BASE
    t = mutate("  for p in players:\n      deal", "  for p in plyers:\n      deal", t)
    t = mutate("  shuffle(deck)", "  shufle(deck)", t)
    t = mutate("          points[p] += c.value", "          points[p] += c.vlaue", t)
    t = mutate("  score: points[player]", "  score: points[player] + (1 if option.bonsu else 0)", t)
    t = mutate("  - {kind: number, name: Dune, value: 4}", "  - {kind: numbr, name: Dune, value: 4}", t)
    path = write(tmp_path, t)
    r = validate_inprocess(capsys, path)
    assert r.rc == 1
    diags = parse_diags(r.out, [str(path)])
    assert len(diags) == 5, r.out
    assert sorted(d.line for d in diags) == sorted(
        where(t, m)[0] for m in ("plyers", "shufle", "vlaue", "bonsu", "numbr"))
    assert "5 error(s)" in r.err


def test_several_schema_errors_all_reported(tmp_path, capsys):
    t = BASE
    t = mutate("  pile: {}", "  pile: {visibilty: public}", t)
    t = mutate("  deck: {visibility: hidden}", "  deck: {visibility: secret}", t)
    t = mutate("  players: [2, 3]", '  players: "four"', t)
    path = write(tmp_path, t)
    diags = parse_diags(validate_inprocess(capsys, path).out, [str(path)])
    assert len(diags) == 3, diags
    assert sorted(d.line for d in diags) == sorted(where(t, m)[0] for m in ("visibilty", "secret", "four"))


def test_several_errors_reported_by_subprocess(tmp_path):
    t = mutate("  shuffle(deck)", "  shufle(deck)", mutate("  for p in players:\n      deal", "  for p in plyers:\n      deal"))
    path = write(tmp_path, t)
    r = validate_subprocess(path)
    assert r.rc == 1
    assert_no_traceback(r)
    assert len(parse_diags(r.out, [str(path)])) == 2, r.out


def test_errors_of_different_kinds_all_reported(tmp_path, capsys):
    """A misspelt key (schema) must not hide a misspelt name in a rule (effect language)."""
    t = mutate("  pile: {}", "  pile: {visibilty: public}")
    t = mutate("  for p in players:\n      deal", "  for p in plyers:\n      deal", t)
    path = write(tmp_path, t)
    r = validate_inprocess(capsys, path)
    assert r.rc == 1
    diags = parse_diags(r.out, [str(path)])
    lines = {d.line for d in diags}
    assert where(t, "visibilty")[0] in lines, r.out
    assert where(t, "plyers")[0] in lines, f"the error in the setup rule is not reported:\n{r.out}"


def test_duplicate_key_does_not_hide_other_errors(tmp_path, capsys):
    t = mutate("  pile: {}", "  pile: {display: true, display: false}")
    t = mutate("  deck: {visibility: hidden}", "  deck: {visibility: hiden}", t)
    path = write(tmp_path, t)
    r = validate_inprocess(capsys, path)
    diags = parse_diags(r.out, [str(path)])
    assert {where(t, "display: false")[0], where(t, "hiden")[0]} <= {d.line for d in diags}, r.out


@pytest.mark.parametrize("name", ["card-kind-unknown-zone", "card-missing-property"])
def test_one_mistake_one_report(name, tmp_path, capsys):
    """Reports that follow from an already reported mistake should not be repeated at other lines."""
    case = CASES[name]
    path = write(tmp_path, case.content)
    diags = parse_diags(validate_inprocess(capsys, path).out, [str(path)])
    assert len(diags) == 1, f"one mistake at line {case.line} gave {len(diags)} reports:\n" + \
        "\n".join(f"{d.line}:{d.col}: {d.msg}" for d in diags)


# ------------------------------------------------------------------ several files at once


def test_good_and_bad_file_together(tmp_path, capsys):
    good = write(tmp_path, BASE, "good.yaml")
    bad_text = mutate("  for p in players:\n      deal", "  for p in plyers:\n      deal")
    bad = write(tmp_path, bad_text, "bad.yaml")
    for r in (validate_inprocess(capsys, good, bad), validate_subprocess(good, bad)):
        assert_no_traceback(r)
        assert r.rc == 1
        diags = parse_diags(r.out, [str(good), str(bad)])
        assert [(d.file, d.line) for d in diags] == [(str(bad), where(bad_text, "plyers")[0])]
        assert f"{good}: ok" in r.out and ": ok" not in r.err
        assert f"{bad}: 1 error(s)" in r.err


def test_two_bad_files_both_reported(tmp_path, capsys):
    a = write(tmp_path, mutate("  shuffle(deck)", "  shufle(deck)"), "a.yaml")
    b = write(tmp_path, "", "b.yaml")
    missing = tmp_path / "c.yaml"
    r = validate_inprocess(capsys, a, b, missing)
    assert r.rc == 1
    diags = parse_diags(r.out, [str(a), str(b), str(missing)], file_level_ok=True)
    assert {d.file for d in diags} == {str(a), str(b), str(missing)}


def test_all_good_files_exit_zero(tmp_path, capsys):
    a = write(tmp_path, BASE, "a.yaml")
    r = validate_inprocess(capsys, a, TRICK)
    assert r.rc == 0
    assert r.err == "" and r.out.count(": ok") == 2  # "ok" is no error: it goes to stdout


def test_validate_without_paths_is_a_usage_error(capsys):
    r = validate_inprocess(capsys)
    assert r.rc == 2
    assert "PATH" in r.err


def test_two_cards_of_different_kinds_shown_alike_are_noted(tmp_path, capsys):
    """Nothing a person types or reads tells them apart: validate says so, and the file is ok."""
    text = mutate("    properties: {value: integer}\n",
                  "    properties: {value: integer}\n  gem:\n    zone: pile\n    label: \"{name}\"\n")
    text = mutate("  - {kind: number, name: Frost, value: 6}\n",
                  "  - {kind: number, name: Frost, value: 6}\n  - {kind: gem, name: Coral}\n", text)
    path = write(tmp_path, text)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    line, column = where(text, "name: Coral}", 6)
    first, _ = where(text, "name: Coral, value")
    assert out == [f"{path}:{line}:{column}: note: the card 'Coral' of kind 'gem' has the name and label of "
                   f"the card of kind 'number' at line {first}: a person cannot tell them apart (`i NAME`, "
                   "`--card NAME`, the log); give one another name or a label that tells them apart",
                   f"{path}: ok (Tiny, 7 cards, 2/3 players)"]


def test_two_cards_of_one_name_told_apart_by_their_labels_are_not_noted(tmp_path, capsys):
    text = mutate("    properties: {value: integer}\n",
                  "    properties: {value: integer}\n  gem:\n    zone: pile\n    label: \"{name} gem\"\n")
    text = mutate("  - {kind: number, name: Frost, value: 6}\n",
                  "  - {kind: number, name: Frost, value: 6}\n  - {kind: gem, name: Coral}\n", text)
    assert main(["validate", str(write(tmp_path, text))]) == 0
    assert "note" not in capsys.readouterr().out


@pytest.mark.parametrize("word, read", [("on", "true"), ("No", "false"), ("YES", "true")])
def test_a_word_yaml_reads_as_true_or_false_is_told_to_be_quoted(tmp_path, capsys, word, read):
    text = mutate("  pile: {}\n", f"  pile: {{label: {word}}}\n")
    path = write(tmp_path, text)
    assert main(["validate", str(path)]) == 1
    line, column = where(text, f"label: {word}", 7)
    assert capsys.readouterr().out.splitlines() == [
        f"{path}:{line}:{column}: error: expected a string in zones.pile.label, got true/false; YAML reads "
        f'{word} unquoted as {read}: to write the word, quote it: "{word}"']

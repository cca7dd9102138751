"""Extension files: a user's own cards loaded with a ruleset (--with FILE), shipped cards
removed by name, errors located in the extension's own file, saves that remember them."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.errors import EffectError, RulesetError
from engine.game.game import Game
from engine.game.saves import replay
from engine.rules.ruleset import load_ruleset

BASE = textwrap.dedent("""
    game: {name: Deck, players: [2]}
    card_kinds:
      event:
        zone: deck
        label: "{name}"
        properties: {value: integer}
    cards:
      - {kind: event, name: Calm, value: 1}
      - {kind: event, name: Storm, value: 5}
      - {kind: event, name: Fog, value: 2}
    zones:
      deck: {}
      current: {}
    counters:
      points: {per: player, initial: 0}
    flow: |
      for c in deck:
          move(c, current)
          emit("revealed", c)
          points[1] += c.value
      let c = choose(2, ["a", "b"], "Go?")
    scoring:
      score: points[player]
    """)

MINE = textwrap.dedent("""
    description: My own events.
    remove_cards: [Storm]
    cards:
      - kind: event
        name: Windfall
        value: 10
        triggers:
          - on: revealed
            params: [c]
            if: c == card
            do: points[2] += 3
    """)


@pytest.fixture
def files(tmp_path):
    base = tmp_path / "deck.yaml"
    base.write_text(BASE)
    mine = tmp_path / "mine.yaml"
    mine.write_text(MINE)
    return base, mine


def test_extension_adds_and_removes_cards(files):
    base, mine = files
    plain = Game(load_ruleset(base), 2, seed=1)
    assert [c.label for c in plain.table.cards] == ["Calm", "Storm", "Fog"]
    assert plain.table.counters["points"] == {1: 8, 2: 0}
    g = Game(load_ruleset(base, [mine]), 2, seed=1)
    assert [c.label for c in g.table.cards] == ["Calm", "Fog", "Windfall"]
    # 1 + 2 + 10 for P1; Windfall's own trigger gives P2 3 when it is revealed.
    assert g.table.counters["points"] == {1: 13, 2: 3}


REPLACE = textwrap.dedent("""\
    remove_cards: [Storm]
    cards:
      - {kind: event, name: Storm, value: 7}
    """)


def test_an_extension_replaces_a_card_by_removing_it_and_adding_its_own(files, tmp_path):
    """What the message for a duplicate card advises: the file's own Storm stays, one copy."""
    base, _ = files
    mine = tmp_path / "storm.yaml"
    mine.write_text(REPLACE)
    g = Game(load_ruleset(base, [mine]), 2, seed=1)
    assert [(c.label, c.props["value"]) for c in g.table.cards] == [("Calm", 1), ("Fog", 2), ("Storm", 7)]
    assert g.table.counters["points"] == {1: 10, 2: 0}


def test_a_later_file_removes_the_card_an_earlier_one_added(files, tmp_path):
    base, _ = files
    first, second = tmp_path / "storm.yaml", tmp_path / "calm.yaml"
    first.write_text(REPLACE)
    second.write_text("remove_cards: [Storm]\ncards:\n  - {kind: event, name: Gale, value: 4}\n")
    g = Game(load_ruleset(base, [first, second]), 2, seed=1)
    assert [c.label for c in g.table.cards] == ["Calm", "Fog", "Gale"]


def test_removing_only_a_card_of_the_file_itself_is_a_located_error(files, tmp_path):
    base, _ = files
    mine = tmp_path / "own.yaml"
    mine.write_text("remove_cards: [Gale]\ncards:\n  - {kind: event, name: Gale, value: 4}\n")
    with pytest.raises(RulesetError) as err:
        load_ruleset(base, [mine])
    assert [str(d) for d in err.value.diagnostics] == [
        f"{mine}:1:16: error: 'Gale' is a card of this file only: remove_cards takes out cards of the "
        "ruleset (and of files given before this one), never the file's own; to leave 'Gale' out, "
        "delete its entry from cards"]


def test_mistakes_in_an_extension_point_into_its_own_file(files, tmp_path):
    base, _ = files
    bad = tmp_path / "bad.yaml"
    bad.write_text(textwrap.dedent("""\
        remove_cards: [Strom]
        cards:
          - {kind: evnet, name: A, value: 1}
          - {kind: event, name: B, valeu: 2}
          - kind: event
            name: C
            value: 3
            triggers:
              - {on: revealed, do: "points[plyer] += 1"}
        """))
    with pytest.raises(RulesetError) as err:
        load_ruleset(base, [bad])
    text = str(err.value)
    assert f"{bad}:1:16: error: no card is named 'Strom' (did you mean 'Storm'?)" in text
    assert f"{bad}:3:12: error: unknown card kind 'evnet' (did you mean 'event'?)" in text
    assert f"{bad}:4:28: error: 'valeu' is not a property of card kind 'event' (did you mean 'value'?)" in text
    assert f"{bad}:9:36: error: unknown name 'plyer'" in text
    assert f"{bad}:9:14: error: the trigger on 'revealed' has 0 parameter(s)" in text  # emitted with c
    assert len(err.value.diagnostics) == 5  # one report per mistake
    assert {d.location.file for d in err.value.diagnostics} == {str(bad)}  # nothing is wrong with the shipped file


def test_validate_and_play_with_an_extension(files, tmp_path, capsys):
    base, mine = files
    assert main(["validate", str(base), "--with", str(mine)]) == 0
    save = tmp_path / "g.json"
    assert main(["play", str(base), "--seats", "random,random", "--seed", "3", "--with", str(mine),
                 "--save", str(save)]) == 0
    game, data, warnings = replay(save)
    assert data["extensions"] == [str(mine)]
    assert [c.label for c in game.table.cards] == ["Calm", "Fog", "Windfall"]
    assert warnings == []
    mine.write_text(MINE.replace("value: 10", "value: 11"))
    assert replay(save)[2], "a changed extension is noticed like a changed ruleset"
    capsys.readouterr()
    assert main(["replay", str(save)]) == 1  # the result no longer reproduces


def test_a_card_of_an_extension_is_checked_by_the_schema_of_a_ruleset_card(files, tmp_path):
    """The extension schema takes its card from the ruleset schema: the same checks, located in
    the extension's own file, with the same "did you mean"."""
    base, _ = files
    bad = tmp_path / "shape.yaml"
    bad.write_text(textwrap.dedent("""\
        cards:
          - kind: event
            name: A
            value: 1
            count: 0
            triggers:
              - {on: revealed, dooo: "x = 1"}
            modifiers:
              - {modify: worth, vale: 3}
          - {name: B, value: 2}
        """))
    with pytest.raises(RulesetError) as err:
        load_ruleset(base, [bad])
    assert [str(d) for d in err.value.diagnostics] == [
        f"{bad}:5:12: error: 0 is less than the minimum of 1 in cards[0].count",
        f"{bad}:7:9: error: missing required key in cards[0].triggers[0]: 'do'",
        f"{bad}:7:24: error: unknown key 'dooo' in cards[0].triggers[0] (did you mean 'do'?); "
        "allowed keys: description, on, params, while_in, if, do",
        f"{bad}:9:9: error: missing required key in cards[0].modifiers[0]: 'value'",
        f"{bad}:9:25: error: unknown key 'vale' in cards[0].modifiers[0] (did you mean 'value'?); "
        "allowed keys: description, modify, while_in, if, value",
        f"{bad}:10:5: error: missing required key in cards[1]: 'kind'",
    ]


def test_an_extension_with_unknown_keys_is_rejected(files, tmp_path):
    base, _ = files
    bad = tmp_path / "keys.yaml"
    bad.write_text("zones: {}\ncards: []\n")
    with pytest.raises(RulesetError, match=r"keys.yaml:1:1: error: unknown key 'zones'"):
        load_ruleset(base, [bad])



def test_a_trigger_of_an_extension_not_matching_its_event_is_reported_there(files, tmp_path):
    """Found at load time, in the extension file where the trigger is written, with the place
    of the emit; not in play, at the ruleset's emit."""
    base, _ = files
    bad = tmp_path / "arity.yaml"
    bad.write_text(MINE.replace("params: [c]", "params: [c, d]"))
    with pytest.raises(RulesetError) as err:
        load_ruleset(base, [bad])
    assert [str(d.location) for d in err.value.diagnostics] == [f"{bad}:10:17"]
    emitted = BASE.split("\n").index('      emit("revealed", c)') + 1
    assert f"with 1 argument(s) at {base}:{emitted}:7" in err.value.diagnostics[0].message


def test_an_event_emitted_under_a_computed_name_names_the_trigger_in_play(files, tmp_path):
    base, _ = files
    computed = tmp_path / "computed.yaml"
    computed.write_text(BASE.replace('emit("revealed", c)', 'let e = "revealed"\n      emit(e, c)'))
    bad = tmp_path / "arity.yaml"
    bad.write_text(MINE.replace("params: [c]", "params: [c, d]"))
    rules = load_ruleset(computed, [bad])  # the event's name is known only in play
    with pytest.raises(EffectError) as err:
        Game(rules, 2, seed=1)
    assert f"the trigger on 'revealed' of card Windfall at {bad}:9:13 has 2 parameter(s) (c, d)" in str(err.value)


# ---------------------------------------------------------------- names of an extension's own

OWN = textwrap.dedent("""\
    constants:
      bonus_step: 3
    counters:
      windfalls: {initial: 0}
    functions:
      bonus:
        params: [n]
        expr: bonus_step * n
    procedures:
      reward:
        params: [p]
        do: |
          windfalls += 1
          points[p] += bonus(windfalls)
    cards:
      - kind: event
        name: Windfall
        value: 10
        triggers:
          - on: revealed
            params: [c]
            do: reward(2)
    """)


def test_an_extension_declares_names_of_its_own_that_its_cards_use(files, tmp_path):
    """A custom card needs a counter the ruleset lacks: the extension declares it (and a
    function, a procedure, a constant), and its card's trigger uses them by name."""
    base, _ = files
    own = tmp_path / "own.yaml"
    own.write_text(OWN)
    rules = load_ruleset(base, [own])
    assert list(rules.counters) == ["points", "windfalls"]
    g = Game(rules, 2, seed=1)
    # Four cards are revealed: P2 is rewarded 3, 6, 9, 12 (bonus_step times the count so far).
    assert g.table.counters["windfalls"] == 4
    assert g.table.counters["points"] == {1: 18, 2: 30}
    assert g.call_function("bonus", [5]) == 15


def test_a_name_the_ruleset_uses_is_an_error_naming_both_places(files, tmp_path):
    base, _ = files
    clash = tmp_path / "clash.yaml"
    clash.write_text("counters:\n  points: {initial: 0}\nfunctions:\n  deck: {expr: '1'}\n")
    with pytest.raises(RulesetError) as err:
        load_ruleset(base, [clash])
    counters_at = BASE.split("\n").index("  points: {per: player, initial: 0}") + 1
    zones_at = BASE.split("\n").index("  deck: {}") + 1
    assert [str(d) for d in err.value.diagnostics] == [
        f"{clash}:2:3: error: 'points' is already a counter at {base}:{counters_at}:3; rename yours",
        f"{clash}:4:3: error: 'deck' is already a zone at {base}:{zones_at}:3; rename yours"]


def test_two_extensions_declaring_one_name_clash_in_the_second(files, tmp_path):
    base, _ = files
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    first.write_text("counters:\n  windfalls: {initial: 0}\n")
    second.write_text("description: Mine.\nconstants:\n  windfalls: 2\n")
    with pytest.raises(RulesetError) as err:
        load_ruleset(base, [first, second])
    assert [str(d) for d in err.value.diagnostics] == [
        f"{second}:3:3: error: 'windfalls' is already a counter at {first}:2:3; rename yours"]


def test_mistakes_in_an_extensions_own_names_are_located_in_it(files, tmp_path):
    """Checked like a ruleset's own: by the schema, and the names in its rules."""
    base, _ = files
    bad = tmp_path / "bad.yaml"
    bad.write_text(OWN.replace("expr: bonus_step * n", "expr: bonus_stepp * n")
                   .replace("windfalls: {initial: 0}", "windfalls: {initial: 0, pre: player}"))
    with pytest.raises(RulesetError) as err:
        load_ruleset(base, [bad])
    found = [str(d) for d in err.value.diagnostics]
    assert {d.location.file for d in err.value.diagnostics} == {str(bad)}
    assert any(f.startswith(f"{bad}:4:27: error: unknown key 'pre' in counters.windfalls (did you mean 'per'?)")
               for f in found), found
    assert any(f.startswith(f"{bad}:8:11: error: unknown name 'bonus_stepp'") and "bonus_step" in f
               for f in found), found


def test_the_clash_shown_on_the_custom_events_page_is_what_validate_says(tmp_path):
    """docs/custom-events.md shows validate on a copy of examples/my_engine_fair.yaml whose
    counter is renamed `turn` (a Railways counter) and whose function is misspelt in a call."""
    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "custom-events.md").read_text(encoding="utf-8")
    shown = page.split("$ engine validate rulesets/railways.yaml --with my_fair_broken.yaml\n")[1].split("```")[0]
    fair = (root / "examples" / "my_engine_fair.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "my_fair_broken.yaml"
    broken.write_text(fair.replace("fair_sales", "turn").replace("= fair_rebate(", "= fair_rebat("), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "engine", "validate", "rulesets/railways.yaml", "--with", str(broken)],
                          cwd=root, capture_output=True, text=True, timeout=120)
    said = (proc.stdout + proc.stderr).replace(f"{tmp_path}{os.sep}", "")
    assert proc.returncode == 1
    assert sorted(said.splitlines()) == sorted(shown.splitlines())

"""The effect language's semantics, on small inline rulesets: expressions, statements,
decisions, triggers, modifiers, end of game, and compile-once."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from engine.core.errors import EffectError
from engine.game.game import Game
from engine.rules.ruleset import load_ruleset

from conftest import ROOT, labels, zone

BASE = """
game: {name: Tiny, players: [2, 3]}
constants:
  colours: [red, blue]
card_kinds:
  token:
    zone: supply
    label: "{colour} {rank}"
    properties: {colour: string, rank: integer}
cards:
  - {kind: token, colour: red, rank: 1}
  - {kind: token, colour: red, rank: 5}
  - {kind: token, colour: blue, rank: 3}
  - {kind: token, colour: blue, rank: 7}
zones:
  supply: {}
  hand: {per: player, visibility: owner}
  pile: {per: colours}
counters:
  total: {initial: 0}
  points: {per: player, initial: 0}
"""


def rules(tmp_path: Path, extra: str, name: str = "tiny.yaml"):
    """The ruleset BASE + `extra` (dedented), written to `name` in tmp_path and loaded."""
    path = tmp_path / name
    path.write_text(BASE + textwrap.dedent(extra))
    return load_ruleset(path)


def run(tmp_path: Path, flow: str, extra: str = "", players: int = 2) -> Game:
    """A game whose flow is `flow` (indented under 'flow: |'); scoring is the points counter."""
    text = extra + "flow: |\n" + textwrap.indent(textwrap.dedent(flow), "  ") + \
        "scoring:\n  score: points[player]\n"
    return Game(rules(tmp_path, text), players, seed=3)


def test_expressions(tmp_path):
    g = run(tmp_path, """
        total = 2 + 3 * 4 - 10 // 3 + 7 % 4
        points[1] = max(c.rank for c in supply if c.colour == "blue")
        points[2] = sum([c.rank for c in supply]) if count(supply) == 4 else -1
        let best = max_by(list(supply), c -> c.rank)
        if best.label == "blue 7" and "red" in colours and "green" not in colours and not false:
            total += 100
        """)
    assert g.over
    # 2 + 12 - 3 + 3 = 14, then +100
    assert g.table.counters["total"] == 114
    assert g.table.counters["points"] == {1: 7, 2: 16}


def test_loops_break_continue_and_procedure_return(tmp_path):
    g = run(tmp_path, """
        for i in range(0, 10):
            if i == 2:
                continue
            if i == 5:
                break
            total += i
        let n = 0
        while n < 3:
            n += 1
        repeat n:
            points[1] += 2
        points[2] = half(9)
        """, extra="""
procedures:
  half:
    params: [x]
    do: |
      if x > 4:
          return x // 2
      return 0
""")
    assert g.table.counters["total"] == 0 + 1 + 3 + 4
    assert g.table.counters["points"] == {1: 6, 2: 4}


def test_choose_asks_only_when_there_is_a_choice(tmp_path):
    g = run(tmp_path, """
        let only = choose(1, [c for c in supply if c.rank == 7], "Pick")
        move(only, hand[1])
        let card = choose(2, supply, "Take a token")
        move(card, hand[2], "first")
        """)
    # The one-option choice was resolved without asking; player 2 is asked about 3 tokens.
    assert labels(g, zone(g, "hand", 1)) == ["blue 7"]
    assert g.pending.player == 2
    assert [o.label for o in g.pending.options] == ["red 1", "red 5", "blue 3"]
    g.apply(1)
    assert g.over
    assert labels(g, zone(g, "hand", 2)) == ["red 5"]
    assert g.decisions == [1]


def test_choose_with_no_option_is_an_error(tmp_path):
    with pytest.raises(EffectError, match="no option"):
        run(tmp_path, """
            let c = choose(1, hand[1], "Pick")
            """)


def test_triggers_fire_only_while_their_card_is_in_place(tmp_path):
    g = run(tmp_path, """
        emit("scored", 1)
        for c in supply:
            if c.colour == "red":
                move(c, hand[2])
        emit("scored", 1)
        """, extra="""
triggers:
  - on: scored
    params: [who]
    do: points[who] += 10
""".replace("triggers:", "triggers:") + """
""")
    # No card abilities: the global trigger fired twice.
    assert g.table.counters["points"][1] == 20

    text = BASE.replace("""    properties: {colour: string, rank: integer}""", """    properties: {colour: string, rank: integer}
    triggers:
      - on: scored
        params: [who]
        while_in: [hand]
        if: card.colour == "red"
        do: points[owner] += card.rank""") + textwrap.dedent("""
        flow: |
          emit("scored", 1)
          for c in supply:
              move(c, hand[2])
          emit("scored", 1)
        scoring:
          score: points[player]
        """)
    path = tmp_path / "abilities.yaml"
    path.write_text(text)
    g = Game(load_ruleset(path), 2, seed=1)
    # First emit: no card in a hand. Second: red 1 and red 5 are in P2's hand; blue ones don't match.
    assert g.table.counters["points"] == {1: 0, 2: 6}


def test_modifiers_change_a_function_while_the_card_is_in_a_zone(tmp_path):
    text = BASE.replace("""    properties: {colour: string, rank: integer}""", """    properties: {colour: string, rank: integer}
    modifiers:
      - modify: reach
        while_in: [hand]
        if: owner == p and card.colour == "blue"
        value: value + card.rank""") + textwrap.dedent("""
        functions:
          reach:
            params: [p]
            expr: 1
        flow: |
          points[1] = reach(1)
          move(first([c for c in supply if c.rank == 3]), hand[1])
          move(first([c for c in supply if c.rank == 7]), hand[2])
          points[2] = reach(1)
          total = reach(2)
        scoring:
          score: points[player]
        """)
    path = tmp_path / "mods.yaml"
    path.write_text(text)
    g = Game(load_ruleset(path), 2, seed=1)
    # Before: 1. After: blue 3 in P1's hand adds 3 for P1; blue 7 in P2's hand adds 7 for P2.
    assert g.table.counters["points"] == {1: 1, 2: 4}
    assert g.table.counters["total"] == 8


def test_a_modifier_about_its_own_card_applies_to_that_card_alone(tmp_path):
    """`if: c == card` (or `card == c`, or first of an `and`): the engine looks the modifier up
    by the argument; the values are those the conditions give."""
    text = BASE.replace("""    properties: {colour: string, rank: integer}""", """    properties: {colour: string, rank: integer}
    modifiers:
      - {modify: worth, if: c == card, value: value + 10}
      - {modify: worth, if: card == c and card.colour == "red", value: value * 2}
      - {modify: worth, if: n > 1 and c == card, value: value + 100}""") + textwrap.dedent("""
        functions:
          worth:
            params: [n, c]
            expr: c.rank
        flow: |
          out = [worth(1, c) for c in supply] + [worth(2, c) for c in supply]
        scoring:
          score: 0
        """)
    text = text.replace("counters:\n", "counters:\n  out: {initial: []}\n")
    path = tmp_path / "own.yaml"
    path.write_text(text)
    rules = load_ruleset(path)
    assert [m.card_at for m in rules.modifiers["worth"]] == [1, 1, None]
    g = Game(rules, 2, seed=1)
    cards = g.table.cards_in(g.table.zones["supply"])
    ranks = [c.props["rank"] for c in cards]
    red = [c.props["colour"] == "red" for c in cards]
    once = [(r + 10) * (2 if is_red else 1) for r, is_red in zip(ranks, red)]
    assert g.table.counters["out"] == once + [v + 100 for v in once]


def test_end_game_stops_at_once_and_scores(tmp_path):
    g = run(tmp_path, """
        points[2] = 5
        end_game()
        points[1] = 99
        """)
    assert g.over
    assert g.scores() == {1: 0, 2: 5}
    assert g.winners() == [2]
    assert g.end_reason == "end_game"


@pytest.mark.parametrize("flow,reason", [
    ('points[1] = 2\nend_game("treasure found")\npoints[1] = 99\n', "treasure found"),
    ('points[1] = 2\nreturn "out of time"\n', "out of time"),
    ("points[1] = 2\n", "flow ended"),
    ("points[1] = 2\nreturn\n", "flow ended"),
])
def test_a_game_says_why_it_ended(tmp_path, flow, reason):
    """end_game("name") and a flow's `return "name"` name the ending; end_game() is "end_game";
    a flow that runs to its end or returns nothing gives "flow ended"."""
    g = run(tmp_path, flow)
    assert g.over and g.end_reason == reason and g.scores() == {1: 2, 2: 0}


def test_the_end_reason_can_come_from_a_choice_and_a_trigger(tmp_path):
    extra = """
        triggers:
          - on: bell
            do: |
              end_game("bell rang")
        """
    g = run(tmp_path, """
        let how = choose(1, ["quietly", "loudly"], "How?")
        if how == "loudly":
            emit("bell")
        return how
        """, textwrap.dedent(extra))
    assert not g.over and g.end_reason is None
    quiet, loud = g.clone(), g.clone()
    quiet.apply(0)
    loud.apply(1)
    assert (quiet.over, quiet.end_reason) == (True, "quietly")
    assert (loud.over, loud.end_reason) == (True, "bell rang")


@pytest.mark.parametrize("flow,words", [
    ("end_game(3)\n", "end_game's reason must be a string naming why the game ended, got a number"),
    ('end_game("  ")\n', "end_game's reason must be a string naming why the game ended, got an empty string"),
    ("return 3\n", "what the flow returns must be a string naming why the game ended, got a number"),
    ("return players\n", "what the flow returns must be a string naming why the game ended, got a list"),
])
def test_an_end_reason_that_is_no_name_is_a_located_error(tmp_path, flow, words):
    with pytest.raises(EffectError) as info:
        run(tmp_path, flow)
    assert re.match(r".*tiny\.yaml:\d+:\d+: error: ", str(info.value)), str(info.value)
    assert words in str(info.value) and "(in flow)" in str(info.value)


def test_rules_are_parsed_once_at_load_time(tmp_path, monkeypatch):
    rs = rules(tmp_path, """
flow: |
  let c = choose(1, supply, "Pick")
  move(c, hand[1])
scoring:
  score: count(hand[player])
""")
    import engine.lang.parser as parser

    def refuse(*args, **kwargs):
        raise AssertionError("the parser ran during play")
    monkeypatch.setattr(parser, "parse", refuse)
    monkeypatch.setattr(parser, "_parser", refuse)
    g = Game(rs, 2, seed=1)
    g.apply(0)
    assert g.over and g.scores() == {1: 1, 2: 0}


def test_engine_source_never_uses_eval_or_exec_compiles_in_one_module_and_names_no_game():
    # "poker" alone is not here: it is also a card's size (63x88 mm) in the format's `face: size:`.
    games = re.compile(r"trick.of.the.rails|isle.of.trains|trainsilvania|railways|locomotive|"
                       r"caboose|dracula|b&o|exchange card|kuhn|\bpoker (?!card)|tic.tac.toe|tictactoe", re.I)
    for path in (ROOT / "engine").rglob("*"):
        if path.suffix not in (".py", ".lark"):
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?<![\w.])(eval|exec)\s*\(", text), f"{path} calls eval or exec"
        if path.name != "codegen.py":  # the one module that compiles generated ast trees
            assert not re.search(r"(?<![\w.])(?<!def )compile\s*\(|FunctionType|__builtins__", text), \
                f"{path} compiles code"
        assert not games.search(text), f"{path} names a game: {games.search(text).group(0)}"


def test_zones_and_counters_per_card(tmp_path):
    """A zone inside each card (cargo behind a car) and a value each card carries."""
    text = BASE.replace("  pile: {per: colours}", "  pile: {per: colours}\n  under: {per: card}") \
        .replace("  points: {per: player, initial: 0}",
                 "  points: {per: player, initial: 0}\n  marked: {per: card, initial: 0}") + textwrap.dedent("""
        flow: |
          let base = first([c for c in supply if c.rank == 7])
          move(base, hand[1])
          for c in supply:
              if c.colour == "red":
                  move(c, under[base])
                  marked[c] = c.rank * 10
          total = count(under[base])
          points[1] = sum(marked[c] for c in under[base])
          points[2] = under[base].owner
        scoring:
          score: points[player]
        """)
    path = tmp_path / "percard.yaml"
    path.write_text(text)
    g = Game(load_ruleset(path), 2, seed=1)
    assert g.table.counters["total"] == 2
    assert g.table.counters["points"] == {1: 60, 2: 1}  # 10 + 50; the zone under a card in P1's hand is P1's


def test_face_down_cards_and_remembered_knowledge(tmp_path):
    from engine.game.view import view

    g = Game(rules(tmp_path, """
        flow: |
          let c = first([c for c in supply if c.rank == 7])
          turn_face_down(c)
          reveal(c, 2)
          let wait = choose(1, ["go", "stay"], "Go on?")
          turn_face_up(c)
          move(c, hand[1])
          let again = choose(1, ["go", "stay"], "Go on?")
          move(c, supply)
          shuffle(supply)
          let done = choose(1, ["go", "stay"], "Go on?")
        scoring:
          score: 0
        """, "faces.yaml"), 2, seed=1)

    def sees_blue7(p):
        return any(c.get("label") == "blue 7" for z in view(g, p).zones() for c in z["cards"])
    # Face down in a public zone: only the player it was revealed to sees it.
    assert (sees_blue7(1), sees_blue7(2)) == (False, True)
    g.apply(0)
    # Face up in P1's hand (owner only): P1 sees it, and P2 still remembers it.
    assert (sees_blue7(1), sees_blue7(2)) == (True, True)
    g.apply(0)
    # Shuffled away: nobody's memory follows it, but the supply is public and face up.
    assert g.table.remembered_by(g.table.cards[3]) == []
    assert (sees_blue7(1), sees_blue7(2)) == (True, True)


def test_conceal_stops_reminding_a_person_of_a_card_while_agents_remember_it(tmp_path):
    from engine.game.view import render, view

    g = Game(rules(tmp_path, """
        flow: |
          let c = first([c for c in supply if c.rank == 7])
          let other = first([c for c in supply if c.rank == 3])
          turn_face_down(c)
          turn_face_down(other)
          reveal(c, 1)
          reveal(c, 2)
          log("seen: ", c, " (", text(c), ")")
          let wait = choose(1, ["go", "stay"], "Go on?")
          conceal(c, 1)
          conceal(other, 1)
          let again = choose(1, ["go", "stay"], "Go on?")
          turn_face_up(c)
          let up = choose(1, ["go", "stay"], "Go on?")
          turn_face_down(c)
          let down = choose(1, ["go", "stay"], "Go on?")
          reveal(c, 1)
          let shown = choose(1, ["go", "stay"], "Go on?")
          conceal(c, 1)
          shuffle(supply)
          let done = choose(1, ["go", "stay"], "Go on?")
        scoring:
          score: 0
        """, "conceal.yaml"), 2, seed=1)
    c, other = g.table.cards[3], g.table.cards[2]

    def told(p, person):
        pv = view(g, p, person=person)
        shown = [x.get("label") for z in pv.zones() for x in z["cards"]]
        return "blue 7" in shown, pv.log()[-1]
    assert c.label == "blue 7" and g.table.remembered_by(c) == [1, 2]
    assert told(1, True) == (True, "seen: blue 7 (blue 7)")
    g.apply(0)
    # Concealed from P1: P1's screen shows its back, in the log too; P1 as an agent, and P2,
    # still remember it. A card P1 never saw gets no mark.
    assert g.table.remembered_by(c) == [1, 2] and g.table.concealed_from(c) == [1]
    assert g.table.concealed_from(other) == []
    assert told(1, True) == (False, "seen: a face-down card (a face-down card)")
    assert told(1, False) == told(2, True) == (True, "seen: blue 7 (blue 7)")
    assert "blue 7" not in render(view(g, 1).for_person()) and "blue 7" in render(view(g, 1))
    g.apply(0)
    # Face up in the public supply: its zone shows it to everyone again.
    assert told(1, True) == (True, "seen: blue 7 (blue 7)")
    g.apply(0)
    # Face down again: the mark still holds...
    assert told(1, True)[0] is False and told(1, False)[0] is True
    g.apply(0)
    # ...until the card is shown to P1 again.
    assert g.table.concealed_from(c) == [] and told(1, True)[0] is True
    g.apply(0)
    # Shuffled: everyone forgets it, and there is nothing left to conceal.
    assert g.table.remembered_by(c) == [] and g.table.concealed_from(c) == []


@pytest.mark.parametrize("conceal, told", [(False, "blue 7"), (True, "a face-down card")])
def test_an_error_does_not_name_a_card_concealed_from_someone(tmp_path, conceal, told):
    # Every player reads an error, the person from whom the card is concealed too.
    text = BASE + textwrap.dedent(f"""
        flow: |
          let c = first([c for c in supply if c.rank == 7])
          turn_face_down(c)
          reveal(c, 1)
          reveal(c, 2)
          if {str(conceal).lower()}:
              conceal(c, 1)
          fail("broken: ", c)
        scoring:
          score: 0
        """)
    path = tmp_path / "fail.yaml"
    path.write_text(text)
    with pytest.raises(EffectError) as caught:
        Game(load_ruleset(path), 2, seed=1)
    assert caught.value.message == f"broken: {told}"


def test_abilities_of_one_card_entry_only(tmp_path):
    text = BASE.replace("  - {kind: token, colour: blue, rank: 7}", """  - kind: token
    colour: blue
    rank: 7
    modifiers:
      - {modify: reach, while_in: [hand], if: owner == p, value: value * 10}
    triggers:
      - {on: ping, while_in: [hand], do: "points[owner] += 1"}""") + textwrap.dedent("""
        functions:
          reach: {params: [p], expr: "count(hand[p])"}
        flow: |
          for c in supply:
              move(c, hand[1] if c.colour == "blue" else hand[2])
          emit("ping")
          total = reach(1) + reach(2)
        scoring:
          score: points[player]
        """)
    path = tmp_path / "entry.yaml"
    path.write_text(text)
    g = Game(load_ruleset(path), 2, seed=1)
    # P1 holds blue 3 and blue 7: reach 2, times 10 for blue 7. P2 holds the reds: reach 2, no ability.
    assert g.table.counters["total"] == 22
    assert g.table.counters["points"] == {1: 1, 2: 0}


def test_counter_values_and_constants_are_never_shared(tmp_path):
    text = BASE.replace("  points: {per: player, initial: 0}",
                        "  points: {per: player, initial: 0}\n  bag: {per: player, initial: [0, 0]}") + \
        textwrap.dedent("""
        flow: |
          let mine = bag[1]
          mine[0] = 9
          points[1] = bag[2][0]
          points[2] = bag[1][0]
        scoring:
          score: points[player]
        """)
    path = tmp_path / "share.yaml"
    path.write_text(text)
    rs = load_ruleset(path)
    g = Game(rs, 2, seed=1)
    assert g.table.counters["points"] == {1: 0, 2: 9}  # P2's list did not change with P1's
    assert g.table.counters["bag"][2] == [0, 0]
    assert rs.counters["bag"].initial == [0, 0]  # the next game starts from the untouched value

    with pytest.raises(EffectError, match="constants cannot be changed"):
        run(tmp_path, """
            let c = colours
            c[0] = "green"
            """)


def test_return_of_a_procedure_call_index_of_and_logged_lists(tmp_path):
    from engine.game.view import view

    g = run(tmp_path, """
        total = outer()
        points[1] = index_of(colours, "blue") * 10 + index_of(supply, first([c for c in supply if c.rank == 3]))
        move(first(supply), hand[1])
        log("P1 holds ", list(hand[1]))
        let wait = choose(2, ["a", "b"], "Wait")
        """, extra="""
procedures:
  inner:
    do: |
      let c = choose(1, ["x", "y"], "Pick")
      return 5 if c == "x" else 7
  outer:
    do: return inner()
""")
    g.apply(1)  # "y"
    assert g.table.counters["total"] == 7
    assert g.table.counters["points"][1] == 12  # blue is at 1; blue 3 is the third card (index 2)
    # The logged list kept each card's visibility at logging time: red 1 was in P1's hand.
    assert view(g, 1).log()[-1] == "P1 holds red 1"
    assert view(g, 2).log()[-1] == "P1 holds a face-down card"


def test_a_constant_list_equals_the_same_list(tmp_path):
    g = run(tmp_path, """
        if colours == ["red", "blue"] and ["red", "blue"] == colours and colours != ["blue"]:
            total = 1
        """)
    assert g.table.counters["total"] == 1


def test_a_constant_list_joined_with_a_list_gives_a_new_list(tmp_path):
    g = run(tmp_path, """
        let more = colours + ["green"]
        more[0] = "grey"
        let front = ["white"] + colours
        total = count(more) * 10 + count(front)
        points[1] = index_of(more, "grey") + index_of(front, "blue")
        """)
    assert g.table.counters["total"] == 33
    assert g.table.counters["points"][1] == 2
    assert g.rules.constants["colours"] == ["red", "blue"], "the constant is unchanged"

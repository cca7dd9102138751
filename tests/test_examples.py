"""The example rulesets of the guide (examples/**.yaml) and what docs/guide.md says about them.

Every example must load and play to the end with random players at each supported player
count. The finished Pearl Divers game (step 5) is then checked rule by rule, on positions
built with Game(..., arrange=...): following colour, a choice with one option asking
nothing, a choice with none failing, hidden information, the option, the jellyfish
trigger, the Pearl Crown modifier and the scoring.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.errors import EffectError
from engine.core.table import Card, Player, Zone
from engine.game.game import Game
from engine.game.saves import replay, write_save
from engine.game.view import view
from engine.players.agents import make_agents
from engine.players.loop import play
from engine.rules.ruleset import load_ruleset

from conftest import cards, labels, options as option_labels, pick

ROOT = Path(__file__).resolve().parent.parent
# Every example ruleset (extension files, which start without a `game:` key, are loaded with
# their ruleset by the tests of that ruleset).
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.yaml")
                  if any(line.startswith("game:") for line in p.read_text(encoding="utf-8").splitlines()))
GUIDE = ROOT / "examples" / "guide"
FINAL = GUIDE / "step5_options_triggers_modifiers.yaml"
GAMES_PER_COUNT = 5

P1, P2 = Player(1), Player(2)


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT / "examples"))


# ---------------------------------------------------------------- every example

def test_the_guide_ships_its_five_steps():
    names = [p.name for p in sorted(GUIDE.glob("*.yaml"))]
    assert names == ["step1_cards.yaml", "step2_zones_and_setup.yaml", "step3_turns_and_choices.yaml",
                     "step4_scoring.yaml", "step5_options_triggers_modifiers.yaml"]


@pytest.mark.parametrize("path", EXAMPLES, ids=_id)
def test_example_loads_without_errors(path):
    rs = load_ruleset(path)  # raises RulesetError, listing every problem, if anything is wrong
    assert rs.players, "a ruleset names its player counts"
    assert rs.flow is not None and rs.score is not None


CASES = [(path, n) for path in EXAMPLES for n in load_ruleset(path).players]


@pytest.mark.parametrize("path,players", CASES, ids=[f"{_id(p)}-{n}p" for p, n in CASES])
def test_random_games_reach_the_end(path, players):
    rs = load_ruleset(path)
    option_sets = [rs.resolve_options({}, players)]
    for name, spec in rs.options.items():  # each true/false variant flipped, where it is allowed
        if isinstance(spec.default, bool) and (not spec.players or players in spec.players):
            option_sets.append(rs.resolve_options({name: str(not spec.default)}, players))
    for options in option_sets:
        for i in range(GAMES_PER_COUNT):
            seed = 1000 * players + i
            game = Game(rs, players, options, seed)
            play(game, make_agents(["random"] * players, seed))
            assert game.over
            if path.parent == GUIDE:  # steps 1 and 2 let the flow run out; from step 3 on it names its ending
                assert game.end_reason == ("flow ended" if path.stem[:5] in ("step1", "step2") else "last dive")
            scores = game.scores()
            assert set(scores) == set(game.players)
            assert all(isinstance(s, int) for s in scores.values())
            assert game.winners()
            held = [c for z in game.table.all_zones() for c in cards(game, z)]
            assert len(held) == len(set(held)) == len(rs.cards), "no card is lost or created"


# ---------------------------------------------------------------- helpers

def zone(game: Game, name: str, key=None) -> Zone:
    entry = game.table.zones[name]
    return entry if isinstance(entry, Zone) else entry[key]


def card(game: Game, text: str) -> Card:
    """The first card labelled `text` (pearls come in identical copies)."""
    for c in game.table.cards:
        if c.label == text:
            return c
    raise AssertionError(f"no card is labelled {text!r}")


def deal_hands(game: Game, hands: dict[int, list[str]], leader: int = 1) -> None:
    """Give each player exactly these fish (the rest go back to the deck); set the leader."""
    deck = zone(game, "deck")
    for p in game.players:
        for c in list(cards(game, zone(game, "hand", p))):
            game.table.move(c, deck)
    for p, texts in hands.items():
        for text in texts:
            game.table.move(card(game, text), zone(game, "hand", Player(p)))
    game.table.counters["leader"] = Player(leader)


def top_of_reef(game: Game, text: str) -> Card:
    """Put the card labelled `text` on top of the reef: the prize of the next dive."""
    c = card(game, text)
    game.table.move(c, zone(game, "pearl_bed"), 0)
    return c


def give_pearls(game: Game, p: int, texts: list[str]) -> list[Card]:
    """Move cards labelled `texts` (distinct copies) from the reef into p's pearls."""
    moved = []
    for text in texts:
        c = next(c for c in cards(game, zone(game, "pearl_bed")) if c.label == text)
        game.table.move(c, zone(game, "pearls", Player(p)))
        moved.append(c)
    return moved


@pytest.fixture(scope="module")
def final():
    return load_ruleset(FINAL)


def options(rs, **given) -> dict:
    return rs.resolve_options({k: str(v) for k, v in given.items()}, 2)


# ---------------------------------------------------------------- steps 1 and 2 play themselves

@pytest.mark.parametrize("step", ["step1_cards.yaml", "step2_zones_and_setup.yaml"])
def test_the_first_steps_ask_nobody_anything(step):
    rs = load_ruleset(GUIDE / step)
    game = Game(rs, 3, seed=5)
    assert game.over and game.decisions == []
    assert game.winners()


def test_step1_the_highest_fish_wins():
    rs = load_ruleset(GUIDE / "step1_cards.yaml")
    game = Game(rs, 3, seed=11)
    ranks = {p: cards(game, zone(game, "drawn", p))[0].props["rank"] for p in game.players}
    assert game.scores() == ranks
    assert game.winners() == [p for p in game.players if ranks[p] == max(ranks.values())]
    assert len(cards(game, zone(game, "deck"))) == 24 - 3


def test_step2_pearl_count_and_back():
    rs = load_ruleset(GUIDE / "step2_zones_and_setup.yaml")
    pearls = [d for d in rs.cards if d.kind == "pearl"]
    assert len(pearls) == 10 and len(rs.cards) == 34
    assert all(d.back == {"size": d.props["size"]} for d in pearls)
    game = Game(rs, 2, seed=3)
    won = {p: sum(c.props["value"] for c in cards(game, zone(game, "pearls", p))) for p in game.players}
    assert game.scores() == won
    assert sum(game.table.counters["tricks"].values()) == 8


# ---------------------------------------------------------------- decisions

def test_players_must_follow_the_colour_led(final):
    def arrange(g):
        deal_hands(g, {1: ["red 5", "blue 1", "blue 2"], 2: ["red 3", "red 8", "gold 2"]})
    game = Game(final, 2, seed=1, arrange=arrange)
    assert game.current_player == P1
    assert option_labels(game) == ["blue 1", "blue 2", "red 5"], "the leader may play any fish, sorted"
    pick(game, "red 5")
    assert game.current_player == P2
    assert option_labels(game) == ["red 3", "red 8"], "P2 holds red, so P2 must play red"


def test_a_choice_with_one_option_asks_nothing(final):
    def arrange(g):
        deal_hands(g, {1: ["red 5", "blue 1", "blue 2"], 2: ["red 3", "gold 2", "gold 4"]})
    game = Game(final, 2, seed=1, arrange=arrange)
    pick(game, "red 5")
    # P2's only red fish was played for them; P1 won and already leads dive 2.
    assert len(game.decisions) == 1, "only P1's choice was a decision"
    assert labels(game, zone(game, "catch", P1)) == ["red 5", "red 3"]
    assert game.table.counters["dive"] == 2
    assert game.current_player == P1
    assert option_labels(game) == ["blue 1", "blue 2"]


def test_a_choice_with_no_option_is_an_error_and_changes_nothing(final):
    def arrange(g):
        deal_hands(g, {1: ["red 5", "blue 1"], 2: []})
    game = Game(final, 2, seed=1, arrange=arrange)
    before = game.digest()
    with pytest.raises(EffectError, match=r"choose\(\) has no option to offer"):
        pick(game, "red 5")
    assert game.decisions == [] and game.current_player == P1
    assert game.digest() == before


# ---------------------------------------------------------------- hidden information

def test_each_player_sees_only_what_the_zones_allow(final):
    game = Game(final, 2, seed=4)
    seen = {z["label"]: z["cards"] for z in view(game, 1).zones()}
    assert all("label" in c for c in seen["hand P1"]), "a player sees their own hand"
    assert seen["hand P2"] and all(c == {"hidden": True} for c in seen["hand P2"])
    assert all(c == {"hidden": True} for c in seen["deck"]), "fish have no back properties"
    assert seen["reef"] and all(set(c) == {"hidden", "size"} for c in seen["reef"]), \
        "a face-down pearl shows only its size"
    referee = {z["label"]: z["cards"] for z in view(game, None).zones()}
    assert all("label" in c for c in referee["hand P2"])


def test_the_prize_is_face_down_unless_the_water_is_clear(final):
    def arrange(g):
        top_of_reef(g, "big pearl (4)")
    murky = Game(final, 2, options(final), seed=2, arrange=arrange)
    assert view(murky, 2).log()[0] == "Dive 1: the prize is a face-down big card"
    clear = Game(final, 2, options(final, clear_water=True), seed=2, arrange=arrange)
    assert view(clear, 2).log()[0] == "Dive 1: the water is clear, the prize is the big pearl (4)"
    # The option changes what is said, not the game: the same seed deals the same cards.
    assert labels(murky, zone(murky, "hand", P1)) == labels(clear, zone(clear, "hand", P1))


def test_a_logged_card_reads_differently_for_each_player(final):
    def arrange(g):
        deal_hands(g, {1: ["red 8", "blue 1", "blue 2"], 2: ["red 1", "gold 2", "gold 3"]})
        top_of_reef(g, "small pearl (2)")
    game = Game(final, 2, seed=3, arrange=arrange)
    pick(game, "red 8")
    assert "P1 takes small pearl (2)" in view(game, 1).log()
    assert "P1 takes a face-down small card" in view(game, 2).log()


# ---------------------------------------------------------------- the jellyfish trigger

def sting_position(g: Game) -> None:
    """P1 surely wins dive 1, whose prize is a jellyfish; P1 owns two pearls already."""
    deal_hands(g, {1: ["red 8", "blue 1", "blue 2"], 2: ["red 1", "gold 2", "gold 3"]})
    give_pearls(g, 1, ["big pearl (4)", "small pearl (1)"])
    top_of_reef(g, "Jellyfish")


def test_the_jellyfish_stings_the_winner_of_its_dive(final):
    game = Game(final, 2, seed=6, arrange=sting_position)
    jelly = cards(game, zone(game, "offer"))[0]
    assert jelly.kind == "jellyfish"
    assert game.table.counters["stings"] == {P1: 0, P2: 0}
    pick(game, "red 8")  # P2 must answer with red 1; P1 wins the jellyfish
    assert game.table.counters["tricks"][P1] == 1
    assert game.table.counters["stings"] == {P1: 1, P2: 0}, "only the jellyfish on offer fired"
    assert game.table.zone_of(jelly) is zone(game, "discard")
    assert labels(game, zone(game, "pearls", P1)) == ["small pearl (1)"]
    assert last_label(game, zone(game, "pearl_bed")) == "big pearl (4)", "the best pearl went back to the reef"
    assert "A jellyfish stings P1, who drops big pearl (4) back into the reef" in view(game, 1).log()
    assert "A jellyfish stings P1, who drops a face-down big card back into the reef" in view(game, 2).log()


def last_label(game: Game, z: Zone) -> str:
    return cards(game, z)[-1].label


def test_a_pearl_prize_stings_nobody(final):
    def arrange(g):
        sting_position(g)
        top_of_reef(g, "small pearl (2)")
    game = Game(final, 2, seed=6, arrange=arrange)
    pick(game, "red 8")
    assert game.table.counters["stings"] == {P1: 0, P2: 0}
    assert sorted(labels(game, zone(game, "pearls", P1))) == ["big pearl (4)", "small pearl (1)", "small pearl (2)"]


def test_a_stung_diver_without_pearls_loses_nothing_more(final):
    def arrange(g):
        deal_hands(g, {1: ["red 8", "blue 1", "blue 2"], 2: ["red 1", "gold 2", "gold 3"]})
        top_of_reef(g, "Jellyfish")
    game = Game(final, 2, seed=6, arrange=arrange)
    pick(game, "red 8")
    assert game.table.counters["stings"][P1] == 1
    assert labels(game, zone(game, "pearls", P1)) == []
    assert "A jellyfish stings P1, who has no pearl to lose" in view(game, 2).log()


# ---------------------------------------------------------------- the Pearl Crown modifier

def test_the_crown_adds_one_to_its_owners_big_pearls(final):
    held = {}

    def arrange(g):
        held[1] = give_pearls(g, 1, ["big pearl (4)", "small pearl (2)", "Pearl Crown"])
        held[2] = give_pearls(g, 2, ["big pearl (3)"])
    game = Game(final, 2, seed=8, arrange=arrange)
    big4, small2, crown = held[1]
    (big3,) = held[2]
    assert game.call_function("worth", [big4]) == 5
    assert game.call_function("worth", [small2]) == 2, "small pearls are unchanged"
    assert game.call_function("worth", [big3]) == 3, "another player's big pearl is unchanged"
    assert game.call_function("pearl_points", [P1]) == 7
    assert game.scores() == {P1: 7, P2: 3}
    game.table.move(crown, zone(game, "pearl_bed"))  # while_in: [pearls] - in the reef it does nothing
    assert game.call_function("worth", [big4]) == 4
    assert game.scores() == {P1: 6, P2: 3}


# ---------------------------------------------------------------- scoring

def test_golden_fish_score_and_dives_won_break_ties(final):
    def arrange(g):
        give_pearls(g, 1, ["small pearl (2)"])
        give_pearls(g, 2, ["small pearl (1)"])
        for text in ["gold 1", "red 7"]:
            g.table.move(card(g, text), zone(g, "catch", P2))
        g.table.counters["tricks"][P1] = 1
        g.table.counters["tricks"][P2] = 2
    game = Game(final, 2, seed=9, arrange=arrange)
    assert game.call_function("catch_points", [P2]) == 1, "gold 1 scores, red 7 does not"
    assert game.scores() == {P1: 2, P2: 2}
    assert game.winners() == [P2], "tied on points, P2 won more dives"


def test_the_finished_game_saves_and_replays(final, tmp_path):
    game = Game(final, 3, final.resolve_options({"clear_water": "true"}, 3), seed=21)
    play(game, make_agents(["random"] * 3, 21))
    write_save(game, tmp_path / "g.json")
    again, data, warnings = replay(tmp_path / "g.json")
    assert warnings == []
    assert again.over and again.digest() == game.digest() == data["result"]["digest"]
    assert again.options == {"clear_water": True}


# ---------------------------------------------------------------- the guide quotes the real files

def test_every_yaml_block_of_the_guide_is_quoted_from_an_example():
    import re
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^( *)```yaml\n(.*?)^\1```", guide, flags=re.S | re.M)
    assert len(blocks) >= 15
    files = [p.read_text(encoding="utf-8") for p in sorted(GUIDE.glob("*.yaml"))]
    for indent, block in blocks:  # a block inside a list item is indented like the item's text
        text = "".join(line[len(indent):] for line in block.splitlines(keepends=True))
        assert any(text in f for f in files), f"this block of docs/guide.md is in no example:\n{text}"


def test_the_reference_documents_every_key_of_the_schema():
    """docs/reference.md has a table row for every property the schema allows."""
    import json
    import re
    schema = json.loads((ROOT / "schemas" / "ruleset.schema.json").read_text(encoding="utf-8"))
    reference = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    keys: set[str] = set()

    def walk(node):  # a schema node: its properties, and the schemas nested in it
        if not isinstance(node, dict):
            return
        for name, sub in node.get("properties", {}).items():
            keys.add(name)
            walk(sub)
        for key in ("items", "additionalProperties"):
            walk(node.get(key))
        for sub in node.get("$defs", {}).values():
            walk(sub)
    walk(schema)
    walk(json.loads((ROOT / "schemas" / "extension.schema.json").read_text(encoding="utf-8")))
    assert {"game", "per", "visibility", "while_in", "modify", "teams", "groups", "remove_cards"} <= keys
    documented = set()
    for line in reference.splitlines():  # the first cell of each table row names keys: `per`, `teams.when`...
        if line.startswith("| "):
            for span in re.findall(r"`([^`]+)`", line.split(" | ")[0]):
                documented.add(span.split(".")[-1])
    undocumented = sorted(keys - documented)
    assert undocumented == [], f"keys of the schema missing from docs/reference.md: {undocumented}"


def test_the_guides_broken_yaml_is_step_4_with_its_diff_and_validate_says_what_it_shows(tmp_path, capsys):
    """docs/guide.md's broken.yaml: its diff is the one from step 4 (line numbers included), and
    `engine validate broken.yaml` prints, line for line, what the guide shows."""
    import difflib
    import re

    from engine.cli import main
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    part = guide[guide.index("Copy step 4 to `broken.yaml`"):]
    diff = re.search(r"```diff\n(.*?)```", part, flags=re.S).group(1)
    shown = re.search(r"```text\n\$ engine validate broken.yaml\n(.*?)```", part, flags=re.S).group(1)
    original = (GUIDE / "step4_scoring.yaml").read_text(encoding="utf-8")
    removed = [line[1:] for line in diff.splitlines() if line.startswith("-")]
    added = [line[1:] for line in diff.splitlines() if line.startswith("+")]
    assert len(removed) == len(added) == 4
    broken = original
    for old, new in zip(removed, added):
        assert broken.count(old + "\n") == 1, old
        broken = broken.replace(old + "\n", new + "\n")
    made = "".join(difflib.unified_diff(original.splitlines(keepends=True), broken.splitlines(keepends=True)))
    assert made.split("\n", 2)[2] == diff  # without its two file lines
    (tmp_path / "broken.yaml").write_text(broken, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(tmp_path)
        assert main(["validate", "broken.yaml"]) == 1
    out = capsys.readouterr()
    assert out.out + out.err == shown


@pytest.mark.parametrize("step", ["step1_cards", "step2_zones_and_setup"])
def test_the_guides_games_that_ask_nothing_print_what_it_shows(step, capsys, monkeypatch):
    """Steps 1 and 2 of docs/guide.md play themselves: their `engine play` prints exactly the
    guide's block (the screens of the steps that ask are checked by the testing page's tests)."""
    import re
    import shlex

    from engine.cli import main
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    command = f"$ engine play examples/guide/{step}.yaml --players 2 --seats human,random --seed 3\n"
    shown = re.match(r"(.*?)```", guide[guide.index(command) + len(command):], flags=re.S).group(1)
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[2:]) == 0
    assert capsys.readouterr().out == shown


def _guide_block_after(command: str) -> str:
    import re
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    return re.match(r"(.*?)```", guide[guide.index(command) + len(command):], flags=re.S).group(1)


def test_the_guides_simulation_prints_what_it_shows(capsys, monkeypatch):
    """Step 4's `engine simulate` block is what the command prints, word for word."""
    import shlex

    from engine.cli import main
    command = "$ engine simulate examples/guide/step4_scoring.yaml --players 3 --games 500 --seed 1\n"
    shown = _guide_block_after(command)
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(command)[2:] + ["--jobs", "1"]) == 0  # the games are the same on any jobs
    assert capsys.readouterr().out == shown


def test_the_guides_log_of_step_3_is_what_log_shows(capsys, monkeypatch):
    """Step 3's `log` block: choosing 3, then 1, then typing log, as the guide says."""
    import io
    import re

    from engine.cli import main
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    intro = "and typing `log` at the one after, shows the whole log so far:\n\n```text\n"
    shown = re.match(r"(.*?)```", guide[guide.index(intro) + len(intro):], flags=re.S).group(1)
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr("sys.stdin", io.StringIO("3\n1\nlog\nq\n\n"))
    assert main(["play", "examples/guide/step3_turns_and_choices.yaml", "--players", "2", "--seats",
                 "human,random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.split("(? for help): ")[3].split("Choose 1-5")[0] == shown


def test_the_guides_saved_game_ends_and_replays_as_it_shows(capsys, monkeypatch, tmp_path):
    """Step 5's --save and replay block, P1 answering 1 at every decision, from another folder."""
    import io
    import shlex

    from engine.cli import main
    play = ("$ engine play examples/guide/step5_options_triggers_modifiers.yaml --players 2 "
            "--seats human,random --seed 42 --save g.json\n...\n")
    shown = _guide_block_after(play)
    end, replay = shown.split("$ engine replay g.json\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 100))
    assert main(shlex.split(play)[2:-1]) == 0
    assert capsys.readouterr().out.endswith(end)
    assert main(["replay", "g.json"]) == 0
    assert capsys.readouterr().out == replay

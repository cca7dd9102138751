"""Tests of Pearl Divers, the game of docs/guide.md, written as you would write them for a game of
your own: with pytest and the public API only (docs/testing.md explains every part).

Run them from the folder that holds this file and the ruleset:

    python -m pytest -q test_pearl_divers.py
"""
import random
from pathlib import Path

import pytest

from engine import EffectError, Game, IllegalMove, load_ruleset, position, untold, view

# The ruleset sits next to this file; load it once for all the tests of the file.
RULESET = Path(__file__).parent / "step5_options_triggers_modifiers.yaml"


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(RULESET)  # raises RulesetError, listing every problem, if the file is wrong


# Four small helpers. They know nothing of Pearl Divers. The first two come with the engine
# (engine.position); the other two, below, are yours to copy into tests of your own.

zone = position.zone   # zone(game, "hand", 2): P2's hand
put = position.put     # put(game, "red 8", zone(game, "hand", 1)): a card, by its label, into a zone


def options(game):
    """The options of the decision waiting, as the player who decides reads them."""
    return view(game, game.current_player).decision["options"]


def choose(game, text):
    """Answer the decision waiting with the option that reads `text`."""
    offered = options(game)
    assert text in offered, f"{text!r} is not offered; the options are {offered}"
    game.apply(offered.index(text))


# Positions. Each is a function of the game, given to Game(..., arrange=...): it runs after the
# ruleset's setup (cards dealt, counters set) and before the flow asks anything.

def deal_hands(game, hands, leader=1):
    """Give each player exactly these fish (all other fish go back to the deck); `leader` leads."""
    for p in game.players:
        for card in list(game.table.cards_in(zone(game, "hand", p))):
            game.table.move(card, zone(game, "deck"))
    for p, labels in hands.items():
        for label in labels:
            put(game, label, zone(game, "hand", p))
    game.table.counters["leader"] = game.players[leader - 1]   # P1 is game.players[0]


def sting_position(game):
    """P1 holds the best red fish and two pearls; the prize of dive 1 is a jellyfish."""
    deal_hands(game, {1: ["red 8", "blue 1", "blue 2"], 2: ["red 1", "gold 2", "gold 3"]})
    put(game, "big pearl (4)", zone(game, "pearls", 1))
    put(game, "small pearl (1)", zone(game, "pearls", 1))
    put(game, "Jellyfish", zone(game, "pearl_bed"), 0)  # the top of the reef: dive 1's prize


# Hidden information in a position: engine.position stacks a pile, turns a card face down,
# shows a card to a player and sets a counter, as the rules' move, turn_face_down, reveal and
# assignments do.

def peek_position(game):
    """The reef's next prizes are the Jellyfish, then big pearl (4), at which P2 has peeked.
    P1's only pearl lies face down: P1 does not know it. P2 was stung once before."""
    deal_hands(game, {1: ["red 8", "blue 1", "blue 2"], 2: ["red 1", "gold 2", "gold 3"]})
    position.stack(game, "pearl_bed", ["Jellyfish", "big pearl (4)"])
    position.show(game, "big pearl (4)", 2)
    position.face_down(game, put(game, "small pearl (2)", zone(game, "pearls", 1)))
    position.set_counter(game, "stings", 1, key=2)


def test_clear_water_shows_each_prize_to_everyone(rules):
    clear_water = rules.resolve_options({"clear_water": "true"}, 2)
    murky, clear = (Game(rules, 2, o, seed=4, arrange=peek_position) for o in (None, clear_water))
    assert view(murky, 1).log() == ["Dive 1: the prize is a face-down small card"]
    assert view(clear, 1).log() == ["Dive 1: the water is clear, the prize is the Jellyfish"]
    for game in (murky, clear):
        choose(game, "red 8")     # P2's only red, red 1, is played for them: P1 wins the dive
        assert game.table.counters["stings"] == {1: 1, 2: 1}
        assert "A jellyfish stings P1, who drops a face-down small card back into the reef" \
            in view(game, 1).log()                  # a face-down pearl: P1 never saw which
        assert len(game.decisions) == 1             # P2's forced choice is no decision
        assert view(game, 2).forced()[0][1].startswith("Your only option: red 1")
    assert view(murky, 1).log()[-1] == "Dive 2: the prize is a face-down big card"
    assert view(murky, 2).log()[-1] == "Dive 2: the prize is big pearl (4)"      # P2 peeked
    assert view(clear, 1).log()[-1] == "Dive 2: the water is clear, the prize is the big pearl (4)"


def test_the_jellyfish_stings_the_winner_of_its_dive(rules):
    game = Game(rules, 2, seed=6, arrange=sting_position)
    assert game.current_player == 1
    assert options(game) == ["blue 1", "blue 2", "red 8"]
    choose(game, "red 8")            # P2 must follow with red 1, which is played for them
    assert game.table.counters["dive"] == 2
    assert game.table.counters["tricks"] == {1: 1, 2: 0}
    assert game.table.counters["stings"] == {1: 1, 2: 0}
    pearls = [c.label for c in game.table.cards_in(zone(game, "pearls", 1))]
    assert pearls == ["small pearl (1)"], "the best pearl went back to the reef"
    assert game.scores() == {1: 1, 2: 0}
    # Each player reads the log as they were told it: P2 never saw which pearl it was.
    told_p1, told_p2 = view(game, 1).log(), view(game, 2).log()
    assert "A jellyfish stings P1, who drops big pearl (4) back into the reef" in told_p1
    assert "A jellyfish stings P1, who drops a face-down big card back into the reef" in told_p2


def test_the_crown_makes_its_owners_big_pearls_worth_one_more(rules):
    def arrange(game):
        for label in ["big pearl (4)", "small pearl (2)", "Pearl Crown"]:
            put(game, label, zone(game, "pearls", 1))
        put(game, "big pearl (3)", zone(game, "pearls", 2))
    game = Game(rules, 2, seed=8, arrange=arrange)
    assert game.scores() == {1: 4 + 1 + 2, 2: 3}
    put(game, "Pearl Crown", zone(game, "pearl_bed"))   # back in the reef, the crown does nothing
    assert game.scores() == {1: 4 + 2, 2: 3}


# A move the rules refuse is an option the game never offers.

def test_players_must_follow_the_colour_led(rules):
    def arrange(game):
        deal_hands(game, {1: ["red 5", "blue 1"], 2: ["red 3", "red 8", "gold 2"]})
    game = Game(rules, 2, seed=1, arrange=arrange)
    choose(game, "red 5")
    assert game.current_player == 2
    assert options(game) == ["red 3", "red 8"]      # gold 2 is not offered: P2 holds red
    before = game.digest()
    with pytest.raises(IllegalMove):
        game.apply(2)                               # there is no third option
    assert game.digest() == before                  # a refused move changes nothing


def test_a_player_with_no_fish_to_play_is_an_error_of_the_rules(rules):
    def arrange(game):
        deal_hands(game, {1: ["red 5", "blue 1"], 2: []})
    game = Game(rules, 2, seed=1, arrange=arrange)
    with pytest.raises(EffectError, match="no option to offer"):
        choose(game, "red 5")
    assert game.decisions == []                     # the game is as it was before the move


# A game is its ruleset, options, seed and decisions: the same again give the same game.

def test_a_whole_game_replays_from_its_seed_and_decisions(rules):
    options_ = rules.resolve_options({"clear_water": "true"}, 3)   # as --option clear_water=true
    game = Game(rules, 3, options_, seed=21)
    rng = random.Random(1)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.end_reason == "last dive"
    assert len(game.winners()) >= 1
    again = Game(rules, 3, options_, seed=21, decisions=game.decisions)
    assert again.over and again.digest() == game.digest()
    assert again.scores() == game.scores() and view(again, None).log() == view(game, None).log()


def test_an_arranged_game_replays_with_the_same_arrangement(rules):
    game = Game(rules, 2, seed=6, arrange=sting_position)
    choose(game, "red 8")
    choose(game, "blue 1")
    again = Game(rules, 2, seed=6, arrange=sting_position, decisions=game.decisions)
    assert again.digest() == game.digest()


# Whatever changes on a player's screen, a line of the news they read says.

def test_every_change_a_player_sees_is_told(rules):
    for players in rules.players:
        for seed in range(3):
            gaps = untold(rules, players, seed)        # a random game; a list of what was not told
            assert not gaps, "\n".join(str(gap) for gap in gaps[:5])

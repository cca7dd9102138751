"""engine.position: a test sets up any position from Python (issue 29): stacks a pile, moves a
card, turns one face down or up, shows one to a player, sets a counter; what a player may see
then follows, through view(). Its mistakes are LookupErrors that say what there is."""
from __future__ import annotations

import textwrap

import pytest

from engine import Game, load_ruleset, position, view

PEARLS = "examples/guide/step5_options_triggers_modifiers.yaml"


@pytest.fixture(scope="module")
def pearls():
    return load_ruleset(PEARLS)


def labels(game, zone):
    return [c.label for c in game.table.cards_in(zone)]


def test_stack_puts_the_cards_on_top_in_order_each_copy_once(pearls):
    def arrange(game):
        position.stack(game, "pearl_bed", ["small pearl (1)", "Jellyfish", "small pearl (1)"])
    game = Game(pearls, 2, seed=1, arrange=arrange)
    reef = game.table.cards_in(position.zone(game, "pearl_bed"))
    offer = labels(game, position.zone(game, "offer"))
    assert offer == ["small pearl (1)"]                    # dive 1 took the top card
    assert [c.label for c in reef[:2]] == ["Jellyfish", "small pearl (1)"]
    assert reef[1] is not game.table.cards_in(position.zone(game, "offer"))[0]   # two copies
    assert len(reef) + 1 == sum(c.kind in ("pearl", "jellyfish", "crown") for c in game.table.cards)


def test_a_card_stacked_twice_is_an_error(pearls):
    game = Game(pearls, 2, seed=1)
    crown = position.card(game, "Pearl Crown")
    with pytest.raises(ValueError, match="stacked twice"):
        position.stack(game, "discard", [crown, crown])


def test_put_takes_a_copy_not_there_yet(pearls):
    game = Game(pearls, 2, seed=1)
    mine = position.zone(game, "pearls", 1)
    first = position.put(game, "small pearl (1)", mine)
    second = position.put(game, "small pearl (1)", mine, 0)
    assert first is not second and game.table.cards_in(mine) == [second, first]


def test_face_down_hides_a_card_from_its_owner_until_shown(pearls):
    def arrange(game):
        hand = position.zone(game, "hand", 1)
        position.put(game, "red 8", hand)
        position.face_down(game, "red 8")
        position.put(game, "gold 8", hand)
        position.face_down(game, "gold 8")
        position.show(game, "gold 8", 1)
    game = Game(pearls, 2, seed=1, arrange=arrange)
    hand = next(z for z in view(game, 1).as_dict()["zones"] if z["label"] == "hand P1")
    shown = [c.get("label") for c in hand["cards"]]
    assert "gold 8" in shown and "red 8" not in shown      # P1's own red 8 is face down
    assert sum(1 for c in hand["cards"] if c.get("hidden")) == 1
    assert not game.table.can_see(position.card(game, "gold 8"), 2)
    position.face_up(game, "red 8")
    assert game.table.can_see(position.card(game, "red 8"), 1)


def test_show_makes_a_hidden_prize_known_to_one_player(pearls):
    def arrange(game):
        position.stack(game, "pearl_bed", ["big pearl (4)"])
        position.show(game, "big pearl (4)", 2)
    game = Game(pearls, 3, seed=1, arrange=arrange)
    assert view(game, 2).log() == ["Dive 1: the prize is big pearl (4)"]
    assert view(game, 1).log() == view(game, 3).log() == ["Dive 1: the prize is a face-down big card"]
    with pytest.raises(ValueError, match="no player 4"):
        position.show(game, "big pearl (4)", 4)


def test_set_counter_sets_one_value_or_the_value_of_a_key(pearls):
    def arrange(game):
        position.set_counter(game, "stings", 2, key=2)
        position.set_counter(game, "leader", game.players[1])
    game = Game(pearls, 2, seed=1, arrange=arrange)
    assert game.table.counters["stings"] == {1: 0, 2: 2}
    assert game.current_player == 2                        # P2 leads dive 1


def test_a_place_of_a_board_is_given_by_itself_or_by_its_id():
    rules = load_ruleset("railways")
    game = Game(rules, 3, seed=1)
    ashby = rules.boards["map"]["AS"]
    assert position.zone(game, "goods", "AS") is position.zone(game, "goods", ashby)
    position.set_counter(game, "blocked", 2, key="AS")
    assert game.table.counters["blocked"][ashby] == 2


def test_a_family_keyed_by_two_keys(tmp_path):
    path = tmp_path / "two.yaml"
    path.write_text(textwrap.dedent("""\
        game: {name: Two keys, players: [2]}
        constants: {colours: [red, blue]}
        card_kinds:
          tile: {zone: pool, label: "{name}", properties: {}}
        cards: [{kind: tile, name: T}]
        zones:
          pool: {}
          rows: {per: [player, colours]}
        flow: |
          let x = choose(1, [1, 2], "Go?")
        scoring: {score: "0"}
        """))
    game = Game(load_ruleset(path), 2, seed=1)
    row = position.zone(game, "rows", 2, "blue")
    assert row.key == (2, "blue") and position.zone(game, "rows", 2)["blue"] is row
    position.put(game, "T", row)
    assert labels(game, row) == ["T"]
    with pytest.raises(LookupError, match="takes 2 key"):
        position.zone(game, "rows", 2, "blue", "x")


@pytest.mark.parametrize("call, message", [
    (lambda g: position.zone(g, "hnad", 1), "no zone is named 'hnad' (did you mean 'hand'?)"),
    (lambda g: position.zone(g, "hand", 5), "the zone 'hand' has no key 5; its keys are P1, P2"),
    (lambda g: position.card(g, "red 9"), "no card is labelled or named 'red 9' (did you mean 'red 8'?)"),
    (lambda g: position.put(g, "red 1", "hand"), "'hand' is a family of zones: give zone(game, 'hand', KEY)"),
    (lambda g: position.set_counter(g, "sting", 1), "no counter is named 'sting' (did you mean 'stings'?)"),
    (lambda g: position.set_counter(g, "stings", 1), "the counter 'stings' is one per player: give the key"),
    (lambda g: position.set_counter(g, "stings", 1, key=3), "the counter 'stings' has no key 3"),
])
def test_a_mistake_says_what_there_is(pearls, call, message):
    game = Game(pearls, 2, seed=1)
    before = game.digest()
    with pytest.raises(LookupError) as err:
        call(game)
    assert str(err.value).startswith(message)
    assert game.digest() == before


def test_an_exception_of_the_arrange_hook_arrives_as_itself(pearls):
    """Not a rule's error located at the flow's first statement: the test's own fault."""
    def arrange(game):
        next(iter([]))
    with pytest.raises(StopIteration):
        Game(pearls, 2, seed=1, arrange=arrange)

    def mistaken(game):
        position.put(game, "small perl (1)", "discard")
    with pytest.raises(LookupError, match="did you mean 'small pearl"):
        Game(pearls, 2, seed=1, arrange=mistaken)


ASKING_SETUP = """\
game: {name: Colours, players: [2]}
constants:
  colours: [red, blue, green]
card_kinds:
  gem:
    zone: bag
    label: "{name}"
cards:
  - {kind: gem, name: Ruby}
  - {kind: gem, name: Opal}
  - {kind: gem, name: Jade}
zones:
  bag: {}
  hand: {per: player}
counters:
  colour: {per: player, initial: ""}
setup: |
  for p in players:
      colour[p] = choose(p, [c for c in colours if c not in [colour[q] for q in players]], "Your colour?")
flow: |
  let c = choose(1, bag, "Take a gem")
  log(c)
scoring:
  score: 0
"""


def test_a_setup_that_asks_is_answered_by_text_and_then_arranged(tmp_path):
    path = tmp_path / "colours.yaml"
    path.write_text(ASKING_SETUP, encoding="utf-8")
    rules = load_ruleset(path)
    arranged = []

    def arrange(game):
        arranged.append(dict(game.table.counters["colour"]))
        position.put(game, "Ruby", position.zone(game, "hand", 1))
    game = Game(rules, 2, seed=1, arrange=arrange)
    assert game.setting_up and arranged == []  # Game() stops at setup's first question
    position.answer_setup(game, "blue", "green")
    assert not game.setting_up and arranged == [{1: "blue", 2: "green"}]
    assert view(game, 1).decision["options"] == ["Opal", "Jade"]  # the flow's first decision, from the arranged table


def test_answering_setup_wrongly_says_what_there_is(tmp_path):
    path = tmp_path / "colours.yaml"
    path.write_text(ASKING_SETUP, encoding="utf-8")
    rules = load_ruleset(path)
    with pytest.raises(LookupError, match=r"'bleu' is not offered; the options are \['red', 'blue', 'green'\]"):
        position.answer_setup(Game(rules, 2, seed=1), "bleu")
    with pytest.raises(ValueError, match="setup still asks P2: 'Your colour\\?'"):
        position.answer_setup(Game(rules, 2, seed=1), "red")
    with pytest.raises(ValueError, match="setup asks nothing more: 'red'"):
        position.answer_setup(Game(rules, 2, seed=1), "red", "blue", "red")

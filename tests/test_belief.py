"""Worlds that agree with everything a player has observed (engine/game/belief.py).

A world a bot thinks in must agree with what its player was told (a hint about their own
cards), and must tell nothing more: not which hidden card is where, not how a real shuffle or
random_choice fell. The attacks: two games a player cannot tell apart (a swap of two cards they
never saw; another seed, dealt to look the same; a shuffle of cards they had seen that fell
otherwise; another seed whose random_choice drew another card from a pile never shuffled) give
the same worlds and the same decisions, and a sampler that kept the real shuffle fails the
third one. When no deal is found, or none is needed, worlds are determinize's, counted."""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from engine.core.table import Player
from engine.game import belief
from engine.game.game import Game
from engine.game.view import view
from engine.players.search import MctsAgent
from engine.rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
LAMPS = ROOT / "examples" / "lamplighters" / "lamplighters.yaml"
RULES = load_ruleset(LAMPS)

# A game of 8 tiles: a tile is shown to all and shuffled back into the deck; P1 learns in public
# how many red tiles P2 holds; P1 decides.
PEEK = textwrap.dedent("""\
    game: {name: Peek, players: [2]}
    card_kinds:
      tile:
        zone: deck
        label: "{colour} {rank}"
        properties: {colour: string, rank: integer}
    zones:
      deck: {visibility: hidden}
      shown: {}
      hand: {per: player, visibility: owner}
    cards:
      - table: {kind: tile, for_each: {colour: [red, blue], rank: [1, 2, 3, 4]}}
    setup: |
      shuffle(deck)
      for p in players:
          deal(deck, hand[p], 2)
    flow: |
      move(first(deck), shown)
      log(first(shown), " is shown")
      let go = choose(1, ["on", "stop"], "Go on?")
      move(first(shown), deck)
      shuffle(deck)
      log("The shown tile is shuffled back; P2 holds ", count([t for t in hand[2] if t.colour == "red"]), " red")
      let pick = choose(1, ["high", "low"], "Which?")
      move(first(hand[1]), shown)
    scoring:
      score: sum(t.rank for t in shown)
    """)


# PEEK's tiles, and four gems in a pile never shuffled: one is drawn with random_choice into P2's
# secret, which P1 never sees; a player drawn with it starts, in public. P1 is told in public
# what P2's tiles add up to (so that worlds are searched, not dealt at random) and decides.
GEMS = textwrap.dedent("""\
    game: {name: Gems, players: [2]}
    card_kinds:
      tile:
        zone: deck
        label: "{colour} {rank}"
        properties: {colour: string, rank: integer}
      gem:
        zone: pile
        label: "{name} gem"
        properties: {name: string}
    zones:
      deck: {visibility: hidden}
      pile: {visibility: hidden}
      hand: {per: player, visibility: owner}
      secret: {per: player, visibility: owner}
    cards:
      - table: {kind: tile, for_each: {colour: [red, blue], rank: [1, 2, 3, 4]}}
      - table: {kind: gem, for_each: {name: [ruby, opal, jade, onyx]}}
    setup: |
      shuffle(deck)
      for p in players:
          deal(deck, hand[p], 2)
      let gem = random_choice(pile)
      move(gem, secret[2])
      let starter = random_choice(players)
      log(starter, " starts")
    flow: |
      log("P2's tiles add up to ", sum(t.rank for t in hand[2]))
      let pick = choose(1, ["high", "low"], "Which?")
      move(first(hand[1]), secret[1])
    scoring:
      score: count(secret[1])
    """)

def told_position(seed=3):
    """A Lamplighters game in which P2 told P1 about a colour, P1 to move: (game, colour, places)."""
    rng = random.Random(seed)
    game = Game(RULES, 2, seed=seed)
    while True:
        texts = view(game, game.current_player).decision["options"]
        tells = [i for i, t in enumerate(texts) if t.startswith("tell P1: ") and not t[-1].isdigit()]
        if game.current_player == 2 and tells:
            game.apply(tells[0])
            line = view(game, 1).log()[-1]  # "P2 tells P1: amber at 1, 3 of 4"
            colour, at = line.split(": ")[1].split(" at ")
            return game, colour, [int(x) for x in at.split(" of ")[0].split(", ")]
        game.apply(rng.choice([i for i, t in enumerate(texts) if not t.startswith("light")]))


@pytest.fixture(autouse=True)
def searched_nothing():
    """Each test's worlds are searched from scratch (a search starts from the deals found at
    the position searched before it in the same game)."""
    belief.forget()


def own_hand(world, player=1):
    return world.table.cards_in(world.table.zones["hand"][Player(player)])


def test_worlds_agree_with_what_the_player_was_told():
    game, colour, places = told_position()
    counted = belief.counts["belief"]
    for seed in range(20):
        hand = own_hand(view(game, 1).world(seed))
        assert [i + 1 for i, c in enumerate(hand) if c.props["colour"] == colour] == places
    assert belief.counts["belief"] == counted + 20
    # ...which dealing the unseen cards at random does not: the test could fail.
    assert any([i + 1 for i, c in enumerate(own_hand(game.determinize(1, seed))) if c.props["colour"] == colour] != places
               for seed in range(20))


def test_worlds_are_still_worlds_the_player_cannot_tell_apart():
    game, _, _ = told_position()
    hands = set()
    for seed in range(20):
        world = view(game, 1).world(seed)
        assert view(world, 1).as_dict() == view(game, 1).as_dict()
        assert world.seed == seed and world.decisions == []
        hands.add(tuple(c.label for c in own_hand(world)))
    assert len(hands) > 3, "every world dealt the same hand: a belief of one deal"


def test_two_games_that_differ_by_cards_never_seen_give_the_same_worlds_and_decisions():
    """The order in which deals are tried must not come from the real deal: a game whose deck
    holds two cards the other way round (same seed, same history) is dealt the same worlds."""
    game, _, _ = told_position()
    deck = game.table.cards_in(game.table.zones["deck"])
    a, b = next((x, y) for x in deck for y in deck if x.label != y.label)
    other = Game(RULES, 2, seed=game.seed, decisions=game.decisions, start={a: b, b: a})
    assert other.digest() != game.digest() and view(other, 1).as_dict() == view(game, 1).as_dict()
    _same_worlds_and_decisions(game, other, 1)


def test_another_seed_dealt_to_look_the_same_gives_the_same_worlds_and_decisions():
    """The real seed drives the history's chance, but a world must not follow how a real
    shuffle fell: a game of another seed, dealt to look the same to P1 but for two deck cards,
    is dealt the same worlds."""
    game, _, _ = told_position()
    deck = game.table.cards_in(game.table.zones["deck"])
    a, b = next((x, y) for x in deck for y in deck if x.label != y.label)
    other = Game(RULES, 2, seed=game.seed + 1, decisions=game.decisions,
                 start=_dealt_as(game, seed=game.seed + 1, swapped=(a, b)))
    assert other.seed != game.seed and other.digest() != game.digest()
    assert view(other, 1).as_dict() == view(game, 1).as_dict()
    _same_worlds_and_decisions(game, other, 1)


def test_a_shuffle_of_cards_the_player_saw_leaks_nothing_of_how_it_fell(tmp_path, monkeypatch):
    """P1 saw a tile before it was shuffled back into the deck. Two games alike but for how that
    shuffle fell give the same worlds; a sampler that deals the cards anew at the start only and
    replays the later shuffles as they fell (so that its worlds keep the seen tile where it
    really went) fails this test."""
    path = tmp_path / "peek.yaml"
    path.write_text(PEEK, encoding="utf-8")
    rules = load_ruleset(path)
    game, other = _peeks(rules)
    assert [c.label for c in game.table.cards_in(game.table.zones["deck"])] != \
        [c.label for c in other.table.cards_in(other.table.zones["deck"])], "the shuffles fell alike"
    _same_worlds_and_decisions(game, other, 1)
    belief.forget()
    deal_anew = belief._Chance.shuffle

    def first_only(chance, cards):
        if getattr(chance, "dealt_once", False):
            random.Random.shuffle(chance, cards)
        else:
            chance.dealt_once = True
            deal_anew(chance, cards)
    monkeypatch.setattr(belief._Chance, "shuffle", first_only)
    decks = {tuple(c.label for c in view(g, 1).world(5).table.cards_in(g.table.zones["deck"])) for g in (game, other)}
    assert len(decks) == 2, "a world that follows the real shuffle should have told the games apart"


def test_a_card_random_choice_draws_from_a_pile_never_shuffled_leaks_nothing(tmp_path):
    """The replay deals every shuffle anew; random_choice is chance too. P2's secret gem is
    drawn with it from a pile left in the order of the rules. Two games of other seeds that P1
    cannot tell apart but for which gem P2 drew give the same worlds, and these hold other gems
    than the real one: a replay that draws what the real seed drew puts it in every world."""
    path = tmp_path / "gems.yaml"
    path.write_text(GEMS, encoding="utf-8")
    rules = load_ruleset(path)
    game, other = Game(rules, 2, seed=18), Game(rules, 2, seed=20)
    assert secret(game).label != secret(other).label
    assert view(other, 1).as_dict() == view(game, 1).as_dict()
    _same_worlds_and_decisions(game, other, 1)
    assert {secret(view(game, 1).world(seed)).label for seed in range(20)} != {secret(game).label}

def secret(game, player=2):
    return game.table.cards_in(game.table.zones["secret"][Player(player)])[0]

def _peeks(rules):
    """Two games of PEEK that P1 cannot tell apart at their last decision, but for how the
    shuffle of the shown tile fell (seeds 1 and 2, the second dealt as the first)."""
    for seed in range(1, 40):
        first = Game(rules, 2, seed=seed)
        first.apply(0)
        second = Game(rules, 2, seed=seed + 100, start=_dealt_as(first, seed + 100))
        second.apply(0)
        if view(first, 1).as_dict() == view(second, 1).as_dict() and first.digest() != second.digest():
            return first, second
    raise AssertionError("no two such games")


def _dealt_as(game, seed, swapped=()):
    """The `start` with which a game of `seed` is dealt as `game` was (but for the two cards of
    `swapped`, the other way round) when its setup is over."""
    fresh = Game(game.rules, len(game.players), game.options, seed)
    real = Game(game.rules, len(game.players), game.options, game.seed, start=game.start)
    a, b = swapped or (None, None)
    start = {}
    for mine, theirs in zip(fresh.table.contents, real.table.contents):
        for c, d in zip(mine, theirs):
            start[c] = b if d is a else a if d is b else d
    return start


def _same_worlds_and_decisions(game, other, me):
    counted = belief.counts["belief"]
    for seed in (1, 2, 3):
        w1, w2 = view(game, me).world(seed), view(other, me).world(seed)
        assert w1.digest() == w2.digest() and w1.state_key() == w2.state_key()
    assert belief.counts["belief"] > counted, "the worlds were not the sampler's: the test could not fail"
    assert MctsAgent(7, iterations=30).choose(view(game, me)) == MctsAgent(7, iterations=30).choose(view(other, me))


def test_no_deal_within_the_budget_falls_back_and_is_counted(tmp_path):
    text = LAMPS.read_text(encoding="utf-8").replace("bots:\n", "bots:\n  belief: {replays: 1}\n")
    path = tmp_path / "lamplighters.yaml"
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset(path)
    game, _, _ = told_position()
    game = Game(rules, 2, seed=game.seed, decisions=game.decisions)
    before = belief.counts["fallback"]
    world = view(game, 1).world(4)
    assert belief.counts["fallback"] == before + 1
    assert world.digest() == view(game, 1).world(4).digest()
    assert own_hand(world) == own_hand(game.determinize(1, 4))


def test_where_nothing_was_told_worlds_are_dealt_at_random():
    game = Game(RULES, 2, seed=5)
    before = belief.counts["free"]
    assert own_hand(view(game, 1).world(3)) == own_hand(game.determinize(1, 3))
    assert belief.counts["free"] == before + 1


@pytest.mark.parametrize("why", ["arranged", "long", "off"])
def test_worlds_are_not_searched_for_an_arranged_or_a_long_game_or_when_told_not_to(why, tmp_path):
    told, _, _ = told_position()
    setting = {"arranged": "", "long": f"  belief: {{decisions: {len(told.decisions) - 1}}}\n",
               "off": "  belief: {replays: 0}\n"}[why]
    path = tmp_path / "lamplighters.yaml"
    path.write_text(LAMPS.read_text(encoding="utf-8").replace("bots:\n", "bots:\n" + setting), encoding="utf-8")
    game = Game(load_ruleset(path), 2, seed=told.seed, decisions=told.decisions,
                arrange=(lambda g: None) if why == "arranged" else None)
    before = belief.counts["off"]
    assert own_hand(view(game, 1).world(3)) == own_hand(game.determinize(1, 3))
    assert belief.counts["off"] == before + 1


def test_a_game_that_is_not_its_history_falls_back():
    """A table changed by hand (a test moving a card the player sees) cannot be replayed."""
    game, _, _ = told_position()
    hand2 = game.table.zones["hand"][Player(2)]
    game.table.move(game.table.cards_in(hand2)[0], game.table.zones["discard"])
    before = belief.counts["fallback"]
    view(game, 1).world(2)
    assert belief.counts["fallback"] == before + 1


def test_after_an_undo_worlds_are_dealt_for_the_position_the_game_is_at_now():
    """What a search keeps for a position (the deals, the cards to deal again) is for that
    position: taken back (restore, as undo does) and played otherwise, the game is at another
    position with as many decisions, whose worlds must agree with its own view. Isle of Trains:
    a move that draws a card shows it; another does not."""
    rules = load_ruleset(ROOT / "rulesets" / "isle_of_trains.yaml")
    game = Game(rules, 3, rules.resolve_options({}, 3), 4, keep_log=False)
    rng, tried = random.Random(2), 0
    while not game.over and tried < 3:
        me, n = game.pending.player, len(game.pending.options)
        before = game.clone()
        hidden = []
        for option in range(n):
            game.apply(option)
            hidden.append(sum(map(len, game.hidden(me))))  # cards it has not seen
            view(game, me).world(1, log=False)  # kept for this position...
            game.restore(before)
        differ = [i for i in range(1, n) if hidden[i] != hidden[0]]
        if differ and game.pending.player == me:
            game.apply(0)
            view(game, me).world(1, log=False)
            game.restore(before)
            game.apply(differ[0])  # ...not for this one, with as many decisions
            if game.pending.player == me:
                tried += 1
                for seed in range(3):
                    world = view(game, me).world(seed, log=False)
                    assert view(world, me).as_dict() == view(game, me).as_dict()
            game.restore(before)
        game.apply(rng.randrange(n))
    assert tried == 3, "no position where moves show different cards: the test could not fail"

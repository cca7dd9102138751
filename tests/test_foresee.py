"""A forced chain is shown before it runs (players/foresee.py): the choices with one option
that a person's choice sets off, when one of them takes a card of theirs. Reproduces issue 28's
case (Isle of Trains: Build with nothing to build removed the train's only car, through two
forced choices), and the chains that are not a reason to ask."""
from __future__ import annotations

import random

from engine.game.game import Game
from engine.game.view import view
from engine.players.foresee import forced_chain

from conftest import labels, ruleset


def isle_build_with_nothing_to_build() -> Game:
    """Seed 1 after 9 random decisions: P2's second action, Take or Build, with an empty hand and
    one car, a Hopper-2 Car (the terminal test plays the same position, from a save)."""
    rs = ruleset("isle_of_trains")
    game, rng = Game(rs, 2, rs.resolve_options({"round_limit": "40"}, 2), 1), random.Random(1)
    while len(game.decisions) < 9:
        game.apply(rng.randrange(len(game.legal_actions())))
    return game


def test_build_that_can_only_remove_the_one_car_is_foreseen_and_the_game_is_untouched():
    game = isle_build_with_nothing_to_build()
    pv = view(game, 2, person=True)
    assert pv.decision["options"] == ["Take", "Build"]
    before = (len(game.decisions), len(game.log), len(game.forced), labels(game, game.table.zones["train"][2]))
    chain = forced_chain(pv, 1)
    assert chain is not None and chain.lost == ("Hopper-2 Car (cost 4, oil)",)
    assert chain.choices == (
        "Your only option: remove cars from my train (Build: which card from your hand? (or remove cars))",
        "Your only option: Hopper-2 Car (cost 4, oil) (Remove which car from your train? (its cargo is discarded))")
    assert forced_chain(pv, 0) is None  # Take takes nothing
    assert (len(game.decisions), len(game.log), len(game.forced), labels(game, game.table.zones["train"][2])) == before
    # What the chain foresaw is what the game does.
    game.apply(1)
    assert "P2 removes Hopper-2 Car (cost 4, oil) from their train" in view(game, 2).log()
    assert labels(game, game.table.zones["train"][2]) == ["Level 1 Engine (cost 1, wild)"]


def test_a_chain_where_others_are_forced_too_is_not_a_reason_to_ask():
    """Trick of the Rails: each player holds one card for the last trick, so the choice before
    it sets off every player's forced play, and the person's last card leaves their hand for a
    railway or out of the game. That is the trick being played, not a loss to warn of."""
    rs = ruleset("trick_of_the_rails")
    for seed in range(1, 20):  # a game whose last card of the deciding player leaves them
        game = Game(rs, 3, None, seed)
        while True:
            after = game.clone()
            after.apply(0)
            if after.over:
                break
            game.apply(0)
        player = game.pending.player
        mine = {c["label"] for z in view(after, player).zones() if z["mine"] for c in z["cards"]}
        forced = after.forced[len(game.forced):]
        if any(f.player == player and f.value.label not in mine for f in forced):
            break
    else:
        raise AssertionError("no such game among seeds 1-19")
    assert {f.player for f in forced} == set(game.players)  # everyone's last card is played for them
    assert forced_chain(view(game, player, person=True), 0) is None


def test_a_person_asked_to_choose_is_never_asked_about_a_choice_that_sets_off_nothing():
    game = isle_build_with_nothing_to_build()
    game.apply(0)  # Take: the next player's decision
    pv = view(game, game.pending.player, person=True)
    assert all(forced_chain(pv, i) is None for i in range(pv.option_count) if pv.decision["options"][i] == "Take")

"""What a person's choice makes the rules choose for them next, foreseen before it is taken.

A choice may be followed by choices of the same person that have one option each, which the
rules make without asking (a forced chain: an action whose only way left is to give up a
card, where the person holds one such card). When such a chain takes one of the
person's own cards from them, the terminal shows it and asks before the choice is taken, so
that nothing of theirs goes without their word. The chain is played in a world of their view
(`PlayerView.world`), never in the game: it reads nothing the person may not know. Only a
person's chosen option is foreseen, once, so the bots' rollouts pay nothing for it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.errors import EngineError
from ..game.view import PlayerView, view


@dataclass(frozen=True)
class Chain:
    """The forced choices that would follow an option, told as the person's screen tells them,
    and the person's own cards they would take away."""

    choices: tuple[str, ...]
    lost: tuple[str, ...]


def _own(pv: PlayerView) -> dict[int, str]:
    """The viewer's own cards on the table (in zones of theirs), by id: their labels."""
    return {c["id"]: c["label"] for z in pv.zones() if z["mine"] for c in z["cards"] if "id" in c}


def forced_chain(pv: PlayerView, option: int, worlds: int = 2) -> Chain | None:
    """The chain of forced choices that choosing `option` sets off, if they are all the
    viewer's and one of them is a card of theirs that they then no longer hold (a card chosen
    for them to be removed, discarded or paid); else None. Not a reason to ask: a card given up
    by the choice itself, choices forced on the viewer for other ends (the only place left
    for a card won), and chains where others' choices are forced too (the last trick of a
    hand, which the person does not play alone). The chain must be the same in `worlds`
    worlds: one that hangs on cards the person cannot see is no sure thing to tell."""
    if pv.player is None or not 0 <= option < pv.option_count:
        return None
    chains = {_chain(pv, option, seed) for seed in range(worlds)}
    return chains.pop() if len(chains) == 1 else None


def _chain(pv: PlayerView, option: int, seed: int) -> Chain | None:
    """`forced_chain` in one world of the view."""
    try:
        world = pv.world(seed)
        world.keep_log = True  # forced choices are noted only in a game that keeps its log
        before, start = _own(view(world, pv.player)), len(world.forced)
        world.apply(option)
    except EngineError:  # a rule that fails here fails in the game too, and is told there
        return None
    forced = world.forced[start:]
    if not forced or any(f.player != pv.player for f in forced):
        return None
    after = view(world, pv.player)
    still = _own(after)
    lost = tuple(before[f.value.id] for f in forced
                 if getattr(f.value, "id", None) in before and f.value.id not in still)
    if not lost:
        return None
    return Chain(tuple(text for _, text in after.forced()[-len(forced):]), lost)

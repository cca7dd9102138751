"""Adapters that open any ruleset to the interfaces researchers already use.

`pettingzoo.env(ruleset, players=N)` (pettingzoo.py) is a PettingZoo AEC environment;
`openspiel.register(ruleset)` (openspiel.py) makes a ruleset an OpenSpiel game. Each imports
its library, which is an optional extra (`pip install -e '.[pettingzoo]'`, `'.[openspiel]'`), so
import the one you use by its module.
What they share (the setup, the action bound, rewards) is in `common.py`; the observation
vector, built from a player's view only, in `observation.py`.

May import: core, lang, rules, game, players, analysis.
Must not import: web, cli.
"""

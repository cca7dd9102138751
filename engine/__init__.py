"""A rules engine for tabletop card and board games, driven by YAML rulesets.

The Python API (docs/python-api.md): `load_ruleset`, `Game` (legal_actions, apply, clone,
snapshot, from_snapshot, determinize, state_key, scores, winners) and `view`.
"""

__version__ = "0.1.0"

from .errors import EffectError, EngineError, IllegalMove, RulesetError, SaveError  # noqa: E402
from .game import Game  # noqa: E402
from .ruleset import Ruleset, load_ruleset  # noqa: E402
from .view import PlayerView, view  # noqa: E402

__all__ = ["EffectError", "EngineError", "Game", "IllegalMove", "PlayerView", "Ruleset", "RulesetError",
           "SaveError", "load_ruleset", "view"]

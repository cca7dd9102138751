"""A rules engine for tabletop card and board games, driven by YAML rulesets.

The Python API (docs/python-api.md): `load_ruleset`, `Game` (legal_actions, apply, clone,
snapshot, from_snapshot, determinize, state_key, scores, winners), `view` and, for a
ruleset's tests, `position` (game/position.py: set up a position) and `untold` (game/told.py:
is every change a player sees told to them?).

The engine's layers, one folder each, each importing only those before it (docs/architecture.md):
core, lang, rules, game, players, analysis, adapters; cli.py is the command. A module that sat
at the top of the package before the layers is still found by its old name (`engine.simulate`
is `engine.analysis.simulate`): see `_MOVED`.
"""
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

__version__ = "0.1.0"

from .core.errors import EffectError, EngineError, IllegalMove, RulesetError, SaveError  # noqa: E402
from .game import position  # noqa: E402
from .game.game import Game  # noqa: E402
from .game.told import untold  # noqa: E402
from .game.view import PlayerView, view  # noqa: E402
from .rules.ruleset import Ruleset, load_ruleset  # noqa: E402

__all__ = ["EffectError", "EngineError", "Game", "IllegalMove", "PlayerView", "Ruleset", "RulesetError",
           "SaveError", "load_ruleset", "position", "untold", "view"]

# The modules' names before the layers, and where each went. `engine.game` needs no entry: it
# is the game layer's package, which gives `Game` as the module did.
_MOVED = {
    **{f"engine.{name}": f"engine.core.{name}"
       for name in ("board", "errors", "program", "table", "text", "usercache", "values")},
    "engine.docgen": "engine.lang.docgen",
    **{f"engine.{name}": f"engine.rules.{name}"
       for name in ("cardtables", "filekind", "info", "resources", "ruleset", "schema", "scoring", "yamlload")},
    # Of engine.checks, docs/python-api.md names terminal_problems alone, which is here now.
    "engine.checks": "engine.game.trial",
    **{f"engine.{name}": f"engine.game.{name}" for name in ("saves", "seeds", "view")},
    **{f"engine.{name}": f"engine.players.{name}" for name in ("agents", "screen", "search", "terminal", "undo")},
    # engine.analysis.simulate also gives what went to analysis/run.py and players/loop.py.
    **{f"engine.{name}": f"engine.analysis.{name}"
       for name in ("experiments", "progress", "report", "report_html", "runfile", "simulate", "stats", "workers")},
}


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a module by its name of before the layers: the very module, under both names,
    so code, saves and `module:CLASS` seats written against the old names keep working."""

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec] = {}

    def find_spec(self, name: str, path: object = None, target: object = None) -> importlib.machinery.ModuleSpec | None:
        return importlib.util.spec_from_loader(name, self) if name in _MOVED else None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(_MOVED[spec.name])
        self._specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system gave the module the old name's spec; its own is what reload and pickle read.
        module.__spec__ = self._specs.pop(module.__spec__.name)

    def get_code(self, name: str) -> object:
        """`python -m` with an old name: one line saying the new one (runpy prints it)."""
        raise ImportError(f"{name} is {_MOVED[name]} now: python -m {_MOVED[name]}")


# The old names of the modules loaded above are bound at once: importing the module by such a
# name later would otherwise set it as an attribute of this package, `engine.view` among them.
sys.modules.update({old: sys.modules[new] for old, new in _MOVED.items() if new in sys.modules})
if not any(isinstance(finder, _OldNames) for finder in sys.meta_path):
    sys.meta_path.append(_OldNames())

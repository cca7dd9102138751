"""The engine's layers (docs/architecture.md): one folder each, each importing only the layers
before it, and no module importing one that imports it back. Read from the source with `ast`,
every import counted, those inside functions too, so the layering cannot rot unseen."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parent.parent / "engine"
# In order: a layer may import the layers before it, never one after it.
LAYERS = ["core", "lang", "rules", "game", "players", "analysis", "adapters", "web", "cli"]
TOP = {"__init__.py", "__main__.py", "cli.py"}  # beside the layers' folders
# `import engine` is the public API (Game, view, load_ruleset): it stays as light as the game layer.
ROOT_MAY_IMPORT = LAYERS[:LAYERS.index("game") + 1]


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ENGINE.rglob("*.py"))}


def layer(module: str) -> str | None:
    """The layer of an engine module; None for the package itself (`engine`)."""
    parts = module.split(".")
    if len(parts) == 1:
        return None
    return "cli" if parts[1] in ("cli", "__main__") else parts[1]


def imports(module: str) -> list[tuple[str, list[str], int]]:
    """The engine modules `module` imports (with the names taken from each, and the line)."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, [], node.lineno) for a in node.names if a.name.split(".")[0] == "engine"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "engine":
                continue
            names = [a.name for a in node.names]
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
            found += [(m, [], node.lineno) for m in submodules]
            if len(submodules) < len(names):
                found.append((target, [n for n in names if f"{target}.{n}" not in MODULES], node.lineno))
    return found


def test_every_module_is_in_a_layer():
    strays = sorted(p.name for p in ENGINE.iterdir()
                    if p.name not in TOP and p.name != "__pycache__" and p.name not in LAYERS)
    assert not strays, (f"{strays} at the top of engine/: put each in the layer it belongs to "
                        f"({', '.join(LAYERS[:-1])}; docs/architecture.md)")
    for name in LAYERS[:-1]:
        assert (ENGINE / name / "__init__.py").is_file(), f"engine/{name}/ is no package"


def test_imports_point_to_earlier_layers_only():
    wrong = []
    for module in MODULES:
        here = layer(module)
        for target, names, line in imports(module):
            there = layer(target)
            if there is None:  # the package itself: its version only, it imports the layers
                if here is not None and here != "cli" and names != ["__version__"]:
                    wrong.append(f"{MODULES[module].relative_to(ENGINE.parent)}:{line}: imports {names} from "
                                 "engine itself; import them from their layer")
            elif here is None:
                if there not in ROOT_MAY_IMPORT:
                    wrong.append(f"engine/__init__.py:{line}: imports {target}: `import engine` would load "
                                 f"the {there} layer")
            elif LAYERS.index(there) > LAYERS.index(here):
                wrong.append(f"{MODULES[module].relative_to(ENGINE.parent)}:{line}: the {here} layer imports "
                             f"{target}, of the later {there} layer")
    assert not wrong, "\n".join(wrong)


def test_no_module_imports_one_that_imports_it_back():
    graph = {m: {t for t, _, _ in imports(m) if t in MODULES and t != m} for m in MODULES}
    # A package's __init__ runs before its modules: an edge into it is no cycle of theirs.
    graph = {m: {t for t in targets if not (MODULES[t].name == "__init__.py" and m.startswith(t + "."))}
             for m, targets in graph.items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state and (cycle := visit(t)):
                return cycle
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (cycle := visit(m)):
            pytest.fail("an import cycle: " + " -> ".join(cycle))


@pytest.mark.parametrize("name", LAYERS[:-1])
def test_each_layer_says_what_it_owns_and_may_import(name):
    doc = ast.get_docstring(ast.parse((ENGINE / name / "__init__.py").read_text(encoding="utf-8"))) or ""
    assert len(doc.split("\n\n")[0]) > 20, f"engine/{name}/__init__.py: say what the layer owns"
    for module in sorted(p.stem for p in (ENGINE / name).glob("*.py") if p.name != "__init__.py"):
        assert f"{module}.py" in doc, f"engine/{name}/__init__.py does not say what {module}.py holds"
    index = LAYERS.index(name)
    may = re.search(r"^May import: (.*)\.$", doc, re.M)
    must_not = re.search(r"^Must not import: (.*)\.$", doc, re.M)
    assert may and must_not, f"engine/{name}/__init__.py: give 'May import: ...' and 'Must not import: ...'"
    assert may.group(1) == (", ".join(LAYERS[:index]) or "nothing of the engine")
    assert must_not.group(1) == ", ".join(LAYERS[index + 1:])


def test_the_reader_sees_every_kind_of_import():
    """Else the tests above would pass on a tree they cannot see."""
    assert {"engine.analysis.run", "engine.players.loop"} <= {t for t, _, _ in imports("engine.analysis.simulate")}
    assert "engine.players.search" in {t for t, _, _ in imports("engine.players.agents")}  # inside a function
    assert ("engine", ["__version__"]) in [(t, n) for t, n, _ in imports("engine.game.saves")]
    assert "engine.rules.scoring" in {t for t, _, _ in imports("engine.game.game")}  # `from ..rules import scoring`
    assert layer("engine.cli") == layer("engine.__main__") == "cli" and layer("engine") is None

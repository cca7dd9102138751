"""The language reference is generated from the built-in registry and must match it; the
pages' Python examples run and use only what the pages document."""
import ast
import re
import subprocess
import sys
from pathlib import Path

from engine.core.board import Place
from engine.lang.builtins import REGISTRY
from engine.lang.docgen import DOC_PATH, generate


def test_effect_language_reference_is_up_to_date():
    assert DOC_PATH.read_text(encoding="utf-8") == generate(), \
        "docs/effect-language.md is stale: run `python -m engine.lang.docgen`"


def test_every_builtin_is_documented_with_a_sentence():
    text = generate()
    for name, b in REGISTRY.items():
        assert f"### `{b.signature}`" in text
        assert b.doc, f"built-in {name} has no docstring"


# ---------------------------------------------------------------- the custom-events page's Python

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def python_blocks(page: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", (DOCS / page).read_text(encoding="utf-8"), re.S | re.M)


def calls(source: str, names: set[str]) -> list[ast.Call]:
    """The calls of `names` (by their plain name) in a piece of Python."""
    return [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name) and n.func.id in names]


def test_the_custom_events_python_example_runs_as_shown(tmp_path):
    blocks = python_blocks("custom-events.md")
    assert blocks
    script = tmp_path / "custom_events.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr


def test_the_custom_events_python_example_uses_only_what_the_python_api_page_documents():
    """Its imports are names python-api.md imports, and each call of them passes no more
    arguments by position, and no keyword, than python-api.md's own examples pass."""
    example = "\n".join(python_blocks("custom-events.md"))
    api = "\n".join(python_blocks("python-api.md"))
    imported = {a.name for n in ast.walk(ast.parse(example)) if isinstance(n, ast.ImportFrom) for a in n.names}
    documented = {a.name for n in ast.walk(ast.parse(api)) if isinstance(n, ast.ImportFrom) and n.module == "engine"
                  for a in n.names}
    assert imported and imported <= documented, imported - documented
    for call in calls(example, imported):
        shown = calls(api, {call.func.id})
        assert shown, f"python-api.md never calls {call.func.id}"
        assert len(call.args) <= max(len(c.args) for c in shown), \
            f"{ast.unparse(call)}: python-api.md passes fewer arguments by position"
        keywords = {k.arg for c in shown for k in c.keywords}
        assert {k.arg for k in call.keywords} <= keywords, f"{ast.unparse(call)}: a keyword python-api.md lacks"


def test_the_reference_lists_every_attribute_of_a_board_place():
    """A test reads a place's printed properties as `place.props` (issue 29): the reference's
    table of a place's attributes names each attribute of a Place, and only those."""
    text = (DOCS / "reference.md").read_text(encoding="utf-8")
    table = text.split("A place\nhas these attributes")[1].split("\n\n")[1]
    named = set(re.findall(r"^\| `place\.(\w+)`(?:, `place\.(\w+)`)?", table, re.M))
    attributes = {a for pair in named for a in pair if a}
    assert attributes == set(Place.__slots__)

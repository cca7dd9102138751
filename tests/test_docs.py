"""The language reference is generated from the built-in registry and must match it."""
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

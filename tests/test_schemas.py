"""The JSON Schemas in schemas/ as editors read them: standard Draft 2020-12, every key
described, examples that are valid, and the extension schema taking its cards from the ruleset
schema by a `$ref` that resolves both by file name and by the engine's registry."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from referencing import Registry, Resource

from engine.cli import main
from engine.rules import schema
from engine.rules.schema import EXTENSION, RULESET, SCHEMAS

ROOT = Path(__file__).resolve().parent.parent


def read(name: str) -> dict:
    return json.loads((ROOT / "schemas" / name).read_text(encoding="utf-8"))


def nodes(node: Any, pointer: str = "") -> Iterator[tuple[str, dict]]:
    """Every schema nested in `node`, with its JSON pointer: through properties, items,
    additionalProperties, propertyNames and $defs."""
    if not isinstance(node, dict):
        return
    yield pointer, node
    for key in ("properties", "$defs"):
        for name, sub in node.get(key, {}).items():
            yield from nodes(sub, f"{pointer}/{key}/{name}")
    for key in ("items", "additionalProperties", "propertyNames"):
        yield from nodes(node.get(key), f"{pointer}/{key}")


def properties(name: str) -> Iterator[tuple[str, dict]]:
    """Every property (key) of a schema, with its pointer."""
    for pointer, node in nodes(read(name)):
        for key, sub in node.get("properties", {}).items():
            yield f"{pointer}/properties/{key}", sub


def from_files() -> Registry:
    """A registry that finds a schema by its file name next to the others, as an editor
    resolves a relative `$ref` by the path of the schema it reads."""
    return Registry(retrieve=lambda uri: Resource.from_contents(read(uri)))


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_key_has_a_description(name):
    keys = dict(properties(name))
    assert len(keys) >= (80 if name == RULESET else 3)
    undescribed = [pointer for pointer, sub in keys.items()
                   if not (isinstance(sub.get("description"), str) and sub["description"].strip())]
    assert undescribed == [], f"keys of {name} without a description: {undescribed}"


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_example_is_valid_where_it_is_given(name):
    checked = 0
    for pointer, node in nodes(read(name)):
        validator = jsonschema.Draft202012Validator({"$ref": f"{name}#{pointer}"}, registry=from_files())
        for example in node.get("examples", []):
            assert list(validator.iter_errors(example)) == [], f"{name}#{pointer}: {example!r}"
            checked += 1
    assert checked >= (40 if name == RULESET else 2)


@pytest.mark.parametrize("name", SCHEMAS)
def test_each_schema_is_standard_and_named_by_its_file(name):
    data = read(name)
    jsonschema.Draft202012Validator.check_schema(data)
    assert data["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert data["$id"] == name  # relative: it resolves to wherever the file is
    keywords = set(jsonschema.Draft202012Validator.META_SCHEMA["properties"]) | set(
        jsonschema.Draft202012Validator.VALIDATORS) | {"$schema", "$id", "$defs", "title", "description",
                                                       "examples", "default",
                                                       "then", "else"}  # standard: the `if` validator reads them
    for pointer, node in nodes(data):
        unknown = set(node) - keywords
        assert not unknown, f"{name}#{pointer} has keys no JSON Schema tool knows: {sorted(unknown)}"


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_ref_resolves_by_file_name(name):
    refs = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            refs.extend([node["$ref"]] if "$ref" in node else [])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(read(name))
    resolver = from_files().resolver(base_uri=name)
    assert refs
    for ref in refs:
        assert isinstance(resolver.lookup(ref).contents, dict), ref
    if name == EXTENSION:
        assert "ruleset.schema.json#/$defs/card" in refs


GOOD_EXTENSION = {"description": "Mine.", "remove_cards": ["Storm"],
                  "cards": [{"kind": "event", "name": "Windfall", "value": 10,
                             "triggers": [{"on": "revealed", "params": ["c"], "do": "points[2] += 3"}]}]}


@pytest.mark.parametrize("card, complaint", [
    ({"kind": "event", "count": 0}, "minimum"),
    ({"name": "No kind"}, "'kind' is a required property"),
    ({"kind": "event", "triggers": [{"on": "revealed", "dooo": "x = 1"}]}, "'do' is a required property"),
    ({"kind": "event", "modifiers": [{"modify": "worth", "value": 1, "vale": 3}]}, "'vale' was unexpected"),
    ({"kind": "3bad"}, "does not match"),
])
def test_an_editor_checks_the_cards_of_an_extension(card, complaint):
    """What yaml-language-server does with the extension schema: plain JSON Schema, the card
    taken from the ruleset schema by file name, with no help from the engine."""
    validator = jsonschema.Draft202012Validator(read(EXTENSION), registry=from_files())
    assert list(validator.iter_errors(GOOD_EXTENSION)) == []
    errors = list(validator.iter_errors({"cards": [card]}))
    assert errors and any(complaint in e.message for e in errors), [e.message for e in errors]
    assert all(list(e.absolute_path)[:2] == ["cards", 0] for e in errors)


def test_a_change_in_either_schema_is_a_new_digest_for_both(tmp_path, monkeypatch):
    """Data that passed a schema is remembered by a digest of the schemas: changing the ruleset
    schema, which the extension schema refers to, must check extension files again too."""
    data = b"cards: [{kind: event}]\n"
    before = {name: schema._digest(data, name) for name in SCHEMAS}
    for name in SCHEMAS:
        (tmp_path / name).write_text((ROOT / "schemas" / name).read_text(encoding="utf-8"), encoding="utf-8")
    changed = read(RULESET)
    changed["$defs"]["written_card"]["properties"]["count"]["maximum"] = 10
    (tmp_path / RULESET).write_text(json.dumps(changed), encoding="utf-8")
    monkeypatch.setattr(schema, "SCHEMA_DIR", tmp_path)
    schema.load_schema.cache_clear()
    schema._schema_digest.cache_clear()
    try:
        after = {name: schema._digest(data, name) for name in SCHEMAS}
    finally:
        schema.load_schema.cache_clear()
        schema._schema_digest.cache_clear()
    assert all(after[name] != before[name] for name in SCHEMAS)


SHIPPED = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples").rglob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_file_names_its_schema_for_editors(path):
    """The first line tells yaml-language-server which schema checks the file, by a path
    relative to the file: the extension schema for an extension file (one without game:)."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    prefix = "# yaml-language-server: $schema="
    assert first.startswith(prefix)
    expected = RULESET if "game" in yaml.safe_load(path.read_text(encoding="utf-8")) else EXTENSION
    assert (path.parent / first[len(prefix):]).resolve() == (ROOT / "schemas" / expected).resolve()


# ---------------------------------------------------------------- engine schema

def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["schema", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_schema_prints_the_path_of_each_schema(capsys):
    code, out, _ = run(capsys)
    assert code == 0 and Path(out.strip()) == (ROOT / "schemas" / RULESET).resolve()
    code, out, _ = run(capsys, "--extension")
    assert code == 0 and Path(out.strip()) == (ROOT / "schemas" / EXTENSION).resolve()


def test_the_schemas_are_found_through_schema_dir_alone(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(schema, "SCHEMA_DIR", tmp_path)
    assert schema.schema_path(EXTENSION) == tmp_path / EXTENSION
    assert run(capsys, "--extension")[1] == f"{tmp_path / EXTENSION}\n"


def test_schema_write_copies_both_side_by_side(capsys, tmp_path):
    target = tmp_path / "project" / ".vscode" / "schemas"
    code, out, _ = run(capsys, "--write", str(target))
    assert code == 0
    assert out.splitlines() == [str(target / name) for name in SCHEMAS]
    for name in SCHEMAS:
        assert (target / name).read_bytes() == (ROOT / "schemas" / name).read_bytes()
    copied = Registry(retrieve=lambda uri: Resource.from_contents(json.loads((target / uri).read_text())))
    validator = jsonschema.Draft202012Validator(json.loads((target / EXTENSION).read_text()), registry=copied)
    assert [e.message for e in validator.iter_errors({"cards": [{"count": 2}]})] == [
        "'kind' is a required property"]
    assert run(capsys, "--write", str(target))[0] == 0  # again: the copies are replaced


def test_schema_write_where_it_cannot_is_one_line(capsys, tmp_path):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    code, out, err = run(capsys, "--write", str(a_file))
    assert (code, out) == (1, "")
    assert err == f"engine: cannot write the schemas into {a_file}: it is a file, not a directory\n"
    assert a_file.read_text() == "mine"
    code, _, err = run(capsys, "--write", str(a_file / "inside"))
    assert code == 1 and err.startswith(f"engine: cannot write the schemas into {a_file / 'inside'}: ")
    assert len(err.splitlines()) == 1


def test_schema_takes_one_of_extension_and_write(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit:
        main(["schema", "--extension", "--write", str(tmp_path)])
    assert exit.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_schema_help_tells_how_an_editor_uses_it(capsys):
    with pytest.raises(SystemExit):
        main(["schema", "--help"])
    out = capsys.readouterr().out
    for words in ("yaml-language-server", "# yaml-language-server: $schema=../schemas/ruleset.schema.json",
                  "yaml.schemas", "--extension", "--write DIR"):
        assert words in out

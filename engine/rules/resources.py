"""Where the files shipped with the engine are: its JSON Schemas, rulesets and examples.

In the source tree they are the top-level folders schemas/, rulesets/ and examples/;
pyproject.toml maps them into the package as engine.schemas, engine.rulesets and
engine.examples (each has an __init__.py, which editable installs need to find it), so they
are found as the package's resources, installed from a wheel or editable, from any working
directory; a wheel installs them as plain files, so each is a file-system path. A shipped
ruleset is known by a name, the stem of its file (`engine play NAME`), and so is a shipped
extension file, an example of `--with` at the top of examples/ (`--with NAME`).
"""
from __future__ import annotations

import os
import re
from importlib.resources import files
from pathlib import Path

RULESETS = "engine.rulesets"
EXTENSIONS = "engine.examples"
NAME = re.compile(r"[A-Za-z0-9_-]+")  # what names a shipped file: no folder, no suffix


# Each package of shipped files and its folder in the source tree (pyproject.toml's package-dir).
_SOURCE = {"engine.schemas": "schemas", "engine.rulesets": "rulesets", "engine.examples": "examples"}


def folder(package: str) -> Path:
    """The folder of one of the packages of shipped files, e.g. folder(RULESETS). Run from the
    source folder after a plain (not editable) install, `engine` is the source tree's, which has
    no such packages: its top-level folders are read instead."""
    try:
        return Path(str(files(package)))
    except ModuleNotFoundError:
        source = Path(__file__).resolve().parents[2] / _SOURCE[package]
        if not source.is_dir():
            raise
        return source


SCHEMAS = folder("engine.schemas")


def shipped(package: str = RULESETS) -> dict[str, Path]:
    """The shipped YAML files of `package` (RULESETS or EXTENSIONS) by name, in name order."""
    return {f.stem: f for f in sorted(folder(package).glob("*.yaml"))}


def examples() -> dict[str, Path]:
    """The example rulesets, by name: the YAML files in the folders of the examples package
    (examples/FOLDER/NAME.yaml, NAME being the name), in name order. They
    are played by name as the shipped rulesets are (a shipped ruleset's name wins)."""
    return {f.stem: f for f in sorted(folder(EXTENSIONS).glob("*/*.yaml"), key=lambda f: f.stem)}


def is_name(text: str) -> bool:
    """Whether `text` may name a shipped file: no folder, no suffix."""
    return NAME.fullmatch(text) is not None


def locate(given: str, package: str = RULESETS) -> str | None:
    """The file to read for `given`: itself when it is a file (a path wins), else the shipped
    file of that name in `package`; `given` itself when it is a path (or a folder), for the
    reader to say why it cannot be read; None for a name of nothing."""
    if os.path.isfile(given):
        return given
    if not is_name(given):
        return _shipped_path(given) or given
    named = shipped(package).get(given) or (examples().get(given) if package == RULESETS else None)
    if named is not None:
        return str(named)
    return given if os.path.exists(given) else None


def _shipped_path(given: str) -> str | None:
    """The shipped file at `given`, a path relative to the source tree that names no file here
    (`examples/FOLDER/NAME.yaml`, as the docs write it, run outside a checkout)."""
    parts = Path(given).parts
    package = next((p for p, top in _SOURCE.items() if parts and top == parts[0]), None)
    if package is None or Path(given).is_absolute() or ".." in parts:
        return None
    shipped_file = folder(package).joinpath(*parts[1:])
    return str(shipped_file) if shipped_file.is_file() else None

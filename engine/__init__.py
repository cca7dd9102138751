"""A rules engine for tabletop card and board games, driven by YAML rulesets."""

__version__ = "0.1.0"

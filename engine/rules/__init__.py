"""Loading a ruleset: from YAML files to a checked, compiled `Ruleset` that plays many games.

- ruleset.py: `load_ruleset`, which runs every phase and reports every problem of every file
  at once;
- yamlload.py: safe YAML that remembers where each value came from;
- yamlwords.py: YAML syntax errors in words for a person, with the line and a caret;
- schema.py: the JSON Schemas of schemas/, with located, readable errors;
- cardtables.py: card entries written as tables;
- checks.py: the checks a schema cannot express;
- shadowing.py: the ruleset's names that hide a built-in, noted by `validate --strict`;
- migrations.py: old forms a change of the format refuses, rewritten by `validate --fix`;
- typecheck.py: the type check of a ruleset's rules, given where each is and what it starts with;
- filekind.py: telling a file that is no ruleset from a broken one;
- scoring.py: a ruleset's score by named parts, and a finished game's results;
- resources.py: where the shipped schemas, rulesets and examples are;
- info.py: what `engine info` tells of a ruleset;
- layout.py: how a page lays out the table (`layout:`, boards' `key:`, `game: seat_colours`).
- faces.py: how a card looks: the kinds' `face:` checked, and a card as a view gives it described;
- icons.py: the icons a face may show, built in or read safely from SVG files;
- cardsvg.py: a face description as SVG, for `engine print`;
- sheets.py: card sheets to print, a PDF by fpdf2 (the print extra), imported only by `engine print`.

A ruleset is data and compiled functions; what runs them on a table is the game layer.

May import: core, lang.
Must not import: game, players, analysis, adapters, web, cli.
"""

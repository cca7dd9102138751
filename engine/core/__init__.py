"""The core every other layer builds on: what a game is made of, and the errors users are shown.

- errors.py: the errors a user can cause, each with a place in a file (`FILE:LINE:COL`), and
  the "did you mean" of near-miss names;
- table.py: cards and zones (identities made once per ruleset) and the `Table` of one game
  (where each card is, face down or up, who remembers it, the counters);
- board.py: boards, their places and the path queries games ask of them;
- values.py: the values a game holds, and how they are copied, relabelled and saved;
- text.py: text that names cards, so each reader is told only the names they may see;
- program.py: the resumable program (instructions and frames as plain data);
- limits.py: how much work a game may do between decisions and how large its values may be;
- usercache.py: the engine's cache directory, for work kept between runs;
- jsonfiles.py: JSON files that may come from anyone, read within a size and a depth.

Nothing here knows the effect language, a ruleset file or a running game: these are the
things the layers above compute with.

May import: nothing of the engine.
Must not import: lang, rules, game, players, analysis, adapters, web, cli.
"""

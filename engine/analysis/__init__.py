"""Many games: simulation runs, where they are played, run files, reports and experiments.

- run.py: what a run's games depend on (`RunSpec`), each game's seed, one game's record;
- simulate.py: `simulate`, a run played and totalled;
- workers.py: where games are played: this process, a pool of processes, Ray;
- runfile.py: the run file of `--out`, kept as games end, and going on from it;
- progress.py: progress on a terminal;
- stats.py: Wilson intervals, summaries, paired differences;
- report.py and report_html.py: balance reports, as data and text, and as an HTML page;
- quality.py: game quality (lead changes, drama, uncertainty...) from each game's standings;
- experiments.py: `compare` (two variants on the same seeds) and `ladder` (agents in pairs);
- cards.py and cards_report.py: `engine cards`, what each card is worth (use, restricted
  play, events taken out), and its text, CSV and HTML;
- bring.py: a card nobody chooses brought into play: the game with it goes on from the game
  without it, arranged so that the card comes up;
- sequential.py: always-valid intervals (a confidence sequence) and the rounds of `--budget`
  and `--precision`;
- curve.py: a cost curve, the cards' strength fitted to a property of theirs (`--curve`).

May import: core, lang, rules, game, players.
Must not import: adapters, web, cli.
"""

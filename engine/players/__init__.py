"""Who decides: agents, the bots that search, and a person at the terminal.

- agents.py: the agent interface (`choose(view) -> int`), the seats of the command line
  (random, greedy, mcts, scout, a class from a file), and a person deciding at the terminal;
- search.py: the greedy and mcts bots, which look ahead only in worlds their view gives;
- scout.py: the scout bot, fast enough for balance runs: it plans its run of decisions across
  worlds its view gives and follows the plan;
- worlds.py: the worlds a bot thinks in during a decision; one whose rules fail is dropped for
  another and counted (the run says how many), so the real game never fails for it;
- isolation.py: seats whose agent plays in a process of its own, for agents you do not trust;
- loop.py: `play`, one game driven to its end, each decision asked of its seat's agent;
- screen.py and terminal.py: a person's screen, laid out from their view, and the terminal
  it is drawn on;
- budget.py: the time budget of a bot's decision where a person waits (engine play, serve),
  while simulations keep fixed budgets;
- thinking.py: the line that shows, at the terminal, that the bots are deciding;
- undo.py: taking a decision back without learning anything by it;
- foresee.py: the forced choices a person's choice would set off that take a card of theirs,
  foreseen in a world of their view so that the terminal asks first.

Every agent sees a game only through `game.view`: nothing here reads a `Game` for a player.

May import: core, lang, rules, game.
Must not import: analysis, adapters, web, cli.
"""

"""The table in a browser: `engine serve`, a local web app where people play against bots.

- tables.py: the games in play, each seat's token, the bots playing between people's turns,
  and what a seat is sent (its view, and nothing that goes around it);
- replays.py: games watched again, a save or a run file's game stepped through decision by
  decision as any seat or the referee (`engine replay --web`, POST /api/replays);
- guard.py: what every request passes first: this machine's names only, no change from another
  site's page, JSON bodies only, every refusal and failure one line of JSON;
- app.py: the JSON API and the page (static/: plain HTML, JavaScript and CSS, no build step),
  served on 127.0.0.1.

app.py needs the `web` extra (Starlette, uvicorn); nothing of the engine imports this package
but the command, and only when `engine serve` runs, so `import engine` stays as light as it was.

May import: core, lang, rules, game, players, analysis, adapters.
Must not import: cli.
"""

"""The `engine` command: validate, info, play, simulate, compare, ladder, cards, replay, report, schema,
serve, print.

Every user mistake ends in a one-line message and exit status 1 (2 for bad command-line
usage); no traceback reaches the user.
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import signal
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, TextIO

from . import __version__
from .analysis.cards import cards
from .analysis.experiments import Variant, compare, ladder, render_compare, render_ladder
from .analysis.report import build_report, read_jsonl, render_text
from .analysis.report_html import require_matplotlib, write_html
from .analysis.run import MAX_DECISIONS, RunSpec
from .analysis.runfile import header, read_run, replay_record
from .analysis.simulate import Interrupted, simulate, stderr_if_tty
from .core.errors import EffectError, EngineError, RulesetError, SaveError, suggest
from .core.text import finite
from .game.game import Game
from .game.saves import (check_save_path, not_reproduced, old_format_warnings, replay, result_difference, resume,
                         state_difference, write_save)
from .game.seeds import bots_seed, secret_seed, seed_argument
from .game.trial import alike_notes, terminal_problems
from .game.view import render, view
from .players.agents import (SEATS_HELP, HotSeat, HumanAgent, QuitGame, built_in, make_agent, make_agents, parse_seat,
                             replay_seat)
from .players.isolation import Isolation
from .players import worlds
from .players.loop import play
from .players.budget import MOST_THINK, THINK, timed_defaults
from .players.thinking import BotClock, Thinking
from .players.screen import Line
from .players.undo import UndoHistory
from .rules import resources, sheets
from .rules.info import facts, render_info
from .rules.migrations import MIGRATIONS, fix
from .rules.ruleset import Ruleset, load_ruleset
from .rules.schema import EXTENSION, RULESET, schema_path, write_schemas
from .rules.scoring import results_lines

EXAMPLES = """examples (GAME: a shipped ruleset's name, below, or a ruleset file such as my_game.yaml):
  engine validate my_game.yaml
  engine info GAME
  engine play GAME --players 4 --seats human,mcts,mcts,greedy
  engine play GAME --players 4 --option teams=true --save game.json
  engine play --resume game.json
  engine simulate GAME --players 4 --games 1000 --seed 1 --json
  engine simulate GAME --players 4 --with my_cards.yaml
  engine simulate GAME --players 3 --seats mcts:iterations=100,random,random
  engine simulate GAME --players 4 --games 100000 --out runs.jsonl --csv > games.csv
  engine compare GAME --players 4 --games 1000 --with my_cards.yaml --against
  engine ladder GAME --players 4 --agents random,greedy,mcts:iterations=100 --games 50
  engine cards GAME --players 4 --games 200 --card "A CARD" --card "A KIND"
  engine replay game.json
  engine report runs.jsonl --html report.html
  engine schema --write .vscode/schemas
  engine serve
  engine print GAME --backs --out cards.pdf
"""

RULESET_HELP = "a ruleset file, or the name of a shipped ruleset (engine --help lists them)"


def shipped_help() -> str:
    """The names of the shipped rulesets and extension files, for the help."""
    return (f"shipped rulesets: {', '.join(resources.shipped(resources.RULESETS))}\n"
            f"example rulesets: {', '.join(resources.examples())}\n"
            f"shipped extension files (for --with): {', '.join(resources.shipped(resources.EXTENSIONS))}\n")


def _wrap(text: str) -> str:
    """A description for a parser that keeps its epilog's lines as written."""
    return textwrap.fill(text, 79)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="engine", description="Play, check and simulate tabletop games "
                                "described in YAML rulesets.", epilog=EXAMPLES + "\n" + shipped_help(),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"engine {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", help="check rulesets and report every problem",
                       description="Check rulesets against the schema, the effect language, the "
                       "engine's name checks and the types of the rules (text where a number belongs, a "
                       "property no card of a kind has...). Prints FILE:LINE:COL: error: MESSAGE for every "
                       "problem of every file, not only the first, and FILE: ok (...) for a file without "
                       "any; exits 1 if any, 0 if none.")
    v.add_argument("paths", nargs="+", metavar="PATH", help="ruleset files, or names of shipped rulesets")
    v.add_argument("--with", dest="extensions", action="append", default=[], metavar="FILE",
                   help="check each ruleset together with this file of your own cards (or a shipped "
                   "one's name); repeatable")
    v.add_argument("--fix", action="store_true",
                   help="rewrite in the files the old forms a change of the format no longer reads "
                   "(each error that says --fix does it), then check again")
    v.add_argument("--strict", action="store_true",
                   help="also print notes: names of yours that hide a built-in of the same name")

    i = sub.add_parser("info", help="what a ruleset offers: players, options, cards, boards, constants",
                       description=_wrap("Print what a player or designer needs to know before playing a "
                       "ruleset: its players; the comments at the top of its file (in full when short); every option with its default, the values it takes, the player "
                       "counts it is for and what it does; the cards by kind; its boards; the search bots' "
                       "settings; and its constants, the values its rules read. A ruleset with errors gets "
                       "the same located errors as engine validate, and exit status 1."),
                       epilog="examples:\n  engine info GAME\n"
                       "  engine info rulesets/my_game.yaml --with my_cards.yaml --json\n\n" + shipped_help(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    i.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
    i.add_argument("--with", dest="extensions", action="append", default=[], metavar="FILE",
                   help="count the cards with this file of your own cards (or a shipped one's name) added "
                   "(or removed); repeatable")
    i.add_argument("--json", action="store_true", help="print the same facts as one JSON object")

    def game_args(sp: argparse.ArgumentParser, resumable: bool = False,
                  default_seed: str = "a new secret one, shown with the results") -> None:
        if resumable:
            sp.add_argument("ruleset", metavar="RULESET", nargs="?",
                            help=f"{RULESET_HELP} (with --resume: instead of the one named in the save)")
        else:
            sp.add_argument("ruleset", metavar="RULESET", help=RULESET_HELP)
        sp.add_argument("--players", "-n", type=int, help="number of players (default: the smallest supported)")
        sp.add_argument("--seed", type=seed_argument, default=None, help="the seed of all randomness, a whole "
                        f"number from 0 to 2^64-1 (default: {default_seed})")
        sp.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE",
                        help="set a ruleset option (variant); repeatable")
        sp.add_argument("--with", dest="extensions", action="append", default=[], metavar="FILE",
                        help="add (or remove) cards with a file of your own (or a shipped one's name); "
                        "repeatable")

    def think_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--think", type=float, default=THINK, metavar="SECONDS",
                        help=f"the most time an mcts bot takes over a decision, taking its best move so far "
                        f"(default: {THINK:g}; 0: its fixed budget, as engine simulate gives it, which plays "
                        "the same on any machine)")

    def run_args(sp: argparse.ArgumentParser, games: int, games_help: str,
                 jobs_help: str = "play on N processes (default: one a core)") -> None:
        """What the commands that play many bot games share: how many, how long, on how many processes."""
        sp.add_argument("--games", "-g", type=at_most(MOST_GAMES), default=games,
                        help=f"{games_help} (default: {games})")
        sp.add_argument("--max-decisions", type=at_most(MOST_DECISIONS), default=MAX_DECISIONS, metavar="N",
                        help=f"stop a game after N decisions, score it as it stands and count it as ended by "
                        f"'decision cap': for rules that random players may never finish (default: {MAX_DECISIONS})")
        sp.add_argument("--jobs", "-j", type=at_most(MOST_JOBS), default=None, metavar="N", help=jobs_help)
        sp.add_argument("--isolate", choices=("files", "all", "none"), default="files",
                        help="which bots play in a process of their own, where they can reach nothing of the "
                        "game but their view: those of FILE.py or MODULE seats (files, the default), all, or "
                        "none (agents you trust, a little faster); see docs/python-api.md")
        sp.add_argument("--time-limit", type=float, default=60.0, metavar="SECONDS",
                        help="an isolated bot that takes longer over a decision gets a random option instead, "
                        "and the run says so (default: 60)")

    def until_known(sp: argparse.ArgumentParser, what: str) -> None:
        """A run that stops when it knows (analysis/sequential.py): cards and compare."""
        sp.add_argument("--budget", metavar="DURATION", help=f"play in rounds, on every core, until {what} is "
                        "detectable or bounded within --precision, or DURATION (4m, 90s, 1h30m) is spent; "
                        "--games is then not used, and the intervals are always valid (a confidence sequence)")
        sp.add_argument("--precision", type=float, metavar="X", help=f"with or without --budget: stop once {what} "
                        "is detectable or its interval's half width is at most X (in its own unit: points, or "
                        "a win share as a fraction)")

    pl = sub.add_parser("play", help="play a game at the terminal",
                        description=_wrap("Play one game. By default you take seat 1 and mcts bots (Monte Carlo "
                        "tree search) the others; --seats human,random,greedy gives you easier ones. Each decision "
                        "is one screen: the table as far as it fits, what happened since your last decision, your "
                        "hand and position, the options. At a prompt, type an option's number, or ? for the "
                        "commands: i N shows what a card says, log the whole log, t the table, u takes back your "
                        "last decision, s FILE saves, q stops (you are offered to save). Several human seats "
                        "share the terminal: between two people's turns the screen is cleared and the keyboard "
                        "handed over."), epilog=SEATS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    game_args(pl, resumable=True, default_seed="a secret one, shown when the game ends")
    pl.add_argument("--seats", help="comma-separated seats, one per player: human, random, greedy, mcts or "
                    "MODULE:CLASS, with parameters as mcts:iterations=400 (default: human,mcts,..., "
                    "or with --resume the seats of the save, of built-in kinds only: a save runs no code)")
    pl.add_argument("--save", metavar="FILE", help="write the game (its state, seed and decisions) to FILE "
                    "when it ends, stops or a rule fails (FILE is checked before the game starts); the save "
                    "of an unfinished game tells every hidden card")
    pl.add_argument("--resume", metavar="FILE", help="go on with a game saved by --save, replayed from its "
                    "seed and decisions (players, seed and options come from the save)")
    pl.add_argument("--plain", action="store_true", help="no colour on the terminal (output that is not a "
                    "terminal is always plain)")
    think_arg(pl)
    pl.add_argument("--web", action="store_true", help="play in a web browser instead: start engine serve with "
                    "this game and print each human seat's address (needs the web extra; docs/web.md)")

    s = sub.add_parser("simulate", help="play many games between bots and report results",
                       description=_wrap("Play GAMES games between bots (random ones by default), on every "
                       "core, and print the report that engine report prints of them: win share by seat and by "
                       "turn position with 95% intervals, scores, game lengths, why games ended, failed games "
                       "(how to read it: docs/balance.md). With --json, one object with a 'results' list (seed, "
                       "scores, winners, turn order, end reason per game) and totals; with --csv, a row a game. "
                       "The results depend on the seed only, not on --jobs or --backend. A game whose rules fail "
                       "is reported with the command that replays it, and the others go on (exit status 1). "
                       "With --out, games are kept in a file as they end: the same command again, after Ctrl-C "
                       "or a crash, plays only the games not yet in it; with more --games it extends the run."),
                       epilog=SEATS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    game_args(s)
    s.add_argument("--seats", help="comma-separated bots, one per player: random, greedy, mcts or "
                   "MODULE:CLASS, with parameters as mcts:iterations=100 (default: random for every seat)")
    run_args(s, 100, "number of games",
             "play on N processes (default: one a core; with --backend ray, one a CPU of the cluster)")
    s.add_argument("--out", metavar="FILE.jsonl", help="append each game's record to FILE as it ends (JSON "
                   "Lines, a header line first); if FILE holds games of the same run, play only the others")
    standings = s.add_mutually_exclusive_group()
    standings.add_argument("--standings", dest="standings", action="store_true", default=None,
                           help="record each game's standings round by round, which the report's lead "
                           "changes, uncertainty, decisiveness and drama need (default: unless every seat "
                           "is random: the heuristic can cost more than a random game, up to 3x its time)")
    standings.add_argument("--no-standings", dest="standings", action="store_false",
                           help="record no standings, even with bots")
    s.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local: processes of this machine (default); ray: tasks of a Ray cluster "
                   "(pip install 'tabletop-rules-engine[ray]')")
    s.add_argument("--address", metavar="HOST:PORT", help="with --backend ray, the address of a running Ray "
                   "cluster (default: start Ray on this machine)")
    shown = s.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the results as JSON")
    shown.add_argument("--csv", action="store_true", help="print one CSV row per game: game, seed, end_reason, "
                       "decisions, winners, score_P1..score_PN, turn_order, error")

    c = sub.add_parser("compare", help="did a change change the game? two variants on the same seeds",
                       description=_wrap("Play GAMES games of a variant of a ruleset (its --with card files and "
                       "--option values, before --against) and as many of another (after --against; nothing "
                       "after it means the ruleset as it is) on the same seeds, and say which differences in "
                       "win share, score and game length are detectable at 95%."),
                       epilog="examples:\n  engine compare GAME -n 4 -g 400 --with my_cards.yaml --against\n  "
                       "engine compare GAME -n 4 -g 2000 -o expert=true --against -o expert=false\n"
                       "How to read it: docs/balance.md.\n\n" + SEATS_HELP,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    game_args(c)
    run_args(c, 1000, "games of each variant")
    c.add_argument("--seats", help="comma-separated bots, one per player (below; default: random for every seat)")
    c.add_argument("--json", action="store_true", help="print the comparison as JSON")
    c.add_argument("--out", metavar="FILE.jsonl", help="append each game's record to FILE as it ends; if FILE "
                   "holds games of the same comparison, play only the others")
    until_known(c, "the change to every seat's score and to their mean")
    c.add_argument("--against", action="store_true",
                   help="the --with FILE and --option NAME=VALUE after it make the variant to compare against")

    la = sub.add_parser("ladder", help="does better play win more? every pair of agents, seats alternating",
                        description=_wrap("Does better play win more, and by how much? Play GAMES games for every "
                        "pair of AGENTS, half with the first in seats 1, 3, 5... and half the other way round, on "
                        "the same seeds, and print the matrix of win shares with 95% intervals (50% is even) and "
                        "which agent beats which. If a stronger agent does not beat a weaker one, luck decides "
                        "the game more than play. mcts games take seconds to minutes each: start with a few "
                        "games and a smaller budget (mcts:iterations=50)."),
                        epilog="examples:\n  engine ladder GAME -n 4 -g 20 --seed 1\n"
                        "  engine ladder GAME -n 3 --agents random,greedy,mcts:iterations=50 -g 10\n"
                        "How to read it: docs/balance.md.\n\n" + SEATS_HELP,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    game_args(la)
    la.add_argument("--agents", default="random,greedy,mcts",
                    help="comma-separated agents, each written as a seat (below; default: random,greedy,mcts)")
    run_args(la, 100, "games for each pair of agents")
    la.add_argument("--json", action="store_true", help="print the matrix as JSON")

    cd = sub.add_parser("cards", help="what each card is worth: use, restricted play, events taken out",
                        description=_wrap("What each card is worth, in games between bots on the same seeds "
                        "(cards sharing a name are one card; --card names a card, or a kind for all its cards). "
                        "First GAMES games as they are: how often each card is held, drawn, played (chosen by a "
                        "seat) and comes up (lies face up in sight of all), and the win share of those who played "
                        "it against the others. Then, for each card a seat chose, GAMES games with one seat "
                        "(each in turn) barred from it and GAMES favouring it, against unrestricted seats: its "
                        "strength is the difference in that seat's win share, with a paired 95% interval "
                        "(restricted play, Jaffe et al. 2012). For each card never chosen (events that act on "
                        "everyone), GAMES games without it in the deck: each seat's score change in the games "
                        "where it came up (with --bring-in: in games arranged so that it comes up, against the same "
                        "games without it). So a run plays up to GAMES x (1 + 2 x cards) games: limit it with "
                        "--card, or give --budget 4m (and --precision X) to play in rounds until each card is "
                        "known, with intervals that stay valid however often they are looked at. A sentence tells "
                        "every card whose effect is detectable at 95%. Kinds marked analysis: false (markers, "
                        "tokens) are left out. --out keeps the games as they end; the same command again plays only "
                        "those not in it."),
                        epilog="examples:\n  engine cards GAME -n 4 -g 200 --card \"A CARD\" --card \"ANOTHER\"\n"
                        "  engine cards GAME -n 3 -g 30 --card A_KIND --seats greedy,greedy,greedy\n"
                        "  engine cards GAME -n 4 --with my_cards.yaml --card MY_CARD --out cards.jsonl\n"
                        "  engine cards GAME -n 4 --with my_events.yaml --card MY_EVENT --seats scout,scout,scout,scout "
                        "--budget 4m\n"
                        "  engine cards GAME -n 3 --card A_KIND --curve cost\n"
                        "How to read it: docs/balance.md.\n\n" + SEATS_HELP,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    game_args(cd)
    cd.add_argument("--seats", help="comma-separated bots, one per player, as simulate takes them (default: "
                    "random for every seat)")
    cd.add_argument("--card", action="append", default=[], metavar="NAME", help="a card's name or label, as "
                    "screens show it (any case; inf for ∞), or a kind of card for all its cards; repeatable "
                    "(default: every card)")
    run_args(cd, 100, "games as they are, and games of each card's each variant",
             "play on N processes (default: one a core; with --backend ray, one a CPU of the cluster)")
    cd.add_argument("--out", metavar="FILE.jsonl", help="append each game's record to FILE as it ends; if FILE "
                    "holds games of the same run, play only the others")
    cd.add_argument("--backend", choices=["local", "ray"], default="local",
                    help="local: processes of this machine (default); ray: tasks of a Ray cluster")
    cd.add_argument("--address", metavar="HOST:PORT", help="with --backend ray, the address of a running Ray "
                    "cluster (default: start Ray on this machine)")
    until_known(cd, "each card's effect")
    cd.add_argument("--bring-in", action="store_true", help="bring each card nobody chooses into play: each game "
                    "with it arranged so that it comes up, against the same game without it (always so with "
                    "--budget or --precision)")
    cd.add_argument("--curve", metavar="PROPERTY", help="fit the cards' strength per copy to this property of "
                    "theirs (a cost) by least squares, and list the cards off the curve, with intervals")
    cd.add_argument("--html", metavar="FILE", help="also write the report with its plots to FILE, one "
                    "self-contained HTML page (needs matplotlib: pip install matplotlib)")
    cd_shown = cd.add_mutually_exclusive_group()
    cd_shown.add_argument("--json", action="store_true", help="print the results as JSON")
    cd_shown.add_argument("--csv", action="store_true", help="print one CSV row per card")

    r = sub.add_parser("replay", help="re-run a saved game and check that it reproduces",
                       description="Replay the decisions of a saved game and say whether the result "
                       "is the same. Exits 0 if it reproduces, 1 if not.")
    r.add_argument("file", metavar="FILE", help="a file written by 'engine play --save', or with --game a run file "
                   "written by 'engine simulate --out'")
    r.add_argument("--game", type=at_most(MOST_GAMES), metavar="N", help="FILE is a run file: play its game N again "
                   "with its bots (a run file keeps no decisions) and check that it gives the recorded result")
    r.add_argument("--ruleset", help="use this ruleset (a file, or a shipped one's name) instead of the one "
                   "named in the save")
    r.add_argument("--show", action="store_true", help="print the table: as the referee sees it for a finished "
                   "game; as one seat sees it for an unfinished one (--seat)")
    shown_as = r.add_mutually_exclusive_group()
    shown_as.add_argument("--seat", type=int, metavar="N", help="show the table as seat N sees it (default for an "
                          "unfinished game: the save's human seat, else seat 1)")
    shown_as.add_argument("--referee", action="store_true", help="show the table as the referee sees it, every "
                          "hidden card and the order of every pile, even of an unfinished game")
    r.add_argument("--web", action="store_true", help="watch it in a web browser instead, step by step, as any seat "
                   "or the referee: start engine serve with this game and print its address (--seat or --referee: "
                   "the seat the page opens as; needs the web extra; docs/web.md)")

    rp = sub.add_parser("report", help="summarise a simulation's results file for balance",
                        description="Read the JSON Lines results of a simulation (engine simulate ... "
                        "--out FILE.jsonl) and report: win share by seat and by turn position, each with "
                        "its 95% Wilson interval (a win shared by k players counts 1/k to each); scores "
                        "by seat (mean, standard deviation, range); game length in decisions (quartiles "
                        "and a histogram); why games ended; failed games with the command that "
                        "reproduces each. A sentence points out every share whose interval leaves out "
                        "the even share (1/players). A last line cut off by a stopped run is ignored "
                        "with a warning.", epilog="How to read it: docs/balance.md.")
    rp.add_argument("file", metavar="FILE.jsonl", help="a results file written by engine simulate --out")
    rp.add_argument("--json", action="store_true", help="print the report as JSON instead of text")
    rp.add_argument("--html", metavar="FILE", help="also write the report with its plots to FILE, one "
                    "self-contained HTML page (needs matplotlib: pip install matplotlib)")

    sc = sub.add_parser("schema", help="where the JSON Schemas are, for editors that check rulesets",
                        description=_wrap("Print the path of the JSON Schema of rulesets (with --extension: of "
                        "extension files, the cards loaded with --with), or copy both schemas into a directory "
                        "with --write. An editor with yaml-language-server (VS Code with the Red Hat YAML "
                        "extension, and others) uses the schema to complete keys, show what each one means and "
                        "mark mistakes as you type. Name it on the first line of a ruleset (below: a path "
                        "relative to the ruleset, or a URL), or map files to it in the editor's yaml.schemas "
                        "setting. The two schemas refer to each other by file name: keep them side by side."),
                        epilog="the first line of a ruleset in rulesets/, naming its schema:\n"
                        "  # yaml-language-server: $schema=../schemas/ruleset.schema.json\n\n"
                        "examples:\n  engine schema\n  engine schema --extension\n"
                        "  engine schema --write .vscode/schemas", formatter_class=argparse.RawDescriptionHelpFormatter)
    what = sc.add_mutually_exclusive_group()
    what.add_argument("--extension", action="store_true", help="print the path of the schema of extension "
                      "files instead")
    what.add_argument("--write", metavar="DIR", help="copy both schemas into DIR (made if missing) and print "
                      "their paths, for editors that want the files in your project")

    pr = sub.add_parser("print", help="print a ruleset's cards: a PDF of card sheets with cut marks",
                        description=_wrap("Draw every card of a ruleset from its face (the card kinds' "
                        "`face:`, docs/reference.md, Drawing a card) at its real size into a PDF: 9 poker cards "
                        "to a page (more of smaller ones), with cut marks; with --backs, after each page of "
                        "faces a page of their backs, mirrored, for double-sided printing (flip on the long "
                        "edge). Every copy of a card is printed. Choose cards with --card, --kind, or --with "
                        "(the cards an extension file adds or changes). Needs the print extra: "
                        "pip install 'tabletop-rules-engine[print]'."),
                        epilog="examples:\n  engine print GAME --out cards.pdf\n"
                        "  engine print my_game.yaml --kind event --backs --out events.pdf\n"
                        "  engine print GAME --with my_cards.yaml --paper letter --out new.pdf\n"
                        "  engine print GAME --card \"A CARD\" --card \"ANOTHER\" --out two.pdf",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    pr.add_argument("ruleset", help=RULESET_HELP)
    pr.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF file to write")
    pr.add_argument("--paper", choices=["a4", "letter"], default="a4", help="the paper size (default a4)")
    pr.add_argument("--backs", action="store_true", help="a page of backs after each page of faces, mirrored "
                    "for double-sided printing")
    pr.add_argument("--card", action="append", default=[], metavar="NAME", help="print only the cards of this "
                    "name or label (repeatable)")
    pr.add_argument("--kind", action="append", default=[], metavar="KIND", help="print only the cards of this "
                    "card kind (repeatable), e.g. --kind event")
    pr.add_argument("--with", dest="extensions", action="append", default=[], metavar="FILE",
                    help="load this extension file and print only the cards it adds or changes (repeatable)")

    sv = sub.add_parser("serve", help="play in a web browser: a local server for games against bots",
                        description=_wrap("Start a web app on this machine (127.0.0.1) and print its address; "
                        "open it in a browser to start a game of any ruleset it offers against bots, each person "
                        "at a seat address of their own. Nothing is opened by itself, and the server answers "
                        "this machine only. Ctrl-C stops it (its games are not kept). Needs the web extra: "
                        "pip install 'tabletop-rules-engine[web]'. The page and its JSON API: docs/web.md."),
                        epilog="examples:\n  engine serve\n  engine serve GAME my_game.yaml --port 8000",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sv.add_argument("rulesets", nargs="*", metavar="RULESET", help="the rulesets to offer, files or shipped "
                    "rulesets' names (default: every shipped ruleset)")
    sv.add_argument("--port", type=at_most(65535), default=None, help="the port to listen on (default: a free one)")
    sv.add_argument("--saves", metavar="FOLDER", help="save each game in FOLDER, as RULESET-ID.json, when it ends "
                    "and when a seat asks (the page's Save); without it games are not saved")
    think_arg(sv)
    sv.add_argument("--idle", metavar="SECONDS", type=float, default=600.0, help="let a game go once nobody has "
                    "touched it for SECONDS (default 600; saved first with --saves)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    base = None
    if argv and argv[0] == "compare" and "--against" in argv:
        # --with and --option after --against are the other variant's; anything else is the run's.
        cut = argv.index("--against")
        base, rest = _variant_parser().parse_known_args(argv[cut + 1:])
        argv = argv[:cut] + rest
    args = parser.parse_args(argv)
    if args.command == "compare":
        if base is None:
            parser.error("compare needs --against, then the other variant's --with and --option (or nothing)")
        args.base = base
    if args.command is None:
        parser.print_help()
        return 2
    if args.command == "play" and args.ruleset is None and args.resume is None:
        parser.error("play needs a RULESET, a file or a shipped ruleset's name (or --resume FILE)")
    before = worlds.tally.copy()
    try:
        return {"validate": cmd_validate, "info": cmd_info, "play": cmd_play, "simulate": cmd_simulate,
                "compare": cmd_compare, "ladder": cmd_ladder, "cards": cmd_cards, "replay": cmd_replay,
                "report": cmd_report, "schema": cmd_schema, "serve": cmd_serve,
                "print": cmd_print}[args.command](args)
    except (RulesetError, EffectError) as exc:
        print(str(exc), file=sys.stderr)
        return 1
    except EngineError as exc:
        print(f"engine: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nengine: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    finally:  # once, after all else the command said: the rules that failed in the bots' worlds
        failed = worlds.summary(before)
        if failed:
            print(f"engine: {failed}", file=sys.stderr)


def cmd_validate(args: argparse.Namespace) -> int:
    failed = 0
    for path in args.paths:
        try:
            if args.fix:
                _fix(path, args.extensions)
            ruleset = load_ruleset(path, args.extensions)
            shown = terminal_problems(ruleset)
            if shown:
                raise RulesetError(shown)
        except RulesetError as exc:
            failed += 1
            for d in exc.diagnostics:
                print(d)
            print(f"{path}: {len(exc.diagnostics)} error(s)", file=sys.stderr)
        else:
            for note in [*alike_notes(ruleset), *(n for n in ruleset.notes if args.strict or not n.strict)]:
                print(note)
            print(f"{path}: ok ({ruleset.name}, {len(ruleset.cards)} cards, "
                  f"{'/'.join(map(str, ruleset.players))} players)")
    return 1 if failed else 0


def _fix(path: str, extensions: list[str]) -> None:
    """Rewrite the old forms that loading `path` finds, in their files, saying each."""
    try:
        load_ruleset(path, extensions)
    except RulesetError as exc:
        try:
            fixed = fix(exc.diagnostics)
        except OSError as error:
            raise EngineError(f"cannot rewrite {error.filename}: {error.strerror}") from None
        for done in fixed:
            print(f"{done.location.file}:{done.location.line}: fixed: {MIGRATIONS[done.migration].done}")


def print_json(data: Any, ensure_ascii: bool = True) -> None:
    """Print `data` as JSON, which has no infinity or NaN: a number that is one (a card's
    `.inf`, a score or mean that overflowed) is printed as text, as the terminal shows it."""
    json.dump(finite(data), sys.stdout, indent=1, ensure_ascii=ensure_ascii, allow_nan=False)
    print()


def cmd_info(args: argparse.Namespace) -> int:
    info = facts(load_ruleset(args.ruleset, args.extensions))
    if args.json:
        print_json(info, ensure_ascii=False)
    else:
        print(render_info(info))
    return 0


def cmd_print(args: argparse.Namespace) -> int:
    rules = load_ruleset(args.ruleset, args.extensions)
    cards = list(rules.cards)
    if args.extensions:  # what the files add or change: no card of the ruleset alone looks like it
        before = {(c.kind, c.name, c.face) for c in load_ruleset(args.ruleset).cards}
        cards = [c for c in cards if (c.kind, c.name, c.face) not in before]
    for kind in args.kind:
        if kind not in rules.card_kinds:
            raise EngineError(f"no card kind '{kind}' in {rules.name}{suggest(kind, rules.card_kinds)}; "
                              f"its kinds: {', '.join(rules.card_kinds)}")
    if args.kind:
        cards = [c for c in cards if c.kind in args.kind]
    if args.card:
        names = {n: {c.name.lower() for c in rules.cards} | {c.label.lower() for c in rules.cards} for n in args.card}
        for name, known in names.items():
            if name.lower() not in known:
                raise EngineError(f"no card '{name}' in {rules.name}"
                                  f"{suggest(name, [c.name or c.label for c in rules.cards])}")
        wanted = {n.lower() for n in args.card}
        cards = [c for c in cards if c.name.lower() in wanted or c.label.lower() in wanted]
    if not cards:
        raise EngineError("no card to print: " + ("the extension files add or change none"
                                                  if args.extensions else "none is of the kinds and names given"))
    done = sheets.write(rules, cards, args.out, args.paper, args.backs)
    sizes = ", ".join(f"{w:g}x{h:g} mm, {a} by {d} a page" for (w, h), (a, d) in done.grids.items())
    print(f"{args.out}: {done.cards} card(s) on {done.pages} page(s) ({args.paper.upper() if args.paper == 'a4' else 'Letter'}"
          f"{', faces and backs' if args.backs else ''}; {sizes})")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    if args.write is None:
        print(schema_path(EXTENSION if args.extension else RULESET))
        return 0
    if Path(args.write).exists() and not Path(args.write).is_dir():
        raise EngineError(f"cannot write the schemas into {args.write}: it is a file, not a directory")
    try:
        written = write_schemas(Path(args.write))
    except OSError as exc:
        raise EngineError(f"cannot write the schemas into {args.write}: {exc.strerror or exc}") from None
    for path in written:
        print(path)
    return 0


# The largest counts the commands take: far beyond any useful run, small enough that a typo such
# as --games 10000000000 is refused at once instead of planning for ever (or starting a process
# per job).
MOST_GAMES, MOST_DECISIONS, MOST_JOBS = 10_000_000, 1_000_000_000, 256


def at_most(most: int) -> Callable[[str], int]:
    """An argparse type: a whole number no larger than `most` (each command checks its least)."""
    def whole(text: str) -> int:
        text = text.strip()
        digits = text[1:] if text[:1] in "+-" else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
            shown = text if len(text) <= 24 else text[:24] + "..."
            raise argparse.ArgumentTypeError(f"'{shown}' is not a whole number of at most {most:,}")
        if int(text) > most:
            raise argparse.ArgumentTypeError(f"{text} is too many: at most {most:,}")
        return int(text)
    return whole


def _setup(args: argparse.Namespace) -> tuple[Ruleset, int, dict[str, Any], int]:
    ruleset = load_ruleset(args.ruleset, args.extensions)
    players = args.players if args.players is not None else ruleset.players[0]
    if players not in ruleset.players:
        raise EngineError(f"{ruleset.name} is for {', '.join(map(str, ruleset.players))} players, not {players}")
    options = _options(ruleset, args.option, players)
    seed = args.seed if args.seed is not None else secret_seed()
    return ruleset, players, options, seed


def _options(ruleset: Ruleset, items: list[str], players: int) -> dict[str, Any]:
    """The options of --option NAME=VALUE..., checked, with the ruleset's defaults for the rest."""
    given = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise EngineError(f"--option takes NAME=VALUE, not '{item}'")
        given[name.strip()] = value.strip()
    try:
        return ruleset.resolve_options(given, players)
    except ValueError as exc:
        raise EngineError(str(exc)) from None


def _isolation(args: argparse.Namespace, ruleset: Ruleset) -> Isolation | None:
    """The seats --isolate puts in processes of their own, with --time-limit."""
    if not 0 < args.time_limit <= MOST_DECISIONS:  # also refuses nan
        raise EngineError("--time-limit must be a number of seconds above 0")
    if args.isolate == "none":
        return None
    return Isolation(ruleset.loaded_as, list(ruleset.extensions), ruleset.digest, args.isolate, args.time_limit)


def _seats(text: str | None, players: int, saved: Any = None, bots: bool = False,
           isolation: Isolation | None = None) -> list[str]:
    """The seats of --seats, else those of a save, else a person in seat 1 and mcts bots
    (`bots`: random bots only, for simulations); a seat `isolation` isolates is made in its
    own process, to be checked, never here."""
    if text:
        seats = [s.strip() for s in text.split(",")]
    elif isinstance(saved, list) and len(saved) == players and all(isinstance(s, str) for s in saved):
        seats = saved
    else:
        seats = ["random"] * players if bots else ["human"] + ["mcts"] * (players - 1)
    if len(seats) != players:
        raise EngineError(f"--seats names {len(seats)} seat(s) for {players} players")
    for seat in seats:
        if bots and parse_seat(seat)[0] == "human":
            raise EngineError("a simulation has no human seats; use random, greedy, mcts or MODULE:CLASS")
    make_agents(seats, 0, make_human=lambda: None, isolation=isolation)  # every seat checked before the game starts
    return seats


def _saved_seats(path: str, saved: Any, players: int) -> list[str] | None:
    """The seats a save names, each a built-in kind, or None if it names none for its players.
    A seat of any other kind (FILE.py:CLASS, MODULE:CLASS) would run code that came with the
    file: it is played by a person instead, and a line says so."""
    if not (isinstance(saved, list) and len(saved) == players and all(isinstance(s, str) for s in saved)):
        return None
    seats = []
    for i, seat in enumerate(saved, 1):
        try:
            if not built_in(seat):
                raise EngineError(seat)
            make_agent(seat, 0, make_human=lambda: None)  # its parameters checked
        except EngineError:
            shown = seat if len(seat) <= 24 else seat[:24] + "..."
            print(f"warning: {path}: seat {i} '{shown}' is not a built-in kind; a save runs no code, "
                  f"so P{i} is human (or give --seats)", file=sys.stderr)
            seat = "human"
        seats.append(seat)
    return seats


def _resumed(args: argparse.Namespace) -> tuple[Game, list[str]]:
    """The saved game of --resume, replayed from its seed and decisions, and its seats."""
    given = [flag for flag, value in (("--players", args.players), ("--seed", args.seed),
                                      ("--option", args.option), ("--with", args.extensions)) if value]
    if given:
        raise EngineError(f"--resume takes players, seed, options and card files from the save; "
                          f"leave out {', '.join(given)}")
    game, data, warnings = resume(args.resume, args.ruleset)
    for w in old_format_warnings(args.resume, data) + warnings:
        print(f"warning: {w}", file=sys.stderr)
    if game.over:
        raise EngineError(f"{args.resume}: this game is over; see it with: engine replay {args.resume}")
    saved = None if args.seats else _saved_seats(args.resume, data.get("seats"), len(game.players))
    seats = _seats(args.seats, len(game.players), saved)
    print(f"{game.rules.name}: {len(game.players)} players, resumed from {args.resume} after "
          f"{len(game.decisions)} decisions")
    if data.get("error"):
        told = data["error"] if len(data["error"]) <= 400 else data["error"][:400] + "..."  # the file's text
        print(f"It was saved after an error: {told}")
    return game, seats


def cmd_play(args: argparse.Namespace) -> int:
    if args.web and args.plain:
        raise EngineError("--plain is for a game at the terminal, not with --web")
    web = _web() if args.web else None  # before the game starts, so that a missing extra is said at once
    _check_think(args.think)
    if args.save:  # before the game, not after it: a game played to the end is not lost for a bad name
        check_save_path(args.save)
    if args.resume:
        game, seats = _resumed(args)
    else:
        ruleset, players, options, seed = _setup(args)
        seats = _seats(args.seats, players)
        # A seed of the user's own choice may be shown; a secret one only when the game is over.
        print(f"{ruleset.name}: {players} players"
              + (f", seed {seed}" if args.seed is not None else "")
              + (f", options {', '.join(f'{k}={v}' for k, v in options.items())}" if options else "")
              + ("" if args.seed is not None else " (the seed stays secret until the game ends)"))
        game = Game(ruleset, players, options, seed)
    kinds = [parse_seat(seat)[0] for seat in seats]
    names = {i + 1: f"P{i + 1} ({kind})" for i, kind in enumerate(kinds)}
    humans = {i + 1 for i, kind in enumerate(kinds) if kind == "human"}
    hot_seat = HotSeat() if len(humans) > 1 else None
    # Bots of a chosen seed are seeded as simulate seeds them, so that `engine play --seed` plays
    # a simulated game again; those of a secret seed (or of a resumed game) from a hash of it.
    chosen = args.seed is not None  # (--resume refuses --seed)
    try:
        agents = make_agents(seats, game.seed if chosen else bots_seed(game.seed, len(game.decisions)),
                             make_human=(lambda: None) if web else lambda: HumanAgent(hot_seat=hot_seat, plain=args.plain),
                             defaults=timed_defaults(game.rules.bots, args.think))
    except ValueError as exc:
        raise EngineError(str(exc)) from None
    if web is not None:
        return _play_on_the_web(web, args, game, seats, agents)
    if args.resume:
        for person in humans:
            agents[person - 1].caught_up(view(game, person, names))
    if sys.stdout.isatty():  # while bots decide, a line with the name of the one deciding and the seconds
        clock = BotClock()
        agents = [agent if kind == "human" else Thinking(agent, sys.stdout, clock) for agent, kind in zip(agents, kinds)]
    ask = bool(humans) and sys.stdin.isatty()
    try:
        play(game, agents, names, undo=UndoHistory(humans), save=lambda game, path: _save_now(game, seats, path))
    except (QuitGame, KeyboardInterrupt):  # q at a prompt, or Ctrl-C while a bot thinks
        if hot_seat:
            hot_seat.clear()
        print("\nGame stopped.")
        return 0 if _offer_save(game, seats, args.save, ask) else 1
    except Exception as exc:  # a rule failed (or a bot): the game as it was before that decision is kept
        if hot_seat:
            hot_seat.clear()
        error = str(exc) if isinstance(exc, EngineError) else f"{type(exc).__name__}: {exc}"
        print(f"\nThe game stopped at decision {len(game.decisions) + 1}, on an error.")
        _offer_save(game, seats, args.save, ask, error)
        raise  # told in one line by main(); any other error is a bug, and its traceback is for its report
    if hot_seat:
        hot_seat.clear()  # the last one to decide leaves their hand on the screen
    results = [f"{game_over(game)}. Final scores:", *results_lines(game, names)]
    if len(humans) == 1:  # the one person's last screen: all news since their last decision
        person = min(humans)
        agents[person - 1].final(view(game, person, names), results)
    else:  # several at one terminal see what all may see (0: nobody's seat); bots, everything
        shown = view(game, 0 if humans else None, names, person=True)
        final = ["", render(shown, log_lines=12), "", *results]
        print("\n".join(final))
        if humans:  # t, log and i answer as for one person, with what all may see
            agents[min(humans) - 1].linger(shown, [Line(t) for text in final for t in text.split("\n")])
    if args.save:
        if not _saved(game, seats, args.save):
            return 1
        print(f"Saved to {args.save}; replay it with: engine replay {args.save}")
    return 0


def _check_think(seconds: float) -> None:
    if not 0 <= seconds <= MOST_THINK:  # also refuses nan
        raise EngineError(f"--think takes a number of seconds from 0 to {MOST_THINK:g}")


def _saved(game: Game, seats: list[str], path: str, error: str | None = None) -> bool:
    """Write a save; if it cannot be written, say why in one line."""
    try:
        write_save(game, path, seats, error)
    except SaveError as exc:
        print(f"engine: {exc}", file=sys.stderr)
        return False
    return True


def _save_now(game: Game, seats: list[str], path: str) -> str:
    """Save a game in play at a person's request (the `s` command); what came of it."""
    try:
        write_save(game, path, seats)
    except SaveError as exc:
        told = str(exc)  # "cannot save to FILE: why", told as a sentence
        return told[:1].upper() + told[1:]
    step = (" The answers given in this simultaneous choice are not saved: it asks them all again."
            if game.withdrawn() is not game else "")
    return (f"Saved to {path}; continue it with: engine play --resume {path} (it holds every hidden card: "
            "keep it from the other players until the game is over)." + step)


def _offer_save(game: Game, seats: list[str], path: str | None, ask: bool, error: str | None = None) -> bool:
    """Save a stopped game to `path`, or to a file the person names when `ask`ed (again if it
    cannot be written); False if it was to be saved and could not be."""
    while True:
        if path is None and ask:
            try:
                answer = input("Save this game to continue or replay later? File name (empty: don't save): ")
            except (EOFError, KeyboardInterrupt):
                answer = ""
            path = answer.strip() or None
        if path is None:
            return True
        if _saved(game, seats, path, error):
            break
        if not ask:
            return False
        path = None
    print(f"Saved to {path}; continue it with: engine play --resume {path}")
    print(f"{path} holds the seed and every hidden card: keep it from the other players until the game is over.")
    return True


def cmd_simulate(args: argparse.Namespace) -> int:
    ruleset, players, options, seed = _setup(args)
    if args.games < 1:
        raise EngineError("--games must be at least 1")
    seats = _long_run(args, ruleset, players)
    try:
        report = simulate(ruleset, players, args.games, seed, options, progress=stderr_if_tty(), seats=seats,
                          max_decisions=args.max_decisions, jobs=args.jobs, backend=args.backend,
                          address=args.address, out=args.out, isolate=args.isolate, time_limit=args.time_limit,
                          standings=args.standings)
    except Interrupted as stop:
        print(f"engine: {stop}", file=sys.stderr)
        return 130
    failed = [r for r in report["results"] if "error" in r]
    if args.json:
        print_json(report)
    elif args.csv:
        write_csv(report["results"], players, sys.stdout)
    else:
        spec = RunSpec.of(ruleset, players, seats, options, seed, args.max_decisions)
        _print_report(build_report(report["results"], header(spec, args.games)["run"]))
        kept = args.games - report["totals"]["played"]
        if kept:  # said apart from the report, which is the same however the games were played
            print(f"engine: {kept} of {args.games} games were in {args.out} already; played the other "
                  f"{args.games - kept}" if kept < args.games else
                  f"engine: all {args.games} games were in {args.out} already; none to play", file=sys.stderr)
    if failed:
        first = failed[0]
        print(f"engine: the rules failed in {len(failed)} of {args.games} games; game {first['game']}: "
              f"{first['error']}; replay it with: {first['reproduce']}", file=sys.stderr)
    return 1 if failed else 0


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def write_csv(records: list[dict[str, Any]], players: int, out: TextIO) -> None:
    """One row a game; winners and turn order as seats separated by spaces."""
    seats = [f"P{i}" for i in range(1, players + 1)]
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["game", "seed", "end_reason", "decisions", "winners", *(f"score_{p}" for p in seats),
                     "turn_order", "error"])
    for r in records:
        scores = r.get("scores", {})
        writer.writerow([r["game"], r["seed"], r.get("end_reason", ""), r.get("decisions", ""),
                         " ".join(r.get("winners", [])), *(scores.get(p, "") for p in seats),
                         " ".join(r.get("turn_order", [])), r.get("error", "")])


def _variant_parser() -> argparse.ArgumentParser:
    """What may follow `engine compare ... --against`: the other variant's card files and options."""
    p = argparse.ArgumentParser(prog="engine compare ... --against", add_help=False)
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--with", dest="extensions", action="append", default=[], metavar="FILE")
    return p


def _variant(args: argparse.Namespace, extensions: list[str], given: list[str], players: int) -> Variant:
    ruleset = load_ruleset(args.ruleset, extensions)
    options = _options(ruleset, given, players)
    label = " + ".join([ruleset.name, *extensions]) + (f" ({', '.join(given)})" if given else "")
    return Variant(label, ruleset, options)


def cmd_compare(args: argparse.Namespace) -> int:
    ruleset, players, _, seed = _setup(args)
    if args.games < 2:
        raise EngineError("--games must be at least 2 to compare")
    changed = _variant(args, args.extensions, args.option, players)
    base = _variant(args, args.base.extensions, args.base.option, players)
    for name in ("SIGTERM", "SIGHUP"):  # a kill stops the run as Ctrl-C does: --out keeps its games
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _interrupt)
    seats = _seats(args.seats, players, bots=True, isolation=_isolation(args, base.ruleset))
    try:
        result = compare(changed, base, players, args.games, seed, seats, args.max_decisions,
                         progress=stderr_if_tty(), jobs=_jobs(args.jobs), isolate=args.isolate,
                         time_limit=args.time_limit, out=args.out, plan=_plan(args))
    except Interrupted as stop:
        print(f"engine: {stop}", file=sys.stderr)
        return 130
    return _show(result, args.json, render_compare)


def cmd_ladder(args: argparse.Namespace) -> int:
    ruleset, players, options, seed = _setup(args)
    if args.games < 1:
        raise EngineError("--games must be at least 1")
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if len(agents) < 2 or len(set(agents)) != len(agents):
        raise EngineError("--agents needs at least two different agents, e.g. random,greedy,mcts")
    isolation = _isolation(args, ruleset)
    for agent in agents:
        _seats(",".join([agent] * players), players, bots=True, isolation=isolation)  # each checked before any game
    result = ladder(ruleset, players, agents, args.games, seed, options, args.max_decisions, progress=stderr_if_tty(),
                    jobs=_jobs(args.jobs), isolate=args.isolate, time_limit=args.time_limit)
    return _show(result, args.json, lambda r: f"{ruleset.name}: " + render_ladder(r))


def cmd_cards(args: argparse.Namespace) -> int:
    from .analysis import cards_report
    ruleset, players, options, seed = _setup(args)
    if args.games < 2:
        raise EngineError("--games must be at least 2: a card's intervals need two games")
    if args.html:
        require_matplotlib()  # before the games, not after
    seats = _long_run(args, ruleset, players)
    plan = _plan(args)
    try:
        result = cards(ruleset, players, args.games, seed, options, seats, args.card, args.max_decisions,
                       args.jobs, args.backend, args.address, args.out, stderr_if_tty(), args.isolate,
                       args.time_limit, args.bring_in, plan, args.curve)
    except Interrupted as stop:
        print(f"engine: {stop}", file=sys.stderr)
        return 130
    if args.json:
        print_json(result, ensure_ascii=False)
    elif args.csv:
        cards_report.write_csv(result, sys.stdout)
    else:
        print(cards_report.render_text(result))
    if args.html:
        cards_report.write_html(result, args.html)
        print(f"wrote {args.html}", file=sys.stderr)
    return 0


def _plan(args: argparse.Namespace) -> Any:
    """The plan of a run that stops when it knows, or None for a run of --games games."""
    if args.budget is None and args.precision is None:
        return None
    from .analysis.sequential import Plan, parse_duration
    return Plan(budget=None if args.budget is None else parse_duration(args.budget), precision=args.precision)


def _long_run(args: argparse.Namespace, ruleset: Ruleset, players: int) -> list[str]:
    """The checks of a run of many games (simulate, cards) before any is played, and its seats;
    from here `kill` or a closed terminal stop the run as Ctrl-C does."""
    if args.max_decisions < 1:
        raise EngineError("--max-decisions must be at least 1")
    _jobs(args.jobs)
    if args.address and args.backend != "ray":
        raise EngineError("--address is the address of a Ray cluster: use it with --backend ray")
    seats = _seats(args.seats, players, bots=True, isolation=_isolation(args, ruleset))
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _interrupt)
    return seats


def _jobs(jobs: int | None) -> int | None:
    if jobs is not None and jobs < 1:
        raise EngineError("--jobs must be at least 1")
    return jobs


def _show(result: dict[str, Any], as_json: bool, render: Callable[[dict[str, Any]], str]) -> int:
    """Print an experiment's result, as JSON or as text."""
    if as_json:
        print_json(result)
    else:
        print(render(result))
    return 0


def game_over(game: Game) -> str:
    """'Game over', with why when the game says (a game restored from an old save may not)."""
    return "Game over" + (f" ({game.end_reason})" if game.end_reason else "")


def _shown_seat(args: argparse.Namespace, game: Game, seats: list[str] | None) -> int | None:
    """Whose table `replay --show` prints (None: the referee's): --seat, else the referee's for a
    finished game, else the save's human seat (or seat 1). An unfinished game's hidden cards are
    shown only on --referee: the one who replays may be one of its players."""
    if args.referee:
        return None
    if args.seat is not None:
        if not 1 <= args.seat <= len(game.players):
            raise EngineError(f"--seat {args.seat}: this game has seats 1 to {len(game.players)}")
        return args.seat
    return replay_seat(game.over, seats)


def cmd_replay(args: argparse.Namespace) -> int:
    if args.web and args.show:
        raise EngineError("--show prints the table at the terminal; with --web the page shows it")
    web = _web() if args.web else None  # before the replay, so that a missing extra is said at once
    if args.game is not None:
        return _replay_run_game(args, web)
    try:
        game, data, warnings = replay(args.file, args.ruleset)
    except SaveError:
        if _is_run_file(args.file):
            raise EngineError(f"{args.file} is a run file of engine simulate: give the game to replay, "
                              f"e.g. engine replay {args.file} --game 1") from None
        raise
    for w in old_format_warnings(args.file, data) + warnings:
        print(f"warning: {w}", file=sys.stderr)
    if web is not None:
        why = not_reproduced(game, data)
        if why is not None:
            raise EngineError(f"{args.file}: does NOT reproduce: {why}")
        return _watch_on_the_web(web, game, data.get("seats"), _shown_seat(args, game, data.get("seats")))
    if args.show or args.seat is not None or args.referee:
        seat = _shown_seat(args, game, data.get("seats"))
        print(render(view(game, seat, person=True), log_lines=0 if seat is None else 8))
        if seat is not None and not game.over:
            print(f"(the table as P{seat} sees it; --referee shows every hidden card)")
    expected = data.get("result")
    place = state_difference(game, data["state"]) if isinstance(data.get("state"), dict) else None
    if place is not None:
        print(f"{args.file}: does NOT reproduce: the replayed game differs from the saved state "
              f"(first at {place}).")
        return 1
    if not game.over:
        print(f"{args.file}: replayed {len(game.decisions)} decisions; the game is not over "
              f"(waiting for {game.pending.player}).")
        if expected is not None:
            print(f"{args.file}: does NOT reproduce: the save records a finished game.")
            return 1
        return 0
    scores = {str(p): s for p, s in game.scores().items()}
    print(f"{game_over(game)}. Scores: " + ", ".join(f"{p} {s}" for p, s in scores.items())
          + "; winner(s): " + ", ".join(str(p) for p in game.winners()))
    if expected is None:
        print(f"{args.file}: replayed; the save holds no result to compare with.")
        return 0
    why = result_difference(game, expected, bool(warnings) and isinstance(data.get("state"), dict))
    if why is None:
        print(f"{args.file}: reproduces exactly ({len(game.decisions)} decisions).")
        return 0
    print(f"{args.file}: does NOT reproduce: {why}.")
    return 1


def _is_run_file(path: str) -> bool:
    """Does the file at `path` begin as a run file of engine simulate does?"""
    try:
        with open(path, "rb") as f:
            return f.read(8) == b'{"run": '
    except OSError:
        return False


def _replay_run_game(args: argparse.Namespace, web: ModuleType | None) -> int:
    """`engine replay RUNFILE --game N`: the game played again by its bots, checked against its
    record, shown (--show, --seat, --referee) or watched on the web."""
    run, records, _ = read_run(args.file)
    if args.game not in records:
        raise EngineError(f"{args.file} holds no game {args.game}" + (
            f" (it holds games {min(records)} to {max(records)})" if records else " (it holds no games yet)"))
    given, extensions = run.get("ruleset"), run.get("extensions") or []
    if not (isinstance(given, str) and isinstance(extensions, list) and all(isinstance(e, str) for e in extensions)):
        raise EngineError(f"{args.file}: the run's header names no ruleset; give one with --ruleset")
    ruleset = load_ruleset(args.ruleset or given, extensions)
    if run.get("digest") and run["digest"] != ruleset.digest:
        print(f"warning: the ruleset {args.ruleset or given} has changed since this run; the replay may differ",
              file=sys.stderr)
    where = f"{args.file} game {args.game}"
    if web is not None:  # the address at once; the game is played again meanwhile, the page waiting for it
        from .web.replays import Replay
        seats = run.get("seats") if isinstance(run.get("seats"), list) else None
        players = run.get("players") if type(run.get("players")) is int and run.get("players") > 0 else 1
        made = Replay.later(lambda watch: replay_record(ruleset, run, records[args.game], where, watch), seats,
                            players, lambda game: _shown_seat(args, game, seats))
        print(f"{ruleset.name}: game {args.game} is played again by its bots; its page shows each decision as it is played",
              flush=True)
        return _serve_replay(web, ruleset, made)
    game = replay_record(ruleset, run, records[args.game], where)
    seats = run["seats"]
    if args.show or args.seat is not None or args.referee:
        seat = _shown_seat(args, game, seats)
        print(render(view(game, seat, person=True), log_lines=0 if seat is None else 8))
    print(f"{args.file}: game {args.game} reproduces exactly ({len(game.decisions)} decisions).")
    return 0


def _watch_on_the_web(web: ModuleType, game: Game, seats: list[str] | None, shown: int | None) -> int:
    """`engine replay --web`: a server holding this replay, its page's address printed."""
    from .web.replays import Replay
    made = Replay(game, seats, shown)
    print(f"{game.rules.name}: {len(made.decisions)} decisions to watch, as "
          + ("the referee" if shown is None else f"P{shown}") + " (the page lets you pick another seat)", flush=True)
    return _serve_replay(web, game.rules, made)


def _serve_replay(web: ModuleType, rules: Ruleset, made: Any) -> int:
    """A server holding the replay `made` (a web.replays.Replay), its page's address printed."""
    from .web.replays import Replays
    from .web.tables import Tables
    tables = Tables({Path(rules.loaded_as).stem or "game": rules})
    replays = Replays(tables.rulesets)
    replays.hold(made)
    return web.serve(tables, None, [("the replay", f"replay/{made.id}")], replays)


def _web() -> ModuleType:
    """engine/web/app.py, which needs the web extra: loaded only for `engine serve` and
    `engine play --web`, so that `import engine` and the other commands do without it."""
    try:
        from .web import app
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("starlette", "uvicorn", "anyio"):
            raise
        raise EngineError("engine serve needs the web extra: pip install 'tabletop-rules-engine[web]'") from None
    return app


def _play_on_the_web(web: ModuleType, args: argparse.Namespace, game: Game, seats: list[str],
                     agents: list[Any]) -> int:
    """`engine play --web`: the game on a server of its own, each human seat at its address."""
    if all(agent is not None for agent in agents):
        raise EngineError("--web needs a human seat: a game of bots alone is for engine simulate")
    from .web.tables import Tables
    name = Path(game.rules.loaded_as).stem or "game"
    tables = Tables({name: game.rules})
    hosted = tables.host(game, seats, agents, Path(args.save) if args.save else None)
    return web.serve(tables, None, [(hosted.names[p], f"play/{hosted.id}/{token}") for token, p in hosted.tokens.items()])


def cmd_serve(args: argparse.Namespace) -> int:
    if args.port is not None and args.port < 1:
        raise EngineError("--port must be from 1 to 65535")
    web = _web()
    from .web.tables import Tables
    rulesets: dict[str, Ruleset] = {}
    for given in args.rulesets or list(resources.shipped(resources.RULESETS)):
        name = given if resources.is_name(given) else Path(given).stem
        if name in rulesets:
            raise EngineError(f"two rulesets are named {name}: give each once")
        rulesets[name] = load_ruleset(given)
    if args.saves is not None and not Path(args.saves).is_dir():
        raise EngineError(f"--saves {args.saves}: no such folder")
    if not (args.idle > 0 and math.isfinite(args.idle)):
        raise EngineError("--idle takes a number of seconds above 0")
    _check_think(args.think)
    return web.serve(Tables(rulesets, Path(args.saves) if args.saves else None, idle=args.idle, think=args.think),
                     args.port)


def cmd_report(args: argparse.Namespace) -> int:
    if args.html:
        require_matplotlib()  # before reading a large file, not after
    results = read_jsonl(args.file)
    for w in results.warnings:
        print(f"warning: {w}", file=sys.stderr)
    report = build_report(results.records, results.run, results.warnings)
    if args.json:
        print_json(report)
    else:
        _print_report(report)
    if args.html:
        write_html(report, args.html)
        print(f"wrote {args.html}", file=sys.stderr)
    return 0


def _print_report(report: dict[str, Any]) -> None:
    """The text report, as `engine report` prints it and `engine simulate` after its games."""
    print(render_text(report, ascii_only=not _can_print("▁█")))


def _can_print(text: str) -> bool:
    """Whether stdout's encoding has these characters (a Windows console may not)."""
    try:
        text.encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


REFERENCE = Path(__file__).resolve().parent.parent / "docs" / "cli.md"
REFERENCE_WIDTH = 100  # the columns the reference's help is laid out at, whatever the terminal


def reference() -> str:
    """docs/cli.md: the help of `engine` and of each of its commands as the parser prints it, so
    that the reference cannot drift from the command (tests/test_cli_reference.py keeps the file
    current; `write_reference()` writes it anew). argparse's words change with Python's version,
    which the page names."""
    import os
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(REFERENCE_WIDTH)  # argparse lays help out at the terminal's width
    try:
        parser = _parser()
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
        lines = ["# Command reference", "",
                 "<!-- Generated from the parser in engine/cli.py by "
                 "`python -c 'import engine.cli; engine.cli.write_reference()'`; do not edit. "
                 f"Python {sys.version_info[0]}.{sys.version_info[1]} -->", "",
                 "Every command of `engine` and what `--help` prints for it. " + ", ".join(
                     f"[`{name}`](#engine-{name})" for name in commands) + ".", "",
                 "## engine", "", "```text", parser.format_help().rstrip(), "```", ""]
        for name, command in commands.items():
            lines += [f"## engine {name}", "", "```text", command.format_help().rstrip(), "```", ""]
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(lines)


def write_reference() -> None:
    """Write docs/cli.md in a source checkout."""
    REFERENCE.write_text(reference(), encoding="utf-8")
    print(f"wrote {REFERENCE}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

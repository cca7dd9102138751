"""The screen of a person's decision (screen.py) and the commands at its prompt, in-process.

Whole games of each shipped ruleset are laid out at 80x24: every screen fits with its prompt,
and what happened since the person's last decision is all told, on the screen or paged
before it. Commands read only what the person may see."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.game.game import Game
from engine.game.saves import SaveRequest
from engine.game.view import view
from engine.players.agents import HELP, HumanAgent, make_agents
from engine.players.screen import decision_screen, option_lines, option_order, own_lines, route_labels
from engine.players.undo import TakeBack
from engine.rules.ruleset import load_ruleset

from test_cli import engine

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"trick_of_the_rails": 4, "railways": 3, "isle_of_trains": 3, "trainsilvania": 4}
NAMES = {i: f"P{i} ({'human' if i == 1 else 'random'})" for i in range(1, 6)}


def rules(name: str):
    return load_ruleset(ROOT / "rulesets" / f"{name}.yaml")


def new_game(name: str, seed: int = 3) -> Game:
    ruleset = rules(name)
    return Game(ruleset, GAMES[name], ruleset.resolve_options({}, GAMES[name]), seed)


def to_p1(game: Game, bots) -> None:
    while not game.over and game.pending.player != 1:
        game.apply(bots[game.pending.player - 1].choose(view(game, game.pending.player, NAMES)))


@pytest.mark.parametrize("name", GAMES)
def test_every_screen_of_a_whole_game_fits_and_tells_all_news(name):
    game = new_game(name)
    players = GAMES[name]
    bots = make_agents(["random"] * players, 3)
    read, decisions = 0, 0
    while not game.over and decisions < 400:
        to_p1(game, bots)
        if game.over:
            break
        pv = view(game, 1, NAMES)
        log = pv.log()
        news = log[read:]
        labels = [pv.decision["options"][i] for i in option_order(pv)]
        earlier, screen = decision_screen(pv, news, labels, 80, 24)
        assert len(screen) + 1 <= 24, "\n".join(line.text for line in screen)
        assert all(len(line.text) <= 80 for line in screen + earlier)
        told = " ".join(" ".join(line.text.split()) for line in earlier + screen)
        for item in news:
            assert " ".join(item.split()) in told, f"'{item}' is not told"
        for line in own_lines(pv, 80):
            assert line in earlier + screen
        shown = route_labels(pv.boards(), pv.option_routes(), option_order(pv), labels)
        assert screen[-1].text.strip() == option_lines(shown, 80, pv.amounts())[-1].text.strip()
        if len(earlier) + len(screen) < 23:
            assert not earlier and screen[0].text.startswith("== ")
        read = len(log)
        game.apply(bots[0].choose(pv))
        decisions += 1
    assert decisions > 5


def agent_at(game: Game, typed: str) -> tuple[HumanAgent, io.StringIO]:
    out = io.StringIO()
    return HumanAgent(io.StringIO(typed), out), out


def ask(game: Game, typed: str):
    agent, out = agent_at(game, typed)
    try:
        return agent.choose(view(game, 1, NAMES)), out.getvalue()
    except (TakeBack, SaveRequest) as request:
        return request, out.getvalue()


def at_p1(name: str, seed: int = 3) -> Game:
    game = new_game(name, seed)
    to_p1(game, make_agents(["random"] * GAMES[name], seed))
    return game


def test_help_names_every_command():
    _, out = ask(at_p1("trick_of_the_rails"), "?\n1\n")
    for command in ("i N, i NAME", "log", "t ", "r ", "u ", "s [FILE]", "q ", "? "):
        assert f"\n  {command}" in out
    assert all(len(line) <= 80 for line in HELP.splitlines())


def test_info_tells_what_an_event_card_says():
    game = at_p1("railways")
    event = view(game, 1).zones()
    future = next(z for z in event if z["label"] == "Future Event")["cards"][0]
    _, out = ask(game, f"i {future['label'].upper()}\n1\n")
    told = out.split("(? for help): ")[1].splitlines()
    words = future["text"].split()
    assert told[0] == future["label"] and told[1].split() == words[:len(told[1].split())]  # the text first
    assert " ".join(words) in " ".join(out.split()) and not any(line.startswith("  text: ") for line in told)


def test_info_tells_a_list_in_words():
    _, out = ask(at_p1("isle_of_trains"), "i cork\n1\n")
    assert "\n  goods:                oil, box\n" in out


def test_info_of_an_option_by_its_number():
    game = at_p1("isle_of_trains")
    pv = view(game, 1)
    while not all(c is not None for c in pv.option_cards()):
        game.apply(0)
        to_p1(game, make_agents(["random"] * 3, 3))
        pv = view(game, 1)
    first = pv.option_cards()[option_order(pv)[0]]
    _, out = ask(game, "i 1\n1\n")
    told = out.split("(? for help): ")[1].splitlines()
    assert told[0] == first["label"] and told[1].split() == first["text"].split()[:len(told[1].split())]
    assert all(any(line.startswith(f"  {k.replace('_', ' ')}: ") for line in told) for k in first
               if k not in ("id", "label", "text"))


def test_info_never_tells_a_card_the_person_cannot_see():
    game = at_p1("trick_of_the_rails")
    theirs = [c.label for c in game.table.contents[game.table.zones["hand"][2].index]]
    mine = {c.label for c in game.table.contents[game.table.zones["hand"][1].index]}
    hidden = next(label for label in theirs if label not in mine and not any(
        label in line for line in view(game, 1).log()))
    _, out = ask(game, f"i {hidden}\n1\n")
    assert f"No card you can see is called '{hidden}'" in out


def test_info_of_a_face_down_option_tells_only_its_back():
    game = new_game("trainsilvania", seed=5)
    bots = make_agents(["random"] * 4, 5)
    while True:
        to_p1(game, bots)
        cards = view(game, 1).option_cards()
        if any(c is not None and c.get("hidden") for c in cards):
            break
        game.apply(bots[0].choose(view(game, 1)))
    k = next(i for i, c in enumerate(cards) if c is not None and c.get("hidden"))
    number = option_order(view(game, 1)).index(k) + 1
    _, out = ask(game, f"i {number}\n1\n")
    told = out.split("(? for help): ")[1].split("Choose")[0]
    assert told.startswith("a face-down card\n")
    assert game.pending.options[k].label not in told
    assert all(f"  {name}:" in told for name in cards[k] if name != "hidden")


def test_info_of_a_name_several_cards_hold_asks_which():
    _, out = ask(at_p1("trick_of_the_rails"), "i station\ni o\ni\ni 99\ni " + "9" * 5000 + "\n1\n")
    assert "'station' may be any of B&O Station, C&O Station, ERIE Station, NYC Station, PRR Station; say which" in out
    assert " more; say which." in out  # many: the first few
    assert "Say which card" in out and "99 is not an option" in out
    assert "No card you can see is called '99999999999999999999...'" in out


def test_log_tells_everything_and_the_table_every_zone():
    game = at_p1("isle_of_trains")
    pv = view(game, 1, NAMES)
    _, out = ask(game, "log\nt\n1\n")
    after = out.split("(? for help): ", 1)[1]
    for line in pv.log():
        assert line in after
    assert len(pv.log()) > 8
    for z in pv.zones():
        if z["display"]:
            assert f"  {z['label']}: " in after


def test_undo_and_save_are_requests_to_the_driver():
    game = at_p1("trainsilvania")
    request, _ = ask(game, "u\n")
    assert isinstance(request, TakeBack)
    request, _ = ask(game, "s my.json\n")
    assert isinstance(request, SaveRequest) and request.path == "my.json"
    request, out = ask(game, "s\nother.json\n")
    assert request.path == "other.json" and "Save to which file?" in out
    choice, _ = ask(game, "s\n\n2\n")  # no file name: nothing saved, the question again
    assert choice == option_order(view(game, 1))[1]


def test_save_at_a_prompt_then_resume(tmp_path):
    save = tmp_path / "mid.json"
    proc = engine("play", "trick_of_the_rails", "--players", "3", "--seats", "human,random,random", "--seed", "4",
                  "--save", tmp_path / "end.json", input=f"1\ns {save}\nq\n", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"Saved to {save}; continue it with: engine play --resume {save}" in proc.stdout
    assert len(json.loads(save.read_text())["decisions"]) > 1
    resumed = engine("play", "--resume", save, input="1\n" * 200, cwd=tmp_path)
    assert resumed.returncode == 0 and "Final scores" in resumed.stdout


def test_a_save_that_cannot_be_written_says_so_and_the_game_goes_on(tmp_path):
    proc = engine("play", "trick_of_the_rails", "--players", "3", "--seats", "human,random,random", "--seed", "4",
                  input=f"s {tmp_path}/no/such/folder/x.json\n" + "1\n" * 200)
    assert proc.returncode == 0 and "Final scores" in proc.stdout
    assert f"Cannot save to {tmp_path}/no/such/folder/x.json: there is no folder" in proc.stdout


def test_a_forced_choice_is_told_to_its_player_only():
    game = new_game("trick_of_the_rails", seed=1)
    bots = make_agents(["random"] * 4, 1)
    while not game.over:
        game.apply(bots[game.pending.player - 1].choose(view(game, game.pending.player)))
    forced = {p: view(game, p).forced() for p in game.players}
    assert all(forced[p] for p in game.players), "every player plays their last card without a choice"
    for p in game.players:
        assert any(text.endswith("(Play a card to the trick)") for _, text in forced[p])
        for at, text in forced[p]:
            assert text.startswith("Your only option: ") and 0 < at <= len(game.log)
    assert len(forced[1]) == sum(1 for f in game.forced if f.player == 1)


def test_a_forced_choice_is_told_among_the_news_at_the_terminal():
    proc = engine("play", "trick_of_the_rails", "--players", "4", "--seats", "human,random,random,random",
                  "--seed", "1", input="1\n" * 400)
    assert proc.returncode == 0
    news = proc.stdout.split("  Your only option: ")[1].split("\n")
    assert news[0].endswith("(Play a card to the trick)") and news[1].startswith("  P1 (human) plays ")


def test_options_of_no_card_keep_the_order_of_the_rules():
    game = at_p1("railways")
    pv = view(game, 1)
    assert option_order(pv) == list(range(pv.option_count))


def test_info_of_a_misspelt_name_suggests_the_card_meant_among_those_the_person_sees():
    game = at_p1("trick_of_the_rails")
    _, out = ask(game, "i ERIE Statoin\n1\n")
    assert "No card you can see is called 'ERIE Statoin' (did you mean 'ERIE Station'?)." in out


def test_a_table_counter_leaves_out_its_empty_texts_and_an_empty_one_is_not_shown():
    """'railroads: P1 (human): , P2 (mcts): ' said nothing twice."""
    from engine.game.view import counter_text
    assert counter_text({"P1 (human)": "", "P2 (mcts)": "MA-VI(1)"}) == "P2 (mcts): MA-VI(1)"
    assert counter_text({"P1": "", "P2": ""}) == ""
    assert counter_text({"P1": 0, "P2": []}) == "P1: 0, P2: -"  # numbers and lists still say something


def test_a_long_line_is_cut_at_spaces_not_inside_a_hyphenated_name():
    from engine.players.screen import wrap
    lines = wrap("railroads " + ", ".join(["MA-VI(1)", "PIT-CLE(12)", "NYC-PHI(3)"] * 4), 40)
    assert all(len(line) <= 40 for line in lines)
    assert not any(line.rstrip().endswith("-") for line in lines)


def railways_build():
    """A Railways game at P1's first action, with $20,000, building track from Ashby: a
    decision whose options are routes (lists of hexes of the map) and single hexes."""
    from conftest import pick
    from test_railways import act, everybody_passes_auction, new_game as railways_game
    game = railways_game(2, money={1: 20000})
    everybody_passes_auction(game)
    act(game, 1, "build track")
    pick(game, "Ashby")
    return game


def test_a_decision_among_places_shows_their_board_above_the_options_at_80_columns():
    game = railways_build()
    pv = view(game, 1, NAMES)
    labels = [pv.decision["options"][i] for i in option_order(pv)]
    earlier, screen = decision_screen(pv, [], labels, 80, 24)
    text = [line.text for line in screen]
    assert earlier == [] and len(screen) + 1 <= 24 and all(len(t) <= 80 for t in text)
    # The map is drawn whole (it fits), above the options; the map's rows are on the screen.
    top = text.index("  [map]")
    assert text[top + 1].split()[:2] == ["ASp0", ".1"]
    assert any(t.startswith("  legend: ") for t in text)
    # Routes are named by the ids the map shows, and so are single hexes: 1>2>BA, 6>KI, 1.
    # (12 options in 3 columns: with the rules' labels, one a line, the map would not fit.)
    options = text[next(i for i, t in enumerate(text) if t.startswith("-- Track from Ashby")):]
    assert top < len(text) - len(options)
    cells = " ".join(options)
    for name in ("1. 1>2>BA", "2. 6>KI", "11. 1", "12. 6"):
        assert name in cells
    # What the options stand for is unchanged: the referee still reads them as the rules label them.
    assert pv.decision["options"][0] == "hex 1 (plains), hex 2 (plains), Bayfield"


def test_a_board_that_does_not_fit_shows_the_part_its_options_lie_on():
    from engine.players.screen import board_part
    game = railways_build()
    pv = view(game, 1, NAMES)
    art = pv.boards()["map"]
    # The routes from Ashby lie on rows 0 to 3 of the map: rows 0-4 with one either side (row
    # 0 is the first), or rows 0-3 alone, as the room allows; nothing when even that is too much.
    assert [line.text.split()[0] for line in board_part("map", art, [0, 3], 80, 7)[1:]] == \
        ["ASp0", ".6", "KIr0", ".17", ".23"]
    assert len(board_part("map", art, [0, 3], 80, 5)) == 5
    assert board_part("map", art, [0, 3], 80, 4) == []
    assert board_part("map", art, [0, 3], 80, None)[-1].text.startswith("    | track")

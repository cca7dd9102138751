"""`engine play` on a real pseudo-terminal of 80x24, read back through a terminal emulator:
at every decision the title, what happened since the person's last decision, their hand and
position, the options and the prompt are on one screen, and each command works there."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ROOT = Path(__file__).resolve().parent.parent
END = "Game over: t, log, i NAME, ? (Enter: leave): "
CONFIRM = "Go on? (Enter: yes, n: choose again): "
PROMPT = re.compile(r"Choose -?\d+-(\d+) \(\? for help\): |-- more \(.*?\): Enter, q to stop -- |"
                    + re.escape(END) + "|" + re.escape(CONFIRM))
COLUMNS, LINES = 80, 24


class Screen:
    """The game at a terminal of 80x24: typed into through pexpect, read through pyte."""

    def __init__(self, *args: str, plain: bool = False, cwd: Path = ROOT):
        self.screen = pyte.Screen(COLUMNS, LINES)
        self.stream = pyte.ByteStream(self.screen)
        argv = ["-m", "engine", "play", *args] + (["--plain"] if plain else [])
        self.child = pexpect.spawn(sys.executable, argv, cwd=str(cwd), dimensions=(LINES, COLUMNS),
                                   env={"PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"},
                                   timeout=60)
        self.raw = b""

    def wait(self) -> list[str]:
        """Wait for the next prompt (of a decision or of the pager), or the end; the screen."""
        index = self.child.expect([PROMPT, pexpect.EOF])
        self._feed()
        self.ended = index == 1
        return self.rows()

    def _feed(self) -> None:
        data = self.child.before + (self.child.after if isinstance(self.child.after, bytes) else b"")
        self.raw += data
        self.stream.feed(data)

    def rows(self) -> list[str]:
        """The rows of the screen down to the last one written (a screen may be short)."""
        rows = [row.rstrip() for row in self.screen.display]
        while rows and not rows[-1]:
            rows.pop()
        return rows

    def type(self, text: str) -> list[str]:
        self.child.sendline(text)
        return self.wait()

    def close(self) -> None:
        self.child.close(force=True)


def at_a_decision(rows: list[str]) -> bool:
    return bool(re.match(r"Choose -?\d+-\d+ \(\? for help\):", rows[-1]))


def check_one_screen(rows: list[str]) -> None:
    """What a person needs is on the screen at once: nothing has scrolled off the top. (Only
    options that fill the screen push its top, and the news, onto pages before it.)"""
    text = "\n".join(rows)
    first, last = map(int, re.match(r"Choose (-?\d+)-(\d+)", rows[-1]).groups())
    if rows[-2].strip().startswith("type a number"):  # an amount: the range, not a list, is shown
        assert rows[-2].strip() == f"type a number from {first} to {last}", text
    else:
        options = " ".join(rows[next(i for i, r in enumerate(rows) if re.match(r"\s+1\. ", r)):])
        for i in range(1, last + 1):
            assert re.search(rf"(^|\s){i}\. ", options), f"option {i} is not on the screen:\n{text}"
    assert all(len(r) <= COLUMNS for r in rows)
    if rows[0].startswith("== "):
        assert "you are P1 (human)" in rows[0], text
        assert any(r.startswith("-- since your last decision") or r.startswith("-- nothing new") for r in rows), text
        assert "-- yours --" in rows, text
    else:  # options that fill the screen, all of it theirs
        assert len(rows) == LINES and not any(r.startswith("-- since your last") for r in rows), text


def at_the_end(rows: list[str]) -> bool:
    return rows[-1] == END.rstrip()


def play_through(screen: Screen, decisions: int, stay: bool = False) -> int:
    """Choose option 1 at up to `decisions` decisions (Enter at the pager), checking each
    screen, go on where a forced chain is shown first, and leave at the end prompt (unless
    `stay`); how many were taken."""
    rows, taken = screen.wait(), 0
    while not screen.ended and taken < decisions:
        if at_a_decision(rows):
            check_one_screen(rows)
            rows, taken = screen.type("1"), taken + 1
        elif rows[-1] == CONFIRM.rstrip():  # a forced chain that takes a card: go on
            rows = screen.type("")
        elif at_the_end(rows):
            if stay:
                break
            rows = screen.type("")
        else:
            assert rows[-1].startswith("-- more"), "\n".join(rows)
            rows = screen.type("")
    return taken


GAMES = [("trick_of_the_rails", "4"), ("railways", "3"), ("isle_of_trains", "3"), ("trainsilvania", "4")]


@pytest.mark.parametrize("ruleset,players", GAMES)
def test_every_screen_of_a_game_fits_80x24(ruleset, players):
    screen = Screen(ruleset, "--players", players, "--seats", ",".join(["human"] + ["random"] * (int(players) - 1)),
                    "--seed", "5")
    try:
        taken = play_through(screen, 60)
        assert taken == 60 or (screen.ended and b"Final scores" in screen.raw)
    finally:
        screen.close()


def test_a_whole_game_at_80x24_ends_with_the_scores():
    screen = Screen("trick_of_the_rails", "--players", "3", "--seats", "human,random,random", "--seed", "2")
    try:
        play_through(screen, 1000)
        assert screen.ended and b"Final scores" in screen.raw
    finally:
        screen.close()


def test_after_the_end_the_table_the_log_and_the_cards_still_answer_and_enter_leaves():
    screen = Screen("trick_of_the_rails", "--players", "3", "--seats", "human,random,random", "--seed", "1")
    try:
        play_through(screen, 1000, stay=True)
        rows = screen.rows()
        text = "\n".join(rows)
        assert at_the_end(rows) and not screen.ended and all(len(r) <= COLUMNS for r in rows)
        # The results with how they were counted, under what fits of the final table: the railways
        # a share's value is counted from, and the locomotives where there is room.
        assert "-- the table at the end --" in rows and "  railway B&O:" in text and "-- yours --" in rows
        assert "How each part is counted:" in rows and "minus the" in text and rows[-2] == "Seed: 1"
        assert any(r.startswith("Winner(s): ") for r in rows)
        rows = screen.type("t")  # the whole table, a page at a time: the locomotives are on it
        while not at_the_end(rows):
            assert rows[-1].startswith("-- more"), "\n".join(rows)
            rows = screen.type("")
        assert all(f"locomotive {co}:" in screen.raw.decode() for co in ("B&O", "C&O", "ERIE", "NYC", "PRR"))
        rows = screen.type("log")
        while not at_the_end(rows):
            rows = screen.type("")
        assert "wins the trick" in "\n".join(rows)
        rows = screen.type("i B&O Station")
        assert "B&O Station" in rows[-3:-1] or any(r == "B&O Station" for r in rows), "\n".join(rows)
        rows = screen.type("next")
        assert rows[-2] == "'next' is not a command here; ? for help, Enter to leave."
        screen.type("")
        assert screen.ended and screen.child.wait() == 0
    finally:
        screen.close()


def test_the_first_screen_shows_the_hand_the_prompt_and_the_last_events():
    from engine.game.game import Game
    from engine.game.view import view
    from engine.players.agents import make_agents
    from engine.rules.ruleset import load_ruleset
    rules = load_ruleset(ROOT / "rulesets" / "trick_of_the_rails.yaml")
    game = Game(rules, 4, rules.resolve_options({}, 4), 7)
    bots = make_agents(["human", "random", "random", "random"], 7, make_human=lambda: None)
    while game.pending.player != 1:
        game.apply(bots[game.pending.player - 1].choose(view(game, game.pending.player)))
    pv = view(game, 1, {1: "P1 (human)", 2: "P2 (random)", 3: "P3 (random)", 4: "P4 (random)"})
    hand = next(z for z in pv.zones() if z["mine"] and z["name"] == "hand")
    screen = Screen("trick_of_the_rails", "--players", "4", "--seats", "human,random,random,random", "--seed", "7")
    try:
        rows = screen.wait()
        check_one_screen(rows)
        text = " ".join(" ".join(rows).split())
        assert all(c["label"] in text for c in hand["cards"])
        assert pv.log()[-1] in text
        assert pv.decision["prompt"] in text
    finally:
        screen.close()


@pytest.fixture
def railways():
    screen = Screen("railways", "--players", "3", "--seats", "human,random,random", "--seed", "5")
    rows = screen.wait()
    while not at_a_decision(rows):
        rows = screen.type("")
    yield screen
    screen.close()


def test_help_lists_the_commands(railways):
    rows = railways.type("?")
    text = "\n".join(rows)
    for command in ("i N, i NAME", "log", "t ", "u ", "s [FILE]", "q ", "? "):
        assert command in text, text
    # first how to win, in the ruleset's words (game: goal:), wrapped to the screen
    from engine.rules.ruleset import load_ruleset
    goal = load_ruleset(ROOT / "rulesets" / "railways.yaml").goal
    told = " ".join(r.strip() for r in rows[rows.index(next(r for r in rows if r.startswith("How to win: "))):])
    assert told.startswith(f"How to win: {goal} Type the number"), text


def test_info_shows_what_a_card_says(railways):
    rows = railways.type("t")
    table = []
    while not at_a_decision(rows):
        table += rows
        rows = railways.type("")
    table += rows
    event = next(re.search(r"Future Event:\s+(.+)", r).group(1) for r in table if "Future Event:" in r)
    rows = railways.type(f"i {event.lower()}")
    text = "\n".join(rows)
    told = rows[rows.index(event):]  # its label, then the words printed on it, then its figures
    assert len(told) > 3 and told[1].startswith("  ") and ":" not in told[1][:24], text
    assert told[-3].startswith("  kind:") and told[-2].startswith("  future:"), text


def test_the_table_and_the_log_are_paged(railways):
    rows = railways.type("t")
    assert rows[-1].startswith("-- more"), "\n".join(rows)
    assert any("[map]" in r for r in rows) or any("goods" in r for r in rows)
    while not at_a_decision(rows):
        rows = railways.type("")
    rows = railways.type("log")
    assert any("is turned face up" in r for r in rows), "\n".join(rows)
    rows = railways.type("r")
    check_one_screen(rows)


def test_save_at_a_prompt_then_go_on(railways, tmp_path):
    save = tmp_path / "mid.json"
    rows = railways.type(f"s {save}")
    assert "Saved to" in " ".join(rows), "\n".join(rows)
    assert json.loads(save.read_text())["decisions"] is not None
    check_one_screen(rows)  # the game goes on at the same decision


def test_undo_and_quit(railways):
    rows = railways.type("1")
    while not at_a_decision(rows):
        rows = railways.type("")
    rows = railways.type("u")
    assert any("Took back your last decision" in r or "Undo refused" in r for r in rows), "\n".join(rows)
    railways.child.sendline("q")
    railways.child.expect("Game stopped.")
    railways.child.expect("File name")
    railways.child.sendline("")
    railways.child.expect(pexpect.EOF)


def test_plain_has_no_colour_and_rich_has_some():
    plain = Screen("trainsilvania", "--players", "4", "--seats", "human,random,random,random", "--seed", "5",
                   plain=True)
    rich = Screen("trainsilvania", "--players", "4", "--seats", "human,random,random,random", "--seed", "5")
    try:
        plain.wait()
        rich.wait()
        colour = re.compile(rb"\x1b\[[0-9;]*m")
        assert not colour.search(plain.raw)
        pytest.importorskip("rich")
        assert colour.search(rich.raw)
        assert plain.rows() == rich.rows()
    finally:
        plain.close()
        rich.close()


def test_a_forced_chain_that_takes_a_card_of_yours_is_shown_first_with_a_way_back(tmp_path):
    """Isle of Trains, seed 1, after 9 random decisions: P2 may Take or Build, has no card in
    hand to build and one car, a Hopper-2 Car. Build can then only remove cars, and with one car the
    rules choose both for P2: the terminal says so before it happens, and n goes back."""
    import random

    from engine.game.game import Game
    from engine.game.saves import write_save
    from engine.rules.ruleset import load_ruleset
    rs = load_ruleset(ROOT / "rulesets" / "isle_of_trains.yaml")
    game, rng = Game(rs, 2, rs.resolve_options({"round_limit": "40"}, 2), 1), random.Random(1)
    while len(game.decisions) < 9:
        game.apply(rng.randrange(len(game.legal_actions())))
    save = tmp_path / "isle.json"
    write_save(game, save, ["random", "human"])
    screen = Screen("--resume", str(save), "--seats", "random,human")
    try:
        rows = screen.wait()
        while not at_a_decision(rows):
            rows = screen.type("")
        assert re.search(r"Action 2 of 2.*\n  1\. Take +2\. Build\n", "\n".join(rows)), "\n".join(rows)
        screen.child.sendline("2")
        screen.child.expect(re.escape(CONFIRM))
        screen._feed()
        text = "\n".join(screen.rows())
        assert "Build leads to choices with one option each, made for you:" in text
        assert "Your only option: Hopper-2 Car (cost 4, oil) (Remove which car" in text
        assert "You would lose Hopper-2 Car (cost 4, oil)." in text
        rows = screen.type("n")  # the way back: the same decision, nothing taken
        assert rows[-2] == "Not taken; choose again (? for help)." and at_a_decision(rows)
        rows = screen.type("t")
        while not at_a_decision(rows):
            rows = screen.type("")
        assert "Hopper-2 Car" in screen.raw.decode().rsplit("Not taken", 1)[1]  # still on the train
        screen.child.sendline("2")
        screen.child.expect(re.escape(CONFIRM))
        screen._feed()
        rows = screen.type("")  # yes: the chain runs
        while not (at_a_decision(rows) or at_the_end(rows)):
            rows = screen.type("")
        assert "P2 (human) removes Hopper-2 Car (cost 4, oil) from their train" in screen.raw.decode()
    finally:
        screen.close()


def test_at_a_hot_seat_the_log_still_answers_after_the_end():
    """Two people at one terminal: after the final screen, what all may see (the log, the
    table) still answers, until Enter."""
    child = pexpect.spawn(sys.executable, ["-m", "engine", "play", "tests/fixtures/tiny.yaml", "--seats", "human,human",
                                           "--seed", "4", "--plain"], cwd=str(ROOT), dimensions=(LINES, COLUMNS),
                          env={"PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "LANG": "C.UTF-8"}, timeout=60)
    try:
        while child.expect([r"Pass to P\d and press Enter \(q to quit\): ", PROMPT.pattern]) == 0 or \
                child.after.decode() != END:
            child.sendline("" if child.after.decode().startswith("Pass to") else "1")
        assert b"Final scores" in child.before and b"hand P1" in child.before
        child.sendline("log")
        child.expect(re.escape(END))
        assert b"P2 (human) plays Amber" in child.before
        child.sendline("")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        child.close(force=True)


@pytest.fixture
def paged():
    """Railways, 3 players, seed 5, after 4 decisions of option 1: the news of the next
    decision does not fit its screen and is paged first, at a "more" prompt."""
    screen = Screen("railways", "--players", "3", "--seats", "human,random,random", "--seed", "5")
    rows = screen.wait()
    for _ in range(4):
        assert at_a_decision(rows), "\n".join(rows)
        rows = screen.type("1")
    assert rows[-1].startswith("-- more"), "\n".join(rows)
    yield screen
    screen.close()


def test_undo_typed_at_the_pager_is_done(paged):
    paged.child.sendline("u")
    paged.child.expect("Took back your last decision|Undo refused")  # said at once: a timeout fails it
    paged._feed()
    rows = paged.wait()
    assert at_a_decision(rows), "\n".join(rows)


def test_a_save_typed_at_the_pager_is_done_and_said_at_once(paged, tmp_path):
    save = tmp_path / "paged.json"
    paged.child.sendline(f"s {save}")
    paged.child.expect("Saved to")  # no other Enter before it is said
    paged._feed()
    rows = paged.wait()
    assert at_a_decision(rows) and save.is_file(), "\n".join(rows)
    assert "Saved to" in " ".join(rows), "\n".join(rows)
    check_one_screen(rows)


def test_an_option_typed_at_the_pager_is_taken(paged):
    paged.child.sendline("6")  # pass
    paged.child.expect(r"Choose 1-6 \(\? for help\): 6\r?\n")  # answered as if at the prompt
    paged._feed()
    rows = paged.wait()
    assert rows[-1].startswith("-- more") or at_a_decision(rows), "\n".join(rows)
    assert "P1 (human) passes" in paged.raw.decode(), paged.raw.decode()[-2000:]


def test_a_save_after_paged_news_is_said_at_once(paged, tmp_path):
    rows = paged.type("")
    while not at_a_decision(rows):
        rows = paged.type("")
    save = tmp_path / "after.json"
    rows = paged.type(f"s {save}")
    assert at_a_decision(rows) and "Saved to" in " ".join(rows), "\n".join(rows)
    check_one_screen(rows)


def test_face_down_cards_show_what_their_backs_show():
    """Trainsilvania: a seat's back shows its colour, which the log tells ("a face-down yellow
    seat"): the screen says it too, not only how many seats are face down."""
    screen = Screen("trainsilvania", "--players", "3", "--seats", "human,random,random", "--seed", "5")
    try:
        rows = screen.wait()
        text = " ".join(" ".join(rows).split())
        assert re.search(r"\d face-down \((red|yellow|green) seat", text), "\n".join(rows)
        assert not re.search(r"\d face-down(,|$)", text), "\n".join(rows)
    finally:
        screen.close()


def test_the_zones_a_decision_is_about_come_first():
    """Trick of the Rails at 80x24: the table a decision is about is at the top of its screen,
    before the rest: the Trick Lane when a card is played to the trick (what the trick is
    for), the railway whose end is chosen (the one being extended)."""
    screen = Screen("trick_of_the_rails", "--players", "4", "--seats", "human,random,random,random", "--seed", "7")
    seen = set()
    try:
        rows = screen.wait()
        while not screen.ended and not at_the_end(rows) and seen != {"trick", "end"}:
            if at_a_decision(rows):
                prompt = next(r for r in reversed(rows) if r.startswith("-- "))
                end = re.search(r"Which end of the (\S+) railway", prompt)
                if end:
                    assert rows[1] == f"  railway {end.group(1)}:".ljust(24) + rows[1][24:], "\n".join(rows)
                    seen.add("end")
                elif prompt == "-- Play a card to the trick --":
                    assert rows[1].startswith("  Trick Lane:"), "\n".join(rows)
                    seen.add("trick")
                rows = screen.type("1")
            else:
                rows = screen.type("")
        assert seen == {"trick", "end"}, "the game met no such decision: the test could not fail"
    finally:
        screen.close()

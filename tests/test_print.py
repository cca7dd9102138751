"""`engine print`: card sheets read back from the PDF (pages, page size, what is on them)."""
from __future__ import annotations

import math

import pytest

from engine.cli import main

pypdf = pytest.importorskip("pypdf", reason="the print extra (fpdf2, pypdf) is not installed")
pytest.importorskip("fpdf", reason="the print extra (fpdf2) is not installed")

A4 = (595.28, 841.89)  # points
LETTER = (612.0, 792.0)


def pages(path) -> list:
    return pypdf.PdfReader(str(path)).pages


def size(page) -> tuple[float, float]:
    return float(page.mediabox.width), float(page.mediabox.height)


def close(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return all(math.isclose(x, y, abs_tol=0.6) for x, y in zip(a, b))


def test_the_railways_event_cards_print_nine_to_an_a4_page(tmp_path, capsys):
    out = tmp_path / "events.pdf"
    assert main(["print", "railways", "--kind", "event", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "33 card(s) on 4 page(s)" in said and "3 by 3 a page" in said
    read = pages(out)
    assert len(read) == 4 and all(close(size(p), A4) for p in read)
    assert "Misfortune" in "".join(p.extract_text() for p in read)


def test_backs_follow_each_page_of_faces_on_letter(tmp_path, capsys):
    out = tmp_path / "events.pdf"
    assert main(["print", "railways", "--kind", "event", "--backs", "--paper", "letter", "--out", str(out)]) == 0
    read = pages(out)
    assert len(read) == 8 and all(close(size(p), LETTER) for p in read)
    faces, backs = read[0].extract_text(), read[1].extract_text()
    assert "Bailout Plan" in faces and "Bailout Plan" not in backs and backs.count("Event") == 9


def test_cards_are_chosen_by_name_and_smaller_cards_fit_more_to_a_page(tmp_path, capsys):
    out = tmp_path / "two.pdf"
    assert main(["print", "trick_of_the_rails", "--card", "B&O 3", "--card", "prr 10", "--out", str(out)]) == 0
    assert "2 card(s) on 1 page(s)" in capsys.readouterr().out and len(pages(out)) == 1
    small = tmp_path / "tickets.pdf"
    assert main(["print", "trainsilvania", "--out", str(small)]) == 0
    assert "52 card(s) on 4 page(s)" in capsys.readouterr().out  # 44x68 mm: 16 to a page
    assert len(pages(small)) == 4


def test_only_the_cards_an_extension_adds_or_changes(tmp_path, capsys):
    out = tmp_path / "mine.pdf"
    assert main(["print", "railways", "--with", "my_events", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    count = int(said.split(": ")[1].split(" card")[0])
    from engine import load_ruleset
    base = {(c.kind, c.name, c.face) for c in load_ruleset("railways").cards}
    assert count == sum(1 for c in load_ruleset("railways", ["my_events"]).cards
                        if (c.kind, c.name, c.face) not in base) and 0 < count < 33


@pytest.mark.parametrize("args, said", [
    (["--kind", "evnt"], "no card kind 'evnt' in Railways of the World (core) (did you mean 'event'?)"),
    (["--card", "Misfortun"], "no card 'Misfortun' in Railways of the World (core) (did you mean 'Misfortune'?)"),
])
def test_a_wrong_choice_of_cards_is_one_line_with_a_suggestion(tmp_path, capsys, args, said):
    out = tmp_path / "x.pdf"
    assert main(["print", "railways", *args, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1 and not out.exists()


def test_a_pdf_that_cannot_be_written_is_one_line(tmp_path, capsys):
    assert main(["print", "railways", "--kind", "operation", "--out", str(tmp_path / "no" / "such" / "x.pdf")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("engine: cannot write") and len(err.strip().splitlines()) == 1

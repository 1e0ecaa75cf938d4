"""``hkk print``: the print-and-play sheets as a person prints them - the layout the PDF is drawn
from (3 x 3 cards of 63 x 88 mm with 3 mm bleed on A4, cut marks on every trim line and across
no card, backs mirrored for long-edge duplex), the PDF's pages and page boxes, and the pages
turned into pictures (pdftoppm) and text (pdftotext) where the layout says the cards are.

The tests that run CairoSVG or poppler are skipped without them, with the reason, unless
``HKK_REQUIRE_BROWSER=1`` (CI, which installs them).
"""

from __future__ import annotations

import base64
import math
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from hkk._card_image import BLEED, CARD_HEIGHT, CARD_WIDTH, inner_svg, printed_text, svg_to_png
from hkk._cli_output import _discover
from hkk._print_sheet import A4, layout, write_pdf
from hkk.cli import main

from print_tools import cairo_present, needs

MM_PER_PT = 25.4 / 72


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y = point
    bx, by, w, h = box
    return bx < x < bx + w and by < y < by + h


# -- the layout -----------------------------------------------------------------------------------

def test_a_page_holds_three_by_three_cards_of_63_by_88_mm_with_3_mm_bleed() -> None:
    (page,) = layout(9)
    assert [(s.column, s.row) for s in page.slots] == [(c, r) for r in range(3) for c in range(3)]
    for slot in page.slots:
        x, y, w, h = slot.trim_box
        assert (w, h) == (CARD_WIDTH, CARD_HEIGHT) == (63, 88)
        bx, by, bw, bh = slot.bleed_box
        assert (x - bx, y - by, bw - w, bh - h) == (BLEED, BLEED, 2 * BLEED, 2 * BLEED) == (3, 3, 6, 6)
        assert 0 <= bx and bx + bw <= A4[0] and 0 <= by and by + bh <= A4[1]
    # the grid stands in the middle of the page: even margins, so that a back lies behind it
    left = min(s.bleed_box[0] for s in page.slots)
    right = A4[0] - max(s.bleed_box[0] + s.bleed_box[2] for s in page.slots)
    top = min(s.bleed_box[1] for s in page.slots)
    bottom = A4[1] - max(s.bleed_box[1] + s.bleed_box[3] for s in page.slots)
    assert left == pytest.approx(right) and top == pytest.approx(bottom)
    # no two cards' bleed boxes overlap
    for a in page.slots:
        for b in page.slots:
            if a is not b:
                ax, ay, aw, ah = a.bleed_box
                bx, by, bw, bh = b.bleed_box
                assert ax + aw <= bx + 1e-9 or bx + bw <= ax + 1e-9 or ay + ah <= by + 1e-9 \
                    or by + bh <= ay + 1e-9


def test_nine_cards_a_page_in_reading_order_the_last_page_partly_filled() -> None:
    pages = layout(53)
    assert len(pages) == 6
    assert [s.card for p in pages for s in p.slots] == list(range(53))
    assert len(pages[-1].slots) == 8
    assert layout(0) == []


def test_cut_marks_lie_on_every_trim_line_and_stop_half_a_millimetre_from_any_card() -> None:
    (page,) = layout(9)
    xs = {round(x + dx, 6) for s in page.slots for x in (s.trim_box[0],)
          for dx in (0, CARD_WIDTH)}
    ys = {round(y + dy, 6) for s in page.slots for y in (s.trim_box[1],)
          for dy in (0, CARD_HEIGHT)}
    vertical = {round(a[0], 6) for a, b in page.cut_marks if a[0] == b[0]}
    horizontal = {round(a[1], 6) for a, b in page.cut_marks if a[1] == b[1]}
    assert vertical == xs and horizontal == ys and len(xs) == len(ys) == 6
    for start, end in page.cut_marks:
        for t in (i / 20 for i in range(21)):  # along the mark
            point = (start[0] + t * (end[0] - start[0]), start[1] + t * (end[1] - start[1]))
            assert 0 <= point[0] <= A4[0] and 0 <= point[1] <= A4[1]
            for slot in page.slots:
                x, y, w, h = slot.trim_box
                grown = (x - 0.5 + 1e-6, y - 0.5 + 1e-6, w + 1 - 2e-6, h + 1 - 2e-6)
                assert not _inside(point, grown), (start, end, slot)
    # every strip cut away between two columns (or at a side) carries a mark of each horizontal
    # line, and every band between two rows (or above, below) one of each vertical line: the
    # marks docs/PRINT.md tells a person to cut along once the first cuts are made
    columns = [0.0, *sorted(xs), A4[0]]
    rows = [0.0, *sorted(ys), A4[1]]
    for left, right in zip(columns[::2], columns[1::2], strict=True):
        for y in ys:
            assert any(a[1] == b[1] == pytest.approx(y) and left <= a[0] < b[0] <= right
                       for a, b in page.cut_marks), (left, right, y)
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        for x in xs:
            assert any(a[0] == b[0] == pytest.approx(x) and top <= a[1] < b[1] <= bottom
                       for a, b in page.cut_marks), (top, bottom, x)


def test_backs_are_mirrored_for_long_edge_duplex() -> None:
    pages = layout(14, backs=True)
    assert [p.side for p in pages] == ["front", "back", "front", "back"]
    for front, back in (pages[0:2], pages[2:4]):
        assert back.cut_marks == ()
        assert sorted(s.card for s in back.slots) == sorted(s.card for s in front.slots)
        behind = {s.card: s for s in back.slots}
        for slot in front.slots:
            # turned over its long (vertical) edge, a point x on the back is at A4 width - x
            x, y, w, h = behind[slot.card].trim_box
            assert (A4[0] - x - w, y) == pytest.approx(slot.trim_box[:2])
    # the fifth card of the second page stands in column 1, row 1: behind it, column 1 too;
    # the second page's first card, column 0, is backed in column 2
    second_back = {s.card: (s.column, s.row) for s in pages[3].slots}
    assert second_back[9] == (2, 0) and second_back[13] == (1, 1)


# -- the PDF --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def found() -> Any:
    return _discover()


def _pdf_pages(path: Path) -> list[Any]:
    from pypdf import PdfReader

    return list(PdfReader(path).pages)


@pytest.fixture(scope="module")
def alap_pdf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``hkk print alap``'s PDF and what it said (printed once for the tests that read it)."""
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    pdf = tmp_path_factory.mktemp("print") / "alap.pdf"
    result = CliRunner().invoke(main, ["print", "alap", "-o", str(pdf)])
    assert result.exit_code == 0, result.output
    return pdf, result.output


def test_hkk_print_alap_writes_a_pdf_of_a4_pages_nine_cards_each(
        alap_pdf: tuple[Path, str], found: Any) -> None:
    pdf, output = alap_pdf
    cards = len(found.sets["alap"].cards)
    pages = _pdf_pages(pdf)
    assert len(pages) == math.ceil(cards / 9) == 6
    for page in pages:
        box = page.mediabox
        assert (float(box.left), float(box.bottom)) == (0, 0)
        assert float(box.width) * MM_PER_PT == pytest.approx(210, abs=0.01)  # A4
        assert float(box.height) * MM_PER_PT == pytest.approx(297, abs=0.01)
        assert page.cropbox == box
    assert f"{cards} cards on 6 page(s)" in output


def test_hkk_print_a_deck_with_backs_prints_each_copy_and_a_back_page_after_each(
        tmp_path: Path, found: Any) -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    pdf = tmp_path / "tuz.pdf"
    result = CliRunner().invoke(main, ["print", "alap", "--deck", "tuz", "--backs", "-o",
                                       str(pdf)])
    assert result.exit_code == 0, result.output
    copies = sum(found.decks["alap:tuz"].cards.values())
    assert copies == 30
    assert len(_pdf_pages(pdf)) == 2 * math.ceil(copies / 9) == 8


# -- the pages as a person sees them ----------------------------------------------------------------

def _poppler() -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    needs("pdftoppm and pdftotext (apt-get install poppler-utils)",
          shutil.which("pdftoppm") is not None and shutil.which("pdftotext") is not None)


DPI = 100


def _px(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def test_printed_pages_show_each_card_where_the_layout_puts_it(
        tmp_path: Path, alap_pdf: tuple[Path, str]) -> None:
    """The last page of the set's sheet, turned into a picture: the frame of each card in
    its bleed box, paper where no card is, and the cut marks in the margins."""
    _poppler()
    from PIL import Image

    pdf = alap_pdf[0]
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-f", "6", "-l", "6", str(pdf),
                    str(tmp_path / "page")], check=True)
    (png,) = tmp_path.glob("page*.png")
    image = Image.open(png).convert("RGB")
    assert abs(image.size[0] - _px(A4[0])) <= 1 and abs(image.size[1] - _px(A4[1])) <= 1
    page = layout(53)[-1]
    white = (255, 255, 255)
    for slot in page.slots:  # the bleed, 1.5 mm in from each side, is the card's frame
        x, y, w, h = slot.bleed_box
        for px, py in ((x + 1.5, y + h / 2), (x + w - 1.5, y + h / 2), (x + w / 2, y + 1.5),
                       (x + w / 2, y + h - 1.5)):
            assert image.getpixel((_px(px), _px(py))) != white, (slot, px, py)
    x, y, w, h = layout(9)[0].slots[8].bleed_box  # the ninth place: no card on this page
    assert image.getpixel((_px(x + w / 2), _px(y + h / 2))) == white
    # a cut mark in the top margin, on the first card's left trim line, dark on the paper
    trim_x = page.slots[0].trim_box[0]
    assert min(sum(image.getpixel((_px(trim_x) + dx, _px(3)))) for dx in (-1, 0, 1)) < 200
    assert image.getpixel((_px(trim_x) + 8, _px(3))) == white


def test_printed_text_on_the_page_is_each_cards_generated_text(tmp_path: Path,
                                                               found: Any) -> None:
    """What pdftotext reads in each card's text box is the text its data generates."""
    _poppler()
    cards = found.sets["alap"].cards[:9]
    pdf = tmp_path / "nine.pdf"
    write_pdf(layout(9), [inner_svg(card) for card in cards], str(pdf))
    for slot in layout(9)[0].slots:
        x, y, _, _ = slot.trim_box
        crop = [str(v) for v in (_px(x + 3.5), _px(y + 57), _px(56), _px(23))]
        read = subprocess.run(["pdftotext", "-r", str(DPI), "-x", crop[0], "-y", crop[1],
                               "-W", crop[2], "-H", crop[3], str(pdf), "-"],
                              capture_output=True, text=True, check=True).stdout
        card = cards[slot.card]  # the rules text, then any flavour text
        assert " ".join(read.split()) == " ".join(f"{printed_text(card)} {card.flavor}".split())
        name = subprocess.run(["pdftotext", "-r", str(DPI), "-x", str(_px(x + 1)), "-y",
                               str(_px(y + 3)), "-W", str(_px(44)), "-H", str(_px(7)),
                               str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert name.strip() == card.name


# -- bad input ----------------------------------------------------------------------------------------

def _one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("command", [["print", "{code}", "-o", "{out}/x.pdf"],
                                     ["export", "{code}", "--to", "tts", "-o", "{out}"]])
def test_an_unknown_set_is_one_line_naming_it_and_exit_2(command: list[str],
                                                         tmp_path: Path) -> None:
    args = [a.format(code="nosuch", out=tmp_path) for a in command]
    line = _one_line_error(CliRunner().invoke(main, args))
    assert "'nosuch'" in line and "alap" in line


@pytest.mark.parametrize("command", [["print", "alap", "--deck", "nosuch", "-o", "{out}/x.pdf"],
                                     ["export", "alap", "--deck", "nosuch", "--to",
                                      "cockatrice", "-o", "{out}"]])
def test_an_unknown_deck_is_one_line_naming_it_and_the_sets_decks(command: list[str],
                                                                   tmp_path: Path) -> None:
    args = [a.format(out=tmp_path) for a in command]
    line = _one_line_error(CliRunner().invoke(main, args))
    assert "'nosuch'" in line and "tuz" in line and "viz" in line
    assert not (tmp_path / "x.pdf").exists()


def _with_art(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """The base set as installed, its package's art folder in ``folder``."""
    import hkk._print_cli as print_cli

    real = _discover()
    alap = replace(real.sets["alap"], root=folder)
    monkeypatch.setattr(print_cli, "_discover",
                        lambda: replace(real, sets={**real.sets, "alap": alap}))


@pytest.mark.parametrize("command", [["print", "alap", "-o", "{out}/x.pdf"],
                                     ["export", "alap", "--to", "tts", "-o", "{out}/tts"],
                                     ["gallery", "alap", "--out", "{out}/site"]])
def test_an_art_file_that_cannot_be_read_is_one_line_naming_it(
        command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "art").mkdir()
    bad = tmp_path / "art" / "langorzo.png"
    bad.write_bytes(b"GIF89a not a png")
    _with_art(monkeypatch, tmp_path)
    import hkk._print_cli as print_cli
    import hkk._simulate_cli as simulate_cli

    monkeypatch.setattr(simulate_cli, "_found", lambda codes: print_cli._discover())
    args = [a.format(out=tmp_path) for a in command]
    line = _one_line_error(CliRunner().invoke(main, args))
    assert str(bad) in line and "alap:langorzo" in line
    assert not (tmp_path / "x.pdf").exists()


def test_a_sets_art_file_is_printed_on_its_card(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _poppler()
    from PIL import Image

    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "tuzmano.png").write_bytes(svg_to_png(
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
        '<rect width="20" height="20" fill="#00ff00"/></svg>', width_px=20))
    _with_art(monkeypatch, tmp_path)
    pdf = tmp_path / "x.pdf"
    assert CliRunner().invoke(main, ["print", "alap", "--deck", "tuz", "-o",
                                     str(pdf)]).exit_code == 0
    subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-f", "1", "-l", "1", str(pdf),
                    str(tmp_path / "page")], check=True)
    image = Image.open(next(tmp_path.glob("page*.png"))).convert("RGB")
    slots = layout(9)[0].slots  # the deck's first two cards are Tűzmanó, then Gyilkos imp
    assert list(_discover().decks["alap:tuz"].cards.items())[:2] == [("alap:tuzmano", 2),
                                                                     ("alap:gyilkos-imp", 1)]
    for slot, art in zip(slots[:3], (True, True, False), strict=True):
        x, y, _, _ = slot.trim_box
        assert (image.getpixel((_px(x + 31.5), _px(y + 31.5))) == (0, 255, 0)) == art


def test_the_page_screenshot_in_docs_is_a_printed_page() -> None:
    shot = Path(__file__).parent.parent / "docs" / "print.png"
    assert shot.is_file() and shot.read_bytes().startswith(b"\x89PNG")
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert re.search(r"\]\(docs/print\.png\)", readme)


def test_without_the_print_extra_print_says_how_to_install_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if not installed
    line = _one_line_error(CliRunner().invoke(main, ["print", "alap", "-o",
                                                     str(tmp_path / "x.pdf")]))
    assert "pip install 'hkk[print]'" in line
    assert not (tmp_path / "x.pdf").exists()


def test_the_tables_zoom_and_the_deck_builder_draw_a_sets_art(tmp_path: Path) -> None:
    from hkk import Engine
    from hkk._serve import card_image
    from hkk._serve_decks import catalogue

    (tmp_path / "art").mkdir()
    art = svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4">'
                     '<rect width="4" height="4" fill="#00ff00"/></svg>', width_px=4)
    (tmp_path / "art" / "tuzmano.png").write_bytes(art)
    real = _discover()
    found = replace(real, sets={**real.sets, "alap": replace(real.sets["alap"], root=tmp_path)})
    engine = Engine(found.cards, decks=found.decks, pm=found.pm, discovery=found)
    embedded = base64.b64encode(art).decode()
    sets = SimpleNamespace(engine=engine)
    assert embedded in card_image(sets, "alap:tuzmano")["svg"]  # type: ignore[arg-type]
    assert embedded not in card_image(sets, "alap:gyilkos-imp")["svg"]  # type: ignore[arg-type]
    drawn = {c["id"]: c["svg"] for c in catalogue(engine)["cards"]}
    assert embedded in drawn["alap:tuzmano"] and embedded not in drawn["alap:gyilkos-imp"]

"""A card drawn from its data (hkk._card_image): the printed text is the one generated from the
data, every line fits the text box, the font's widths are those the lines are broken with, the
Hungarian accents are glyphs of the font, and a set's art file is drawn on its card (or named
in an error when it cannot be)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hkk._card_image import (
    _MEASURED,
    _TEXT_BOX,
    _WIDTHS,
    ArtError,
    art_for,
    card_svg,
    printed_text,
    svg_to_png,
    text_width,
    wrap,
)
from hkk._cards.printed import NoTemplate, card_text
from hkk._cli_output import _discover

from print_tools import cairo_present, needs

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def found() -> Any:
    return _discover()


def rules_lines(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    (rules,) = [t for t in root.iter(f"{SVG}text") if t.get("class") == "rules"]
    return [span.text or "" for span in rules.iter(f"{SVG}tspan")]


def test_each_card_image_prints_the_text_generated_from_its_data(found: Any) -> None:
    checked = 0
    for card in found.cards.values():
        try:
            expected = card_text(card)
        except NoTemplate:  # a set's Python effect: the card's own printed text
            expected = card.text
        shown = " ".join(rules_lines(card_svg(card)))
        assert shown == expected, card.id
        checked += 1
    assert checked == len(found.cards) > 50


def test_a_card_shows_its_name_cost_kind_set_and_stats(found: Any) -> None:
    card = found.cards["alap:sarkanyfioka"]  # a 3 VP creature, 4 damage, 3 Ép, 2 components
    root = ET.fromstring(card_svg(card))
    texts = {t.get("class"): "".join(t.itertext()) for t in root.iter(f"{SVG}text")
             if t.get("class")}
    assert texts["name"] == "Sárkányfióka"
    assert texts["cost"] == "3"
    assert texts["kind"] == "Lény"
    assert texts["set"] == "ALAP"
    stats = [" ".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "stat"]
    assert stats == ["4 sebzés", "3 Ép"]
    assert texts["yield"] == "2 SzK"


def test_every_line_of_every_card_fits_its_text_box(found: Any) -> None:
    x, y, width, height = _TEXT_BOX
    for card in found.cards.values():
        root = ET.fromstring(card_svg(card))
        for text in root.iter(f"{SVG}text"):
            if text.get("class") not in ("rules", "flavor"):
                continue
            size = float(text.get("font-size", "0"))
            for span in text.iter(f"{SVG}tspan"):
                assert text_width(span.text or "", size) <= width, (card.id, span.text)
                assert y < float(span.get("y", "0")) <= y + height, (card.id, span.text)


words = st.text(alphabet=st.sampled_from(_MEASURED.replace(" ", "") + "ŐŰ?"), min_size=1,
                max_size=12)


@given(st.lists(words, max_size=40), st.floats(1.8, 4.0), st.floats(20, 60))
def test_wrapping_keeps_every_word_in_order_and_no_line_too_wide(
        text: list[str], size: float, width: float) -> None:
    lines = wrap(" ".join(text), size, width)
    assert " ".join(lines) == " ".join(text)
    for line in lines:
        assert text_width(line, size) <= width or " " not in line


def test_font_widths_are_dejavu_sans_as_cairo_draws_it() -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    import cairocffi as cairo

    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, 1, 1)
    for bold in (False, True):
        context = cairo.Context(surface)
        context.select_font_face("DejaVu Sans", cairo.FONT_SLANT_NORMAL,
                                 cairo.FONT_WEIGHT_BOLD if bold else cairo.FONT_WEIGHT_NORMAL)
        context.set_font_size(1000)
        measured = {ch: round(context.text_extents(ch)[4]) for ch in _MEASURED}
        assert measured == _WIDTHS[bold]


def test_hungarian_accents_are_glyphs_of_the_font_not_boxes() -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    needs("fc-match (fontconfig)", shutil.which("fc-match") is not None)
    import subprocess

    import cairocffi as cairo

    chosen = subprocess.run(["fc-match", "DejaVu Sans"], capture_output=True, text=True,
                            check=True).stdout
    needs("the font DejaVu Sans (apt-get install fonts-dejavu-core)", "DejaVu" in chosen)
    context = cairo.Context(cairo.ImageSurface(cairo.FORMAT_ARGB32, 1, 1))
    context.select_font_face("DejaVu Sans")
    glyphs = context.get_scaled_font().text_to_glyphs(0, 0, "őűŐŰáé", False)
    assert all(index != 0 for index, _, _ in glyphs)  # glyph 0 is .notdef, the empty box


def _green_png() -> bytes:
    return svg_to_png('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30">'
                      '<rect width="40" height="30" fill="#00ff00"/></svg>', width_px=40)


def test_a_cards_art_file_is_drawn_in_its_art_box(found: Any, tmp_path: Path) -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    from PIL import Image

    card = found.cards["alap:tuzmano"]
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "tuzmano.png").write_bytes(_green_png())
    art = art_for(tmp_path, card)
    assert art is not None
    png = tmp_path / "card.png"
    png.write_bytes(svg_to_png(card_svg(card, art=art), width_px=630))  # 10 px a millimetre
    image = Image.open(png).convert("RGB")
    assert image.getpixel((315, 315)) == (0, 255, 0)  # the art box's middle, 31.5 x 31.5 mm
    assert image.getpixel((315, 700)) != (0, 255, 0)  # the text box


def test_a_card_without_art_has_none(found: Any, tmp_path: Path) -> None:
    assert art_for(tmp_path, found.cards["alap:tuzmano"]) is None
    assert "<image" not in card_svg(found.cards["alap:tuzmano"])


def test_an_art_file_that_is_not_a_png_is_an_error_naming_it(found: Any,
                                                              tmp_path: Path) -> None:
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "tuzmano.png").write_text("not an image")
    with pytest.raises(ArtError, match=re.escape(str(tmp_path / "art" / "tuzmano.png"))):
        art_for(tmp_path, found.cards["alap:tuzmano"])


def test_a_custom_effect_prints_the_cards_own_text(found: Any) -> None:
    card = found.cards["mereg:skorpio"]
    with pytest.raises(NoTemplate):
        card_text(card)
    assert printed_text(card) == card.text != ""

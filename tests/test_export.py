"""``hkk export``: a deck for Tabletop Simulator (a saved object with its deck sheet beside it)
and for Cockatrice (a version-4 card database in cards.xsd's order, the pictures, the deck)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from hkk._card_export import SHEET_COLUMNS, SHEET_ROWS, tts_object
from hkk._card_image import printed_text
from hkk._cli_output import _discover
from hkk.cli import main

from print_tools import cairo_present, needs


@pytest.fixture(scope="module")
def found() -> Any:
    return _discover()


def _export(*args: str) -> None:
    result = CliRunner().invoke(main, ["export", *args])
    assert result.exit_code == 0, result.output


def test_tts_export_is_a_saved_object_of_the_decks_cards_on_its_sheet(tmp_path: Path,
                                                                      found: Any) -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    from PIL import Image

    _export("alap", "--deck", "tuz", "--to", "tts", "-o", str(tmp_path))
    deck = found.decks["alap:tuz"]
    saved = json.loads((tmp_path / "alap-tuz.json").read_text(encoding="utf-8"))
    (obj,) = saved["ObjectStates"]
    assert obj["Name"] == "DeckCustom" and obj["Nickname"] == deck.title
    sheet = obj["CustomDeck"]["1"]
    assert list(obj["CustomDeck"]) == ["1"]
    distinct = list(deck.cards)
    rows = math.ceil(len(distinct) / SHEET_COLUMNS)
    assert (sheet["NumWidth"], sheet["NumHeight"]) == (SHEET_COLUMNS, rows) == (10, 3)
    assert sheet["BackIsHidden"] is True and sheet["UniqueBack"] is False
    # the images beside it, named by their paths
    face = Path.from_uri(sheet["FaceURL"]) if hasattr(Path, "from_uri") else \
        Path(sheet["FaceURL"].removeprefix("file://"))
    assert face == (tmp_path / "alap-tuz-sheet-1.png").resolve()
    assert Image.open(face).size == (SHEET_COLUMNS * 378, rows * 528)  # 6 px a mm
    # each card's place on the sheet shows it: its kind's frame, 1 mm in from its left edge
    from hkk._card_image import _FRAMES

    image = Image.open(face).convert("RGB")
    for place, card_id in enumerate(distinct):
        x, y = (place % SHEET_COLUMNS) * 378 + 6, (place // SHEET_COLUMNS) * 528 + 264
        frame = _FRAMES[found.cards[card_id].kind][0]
        assert image.getpixel((x, y)) == tuple(int(frame[i:i + 2], 16) for i in (1, 3, 5))
    assert sheet["BackURL"] == (tmp_path / "alap-tuz-back.png").resolve().as_uri()
    assert (tmp_path / "alap-tuz-back.png").is_file()
    # one card object a copy, its CardID its place on the sheet (sheet 1: 100 + place)
    cards = obj["ContainedObjects"]
    assert len(cards) == len(obj["DeckIDs"]) == sum(deck.cards.values()) == 30
    assert [c["CardID"] for c in cards] == obj["DeckIDs"]
    for card in cards:
        place = distinct.index(card["GMNotes"])
        definition = found.cards[card["GMNotes"]]
        assert card["CardID"] == 100 + place
        assert card["Name"] == "Card" and card["Nickname"] == definition.name
        assert card["Description"] == printed_text(definition)
        assert card["CustomDeck"] == {"1": sheet}
    assert {c["GMNotes"]: obj["DeckIDs"].count(c["CardID"]) for c in cards} == deck.cards
    assert len({c["GUID"] for c in cards} | {obj["GUID"]}) == len(cards) + 1


def test_tts_sheet_images_can_be_named_by_a_url(tmp_path: Path) -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    _export("alap", "--deck", "viz", "--to", "tts", "-o", str(tmp_path), "--image-url",
            "https://example.org/hkk/")
    (obj,) = json.loads((tmp_path / "alap-viz.json").read_text(encoding="utf-8"))["ObjectStates"]
    assert obj["CustomDeck"]["1"]["FaceURL"] == "https://example.org/hkk/alap-viz-sheet-1.png"
    assert obj["CustomDeck"]["1"]["BackURL"] == "https://example.org/hkk/alap-viz-back.png"


def test_tts_more_cards_than_a_sheet_holds_go_on_the_next_sheet(found: Any) -> None:
    card = found.cards["alap:tuzmano"]
    per_sheet = SHEET_COLUMNS * SHEET_ROWS - 1  # TTS keeps the last place for its hidden card
    cards = [(card, 1)] * (per_sheet + 2)
    obj = tts_object("big", "Big", cards, ["s1", "s2"], "back")["ObjectStates"][0]
    assert obj["DeckIDs"][per_sheet - 1] == 100 + per_sheet - 1
    assert obj["DeckIDs"][per_sheet:] == [200, 201]
    assert obj["CustomDeck"]["1"]["NumHeight"] == SHEET_ROWS
    assert obj["CustomDeck"]["2"]["NumHeight"] == 2  # TTS reads no sheet of fewer rows
    assert obj["ContainedObjects"][-1]["CustomDeck"] == {"2": obj["CustomDeck"]["2"]}


#: cards.xsd (Cockatrice, doc/carddatabase_v4): a card's elements and the order they must keep.
CARD_ORDER = ["name", "text", "prop", "set", "related", "reverse-related", "token", "tablerow",
              "cipt", "upsidedown"]


def _in_order(children: list[str], order: list[str]) -> bool:
    places = [order.index(tag) for tag in children]
    return places == sorted(places)


def test_cockatrice_export_is_a_version_4_card_database_in_the_schemas_order(
        tmp_path: Path, found: Any) -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    _export("mereg", "--deck", "mocsar", "--to", "cockatrice", "-o", str(tmp_path))
    deck = found.decks["mereg:mocsar"]
    root = ET.parse(tmp_path / "mereg-mocsar.xml").getroot()
    assert root.tag == "cockatrice_carddatabase" and root.get("version") == "4"
    assert [child.tag for child in root] == ["info", "sets", "cards"]
    sets = {s.findtext("name"): s.findtext("longname") for s in root.find("sets") or []}
    assert sets == {"mereg": "Méreg", "alap": "Alapkészlet"}  # the deck holds cards of both
    cards = root.find("cards")
    assert cards is not None
    assert [c.findtext("name") for c in cards] == [found.cards[i].name for i in deck.cards]
    rows = {"building": "1", "creature": "2", "spell": "3"}
    for entry in cards:
        tags = [child.tag for child in entry]
        assert set(tags) <= set(CARD_ORDER) and _in_order(tags, CARD_ORDER), tags
        card_set = entry.find("set")
        assert card_set is not None and card_set.text in sets
        card = found.cards[card_set.get("uuid", "")]
        assert entry.findtext("name") == card.name
        assert entry.findtext("text") == printed_text(card)
        assert entry.findtext("prop/manacost") == entry.findtext("prop/cmc") == str(card.cost.vp)
        assert entry.findtext("tablerow") == rows[card.kind]
        if card.kind == "creature":
            assert entry.findtext("prop/pt") == f"{card.damage}/{card.hp}"
        if card.kind == "building":
            assert entry.findtext("prop/loyalty") == str(card.sp)
        assert (tmp_path / "pics" / "CUSTOM" / f"{card.name}.png").read_bytes().startswith(
            b"\x89PNG")
    cod = ET.parse(tmp_path / "mereg-mocsar.cod").getroot()
    assert cod.tag == "cockatrice_deck" and cod.findtext("deckname") == deck.title
    zone = cod.find("zone")
    assert zone is not None and zone.get("name") == "main"
    assert {c.get("name"): int(c.get("number", "0")) for c in zone} == {
        found.cards[i].name: n for i, n in deck.cards.items()}


def test_cockatrice_export_of_a_set_writes_no_deck_file(tmp_path: Path, found: Any) -> None:
    needs("CairoSVG (pip install 'hkk[print]')", cairo_present())
    _export("alap", "--to", "cockatrice", "-o", str(tmp_path), "--image-url",
            "https://example.org/p/")
    assert not list(tmp_path.glob("*.cod"))
    cards = ET.parse(tmp_path / "alap.xml").getroot().find("cards")
    assert cards is not None and len(cards) == len(found.sets["alap"].cards)
    first = cards[0].find("set")
    assert first is not None
    assert first.get("picurl") == f"https://example.org/p/{cards[0].findtext('name')}.png"

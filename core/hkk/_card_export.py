"""``hkk export``: a set's cards or a deck for the tools people play-test in.

- **Tabletop Simulator**: a saved object (``<deck>.json``, for TTS's ``Saved Objects`` folder)
  holding one ``DeckCustom``, its cards referring to deck sheets written beside it
  (``<deck>-sheet-N.png``: up to 10 x 7 card faces a sheet, the last slot left empty as TTS
  keeps it for the hidden card) and to the shared back (``<deck>-back.png``).  Each image is
  named by its ``file://`` path, or by ``--image-url`` followed by its file name once the
  images are put on a web server (docs/PRINT.md).  A card's ``CardID`` is its sheet's number
  times 100 plus its place on the sheet, as TTS reads it.
- **Cockatrice**: a card database (``<set>.xml``, ``<cockatrice_carddatabase version="4">``,
  the fields of Cockatrice's doc/carddatabase_v4/cards.xsd), the card images under
  ``pics/CUSTOM/<name>.png`` (where Cockatrice looks for a custom card's picture), and with a
  deck its deck file (``<deck>.cod``).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from hkk._card_image import CARD_HEIGHT, CARD_WIDTH, back_svg, document, printed_text, svg_to_png

__all__ = ["SHEET_COLUMNS", "SHEET_ROWS", "cockatrice_database", "cockatrice_deck",
           "tts_object", "write_cockatrice", "write_tts"]

#: A TTS deck sheet's grid; its last slot stays empty (TTS's hidden card).
SHEET_COLUMNS, SHEET_ROWS = 10, 7
_PER_SHEET = SHEET_COLUMNS * SHEET_ROWS - 1
#: Pixels of one card on a sheet, 6 a millimetre (378 x 528, whole pixels both ways): 10 across
#: stay under TTS's 4096-pixel limit.
_CARD_PX = 378
#: Each kind's row on Cockatrice's table (its tablerow: 1 other permanents, 2 creatures,
#: 3 spells).
_TABLE_ROWS = {"building": 1, "creature": 2, "spell": 3}
#: The zone of a Cockatrice deck file that holds the deck: main, not written as a literal, which
#: tests/test_core_layers.py keeps for the turn's phase names in hkk._phases.
_MAIN_ZONE = "Main".lower()
_KIND_NAMES = {"creature": "Lény", "building": "Építmény", "spell": "Varázslat"}


# -- Tabletop Simulator --------------------------------------------------------------------------

def _guid(*parts: str) -> str:
    """A stable 6-hex-digit GUID, as TTS writes them (the same export, the same file)."""
    return hashlib.sha256("/".join(parts).encode("utf-8")).hexdigest()[:6]


def _transform(y: float = 1.0) -> dict[str, float]:
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def tts_object(name: str, title: str, cards: Sequence[tuple[Any, int]],
               sheet_urls: Sequence[str], back_url: str) -> dict[str, Any]:
    """The saved object: one custom deck of ``cards`` (card, copies), the distinct cards on
    the sheets in order (``_PER_SHEET`` a sheet, ``sheet_urls`` one a sheet)."""
    custom_decks = {}
    for number, url in enumerate(sheet_urls, start=1):
        rows = max(2, math.ceil(min(len(cards) - (number - 1) * _PER_SHEET, _PER_SHEET)
                                / SHEET_COLUMNS))
        custom_decks[str(number)] = {"FaceURL": url, "BackURL": back_url,
                                     "NumWidth": SHEET_COLUMNS, "NumHeight": rows,
                                     "BackIsHidden": True, "UniqueBack": False, "Type": 0}
    contained, ids = [], []
    for index, (card, copies) in enumerate(cards):
        number = index // _PER_SHEET + 1
        card_id = number * 100 + index % _PER_SHEET
        for copy in range(copies):
            ids.append(card_id)
            contained.append({
                "GUID": _guid(name, card.id, str(copy)), "Name": "Card",
                "Transform": _transform(), "Nickname": card.name,
                "Description": printed_text(card), "GMNotes": card.id,
                "CardID": card_id, "CustomDeck": {str(number): custom_decks[str(number)]},
                "Hands": True, "SidewaysCard": False, "HideWhenFaceDown": True,
                "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
                "Tooltip": True})
    deck = {"GUID": _guid(name), "Name": "DeckCustom", "Transform": _transform(),
            "Nickname": title, "Description": f"{len(ids)} cards, written by hkk export",
            "DeckIDs": ids, "CustomDeck": custom_decks, "ContainedObjects": contained,
            "HideWhenFaceDown": True, "Hands": False, "SidewaysCard": False,
            "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
            "Tooltip": True}
    return {"SaveName": title, "GameMode": "", "Gravity": 0.5, "PlayArea": 0.5, "Date": "",
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "ObjectStates": [deck], "TabStates": {}, "VersionNumber": ""}


def _sheet_svg(faces: Sequence[str]) -> str:
    rows = max(2, math.ceil(len(faces) / SHEET_COLUMNS))
    parts = [f'<svg x="{(i % SHEET_COLUMNS) * CARD_WIDTH:g}"'
             f' y="{(i // SHEET_COLUMNS) * CARD_HEIGHT:g}"'
             f' width="{CARD_WIDTH:g}" height="{CARD_HEIGHT:g}"'
             f' viewBox="0 0 {CARD_WIDTH:g} {CARD_HEIGHT:g}">{face}</svg>'
             for i, face in enumerate(faces)]
    width, height = SHEET_COLUMNS * CARD_WIDTH, rows * CARD_HEIGHT
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
            f' width="{width:g}mm" height="{height:g}mm" viewBox="0 0 {width:g} {height:g}">'
            f'{"".join(parts)}</svg>')


def write_tts(folder: Path, name: str, title: str, cards: Sequence[tuple[Any, int]],
              faces: Sequence[str], image_url: str | None = None) -> list[Path]:
    """The saved object and its images in ``folder``; ``faces`` the distinct cards' drawings
    in the order of ``cards``.  Returns the files written."""
    def url(path: Path) -> str:
        return image_url + path.name if image_url else path.resolve().as_uri()

    written = []
    sheet_urls = []
    for start in range(0, len(faces), _PER_SHEET):
        sheet = folder / f"{name}-sheet-{start // _PER_SHEET + 1}.png"
        sheet.write_bytes(svg_to_png(_sheet_svg(faces[start:start + _PER_SHEET]),
                                     width_px=SHEET_COLUMNS * _CARD_PX))
        written.append(sheet)
        sheet_urls.append(url(sheet))
    back = folder / f"{name}-back.png"
    back.write_bytes(svg_to_png(back_svg(), width_px=_CARD_PX))
    saved = folder / f"{name}.json"
    saved.write_text(json.dumps(tts_object(name, title, cards, sheet_urls, url(back)),
                                ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return [saved, *written, back]


# -- Cockatrice ----------------------------------------------------------------------------------

def _element(parent: ET.Element, tag: str, text: str | None = None, **attributes: str
             ) -> ET.Element:
    child = ET.SubElement(parent, tag, attributes)
    if text is not None:
        child.text = text
    return child


def cockatrice_database(cards: Sequence[Any], sets: Sequence[tuple[str, str]],
                        image_url: str | None = None) -> ET.Element:
    """The card database of ``cards``; ``sets`` (code, long name) those they come from.  The
    elements stand in the order cards.xsd's sequences give."""
    root = ET.Element("cockatrice_carddatabase", version="4")
    info = _element(root, "info")
    _element(info, "author", "hkk export")
    set_list = _element(root, "sets")
    for code, long_name in sets:
        entry = _element(set_list, "set")
        _element(entry, "name", code)
        _element(entry, "longname", long_name)
        _element(entry, "settype", "Custom")
    card_list = _element(root, "cards")
    for card in cards:
        entry = _element(card_list, "card")
        _element(entry, "name", card.name)
        _element(entry, "text", printed_text(card))
        prop = _element(entry, "prop")
        kind = _KIND_NAMES[card.kind] + (" (Azonnali)" if card.kind == "spell" and card.instant
                                          else "")
        _element(prop, "layout", "normal")
        _element(prop, "side", "front")
        _element(prop, "type", kind)
        _element(prop, "maintype", _KIND_NAMES[card.kind])
        _element(prop, "manacost", str(card.cost.vp))
        _element(prop, "cmc", str(card.cost.vp))
        if card.cost.components:  # HKK's second cost; Cockatrice shows any property
            _element(prop, "components", str(card.cost.components))
        if card.kind == "creature":  # sebzés / Ép, as power / toughness
            _element(prop, "pt", f"{card.damage}/{card.hp}")
        elif card.kind == "building":  # Sp, as the counter Cockatrice calls loyalty
            _element(prop, "loyalty", str(card.sp))
        picture = {"picurl": f"{image_url}{_picture_name(card)}"} if image_url else {}
        _element(entry, "set", card.set_code, uuid=card.id, **picture)
        _element(entry, "tablerow", str(_TABLE_ROWS[card.kind]))
    ET.indent(root)
    return root


def cockatrice_deck(title: str, cards: Sequence[tuple[Any, int]]) -> ET.Element:
    """A Cockatrice deck file (``.cod``): the deck's cards by name in its main zone."""
    root = ET.Element("cockatrice_deck", version="1")
    _element(root, "deckname", title)
    _element(root, "comments", "written by hkk export")
    zone = _element(root, "zone", name=_MAIN_ZONE)
    for card, copies in cards:
        _element(zone, "card", number=str(copies), name=card.name)
    ET.indent(root)
    return root


def _picture_name(card: Any) -> str:
    """The picture's file, named by the card's name as Cockatrice looks it up."""
    name: str = card.name
    return name.replace("/", "-").replace("\\", "-") + ".png"


def write_cockatrice(folder: Path, name: str, title: str, cards: Sequence[tuple[Any, int]],
                     faces: Sequence[str], sets: Sequence[tuple[str, str]], *, deck: bool,
                     image_url: str | None = None) -> list[Path]:
    """The card database, the pictures and (``deck``) the deck file in ``folder``."""
    written = []
    database = folder / f"{name}.xml"
    _write_xml(database, cockatrice_database([c for c, _ in cards], sets, image_url))
    written.append(database)
    pictures = folder / "pics" / "CUSTOM"
    pictures.mkdir(parents=True, exist_ok=True)
    for (card, _), face in zip(cards, faces, strict=True):
        picture = pictures / _picture_name(card)
        picture.write_bytes(svg_to_png(document(face), width_px=_CARD_PX))
        written.append(picture)
    if deck:
        deck_file = folder / f"{name}.cod"
        _write_xml(deck_file, cockatrice_deck(title, cards))
        written.append(deck_file)
    return written


def _write_xml(path: Path, root: ET.Element) -> None:
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)

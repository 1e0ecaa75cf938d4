"""The guide to the card-data language (``hkk reference card-language``,
``docs/CARD-LANGUAGE.md``, issue 24.15) is generated from the card models and the registries:
the committed page is current, every word of the language is on it with an example card, and a
word registered later is on it at the next regeneration."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import ClassVar, Literal, get_args

import pytest
from click.testing import CliRunner
from pydantic import Field

from hkk._card_language import REGENERATE, example_cards, examples_asked, markdown, words
from hkk._card_words import EXAMPLES
from hkk._cards import model
from hkk._cards.amounts import TRIGGER_AMOUNT
from hkk._cards.loader import parse_card_data
from hkk._cards.quantities import PERMANENT_QUANTITIES, QUANTITIES, WHOSE
from hkk._cards.trigger_events import WHEN_EVENTS
from hkk._cards.types import Duration, Target
from hkk._cards.verbs import VERBS, Verb, register_verb, unregister_verb
from hkk._phases import CARD_TIMINGS
from hkk.cli import main

PAGE = Path(__file__).resolve().parent.parent / "docs" / "CARD-LANGUAGE.md"


def test_committed_guide_is_what_the_code_generates():
    assert PAGE.read_text(encoding="utf-8") == markdown(), \
        f"docs/CARD-LANGUAGE.md is out of date; regenerate it: {REGENERATE}"


def test_the_command_prints_the_guide():
    result = CliRunner().invoke(main, ["reference", "card-language", "--markdown"])
    assert result.exit_code == 0 and result.output == markdown()


def _entries(page: str) -> dict[str, str]:
    """Heading (its code words) -> the text under it, for every ``###``/``####`` heading."""
    parts = re.split(r"^#{3,4} (.+)$", page, flags=re.M)
    return {heading: body for heading, body in zip(parts[1::2], parts[2::2], strict=True)}


def test_every_word_of_the_language_has_an_entry_with_an_example_card():
    """Every word has an entry; each one an ability may use shows an example card (TOML and
    its Hungarian text)."""
    entries = _entries(markdown())
    expected = [
        *get_args(model.CreatureCard.model_fields["kind"].annotation),
        *get_args(model.BuildingCard.model_fields["kind"].annotation),
        *get_args(model.SpellCard.model_fields["kind"].annotation),
        "static", "automatic", "activated", "triggered",
        *CARD_TIMINGS, "on_enter", *WHEN_EVENTS, *get_args(Target), *get_args(Duration),
        "at_least", "at_most", "more_than", "fewer_than", *VERBS]
    headings = {re.sub(r"[`]", "", h).split(" / ")[0]: body for h, body in entries.items()}
    for word in expected:
        assert f"{word}" in headings, f"no entry for {word}"
    for kind in QUANTITIES:
        assert f"{WHOSE[0]}_{kind}" in headings
    # an example card (TOML and its Hungarian text) for every word an ability may use
    unused = {"end_stage3", "end_stage4"}  # no card ability may be timed on them
    for heading, body in headings.items():
        if heading in ("Comparisons", "Quantities (of)"):  # headings of groups
            continue
        if heading in unused:
            assert "No card ability may be timed on it" in body
            continue
        example = re.search(r'^Example, .+?: "(.+)"\n\n```toml\n(.+?)\n```', body, re.M | re.S)
        assert example is not None, f"no example card for {heading}"
        card = tomllib.loads(example[2])["cards"][0]
        assert example[1] in (card.get("text"), *(a.get("text") for a in
                                                   card.get("abilities", ())))


def test_every_example_card_is_valid_and_uses_the_words_it_shows():
    assert len(parse_card_data("pelda", "EXAMPLES", tomllib.loads(EXAMPLES))) > 0
    cards = example_cards()
    assert {c.source for c in cards} == {"the base set", "an example"}
    # the examples written for the page are each needed: no base-set card uses all its words
    base = set().union(*(words(c.data) for c in cards if c.source == "the base set"))
    for card in cards:
        if card.source == "an example":
            assert words(card.data) - base, f"{card.data['id']} shows nothing new"


@pytest.fixture
def unregister():
    names: list[str] = []
    yield names
    for name in names:
        unregister_verb(name)


def test_a_verb_registered_later_is_on_the_page_at_once(unregister):
    """What another module registers is read from the registry: a regeneration shows it, with
    its docstring, fields and logs, and says that it has no example card yet."""

    @register_verb
    class Mill(Verb):
        """Puts the top cards of a player's deck into his graveyard."""

        do: Literal["mill"] = "mill"
        #: How many cards.
        count: int = Field(gt=0, le=9)
        emits: ClassVar[tuple] = ()

    unregister.append("mill")
    entry = _entries(markdown())["`mill`"]
    assert "Puts the top cards of a player's deck into his graveyard." in entry
    assert "- `count`: an integer 1 to 9; required. How many cards." in entry
    assert "Example" not in entry and ("verb", "mill") in examples_asked()[1]


def test_the_guide_links_to_pages_that_exist():
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", PAGE.read_text("utf-8")):
        assert (PAGE.parent / target).exists(), f"CARD-LANGUAGE.md links to missing {target}"


def test_every_word_of_the_vocabulary_has_an_example_card_in_the_guide():
    """The guide shows an example card for every word of every part of the language - card
    and ability kinds, timings an ability may use, trigger events, targets, durations,
    comparisons, quantities, counted amounts, target filters, verbs - and none is missing:
    a word registered without one fails here (add a card to hkk/_card_words.py EXAMPLES)."""
    asked, missing = examples_asked()
    assert missing == [], f"words without an example card: {missing}"
    vocabulary = {
        ("card", "creature"), ("card", "building"), ("card", "spell"),
        *(("ability", kind) for kind in ("static", "automatic", "activated", "triggered")),
        *(("timing", t) for t in (*CARD_TIMINGS, "on_enter")
          if t not in ("end_stage3", "end_stage4")),
        *(("event", name) for name in WHEN_EVENTS), *(("target", t) for t in get_args(Target)),
        *(("duration", d) for d in get_args(Duration)),
        *(("comparison", c) for c in ("at_least", "at_most", "more_than", "fewer_than")),
        *(("quantity", kind) for kind in QUANTITIES), ("count", TRIGGER_AMOUNT),
        *(("filter", name) for name in PERMANENT_QUANTITIES), *(("verb", v) for v in VERBS)}
    assert vocabulary <= set(asked), f"not on the page: {vocabulary - set(asked)}"


def test_the_guide_defines_counted_amounts_target_filters_and_what_they_read():
    page = markdown()
    entries = _entries(page)
    assert "## Counted amounts (`count`)" in page and "## Target filters (`where`)" in page
    assert "amennyi sebzést okozott" in entries[f"`{TRIGGER_AMOUNT}`"]
    assert "sérült" in entries["`damage_taken`"]
    damage = entries["`damage`"]  # the verb's fields say what an amount and a filter are
    assert "- `amount`: an integer 1 to 999 or a count (" in damage
    assert "- `where`: a target filter (" in damage
    assert "No example yet" not in page

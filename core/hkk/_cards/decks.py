"""A set's decks as pydantic models: a deck (card id -> copies, the formats it meets) and one
``decks/*.toml`` file of them."""

from typing import Annotated, Self

from pydantic import BaseModel, Field, StringConstraints, model_validator

from hkk._cards.types import (
    CARD_ID_PATTERN,
    CONFIG,
    LIST_OK,
    MAX_DECK_SIZE,
    CardId,
    Slug,
    Text,
    invalid,
)

__all__ = ["FORMAT_NAME_PATTERN", "Deck", "DeckFile", "FormatName"]


#: A deck format (:mod:`hkk._formats`): ``<set code>:<name>`` for a set's ``formats/NAME.toml``,
#: or ``casual``, the format of every deck that names none.
FORMAT_NAME_PATTERN = r"^(casual|" + CARD_ID_PATTERN[1:-1] + r")$"
FormatName = Annotated[str, StringConstraints(pattern=FORMAT_NAME_PATTERN)]


class Deck(BaseModel):
    model_config = CONFIG

    name: Slug
    title: Text = ""
    #: Card id -> number of copies.
    cards: dict[CardId, Annotated[int, Field(gt=0, le=MAX_DECK_SIZE)]]
    #: The formats the deck meets (``hkk verify``'s deck-format check holds it to them).
    formats: Annotated[tuple[FormatName, ...], LIST_OK] = ()

    @property
    def size(self) -> int:
        return sum(self.cards.values())

    @model_validator(mode="after")
    def _bounded_size(self) -> Self:
        if self.size > MAX_DECK_SIZE:
            raise invalid(f"deck '{self.name}' has {self.size} cards; at most {MAX_DECK_SIZE}")
        return self


class DeckFile(BaseModel):
    """One ``decks/*.toml`` file of a set: ``[[decks]]`` tables."""

    model_config = CONFIG
    decks: Annotated[tuple[Deck, ...], LIST_OK]

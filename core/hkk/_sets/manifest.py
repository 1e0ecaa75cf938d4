"""``set.toml``: the manifest a card set ships beside its cards.

```toml
[set]
code = "alap"
name = "Alapkészlet"
version = "1.0.0"          # PEP 440, the set's own release
requires = ">=2.0,<3"      # hook-API versions of the engine it works with
depends = []               # set codes whose cards or hooks it builds on
language = "hu"
python = false             # true: the package has hook implementations and is imported
```

A set without ``python = true`` is data only: discovery reads its files from the installed
package without importing it, so none of its code runs.
"""

from __future__ import annotations

import re
import tomllib
from typing import Annotated, Any

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Strict,
    StringConstraints,
    ValidationError,
)

from hkk._datafile import DataFileError, parse_toml
from hkk._text import codepoint, first_control_character

__all__ = ["SET_CODE_PATTERN", "SetManifest", "is_set_code", "parse_manifest",
           "format_validation_error"]

#: A set code: the entry-point name, the card-id namespace and the pluggy name suffix.
SET_CODE_PATTERN = r"^[a-z][a-z0-9_]{1,31}$"
_SET_CODE_RE = re.compile(SET_CODE_PATTERN)

SetCode = Annotated[str, StringConstraints(pattern=SET_CODE_PATTERN)]


def _pep440_version(value: str) -> str:
    try:
        Version(value)
    except InvalidVersion:
        raise ValueError(f"not a PEP 440 version: {value!r}") from None
    return value


def _pep440_specifier(value: str) -> str:
    try:
        SpecifierSet(value)
    except InvalidSpecifier:
        raise ValueError(f"not a PEP 440 version specifier: {value!r}") from None
    return value


def _no_control_characters(value: str) -> str:
    char = first_control_character(value)
    if char is not None:
        raise ValueError(f"control character {codepoint(char)} is not allowed")
    return value


#: Text shown on a terminal: no escape sequences (see :mod:`hkk._text`).
Text = Annotated[str, AfterValidator(_no_control_characters)]


class SetManifest(BaseModel):
    """The ``[set]`` table of ``set.toml``. Strings stay strings (TOML and JSON Schema friendly);
    use :attr:`requires_specifier` / :attr:`parsed_version` for comparisons."""

    # strict like the card models (issue 13): ``python = "yes"`` is refused, not coerced
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    code: SetCode
    name: Annotated[Text, StringConstraints(min_length=1)]
    version: Annotated[str, AfterValidator(_pep440_version)]
    requires: Annotated[str, AfterValidator(_pep440_specifier)]
    # A tuple, not a list: the model is frozen and hashable all the way down.
    depends: Annotated[tuple[SetCode, ...], Strict(False)] = ()
    # A short BCP 47-ish tag ("hu", "en", "de-AT"); we only need it for display.
    language: Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")] = "hu"
    description: Text = ""
    #: The package has hook implementations: discovery imports and registers it.  Without
    #: this the set is data only and its package is never imported.
    python: bool = False

    @property
    def requires_specifier(self) -> SpecifierSet:
        return SpecifierSet(self.requires)

    @property
    def parsed_version(self) -> Version:
        return Version(self.version)


def is_set_code(value: str) -> bool:
    return bool(_SET_CODE_RE.match(value))


def format_validation_error(exc: ValidationError, prefix: str) -> str:
    """``prefix.loc: msg`` per problem, joined by "; " - the shape card errors have."""
    lines = []
    for err in exc.errors(include_url=False):
        loc = prefix
        for part in err["loc"]:
            loc += f"[{part}]" if isinstance(part, int) else f".{part}"
        lines.append(f"{loc}: {err['msg']}")
    return "; ".join(lines)


def parse_manifest(text: str) -> SetManifest:
    """Parse ``set.toml`` text; raises ``ValueError`` with a message ready for a SetError."""
    try:
        data: dict[str, Any] = parse_toml(text)
    except (tomllib.TOMLDecodeError, DataFileError) as exc:
        raise ValueError(f"set.toml: {exc}") from exc
    extra = sorted(set(data) - {"set"})
    if "set" not in data or not isinstance(data["set"], dict):
        raise ValueError("set.toml: missing [set] table")
    if extra:
        raise ValueError(f"set.toml: unknown top-level keys {extra}; only [set] is allowed")
    try:
        return SetManifest.model_validate(data["set"])
    except ValidationError as exc:
        raise ValueError("set.toml: " + format_validation_error(exc, "set")) from exc

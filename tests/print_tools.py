"""What the print tests need and how they say it is missing: skipped with the reason, or failed
under ``HKK_REQUIRE_BROWSER=1`` (CI, which installs CairoSVG, poppler and DejaVu Sans)."""

from __future__ import annotations

import os

import pytest


def needs(what: str, present: bool) -> None:
    """Skip without ``what``, saying so; CI (HKK_REQUIRE_BROWSER=1) fails instead."""
    if present:
        return
    if os.environ.get("HKK_REQUIRE_BROWSER") == "1":
        pytest.fail(f"HKK_REQUIRE_BROWSER=1 but {what} is missing")
    pytest.skip(f"{what} is missing")


def cairo_present() -> bool:
    """CairoSVG imports, and finds the Cairo library."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True

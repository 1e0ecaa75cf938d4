"""The report page of ``hkk simulate --tiers`` in headless Chromium (issue 22 item 3): the tier
table, the endings chart, the skill gap, the flagged cards and the drawn win rates show the
numbers of the page's JSON, without console errors.  Skipped without a browser, as
test_pages.py (whose fixtures it uses)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_balance import PLANTED_CARDS, PLANTED_DECKS
from test_pages import Page, browser  # noqa: F401 - the fixture: one Chromium per module
from test_verify import fake_set  # noqa: F401 - the fixture: a throw-away installed set

from hkk._html import p_value, rate
from hkk.cli import main

pytestmark = pytest.mark.xdist_group("chromium")


@pytest.mark.slow
def test_simulate_tiers_report_page_shows_tiers_endings_and_flagged_cards(
        browser: Any, tmp_path: Path, fake_set: Any) -> None:  # noqa: F811
    """The base decks and the planted card of test_balance.py (which is flagged)."""
    fake_set("ultet", cards=PLANTED_CARDS, decks=PLANTED_DECKS)
    report, summary_file = tmp_path / "report.html", tmp_path / "summary.json"
    result = CliRunner().invoke(main, ["simulate", "-n", "240", "--set", "alap", "--set", "ultet",
                                       "-w", "1", "--decks", "ultet:sereg", "ultet:sereg",
                                       "--decks", "alap:tuz", "alap:viz",
                                       "--tiers", "random,first", "--json", str(summary_file),
                                       "--html", str(report)])
    assert result.exit_code == 0, result.output
    balance = json.loads(summary_file.read_text(encoding="utf-8"))["balance"]
    page = Page(browser, report, tmp_path / "report-tiers.png")
    try:
        assert page.cells("#tiers") == [
            [t["label"], p["decks"][0], p["decks"][1], str(p["games"]),
             rate(p["win_rate_1"]["rate"]),
             f"{rate(p['win_rate_1']['ci_low'])} – {rate(p['win_rate_1']['ci_high'])}",
             str(p["endings"]["hp"]), str(p["endings"]["empty_deck"]),
             str(p["endings"]["turn_limit"]), rate(t["first_player"]["rate"])]
            for t in balance["tiers"] for p in t["pairings"]]
        assert page.cells("#skill-gap") == [
            [row["deck"], *(rate(row["rates"][t["label"]]) for t in balance["tiers"]),
             rate(row["gap"])] for row in balance["skill_gap"]]
        assert page.cells("#flagged") == [
            [c["tier"], c["deck"], c["opponent"], str(c["seat"]), c["name"],
             str(c["win_rate_drawn"]["games"]), rate(c["win_rate_drawn"]["rate"]),
             str(c["win_rate_not_drawn"]["games"]), rate(c["win_rate_not_drawn"]["rate"]),
             p_value(c["p_value"]), p_value(c["q_value"])]
            for c in balance["flagged"]]
        assert page.cells("#play-rates") == [
            [row["deck"], row["name"], *(
                f"{rate(row['tiers'][t['label']]['rate'])} "
                f"({row['tiers'][t['label']]['games_drawn']})"
                if row["tiers"].get(t["label"]) and row["tiers"][t["label"]]["rate"] is not None
                else "" for t in balance["tiers"])]
            for row in balance["play_rates"]]
        assert any(c["card"] == "ultet:orias" for c in balance["flagged"])
        drawn = page.cells("#drawn")
        assert len(drawn) == len(balance["cards"])
        assert [row[12] == "⚑" for row in drawn] == [c["significant"] for c in balance["cards"]]
        warnings = page.page.locator("#warnings li").all_text_contents()
        assert [w.lstrip("⚠ ") for w in warnings] == balance["warnings"]
        # the endings chart: a bar per tier and pairing, a part per ending that happened
        parts = page.page.eval_on_selector_all(
            "#endings .bar-row", "rows => rows.map(r => Array.from(r.querySelectorAll('.part'),"
            " p => [p.dataset.ending, Number(p.dataset.games)]))")
        assert parts == [[[name, p["endings"][name]] for name in ("hp", "empty_deck",
                                                                  "turn_limit")
                          if p["endings"][name]]
                         for t in balance["tiers"] for p in t["pairings"]]
        assert page.errors == []
    finally:
        page.close()

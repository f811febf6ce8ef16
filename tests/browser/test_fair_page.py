"""The page's "verify" link on a round of the player's history (docs/fairness.md): the browser recomputes the
commitment and the outcome with WebCrypto and shows "verified"; a tampered record (intercepted) shows which check
failed; ``web/js/fair.js`` derives exactly what :mod:`croupier.fair` does; the panel stays accessible."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, Route, expect

from browser.support import SHOWN, assert_accessible, join, sign_in
from croupier import fair
from server.support import ADMIN, Server

pytestmark = pytest.mark.browser

SEED = "00" * 31 + "2a"


def settled_fair_round(live: Server, table: str, player: str) -> str:
    """A roulette table of the test's own with one settled round in which ``player`` bet with a player seed."""
    body = {"table_id": table, "game": "roulette", "betting_seconds": 30, "result_display_seconds": 0}
    r = live.client.post("/api/tables", json=body, headers=live.login(ADMIN))
    assert r.status_code == 201, r.text
    live.add_account(player, credit=1_000)
    r = live.client.post(f"/api/tables/{table}/bets", json={"type": "red", "amount": 10, "client_seed": "page"},
                         headers=live.as_(player))  # fmt: skip
    assert r.status_code == 201, r.text
    round_id: str = r.json()["round"]
    live.run_out(table)
    record = live.client.get(f"/api/tables/{table}/rounds/{round_id}/fair", headers=live.login(player)).json()
    assert record["revealed"] and fair.verify(record).ok
    return round_id


def test_the_verify_link_checks_a_settled_round_in_the_browser(live: Server, page: Page) -> None:
    round_id = settled_fair_round(live, "ro-fair", "vera")
    sign_in(page, live, "vera")
    join(page, "ro-fair")
    item = page.get_by_test_id("recall-panel").locator(f'.recall-round[data-round="{round_id}"]')
    expect(item).to_be_visible(timeout=SHOWN)
    item.get_by_test_id("fair-verify").click()
    expect(item.get_by_test_id("fair-result")).to_have_attribute("data-state", "verified", timeout=SHOWN)
    download = item.get_by_test_id("fair-download")
    expect(download).to_be_visible()
    assert download.get_attribute("download") == f"{round_id}.fair.json"
    assert_accessible(page, "roulette, a round verified in the recall panel")


@pytest.mark.parametrize(
    ("field", "state"), [("result", "outcome"), ("seed", "commitment"), ("commitment", "commitment")]
)
def test_a_tampered_record_shows_the_failure(live: Server, page: Page, field: str, state: str) -> None:
    table = f"ro-tamper-{field}"
    round_id = settled_fair_round(live, table, f"tam{field[:3]}")

    def tamper(route: Route) -> None:
        response = route.fetch()
        record = response.json()
        record[field] = (record["result"] + 1) % 37 if field == "result" else "ab" * 32
        route.fulfill(response=response, body=json.dumps(record))

    page.route("**/api/tables/*/rounds/*/fair", tamper)
    sign_in(page, live, f"tam{field[:3]}")
    join(page, table)
    item = page.get_by_test_id("recall-panel").locator(f'.recall-round[data-round="{round_id}"]')
    expect(item).to_be_visible(timeout=SHOWN)
    item.get_by_test_id("fair-verify").click()
    result = item.get_by_test_id("fair-result")
    expect(result).to_have_attribute("data-state", state, timeout=SHOWN)
    assert result.inner_text().strip()
    if state == "commitment":
        assert_accessible(page, "roulette, a tampered round in the recall panel")


def test_fair_js_derives_what_python_does(live: Server, page: Page) -> None:
    page.goto(live.base + "/")
    got = page.evaluate(
        """async ([seed]) => {
            const f = await import('/js/fair.js');
            return {
              commitment: await f.commitment(seed),
              pocket: await f.derivePocket(seed, 'R1.1', []),
              seeded: await f.derivePocket(seed, 'R1.1', [['b1', 'lucky'], ['b2', 'q"uo\\\\te']]),
              dice: await f.deriveDice(seed, 'S1.1', [['b1', 'x']]),
              shoe: await f.deriveShoeOrder(seed, 'B1.shoe1', [['b3', 'z']], 6),
              inputs: f.encodeInputs([['b1', 'lucky'], ['b2', 'q"uo\\\\te']]),
            };
        }""",
        [SEED],
    )
    inputs = [["b1", "lucky"], ["b2", 'q"uo\\te']]
    assert got["inputs"] == fair.encode_inputs(inputs).decode()
    assert got["commitment"] == fair.commitment(SEED)
    assert got["pocket"] == fair.derive_pocket(SEED, "R1.1") == 21
    assert got["seeded"] == fair.derive_pocket(SEED, "R1.1", inputs)
    assert got["dice"] == fair.derive_dice(SEED, "S1.1", [["b1", "x"]])
    assert got["shoe"] == fair.derive_shoe_order(SEED, "B1.shoe1", [["b3", "z"]], 6)

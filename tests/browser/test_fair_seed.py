"""The player's own seed on the page (docs/fairness.md, step 2; docs/browser-ui.md): at a provably fair table the
table bar shows the round's commitment and the seed the page sends with the player's bets (``fair-seed``); the player
types one (checked as the server checks it: 1 to 64 printable ASCII characters; a refused one is never sent) or takes
a new random one, and the browser remembers it. Every roulette and blackjack bet the page sends there carries it as
``client_seed`` — the fairness record's inputs and the stored bet documents show it — rebet included, and the recall
panel's verify says when the player's seed was an input. A live table has no commitment and no control; on a phone
the control stays one short line and the chips and the result moment stay in view; axe-core finds nothing blocking."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import Page, Request, expect

from browser.support import assert_accessible, check_ledger, join, rect, sign_in, spot
from croupier import fair
from croupier.errors import InvalidInput
from server.support import ADMIN, Server

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("patient_expect")]

RANDOM_SEED = re.compile(r"^[0-9a-f]{32}$")


def rng_table(live: Server, game: str, **options: Any) -> str:
    """A fresh RNG (provably fair) table of ``game`` with a long betting window."""
    table = f"fs-{game[:2]}-{uuid.uuid4().hex[:6]}"
    body = {"table_id": table, "game": game, "betting_seconds": 60, "decision_seconds": 30, **options}
    r = live.client.post("/api/tables", json=body, headers=live.login(ADMIN))
    assert r.status_code == 201, r.text
    return table


def view(live: Server, table: str) -> dict[str, Any]:
    r = live.client.get(f"/api/tables/{table}", headers=live.login(ADMIN))
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def fair_record(live: Server, table: str, round_id: str, player: str) -> dict[str, Any]:
    r = live.client.get(f"/api/tables/{table}/rounds/{round_id}/fair", headers=live.login(player))
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()
    return record


def stored_bets(live: Server, table: str, round_id: str) -> list[dict[str, Any]]:
    """The bet documents of ``round_id`` as the casino stored them (the admin's recall)."""
    r = live.client.get(f"/api/tables/{table}/rounds", params={"last": 10}, headers=live.login(ADMIN))
    assert r.status_code == 200, r.text
    rounds = [x for x in r.json() if x["round"] == round_id]
    assert rounds, r.json()
    return [h["bet"] for h in rounds[0]["bets"] if h["kind"] == "bet"]


def sent_bets(page: Page) -> list[dict[str, Any]]:
    """Record the body of every bet the page sends from now on (the list fills as it sends)."""
    bodies: list[dict[str, Any]] = []

    def note(request: Request) -> None:
        if request.method == "POST" and re.search(r"/api/tables/[^/]+/bets$", request.url):
            bodies.append(json.loads(request.post_data or "{}"))

    page.on("request", note)
    return bodies


def choose_seed(page: Page, seed: str) -> None:
    """Open the control, type ``seed`` and use it."""
    control = page.get_by_test_id("fair-seed")
    if control.get_attribute("open") is None:
        control.locator("summary").click()
    page.get_by_test_id("fair-seed-input").fill(seed)
    page.get_by_test_id("fair-seed-use").click()


def red(page: Page) -> None:
    """One 10 chip on red, confirmed and placed."""
    page.get_by_test_id("chip-10").click()
    spot(page, "red").click()
    page.get_by_test_id("confirm-bets").click()
    expect(page.locator(".slip-list.placed li")).to_have_count(1)
    expect(page.get_by_test_id("confirm-bets")).to_have_attribute("data-total", "0")


def test_the_control_shows_the_commitment_at_an_rng_table_and_is_absent_at_a_live_one(live: Server, page: Page) -> None:
    table = rng_table(live, "roulette", result_display_seconds=0)
    live.add_account("fsa", credit=1_000)
    sign_in(page, live, "fsa")
    join(page, table)
    published = view(live, table)["fair"]
    control = page.get_by_test_id("fair-seed")
    expect(control).to_be_visible()
    expect(control).to_have_attribute("data-label", published["label"])
    short = page.get_by_test_id("fair-commitment")
    expect(short).to_have_attribute("data-commitment", published["commitment"])
    expect(short).to_have_attribute("title", published["commitment"])
    expect(short).to_have_text(published["commitment"][:8] + "…")
    # A new player's seed is a random one, shown before any bet.
    expect(control.locator("summary")).to_contain_text("your seed")
    control.locator("summary").click()
    expect(page.get_by_test_id("fair-commitment-full")).to_have_text(published["commitment"])
    seed = page.get_by_test_id("fair-seed-value")
    expect(seed).to_have_text(RANDOM_SEED)
    expect(page.get_by_test_id("fair-seed-input")).to_have_value(seed.inner_text())
    expect(page.get_by_label("Your own seed")).to_be_visible()
    assert_accessible(page, "roulette: the seed control open")

    # Keyboard: Enter on the summary folds and unfolds it, and Tab goes on to the field.
    control.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(control).not_to_have_attribute("open", "")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("fair-seed-input")).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("fair-seed-input")).to_be_focused()

    # The next round publishes its own commitment, and the control follows it (a bet from another device: a window
    # without a bet starts again with the same round).
    r = live.client.post(f"/api/tables/{table}/bets", json={"type": "odd", "amount": 10}, headers=live.as_("fsa"))
    assert r.status_code == 201, r.text
    live.run_out(table)
    expect(short).not_to_have_attribute("data-commitment", published["commitment"])
    expect(short).to_have_attribute("data-commitment", view(live, table)["fair"]["commitment"])

    page.get_by_test_id("leave").click()
    join(page, "ro-live")
    expect(page.get_by_test_id("phase")).to_be_visible()
    expect(page.get_by_test_id("fair-seed")).to_be_hidden()
    assert "fair" not in view(live, "ro-live")


def test_a_typed_seed_goes_with_the_bets_and_the_verify_names_it(live: Server, page: Page) -> None:
    table = rng_table(live, "roulette", result_display_seconds=0)
    live.add_account("fsb", credit=1_000)
    sign_in(page, live, "fsb")
    join(page, table)
    sent = sent_bets(page)
    choose_seed(page, 'my "lucky" words')
    expect(page.get_by_test_id("fair-seed-value")).to_have_text('my "lucky" words')
    expect(page.get_by_test_id("fair-seed-error")).to_be_hidden()
    expect(page.get_by_test_id("fair-seed").locator("summary")).to_contain_text('your seed my "luck…')
    first = view(live, table)["round"]
    red(page)
    assert [b.get("client_seed") for b in sent] == ['my "lucky" words']
    live.run_out(table)  # the bell, the spin, the settlement; the next window opens

    record = fair_record(live, table, first, "fsb")
    assert record["revealed"] and record["inputs"] == [["b1", 'my "lucky" words']]
    assert fair.verify(record).ok
    item = page.get_by_test_id("recall-panel").locator(f'.recall-round[data-round="{first}"]')
    expect(item).to_be_visible()
    item.get_by_test_id("fair-verify").click()
    result = item.get_by_test_id("fair-result")
    expect(result).to_have_attribute("data-state", "verified")
    expect(result).to_have_attribute("data-yours", "true")
    expect(result).to_contain_text('Your seed “my "lucky" words” was one of its inputs.')
    assert_accessible(page, "roulette: a round verified with the player's seed")

    # Rebet in the next round sends the bet again with the seed in use now (a new random one).
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "betting")
    expect(page.locator(".slip-list.placed li")).to_have_count(0)  # the page is in the new round
    second = view(live, table)["round"]
    assert second != first
    page.get_by_test_id("fair-seed-random").click()
    fresh = page.get_by_test_id("fair-seed-value")
    expect(fresh).to_have_text(RANDOM_SEED)
    new_seed = fresh.inner_text()
    page.get_by_test_id("rebet").click()
    page.get_by_test_id("confirm-bets").click()
    expect(page.locator(".slip-list.placed li")).to_have_count(1)
    assert [b.get("client_seed") for b in sent] == ['my "lucky" words', new_seed]
    assert [b.get("client_seed") for b in stored_bets(live, table, second)] == [new_seed]
    live.run_out(table)
    assert fair_record(live, table, second, "fsb")["inputs"] == [["b1", new_seed]]
    check_ledger(live, "fsb")


@pytest.mark.parametrize(
    ("bad", "reason"), [("x" * 65, "long"), ("幸運", "chars"), ("café", "chars"), ("tab\there", "chars"), ("", "empty")]
)
def test_a_bad_seed_is_refused_and_never_sent(live: Server, page: Page, bad: str, reason: str) -> None:
    table = rng_table(live, "roulette")
    player = f"fsc{uuid.uuid4().hex[:5]}"
    live.add_account(player, credit=1_000)
    sign_in(page, live, player)
    join(page, table)
    sent = sent_bets(page)
    choose_seed(page, "kept")
    expect(page.get_by_test_id("fair-seed-value")).to_have_text("kept")

    field = page.get_by_test_id("fair-seed-input")
    field.fill(bad)
    page.get_by_test_id("fair-seed-use").click()
    error = page.get_by_test_id("fair-seed-error")
    expect(error).to_be_visible()
    expect(error).to_have_attribute("data-reason", reason)
    expect(error).to_contain_text("Not used")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_be_focused()
    expect(page.get_by_test_id("fair-seed-value")).to_have_text("kept")
    assert fair.check_client_seed("kept") == "kept"
    with pytest.raises(InvalidInput):
        fair.check_client_seed(bad)  # the page refuses what the server refuses
    if reason == "long":
        assert_accessible(page, "roulette: a refused seed")

    # A bet placed now carries the seed in use, never the refused one.
    round_id = view(live, table)["round"]
    red(page)
    assert [b.get("client_seed") for b in sent] == ["kept"]
    assert [b.get("client_seed") for b in stored_bets(live, table, round_id)] == ["kept"]
    # Fixed (or a new random seed), the message goes.
    page.get_by_test_id("fair-seed-random").click()
    expect(error).to_be_hidden()
    expect(field).not_to_have_attribute("aria-invalid", "true")


def test_the_seed_is_remembered_across_a_reload(live: Server, page: Page) -> None:
    table = rng_table(live, "sicbo")
    live.add_account("fsd", credit=1_000)
    sign_in(page, live, "fsd")
    join(page, table)
    choose_seed(page, "remember me")
    expect(page.get_by_test_id("fair-seed-value")).to_have_text("remember me")
    page.reload()
    expect(page.get_by_test_id("conn-status")).to_have_attribute("data-state", "open")
    expect(page.get_by_test_id("fair-seed")).to_be_visible()
    expect(page.get_by_test_id("fair-seed").locator("summary")).to_contain_text("your seed remember…")
    page.get_by_test_id("fair-seed").locator("summary").click()
    expect(page.get_by_test_id("fair-seed-value")).to_have_text("remember me")
    assert page.evaluate("() => localStorage.getItem('croupier.client_seed')") == "remember me"

    # A sic bo bet carries it too (typed in the field and left: a click elsewhere uses it).
    sent = sent_bets(page)
    page.get_by_test_id("fair-seed-input").fill("left typed")
    page.get_by_test_id("chip-10").click()
    expect(page.get_by_test_id("fair-seed-value")).to_have_text("left typed")
    spot(page, "big").click()
    page.get_by_test_id("confirm-bets").click()
    expect(page.locator(".slip-list.placed li")).to_have_count(1)
    assert [b.get("client_seed") for b in sent] == ["left typed"]


def test_a_blackjack_bet_carries_the_seed(live: Server, page: Page) -> None:
    table = rng_table(live, "blackjack")
    live.add_account("fse", credit=1_000)
    sign_in(page, live, "fse")
    join(page, table)
    published = view(live, table)
    assert published["fair"]["shoe"] == published["fair"]["label"] == f"{table}.shoe1"
    note = page.get_by_test_id("fair-shoe-note")
    page.get_by_test_id("fair-seed").locator("summary").click()
    expect(note).to_have_attribute("data-shuffles", "true")  # the table's first round shuffles the shoe
    choose_seed(page, "bj seed")
    expect(page.get_by_test_id("fair-seed-value")).to_have_text("bj seed")
    assert_accessible(page, "blackjack: the seed control open")
    sent = sent_bets(page)
    page.locator('[data-testid^="chip-"]').first.click()
    page.get_by_test_id("bet-box-1").click()
    page.get_by_test_id("confirm-bets").click()
    expect(page.get_by_test_id("box-1")).to_have_attribute("data-mine", "true")
    assert [b.get("client_seed") for b in sent] == ["bj seed"]
    assert [b.get("client_seed") for b in stored_bets(live, table, published["round"])] == ["bj seed"]
    # At the bell the shoe's inputs are fixed with the seed of this round's bet.
    live.run_out(table)
    record = fair_record(live, table, published["round"], "fse")
    assert record["label"] == f"{table}.shoe1" and record["inputs"] == [["b1", "bj seed"]]


def test_on_a_phone_the_control_keeps_the_chips_and_the_result_in_view(live: Server, phone: Page) -> None:
    table = rng_table(live, "roulette", result_display_seconds=30)
    live.add_account("fsf", credit=1_000)
    sign_in(phone, live, "fsf")
    join(phone, table)
    control = phone.get_by_test_id("fair-seed")
    expect(control).to_be_visible()
    expect(control.locator("summary")).to_be_in_viewport(ratio=1)
    assert rect(control.locator("summary"))["height"] < 44  # one short line
    expect(phone.get_by_test_id("chip-10")).to_be_in_viewport()
    expect(phone.get_by_test_id("confirm-bets")).to_be_in_viewport()
    assert_accessible(phone, "roulette on a phone: the seed control")
    phone.get_by_test_id("chip-10").click()
    spot(phone, "red").click()
    phone.get_by_test_id("confirm-bets").click()
    expect(phone.locator(".slip-list.placed li")).to_have_count(1)
    live.run_out(table)
    moment = phone.get_by_test_id("result-moment")
    expect(moment).to_be_visible()
    phone.evaluate("() => window.scrollTo(0, 0)")
    expect(moment).to_be_in_viewport(ratio=1)
    expect(phone.get_by_test_id("chip-10")).to_be_in_viewport()


def test_on_a_phone_the_blackjack_result_stays_above_the_fold(live: Server, phone: Page) -> None:
    table = rng_table(live, "blackjack", result_display_seconds=30)
    live.add_account("fsg", credit=1_000)
    sign_in(phone, live, "fsg")
    join(phone, table)
    expect(phone.get_by_test_id("fair-seed").locator("summary")).to_be_in_viewport(ratio=1)
    expect(phone.locator('[data-testid^="chip-"]').first).to_be_in_viewport(ratio=1)
    phone.locator('[data-testid^="chip-"]').first.click()
    phone.get_by_test_id("bet-box-1").click()
    phone.get_by_test_id("confirm-bets").click()
    expect(phone.get_by_test_id("box-1")).to_have_attribute("data-mine", "true")
    for _ in range(10):  # the bell and the deal, then each decision's default answer when its time runs out
        if view(live, table)["status"] == "settled":
            break
        live.run_out(table)
    assert view(live, table)["status"] == "settled"
    expect(phone.get_by_test_id("round-result")).to_be_visible()
    phone.evaluate("() => window.scrollTo(0, 0)")
    for testid in ("dealer-hand", "box-result-1", "round-net", "my-nets"):
        expect(phone.get_by_test_id(testid)).to_be_in_viewport(ratio=1)

"""The variants at the phone table (RULES §12.1, §12.2): "Call", "Rob", "Pass", "Open hand", the live value.

Real Chromium, the shared fixtures of tests/web/conftest.py on a server and store of this file's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browser import fresh_deal, needs_browser, open_page, ready

pytestmark = needs_browser


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    with open_page(browser, 360, 740) as page:
        yield page


def _settings(context: Any, **values: object) -> None:
    from tutor.store import Store

    with Store.open(context.store_path) as store:
        for key, value in values.items():
            store.set_setting(key, value)


def _inside(page: Any, selector: str) -> bool:
    return bool(page.evaluate(f"""() => [...document.querySelectorAll('{selector}')].filter((b) => !b.hidden)
        .every((b) => {{ const r = b.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth; }})"""))


def test_rule_12_1_call_rob_pass_buttons_and_the_robs_in_the_game_value(phone: Any, server: str, context: Any) -> None:
    from playwright.sync_api import expect

    _settings(context, auction="rob", open_hand=False)
    phone.goto(f"{server}/play?deal=42&level=easy")
    ready(phone)
    # Deal 42: Right calls, Left passes: we may rob or pass, not call.
    expect(phone.locator("#bid-buttons")).to_be_hidden()
    expect(phone.get_by_role("button", name="Call")).to_be_disabled()
    rob = phone.get_by_role("button", name="Rob")
    expect(rob).to_be_enabled()
    assert _inside(phone, "#rob-buttons button")
    rob.click()
    ready(phone)
    expect(phone.locator("#game-cell")).to_contain_text("robs:")


def test_rule_12_2_the_open_hand_button_doubles_the_game(phone: Any, server: str, context: Any) -> None:
    from playwright.sync_api import expect

    _settings(context, auction="bid", open_hand=True)
    fresh_deal(phone, server, 43)  # the rob game of the test before is abandoned
    phone.get_by_role("button", name="Bid 3").click()  # deal 43: nobody bid 3 before us
    ready(phone)
    expect(phone.locator("#btn-open")).to_be_visible()
    assert _inside(phone, "#play-buttons button")
    phone.get_by_role("button", name="Open hand").click()
    ready(phone)
    expect(phone.locator("#game-cell")).to_contain_text("open hand ×2")
    expect(phone.locator("#btn-open")).to_be_hidden()

"""A table across servers watched in a phone's browser (360 px) from a venue's link: the page
of the venue's server (German there), every move as it is played, no card still in a hand,
nothing of the home server, and the finished hand's replay from that server's own link."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, Page, ViewportSize
from web_helpers import hidden_cards_in, path_of

from bot.store import GuildSettings, VenueRow
from bot.texts import speaking, t
from bot.web import demo
from browser.chromium import PICTURES, WAIT_MS

HOME, HOME_CHANNEL = 710_000_000_000_000_001, 720_000_000_000_000_002
AWAY, AWAY_CHANNEL = 730_000_000_000_000_003, 740_000_000_000_000_004
PHONE: ViewportSize = {"width": 360, "height": 740}


async def wait_listed(page: Page, hand: int, at: int) -> None:
    await page.wait_for_function(f"""() => [...document.querySelectorAll('#moves li')]
        .some(e => e.dataset.hand === '{hand}' && Number(e.dataset.at) === {at})""",
                                 timeout=WAIT_MS)


async def open_across(store: Any, seed: int) -> tuple[Any, int]:
    """A public table of the home server with a venue in the away server (German): the
    session and its first hand's id."""
    session = await demo.open_table(store, guild_id=HOME, channel_id=HOME_CHANNEL,
                                    watch="public", seed=seed)
    await store.put_guild_settings(GuildSettings(guild_id=AWAY, locale="de"))
    await store.put_venue(VenueRow(table_id=session.id, guild_id=AWAY, channel_id=AWAY_CHANNEL,
                                   members=(demo.FIRST_USER + 1,)))
    assert session.hand_id is not None
    return session, session.hand_id


async def test_a_venues_link_watches_a_table_across_servers_on_a_phone(
        browser: Browser, site: Any) -> None:
    server, base, store = site
    session, first = await open_across(store, seed=6)
    page = await browser.new_page(viewport=PHONE)
    link = base + path_of(await server.table_link(AWAY, session.id))
    await page.goto(link)
    assert await page.get_attribute("html", "lang") == "de"
    await wait_listed(page, first, 0)
    while True:
        hand = session.hand
        assert hand is not None
        shown = await page.content()
        assert hidden_cards_in(shown, hand) == []
        assert str(HOME) not in shown and str(HOME_CHANNEL) not in shown
        if not await demo.move(session, server.feed):
            break
        await wait_listed(page, first, len(hand.actions))
    # Nothing wider than the phone.
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await page.wait_for_selector("#replay-link:not([hidden])", timeout=WAIT_MS)
    await page.screenshot(path=str(PICTURES / "crossplay-venue-page-360.png"), full_page=True)
    await page.click("#replay-link")
    await page.wait_for_selector("#replay[data-step='0']", timeout=WAIT_MS)
    assert page.url.split("#")[0] == base + path_of(await server.hand_link(AWAY, first))
    assert await page.get_attribute("html", "lang") == "de"


async def test_a_venue_that_keeps_tables_across_servers_off_its_pages_closes_an_open_one(
        browser: Browser, site: Any) -> None:
    """A page of the venue's link is open on a phone when its server turns watching tables
    across servers off: the page says so at once (in German) and shows no further move; the
    home server's page of the same table goes on."""
    server, base, store = site
    session, first = await open_across(store, seed=7)
    venue = await browser.new_page(viewport=PHONE)
    await venue.goto(base + path_of(await server.table_link(AWAY, session.id)))
    home = await browser.new_page(viewport=PHONE)
    await home.goto(base + path_of(await server.table_link(HOME, session.id)))
    assert await demo.move(session, server.feed)
    for page in (venue, home):
        await wait_listed(page, first, 1)
    await store.put_guild_settings(GuildSettings(guild_id=AWAY, locale="de",
                                                 watch_across=False))
    await server.settings_changed(AWAY)
    with speaking("de"):
        gone = t("web.gone_off")
    await venue.wait_for_function(
        "text => document.getElementById('link').textContent === text", arg=gone,
        timeout=WAIT_MS)
    assert await demo.move(session, server.feed)
    await wait_listed(home, first, 2)
    assert await venue.locator("#moves li[data-at='2']").count() == 0
    assert await venue.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

"""In a real headless Chromium: a captain opens the ordering page against a
running judge on the local Bot API server, orders three ticks for a player
by tapping the field, submits, and finds the orders stored and acknowledged
in his chat; a tap on a cell he cannot reach is refused on the page.  The
screenshots of docs/images are made here (DRAGONBALL_SCREENSHOTS=docs/images)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

from aiohttp import web
from support.fake_telegram import FakeTelegram, FakeUser
from support.mailservers import free_port
from support.telegram_e2e import Judge, judge, start_cell

from bot.web.auth import sign_init_data
from bot.web.server import WebSettings, build_web_app, runner_options
from engine.resolution.geo import DIST


@asynccontextmanager
async def web_server(j: Judge, link_secret: bytes | None = None) -> AsyncIterator[str]:
    settings = WebSettings(
        bot_token=j.tg.token, link_secret=link_secret, max_age=timedelta(hours=1)
    )
    runner = web.AppRunner(build_web_app(j.service, settings), **runner_options(settings))
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


def launch_url(
    base: str, j: Judge, user: FakeUser, lang: str = "ru", *, token: str = "", age: int = 0
) -> str:
    """The page as Telegram opens a Mini App: the signed launch data in the fragment."""
    fields = {
        "user": json.dumps({"id": user.id, "first_name": user.first_name, "language_code": lang}),
        "auth_date": str(int(j.clock.now().timestamp()) - age),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
    }
    signed = sign_init_data(fields, token or j.tg.token)
    return f"{base}/app?v={age}{token}#tgWebAppData={quote(signed, safe='')}"


def step_from(cell: int, avoid: set[int]) -> int:
    return next(c for c in range(1, len(DIST)) if DIST[cell][c] == 1 and c not in avoid)


async def tap(page: Any, cell: int) -> None:
    await page.locator(f'#field g[data-role="cell"][data-cell="{cell}"]').click(force=True)
    await settled(page)


async def settled(page: Any) -> None:
    """Until the page has its answers from the judge (no call under way)."""
    await page.wait_for_function("() => document.body.dataset.busy === '0'")


async def test_three_ticks_ordered_by_tapping(
    tg: FakeTelegram, browser: Any, tmp_path: Path, screenshots: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match(groups=False)
        async with web_server(j) as base:
            page = await browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(
                120_000
            )  # a loaded machine: the judge's answers may take a while
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            await page.goto(launch_url(base, j, match.alice))
            await page.wait_for_selector("#field svg")
            await settled(page)
            await page.locator('#players button[data-number="1"]').click()
            await settled(page)
            await page.wait_for_selector("#field g.legal")
            cell, _ = start_cell("left", 1)
            far = next(c for c in range(1, len(DIST)) if DIST[cell][c] == 3)
            await tap(page, far)
            await page.wait_for_selector("#status.refused")
            path: list[int] = []
            here = cell
            for tick in (1, 2, 3):
                here = step_from(here, {cell, *path})
                path.append(here)
                await tap(page, here)
                await page.wait_for_function(
                    "(t) => document.querySelector('#ticks button[data-tick=\"' + t + '\"]')"
                    ".textContent.includes('✓')",
                    arg=tick,
                )
            text = await page.locator("#text").input_value()
            for c in path:
                assert f"{c} в2" in text, text
            await page.wait_for_selector("#action-odds")
            await page.screenshot(path=str(screenshots / "web-desktop.png"))
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.screenshot(path=str(screenshots / "web-phone.png"), full_page=True)
            assert (screenshots / "web-phone.png").stat().st_size > 0
            await page.locator("#submit").click()
            await page.wait_for_function(
                "() => document.querySelector('#status').textContent.length > 20"
            )
            acks = await tg.wait_for(
                lambda: [t for t in tg.texts(match.alice) if "приказы приняты" in t]
            )
            for c in path:
                assert f"{c} в2" in acks[-1]
            sheet = (await j.say(match.alice, "/orders")).text
            for c in path:
                assert f"Иванов: {c} в2" in sheet
            await page.close()
        assert errors == []


async def test_a_forged_launch_is_refused(tg: FakeTelegram, browser: Any, tmp_path: Path) -> None:
    """Launch data signed with another token, or too old: every call is 401, the
    page says so and shows no field."""
    async with judge(tg, tmp_path) as j:
        match = await j.setup_match(groups=False)
        async with web_server(j) as base:
            page = await browser.new_page()
            statuses: list[int] = []
            page.on("response", lambda r: statuses.append(r.status) if "/api/" in r.url else None)
            forged = launch_url(base, j, match.alice, token="999:OTHER")
            stale = launch_url(base, j, match.alice, age=2 * 3600)
            for address in (forged, stale):
                await page.goto(address)
                await page.wait_for_selector("#status.refused")
                assert await page.locator("#field svg").count() == 0
            assert statuses and set(statuses) == {401}
            await page.close()

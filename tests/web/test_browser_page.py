"""In a real headless Chromium, the ordering page as players use it and get
it wrong: the second edition's square field and dragon, the names on the
buttons, taking an order off the sheet, a refused or out-of-date page and a
slow network.  Screenshots go where DRAGONBALL_SCREENSHOTS says (see
conftest)."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path
from typing import Any

from sqlmodel import select
from support.fake_telegram import FakeTelegram, FakeUser
from support.telegram_e2e import Judge, judge
from test_browser_ordering import launch_url, settled, tap, web_server

from bot.service import Inbound
from bot.service.kernel.positions import PositionCache
from bot.web.auth import sign_link
from engine.ruleset import load_ruleset
from engine.state import MatchState, PlayerRef
from storage import repo
from storage.models import Game, Snapshot

PHONE = {"width": 390, "height": 844}
SECRET = b"link secret of the browser tests"


async def setup(j: Judge, ruleset: str) -> tuple[FakeUser, FakeUser]:
    """A 2-a-side match of ``ruleset``; the captains read in private (Алиса
    in Russian, Bob in English)."""
    match = await j.setup_match(groups=False, ruleset=ruleset)
    return match.alice, match.bob


def give_ball(j: Judge, side: str, number: int, ball: str) -> None:
    """The open round starts with ``ball`` in that player's hands."""
    with j.service.db.transaction() as s:
        game = s.exec(select(Game)).one()
        snap = s.exec(
            select(Snapshot).where(Snapshot.round_id == game.current_round_id, Snapshot.tick == 0)
        ).one()
        state = MatchState.from_json(snap.state)
        holder = state.player(side, number)  # type: ignore[arg-type]
        carrier = dataclasses.replace(holder, balls=(ball,))
        balls = tuple(
            dataclasses.replace(
                b,
                status="held",
                holder=PlayerRef(side, number),  # type: ignore[arg-type]
                cell=holder.cell,
                height=holder.height,
                pass_to=None,
            )
            if b.name == ball
            else b
            for b in state.balls
        )
        players = tuple(
            carrier if (q.side, q.number) == (side, number) else q for q in state.players
        )
        snap.state = dataclasses.replace(state, players=players, balls=balls).to_json()
        s.add(snap)
    j.service.positions = PositionCache()  # what the service read before is no longer so


async def open_page(browser: Any, url: str, viewport: dict[str, int] = PHONE) -> Any:
    page = await browser.new_page(viewport=viewport)
    page.set_default_timeout(120_000)  # a loaded machine: the judge's answers may take a while
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    await page.goto(url)
    await page.wait_for_selector("#field svg")
    await settled(page)
    return page


async def click(page: Any, selector: str) -> None:
    await page.locator(selector).click()
    await settled(page)


async def lit(page: Any, cls: str = "legal") -> list[int]:
    return [
        int(c)
        for c in await page.evaluate(
            "(cls) => Array.from(document.querySelectorAll('#field g.' + cls))"
            ".map((g) => g.dataset.cell)",
            cls,
        )
    ]


async def texts(page: Any, selector: str) -> list[str]:
    return [t.strip() for t in await page.locator(selector).all_text_contents()]


async def attrs(page: Any, selector: str, name: str) -> list[str]:
    return await page.eval_on_selector_all(
        selector, "(els, name) => els.map((e) => e.getAttribute(name))", name
    )


async def sent(page: Any) -> str:
    """Submit, and the page's line once the judge has answered."""
    before = await page.locator("#status").text_content()
    await page.locator("#submit").click()
    await page.wait_for_function(
        "(b) => { const t = document.querySelector('#status').textContent;"
        " return t !== b && t.length > 20; }",
        arg=before,
    )
    await settled(page)
    return str(await page.locator("#status").text_content())


async def test_the_second_editions_field_and_dragon(
    tg: FakeTelegram, browser: Any, tmp_path: Path, screenshots: Path
) -> None:
    """On the square field every cell a player may reach is lit (the page
    measured the hex field's distances there), a player with no ball is
    offered no pass, and the dragon is offered this edition's jet, wall,
    tail and wings — not the classic flame and volley the judge refuses."""
    field = load_ruleset("variant-001").field
    async with judge(tg, tmp_path) as j:
        alice, _ = await setup(j, "variant-001")
        async with web_server(j) as base:
            page = await open_page(browser, launch_url(base, j, alice))
            await click(page, '#players button[data-number="1"]')
            start = 53  # Иванов's cell at the start of the second edition
            assert set(await lit(page)) == {start, *field.neighbours(start)}
            west = next(c for c in field.neighbours(start) if c == start - 1)
            await tap(page, west)
            await click(page, '#ticks button[data-tick="1"]')
            assert await page.locator('#actions button[data-action="pass"]').is_disabled()
            await click(page, '#actions button[data-action="catch"]')
            await click(page, '#ticks button[data-tick="2"]')
            await tap(page, start)
            await click(page, '#ticks button[data-tick="2"]')
            await click(page, '#actions button[data-action="pass"]')  # he may catch one first
            balls = await texts(page, "#balls button")
            assert "чёрный" in balls and "black" not in balls, balls
            assert await lit(page, "target")  # Иванов's pass targets
            await click(page, '#players button[data-dragon="1"]')
            assert await lit(page, "target") == []  # no longer, for the dragon
            assert await attrs(page, "#dragon button[data-fire]", "data-fire") == [
                "null", "jet", "wall",
            ]  # fmt: skip
            assert await attrs(page, "#dragon button[data-strike]", "data-strike") == [
                "tail", "wings",
            ]  # fmt: skip
            await click(page, '#dragon button[data-fire="jet"]')
            assert "Дракон: стоять, струя" in await page.locator("#text").input_value()
            await page.screenshot(path=str(screenshots / "web-square-phone.png"), full_page=True)
            answer = await sent(page)
            assert "приказы приняты" in answer and "Ошибки" not in answer, answer
            sheet = (await j.say(alice, "/orders")).text
            assert "Дракон: стоять, струя" in sheet, sheet
            assert page.errors == []


async def test_names_the_tick_edited_and_taking_an_order_off(
    tg: FakeTelegram, browser: Any, tmp_path: Path, screenshots: Path
) -> None:
    """A Russian page names the balls and spells in Russian, says which
    tick's height and action are being set, shows the deadline, and takes an
    order on file off the sheet with «Стереть» (a clear line, as typed)."""
    async with judge(tg, tmp_path) as j:
        alice, _ = await setup(j, "classic")
        give_ball(j, "left", 1, "black")
        async with web_server(j) as base:
            page = await open_page(browser, launch_url(base, j, alice))
            header = await page.locator("#round").text_content()
            assert "срок" in header and "21:00" in header, header
            await click(page, '#players button[data-number="1"]')
            here = (await lit(page))[0]
            await tap(page, here)
            assert await page.locator("#editing").text_content() == "Такт 1: высота и действие:"
            assert await page.locator('#ticks button[data-tick="2"].on').count() == 1
            await click(page, '#actions button[data-action="pass"]')
            balls = await texts(page, "#balls button")
            assert balls == ["чёрный"], balls
            await tap(page, (await lit(page, "target"))[0])
            spells = await texts(page, "#spells button")
            assert "гуллис-дуллис" in spells and "gullis-dullis" not in spells, spells
            await click(page, '#spells button[data-spell="gullis-dullis"]')
            text = await page.locator("#text").input_value()
            assert re.search(rf"Иванов: {here} в2, пас чёрный -> \d+ в\d гуллис-дуллис", text), text
            await page.screenshot(path=str(screenshots / "web-pass-phone.png"), full_page=True)
            assert "приказы приняты" in await sent(page)
            await page.close()

            page = await open_page(browser, launch_url(base, j, alice))  # another day
            await click(page, '#players button[data-number="1"]')
            await click(page, '#ticks button[data-tick="1"]')
            assert "✓" in str(await page.locator('#ticks button[data-tick="1"]').text_content())
            await click(page, '#heights button[data-clear="1"]')
            text = await page.locator("#text").input_value()
            assert text.startswith("Иванов т1: отмена\n"), text
            assert "✓" not in str(await page.locator('#ticks button[data-tick="1"]').text_content())
            await page.screenshot(path=str(screenshots / "web-clear-phone.png"), full_page=True)
            answer = await sent(page)
            assert "Иванов" in answer and "Отправлено" in answer, answer
            sheet = (await j.say(alice, "/orders")).text
            assert "Иванов:" not in sheet, sheet
            assert page.errors == []


async def cell_width(page: Any, cell: int) -> float:
    box = await page.locator(f'#field g[data-role="cell"][data-cell="{cell}"]').first.bounding_box()
    return float(box["width"])


async def test_the_field_drawn_larger_on_a_phone(
    tg: FakeTelegram, browser: Any, tmp_path: Path, screenshots: Path
) -> None:
    """At 390 px a hex is about 25 px wide, small for a finger: «Крупнее»
    draws the field twice as wide, scrolled sideways, and taps still order."""
    async with judge(tg, tmp_path) as j:
        alice, _ = await setup(j, "classic")
        async with web_server(j) as base:
            page = await open_page(browser, launch_url(base, j, alice))
            small = await cell_width(page, 106)
            assert small < 30, small
            await page.locator("#zoom").click()
            assert await page.locator("#zoom").text_content() == "Мельче"
            assert await cell_width(page, 106) > 1.8 * small
            await click(page, '#players button[data-number="1"]')
            here = (await lit(page))[0]
            await tap(page, here)
            await page.screenshot(path=str(screenshots / "web-zoomed-phone.png"))
            assert f"Иванов: {here} в2" in await page.locator("#text").input_value()
            await page.locator("#zoom").click()
            assert await cell_width(page, 106) == small
            assert page.errors == []


async def test_an_english_page_takes_an_order_off(
    tg: FakeTelegram, browser: Any, tmp_path: Path
) -> None:
    async with judge(tg, tmp_path) as j:
        _, bob = await setup(j, "classic")
        async with web_server(j) as base:
            url = launch_url(base, j, bob, "en")
            page = await open_page(browser, url, {"width": 1280, "height": 900})
            assert "due" in str(await page.locator("#round").text_content())
            await click(page, '#players button[data-number="1"]')
            await tap(page, (await lit(page))[0])
            await click(page, '#players button[data-dragon="1"]')
            await click(page, '#dragon button[data-fire="volley"]')
            assert "orders taken" in (await sent(page)).lower()
            await page.reload()
            await page.wait_for_selector("#field svg")
            await settled(page)
            await click(page, '#players button[data-dragon="1"]')
            await click(page, '#dragon button[data-clear="dragon"]')
            text = await page.locator("#text").input_value()
            assert text.startswith("t1 Dragon: clear\n"), text
            await sent(page)
            sheet = (await j.say(bob, "/orders")).text
            assert "Dragon" not in sheet and "Соколов:" in sheet, sheet
            assert page.errors == []


async def test_a_refused_page_says_why_in_the_players_language(
    tg: FakeTelegram, browser: Any, tmp_path: Path
) -> None:
    """Launch data that does not check out, or a Telegram user who plays in
    no game: the page says what to do, in Russian or English (it said «bad
    signature», «not a member»)."""
    async with judge(tg, tmp_path) as j:
        alice, bob = await setup(j, "classic")
        stranger = tg.user(1003, "Вася", "vasya")
        async with web_server(j) as base:
            cases = [
                (launch_url(base, j, alice, token="999:OTHER"), "Откройте её заново"),
                (launch_url(base, j, bob, "en", token="999:OTHER"), "Open it again"),
                (launch_url(base, j, stranger), "Вы не играете в этой игре"),
            ]
            for url, expected in cases:
                page = await browser.new_page()  # (a new fragment alone would not reload)
                await page.goto(url)
                await page.wait_for_selector("#status.refused")
                line = str(await page.locator("#status").text_content())
                assert expected in line, line
                assert await page.locator("#field svg").count() == 0
                await page.close()


async def test_a_personal_link_opens_the_page_from_the_fragment_and_leaves_the_address(
    tg: FakeTelegram, browser: Any, tmp_path: Path
) -> None:
    """An e-mail player's link (``#link=``, which no server receives) opens his
    page; the page takes it out of the address at once (the history holds no
    link) and finds it again on a reload."""
    async with judge(tg, tmp_path) as j:
        await setup(j, "classic")
        code = await j.invite("player", "left", 1)
        joined = await j.service.receive(
            Inbound("email", "<join@mail.example>", "p1@mail.example", f"/start {code}",
                    b"", j.clock.now(), authenticated=True)
        )  # fmt: skip
        assert joined.status == "ok", joined.text
        with j.service.db.transaction() as s:
            member = repo.member_by_email(s, "p1@mail.example")
            game = s.exec(select(Game)).one()
            assert member is not None and member.id is not None and game.id is not None
            link = sign_link(SECRET, member.id, game.id, 1)
        async with web_server(j, SECRET) as base:
            page = await open_page(browser, f"{base}/app#link={link}")
            assert await page.evaluate("location.href") == f"{base}/app"
            assert await attrs(page, "#players button", "data-number") == ["1"]
            await page.reload()
            await page.wait_for_selector("#field svg")
            await settled(page)
            assert await attrs(page, "#players button", "data-number") == ["1"]
            assert await page.evaluate("location.href") == f"{base}/app"
            assert page.errors == []


async def test_a_page_left_open_after_the_round_was_played(
    tg: FakeTelegram, browser: Any, tmp_path: Path, screenshots: Path
) -> None:
    """The round is resolved while the page is open: the next tap says the
    page is out of date (it said a cell was out of reach), the button to
    send is off, and «Открыть заново» opens the next round."""
    async with judge(tg, tmp_path) as j:
        alice, _ = await setup(j, "classic")
        async with web_server(j) as base:
            page = await open_page(browser, launch_url(base, j, alice))
            await click(page, '#players button[data-number="1"]')
            cells = await lit(page)
            await tap(page, cells[0])
            await j.gm_says("/resolve")
            await j.settled()
            await tap(page, cells[1])
            line = str(await page.locator("#status").text_content())
            assert "Раунд 1 уже сыгран" in line, line
            assert await page.locator("#submit").is_disabled()
            await page.screenshot(path=str(screenshots / "web-stale-phone.png"), full_page=True)
            await page.locator("#reload").click()
            await page.wait_for_function(
                "() => document.querySelector('#round').textContent.includes('раунд 2')"
            )
            assert page.errors == []


async def test_sending_on_a_slow_network_sends_what_was_tapped(
    tg: FakeTelegram, browser: Any, tmp_path: Path
) -> None:
    """«Отправить» pressed while the judge is still reading the last tap:
    the order sent is the one tapped (it sent the text from before the tap)."""
    async with judge(tg, tmp_path) as j:
        alice, _ = await setup(j, "classic")
        async with web_server(j) as base:
            page = await open_page(browser, launch_url(base, j, alice))
            await click(page, '#players button[data-number="1"]')
            here = (await lit(page))[0]

            async def slow(route: Any) -> None:
                await asyncio.sleep(1.5)
                await route.continue_()

            await page.route("**/api/check", slow)
            await page.locator(f'#field g[data-role="cell"][data-cell="{here}"]').click(force=True)
            await page.locator("#submit").click()
            acks = await tg.wait_for(
                lambda: [t for t in tg.texts(alice) if "приказы приняты" in t], 30
            )
            assert f"Иванов: {here} в2" in acks[-1], acks[-1]
            assert page.errors == []


async def test_a_reload_in_the_middle_keeps_the_draft(
    tg: FakeTelegram, browser: Any, tmp_path: Path
) -> None:
    """Telegram reloads a Mini App pulled down: the orders tapped and not yet
    sent are back (they were lost: the page opened on the sheet on file), and
    once sent a reload opens on the sheet."""
    async with judge(tg, tmp_path) as j:
        alice, _ = await setup(j, "classic")
        async with web_server(j) as base:
            page = await open_page(browser, launch_url(base, j, alice))
            await click(page, '#players button[data-number="1"]')
            here = (await lit(page))[0]
            await tap(page, here)
            await page.reload()
            await page.wait_for_selector("#field svg")
            await settled(page)
            assert f"Иванов: {here} в2" in await page.locator("#text").input_value()
            line = str(await page.locator("#status").text_content())
            assert "Восстановлены ваши правки" in line and "Иванов, такт 1" in line, line
            assert "приказы приняты" in await sent(page)
            await page.reload()
            await page.wait_for_selector("#field svg")
            await settled(page)
            assert "Восстановлены" not in str(await page.locator("#status").text_content())
            assert f"Иванов: {here} в2" in await page.locator("#text").input_value()
            assert page.errors == []


async def reload(page: Any) -> tuple[str, str]:
    """Reload, and the text the page would send and its line."""
    await page.reload()
    await page.wait_for_selector("#field svg")
    await settled(page)
    text = await page.locator("#text").input_value()
    return text, str(await page.locator("#status").text_content())


async def test_a_reload_puts_back_only_the_players_own_changes(
    tg: FakeTelegram, browser: Any, tmp_path: Path
) -> None:
    """A reload brings back what the captain changed on the page over the
    sheet on file now: a team-mate's order replaced meanwhile is the new one
    (the whole old draft came back, and sending it put the old order back),
    and his own change to an order replaced since is not put back but named."""
    async with judge(tg, tmp_path) as j:
        alice, _ = await setup(j, "classic")
        async with web_server(j) as base:
            page = await open_page(browser, launch_url(base, j, alice))
            await click(page, '#players button[data-number="2"]')
            mate = await lit(page)
            await click(page, '#players button[data-number="1"]')
            mine = (await lit(page))[0]
            assert (await j.say(alice, f"Такт 1\nПетров: {mate[0]} в2")).text
            await reload(page)
            await click(page, '#players button[data-number="1"]')
            await tap(page, mine)
            # Meanwhile Петров's order is replaced (in the chat, not on this page).
            answer = await j.say(alice, f"Такт 1\nПетров: {mate[1]} в2")
            assert "приказы приняты" in answer.text, answer.text
            text, line = await reload(page)
            assert f"Иванов: {mine} в2" in text, text
            assert f"Петров: {mate[1]} в2" in text and f"Петров: {mate[0]} в2" not in text, text
            assert "Иванов, такт 1" in line and "Петров" not in line, line
            # Now the captain changes Петров's order on the page, and it is
            # replaced again before he sends.
            await click(page, '#players button[data-number="2"]')
            await click(page, '#ticks button[data-tick="1"]')
            await tap(page, mate[2])
            assert f"Петров: {mate[2]} в2" in await page.locator("#text").input_value()
            answer = await j.say(alice, f"Такт 1\nПетров: {mate[3]} в2")
            assert "приказы приняты" in answer.text, answer.text
            text, line = await reload(page)
            assert f"Петров: {mate[3]} в2" in text and f"Петров: {mate[2]} в2" not in text, text
            assert f"Иванов: {mine} в2" in text, text
            assert "Не восстановлено" in line and "Петров, такт 1" in line, line
            assert "приказы приняты" in await sent(page)
            sheet = (await j.say(alice, "/orders")).text
            assert f"Петров: {mate[3]} в2" in sheet and f"Иванов: {mine} в2" in sheet, sheet
            assert page.errors == []


async def test_sending_after_a_team_mate_changed_the_sheet_sends_nothing_stale(
    tg: FakeTelegram, browser: Any, tmp_path: Path
) -> None:
    """The page sends the whole sheet it shows: a team-mate's order replaced on
    file while the page was open (no reload) would go back to the old one.
    Sending then brings the page up to date and sends nothing; the second
    press sends the sheet on file with the captain's own change."""
    async with judge(tg, tmp_path) as j:
        alice, _ = await setup(j, "classic")
        async with web_server(j) as base:
            page = await open_page(browser, launch_url(base, j, alice))
            await click(page, '#players button[data-number="2"]')
            mate = await lit(page)
            assert (await j.say(alice, f"Такт 1\nПетров: {mate[0]} в2")).text
            await reload(page)
            await click(page, '#players button[data-number="1"]')
            mine = (await lit(page))[0]
            await tap(page, mine)
            # Meanwhile Петров's order is replaced in the chat; the page is not reloaded.
            answer = await j.say(alice, f"Такт 1\nПетров: {mate[1]} в2")
            assert "приказы приняты" in answer.text, answer.text
            line = await sent(page)
            assert "Ничего не отправлено" in line and "Иванов, такт 1" in line, line
            text = await page.locator("#text").input_value()
            assert f"Петров: {mate[1]} в2" in text and f"Петров: {mate[0]} в2" not in text, text
            assert f"Иванов: {mine} в2" in text, text
            sheet = (await j.say(alice, "/orders")).text
            assert f"Иванов: {mine} в2" not in sheet, sheet  # nothing was sent
            assert "приказы приняты" in await sent(page)
            sheet = (await j.say(alice, "/orders")).text
            assert f"Петров: {mate[1]} в2" in sheet and f"Иванов: {mine} в2" in sheet, sheet
            assert page.errors == []

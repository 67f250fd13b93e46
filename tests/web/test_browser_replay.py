"""The demo writes the match's replay as static pages; in Chromium they open
from the folder and step tick by tick (no script needed), each tick with its
field and the public report's lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.demo import DemoOptions, run_demo
from bot.demo.folder import DemoFolder


async def test_the_demo_replay_opens_from_the_folder(
    browser: Any, tmp_path: Path, screenshots: Path
) -> None:
    folder = DemoFolder(tmp_path / "out")
    await run_demo(DemoOptions(folder, rounds=2))
    pages = sorted(p.name for p in folder.replay.iterdir())
    assert pages == ["index.html", "round-01.html", "round-02.html"]
    html = (folder.replay / "round-01.html").read_text(encoding="utf-8")
    assert "<script" not in html and "http" not in html.replace("http://www.w3.org/2000/svg", "")
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto((folder.replay / "index.html").as_uri())
    await page.locator("ol.rounds a").first.click()
    first = page.locator("section.tick:visible")
    assert await first.count() == 1
    assert await first.get_attribute("id") == "t1"
    assert "Раунд 1, такт 1" in await first.inner_text()
    assert await first.locator("svg g[data-role=player]").count() > 0
    await first.locator("a[rel=next]").click()
    assert await page.locator("section.tick:visible").get_attribute("id") == "t2"
    await page.locator("section.tick:visible a[rel=next]").click()
    await page.locator("section.tick:visible a[rel=next]").click()
    assert page.url.endswith("round-02.html")
    assert "Раунд 2, такт 1" in await page.locator("section.tick:visible").inner_text()
    await page.screenshot(path=str(screenshots / "replay.png"))
    assert (screenshots / "replay.png").stat().st_size > 0
    await page.close()

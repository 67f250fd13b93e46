"""The size of a round's results mail, per round and player, as sent.

Plays the demo match (``--seed``, 30 rounds) into a temporary folder, then
builds for every round the results mail a left-team player would get: the
reporter's report (``RenderReporter.round_report``: HTML and plain text
with the text diagram), the mail's picture set (``diagrams(mail=True)``)
and the message ``bot.mail.compose.build_message`` makes of them — the
bytes the SMTP server receives.  For comparison, the same round with the
chat's 1280-pixel pictures.  Prints min / median / max over the rounds and
the parts of the median round.

Run: ``python benchmarks/mail_size_bench.py [--seed S] [--rounds N]``
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from bot.demo import DemoFolder, DemoOptions, run_demo
from bot.mail.compose import build_message, to_bytes
from bot.service.kernel.api import Attachment, OutboxItem
from bot.service.kernel.i18n import t
from bot.service.rounds.reports import RenderReporter, RoundMaterial
from engine.events import Event
from engine.orders import RoundOrders
from engine.ruleset import load_ruleset
from engine.state import MatchState
from storage import repo
from storage.db import Database


def _materials(db: Database) -> list[tuple[RoundMaterial, dict[str, object]]]:
    rules = load_ruleset()
    out = []
    with db.transaction() as s:
        for rnd in repo.resolved_rounds(s, 1):
            assert rnd.id is not None and rnd.orders is not None
            ticks = []
            for tick in range(1, rules.ticks_per_round + 1):
                data = repo.snapshot(s, rnd.id, tick)
                if data is not None:
                    ticks.append(MatchState.from_json(data))
            before = repo.snapshot(s, rnd.id, 0)
            assert before is not None
            orders = RoundOrders.from_json(rnd.orders)
            material = RoundMaterial(
                before=MatchState.from_json(before),
                after=ticks[-1],
                tick_states=tuple(ticks),
                events=tuple(Event.from_json(e) for e in repo.events_of_round(s, rnd.id)),
                ruleset=rules,
                descriptions={
                    (o.side, o.number, o.tick): o.description
                    for o in orders.players
                    if o.description
                },
                game="DB-1",
            )
            params = {"round": rnd.number, "seed": rnd.seed, "digest": rnd.result_digest}
            out.append((material, params))
    return out


def _mail(
    material: RoundMaterial, params: dict[str, object], *, mail: bool
) -> tuple[int, dict[str, int]]:
    reporter = RenderReporter()
    footer = t("results_footer", "ru", **params)
    report = reporter.round_report(material, audience="left", lang="ru", footer=footer)
    files = reporter.diagrams(material, gm_view=False, lang="ru", mail=mail)
    item = OutboxItem(
        id=1,
        channel="email",
        destination="player@example.org",
        kind="results",
        text=(report.mail_text or report.text) if mail else report.text,
        subject=f"[DB-1] {t('subject_results', 'ru', **params)}",
        html=report.html if mail else None,
        attachments=tuple(Attachment(n, c, d) for n, c, d in files),
    )
    msg = build_message(item, from_address="judge@example.org", now=datetime.now(UTC))
    parts = {name: len(data) for name, _, data in files}
    parts["html"] = len((report.html or "").encode()) if mail else 0
    parts["text"] = len(item.text.encode())
    return len(to_bytes(msg)), parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", default="2026")
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = DemoFolder(Path(tmp) / "demo")
        asyncio.run(run_demo(DemoOptions(folder, rounds=args.rounds, seed=args.seed)))
        db = Database(f"sqlite:///{folder.database}")
        try:
            materials = _materials(db)
        finally:
            db.dispose()
    figures = {}
    for mail, label in ((True, "results mail (HTML, 960-px pictures inline)"),
                        (False, "for comparison: text and the chat's 1280-px set attached")):  # fmt: skip
        sizes = [(_mail(m, p, mail=mail), m.before.round) for m, p in materials]
        totals = sorted(s for (s, _), _ in sizes)
        print(f"{label}: {len(totals)} rounds")
        print(
            f"  bytes per mail: min {min(totals) / 1000:.0f} KB, "
            f"median {statistics.median(totals) / 1000:.0f} KB, max {max(totals) / 1000:.0f} KB"
        )
        middle = sorted(sizes, key=lambda x: x[0][0])[len(sizes) // 2]
        (total, parts), number = middle
        shown = ", ".join(f"{k} {v / 1000:.0f} KB" for k, v in parts.items())
        print(f"  median round ({number}): {total / 1000:.0f} KB = base64 of {shown}")
        kind = "html" if mail else "attached"
        figures[f"{kind}_rounds"] = str(len(totals))
        for name, value in (("min", min(totals)), ("median", statistics.median(totals)),
                            ("max", max(totals))):  # fmt: skip
            figures[f"{kind}_{name}_kb"] = f"{value / 1000:.0f}"
    print(" ".join(f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()

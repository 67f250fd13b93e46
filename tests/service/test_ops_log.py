"""What the operator reads at INFO: one line per inbound message, resolution
and delivery batch — without secrets, order texts or raw Python objects."""

from __future__ import annotations

from structlog.testing import capture_logs
from support.service_table import FIRST_DEADLINE, Table, orders_text

from bot.service import PartLog
from bot.service.kernel.api import DeliveryResult, OutboxItem
from bot.service.outbox.worker import OutboxWorker


class _Sink:
    name = "telegram"

    async def deliver(self, item: OutboxItem, parts: PartLog | None = None) -> DeliveryResult:
        return DeliveryResult(ok=True)


async def test_info_lines_for_messages_resolutions_and_deliveries(table: Table) -> None:
    orders = orders_text(table.state(), "left")
    with capture_logs() as logs:
        await table.say(201, orders)
        await table.say(201, "/status")
        await table.clock.set(FIRST_DEADLINE)
        await table.service.resolve_due()
        worker = OutboxWorker(table.service, {"telegram": _Sink()}, table.clock)
        await worker.drain("telegram")
    info = [e for e in logs if e["log_level"] == "info"]
    received = [e for e in info if e["event"] == "message received"]
    assert [(e["what"], e["status"]) for e in received] == [("text", "ok"), ("/status", "ok")]
    resolved = [e for e in info if e["event"] == "round resolved"]
    assert len(resolved) == 1 and resolved[0]["game"] == "DB-1" and resolved[0]["round"] == 1
    batches = [e for e in info if e["event"] == "outbox batch delivered"]
    assert batches and sum(e["sent"] for e in batches) > 0
    text = repr(info)
    assert "Такт" not in text and orders.splitlines()[1] not in text  # no order text
    assert "Database(" not in text and "object at 0x" not in text

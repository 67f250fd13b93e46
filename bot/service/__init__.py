"""The game service: the transport-free core of the judge (see docs/service.md).

Channels (Telegram, e-mail) turn what they receive into :class:`Inbound` and
call :meth:`GameService.receive`; the :class:`OutboxWorker` hands them
:class:`OutboxItem` to deliver; the :class:`DeadlineScheduler` resolves
rounds at their deadlines.
"""

from .kernel.api import Attachment, DeliveryResult, Inbound, MemberInfo, OutboxItem, Reply
from .kernel.ports import Channel, Clock, FakeClock, PartLog, Reporter, SystemClock
from .kernel.settings import ServiceSettings
from .outbox.worker import OutboxWorker
from .rounds.reports import RenderReporter
from .runtime.deadlines import DeadlineScheduler, next_deadline, parse_schedule
from .service import GameService

__all__ = [
    "Attachment",
    "Channel",
    "Clock",
    "DeadlineScheduler",
    "DeliveryResult",
    "FakeClock",
    "GameService",
    "Inbound",
    "MemberInfo",
    "OutboxItem",
    "OutboxWorker",
    "PartLog",
    "RenderReporter",
    "Reply",
    "Reporter",
    "ServiceSettings",
    "SystemClock",
    "next_deadline",
    "parse_schedule",
]

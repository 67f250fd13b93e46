"""The game service: the transport-free core of the judge (see docs/service.md).

Channels (Telegram, e-mail) turn what they receive into :class:`Inbound` and
call :meth:`GameService.receive`; the :class:`OutboxWorker` hands them
:class:`OutboxItem` to deliver; the :class:`DeadlineScheduler` resolves
rounds at their deadlines.
"""

from .api import Attachment, DeliveryResult, Inbound, MemberInfo, OutboxItem, Reply
from .deadlines import DeadlineScheduler, next_deadline, parse_schedule
from .outbox import OutboxWorker
from .ports import Channel, Clock, FakeClock, PartLog, SystemClock
from .reports import RenderReporter, Reporter
from .service import GameService
from .settings import ServiceSettings

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

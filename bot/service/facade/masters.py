"""The game master's operations, for the command line and tests (chats go through commands)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from ..handlers import gm, gm_match, gm_setup
from ..kernel.api import Reply
from .core import ServiceCore


class GameMasters(ServiceCore):
    # ------------------------------------------------------------ game masters
    async def create_game(self, by: str = "cli", **options: Any) -> Reply:
        """Options: ruleset, title, timezone, deadlines, lang, players_per_team."""
        return await self._gm(by, lambda tx, a: gm_setup.create_game(tx, a, **options))

    async def add_team(self, game_id: int, side: str, name: str, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_setup.add_team(tx, a, game_id, side, name))

    async def add_player(self, game_id: int, side: str, name: str, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_setup.add_player(tx, a, game_id, side, name))

    async def invite(
        self, game_id: int, role: str, *, side: str | None = None, players: tuple[int, ...] = (),
        dragon: bool = False, email: str | None = None, username: str | None = None,
        ttl: timedelta | None = None, by: str = "cli",
    ) -> Reply:  # fmt: skip
        """Returns the invitation code in ``reply.data["code"]``."""
        return await self._gm(
            by,
            lambda tx, a: gm_setup.invite(
                tx,
                a,
                game_id,
                role=role,
                side=side,
                players=players,
                dragon=dragon,
                email=email,
                username=username,
                ttl=ttl,
            ),
        )

    async def set_deadline(
        self, game_id: int, schedule: str, *, timezone: str | None = None, by: str = "cli"
    ) -> Reply:
        return await self._gm(by, lambda tx, a: gm.set_deadline(tx, a, game_id, schedule, timezone))

    async def start(self, game_id: int, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_setup.start(tx, a, game_id))

    async def pause(self, game_id: int, reason: str = "", *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_match.pause(tx, a, game_id, reason))

    async def resume(self, game_id: int, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_match.resume(tx, a, game_id))

    async def extend(
        self,
        game_id: int,
        *,
        by_time: timedelta | None = None,
        until: datetime | None = None,
        by: str = "cli",
    ) -> Reply:
        return await self._gm(
            by, lambda tx, a: gm_match.extend(tx, a, game_id, by=by_time, until=until)
        )

    async def resolve_now(self, game_id: int, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_match.resolve_now(tx, a, game_id))

    async def rollback(self, game_id: int, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_match.rollback(tx, a, game_id))

    async def warn(self, game_id: int, side: str, reason: str = "", *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_match.warn(tx, a, game_id, side, reason))

    async def penalty(self, game_id: int, side: str, tick: int = 1, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_match.penalty(tx, a, game_id, side, tick))

    async def substitute(
        self, game_id: int, side: str, out_number: int, in_number: int, *, by: str = "cli"
    ) -> Reply:
        return await self._gm(
            by, lambda tx, a: gm_match.substitute(tx, a, game_id, side, out_number, in_number)
        )

    async def end(self, game_id: int, reason: str = "", *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_match.end(tx, a, game_id, reason))

    async def announce(self, game_id: int, text: str, *, by: str = "cli") -> Reply:
        return await self._gm(by, lambda tx, a: gm_match.announce(tx, a, game_id, text))

    async def link_team_chat(
        self, game_id: int, side: str, chat: str, thread: str | None = None, *, by: str = "cli"
    ) -> Reply:
        return await self._gm(
            by, lambda tx, a: gm_setup.link_team_chat(tx, a, game_id, side, chat, thread)
        )

    async def set_channel(
        self, game_id: int, chat: str | None, thread: str | None = None, *, by: str = "cli"
    ) -> Reply:
        return await self._gm(by, lambda tx, a: gm_setup.set_channel(tx, a, game_id, chat, thread))

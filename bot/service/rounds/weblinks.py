"""The ordering page offered where a round opens: a Mini App button in a
member's private Telegram chat, a personal link (signed, expiring at the
round's deadline) in an e-mail player's round-open mail.

A group or the public channel gets neither: Telegram opens Mini App buttons
only in private chats, and a link is personal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from storage import repo
from storage.models import Game, Round

from ..kernel.context import Tx
from ..kernel.i18n import t
from ..kernel.links import sign_link
from ..kernel.notify import Destination

__all__ = ["WEB_APP", "page_extras"]

WEB_APP = "webapp:"  # bot.telegram.channel turns such a button into a Mini App button


def page_extras(
    tx: Tx, game: Game, rnd: Round
) -> Callable[[Destination], tuple[str, Sequence[tuple[str, str]]]] | None:
    url = tx.settings.web_url
    if url is None:
        return None
    page = f"{url}/app"

    def extra(dest: Destination) -> tuple[str, Sequence[tuple[str, str]]]:
        if dest.audience not in ("left", "right"):
            return "", ()
        if dest.channel == "telegram" and dest.address.isdigit():  # a private chat
            return "", ((t("web.button", dest.lang), WEB_APP + page),)
        secret = tx.settings.web_link_secret
        if dest.channel == "email" and secret is not None and rnd.deadline is not None:
            member = repo.member_by_email(tx.s, dest.address)
            if member is not None and member.id is not None and game.id is not None:
                token = sign_link(secret, member.id, game.id, rnd.deadline)
                return "\n\n" + t("web.mail_link", dest.lang, url=f"{page}?link={token}"), ()
        return "", ()

    return extra

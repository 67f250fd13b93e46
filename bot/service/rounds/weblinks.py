"""The ordering page offered where a round opens: a Mini App button in a
member's private Telegram chat, a personal link (signed, for that round's
orders only) in an e-mail player's round-open mail.

A group or the public channel gets neither: Telegram opens Mini App buttons
only in private chats, and a link is personal.

The outbox keeps no link: a round-open mail is stored with a placeholder
naming the game and round (``[link:G.R]``, nothing secret), and
:func:`fill_links` signs the link for the mail's own addressee when the
mail is handed to the channel.  The link goes in the address's fragment
(``#link=``), which browsers do not send and proxies do not log.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from storage import repo
from storage.models import Game, OutboxRow, Round

from ..kernel.api import OutboxItem
from ..kernel.context import Tx
from ..kernel.i18n import t
from ..kernel.links import sign_link
from ..kernel.notify import Destination

__all__ = ["WEB_APP", "fill_links", "page_extras"]

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
        if dest.channel == "email" and tx.settings.web_link_secret is not None:
            member = repo.member_by_email(tx.s, dest.address)
            if member is not None and member.id is not None and game.id is not None:
                hole = f"[link:{game.id}.{rnd.number}]"
                return "\n\n" + t("web.mail_link", dest.lang, url=f"{page}#link={hole}"), ()
        return "", ()

    return extra


_HOLE = re.compile(r"#link=\[link:([0-9]{1,12})\.([0-9]{1,6})\]")


def fill_links(tx: Tx, row: OutboxRow, item: OutboxItem) -> OutboxItem:
    """The item with its link placeholders signed for its addressee.  Only a
    round-open mail of the game the placeholder names is filled: a placeholder
    typed by somebody into another message stays as it is."""
    secret = tx.settings.web_link_secret
    if row.kind != "round_open" or row.channel != "email" or "#link=[link:" not in item.text:
        return item
    member = repo.member_by_email(tx.s, row.destination)

    def sign(match: re.Match[str]) -> str:
        game_id, number = int(match[1]), int(match[2])
        if secret is None or member is None or member.id is None or game_id != row.game_id:
            return ""  # the page's address without a link: it says to open the latest mail
        return "#link=" + sign_link(secret, member.id, game_id, number)

    return dataclasses.replace(item, text=_HOLE.sub(sign, item.text))

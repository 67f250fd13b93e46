"""A game's replay pages (public view, tick by tick): bot.render.replay over
the stored rounds.  The web server serves them at ``/replay/DB-N/``; the
results post links there; ``dragonball demo`` writes them to its folder."""

from __future__ import annotations

from storage import repo

from ..kernel.context import ServiceError, Tx, game_code
from ..kernel.i18n import t
from . import resolve as rounds

__all__ = ["replay_pages", "replay_url"]


def replay_pages(tx: Tx, game_id: int, lang: str) -> dict[str, str]:
    from bot.render.replay import replay_pages as pages

    game = repo.get_game(tx.s, game_id)
    if game is None:
        raise ServiceError("unknown_game", game=game_code(game_id))
    materials = [
        rounds.material(tx, r.id) for r in repo.resolved_rounds(tx.s, game_id) if r.id is not None
    ]
    title = t("replay.title", lang, game=game_code(game), title=game.title or "")
    return pages(materials, lang, title)


def replay_url(tx: Tx, game_id: int, number: int) -> str | None:
    """Where the replay of round ``number`` is served, if the page is."""
    from bot.render.replay import round_file

    if tx.settings.web_url is None:
        return None
    return f"{tx.settings.web_url}/replay/{game_code(game_id)}/{round_file(number)}"

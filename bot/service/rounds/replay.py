"""A game's replay pages (public view, tick by tick), drawn by the reporter from
the stored rounds.  The web server serves them at ``/replay/DB-N/``; the
results post links there; ``dragonball demo`` writes them to its folder."""

from __future__ import annotations

from storage import repo

from ..kernel.context import ServiceError, Tx, game_code
from ..kernel.i18n import t
from . import stored as rounds

__all__ = ["replay_pages", "replay_url"]


def replay_pages(tx: Tx, game_id: int, lang: str) -> dict[str, str]:
    game = repo.get_game(tx.s, game_id)
    if game is None:
        raise ServiceError("unknown_game", game=game_code(game_id))
    materials = [
        rounds.material(tx, r.id) for r in repo.resolved_rounds(tx.s, game_id) if r.id is not None
    ]
    title = t("replay.title", lang, game=game_code(game), title=game.title or "")
    return tx.reporter.replay_pages(materials, lang, title)


def replay_url(tx: Tx, game_id: int, number: int) -> str | None:
    """Where the replay of round ``number`` is served, if the page is."""
    if tx.settings.web_url is None:
        return None
    return f"{tx.settings.web_url}/replay/{game_code(game_id)}/{tx.reporter.replay_file(number)}"

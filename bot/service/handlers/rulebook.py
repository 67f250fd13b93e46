"""``/rules``: the edition a game plays, the rules in short, and where to read
them in full — a link when the deployment publishes the docs
(``game.rules_url``), otherwise the players' rule book itself, sent as a file
with the picture of the field.

The rule books are package data (``bot/rulebook/rules-<lang>.md``, the second
edition's ``rules-001-<lang>.md``), copies of the books in ``docs/`` that a
test keeps identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources

from bot.i18n.editions import edition_name
from engine.ruleset import Ruleset

from ..kernel.i18n import N_, lang_or_default, t, tn
from ..kernel.ports import Reporter

__all__ = ["RULES_PICTURES", "book_url", "edition", "rulebook_files", "rules_params"]

RULES_PICTURES = "rules/"  # an outbox item's pictures: "rules/<ruleset>/<lang>"

# The players' rule book of each edition: (its file's stem, the attachment's
# name); a ruleset not listed is sent the classic book.
_BOOKS = {
    "classic": ("rules", N_("rules_file_book")),
    "variant-001": ("rules-001", N_("rules_file_book_001")),
}
# The few lines of the ``rules`` text that tell how the edition is played.
_PLAY = {"classic": N_("rules_play"), "variant-001": N_("rules_play_001")}


def edition(ruleset: Ruleset, lang: str) -> str:
    """«классические правила (classic, версия 1)»: what a game is played by."""
    name = edition_name(ruleset, lang)
    return t("ruleset.edition", lang, name=name, ruleset=ruleset.name, version=ruleset.version)


def rules_params(
    ruleset: Ruleset,
    lang: str,
    *,
    deadlines: str,
    timezone: str,
    url: str,
    players: int | None = None,
) -> dict[str, object]:
    """The parameters of the ``rules`` text for a reader of ``lang``; ``players``:
    the game's players on the field per team (``/newgame players=2``), if not the ruleset's."""
    from ..runtime.deadlines import schedule_text

    spells = ", ".join(
        t(
            "rules_spell_pair",
            lang,
            spell=_spell(p.spell_ru, p.spell, lang),
            counter=_spell(p.counter_ru, p.counter, lang),
        )
        for p in ruleset.spells
    )
    where = (
        t("rules_link", lang, url=book_url(url, ruleset, lang))
        if url
        else t("rules_attached", lang)
    )
    return {
        "edition": edition(ruleset, lang),
        "play": t(_PLAY.get(ruleset.name, _PLAY["classic"]), lang),
        "ticks": tn("rules_ticks", ruleset.ticks_per_round, lang),
        "rounds": tn("rules_rounds", ruleset.max_rounds, lang),
        "players": tn("rules_players", players or ruleset.players_per_team, lang),
        "deadlines": schedule_text(deadlines, lang, clock=True),
        "timezone": timezone,
        "spells": spells,
        "where": where,
    }


def book_url(url: str, ruleset: Ruleset, lang: str) -> str:
    """The configured address of the edition's book: "{book}" is its file's
    stem (rules, rules-001), "{lang}" ru or en."""
    stem, _ = _BOOKS.get(ruleset.name, _BOOKS["classic"])
    return url.replace("{book}", stem).replace("{lang}", lang_or_default(lang))


def _spell(ru: str, en: str, lang: str) -> str:
    return ru if lang_or_default(lang) == "ru" else en


def rulebook_files(
    reporter: Reporter, ruleset: Ruleset, lang: str
) -> Sequence[tuple[str, str, bytes]]:
    """The edition's players' rule book and the picture of its field, as
    attachments."""
    lang = lang_or_default(lang)
    stem, title = _BOOKS.get(ruleset.name, _BOOKS["classic"])
    book = resources.files("bot").joinpath("rulebook", f"{stem}-{lang}.md").read_bytes()
    field = reporter.field_picture(ruleset, lang)
    return [
        (t(title, lang), "text/markdown; charset=utf-8", book),
        (t("rules_file_field", lang), "image/png", field),
    ]

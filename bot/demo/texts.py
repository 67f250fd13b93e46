"""What the demo prints: the progress of each round and the closing summary,
Russian first, English with ``--lang en``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.render.phrases import plural

if TYPE_CHECKING:  # the runner uses stopped_title: no import cycle at run time
    from .runner import DemoResult, RoundProgress

__all__ = ["TEXTS", "progress_line", "stopped_title", "summary_text", "t"]

TEXTS: dict[str, dict[str, str]] = {
    "ru": {
        "intro": "Демонстрационный матч: «{left}» против «{right}», зерно {seed}, папка {folder}",
        "round": "Раунд {n}/{total}",
        "score": "«{left}» {a} : {b} «{right}»",
        "goal": " — гол!",
        "goals": " — голов: {n}!",
        "unverified": " — ПРОВЕРКА НЕ ПРОШЛА",
        "stopped": "Матч остановлен после раунда {n} (dragonball demo --rounds {n})",
        "title": "Демонстрация окончена: игра {game}",
        "rounds": "Сыграно раундов: {n}; время: {seconds:.1f} с",
        "verified_all": "Проверка: все {n} {rounds} проверены: зерно совпадает с обязательством",
        "verified_one": "Проверка: раунд проверен: зерно совпадает с обязательством",
        "verified_bad": "ПРОВЕРКА НЕ ПРОШЛА для раундов {rounds} (всего проверено {n})",
        "folder": "Всё записано в папку {folder}:",
        "reports": "отчёты раундов ({n}) и итог матча (summary.txt)",
        "ticks": "поле после каждого такта ({n} PNG)",
        "gifs": "каждый раунд анимацией ({n} GIF)",
        "transcript": "все сообщения судье и от судьи ({n} отправлено)",
        "database": "база данных судьи (SQLite)",
        "again": "Повторить этот матч: dragonball demo {args}",
        "setup": "Подготовка: база, игра, команды, капитаны…",
        "mail_ready": (
            "Почта: судья принимает письма по SMTP на {host}:{port} (любой получатель, без входа).\n"
            "Вы играете за игрока {player} (№{number}, «{team}»). Первое письмо — приглашение и пароль:\n"
            "    /start {code}\n"
            "    пароль: <фраза от 8 символов>\n"
            "Дальше приказы на языке приказов (docs/orders.md) с темой «[{game}] приказы» и строкой\n"
            "«пароль: …»; письмо «/ready» (тоже с паролем) играет раунд сразу. Положение на поле —\n"
            "в последнем отчёте (reports/) и диаграмме; ответы судьи — в transcript.txt.\n"
            "Каждый раунд ждёт писем до {wait:.0f} с. Отправить письмо из файла, например:\n"
            "    curl smtp://{host}:{port} --mail-from you@example.org --mail-rcpt judge@localhost -T письмо.eml"
        ),
        "mail_got": "Письмо от {sender} «{subject}»: {status}",
    },
    "en": {
        "intro": "Demonstration match: «{left}» against «{right}», seed {seed}, folder {folder}",
        "round": "Round {n}/{total}",
        "score": "«{left}» {a} : {b} «{right}»",
        "goal": " — goal!",
        "goals": " — {n} goals!",
        "unverified": " — VERIFICATION FAILED",
        "stopped": "The match was stopped after round {n} (dragonball demo --rounds {n})",
        "title": "The demo is over: game {game}",
        "rounds": "Rounds played: {n}; time: {seconds:.1f} s",
        "verified_all": "Verification: all {n} {rounds} verified: each seed matches its commitment",
        "verified_one": "Verification: the round is verified: its seed matches its commitment",
        "verified_bad": "VERIFICATION FAILED for rounds {rounds} ({n} verified)",
        "folder": "Everything is in the folder {folder}:",
        "reports": "the report of every round ({n}) and the match summary (summary.txt)",
        "ticks": "the field after every tick ({n} PNG)",
        "gifs": "every round animated ({n} GIF)",
        "transcript": "every message to and from the judge ({n} sent)",
        "database": "the judge's database (SQLite)",
        "again": "Play this match again: dragonball demo {args}",
        "setup": "Setting up: database, game, teams, captains…",
        "mail_ready": (
            "Mail: the judge takes mail by SMTP at {host}:{port} (any recipient, no login).\n"
            "You play {player} (no. {number}, «{team}»). First mail: the invitation and a pass phrase:\n"
            "    /start {code}\n"
            "    passphrase: <a phrase of 8 characters or more>\n"
            'Then orders in the order language (docs/orders.md), subject "[{game}] orders", with a\n'
            'line "passphrase: …"; a mail "/ready" (with the pass phrase too) plays the round at once.\n'
            "The position is in the last report (reports/) and diagram; the answers in transcript.txt.\n"
            "Each round waits up to {wait:.0f} s for mail. To send a mail from a file, e.g.:\n"
            "    curl smtp://{host}:{port} --mail-from you@example.org --mail-rcpt judge@localhost -T letter.eml"
        ),
        "mail_got": 'Mail from {sender} "{subject}": {status}',
    },
}


def t(key: str, lang: str, **params: object) -> str:
    return TEXTS["en" if lang == "en" else "ru"][key].format(**params)


def stopped_title(rounds: int, lang: str) -> str:
    return t("stopped", lang, n=rounds)


def progress_line(p: RoundProgress, lang: str) -> str:
    """``Раунд 5/30: «Саламандры» 0 : 1 «Виверны» — гол!``"""
    line = t("round", lang, n=p.number, total=p.total) + ": " + _score(p.teams, p.score, lang)
    if p.goals == 1:
        line += t("goal", lang)
    elif p.goals > 1:
        line += t("goals", lang, n=p.goals)
    if not p.verified:
        line += t("unverified", lang)
    return line


def _rounds(n: int, lang: str) -> str:
    if lang == "en":
        return "round" if n == 1 else "rounds"
    return plural(n, "раунд", "раунда", "раундов")


def _score(teams: tuple[str, str], score: tuple[int, int], lang: str) -> str:
    return t("score", lang, left=teams[0], right=teams[1], a=score[0], b=score[1])


def _span(paths: list[Path], root: Path) -> str:
    """``diagrams/round-01.gif … round-30.gif`` (or the one file)."""
    names = sorted(str(p.relative_to(root)) for p in paths)
    if not names:
        return "—"
    return names[0] if len(names) == 1 else f"{names[0]} … {Path(names[-1]).name}"


def summary_text(
    result: DemoResult, lang: str, *, shown_folder: str | None = None, again: str = ""
) -> str:
    """The closing summary: the match (score, end, goals, player of the match),
    the verification, the time, what the folder holds and how to play it again
    (``again``: the command's options, by default ``--seed SEED``)."""
    folder = result.folder
    root = folder.root
    blocks = result.summary.strip().split("\n\n")
    # The render's summary: [title, score, reason], [goals], team sections…, [player of the match]
    match = "\n".join([blocks[0], *blocks[1:2], *blocks[-1:]] if len(blocks) > 2 else blocks)
    lines = [t("title", lang, game=result.game), "", match, ""]
    lines.append(t("rounds", lang, n=result.rounds, seconds=result.seconds))
    if result.all_verified and result.verified == 1:
        lines.append(t("verified_one", lang))
    elif result.all_verified:
        lines.append(
            t("verified_all", lang, n=result.verified, rounds=_rounds(result.verified, lang))
        )
    else:
        rounds = ", ".join(str(n) for n in result.failed) or "—"
        lines.append(t("verified_bad", lang, rounds=rounds, n=result.verified))
    reports = sorted(folder.reports.glob("round-*.txt"))
    pngs = sorted(folder.diagrams.glob("*.png"))
    gifs = sorted(folder.diagrams.glob("*.gif"))
    rows = [
        (_span(reports, root), t("reports", lang, n=len(reports))),
        (_span(pngs, root), t("ticks", lang, n=len(pngs))),
        (_span(gifs, root), t("gifs", lang, n=len(gifs))),
        (folder.transcript.name, t("transcript", lang, n=sum(result.delivered.values()))),
        (folder.database.name, t("database", lang)),
    ]
    width = max(len(path) for path, _ in rows)
    lines += ["", t("folder", lang, folder=shown_folder or str(root))]
    lines += [f"  {path.ljust(width)}  {what}" for path, what in rows]
    lines += ["", t("again", lang, args=again or f"--seed {result.seed}")]
    return "\n".join(lines)

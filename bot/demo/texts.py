"""What the demo prints: the progress of each round and the closing summary,
in the demo's language (catalog keys ``demo.*``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.i18n import t, tn

if TYPE_CHECKING:  # the runner uses stopped_title: no import cycle at run time
    from .runner import DemoResult, RoundProgress

__all__ = ["progress_line", "stopped_title", "summary_text"]


def stopped_title(rounds: int, lang: str) -> str:
    return t("demo.stopped", lang, n=rounds)


def progress_line(p: RoundProgress, lang: str) -> str:
    """``Раунд 5/30: «Саламандры» 0 : 1 «Виверны» — гол!``"""
    line = t("demo.round", lang, n=p.number, total=p.total) + ": " + _score(p.teams, p.score, lang)
    if p.goals == 1:
        line += t("demo.goal", lang)
    elif p.goals > 1:
        line += t("demo.goals", lang, n=p.goals)
    if not p.verified:
        line += t("demo.unverified", lang)
    return line


def _score(teams: tuple[str, str], score: tuple[int, int], lang: str) -> str:
    return t("demo.score", lang, left=teams[0], right=teams[1], a=score[0], b=score[1])


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
    lines = [t("demo.title", lang, game=result.game), "", match, ""]
    lines.append(t("demo.rounds", lang, n=result.rounds, seconds=result.seconds))
    if result.all_verified and result.verified == 1:
        lines.append(t("demo.verified_one", lang))
    elif result.all_verified:
        lines.append(tn("demo.verified_all", result.verified, lang))
    else:
        rounds = ", ".join(str(n) for n in result.failed) or "—"
        lines.append(t("demo.verified_bad", lang, rounds=rounds, n=result.verified))
    reports = sorted(folder.reports.glob("round-*.txt"))
    pngs = sorted(folder.diagrams.glob("*.png"))
    gifs = sorted(folder.diagrams.glob("*.gif"))
    rows = [
        (_span(reports, root), t("demo.reports", lang, n=len(reports))),
        (_span(pngs, root), t("demo.ticks", lang, n=len(pngs))),
        (_span(gifs, root), t("demo.gifs", lang, n=len(gifs))),
        (folder.transcript.name, t("demo.transcript", lang, n=sum(result.delivered.values()))),
        (folder.database.name, t("demo.database", lang)),
    ]
    width = max(len(path) for path, _ in rows)
    lines += ["", t("demo.folder", lang, folder=shown_folder or str(root))]
    lines += [f"  {path.ljust(width)}  {what}" for path, what in rows]
    lines += ["", t("demo.again", lang, args=again or f"--seed {result.seed}")]
    return "\n".join(lines)

"""``dragonball demo``: a whole match through the real judge, in a minute.

The command line around :func:`bot.demo.run_demo`: options, the progress
display (a rich progress bar on a terminal, one plain line per round
otherwise, nothing with ``--quiet``) and the closing summary.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from bot.context import AppContext, pass_app

if TYPE_CHECKING:
    from bot.demo import MailInvite, MailReceived, RoundProgress

__all__ = ["demo"]


@dataclass
class _Display:
    """Where the demo's progress goes: ``say`` prints a line that stays,
    ``show`` updates the progress (the bar, or one more line)."""

    lang: str
    say: Callable[[str], None]
    show: Callable[[RoundProgress], None]

    def mail_ready(self, invite: MailInvite) -> None:
        from bot.i18n import t

        self.say(t("demo.mail_ready", self.lang, **vars(invite)))

    def mail(self, got: MailReceived) -> None:
        from bot.i18n import t

        self.say(
            t("demo.mail_got", self.lang, sender=got.sender, subject=got.subject, status=got.status)
        )


@contextmanager
def _display(lang: str, quiet: bool) -> Iterator[_Display]:
    """A progress bar on a terminal, plain lines elsewhere, nothing with ``--quiet``."""
    from bot.demo.texts import progress_line
    from bot.i18n import t

    if quiet:
        yield _Display(lang, lambda _line: None, lambda _p: None)
        return
    if not sys.stdout.isatty():
        yield _Display(lang, click.echo, lambda p: click.echo(progress_line(p, lang)))
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()
    ) as bar:
        task = bar.add_task(t("demo.setup", lang), total=None)

        def show(p: RoundProgress) -> None:
            line = progress_line(p, lang)
            bar.update(task, description=line, completed=p.number, total=p.total)
            if p.goals or not p.verified:  # goals and failures stay on the screen
                bar.console.print(line, highlight=False)

        yield _Display(lang, lambda line: bar.console.print(line, highlight=False), show)


@click.command("demo")
@click.option(
    "--out",
    "out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("demo-out"),
    show_default=True,
    help="Folder for the reports, diagrams, transcript and database.",
)
@click.option(
    "--rounds",
    type=click.IntRange(min=1),
    help="Stop after this many rounds (default: the ruleset's last; the match may end earlier).",
)
@click.option(
    "--seed",
    default="2026",
    show_default=True,
    help="Seed of the dice and of the bots' choices; the same seed plays the same match. "
    "`random` for a fresh one.",
)
@click.option("--lang", type=click.Choice(["ru", "en"]), default="ru", show_default=True)
@click.option(
    "--ruleset",
    "ruleset_name",
    default="classic",
    show_default=True,
    help="The edition to play: classic, or variant-001 (the second edition, on squares).",
)
@click.option(
    "--force", is_flag=True, help="Write into a non-empty folder that is not demo output."
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but the closing summary.")
@click.option(
    "--mail",
    is_flag=True,
    help="Also take real e-mail: a local SMTP inbox where you can send orders for one player.",
)
@click.option(
    "--mail-port", type=click.IntRange(0, 65535), default=2525, show_default=True, help="Its port."
)
@click.option(
    "--mail-wait",
    type=click.FloatRange(min=0),
    default=60.0,
    show_default=True,
    help="Seconds each round waits for mail (a mail /ready plays the round at once).",
)
@pass_app
def demo(
    app: AppContext,
    out: Path,
    rounds: int | None,
    seed: str,
    lang: str,
    ruleset_name: str,
    force: bool,
    quiet: bool,
    mail: bool,
    mail_port: int,
    mail_wait: float,
) -> None:
    """Play a whole demonstration match through the judge and write everything to a folder.

    Two bot captains send their orders as Telegram messages; the judge stores
    and checks them, resolves each round at its deadline on a fast clock,
    verifies its dice and draws its diagrams.  No Telegram token, mail server
    or configuration file is needed: the database is a SQLite file in the
    output folder.
    """
    app.setup_logging(use_config=False)
    # Imported here: the demo pulls in the whole judge, which `--help` does not need.
    from bot.demo import DemoError, DemoFolder, DemoOptions, FolderError, MailOptions, run_demo
    from bot.demo.cast import team_name
    from bot.demo.mailbox import mail_available
    from bot.demo.texts import summary_text
    from bot.i18n import t

    if mail and not mail_available():
        raise click.ClickException(
            "--mail needs the aiosmtpd package: pip install aiosmtpd (or pip install -e '.[test]')"
        )
    if seed.strip().lower() == "random":
        seed = secrets.token_hex(4)
    options = DemoOptions(
        DemoFolder(out),
        rounds=rounds,
        seed=seed,
        lang=lang,
        force=force,
        mail=MailOptions(port=mail_port, wait=mail_wait) if mail else None,
        ruleset=ruleset_name,
    )
    try:  # before anything is printed: a folder we may not use is the one thing to say
        options.folder.prepare(force=force, lang=lang)
    except FolderError as exc:
        raise click.ClickException(str(exc)) from None
    if not quiet:
        left, right = team_name("left", lang), team_name("right", lang)
        click.echo(t("demo.intro", lang, left=left, right=right, seed=seed, folder=out))
    try:
        with _display(lang, quiet) as display:
            run = run_demo(
                options, display.show, on_mail_ready=display.mail_ready, on_mail=display.mail
            )
            result = asyncio.run(run)
    except DemoError as exc:
        raise click.ClickException(
            f"the judge misbehaved (a bug, please report it): {exc}"
        ) from None
    except OSError as exc:  # e.g. the mail port is taken, the folder became unwritable
        raise click.ClickException(str(exc)) from None
    again = " ".join(
        [f"--seed {seed}"]
        + ([f"--rounds {rounds}"] if rounds else [])
        + (["--lang en"] if lang == "en" else [])
        # Another ruleset plays another match: the line to repeat it names it.
        + ([f"--ruleset {ruleset_name}"] if ruleset_name != "classic" else [])
    )
    click.echo(summary_text(result, lang, shown_folder=str(out), again=again))
    if not result.all_verified:
        raise click.exceptions.Exit(1)

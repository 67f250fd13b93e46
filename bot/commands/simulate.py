"""``dragonball simulate``: a whole match between the built-in bot policies."""

from __future__ import annotations

import json

import click

from engine.policies import POLICIES
from engine.ruleset import RulesetError, load_ruleset
from engine.simulate import simulate_match

__all__ = ["simulate"]

_FATES_RU = {
    "swallowed": "проглочен",
    "held": "в руках",
    "free": "в полёте",
    "vanished": "невидим",
    "burnt": "сгорел",
}
_SIDES_RU = {"left": "левые", "right": "правые"}
_END_RU = {
    "all_balls": "все мячи заброшены",
    "team_swallowed": "проглочена вся команда",
    "decided": "исход решён",
    "max_rounds": "сыграны все раунды",
}


@click.command("simulate")
@click.option("--seed", required=True, help="Seed of the whole match (any text or number).")
@click.option("--max-rounds", type=click.IntRange(1), help="Stop after this many rounds.")
@click.option("--players-per-team", type=click.IntRange(1, 21), help="Players on each side.")
@click.option(
    "--left", "left", type=click.Choice(sorted(POLICIES)), default="random", show_default=True
)
@click.option(
    "--right", "right", type=click.Choice(sorted(POLICIES)), default="greedy", show_default=True
)
@click.option("--ruleset", "ruleset_name", default="classic", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON summary.")
@click.option(
    "--lang",
    type=click.Choice(["ru", "en"]),
    default="ru",
    show_default=True,
    help="Language of the text summary.",
)
def simulate(
    seed: str,
    max_rounds: int | None,
    players_per_team: int | None,
    left: str,
    right: str,
    ruleset_name: str,
    as_json: bool,
    lang: str,
) -> None:
    """Play a match between two bot policies and print a summary.

    The same seed and options give byte-identical output.
    """
    try:
        rules = load_ruleset(ruleset_name)
    except RulesetError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        result = simulate_match(
            seed,
            rules,
            max_rounds=max_rounds,
            players_per_team=players_per_team,
            policies=(left, right),
        )
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    summary = result.summary()
    if as_json:
        click.echo(json.dumps(summary, sort_keys=True, ensure_ascii=False))
        return
    score = summary["score"]
    if lang == "en":
        click.echo(
            f"seed {summary['seed']}: {left} (left) {score['left']} : {score['right']} "
            f"{right} (right) after {summary['rounds']} rounds, {summary['ticks']} ticks; "
            f"end: {summary['end_reason']}; {summary['events']} events"
        )
        for ball, fate in summary["balls"].items():
            by = f" by {fate['by']}" if "by" in fate else ""
            click.echo(f"  {ball}: {fate['state']}{by}")
        return
    click.echo(
        f"посев {summary['seed']}: {left} (левые) {score['left']} : {score['right']} "
        f"{right} (правые); раундов {summary['rounds']}, тактов {summary['ticks']}; "
        f"конец: {_END_RU.get(summary['end_reason'], summary['end_reason'])}; "
        f"событий {summary['events']}"
    )
    names = {b: rules.balls[b].name_ru for b in rules.ball_order}
    for ball, fate in summary["balls"].items():
        by = f" ({_SIDES_RU[fate['by']]})" if fate.get("by") in _SIDES_RU else ""
        click.echo(f"  {names.get(ball, ball)}: {_FATES_RU.get(fate['state'], fate['state'])}{by}")

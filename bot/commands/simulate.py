"""``dragonball simulate``: a whole match between the built-in bot policies."""

from __future__ import annotations

import json
from typing import Any

import click

from engine.policies import POLICIES
from engine.ruleset import Ruleset, RulesetError, load_ruleset
from engine.simulate import simulate_match

__all__ = ["simulate"]

# The text summary: the seed and balls called as everywhere else (the seed
# «зерно», a ball by its colour with its magic in brackets), and a swallowed
# ball says whose dragon swallowed it and which team the points went to.
_WORDS = {
    "ru": {
        "head": "зерно {seed}: {left} (левые) {l} : {r} {right} (правые); "
        "раундов {rounds}, тактов {ticks}; конец: {end}; событий {events}",
        "swallowed": "проглочен драконом {dragon} — очки {scorer}",
        "held": "в руках у игрока {number} ({team})",
        "free": "в полёте, клетка {cell}",
        "vanished": "исчез (невидим), клетка {cell}",
        "burnt": "сгорел",
        "left": "левых",
        "right": "правых",
        "scorer_left": "левым",
        "scorer_right": "правым",
    },
    "en": {
        "head": "seed {seed}: {left} (left) {l} : {r} {right} (right) after {rounds} rounds, "
        "{ticks} ticks; end: {end}; {events} events",
        "swallowed": "swallowed by the {dragon} dragon, points to the {scorer}",
        "held": "held by player {number} ({team})",
        "free": "in flight, cell {cell}",
        "vanished": "vanished (invisible), cell {cell}",
        "burnt": "burnt",
        "left": "left",
        "right": "right",
        "scorer_left": "left",
        "scorer_right": "right",
    },
}
_END_RU = {
    "all_balls": "все мячи заброшены",
    "team_swallowed": "проглочена вся команда",
    "decided": "исход решён",
    "max_rounds": "сыграны все раунды",
    "asleep": "дракон уснул",
    "all_players_out": "все игроки выведены из игры",
}
_TEAM_RU = {"left": "левые", "right": "правые"}


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
    click.echo(_text(summary, rules, left, right, lang))


def _text(summary: dict[str, Any], rules: Ruleset, left: str, right: str, lang: str) -> str:
    w = _WORDS[lang]
    score, end = summary["score"], str(summary["end_reason"])
    lines = [
        w["head"].format(
            seed=summary["seed"],
            left=left,
            right=right,
            l=score["left"],
            r=score["right"],
            rounds=summary["rounds"],
            ticks=summary["ticks"],
            end=_END_RU.get(end, end) if lang == "ru" else end,
            events=summary["events"],
        )
    ]
    for ball, fate in summary["balls"].items():
        lines.append(f"  {_ball(rules, ball, lang)}: {_fate(fate, lang)}")
    return "\n".join(lines)


def _ball(rules: Ruleset, ball: str, lang: str) -> str:
    """«красный (перцовый)» / "red (pepper)": the colour, its magic once."""
    spec = rules.balls.get(ball)
    if spec is None:
        return ball
    if lang == "ru":
        return f"{spec.colour_ru} ({spec.name_ru})"
    return f"{ball} ({spec.effect})"


def _fate(fate: dict[str, Any], lang: str) -> str:
    w = _WORDS[lang]
    state, by = fate.get("state"), fate.get("by")
    if state == "swallowed" and by in ("left", "right"):
        scorer = "right" if by == "left" else "left"
        return w["swallowed"].format(dragon=w[by], scorer=w[f"scorer_{scorer}"])
    if state == "held" and by in ("left", "right"):
        team = _TEAM_RU[by] if lang == "ru" else by
        return w["held"].format(number=fate.get("number"), team=team)
    if state in ("free", "vanished"):
        return w[state].format(cell=fate.get("cell"))
    if state == "burnt":
        return w["burnt"]
    return str(state)

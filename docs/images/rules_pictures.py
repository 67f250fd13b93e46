"""Draw the pictures of the players' rule book (docs/rules-ru.md, rules-en.md)
with the judge's own renderer: the empty field with its numbering and legend,
and the opening position.  Run from the repository root after a change to the
field, the legend or the opening:

    python docs/images/rules_pictures.py
"""

from __future__ import annotations

from pathlib import Path

from bot.demo import cast
from bot.render.diagram import png_bytes, render_field, render_position
from engine.ruleset import load_ruleset
from engine.setup import new_match

HERE = Path(__file__).resolve().parent


def main() -> None:
    ruleset = load_ruleset("classic")
    for lang in ("ru", "en"):
        (HERE / f"field-{lang}.png").write_bytes(png_bytes(render_field(ruleset, lang=lang)))
        state, _ = new_match(
            ruleset,
            "rules",
            team_names={side: cast.team_name(side, lang) for side in ("left", "right")},
            rosters={side: cast.roster(side, lang) for side in ("left", "right")},
        )
        picture = render_position(state, ruleset, lang=lang)
        (HERE / f"opening-{lang}.png").write_bytes(png_bytes(picture))
        print(f"wrote field-{lang}.png, opening-{lang}.png")


if __name__ == "__main__":
    main()

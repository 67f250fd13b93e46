"""Round trip: parse(format(x)) == x for generated order sheets, in both languages."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from orderlang_states import RULESET, STATES

from bot.orderlang import format_orders, parse_message
from bot.orderlang.lexicon import clean_text
from engine.orders import (
    DRAGON_MOVES,
    FIRE_KINDS,
    Catch,
    DragonOrder,
    Pass,
    Penalty,
    PlayerOrder,
    RoundOrders,
    Steal,
    Substitution,
)
from engine.state import MatchState, other_side

BALLS = RULESET.ball_order
SPELLS = RULESET.spell_names
COUNTERS = RULESET.counter_names
TICKS = st.integers(1, RULESET.ticks_per_round)
CELLS = st.integers(0, 999)
HEIGHTS = st.integers(0, 9)


def _clean(text: str) -> str:
    for _ in range(2):
        text = clean_text(text).replace("\n", " ").strip()
    return text


DESCRIPTIONS = st.one_of(
    st.just(""),
    st.text(max_size=40).map(_clean),
    st.sampled_from(["уходит в пике", "финт -- и назад", "смотрит // на дракона", "🐉 огонь!"]),
)


@st.composite
def sheets(draw: Any, state: MatchState, sides: tuple[str, ...]) -> RoundOrders:
    players: dict[tuple[Any, ...], PlayerOrder] = {}
    for side in sides:
        roster = [p.number for p in state.team_players(side)]  # type: ignore[arg-type]
        targets = [p.number for p in state.team_players(other_side(side))]  # type: ignore[arg-type]
        for _ in range(draw(st.integers(0, 8))):
            action = draw(
                st.one_of(
                    st.none(),
                    st.builds(
                        Pass,
                        st.sampled_from(BALLS),
                        CELLS,
                        HEIGHTS,
                        st.none() | st.sampled_from(SPELLS),
                    ),
                    st.builds(
                        Catch,
                        st.none() | st.sampled_from(BALLS),
                        st.none() | st.sampled_from(COUNTERS),
                    ),
                    st.builds(Steal, st.sampled_from(targets)),
                )
            )
            o = PlayerOrder(
                side,  # type: ignore[arg-type]
                draw(st.sampled_from(roster)),
                draw(TICKS),
                draw(CELLS),
                draw(HEIGHTS),
                action,
                draw(DESCRIPTIONS),
            )
            players[(o.side, o.number, o.tick)] = o
    dragons = {
        (d.side, d.tick): d
        for d in draw(
            st.lists(
                st.builds(
                    DragonOrder,
                    st.sampled_from(sides),
                    TICKS,
                    st.sampled_from(DRAGON_MOVES),
                    st.sampled_from((-1, 0, 1)),
                    st.none() | st.sampled_from(FIRE_KINDS),
                ),
                max_size=4,
            )
        )
    }
    subs: dict[tuple[Any, ...], Substitution] = {}
    penalties: set[Penalty] = set()
    for side in sides:
        numbers = [p.number for p in state.team_players(side)]  # type: ignore[arg-type]
        for out, into in draw(
            st.lists(st.tuples(st.sampled_from(numbers), st.sampled_from(numbers)), max_size=2)
        ):
            subs[(side, out)] = Substitution(side, out, into)  # type: ignore[arg-type]
        if len(sides) == 2:  # only a game master orders penalties
            penalties |= {Penalty(side, t) for t in draw(st.lists(TICKS, max_size=2))}  # type: ignore[arg-type]
    return RoundOrders(
        tuple(players.values()), tuple(dragons.values()), tuple(subs.values()), tuple(penalties)
    )


def _round_trip(orders: RoundOrders, state: MatchState, side: Any, lang: str) -> None:
    text = format_orders(orders, state=state, ruleset=RULESET, lang=lang)
    result = parse_message(
        text, state=state, ruleset=RULESET, side=side, lang=lang, check_legality=False
    )
    assert result.errors == (), text
    assert result.orders.sorted() == orders.sorted(), text


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(), state_name=st.sampled_from(sorted(STATES)), lang=st.sampled_from(["ru", "en"])
)
def test_round_trip_team_sheet(data: Any, state_name: str, lang: str) -> None:
    state = STATES[state_name]()
    side = data.draw(st.sampled_from(["left", "right"]))
    orders = data.draw(sheets(state, (side,)))
    _round_trip(orders, state, side, lang)


@settings(max_examples=100, deadline=None)
@given(
    data=st.data(), state_name=st.sampled_from(sorted(STATES)), lang=st.sampled_from(["ru", "en"])
)
def test_round_trip_game_master_sheet(data: Any, state_name: str, lang: str) -> None:
    state = STATES[state_name]()
    orders = data.draw(sheets(state, ("left", "right")))
    _round_trip(orders, state, None, lang)

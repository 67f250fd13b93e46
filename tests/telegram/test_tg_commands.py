"""The command menus match what the game service reads."""

from __future__ import annotations

from bot.service.inbound.commands import COMMANDS
from bot.service.inbound.commands import GM_COMMANDS as SERVICE_GM_COMMANDS
from bot.telegram.commands import GM_COMMANDS, GROUP_COMMANDS, PLAYER_COMMANDS, menu


def test_menus_offer_exactly_the_service_commands() -> None:
    # /start comes from the client's Start button, not from the menu.
    assert {c.name for c in PLAYER_COMMANDS} == set(COMMANDS) - {"start"}
    assert {c.name for c in GM_COMMANDS} == set(SERVICE_GM_COMMANDS)
    assert {c.name for c in GROUP_COMMANDS} <= set(COMMANDS)


def test_descriptions_fit_telegram_in_both_languages() -> None:
    for lang in ("ru", "en"):
        for command in menu(PLAYER_COMMANDS + GM_COMMANDS, lang):
            assert 1 <= len(command.description) <= 256, command
    assert menu(PLAYER_COMMANDS, "en")[0].description == "my orders for this round"
    assert menu(PLAYER_COMMANDS, "ru")[0].description == "мои приказы на этот раунд"

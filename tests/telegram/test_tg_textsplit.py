"""Cutting long texts into Telegram messages."""

from __future__ import annotations

import pytest

from bot.telegram.textsplit import MAX_MESSAGE, split_text, utf16_len


def test_short_text_is_one_message() -> None:
    assert split_text("Раунд 3 открыт.\nСрок: 21:00") == ["Раунд 3 открыт.\nСрок: 21:00"]


def test_blank_text_gives_nothing() -> None:
    assert split_text("") == []
    assert split_text("\n \n") == []


def test_long_report_is_cut_between_lines() -> None:
    lines = [f"Такт {i}: игрок 3 левых летит на поле {i % 211 + 1}, высота 2." for i in range(400)]
    text = "\n".join(lines)
    parts = split_text(text)
    assert len(parts) > 1
    assert all(utf16_len(part) <= MAX_MESSAGE for part in parts)
    # Every line survives whole, in order.
    assert [line for part in parts for line in part.split("\n")] == lines


def test_a_line_longer_than_the_limit_is_cut_at_spaces() -> None:
    words = ["слово"] * 50
    parts = split_text(" ".join(words), limit=40)
    assert all(len(part) <= 40 for part in parts)
    assert " ".join(parts).split() == words


def test_a_line_without_spaces_is_cut_hard() -> None:
    assert split_text("x" * 25, limit=10) == ["x" * 10, "x" * 10, "x" * 5]


def test_characters_outside_the_bmp_count_twice() -> None:
    text = "🐉" * 6  # 12 UTF-16 units
    parts = split_text(text, limit=5)
    assert parts == ["🐉🐉", "🐉🐉", "🐉🐉"]


def test_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        split_text("x", limit=0)


def _block(text: str) -> str:
    from bot.service.kernel.textblocks import pre

    return pre(text)


def test_preformatted_blocks_become_ranges_in_utf16_units() -> None:
    from bot.telegram.textsplit import split_formatted

    block = "1: Кузнецв 🐉: 169 в2\n   ^^^^^^^"
    text = f"Ошибки (1):\n\n{_block(block)}\nНет игрока."
    [(plain, ranges)] = split_formatted(text)
    assert "\ue000" not in plain and "\ue001" not in plain
    start = utf16_len("Ошибки (1):\n\n")
    assert ranges == ((start, utf16_len(block)),)  # the emoji counts twice
    assert plain == f"Ошибки (1):\n\n{block}\nНет игрока."


def test_a_block_cut_between_two_messages_stays_preformatted_in_both() -> None:
    from bot.telegram.textsplit import split_formatted

    sheet = "\n".join(f"Иванов: {cell} в2" for cell in range(1, 60))
    parts = split_formatted("Лист:\n" + _block(sheet) + "\nконец", limit=300)
    assert len(parts) > 2
    assert all(utf16_len(text) <= 300 for text, _ in parts)
    for text, ranges in parts:
        for offset, length in ranges:
            covered = text.encode("utf-16-le")[2 * offset : 2 * (offset + length)].decode(
                "utf-16-le"
            )
            assert all(line.startswith("Иванов: ") for line in covered.split("\n"))
    assert parts[0][0].startswith("Лист:") and parts[-1][0].endswith("конец")
    assert [line for text, _ in parts for line in text.split("\n")] == [
        "Лист:",
        *sheet.split("\n"),
        "конец",
    ]
    assert split_formatted("plain\ntext") == [("plain\ntext", ())]


def test_a_part_cut_again_keeps_its_text_and_its_blocks() -> None:
    from bot.telegram.textsplit import resplit, split_formatted

    sheet = "\n".join(f"Иванов: {cell} в2" for cell in range(1, 30))
    [part] = split_formatted("Лист:\n" + _block(sheet) + "\nконец\n" + _block("x y"))
    smaller = resplit(part, 120)
    assert len(smaller) > 2
    assert all(utf16_len(text) <= 120 for text, _ in smaller)
    assert "\n".join(text for text, _ in smaller) == part[0]
    fixed = [
        line
        for text, ranges in smaller
        for offset, length in ranges
        for line in text[offset : offset + length].split("\n")
    ]
    assert fixed == [*sheet.split("\n"), "x y"]  # no emoji here: offsets are indices
    assert resplit(("plain", ()), 100) == [("plain", ())]

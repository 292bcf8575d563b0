"""tests/fast_codec.py: Hypothesis's UTF-8 table computed in runs gives what the one-character-at-a-time loop gives."""

from __future__ import annotations

import pytest

from tests import fast_codec


def one_by_one(codec: str, low: int, high: int) -> tuple[list[list[int]], list[list[int]]]:
    """Hypothesis's own loop (charmap.intervals_from_codec), on ``low..high`` only, merged into intervals."""
    encodable: list[list[int]] = []
    lossy: list[list[int]] = []
    for point in range(low, high + 1):
        char = chr(point)
        try:
            encoded = char.encode(codec)
        except Exception:
            continue
        fast_codec._add(encodable, point, point)
        try:
            roundtrips = encoded.decode(codec) == char
        except Exception:
            roundtrips = False
        if not roundtrips:
            fast_codec._add(lossy, point, point)
    return encodable, lossy


@pytest.mark.parametrize(("codec", "low", "high"), [
    ("utf-8", 0xD000, 0xE3FF),  # the surrogates (not encodable) inside runs that straddle them
    ("utf-8", 0x10E000, 0x10FFFF),  # the last run, cut short at the end of Unicode
    ("ascii", 0, 0x2FF),
    ("cp1251", 0, 0x4FF),  # scattered encodable points: many splits
    ("euc_jp", 0, 0x2FF),  # the yen sign encodes to the backslash's byte: encodable, but not back to itself
])
def test_runs_give_what_one_character_at_a_time_gives(codec: str, low: int, high: int) -> None:
    assert fast_codec.intervals(codec, low, high) == one_by_one(codec, low, high)


def test_the_suite_uses_it_and_utf8_is_every_code_point_but_the_surrogates() -> None:
    from hypothesis.internal import charmap

    assert getattr(charmap.intervals_from_codec, "_ddz_fast", False), "tests/conftest.py did not install it"
    before = charmap.intervals_from_codec
    assert fast_codec.install() and charmap.intervals_from_codec is before  # a second call changes nothing
    encodable, lossy = charmap.intervals_from_codec("utf-8")
    assert encodable.intervals == ((0, 0xD7FF), (0xE000, 0x10FFFF))
    assert lossy.intervals == ()

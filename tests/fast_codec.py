"""Hypothesis's table of the characters UTF-8 can encode, computed in chunks instead of one character at a time.

``st.text()`` draws from ``characters(codec="utf-8")``, and the first use in a process asks
``hypothesis.internal.charmap.intervals_from_codec("utf-8")``: a Python loop over all 1,114,112 code points,
encoding each one (3.8 s CPU on the slow 2-core machine), cached in ``.hypothesis/unicode_data/``.  A fresh
clone — what CI runs — has no such cache, so every xdist worker that reached a text strategy before the other
had written it paid the loop (docs/testing.md, round 13).

:func:`intervals` gives the same answer by encoding runs of code points: a run that encodes (and decodes back
to itself) as a whole is encodable (and round-trips) character by character, since UTF-8 encodes each code
point on its own; a run that fails is split in two until the failing characters stand alone.  The
result is built into Hypothesis's ``IntervalSet`` the way Hypothesis builds it.  Only the UTF-8 codec takes this
path (a stateful or multi-byte legacy codec need not encode a run as it encodes its characters); any other
codec, and any Hypothesis whose private ``charmap.intervals_from_codec`` is not where this expects it, is left
to Hypothesis (:func:`install` does nothing then).
"""

from __future__ import annotations

import codecs
import functools
import sys
from collections.abc import Callable
from typing import Any

#: Code points per run tried at once (a run holding a surrogate is split down to it).
RUN = 4096


def _scan(codec: str, low: int, high: int, encodable: list[list[int]], lossy: list[list[int]]) -> None:
    """Add ``low..high`` (inclusive) to ``encodable`` / ``lossy`` (encodes but does not decode to itself)."""
    text = "".join(map(chr, range(low, high + 1)))
    try:
        encoded = text.encode(codec)
    except Exception:  # usually UnicodeEncodeError (Hypothesis catches any exception too)
        if low == high:
            return
        middle = (low + high) // 2
        _scan(codec, low, middle, encodable, lossy)
        _scan(codec, middle + 1, high, encodable, lossy)
        return
    try:
        roundtrips = encoded.decode(codec) == text
    except Exception:
        roundtrips = False
    if not roundtrips and low != high:
        middle = (low + high) // 2
        _scan(codec, low, middle, encodable, lossy)
        _scan(codec, middle + 1, high, encodable, lossy)
        return
    _add(encodable, low, high)
    if not roundtrips:
        _add(lossy, low, high)


def _add(intervals: list[list[int]], low: int, high: int) -> None:
    if intervals and intervals[-1][1] + 1 == low:
        intervals[-1][1] = high
    else:
        intervals.append([low, high])


def intervals(codec: str, low: int = 0, high: int = sys.maxunicode) -> tuple[list[list[int]], list[list[int]]]:
    """The code points of ``low..high`` that ``codec`` encodes, and those of them that do not decode back to
    themselves, as sorted, merged inclusive intervals."""
    encodable: list[list[int]] = []
    lossy: list[list[int]] = []
    for start in range(low, high + 1, RUN):
        _scan(codec, start, min(start + RUN - 1, high), encodable, lossy)
    return encodable, lossy


def install() -> bool:
    """Put the chunked UTF-8 table under Hypothesis's ``intervals_from_codec``; False when it could not."""
    try:
        from hypothesis.internal import charmap
        from hypothesis.internal.intervalsets import IntervalSet
    except ImportError:  # pragma: no cover - the suite needs Hypothesis; another layout: left alone
        return False
    original = getattr(charmap, "intervals_from_codec", None)
    if original is None or getattr(original, "_ddz_fast", False):
        return original is not None

    @functools.cache
    def intervals_from_codec(codec_name: str) -> Any:
        if codecs.lookup(codec_name).name != "utf-8" or codec_name != "utf-8":
            return original(codec_name)
        encodable, lossy = intervals(codec_name)
        result = IntervalSet(encodable)  # built as Hypothesis builds it (charmap.intervals_from_codec)
        result = result.union(result)
        non_roundtrip = IntervalSet(lossy)
        non_roundtrip = non_roundtrip.union(non_roundtrip)
        return result, non_roundtrip

    fast: Callable[[str], Any] = intervals_from_codec
    fast._ddz_fast = True  # type: ignore[attr-defined]
    setattr(charmap, "intervals_from_codec", fast)  # strings.py looks it up on the module at each call
    return True

"""Fuzzing the YAML loader (issue 23): any text is JSON-typed data or one short line naming the
line (never another exception), and every JSON value written by PyYAML reads back as itself."""

from __future__ import annotations

import math
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tutor.files import MAX_DIGITS, InvalidFile, parse_yaml

FRAGMENTS = ["a", ": ", "- ", "\n", "  ", "[", "]", "{", "}", ",", "'", '"', "1", ":0", ".5", "e+9", ".nan", ".inf",
             "!!timestamp ", "!!int ", "!!float ", "!!str ", "!!binary ", "!foo ", "&x ", "*x", "<<: ", "~", "null",
             "yes", "0x1F", "2001-12-14", "#", "---\n", "...\n", "|\n", ">\n", "?", "%YAML 1.1\n", "\t", "é", "9" * 45]
texts = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join) | st.text(max_size=200)


def _json_typed(value: Any) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, (str, int, float, bool)) or k is None for k in value) \
            and all(_json_typed(v) for v in value.values())
    if isinstance(value, list):
        return all(_json_typed(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, (str, int, bool))


@settings(max_examples=100)
@given(texts)
def test_any_text_is_json_data_or_one_short_line(text: str) -> None:
    try:
        data = parse_yaml(text, "f.yaml")
    except InvalidFile as error:
        message = str(error)
        assert message.startswith("f.yaml: ") and "\n" not in message and len(message) < 200, message
        return
    assert _json_typed(data), repr(data)[:200]


#: Text PyYAML writes faithfully (it folds line separators such as U+0085 when it writes them).
plain = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats(allow_nan=False, allow_infinity=False)
    | plain,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(plain, inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=60)
@given(json_values)
def test_json_values_written_by_pyyaml_read_back_as_themselves(value: Any) -> None:
    text = yaml.safe_dump({"v": value}, allow_unicode=True)
    assert parse_yaml(text) == {"v": value}


def test_the_number_limit_is_above_every_64_bit_value() -> None:
    assert len(str(-(2**64))) < MAX_DIGITS

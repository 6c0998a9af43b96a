"""No config value can make loading or its error message walk a huge structure.

YAML aliases may repeat at most ``MAX_ALIASED_VALUES`` values: a few hundred
bytes of nested aliases ("billion laughs") under ``guaranteed_categories`` took
~68 s and 1 GB before their error, because FactCategory put a full repr() of
the aliased list in its message. Anchors a real config uses (a shared block,
``<<:`` merge keys) still load. The error formatter never raises itself: an int
over 4,300 digits used to end in an untyped ValueError from its repr().
Unknown names (YAML keys, ``DEERFLOW_MEMORY_*`` variables, keyword settings)
are listed ten at most, each cut to 80 characters: a 1 MiB file of typo keys
took ~10 s (a "did you mean" for each) and made a 2.5 MB message.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from deerflow_memory.config import (
    ENV_PREFIX,
    MAX_ALIASED_VALUES,
    MAX_CONFIG_BYTES,
    MemoryConfig,
    load_config,
)
from deerflow_memory.config.messages import closest as closest_setting
from deerflow_memory.errors import ConfigError
from deerflow_memory.models import FactCategory


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def nested_aliases(levels: int, setting: str = "guaranteed_categories") -> str:
    """``levels`` lines of ten aliases each to the line before: 10**levels strings."""
    lines = ["a0: &a0 [goal, goal, goal, goal, goal, goal, goal, goal, goal, goal]"]
    lines += [f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]" for k in range(1, levels)]
    return "\n".join([*lines, "memory:", f"  {setting}: *a{levels - 1}", ""])


def test_aliases_repeating_more_than_the_bound_are_refused_naming_the_line(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, nested_aliases(4))  # 10,000 strings: just over the bound
    with pytest.raises(ConfigError) as refused:
        load_config(path, environ={})
    message = str(refused.value)
    assert message == (
        f"config file {path}, line 4: aliases (*a2 and those before it) repeat more than "
        f"{MAX_ALIASED_VALUES:,} values (a long text counts one per 100 characters), "
        "far more than a configuration holds"
    )


@pytest.mark.parametrize("setting", ["guaranteed_categories", "tenants", "storage", "retrieval"])
def test_the_alias_bound_holds_whatever_setting_the_aliases_feed(
    tmp_path: Path, setting: str
) -> None:
    with pytest.raises(ConfigError, match=r"line 4: aliases .* repeat more than 10,000 values"):
        load_config(write(tmp_path, nested_aliases(4, setting)), environ={})


def test_aliases_repeating_one_long_text_count_its_characters(tmp_path: Path) -> None:
    # 2,000 aliases of a 60,000-character origin: 2,000 values but 120 M characters.
    origin = "https://a" + "b" * 60_000 + ".com"
    path = write(tmp_path, f'http_allowed_origins: [&o "{origin}"' + ", *o" * 2_000 + "]\n")
    with pytest.raises(ConfigError, match=r"line 1: aliases \(\*o and those before it\) repeat"):
        load_config(path, environ={})
    # The same text aliased a few times is a configuration, not a bomb.
    few = write(tmp_path, f'http_allowed_origins: [&o "{origin}"' + ", *o" * 3 + "]\n")
    assert len(load_config(few, environ={}).http_allowed_origins) == 4


def test_a_file_of_many_bad_values_gets_a_short_error_that_counts_the_rest(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, "correction_patterns: [" + ", ".join(["1"] * 5_000) + "]\n")
    with pytest.raises(ConfigError) as refused:
        load_config(path, environ={})
    message = str(refused.value)
    assert message.endswith("; and 4,990 more errors")
    assert message.count("correction_patterns.") == 10


def test_more_category_names_than_a_setting_needs_are_refused_by_count() -> None:
    with pytest.raises(ConfigError, match=r"at most 64 names .* got 100,000"):
        MemoryConfig(guaranteed_categories=["goal"] * 100_000)
    assert MemoryConfig(guaranteed_categories=["goal", "goal"]).guaranteed_categories == [
        FactCategory.GOAL,
        FactCategory.GOAL,
    ]


def test_an_alias_inside_the_value_it_names_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "memory:\n  guaranteed_categories: &loop [goal, *loop]\n")
    with pytest.raises(ConfigError, match=r"line 2: alias \*loop is inside the value it names"):
        load_config(path, environ={})


def test_anchors_a_config_really_uses_still_load(tmp_path: Path) -> None:
    text = """\
shared: &budgets {max_facts: 50, debounce_seconds: 9}
focus: &focus [goal, correction]
memory:
  <<: *budgets
  debounce_seconds: 3
  guaranteed_categories: *focus
  tenants:
    shop: {max_facts: 20}
    school: {max_facts: 20}
"""
    config = load_config(write(tmp_path, text), environ={})
    assert config.max_facts == 50 and config.debounce_seconds == 3.0  # the key given wins
    assert config.guaranteed_categories == [FactCategory.GOAL, FactCategory.CORRECTION]


def test_a_key_given_twice_beside_a_merge_key_is_still_refused(tmp_path: Path) -> None:
    text = "base: &b {max_facts: 5}\nmemory:\n  <<: *b\n  max_facts: 6\n  max_facts: 7\n"
    with pytest.raises(ConfigError, match="found duplicate key 'max_facts'"):
        load_config(write(tmp_path, text), environ={})


class WalkedList(list[object]):
    """A list whose repr() must never be taken (it stands for a huge aliased one)."""

    def __repr__(self) -> str:
        raise RuntimeError("the whole value was walked to show it")


def test_a_category_that_is_not_a_name_is_refused_before_the_enum_walks_it() -> None:
    with pytest.raises(ConfigError) as refused:
        MemoryConfig(guaranteed_categories=["goal", WalkedList([["x"] * 3])])
    assert "guaranteed_categories: Value error, each item must be a category name" in str(
        refused.value
    )
    assert "got a WalkedList" in str(refused.value)


def test_a_deerflow_storage_use_that_is_not_text_is_refused_without_printing_it() -> None:
    with pytest.raises(ConfigError, match=r"storage\.use must be a string, got WalkedList"):
        MemoryConfig(storage={"use": WalkedList()})


@pytest.mark.parametrize("huge", [10**5000, -(10**5000)], ids=["positive", "negative"])
def test_an_int_too_long_to_print_is_shown_by_its_size(huge: int) -> None:
    bits = f"{huge.bit_length():,}"
    with pytest.raises(ConfigError, match=rf"max_facts: .*\(got <int of {bits} bits>\)"):
        MemoryConfig(max_facts=huge)
    with pytest.raises(ConfigError, match=rf"\(got <int of {bits} bits>\)"):
        load_config(environ={}, max_facts=huge)
    with pytest.raises(ConfigError, match=rf"\(got \[<int of {bits} bits>\]\)"):
        load_config(environ={}, max_facts=[huge])  # inside a list too


def test_a_value_whose_repr_fails_is_shown_by_its_type_name() -> None:
    def refuse(self: str, index: object) -> str:
        raise RuntimeError("cannot slice me")

    # named "str", so the bounded formatter slices it as text and the slice raises
    odd = type("str", (str,), {"__getitem__": refuse})("abc")
    with pytest.raises(ConfigError, match=r"max_facts: .*\(got <str>\)"):
        MemoryConfig(max_facts=odd)


def test_a_full_size_file_of_typo_keys_gets_a_short_error_that_counts_the_rest(
    tmp_path: Path,
) -> None:
    lines, size = [], 0
    while size + 30 < MAX_CONFIG_BYTES:
        lines.append(f"injection_enabld{len(lines)}: 1\n")
        size += len(lines[-1])
    path = write(tmp_path, "".join(lines))
    with pytest.raises(ConfigError) as refused:
        load_config(path, environ={})
    message = str(refused.value)
    assert len(message) < 2_000, len(message)
    first = sorted(line.split(":")[0] for line in lines)[0]
    assert f"unknown memory setting(s) {first!r}; did you mean 'injection_enabled'?" in message
    assert message.count("did you mean") == 10
    assert message.endswith(f"; and {len(lines) - 10:,} more unknown settings")


LONG = "x" * 200_000


@pytest.mark.parametrize("where", ["yaml", "environment", "keyword", "retrieval", "tenant"])
def test_an_unknown_name_of_200k_characters_is_shown_cut_with_its_length(
    tmp_path: Path, where: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        if where == "yaml":
            load_config(write(tmp_path, f"? {LONG}\n: 1\n"), environ={})  # explicit key: no limit
        elif where == "environment":
            load_config(environ={ENV_PREFIX + LONG.upper(): "1"})
        elif where == "keyword":
            load_config(environ={}, **{LONG: 1})
        elif where == "retrieval":
            load_config(environ={}, retrieval={LONG: 1})
        else:
            load_config(environ={}, tenants={"ana": {LONG: 1}})
    message = str(refused.value)
    assert "x" * 81 not in message.lower() and "200,000 characters" in message, message[:300]
    # the environment's error also lists every setting's name, once
    assert len(message) < (2_000 if where != "environment" else 4_000), len(message)


def test_a_name_too_long_to_be_a_typo_is_not_compared_and_no_suggestion_is_lost() -> None:
    known = list(MemoryConfig.model_fields)
    longest = max(known, key=len)
    for extra in range(0, 3 * len(longest)):  # across 7/3 of the longest name
        name = longest[:-1] + "x" * extra
        expected = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
        assert closest_setting(name, known) == (expected[0] if expected else None), extra

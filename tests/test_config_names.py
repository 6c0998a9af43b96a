"""Setting names from input: keys that are not text, two spellings of one setting, and
names with control characters are each one clear ConfigError."""

from __future__ import annotations

import json
import traceback
from pathlib import Path

import pytest

from deerflow_memory.config import load_config
from deerflow_memory.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("memory:\n  ? [max_facts]\n  : 5\n", r"line 2: a key is a list \(\['max_facts'\]\)"),
        ("memory:\n  ? {max_facts: 1}\n  : 5\n", r"line 2: a key is a mapping"),
        ("? !!set {max_facts}\n: 5\n", r"line 1: a key is a set"),
        ("retrieval:\n  ? [top_k]\n  : 5\n", r"line 2: a key is a list"),
        ("tenants:\n  ? [acme]\n  : {}\n", r"line 2: a key is a list"),
        ("tenants:\n  acme:\n    ? {max_facts: 1}\n    : 5\n", r"line 3: a key is a mapping"),
        ("models:\n  - ? [x]\n    : 1\nmemory: {}\n", r"line 2: a key is a list"),
        ("5: 1\n", r"at the top level: a key is a number \(5\)"),
        ("memory:\n  1.5: 1\n", r"under memory: a key is a number \(1\.5\)"),
        ("memory:\n  null: 1\n", r"under memory: a key is null"),
        ("memory:\n  true: 1\n", r"under memory: a key is a boolean \(True\)"),
        ("2024-01-01: 1\n", r"at the top level: a key is a date"),
        ("retrieval:\n  5: 1\n", r"under retrieval: a key is a number \(5\)"),
        ("memory:\n  tenants:\n    7: {}\n", r"under memory\.tenants: a key is a number \(7\)"),
        ("tenants:\n  acme:\n    2024-01-01: 1\n", r"under tenants\.acme: a key is a date"),
        ("tenants:\n  acme: {null: 1}\n", r"under tenants\.acme: a key is null"),
    ],
    ids=[
        "list",
        "mapping",
        "set",
        "retrieval",
        "tenant-id",
        "tenant-override",
        "other-section",
        "int",
        "float",
        "null",
        "bool",
        "date",
        "retrieval",
        "tenant-id",
        "tenant-date",
        "null2",
    ],
)
def test_a_yaml_key_that_is_not_text_is_a_config_error_naming_where(
    tmp_path: Path, text: str, said: str
) -> None:
    # A list or mapping key is named by its line; a scalar one by the mapping holding it.
    path = write(tmp_path, text)
    with pytest.raises(ConfigError, match=said) as raised:
        load_config(path, environ={})
    assert "a setting's name must be text" in str(raised.value)


def test_keys_that_are_not_text_in_sections_we_ignore_still_load(tmp_path: Path) -> None:
    path = write(tmp_path, "models:\n  404: page\n  2024-01-01: day\nmemory:\n  max_facts: 5\n")
    assert load_config(path, environ={}).max_facts == 5


def test_a_deerflow_alias_beside_the_name_it_stands_for_is_refused_naming_both(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, "max_injection_tokens: 100\ninjected_memory_max_tokens: 5000\n")
    with pytest.raises(
        ConfigError,
        match="'max_injection_tokens' and 'injected_memory_max_tokens' are two spellings of "
        r"one setting \(injected_memory_max_tokens\)",
    ):
        load_config(path, environ={})


def test_the_deerflow_alias_alone_still_sets_the_setting(tmp_path: Path) -> None:
    path = write(tmp_path, "memory:\n  max_injection_tokens: 100\n")
    assert load_config(path, environ={}).injected_memory_max_tokens == 100


@pytest.mark.parametrize(
    "environ",
    [
        {"DEERFLOW_MEMORY_MAX_FACTS": "10", "DEERFLOW_MEMORY_max_facts": "500"},
        {"DEERFLOW_MEMORY_MAX_FACTS": "10", "DEERFLOW_MEMORY_Max_Facts": "10"},
        {
            "DEERFLOW_MEMORY_MAX_INJECTION_TOKENS": "100",
            "DEERFLOW_MEMORY_INJECTED_MEMORY_MAX_TOKENS": "5000",
        },
    ],
    ids=["case", "same-value", "alias"],
)
def test_two_environment_variables_for_one_setting_are_refused_naming_both(
    environ: dict[str, str],
) -> None:
    with pytest.raises(ConfigError, match="two spellings of one setting") as raised:
        load_config(environ=environ)
    for variable in environ:
        assert variable in str(raised.value)


def test_each_source_may_still_override_the_one_below_it(tmp_path: Path) -> None:
    path = write(tmp_path, "max_facts: 1\nmax_injection_tokens: 100\n")
    environ = {
        "DEERFLOW_MEMORY_MAX_FACTS": "2",
        "DEERFLOW_MEMORY_INJECTED_MEMORY_MAX_TOKENS": "200",
    }
    config = load_config(path, environ=environ, max_facts=3)
    assert (config.max_facts, config.injected_memory_max_tokens) == (3, 200)


HOSTILE = "top_k\nFAKE: all settings OK\x1b[2K\u202e\\"


@pytest.mark.parametrize(
    "route",
    ["yaml-retrieval", "yaml-tenant", "yaml-top", "env", "env-json", "kwargs", "kwargs-tenant"],
)
def test_a_name_from_input_is_shown_escaped_in_every_config_message(
    tmp_path: Path, route: str
) -> None:
    quoted = HOSTILE.replace("\\", "\\\\").replace("\n", "\\n")
    yaml_name = quoted.replace("\x1b", "\\e").replace("\u202e", "\\u202e")
    texts = {
        "yaml-retrieval": f'retrieval:\n  "{yaml_name}": 1\n',
        "yaml-tenant": f'tenants:\n  acme: {{"{yaml_name}": 1}}\n',
        "yaml-top": f'"{yaml_name}": 1\n',
    }
    with pytest.raises(ConfigError) as raised:
        if route in texts:
            load_config(write(tmp_path, texts[route]), environ={})
        elif route == "env":
            load_config(environ={f"DEERFLOW_MEMORY_{HOSTILE}": "1"})
        elif route == "env-json":
            load_config(environ={"DEERFLOW_MEMORY_RETRIEVAL": json.dumps({HOSTILE: 1})})
        elif route == "kwargs":
            load_config(environ={}, **{HOSTILE: 1})
        else:
            load_config(environ={}, tenants={"acme": {HOSTILE: 1}})
    message = str(raised.value)
    assert not any(char in message for char in "\n\r\x1b\u202e"), repr(message)
    assert "\\n" in message and "\\x1b" in message and "\\u202e" in message, repr(message)


@pytest.mark.parametrize(
    "text",
    [
        "max_facts: !!bool maybe\n",
        "max_facts: !!timestamp someday\n",
        "? !!bool maybe\n: 1\n",
        "retrieval:\n  ? !!timestamp someday\n  : 1\n",
        "tenants:\n  acme:\n    max_facts: !!bool maybe\n",
    ],
)
def test_a_value_tagged_with_a_yaml_type_it_is_not_is_one_config_error(
    tmp_path: Path, text: str
) -> None:
    # Attack 19: PyYAML's bool and timestamp constructors raised KeyError/AttributeError.
    with pytest.raises(
        ConfigError, match=r"line \d: a value of YAML type !!(bool|timestamp) cannot be read as one"
    ):
        load_config(write(tmp_path, text), environ={})


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("!!int correct-horse-battery-9", r"line 3: a value of YAML type !!int cannot be read"),
        ("!!float correct-horse-battery-9", r"line 3: a value of YAML type !!float cannot"),
        ("!!bool postgresql://ann:correct-horse-battery-9@db/m", r"line 3: .* type !!bool"),
        ("!!timestamp correct-horse-battery-9", r"line 3: a value of YAML type !!timestamp"),
        ("!!binary correct-horse-battery-9x", r"line 3: a value of YAML type !!binary"),
        ("!vault correct-horse-battery-9", r"line 3: a value has a tag that is no YAML type"),
        ("!correct-horse-battery-9", r"line 3: a value has a tag that is no YAML type"),
        ("!!correct-horse-battery-9", r"line 3: a value has a tag that is no YAML type"),
        ("!<postgresql://ann:correct-horse-battery-9@db'> {a: 1}", r"line 3, column \d+: "),
        ("9" * 4400, r"line 3: a number of more than 4,300 digits cannot be read"),
        ("!!int " + "x" * 4400, r"line 3: a value of YAML type !!int cannot be read"),
        ("!!omap correct-horse-battery-9", r"line 3, column 12: .*expected a sequence"),
        ("!!pairs [correct-horse-battery-9]", r"line 3, column \d+: .*expected a mapping"),
        ("*correct-horse-battery-9", r"line 3, column 12: found undefined alias$"),
        ("&a x\nb: &a correct-horse-battery-9", r"line 4, column 4: second occurrence \(found dup"),
        ("x\ncorrect-horse-battery-9 y\nz: 1", r"line \d, column \d+: "),
    ],
)
def test_a_value_that_is_not_of_its_type_is_said_by_line_and_never_quoted(
    tmp_path: Path, value: str, said: str
) -> None:
    # Attacker 101: "api_key: !!int <key>" was quoted in the message ("invalid literal for
    # int() … '<key>'"), "!!bool <DSN>" in a chained KeyError, "!!binary" under the line.
    text = f"memory:\n  max_facts: 5\n  api_key: {value}\n"
    with pytest.raises(ConfigError, match=said) as raised:
        load_config(write(tmp_path, text), environ={})
    # neither the message nor the traceback --debug prints holds it
    told = "".join(traceback.format_exception(raised.value))
    assert "correct-horse" not in told and "9" * 100 not in told


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # both places of the mistake, as PyYAML gives them (without the quoted lines)
        (
            'memory:\n  api_key: "abc\n  max_facts: 3\n',
            r"line 4, column 1: .* \(while scanning a quoted scalar at line 2, column 12\)",
        ),
        (
            "a: &x 1\nb: &x 2\n",
            r"line 2, column 4: second occurrence \(found duplicate anchor; first occurrence at "
            r"line 1, column 4\)",
        ),
        (
            "sk-correct-horse-battery-9: 1\nsk-correct-horse-battery-9: 2\n",
            r"line 2, column 1: found duplicate key 'sk-\*\*\*'",
        ),
    ],
)
def test_a_yaml_error_names_its_places_and_no_secret(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(ConfigError, match=said) as raised:
        load_config(write(tmp_path, text), environ={})
    assert "correct-horse" not in "".join(traceback.format_exception(raised.value))

"""Config values that pydantic's lax mode would bend: booleans as numbers, unsafe tenant ids,
control characters in paths. Each is a ConfigError naming the field."""

from __future__ import annotations

from pathlib import Path
from typing import get_args

import pytest
from pydantic import BaseModel

from deerflow_memory.config import MemoryConfig, RetrievalConfig, TenantOverrides, load_config
from deerflow_memory.errors import ConfigError
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.names import validate_name


def number_fields(model: type[BaseModel]) -> list[str]:
    names = []
    for name, field in model.model_fields.items():
        kinds = set(get_args(field.annotation)) or {field.annotation}
        if kinds & {int, float} and bool not in kinds:
            names.append(name)
    return names


def test_the_tables_below_cover_the_number_fields_of_every_config_model() -> None:
    assert len(number_fields(MemoryConfig)) > 30
    assert len(number_fields(TenantOverrides)) == 7
    assert len(number_fields(RetrievalConfig)) == 9


@pytest.mark.parametrize("flag", [True, False])
@pytest.mark.parametrize("name", number_fields(MemoryConfig))
def test_a_boolean_for_any_number_setting_is_a_config_error_naming_it(
    name: str, flag: bool
) -> None:
    with pytest.raises(ConfigError, match=rf"\b{name}: .*not a boolean"):
        MemoryConfig(**{name: flag})


@pytest.mark.parametrize("name", number_fields(TenantOverrides))
def test_a_boolean_for_a_tenant_override_is_a_config_error_naming_it(name: str) -> None:
    with pytest.raises(ConfigError, match=rf"tenants\.acme\.{name}: .*not a boolean"):
        MemoryConfig(tenants={"acme": {name: True}})


@pytest.mark.parametrize("name", number_fields(RetrievalConfig))
def test_a_boolean_for_a_retrieval_knob_is_a_config_error_naming_it(name: str) -> None:
    with pytest.raises(ConfigError, match=rf"retrieval\.{name}: .*not a boolean"):
        MemoryConfig(retrieval={name: True})


def test_max_facts_true_in_a_yaml_file_is_refused_not_read_as_one(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("memory:\n  max_facts: true\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"max_facts: .*not a boolean"):
        load_config(path, environ={})


def test_numbers_written_as_text_and_real_booleans_keep_working() -> None:
    config = load_config(
        environ={
            "DEERFLOW_MEMORY_MAX_FACTS": "7",
            "DEERFLOW_MEMORY_DEBOUNCE_SECONDS": "1.5",
            "DEERFLOW_MEMORY_ENABLED": "false",
            "DEERFLOW_MEMORY_TENANTS": '{"acme": {"max_facts": "3"}}',
        }
    )
    assert (config.max_facts, config.debounce_seconds, config.enabled) == (7, 1.5, False)
    assert config.for_tenant("acme").max_facts == 3
    assert MemoryConfig(token_counting=True).token_counting == "tiktoken"  # DeerFlow's spelling


@pytest.mark.parametrize(
    "tenant",
    ["../x", "..", "a/b", "a\\b", "/etc", "", " acme", "ac\x01me", "ac\u202eme", "ac me"],
    ids=["dotdot-slash", "dotdot", "slash", "backslash", "absolute", "empty", "space",
         "control", "bidi", "inner-space"],
)  # fmt: skip
def test_a_tenant_override_key_follows_the_tenant_id_rule(tenant: str) -> None:
    with pytest.raises(ConfigError, match=r"tenants: .*tenant_id .*is not allowed"):
        MemoryConfig(tenants={tenant: {"max_facts": 3}})


def test_an_unsafe_tenant_key_in_yaml_or_the_environment_is_a_config_error(
    tmp_path: Path,
) -> None:
    path = tmp_path / "config.yaml"
    path.write_text('memory:\n  tenants:\n    "../x": {max_facts: 3}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"tenant_id '\.\./x'"):
        load_config(path, environ={})
    with pytest.raises(ConfigError, match=r"tenant_id '\.\./x'"):
        load_config(environ={"DEERFLOW_MEMORY_TENANTS": '{"../x": {"max_facts": 3}}'})


def test_tenant_keys_are_stored_in_the_form_runs_look_them_up_by() -> None:
    # NFD "Zoë" in the file, NFC tenant_id at run time: one tenant, not a silent miss.
    config = MemoryConfig(tenants={"Zoe\u0308": {"max_facts": 3}, "acme-1": {"max_facts": 4}})
    assert config.for_tenant(validate_name("Zo\u00eb", "tenant_id")).max_facts == 3
    assert config.for_tenant("acme-1").max_facts == 4


CONTROL_PATHS = [
    pytest.param("a\x01b", id="x01"),
    pytest.param("mem\x00ory", id="nul"),
    pytest.param("mem\nory", id="newline"),
    pytest.param("mem\x7f", id="del"),
    pytest.param("mem\x9b", id="c1-csi"),
]


@pytest.mark.parametrize("path", CONTROL_PATHS)
def test_a_storage_path_with_a_control_character_is_a_config_error(path: str) -> None:
    with pytest.raises(ConfigError, match=r"storage_path: .*control character \(U\+"):
        MemoryConfig(storage_path=path)
    with pytest.raises(ConfigError, match=r"storage_path: .*control character"):
        load_config(environ={"DEERFLOW_MEMORY_STORAGE_PATH": path.replace("\x00", "\x01")})


def test_a_config_file_path_with_a_control_character_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"config file .*control character"):
        load_config(tmp_path / "config\x00.yaml", environ={})
    path = tmp_path / "config.yaml"
    path.write_text('memory:\n  storage_path: "mem\\0ory"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"^invalid memory configuration: storage_path: "):
        load_config(path, environ={})  # one message, not one nested in another


def test_an_ordinary_path_with_spaces_and_any_script_still_works(tmp_path: Path) -> None:
    folder = tmp_path / "my memory — 記憶"
    assert MemoryConfig(storage_path=folder).storage_path == folder


@pytest.mark.parametrize("path", CONTROL_PATHS)
def test_a_file_storage_built_in_code_refuses_a_root_with_a_control_character(
    path: str, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError, match=r"storage root .*control character"):
        FileMemoryStorage(tmp_path / path)
    assert list(tmp_path.iterdir()) == []

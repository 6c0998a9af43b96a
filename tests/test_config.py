from __future__ import annotations

from pathlib import Path

import pytest

from deerflow_memory import ConfigError, MemoryConfig, load_config
from deerflow_memory.models import FactCategory


def test_defaults_follow_deerflow() -> None:
    config = load_config(environ={})
    assert config.debounce_seconds == 30
    assert config.max_facts == 200
    assert config.injected_memory_max_tokens == 2000
    assert config.guaranteed_categories == [FactCategory.CORRECTION]
    assert config.token_counting == "tiktoken"
    assert config.storage == "file"


def test_a_deerflow_memory_section_loads(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(
        """
models:
  - name: gpt-4o-mini
memory:
  enabled: true
  debounce_seconds: 12
  max_facts: 50
  model_name: gpt-4o-mini
  token_counting: false
  injected_memory_max_tokens: 1500
  guaranteed_categories:
    - correction
    - goal
  storage:
    use: deerflow.agents.memory.storage:FileMemoryStorage
  storage_path: .deer-flow/memory
  storage_class: deerflow.agents.memory.storage.FileMemoryStorage
""",
        encoding="utf-8",
    )
    config = load_config(path, environ={})
    assert config.debounce_seconds == 12
    assert config.max_facts == 50
    assert config.model_name == "gpt-4o-mini"
    assert config.token_counting == "char"
    assert config.guaranteed_categories == [FactCategory.CORRECTION, FactCategory.GOAL]
    assert config.storage == "file"
    assert config.storage_path == Path(".deer-flow/memory")


def test_environment_overrides_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("debounce_seconds: 10\nmax_facts: 20\n", encoding="utf-8")
    config = load_config(
        path,
        environ={
            "DEERFLOW_MEMORY_DEBOUNCE_SECONDS": "2.5",
            "DEERFLOW_MEMORY_GUARANTEED_CATEGORIES": "correction, preference",
        },
    )
    assert config.debounce_seconds == 2.5
    assert config.max_facts == 20
    assert config.guaranteed_categories == [FactCategory.CORRECTION, FactCategory.PREFERENCE]


def test_keyword_overrides_win_over_environment() -> None:
    config = load_config(environ={"DEERFLOW_MEMORY_MAX_FACTS": "5"}, max_facts=7)
    assert config.max_facts == 7


def test_the_config_file_can_be_named_by_environment(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("memory:\n  max_facts: 9\n", encoding="utf-8")
    assert load_config(environ={"DEERFLOW_MEMORY_CONFIG": str(path)}).max_facts == 9


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("max_facts", -1, "greater than or equal to 1"),
        ("debounce_seconds", 99999, "less than or equal to 3600"),
        ("fact_confidence_threshold", 1.5, "less than or equal to 1"),
        ("token_counting", "words", "'tiktoken' or 'char'"),
        ("guaranteed_categories", ["correction", "gossip"], "'correction'"),
        ("storage", "redis", "'postgres'"),
    ],
)
def test_an_invalid_value_names_the_field_and_what_is_allowed(
    field: str, value: object, allowed: str
) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(environ={}, **{field: value})
    message = str(info.value)
    assert field in message
    assert allowed in message
    bad = value[-1] if isinstance(value, list) else value
    assert repr(bad) in message


def test_an_out_of_range_value_says_the_bound() -> None:
    with pytest.raises(ConfigError, match="greater than or equal to 1"):
        load_config(environ={}, max_facts=0)


def test_an_unknown_environment_variable_is_an_error() -> None:
    with pytest.raises(ConfigError, match="DEERFLOW_MEMORY_DEBOUNCE"):
        load_config(environ={"DEERFLOW_MEMORY_DEBOUNCE": "3"})


def test_a_bad_yaml_file_is_reported_with_its_path(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("memory: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"broken\.yaml"):
        load_config(path, environ={})
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "missing.yaml", environ={})


def test_model_settings_are_detected_from_config_or_openai_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    assert not MemoryConfig().has_model_settings
    assert MemoryConfig(model_name="gpt-4o-mini").has_model_settings
    assert MemoryConfig(base_url="http://127.0.0.1:9/v1").has_model_settings
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert MemoryConfig().has_model_settings


def test_an_api_key_alone_does_not_switch_to_the_model_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-exported-for-another-tool")
    assert not MemoryConfig().has_model_settings
    assert not MemoryConfig(api_key="sk-abc").has_model_settings


def test_the_projects_test_variables_do_not_break_load_config() -> None:
    environ = {"DEERFLOW_MEMORY_TEST_PG_DSN": "postgresql://u@127.0.0.1:1/x"}
    assert load_config(environ=environ) == load_config(environ={})


def test_relevant_injection_and_its_ranking_are_configurable() -> None:
    config = load_config(
        environ={
            "DEERFLOW_MEMORY_INJECTION_MODE": "relevant",
            "DEERFLOW_MEMORY_RETRIEVAL": '{"top_k": 3, "similarity_threshold": 0.4}',
        }
    )
    assert config.injection_mode == "relevant"
    assert (config.retrieval.top_k, config.retrieval.similarity_threshold) == (3, 0.4)
    assert config.retrieval.candidates == 20  # the seed's defaults elsewhere
    with pytest.raises(ConfigError, match=r"retrieval\.top_k"):
        load_config(environ={}, retrieval={"top_k": 0})


def test_per_tenant_overrides_replace_only_the_values_they_set() -> None:
    shop_json = '{"shop": {"max_facts": 50, "injected_memory_max_tokens": 500}}'
    config = load_config(environ={"DEERFLOW_MEMORY_TENANTS": shop_json})
    shop = config.for_tenant("shop")
    assert (shop.max_facts, shop.injected_memory_max_tokens) == (50, 500)
    assert shop.fact_confidence_threshold == config.fact_confidence_threshold
    assert config.for_tenant("travel") is config and config.for_tenant(None) is config
    with pytest.raises(ConfigError, match="max_fact"):
        load_config(environ={}, tenants={"shop": {"max_fact": 5}})


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("http://[::1", "not a URL"),
        ("http://u:pw@host:abc/v1", "not a URL"),
        ("http://host/v\n1", "whitespace or control"),
        ("ftp://host/v1", "http(s) URL with a host"),
        ("localhost:8000", "http(s) URL with a host"),
    ],
)
def test_a_malformed_model_endpoint_is_a_config_error(url: str, problem: str) -> None:
    # It failed only when the model was built, as httpx's InvalidURL (attack 38).
    from deerflow_memory.errors import ConfigError

    with pytest.raises(ConfigError, match="base_url") as raised:
        MemoryConfig(base_url=url)
    assert problem in str(raised.value) and "pw" not in str(raised.value)


@pytest.mark.parametrize(
    "url", ["http://localhost:8000/v1", "https://api.example.com/v1", "http://[::1]:8080/v1"]
)
def test_a_model_endpoint_url_is_accepted(url: str) -> None:
    assert MemoryConfig(base_url=url).base_url == url

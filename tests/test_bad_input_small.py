"""Small bad-input gaps from the attack pass: each ends in a typed error, nothing written."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from annotated_types import Ge, Le
from starlette.testclient import TestClient

from deerflow_memory import MemoryConfig, MemoryDocument, format_memory_for_injection
from deerflow_memory.cli import main
from deerflow_memory.config import TenantOverrides, load_config, redact_secrets
from deerflow_memory.errors import ConfigError, InvalidDocumentError, StorageError
from deerflow_memory.service import MemoryService
from deerflow_memory.update.import_check import read_import

JSON = {"content-type": "application/json"}
REPEATED = '{"facts": [{"id": "f1", "content": "Likes tea", "content": "Likes coffee"}]}'


# --- a JSON object that repeats a key -------------------------------------------------------


def test_an_import_that_repeats_a_key_names_the_key_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], client: TestClient, service: MemoryService
) -> None:
    with pytest.raises(InvalidDocumentError, match="duplicate key 'content'"):
        read_import(REPEATED, name="f.json")

    source = tmp_path / "f.json"
    source.write_text(REPEATED, encoding="utf-8")
    root = str(tmp_path / "cli")
    assert main(["--root", root, "import", "--user", "bob", "--yes", str(source)]) == 2
    error = capsys.readouterr().err
    assert "f.json" in error and "duplicate key 'content'" in error
    assert main(["--root", root, "show", "--user", "bob"]) == 1  # nothing was written

    put = client.put("/memory/users/bob", content=REPEATED, headers=JSON)
    assert put.status_code == 422 and "duplicate key 'content'" in put.json()["error"]
    post = client.post(
        "/memory/users/bob/facts", content='{"content": "a b", "content": "c d"}', headers=JSON
    )
    assert post.status_code == 400 and "duplicate key 'content'" in post.json()["error"]
    assert service.storage.load("bob").facts == ()


def test_a_tenants_variable_that_repeats_a_tenant_is_a_config_error() -> None:
    environ = {"DEERFLOW_MEMORY_TENANTS": '{"shop": {"max_facts": 50}, "shop": {"max_facts": 5}}'}
    with pytest.raises(ConfigError, match="DEERFLOW_MEMORY_TENANTS: duplicate key 'shop'"):
        load_config(environ=environ)
    ok = load_config(environ={"DEERFLOW_MEMORY_TENANTS": '{"shop": {"max_facts": 50}}'})
    assert ok.for_tenant("shop").max_facts == 50


# --- secrets in base_url --------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "https://llm.example/v1?key=S3CRETVALUE",
        "https://llm.example/v1?api-version=2&access_token=S3CRETVALUE",
        "https://llm.example/v1?api-key=S3CRETVALUE",
        "https://S3CRETVALUE@llm.example/v1",
    ],
)
def test_a_credential_in_base_url_is_masked_in_repr_and_in_config_errors(url: str) -> None:
    assert "S3CRETVALUE" not in redact_secrets(f"calling {url} failed")
    assert "S3CRETVALUE" not in repr(MemoryConfig(base_url=url))
    with pytest.raises(ConfigError) as info:
        MemoryConfig(base_url=url, max_facts=0)
    assert "S3CRETVALUE" not in str(info.value)
    # what is not a credential stays readable
    assert redact_secrets("https://llm.example/v1?api-version=2") == (
        "https://llm.example/v1?api-version=2"
    )


# --- format_memory_for_injection -------------------------------------------------------------


@pytest.mark.parametrize("budget", [float("nan"), math.inf, -1, True, "2000"])
def test_a_budget_that_is_not_a_finite_number_is_a_config_error(budget: object) -> None:
    document = {"facts": [{"content": "Likes tea"}]}
    with pytest.raises(ConfigError, match="max_tokens"):
        format_memory_for_injection(document, max_tokens=budget)  # type: ignore[arg-type]
    assert "Likes tea" in format_memory_for_injection(document, max_tokens=2000.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("memory", ["hello", 42, ["facts"], {"facts": "Likes tea"}])
def test_memory_that_is_not_a_document_is_an_invalid_document_error(memory: object) -> None:
    with pytest.raises(InvalidDocumentError, match="memory"):
        format_memory_for_injection(memory)  # type: ignore[arg-type]
    assert format_memory_for_injection(MemoryDocument()) == ""


# --- HTTP confidence is a number, as in imports -------------------------------------------------


def test_http_refuses_a_confidence_given_as_text(client: TestClient) -> None:
    for confidence in ("1", "0.9", "85%", True):
        body = {"content": "Likes tea", "confidence": confidence}
        response = client.post("/memory/users/ana/facts", json=body)
        assert response.status_code == 422, (confidence, response.text)
        assert "confidence" in response.json()["error"]
    added = client.post("/memory/users/ana/facts", json={"content": "Likes tea", "confidence": 1})
    assert added.status_code == 201
    fact_id = added.json()["fact"]["id"]
    patched = client.patch(f"/memory/users/ana/facts/{fact_id}", json={"confidence": "0.5"})
    assert patched.status_code == 422
    assert client.get("/memory/users/ana").json()["facts"][0]["confidence"] == 1.0


# --- tenant overrides -------------------------------------------------------------------------


def bounds(model: type, name: str) -> tuple[object, object]:
    metadata = model.model_fields[name].metadata  # type: ignore[attr-defined]
    low = next((m.ge for m in metadata if isinstance(m, Ge)), None)
    high = next((m.le for m in metadata if isinstance(m, Le)), None)
    return low, high


def test_tenant_overrides_have_the_upper_bounds_of_the_global_settings() -> None:
    for name in TenantOverrides.model_fields:
        (low, high), (global_low, global_high) = (
            bounds(TenantOverrides, name),
            bounds(MemoryConfig, name),
        )
        assert high == global_high, name
        assert low is not None and global_low is not None and low <= global_low, name
    for debounce in (1e9, math.inf):
        with pytest.raises(ConfigError, match="debounce_seconds"):
            MemoryConfig(tenants={"shop": {"debounce_seconds": debounce}})
    environ = {"DEERFLOW_MEMORY_TENANTS": json.dumps({"shop": {"debounce_seconds": 3601}})}
    with pytest.raises(ConfigError, match="debounce_seconds"):
        load_config(environ=environ)


@pytest.mark.parametrize("kind", ["file", "sqlite"])
def test_a_storage_path_that_cannot_be_a_folder_is_a_storage_error(
    tmp_path: Path, kind: str
) -> None:
    # A file where the folder should be, or a name too long: one typed error naming the
    # path, not NotADirectoryError or OSError (attacker 67).
    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep me", "utf-8")
    for path in (a_file, tmp_path / ("x" * 300)):
        with pytest.raises(StorageError) as raised:
            MemoryService(MemoryConfig(storage=kind, storage_path=path), register_atexit=False)
        assert path.name[:40] in str(raised.value)
    assert a_file.read_text("utf-8") == "keep me"

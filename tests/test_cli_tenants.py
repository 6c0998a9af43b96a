"""``--tenant T``: every CLI subcommand works on tenant T's memory; without it, no tenant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from deerflow_memory import MemoryConfig, MemoryService
from deerflow_memory.errors import ModelCallError
from deerflow_memory.identity import MemoryIdentity
from deerflow_memory.storage.factory import open_storage
from deerflow_memory.storage.migrate import migrate
from deerflow_memory.update.extraction import ExtractionRequest
from deerflow_memory.update.offline.extractor import OfflineExtractor
from tests.test_cli_errors import assert_one_error_line, run


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "DEERFLOW_MEMORY_CONFIG"):
        monkeypatch.delenv(name, raising=False)


def test_each_subcommand_reads_and_writes_only_the_tenant_it_is_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = str(tmp_path / "mem")
    status, out, _ = run(
        capsys, "--root", root, "remember", "--tenant", "shop", "--user", "ann", "Likes green tea"
    )
    assert status == 0 and "remembered" in out
    status, out, _ = run(capsys, "show", "--root", root, "--tenant", "shop", "--user", "ann")
    assert status == 0 and "Likes green tea" in out
    # The same user without a tenant, and in another tenant, has no memory.
    status, _, err = run(capsys, "show", "--root", root, "--user", "ann")
    assert status == 1 and "no memory is stored" in err
    status, _, err = run(capsys, "show", "--root", root, "--tenant", "travel", "--user", "ann")
    assert status == 1 and "tenant 'travel'" in err
    assert run(capsys, "list", "--root", root, "--tenant", "shop")[1] == "ann\t(default agent)\n"
    assert run(capsys, "list", "--root", root)[1] == ""
    assert run(capsys, "list", "--root", root, "--tenants")[1] == "shop\n"
    status, out, _ = run(capsys, "stats", "--root", root, "--tenant", "shop", "--json")
    assert status == 0 and [s["facts"] for s in json.loads(out)] == [1]

    exported = tmp_path / "shop.json"
    assert (
        run(
            capsys,
            "export",
            "--root",
            root,
            "--tenant",
            "shop",
            "--user",
            "ann",
            "-o",
            str(exported),
        )[0]
        == 0
    )
    status, out, _ = run(
        capsys, "import", "--root", root, "--tenant", "travel", "--user", "ann", str(exported)
    )
    assert status == 0 and "imported 1 fact " in out
    assert (
        run(capsys, "clear", "--root", root, "--tenant", "shop", "--user", "ann", "--yes")[0] == 0
    )
    with open_storage(MemoryConfig(storage_path=root)) as storage:
        assert storage.scoped("shop").load("ann").facts == ()
        assert [f.content for f in storage.scoped("travel").load("ann").facts] == [
            "Likes green tea"
        ]
        assert storage.load("ann").facts == ()
    assert (tmp_path / "mem/tenants/travel/users/ann/memory.json").is_file()


@pytest.mark.parametrize("command", ["show", "list", "pending", "stats"])
def test_an_unsafe_tenant_is_one_error_line_and_touches_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    root = tmp_path / "mem"
    extra = ["--user", "ann"] if command == "show" else []
    status, _, err = run(capsys, command, "--root", str(root), "--tenant", "../x", *extra)
    assert status == 2
    assert_one_error_line(status, err, "tenant_id")
    assert not root.exists()


class DownForBoats(OfflineExtractor):
    """The offline extractor, except that the model is 'down' for turns about a boat."""

    def extract(self, request: ExtractionRequest) -> Any:
        if any("boat" in str(m.content) for m in request.messages):
            raise ModelCallError("model endpoint refused the connection")
        return super().extract(request)


def test_pending_and_retry_see_the_tenants_dead_letters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = str(tmp_path / "mem")
    config = MemoryConfig(storage_path=root, debounce_seconds=600)
    with MemoryService(config, extractor=DownForBoats(), register_atexit=False) as memory:
        memory.enqueue(
            MemoryIdentity("ann", None, "t1", tenant_id="shop"),
            [HumanMessage("I keep a sailing boat in Vigo.", id="h1"), AIMessage("Noted.", id="a1")],
        )
        assert not memory.flush(timeout=30)
    status, out, _ = run(capsys, "pending", "--root", root, "--tenant", "shop", "--json")
    assert status == 0 and [x["userId"] for x in json.loads(out)] == ["ann"]
    # Without --tenant nothing is stored: not an all-clear, the tenants holding it are named.
    status, out, err = run(capsys, "pending", "--root", root, "--json")
    assert status == 1 and json.loads(out) == [] and "stored tenants: shop" in err
    status, out, err = run(capsys, "retry", "--root", root)
    assert status == 1 and out == "" and "stored tenants: shop (pass --tenant NAME)" in err
    # Retried with the configured (offline) extractor, which is up: applied and removed.
    status, out, _ = run(capsys, "retry", "--root", root, "--tenant", "shop")
    assert status == 0 and "1 applied, 0 still failing" in out
    assert json.loads(run(capsys, "pending", "--root", root, "--tenant", "shop", "--json")[1]) == []


def test_migrate_copies_every_tenant_into_the_same_tenant(tmp_path: Path) -> None:
    from deerflow_memory.models import MemoryDocument

    doc = MemoryDocument.model_validate(
        {"facts": [{"content": "Likes tea", "category": "preference", "confidence": 0.9}]}
    )
    source_config = MemoryConfig(storage_path=tmp_path / "mem")
    target_config = MemoryConfig(storage="sqlite", storage_path=tmp_path / "mem.sqlite")
    with open_storage(source_config) as source, open_storage(target_config) as target:
        source.save("ann", None, doc)
        source.scoped("shop").save("ann", None, doc)
        source.scoped("travel").save("bo", "coach", doc)
        report = migrate(source, target)
        assert report.ok and sorted(report.copied) == [
            ("ann", None),
            ("shop/ann", None),
            ("travel/bo", "coach"),
        ]
        assert target.scoped("travel").load("bo", "coach").facts[0].content == "Likes tea"
        assert target.scoped("shop").load("ann").facts and target.load("ann").facts
        assert list(target.scoped("travel").list_documents()) == [("bo", "coach")]

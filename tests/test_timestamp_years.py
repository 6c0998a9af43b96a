"""Every stored timestamp has a 4-digit year, so the memory's own export imports back.

Attack 20 F13: a model's ``expiresAt`` of year 1 was stored as ``1-01-01T00:00:00Z``
(``strftime("%Y")`` does not pad on Linux) and ``import`` refused the export.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from deerflow_memory import FileMemoryStorage
from deerflow_memory.cli import main
from deerflow_memory.models import (
    MemoryDocument,
    MemoryUpdate,
    NewFact,
    iso_from_timestamp,
    parse_timestamp,
)
from deerflow_memory.update.apply import apply_update_detailed

MOMENTS = ["0001-01-01T00:00:00Z", "0999-06-01T12:34:56Z", "9999-12-31T23:59:59Z"]


@pytest.mark.parametrize("moment", MOMENTS)
def test_a_timestamp_of_any_year_is_written_back_as_it_was_read(moment: str) -> None:
    from deerflow_memory.models import iso_utc  # new with the fix: the rest runs on older code

    assert iso_from_timestamp(parse_timestamp(moment) or 0.0) == moment
    assert iso_utc(datetime.fromisoformat(moment)) == moment


def test_a_moment_outside_years_1_to_9999_in_utc_is_clamped_not_an_error() -> None:
    from deerflow_memory.models import iso_utc

    early = parse_timestamp("0001-01-01T00:00:00+01:00") or 0.0
    late = parse_timestamp("9999-12-31T23:59:59-14:00") or 0.0
    assert iso_from_timestamp(early) == "0001-01-01T00:00:00Z"
    assert iso_from_timestamp(late) == "9999-12-31T23:59:59Z"
    assert iso_utc(datetime(5, 3, 4, 5, 6, 7, tzinfo=UTC)) == "0005-03-04T05:06:07Z"


def test_an_export_with_expiries_in_years_1_999_and_9999_imports_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = [
        NewFact(content=f"Plans trip number {i}", category="goal", confidence=0.9, expires_at=m)
        for i, m in enumerate(("0001-01-01", "0999-06-01T12:34:56Z", "9999-12-31T23:59:59Z"))
    ]
    applied = apply_update_detailed(
        MemoryDocument(),
        MemoryUpdate(new_facts=tuple(answers)),
        thread_id="t1",
        now="2026-12-01T00:00:00Z",
    )
    root = tmp_path / "memory"
    FileMemoryStorage(root).save("alice", None, applied.document)
    assert sorted(f.expires_at or "" for f in applied.document.facts) == MOMENTS

    exported = tmp_path / "alice.json"
    assert main(["--root", str(root), "export", "--user", "alice", "-o", str(exported)]) == 0
    assert main(["--root", str(root), "import", "--user", "bob", str(exported)]) == 0
    assert "imported 3 facts into bob" in capsys.readouterr().out
    bob = FileMemoryStorage(root).load("bob").facts
    assert sorted(f.expires_at or "" for f in bob) == MOMENTS
    assert all(
        len(json.loads(exported.read_text("utf-8"))["facts"][i]["expiresAt"]) == 20
        for i in range(3)
    )

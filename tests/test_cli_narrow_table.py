"""The facts table on an 80-column terminal: ids and dates stay whole (they are copied)."""

from __future__ import annotations

import io

from rich.console import Console

from deerflow_memory.cli import _facts_table
from deerflow_memory.models import Fact, FactCategory, MemoryDocument
from deerflow_memory.terminal.output import print_table


def test_ids_and_dates_are_not_folded_at_80_columns() -> None:
    facts = tuple(
        Fact(
            id=f"fact_{i:08x}",
            content="User is planning a slow-paced trip to Japan in April with a partner",
            category=FactCategory.GOAL,
            confidence=0.85,
            source="demo-session-1",
            expires_at="2027-05-01T00:00:00Z",
        )
        for i in (0x4489F389, 0xFF31AA02)
    )
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system=None)
    print_table(console, _facts_table(MemoryDocument(facts=facts), "facts", 80))
    text = out.getvalue()
    assert max(map(len, text.splitlines())) <= 80
    assert "fact_4489f389" in text and "fact_ff31aa02" in text
    assert text.count("2027-05-01") == 2
    # the content keeps room to be read: no word is cut (newcomer 47 saw "confiden/ce")
    for word in ("slow-paced", "planning", "goal", "0.85"):
        assert word in text

"""The facts table on an 80-column terminal: ids and dates stay whole (they are copied)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

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


def _on_terminal(width: int, table: Table) -> str:
    out = io.StringIO()
    print_table(Console(file=out, width=width, force_terminal=True, color_system=None), table)
    return out.getvalue()


def _stats_like() -> Table:
    table = Table(title="hygiene")
    for header in ("user", "by category", "superseded"):
        table.add_column(header)
    table.add_row(Text("rosalind"), Text("preference 3, goal 1"), "12")
    table.add_row(Text("tomasz"), Text("-"), "0")
    return table


def test_a_terminal_too_narrow_for_the_columns_gets_one_line_per_value() -> None:
    # At 30 columns the stats table cut every word ("ros|ali|nd") or showed only its
    # borders; each row is now "header: value" lines, every value whole.
    text = _on_terminal(24, _stats_like())
    assert max(map(len, text.splitlines())) <= 24
    records = " ".join(text.split()).split(" user: ")
    assert records == [
        "hygiene",
        "rosalind by category: preference 3, goal 1 superseded: 12",
        "tomasz by category: - superseded: 0",
    ]


def test_a_terminal_wide_enough_for_the_words_keeps_the_table() -> None:
    text = _on_terminal(40, _stats_like())
    assert "┃ user" in text and "user:" not in text  # folded cells, words whole
    assert "rosalind" in text and "superseded" in text


def test_the_facts_table_keeps_ids_whole_on_a_very_narrow_terminal() -> None:
    fact = Fact(id="fact_5e1d0c7a", content="User keeps bees", category=FactCategory.CONTEXT)
    text = _on_terminal(24, _facts_table(MemoryDocument(facts=(fact,)), "facts", 24))
    assert "fact_5e1d0c7a" in text and "User keeps bees" in " ".join(text.split())


def test_a_line_break_in_a_value_cannot_pass_for_a_field_or_a_record() -> None:
    # Stored text (a failed update's error) faked "id: …" lines of a record (attacker 96).
    table = Table(title="failed")
    for header in ("id", "error"):
        table.add_column(header)
    table.add_row("dl_1", Text("ParseError: bad\n\nid: dl_forged\nuser: root"))
    text = _on_terminal(14, table)
    fields = [line for line in text.splitlines() if not line.startswith(" ")]
    assert [line.split(":")[0] for line in fields] == ["failed", "", "id", "error"]
    assert "id:dl_forgeduser:root" in "".join(text.split())  # whole, in the value column


def test_a_control_character_in_a_value_is_measured_as_it_is_written() -> None:
    # ESC measured 0 columns but was written as U+FFFD: lines ran past the edge, and the
    # terminal wrapped "user: mallory" to column 0 (attacker 98).
    table = Table(title="failed")
    for header in ("id", "error"):
        table.add_column(header)
    table.add_row("dl_1", Text("timeout " + "\x1b" * 16 + "A" * 6 + " user: mallory"))
    text = _on_terminal(30, table)
    assert max(map(len, text.splitlines())) <= 30 and "\x1b" not in text

"""CLI paths holding a control character are one error line and touch nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.test_cli_errors import assert_one_error_line, run


@pytest.mark.parametrize("char", ["\x01", "\x1b", "\x7f", "\n"], ids=["x01", "esc", "del", "nl"])
@pytest.mark.parametrize(
    "argv",
    [
        ("--root", "{bad}", "list"),
        ("--root", "{bad}", "import", "--user", "ann", "{good}"),
        ("--config", "{bad}", "list"),
        ("--root", "{root}", "export", "--user", "ann", "-o", "{bad}"),
        ("--root", "{root}", "import", "--user", "ann", "{bad}"),
        ("migrate", "--from", "file:{bad}", "--to", "file:{root}"),
    ],
    ids=["root", "root-import", "config", "export-output", "import-file", "migrate-from"],
)
def test_a_path_with_a_control_character_is_one_error_line_and_creates_nothing(
    argv: tuple[str, ...],
    char: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    good = tmp_path / "doc.json"
    good.write_text('{"facts": []}', encoding="utf-8")
    values = {"bad": str(tmp_path / f"a{char}b"), "good": str(good), "root": str(tmp_path / "m")}
    status, _, err = run(capsys, *(part.format(**values) for part in argv))
    assert_one_error_line(status, err, "control character")
    assert status == 2
    assert sorted(os.listdir(tmp_path)) == ["doc.json"]

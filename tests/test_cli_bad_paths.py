"""CLI paths holding a control character are one error line and touch nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from deerflow_memory.config import load_config
from deerflow_memory.errors import ConfigError
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.migrate import parse_backend_spec
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


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (("--root", "", "list"), "--root '' must not be empty"),
        (("--config", "", "--root", "{root}", "list"), "--config '' must not be empty"),
        (("--root", "{root}", "export", "--user", "ann", "-o", ""), "--output '' must not"),
        (("--root", "{root}", "export", "--user", "ann", "-o", "{tmp}/new/"), "names a folder"),
        (("--root", "{root}", "export", "--user", "ann", "-o", "{tmp}/new/."), "names a folder"),
        (("--root", "{root}", "export", "--user", "ann", "-o", "{tmp}/.."), "names a folder"),
        (("--config", "{tmp}/c.yaml/", "--root", "{root}", "list"), "names a folder"),
        (("--root", "{root}", "import", "--user", "ann", "{tmp}/doc.json/"), "names a folder"),
    ],
    ids=[
        "root",
        "config",
        "output",
        "output-slash",
        "output-dot",
        "output-dotdot",
        "config-slash",
        "import-slash",
    ],
)
def test_an_empty_path_or_a_file_path_spelled_as_a_folder_is_one_error_line_and_writes_nothing(
    argv: tuple[str, ...], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # -o "" printed the export to stdout; -o new/ wrote a file named "new"; --config
    # c.yaml/ and import doc.json/ read the file (cat doc.json/ fails: "Not a directory").
    root = tmp_path / "m"
    assert run(capsys, "--root", str(root), "remember", "--user", "ann", "Likes tea")[0] == 0
    (tmp_path / "doc.json").write_text('{"facts": []}', encoding="utf-8")
    (tmp_path / "c.yaml").write_text("{}\n", encoding="utf-8")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    values = {"root": str(root), "tmp": str(tmp_path)}
    status, out, err = run(capsys, *(part.format(**values) for part in argv))
    assert_one_error_line(status, err, words)
    assert status == 2 and out == ""
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert [f.content for f in FileMemoryStorage(root).load("ann").facts] == ["Likes tea"]


def test_a_config_file_path_that_is_empty_or_spelled_as_a_folder_is_a_config_error(
    tmp_path: Path,
) -> None:
    (tmp_path / "c.yaml").write_text("{}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="config file '' must not be empty"):
        load_config("")  # it read "." ("Is a directory")
    with pytest.raises(ConfigError, match="names a folder"):
        load_config(f"{tmp_path}/c.yaml/")  # it read c.yaml


def test_a_sqlite_path_spelled_as_a_folder_means_the_database_inside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert parse_backend_spec("sqlite:db.sqlite/").storage_path == Path("db.sqlite/memory.sqlite")
    root = tmp_path / "m"
    assert run(capsys, "--root", str(root), "remember", "--user", "ann", "Likes tea")[0] == 0
    target = f"sqlite:{tmp_path}/db.sqlite/"
    assert run(capsys, "migrate", "--from", f"file:{root}", "--to", target)[0] == 0
    assert (tmp_path / "db.sqlite" / "memory.sqlite").is_file()  # not a file named db.sqlite
    # A folder holding memory.sqlite is a migrate source, spelled with or without "/".
    for source in (f"sqlite:{tmp_path}/db.sqlite/", f"sqlite:{tmp_path}/db.sqlite"):
        back = tmp_path / f"back{len(source)}"
        status, _, err = run(capsys, "migrate", "--from", source, "--to", f"file:{back}")
        assert status == 0, err
        assert FileMemoryStorage(back).load("ann").facts[0].content == "Likes tea"


def test_a_sqlite_storage_path_spelled_as_a_folder_in_config_means_the_database_inside_it(
    tmp_path: Path,
) -> None:
    from deerflow_memory.config import MemoryConfig

    inside = Path("db.sqlite/memory.sqlite")
    assert MemoryConfig(storage="sqlite", storage_path="db.sqlite/").storage_path == inside
    assert MemoryConfig(storage="sqlite", storage_path="db.sqlite").storage_path == Path(
        "db.sqlite"
    )
    assert MemoryConfig(storage="file", storage_path="mem/").storage_path == Path("mem")
    config_file = tmp_path / "c.yaml"
    config_file.write_text("storage: sqlite\nstorage_path: db.sqlite/\n", encoding="utf-8")
    assert load_config(config_file).storage_path == inside
    env = {"DEERFLOW_MEMORY_STORAGE": "sqlite", "DEERFLOW_MEMORY_STORAGE_PATH": "db.sqlite/"}
    config = load_config(environ=env)
    assert config.storage_path == inside
    assert MemoryConfig(**config.model_dump()).storage_path == inside  # not appended twice


# Commands that only look where nothing is stored (forget and clear find nothing there).
LOOKS = [
    ("show", "--user", "ann"),
    ("export", "--user", "ann"),
    ("list",),
    ("list", "--tenants"),
    ("stats",),
    ("pending",),
    ("retry",),
    ("forget", "--user", "ann", "fact_0"),
    ("clear", "--user", "ann", "--yes"),
    ("--tenant", "acme", "show", "--user", "ann"),
]


def look_id(argv: tuple[str, ...]) -> str:
    return "-".join(a.lstrip("-") for a in argv[:2])


@pytest.mark.parametrize("argv", LOOKS, ids=look_id)
def test_a_mistyped_sqlite_path_is_looked_at_without_making_the_database(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "memory.yaml"
    config.write_text(f"storage: sqlite\nstorage_path: {tmp_path}/dbs/mem.sqlite\n", "utf-8")
    status, _, err = run(capsys, "--config", str(config), *argv)
    assert_one_error_line(status, err, "sqlite storage", "mem.sqlite")
    assert status == 1
    assert sorted(os.listdir(tmp_path)) == ["memory.yaml"]  # no database, folder or locks


def test_a_sqlite_database_is_made_by_the_commands_that_add_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "memory.yaml"
    config.write_text(f"storage: sqlite\nstorage_path: {tmp_path}/dbs/mem.sqlite\n", "utf-8")
    status, _, _ = run(capsys, "--config", str(config), "remember", "--user", "ann", "Plays oboe")
    assert status == 0
    assert (tmp_path / "dbs" / "mem.sqlite").is_file()
    status, out, _ = run(capsys, "--config", str(config), "show", "--user", "ann")
    assert status == 0
    assert "Plays oboe" in out


@pytest.mark.parametrize("where", ["{file}/mem.sqlite", "{file}", "{dangling}"])
def test_a_sqlite_path_that_cannot_be_a_database_is_a_storage_error_for_every_command(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # not "no memory is stored there": the setting is wrong, as remember says too
    (tmp_path / "plain").write_text("not a folder", "utf-8")
    (tmp_path / "gone.sqlite").symlink_to(tmp_path / "nowhere" / "x.sqlite")
    path = where.format(file=tmp_path / "plain", dangling=tmp_path / "gone.sqlite")
    config = tmp_path / "memory.yaml"
    config.write_text(f"storage: sqlite\nstorage_path: {path}\n", "utf-8")
    for argv in (("show", "--user", "ann"), ("remember", "--user", "ann", "Plays oboe")):
        status, _, err = run(capsys, "--config", str(config), *argv)
        assert_one_error_line(status, err, "SQLite memory database")
        assert status == 2
        if "plain" in path:  # said as the --root of the file backend is, not "File exists"
            assert "plain is not a folder" in err
    assert sorted(os.listdir(tmp_path)) == ["gone.sqlite", "memory.yaml", "plain"]

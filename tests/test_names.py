"""Ids of any script, NFC or NFD, 1–128 characters: they work on disk or fail clearly."""

from __future__ import annotations

import tempfile
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.store.memory import InMemoryStore

from deerflow_memory.errors import InvalidNameError
from deerflow_memory.identity import resolve_identity
from deerflow_memory.models import Fact, MemoryDocument
from deerflow_memory.storage.file import FileMemoryStorage
from deerflow_memory.storage.names import MAX_PLAIN_BYTES, storage_name, validate_name
from deerflow_memory.storage.store import StoreMemoryStorage

# Letters of many scripts, in both forms where they have two, plus what ids must not hold.
SCRIPTS = (
    "abcXYZ019_.-@+"
    "éüñçåøÆßŁ"  # Latin with diacritics (NFC)
    "ЖщЯ"  # Cyrillic
    "αβΩ"  # Greek
    "中文字汉語"  # CJK
    "한국어"  # Hangul (NFD splits into jamo)
    "कि्षा"  # Devanagari with vowel signs and virama (combining marks)
    "ไทย่"  # Thai with tone mark
    "عربي"  # Arabic
    "עברית"  # Hebrew
    "𝔘𓀀"  # astral planes (4 UTF-8 bytes)
)
NEVER_VALID = ' \t\n\u200b\u202e/\\:*?"<>|\x00%~😀'
names = st.one_of(
    st.text(alphabet=SCRIPTS, min_size=1, max_size=128),
    st.text(alphabet=SCRIPTS + NEVER_VALID, min_size=1, max_size=128),
)


def doc(text: str) -> MemoryDocument:
    return MemoryDocument(facts=(Fact(id="fact_00000001", content=text),))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names, st.sampled_from(["NFC", "NFD"]))
def test_any_id_saves_loads_and_lists_or_fails_with_one_clear_error(raw: str, form: str) -> None:
    name = unicodedata.normalize(form, raw)
    try:
        nfc = validate_name(name, "user_id")
    except InvalidNameError as e:
        assert "user_id" in str(e)
        return
    assert unicodedata.is_normalized("NFC", nfc)
    assert len(storage_name(nfc).encode("utf-8")) <= MAX_PLAIN_BYTES
    with tempfile.TemporaryDirectory() as root:
        storage = FileMemoryStorage(root)
        storage.save(name, name, doc("Likes tea"))  # user and agent folders
        other = unicodedata.normalize("NFD" if form == "NFC" else "NFC", name)
        assert storage.load(other, other).facts[0].content == "Likes tea"
        assert list(storage.list_documents()) == [(nfc, nfc)]


def test_nfc_and_nfd_spellings_are_the_same_user() -> None:
    nfc, nfd = "Zo\u00eb", "Zoe\u0308"
    assert validate_name(nfc) == validate_name(nfd) == nfc
    identity = resolve_identity({"configurable": {"user_id": nfd}})
    assert identity.user_id == nfc


@pytest.mark.parametrize("name", [" alice", "alice ", "\talice", "alice\n", "al ice"])
def test_whitespace_in_an_id_is_one_clear_error(name: str) -> None:
    with pytest.raises(InvalidNameError, match="user_id"):
        validate_name(name)


def test_a_long_non_ascii_id_maps_to_a_short_folder_and_lists_as_itself(tmp_path: Path) -> None:
    name = "ж" * 128  # 256 UTF-8 bytes: over most filesystems' 255-byte limit
    storage = FileMemoryStorage(tmp_path)
    storage.save(name, None, doc("Speaks Russian"))
    [folder] = (tmp_path / "users").iterdir()
    assert len(folder.name.encode()) < 200 and folder.name.startswith("ж")
    assert (folder / ".id").read_text(encoding="utf-8") == name
    assert list(storage.list_documents()) == [(name, None)]


@pytest.mark.parametrize("name", ["CON", "nul", "com1", "LPT9.backup", "aux.txt", "trailing."])
def test_windows_device_names_and_a_trailing_dot_get_a_safe_folder(
    name: str, tmp_path: Path
) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.save(name, None, doc("x fact"))
    [folder] = (tmp_path / "users").iterdir()
    assert folder.name != name and "~" in folder.name
    assert storage.load(name).facts[0].content == "x fact"
    assert list(storage.list_documents()) == [(name, None)]


def test_a_folder_saved_before_mapping_keeps_working(tmp_path: Path) -> None:
    legacy = tmp_path / "users" / "con"
    legacy.mkdir(parents=True)
    (legacy / "memory.json").write_text(doc("Old fact").to_json(), encoding="utf-8")
    storage = FileMemoryStorage(tmp_path)
    assert storage.load("con").facts[0].content == "Old fact"
    assert list(storage.list_documents()) == [("con", None)]


def test_a_mapped_folder_with_a_tampered_id_file_is_not_listed(tmp_path: Path) -> None:
    storage = FileMemoryStorage(tmp_path)
    storage.save("CON", None, doc("x fact"))
    [folder] = (tmp_path / "users").iterdir()
    (folder / ".id").write_text("mallory", encoding="utf-8")
    assert list(storage.list_documents()) == []


def test_the_store_backend_takes_the_same_ids() -> None:
    storage = StoreMemoryStorage(InMemoryStore())
    name = "ж" * 128
    storage.save(unicodedata.normalize("NFD", "Zoë"), name, doc("Likes tea"))
    assert storage.load("Zo\u00eb", name).facts[0].content == "Likes tea"
    assert list(storage.list_documents()) == [("Zo\u00eb", name)]


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164", "\uffa0", "\u115f", "al\u3164ice"])
def test_an_id_with_a_hangul_filler_is_refused(name: str) -> None:
    # Letters to str.isalnum that show as a blank: "ㅤ" looks like no id, "alㅤice" like alice.
    with pytest.raises(InvalidNameError, match="HANGUL"):
        validate_name(name, "user_id")


def test_hangul_ids_are_still_ids() -> None:
    assert validate_name("김민지", "user_id") == "김민지"
    assert validate_name("ㄱㄴ", "user_id") == "ㄱㄴ"  # compatibility jamo that show

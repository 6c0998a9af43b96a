"""deerflow-memory remember / forget: manual facts from the command line."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from deerflow_memory import FileMemoryStorage
from deerflow_memory.models import USER_DELETED_REASON, FactCategory, SourceType
from tests.test_cli import cli


def test_remember_and_forget_write_manual_facts_from_the_command_line(tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    done = cli(
        *root, "remember", "--user", "ann", "--category", "preference", "Prefers tea", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    [fact] = FileMemoryStorage(tmp_path).load("ann").facts
    assert (fact.content, fact.category, fact.source_type) == (
        "Prefers tea",
        FactCategory.PREFERENCE,
        SourceType.MANUAL,
    )
    bad = cli(*root, "remember", "--user", "ann", "...", cwd=tmp_path)
    assert bad.returncode == 2 and "fact rejected" in bad.stderr

    spaced = cli(*root, "forget", "--user", "ann", fact.id + " ", cwd=tmp_path)
    assert spaced.returncode == 1 and f"did you mean {fact.id!r}" in spaced.stderr
    assert len(FileMemoryStorage(tmp_path).load("ann").facts) == 1  # nothing guessed
    bare = cli(*root, "forget", "--user", "ann", fact.id.removeprefix("fact_"), cwd=tmp_path)
    assert bare.returncode == 1 and f"did you mean {fact.id!r}" in bare.stderr  # prefix left off
    assert len(FileMemoryStorage(tmp_path).load("ann").facts) == 1
    gone = cli(*root, "forget", "--user", "ann", fact.id, cwd=tmp_path)
    assert gone.returncode == 0, gone.stderr
    document = FileMemoryStorage(tmp_path).load("ann")
    assert document.facts == ()
    assert document.superseded_facts[-1].reason == USER_DELETED_REASON
    unknown = cli(*root, "forget", "--user", "ann", fact.id, cwd=tmp_path)
    assert unknown.returncode == 1 and "no current fact" in unknown.stderr  # nothing to do
    assert "already deleted" in unknown.stderr  # (newcomer 48: it said "never existed")


def test_remember_warns_when_the_text_looks_like_a_secret(tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    secret = cli(*root, "remember", "--user", "ann", "My password is swordfish42", cwd=tmp_path)
    assert secret.returncode == 0, secret.stderr  # stored as asked…
    [fact] = FileMemoryStorage(tmp_path).load("ann").facts
    # …with one line saying the model will read it, and how to remove it (besides the
    # note that this is the first memory in the root)
    warned = [line for line in secret.stderr.splitlines() if "no memory was stored" not in line]
    assert len(warned) == 1 and "looks like a secret" in warned[0]
    assert "swordfish42" not in secret.stdout + secret.stderr  # the id names it
    assert f"remembered {fact.id}, its text not repeated" in secret.stdout
    assert fact.id in secret.stderr and "forget" in secret.stderr
    assert "history" in secret.stderr  # forgetting keeps the text there (newcomer 42)
    plain = cli(*root, "remember", "--user", "ann", "Prefers green tea", cwd=tmp_path)
    assert plain.returncode == 0 and plain.stderr == ""
    assert ": Prefers green tea (confidence 1" in plain.stdout


def test_forget_of_a_secret_says_its_text_stays_in_history(tmp_path: Path) -> None:
    # The model stops reading it; the history and exports keep it until a clear (newcomer 43).
    root = ["--root", str(tmp_path)]
    assert (
        cli(*root, "remember", "--user", "bo", "My door code is 6021", cwd=tmp_path).returncode == 0
    )
    assert cli(*root, "remember", "--user", "bo", "Likes rowing", cwd=tmp_path).returncode == 0
    secret, plain = FileMemoryStorage(tmp_path).load("bo").facts
    gone = cli(*root, "forget", "--user", "bo", secret.id, cwd=tmp_path)
    assert gone.returncode == 0 and gone.stderr.count("\n") == 1
    assert "looked like a secret" in gone.stderr and "clear" in gone.stderr
    assert "6021" not in gone.stdout + gone.stderr and f"forgot {secret.id}," in gone.stdout
    quiet = cli(*root, "forget", "--user", "bo", plain.id, cwd=tmp_path)
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert f"forgot {plain.id}: Likes rowing" in quiet.stdout


def test_forget_of_an_empty_id_is_bad_input(tmp_path: Path) -> None:
    # Exit 2 like other bad input, not 1 ("no such fact"); nothing is looked up or written.
    root = ["--root", str(tmp_path)]
    assert cli(*root, "remember", "--user", "cy", "Keeps a kayak", cwd=tmp_path).returncode == 0
    for empty in ("", "  ", "\u200b"):
        done = cli(*root, "forget", "--user", "cy", empty, cwd=tmp_path)
        assert done.returncode == 2 and "fact id is empty" in done.stderr
        assert done.stderr.count("\n") == 1
    assert len(FileMemoryStorage(tmp_path).load("cy").facts) == 1


def test_no_error_repeats_a_value_that_looks_like_a_secret(tmp_path: Path) -> None:
    # The fact's text given for its id, a secret given as a user id (newcomer 45): the
    # error says what is wrong without quoting it.
    root = ["--root", str(tmp_path)]
    assert (
        cli(*root, "remember", "--user", "di", "The shed code is 7431", cwd=tmp_path).returncode
        == 0
    )
    wrong = cli(*root, "forget", "--user", "di", "The shed code is 7431", cwd=tmp_path)
    assert wrong.returncode == 1 and "no current fact with id" in wrong.stderr
    assert "7431" not in wrong.stderr and "not shown" in wrong.stderr
    bad_user = cli(*root, "show", "--user", "my PIN is 5150", cwd=tmp_path)
    assert bad_user.returncode == 2 and "5150" not in bad_user.stderr
    plain = cli(*root, "forget", "--user", "di", "fact_nothing", cwd=tmp_path)
    assert plain.returncode == 1 and "'fact_nothing'" in plain.stderr  # harmless: still named


def test_a_real_path_in_an_error_is_shown_whatever_it_looks_like(tmp_path: Path) -> None:
    # a timestamp or "pin-3.28" in a folder name is no secret (attacker 66)
    spec = str(tmp_path / "build-1764729600" / "pin-3.28" / "mem")
    done = cli("migrate", "--from", spec, "--to", f"file:{tmp_path / 'y'}", cwd=tmp_path)
    assert done.returncode == 2 and spec in done.stderr


def test_a_value_typed_as_text_is_checked_even_when_shaped_like_a_path(tmp_path: Path) -> None:
    # "/sk_live_…" given as an agent, a user or a fact id is no file's path: the error
    # hides it like any other secret, while a real path (the test above) stays shown.
    root = ["--root", str(tmp_path)]
    token = "/sk_live_Quartz7Heron2Maple9Otter4"
    assert cli(*root, "remember", "--user", "ed", "Rows on Sundays", cwd=tmp_path).returncode == 0
    for command in (
        ("show", "--user", "ed", "--agent", token),
        ("show", "--user", token),
        ("forget", "--user", "ed", token),
        ("remember", "--user", "ed", "--category", token, "Likes kites"),
    ):
        done = cli(*root, *command, cwd=tmp_path)
        assert done.returncode in (1, 2) and done.stderr.count("\n") == 1, command
        assert "Quartz7" not in done.stderr and "not shown" in done.stderr, command
    harmless = cli(*root, "forget", "--user", "ed", "/notes/todo", cwd=tmp_path)
    assert harmless.returncode == 1 and "'/notes/todo'" in harmless.stderr


def test_forget_given_a_facts_text_names_its_id(tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    assert cli(*root, "remember", "--user", "fay", "Plays the oboe", cwd=tmp_path).returncode == 0
    [fact] = FileMemoryStorage(tmp_path).load("fay").facts
    done = cli(*root, "forget", "--user", "fay", "plays the  OBOE", cwd=tmp_path)
    assert done.returncode == 1 and f"text of {fact.id!r}" in done.stderr
    assert "never existed" not in done.stderr
    assert FileMemoryStorage(tmp_path).load("fay").facts == (fact,)  # nothing guessed


def test_remember_of_a_stored_text_says_it_was_there(tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    first = cli(*root, "remember", "--user", "gus", "Keeps bees", cwd=tmp_path)
    assert first.returncode == 0 and first.stdout.startswith("remembered fact_")
    again = cli(*root, "remember", "--user", "gus", "keeps  bees", cwd=tmp_path)
    assert again.returncode == 0 and again.stdout.startswith("already remembered, confirmed")
    [fact] = FileMemoryStorage(tmp_path).load("gus").facts
    assert fact.id in again.stdout and fact.last_confirmed_at is not None


def test_a_long_token_typed_as_a_fact_id_is_hidden_though_the_error_cuts_it(
    tmp_path: Path,
) -> None:
    # The error quotes 80 characters, no longer what was typed (attacker 69).
    token = "/sk_live_" + "Quartz7Heron2Maple9" * 6
    assert (
        cli("--root", str(tmp_path), "remember", "--user", "ed", "Rows", cwd=tmp_path).returncode
        == 0
    )
    done = cli("--root", str(tmp_path), "forget", "--user", "ed", token, cwd=tmp_path)
    assert done.returncode == 1 and "Quartz7" not in done.stderr and "not shown" in done.stderr


def test_remember_for_a_new_user_beside_others_says_so(tmp_path: Path) -> None:
    # A mistyped id quietly started a second memory (newcomer 48).
    root = ["--root", str(tmp_path)]
    first = cli(*root, "remember", "--user", "maeve", "Grows chillies", cwd=tmp_path)
    # The first memory of all in a root is said too: the root may be mistyped (newcomer 51).
    assert (
        first.stderr
        == f"deerflow-memory: note: no memory was stored in {tmp_path}; this fact starts it\n"
    )
    typo = cli(*root, "remember", "--user", "meave", "Keeps quail", cwd=tmp_path)
    assert typo.returncode == 0 and typo.stdout.startswith("remembered fact_")
    assert typo.stderr.startswith("deerflow-memory: note: user 'meave' had no memory")
    assert "stored users: maeve" in typo.stderr and typo.stderr.count("\n") == 1
    assert "did you mean 'maeve'?" in typo.stderr  # newcomer 49: one letter off
    again = cli(*root, "remember", "--user", "meave", "Reads sagas", cwd=tmp_path)
    assert again.returncode == 0 and again.stderr == ""  # only when the memory starts
    # Cleared, the memory is none: the same typo again is noted again (newcomer 53), and
    # clear says where it deleted.
    cleared = cli(*root, "clear", "--user", "meave", "--yes", cwd=tmp_path)
    assert cleared.stdout == f"deleted the memory of 'meave' (default agent) in {tmp_path}\n"
    retyped = cli(*root, "remember", "--user", "meave", "Keeps quail", cwd=tmp_path)
    assert "did you mean 'maeve'?" in retyped.stderr


def test_clear_says_where_it_deleted_as_an_error_line_would(tmp_path: Path) -> None:
    # The place named a credential of the root and a secret-looking tenant in full (attacker 98).
    root = tmp_path / "password=Wk37yhQp"
    tenant = "sk_live_Quartz7Heron2Maple9Quartz7Heron2"
    options = ["--root", str(root), "--tenant", tenant]
    assert cli(*options, "remember", "--user", "lee", "Swims", cwd=tmp_path).returncode == 0
    done = cli(*options, "clear", "--user", "lee", "--yes", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("deleted the memory of 'lee'")
    assert "Wk37yhQp" not in done.stdout and "Quartz7" not in done.stdout


def test_the_new_user_note_does_not_repeat_a_stored_user_id_that_looks_like_a_secret(
    tmp_path: Path,
) -> None:
    # The typed id was hidden, the stored ones listed beside it were not (attacker 86).
    root = ["--root", str(tmp_path)]
    token = "sk_live_Quartz7Heron2Maple9Quartz7Heron2"
    assert cli(*root, "remember", "--user", token, "Grows chillies", cwd=tmp_path).returncode == 0
    note = cli(*root, "remember", "--user", "maeve", "Keeps quail", cwd=tmp_path)
    assert note.returncode == 0 and "stored users: (not shown" in note.stderr
    assert "Quartz7" not in note.stderr


def test_forget_by_a_part_of_a_facts_text_names_the_facts_holding_it(tmp_path: Path) -> None:
    # "forget 'green tea'" for "Likes green tea" said only "never existed" (newcomer 48).
    root = ["--root", str(tmp_path)]
    for text in ("Brews green tea at dawn", "Dislikes green tea ice cream", "Plays oboe"):
        assert cli(*root, "remember", "--user", "ida", text, cwd=tmp_path).returncode == 0
    brews, dislikes, oboe = FileMemoryStorage(tmp_path).load("ida").facts
    part = cli(*root, "forget", "--user", "ida", "Green  Tea", cwd=tmp_path)
    assert part.returncode == 1 and "part of the text of" in part.stderr
    assert brews.id in part.stderr and dislikes.id in part.stderr and oboe.id not in part.stderr
    assert len(FileMemoryStorage(tmp_path).load("ida").facts) == 3  # nothing guessed
    short = cli(*root, "forget", "--user", "ida", "o", cwd=tmp_path)  # too short to mean one
    assert short.returncode == 1 and "never existed" in short.stderr
    for text in ("Drinks green tea cold", "Grows green tea", "Sells green tea"):
        assert cli(*root, "remember", "--user", "ida", text, cwd=tmp_path).returncode == 0
    many = cli(*root, "forget", "--user", "ida", "green tea", cwd=tmp_path)  # newcomer 49
    assert many.returncode == 1 and "and 2 more (show lists them)" in many.stderr


def test_forget_of_an_id_one_character_off_names_the_id_meant(tmp_path: Path) -> None:
    # Newcomer 49: "fact_264d96c" (the last digit lost) said only "never existed".
    root = ["--root", str(tmp_path)]
    for text in ("Bakes sourdough", "Keeps a diary", "Plays chess"):
        assert cli(*root, "remember", "--user", "ola", text, cwd=tmp_path).returncode == 0
    facts = FileMemoryStorage(tmp_path).load("ola").facts
    target = facts[1]
    cut = cli(*root, "forget", "--user", "ola", target.id[:-1], cwd=tmp_path)
    assert cut.returncode == 1 and f"did you mean {target.id!r}" in cut.stderr
    # The reason given is the one that holds: not case, whitespace or invisible characters.
    assert "(1 character differs)" in cut.stderr and "case" not in cut.stderr
    assert all(f.id not in cut.stderr for f in facts if f is not target)
    assert len(FileMemoryStorage(tmp_path).load("ola").facts) == 3  # nothing guessed


def _import_ids(tmp_path: Path, user: str, ids: list[str]) -> None:
    facts = [{"id": i, "content": f"Fact number {n}"} for n, i in enumerate(ids)]
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"facts": facts}), "utf-8")
    done = cli("--root", str(tmp_path), "import", "--user", user, str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def test_forget_names_no_id_when_two_are_equally_close(tmp_path: Path) -> None:
    # "fact_aaaa1113" was answered "did you mean 'fact_aaaa1112'?" beside "…1111" (attacker
    # 88): forget deletes, so a guess between two equally close ids names neither.
    _import_ids(tmp_path, "ivo", ["fact_aaaa1111", "fact_aaaa1112", "fact_bbbb9999"])
    root = ["--root", str(tmp_path)]
    tie = cli(*root, "forget", "--user", "ivo", "fact_aaaa1113", cwd=tmp_path)
    assert tie.returncode == 1 and "did you mean" not in tie.stderr
    one = cli(*root, "forget", "--user", "ivo", "fact_bbbb999", cwd=tmp_path)
    assert "did you mean 'fact_bbbb9999'? (1 character differs)" in one.stderr


def test_forget_says_how_many_characters_differ_and_that_the_prefix_counts(
    tmp_path: Path,
) -> None:
    _import_ids(tmp_path, "ivo", ["fact_" + "x" * 40 + "abcdefgh"])
    root = ["--root", str(tmp_path)]
    far = cli(*root, "forget", "--user", "ivo", "fact_" + "x" * 40 + "abcdzzzz", cwd=tmp_path)
    assert "(4 characters differ)" in far.stderr  # it said "a character or two"
    bare = cli(*root, "forget", "--user", "ivo", "x" * 40 + "abcdefgh", cwd=tmp_path)
    assert "(the 'fact_' prefix is part of the id)" in bare.stderr and "case" not in bare.stderr


def test_a_secret_looking_user_id_meant_is_hidden_whatever_the_root_holds(
    tmp_path: Path,
) -> None:
    # An apostrophe in --root paired with the quote of "did you mean '…'", so the stored
    # secret-looking id meant was printed in full (attacker 88).
    root = tmp_path / "bob's memory"
    token = "sk_live_Quartz7Heron2Maple9Quartz7Heron2"
    assert (
        cli("--root", str(root), "remember", "--user", token, "Rows", cwd=tmp_path).returncode == 0
    )
    for command in (["show", "--user", token + "9"], ["remember", "--user", token + "9", "Rows"]):
        said = cli("--root", str(root), *command, cwd=tmp_path)
        assert "Quartz7" not in said.stderr and "not shown" in said.stderr


def test_a_secret_looking_user_id_is_hidden_in_the_path_of_an_unreadable_document(
    tmp_path: Path,
) -> None:
    token = "sk_live_Quartz7Heron2Maple9Quartz7Heron2"
    root = ["--root", str(tmp_path)]
    assert cli(*root, "remember", "--user", token, "Rows", cwd=tmp_path).returncode == 0
    (tmp_path / "users" / token / "memory.json").write_text("{broken", "utf-8")
    for command in (["stats"], ["show", "--user", token]):
        said = cli(*root, *command, cwd=tmp_path)
        assert said.returncode == 2 and "corrupt" in said.stderr
        assert "Quartz7" not in said.stderr and "users/(not shown" in said.stderr


def test_a_secret_looking_user_id_is_hidden_under_its_folder_name_and_its_nfc_form(
    tmp_path: Path,
) -> None:
    # The path names the folder "prefix~hash" of an id ending in "." and the NFC form of
    # an id typed in NFD: neither was the typed text, so both were printed (attacker 90).
    root = ["--root", str(tmp_path)]
    dotted = "ghp_Quartz7Heron2Maple9Quartz7Heron2Lark."
    nfd = unicodedata.normalize("NFD", "password.hünter2Quartz7")
    for user in (dotted, nfd):
        assert cli(*root, "remember", "--user", user, "Rows", cwd=tmp_path).returncode == 0
    for path in tmp_path.glob("users/*/memory.json"):
        path.write_text("{broken", "utf-8")
    for user in (dotted, nfd):
        said = cli(*root, "show", "--user", user, cwd=tmp_path)
        assert said.returncode == 2 and "corrupt" in said.stderr
        assert "Quartz7" not in said.stderr and "users/(not shown" in said.stderr


def test_a_typed_secret_is_not_hidden_inside_a_longer_name(tmp_path: Path) -> None:
    # "passw0rd" typed as the user was cut out of the root "…/passw0rd-notes" (attacker 90).
    root = tmp_path / "passw0rd-notes"
    said = cli("--root", str(root), "show", "--user", "passw0rd", cwd=tmp_path)
    assert said.returncode == 1 and str(root) in said.stderr


def test_an_extra_argument_that_looks_like_a_secret_is_not_repeated(tmp_path: Path) -> None:
    said = cli(
        "--root", str(tmp_path), "remember", "--user", "ann", "Rows", "my PIN is 4321",
        cwd=tmp_path,
    )  # fmt: skip
    assert said.returncode == 2 and "unrecognized arguments" in said.stderr
    assert "4321" not in said.stderr
    # …and its words given unquoted, as several arguments (attacker 91)
    root = ["--root", str(tmp_path)]
    words = cli(
        *root, "remember", "--user", "ann", "my", "door", "code", "is", "5512", cwd=tmp_path
    )
    assert words.returncode == 2 and "5512" not in words.stderr
    # …also beside a quoted one (attacker 92: that one hidden first, the words were not)
    both = cli(
        *root, "list", "'password=hunter2'", "my", "door", "code", "is", "5512", cwd=tmp_path
    )
    assert both.returncode == 2 and "5512" not in both.stderr and "hunter2" not in both.stderr


@pytest.mark.parametrize("option", ["--co=password=Zq9Wv7Rt", "--config=/etc/db_password=Zq9Wv7Rt"])
def test_a_credential_in_an_option_value_is_masked_in_the_error(
    option: str, tmp_path: Path
) -> None:
    # "config file not found: password=Zq9Wv7Rt" printed it: no error line was masked by
    # redact_secrets, only by what was typed as text (attacker 93).
    said = cli("--root", str(tmp_path), "stats", option, cwd=tmp_path)
    assert said.returncode == 2 and said.stderr.count("\n") == 1
    assert "Zq9Wv7Rt" not in said.stderr


def test_forget_of_another_users_fact_names_its_user(tmp_path: Path) -> None:
    # "…or never existed" for an id of alice's typed with --user bob (newcomer 51).
    root = ["--root", str(tmp_path)]
    assert cli(*root, "remember", "--user", "alice", "Plays chess", cwd=tmp_path).returncode == 0
    assert cli(*root, "remember", "--user", "bob", "Rows", cwd=tmp_path).returncode == 0
    [chess] = FileMemoryStorage(tmp_path).load("alice").facts
    wrong = cli(*root, "forget", "--user", "bob", chess.id, cwd=tmp_path)
    assert wrong.returncode == 1 and wrong.stderr.count("\n") == 1
    assert "it is a fact of user 'alice'" in wrong.stderr
    assert len(FileMemoryStorage(tmp_path).load("alice").facts) == 1  # nothing deleted
    unknown = cli(*root, "forget", "--user", "bob", "fact_0000ffff", cwd=tmp_path)
    assert unknown.returncode == 1 and "fact of user" not in unknown.stderr


def test_import_that_starts_a_memory_says_so_as_remember_does(tmp_path: Path) -> None:
    # An import into a mistyped --user or --root quietly made a second memory (stop 45's gap).
    source = tmp_path / "tea.json"
    source.write_text(
        '{"facts": [{"content": "Drinks oolong", "category": "preference"}]}', encoding="utf-8"
    )
    root = ["--root", str(tmp_path / "mem")]
    first = cli(*root, "import", "--user", "nora", str(source), cwd=tmp_path)
    assert first.returncode == 0 and first.stdout.startswith("imported 1 fact into nora")
    assert first.stderr == (
        f"deerflow-memory: note: no memory was stored in {tmp_path / 'mem'}; "
        "this import starts it\n"
    )
    typo = cli(*root, "import", "--user", "norra", str(source), cwd=tmp_path)
    assert typo.returncode == 0 and typo.stderr.count("\n") == 1
    assert typo.stderr.startswith("deerflow-memory: note: user 'norra' had no memory")
    assert "this import starts one" in typo.stderr and "did you mean 'nora'?" in typo.stderr
    # Replacing a memory that exists is no new memory: no note.
    again = cli(*root, "import", "--user", "norra", str(source), "--yes", cwd=tmp_path)
    assert again.returncode == 0 and again.stderr == ""

"""`ctxtui pack --packer shabka`: Shabka's stdout, its empty-pack line, its exit 1 errors, and its settings."""

from __future__ import annotations

import json

import pytest
from ctxtui.cli import main
from ctxtui.engine.packers.shabka.dates import format_rfc3339
from ctxtui.opening.shabka import now_moment, resolve_user_id, shabka_config

from tests.factories.shabka_dbs import memory, write_store
from tests.packers.shabka.cases import CASES
from tests.packers.shabka.harness import run_packer

NOW = "2025-06-01T12:00:00Z"
EMPTY = b"\x1b[2mNo memories fit within the token budget.\x1b[0m\n"


@pytest.fixture
def basic(tmp_path):
    case = CASES["basic"]
    return write_store(tmp_path / "shabka.db", case["memories"], case["relations"])


def pack(db, *args):
    return main(["pack", "--packer", "shabka", "--db", str(db), "--now", NOW, "--user", "alice", *args])


def test_pack_prints_what_shabka_prints(basic, capsysbinary):
    assert pack(basic, "--query", "sqlite storage", "--budget", "150") == 0
    out = capsysbinary.readouterr().out
    assert out == run_packer(basic, ["sqlite storage", "--tokens", "150"], "alice", NOW)[0].encode()
    assert out.startswith(b"# Project Context: all (3 memories, ~136 tokens)\n\n## [decision] Use SQLite for storage\n")


def test_json_flags_and_the_default_budget(basic, capsysbinary):
    assert pack(basic, "--format", "json", "--kind", "fix", "--tag", "retry", "--tag", "nope") == 0
    data = json.loads(capsysbinary.readouterr().out)
    assert data["budget"] == 2000 and data["project_id"] is None
    assert [m["title"] for m in data["memories"]] == ["Retry with backoff"]


def test_an_empty_pack_is_one_line_on_stderr_and_exit_0(basic, capsysbinary, tmp_path):
    assert pack(basic, "--budget", "0", "-o", str(tmp_path / "out.md")) == 0
    captured = capsysbinary.readouterr()
    assert captured.out == b"" and captured.err == EMPTY
    assert not (tmp_path / "out.md").exists()  # Shabka writes no file either


def test_an_unknown_kind_exits_1_with_shabkas_message(basic, capsysbinary):
    assert pack(basic, "--kind", "bogus") == 1
    assert capsysbinary.readouterr() == (b"", b"Error: unknown memory kind: bogus\n")


def test_a_row_shabka_cannot_read_exits_1(tmp_path, capsysbinary):
    db = write_store(
        tmp_path / "s.db", [memory(1, "Broken", "x", privacy="public")], sql=["UPDATE memories SET source='\"manual\"'"]
    )
    assert pack(db) == 1
    err = capsysbinary.readouterr().err.decode()
    assert err.startswith(
        "Error: vector search failed\n\nCaused by:\n    Storage error: failed to read vec search row:"
    )


def test_a_store_of_another_embedder_gets_a_notice(tmp_path, capsysbinary):
    db = write_store(tmp_path / "s.db", [memory(1, "M", "c", privacy="public", _embed={"vector": [0.1] * 768})])
    assert pack(db) == 0
    err = capsysbinary.readouterr().err
    assert b"ctxtui: notice: this store's vectors are 768-dimensional" in err and err.endswith(EMPTY)


def test_explain_and_sweep(basic, capsys):
    common = ["--packer", "shabka", "--db", str(basic), "--now", NOW, "--user", "alice", "--query", "sqlite storage"]
    assert main(["explain", *common, "--budget", "100", "Café"]) == 0
    text = capsys.readouterr().out
    assert (
        "stopped at the first misfit: needs 41 tokens, 5 left" in text and "in full from a budget of 136 tokens" in text
    )
    assert main(["sweep", *common, "--from", "0", "--to", "300", "--step", "100", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["included"] for r in rows] == [0, 2, 4, 5]


def test_negative_budget_and_missing_store_are_usage_errors(basic, tmp_path, capsys):
    assert pack(basic, "--budget", "-1") == 2
    assert main(["pack", "--packer", "shabka", "--db", str(tmp_path / "none.db")]) == 2
    assert "no such file" in capsys.readouterr().err


# ---------------------------------------------------------------- settings Shabka takes from elsewhere


@pytest.fixture
def isolated(tmp_path, monkeypatch):
    """No Shabka config, no git identity, no $HOSTNAME: only what a test puts there."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / "gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("HOSTNAME", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return home, work


def test_user_id_from_config_then_git_then_hostname(isolated, monkeypatch):
    home, work = isolated
    monkeypatch.setenv("HOSTNAME", "box")
    assert resolve_user_id(shabka_config(work)) == ("box", "$HOSTNAME")
    (home / "gitconfig").write_text("[user]\n\tname =  Ada Lovelace \n")
    assert resolve_user_id(shabka_config(work)) == ("Ada Lovelace", "git config user.name")
    (home / ".config" / "shabka").mkdir(parents=True)
    (home / ".config" / "shabka" / "config.toml").write_text('[sharing]\nuser_id = "global"\n')
    assert resolve_user_id(shabka_config(work))[0] == "global"
    (work / ".shabka").mkdir()
    (work / ".shabka" / "config.toml").write_text('[sharing]\nuser_id = "project"\n[embedding]\nprovider = "hash"\n')
    (work / ".shabka" / "config.local.toml").write_text('[sharing]\nuser_id = "local"\n')
    assert resolve_user_id(shabka_config(work)) == ("local", "Shabka's config [sharing] user_id")
    assert shabka_config(work)["embedding"]["provider"] == "hash"  # tables merge key by key
    (work / ".shabka" / "config.local.toml").write_text("[sharing\n")  # one bad layer drops them all
    assert resolve_user_id(shabka_config(work))[0] == "Ada Lovelace"


def test_the_user_decides_which_private_memories_show(isolated, tmp_path, capsysbinary, monkeypatch):
    monkeypatch.setenv("HOSTNAME", "bob")
    db = write_store(
        tmp_path / "s.db", [memory(1, "Alice's", "a", created_by="alice"), memory(2, "Bob's", "b", created_by="bob")]
    )
    assert main(["pack", "--packer", "shabka", "--db", str(db), "--now", NOW]) == 0
    assert b"Bob's" in capsysbinary.readouterr().out
    assert main(["pack", "--packer", "shabka", "--db", str(db), "--now", NOW, "--user", "alice"]) == 0
    out = capsysbinary.readouterr().out
    assert b"Alice's" in out and b"Bob's" not in out


def test_a_configured_provider_is_noticed(isolated, tmp_path, capsysbinary):
    _, work = isolated
    (work / ".shabka").mkdir()
    (work / ".shabka" / "config.toml").write_text('[embedding]\nprovider = "openai"\n')
    db = write_store(tmp_path / "s.db", [memory(1, "M", "c", privacy="public")])
    assert main(["pack", "--packer", "shabka", "--db", str(db), "--now", NOW]) == 0
    assert b"'openai' embedder" in capsysbinary.readouterr().err


@pytest.mark.parametrize(
    "text,utc",
    [
        ("2025-06-01T12:00:00Z", "2025-06-01T12:00:00Z"),
        ("2025-06-01T14:00:00.123456789+02:00", "2025-06-01T12:00:00.123456789Z"),
        ("2025-06-01T12:00:00", "2025-06-01T12:00:00Z"),  # not RFC 3339: read as ISO 8601, UTC
    ],
)
def test_now(text, utc):
    assert format_rfc3339(now_moment(text)) == utc

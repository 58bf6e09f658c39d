"""The CLI with memory databases: pack/explain --db on every store, --project, bad files, and `memory` writes.

Bad databases never cost the user the `.context/` packet: one warning line
naming the file on stderr, exit status 0, the packet on stdout. The `memory`
commands write only to the file they are given.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from ctxtui.cli import main
from ctxtui.engine.sources.memory import load_memories

from tests.factories.memory_dbs import build_cortex_db, build_shabka_db

from . import stores
from .conftest import NOW, fingerprint
from .stores import MEMS, PREFIX, STORES

NOW_ARG = NOW.strftime("%Y-%m-%dT%H:%M:%SZ")
DB_SUFFIXES = ("", "-wal", "-shm", "-journal")


@pytest.fixture
def project(tmp_path) -> Path:
    return stores.workspace(tmp_path / "project")


def pack(capsys, project: Path, *extra: str, fmt: str = "json", budget: int = 100_000):
    code = main(["pack", str(project), "--budget", str(budget), "--now", NOW_ARG, "--format", fmt, *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def tree(root: Path, *, skip: Path | None = None) -> dict[str, tuple[str, int]]:
    """Every file under root (except `skip` and its sidecars): content hash and mtime."""
    skipped = {f"{skip}{suffix}" for suffix in DB_SUFFIXES} if skip else set()
    out = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and str(path) not in skipped:
            out[str(path.relative_to(root))] = (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns)
    return out


# ---------------------------------------------------------------- pack and explain on every store


@pytest.mark.parametrize("store", STORES)
def test_pack_joins_each_store(tmp_path, capsys, project, store):
    db = stores.build(store, tmp_path / f"{store}.db", NOW)
    before = fingerprint(db)
    code, out, err = pack(capsys, project, "--db", str(db))
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert any("Keep memories in SQLite" in block for block in data["decisions"])
    assert any("Memory loads take 0.4 s" in block for block in data["memories"] + data.get("summaries", []))
    assert "Store memories in JSON files" not in out  # archived
    code, markdown, _ = pack(capsys, project, "--db", str(db), fmt="md")
    assert code == 0 and "## Memories\n" in markdown and "## Recent Decisions\n" in markdown
    assert fingerprint(db) == before


@pytest.mark.parametrize("store", STORES)
def test_explain_a_memory_by_provenance_and_by_title(tmp_path, capsys, project, store):
    db = stores.build(store, tmp_path / f"{store}.db", NOW)
    source = f"{PREFIX[store]}:d1"
    base = ["explain", str(project), "--db", str(db), "--now", NOW_ARG, "--budget", "100000"]
    assert main([*base[:2], source, *base[2:]]) == 0
    out = capsys.readouterr().out
    assert f"where:   {source}" in out and "section: decisions (tier 4)" in out
    assert "importance 1.0" in out and "usage" in out
    assert main([*base[:2], "Keep memories in SQLite", *base[2:], "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["source"] == source and data["section"] == "decisions" and data["fate"] in ("included", "summarized")
    assert data["score"]["importance"] == 1.0 and data["score"]["usage"] == (1.0 if store == "shabka" else 1.5)
    assert main([*base[:2], "Store memories in JSON", *base[2:], "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["fate"], data["reason"], data["source"]) == ("dropped", "archived", f"{PREFIX[store]}:a1")


@pytest.mark.parametrize("store", ["native", "shabka"])
def test_project_option_filters(tmp_path, capsys, project, store):
    db = stores.build(store, tmp_path / f"{store}.db", NOW)
    other = next(m for m in MEMS if m.project == "other")
    _, everything, _ = pack(capsys, project, "--db", str(db))
    code, filtered, err = pack(capsys, project, "--db", str(db), "--project", "ctxtui")
    assert (code, err) == (0, "")
    assert other.title in everything and other.title not in filtered
    assert "Keep memories in SQLite" in filtered
    code, none, _ = pack(capsys, project, "--db", str(db), "--project", "nobody")
    assert code == 0 and "memories" not in json.loads(none)


def test_project_option_on_a_store_without_projects_warns(tmp_path, capsys, project):
    db = stores.build("cortex", tmp_path / "cortex.db", NOW)
    code, out, err = pack(capsys, project, "--db", str(db), "--project", "ctxtui")
    assert code == 0 and "Prefer read-only connections" in out
    assert (
        err
        == f"ctxtui: warning: {db}: this cortex store has no project column: the project filter 'ctxtui' was ignored\n"
    )


# ---------------------------------------------------------------- bad databases keep the packet


def corrupt(tmp_path: Path) -> Path:
    good = stores.build("native", tmp_path / "good.db", NOW)
    path = tmp_path / "corrupt.db"
    data = bytearray(good.read_bytes())
    data[100:4096] = b"\xff" * (4096 - 100)
    path.write_bytes(bytes(data))
    return path


def not_sqlite(tmp_path: Path) -> Path:
    path = tmp_path / "notes.db"
    path.write_text("# not a database\n" * 20, encoding="utf-8")
    return path


def missing(tmp_path: Path) -> Path:
    return tmp_path / "nowhere" / "memory.db"


@pytest.mark.parametrize("fmt", ["md", "json"])
def test_a_missing_database_is_an_error_naming_it(tmp_path, capsys, project, fmt):
    """A --db that is not there is a typo more often than a store to come: one line, exit 2, no packet."""
    db = missing(tmp_path)
    code, out, err = pack(capsys, project, "--db", str(db), fmt=fmt, budget=4000)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith(f"ctxtui: --db {db}: no such file")
    assert not db.parent.exists()


@pytest.mark.parametrize("make, says", [(corrupt, "is corrupt"), (not_sqlite, "is not an SQLite database")])
@pytest.mark.parametrize("fmt", ["md", "json"])
def test_bad_database_is_one_warning_and_the_packet_still_prints(tmp_path, capsys, project, make, says, fmt):
    db = make(tmp_path)
    before = fingerprint(db) if db.exists() else None
    _, plain, _ = pack(capsys, project, fmt=fmt, budget=4000)
    code, out, err = pack(capsys, project, "--db", str(db), fmt=fmt, budget=4000)
    assert code == 0 and out == plain
    assert err.count("\n") == 1 and err.startswith(f"ctxtui: warning: {db}: ") and says in err
    assert "Traceback" not in err
    if before is not None:
        assert fingerprint(db) == before


def test_locked_database_is_one_warning_and_the_packet_still_prints(tmp_path, capsys, project, writer):
    db = stores.build("cortex", tmp_path / "cortex.db", NOW)  # rollback journal: an exclusive lock shuts readers out
    _, plain, _ = pack(capsys, project, fmt="md")
    writer(db)("exclusive")
    code, out, err = pack(capsys, project, "--db", str(db), fmt="md")
    assert code == 0 and out == plain
    assert err.startswith(f"ctxtui: warning: {db}: is locked") and err.count("\n") == 1


def test_explain_still_works_on_markdown_with_a_bad_database(tmp_path, capsys, project):
    db = not_sqlite(tmp_path)
    code = main(["explain", str(project), "Use Textual", "--db", str(db), "--now", NOW_ARG])
    captured = capsys.readouterr()
    assert code == 0 and ".context/DECISIONS.md:" in captured.out and str(db) in captured.err


# ---------------------------------------------------------------- the writing commands


def test_memory_init_and_add_write_only_the_named_file(tmp_path, capsys, project):
    db = tmp_path / "stores" / "mine.db"
    db.parent.mkdir()
    (db.parent / "neighbour.db").write_bytes(b"leave me alone")
    before = tree(tmp_path, skip=db)
    assert main(["memory", "init", "--db", str(db)]) == 0
    assert capsys.readouterr().out == f"created {db}\n"
    assert (
        main(
            [
                "memory",
                "add",
                "--db",
                str(db),
                "--kind",
                "decision",
                "--title",
                "Pin the SQLite version",
                "--body",
                "3.45 or later.",
                "--importance",
                "0.8",
                "--tags",
                "db, sqlite",
                "--project",
                "ctxtui",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith("added m-")
    assert tree(tmp_path, skip=db) == before
    assert {p.name for p in db.parent.iterdir()} == {"mine.db", "neighbour.db"}  # no -wal/-shm left behind
    (record,) = load_memories(db).records
    assert (record.kind, record.title, record.body, record.importance, record.tags, record.project) == (
        "decision",
        "Pin the SQLite version",
        "3.45 or later.",
        0.8,
        ("db", "sqlite"),
        "ctxtui",
    )
    code, out, _ = pack(capsys, project, "--db", str(db))
    assert code == 0 and any("Pin the SQLite version" in block for block in json.loads(out)["decisions"])


def test_memory_add_defaults_to_the_project_database(tmp_path, capsys, project, monkeypatch):
    monkeypatch.chdir(project)
    before = tree(project)
    assert main(["memory", "add", "--title", "Default location"]) == 0
    capsys.readouterr()
    db = project / ".context" / "memory.db"
    assert [r.title for r in load_memories(db).records] == ["Default location"]
    assert tree(project, skip=db) == before


def test_memory_init_refuses_someone_elses_file(tmp_path, capsys):
    shabka = stores.build("shabka", tmp_path / "shabka.db", NOW)
    before = fingerprint(shabka)
    assert main(["memory", "init", "--db", str(shabka)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(shabka) in err and "not written" in err
    assert fingerprint(shabka) == before


@pytest.mark.parametrize("build, origin", [(build_shabka_db, "shabka"), (build_cortex_db, "cortex")])
def test_memory_import_end_to_end(tmp_path, capsys, project, build, origin):
    source = build(tmp_path / f"{origin}.db", 60, seed=5, now=NOW)
    target = tmp_path / "memory.db"
    source_before, others = fingerprint(source), tree(tmp_path, skip=target)
    assert main(["memory", "import", str(source), "--db", str(target)]) == 0
    assert capsys.readouterr().out == f"created {target}; imported 60 memories from {source} into {target}\n"
    assert fingerprint(source) == source_before and tree(tmp_path, skip=target) == others
    imported = load_memories(target).records
    assert len(imported) == 60 and {r.imported_from.split(":")[0] for r in imported} == {origin}

    code, out, err = pack(capsys, project, "--db", str(target))
    assert (code, err) == (0, "")
    originals = load_memories(source).records
    # The same memories are shown from either file, only the provenance differs.
    code, direct, _ = pack(capsys, project, "--db", str(source))
    assert json.loads(out) == json.loads(direct)
    some = next(r for r in originals if r.status == "active")
    assert (
        main(
            [
                "explain",
                str(project),
                f"memory.db:{origin}-{some.id}",
                "--db",
                str(target),
                "--now",
                NOW_ARG,
                "--format",
                "json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["title"] == some.title
    # Importing again changes nothing that matters.
    assert main(["memory", "import", str(source), "--db", str(target)]) == 0
    capsys.readouterr()
    assert len(load_memories(target).records) == 60


def test_memory_import_of_a_bad_file_is_a_usage_error(tmp_path, capsys):
    target = tmp_path / "memory.db"
    assert main(["memory", "import", str(not_sqlite(tmp_path)), "--db", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "notes.db" in err and not os.path.exists(target)

"""`ctxtui pack|explain|sweep --packer cortex`: the options of `drift memory why`, its outputs and exit codes."""

from __future__ import annotations

import json
import re

import pytest
from ctxtui.cli import main
from ctxtui.engine.packers.registry import PACKER_TITLES

from tests.factories.memory_dbs import build_native_db
from tests.packers.cortex.conftest import CASES

PINNED = {"CORTEX_NOW": "2025-06-01T00:00:00.000Z", "CORTEX_RETRIEVAL_TIME": "3"}


@pytest.fixture
def basic(v1_db, monkeypatch):
    for name, value in PINNED.items():
        monkeypatch.setenv(name, value)
    for name in ("CORTEX_TZ", "CORTEX_EMBED"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TZ", "UTC")
    return v1_db("basic")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def expected(name: str) -> str:
    return (CASES / "out" / f"{name}.stdout").read_text(encoding="utf-8")


def test_pack_prints_the_cli_text_and_json(basic, capsys):
    common = ("pack", "--packer", "cortex", "--db", str(basic), "--query", "auth")
    assert run(capsys, *common) == (0, expected("basic-text-default"), "")
    assert run(capsys, *common, "--format", "json") == (0, expected("basic-json-default"), "")


def test_intent_and_budget_map_to_the_cli_options(basic, capsys):
    code, out, _ = run(
        capsys,
        "pack",
        "--packer",
        "cortex",
        "--db",
        str(basic),
        "--query",
        "login fail",
        "--intent",
        "fix_bug",
        "--budget",
        "50",
        "--format",
        "json",
    )
    assert (code, out) == (0, expected("basic-json-fixbug-50"))
    _, out, _ = run(capsys, "pack", "--packer", "cortex", "--db", str(basic), "--query", "auth", "--budget", "0")
    assert out == expected("basic-text-max0")  # --max-tokens 0: fits 2000, prints /0
    _, out, _ = run(
        capsys, "pack", "--packer", "cortex", "--db", str(basic), "--query", "auth", "--intent", "", "--format", "json"
    )
    assert out == expected("basic-json-empty-intent")


def test_now_flag_wins_over_the_environment(basic, capsys):
    _, out, _ = run(
        capsys,
        "pack",
        "--packer",
        "cortex",
        "--db",
        str(basic),
        "--query",
        "auth",
        "--format",
        "json",
        "--now",
        "2026-01-01T00:00:00Z",
    )
    assert out == expected("basic-json-later-now")


def test_retrieval_time_is_measured_when_not_pinned(basic, capsys, monkeypatch):
    monkeypatch.delenv("CORTEX_RETRIEVAL_TIME")
    _, out, _ = run(capsys, "pack", "--packer", "cortex", "--db", str(basic), "--query", "auth", "--format", "json")
    data = json.loads(out)
    assert isinstance(data["retrievalTime"], int) and 0 <= data["retrievalTime"] < 5000
    measured = f'"retrievalTime": {data["retrievalTime"]}'
    assert out == expected("basic-json-default").replace('"retrievalTime": 3', measured)


def test_no_database_is_the_not_initialized_message(tmp_path, capsys):
    """drift's "Memory system not initialized" for a store that vanished once opened; a --db that is not
    there at all is ctxtui's usage error (a typo far more often than a store to come)."""
    from ctxtui.opening.packer import open_named
    from ctxtui.opening.request import PackRequest

    missing = tmp_path / "nowhere" / "cortex.db"
    for fmt, name in (("md", "nodb-text"), ("json", "nodb-json")):
        opened = open_named("cortex", PackRequest(packer="cortex", project=".", db=str(missing), query="auth"))
        assert opened.packer.plan(opened.budget).render(fmt) == expected(name)
    code, out, err = run(capsys, "pack", "--packer", "cortex", "--db", str(missing), "--query", "auth")
    assert (code, out) == (2, "") and err.startswith(f"ctxtui: --db {missing}: no such file")
    assert not missing.parent.exists()


def test_files_the_cli_cannot_open_print_its_error_with_status_0(tmp_path, capsys):
    junk = tmp_path / "junk.db"
    junk.write_text("hello world, not sqlite\n")
    assert run(capsys, "pack", "--packer", "cortex", "--db", str(junk), "--query", "x", "--format", "json")[:2] == (
        0,
        '{"error":"Error: Failed to initialize Cortex: SqliteError: file is not a database"}\n',
    )
    native = build_native_db(tmp_path / "memory.db", 5, seed=1, now=__import__("datetime").datetime(2025, 6, 1))
    code, out, _ = run(capsys, "pack", "--packer", "cortex", "--db", str(native), "--query", "x")
    assert code == 0 and out == "Error: Error: Failed to initialize Cortex: SqliteError: no such column: type\n"
    empty = tmp_path / "empty.db"
    empty.touch()
    _, out, _ = run(capsys, "pack", "--packer", "cortex", "--db", str(empty), "--query", "x")
    assert "No relevant memories found." in out and "Tokens: 0/2000" in out


def test_embedding_environment(basic, capsys, monkeypatch):
    monkeypatch.setenv("CORTEX_EMBED", "absent")
    _, out, _ = run(capsys, "pack", "--packer", "cortex", "--db", str(basic), "--query", "auth", "--format", "json")
    assert out == expected("basic-json-model-absent")
    monkeypatch.setenv("CORTEX_EMBED", "embed-throws")
    _, out, _ = run(capsys, "pack", "--packer", "cortex", "--db", str(basic), "--query", "auth", "--format", "json")
    assert out == expected("basic-json-embed-throws")


def test_missing_query_is_a_usage_error(basic, capsys):
    code, out, err = run(capsys, "pack", "--packer", "cortex", "--db", str(basic))
    assert (code, out) == (2, "") and "--query" in err


def test_explain_says_vector_less_path_and_shows_every_factor(basic, capsys):
    code, out, _ = run(
        capsys,
        "explain",
        "--packer",
        "cortex",
        "--db",
        str(basic),
        "--query",
        "auth",
        "--budget",
        "60",
        "--format",
        "json",
        "cortex:b-tribal-1",
    )
    data = json.loads(out)
    assert code == 0 and "vector-less path" in data["explanation"]
    for factor in (
        "confidence",
        "importance",
        "recency",
        "access",
        "topic",
        "intent_weight",
        "diversity",
        "score",
        "rank",
    ):
        assert factor in data["numbers"], factor
    assert data["fate"] in ("included", "summarized")
    code, out, _ = run(
        capsys, "explain", "--packer", "cortex", "--db", str(basic), "--query", "auth", "cortex:b-arch-1"
    )
    assert code == 0 and "archived" in out


def test_sweep_walks_the_budgets(basic, capsys):
    code, out, _ = run(
        capsys,
        "sweep",
        "--packer",
        "cortex",
        "--db",
        str(basic),
        "--query",
        "auth",
        "--from",
        "50",
        "--to",
        "250",
        "--step",
        "100",
        "--format",
        "json",
    )
    rows = json.loads(out)
    assert code == 0 and [row["budget"] for row in rows] == [50, 150, 250]


def test_title_labels_the_vector_less_path():
    assert "vector-less path" in PACKER_TITLES["cortex"]
    from ctxtui.engine.packers.cortex import CortexPacker

    assert "vector-less path" in CortexPacker.title and re.search("TypeScript", CortexPacker.title)


def test_the_packer_and_its_cli_load_neither_textual_nor_rich():
    import subprocess
    import sys

    from tests.conftest import ROOT

    code = (
        "import sys; import ctxtui.engine.packers.cortex, ctxtui.opening.cortex, ctxtui.engine.text.js, "
        "ctxtui.engine.sources.memory.cortex.v1_store, ctxtui.engine.sources.memory.cortex.v2_reader; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0

"""Hostile numbers, nesting and dates give one clear message (naming the file, and the row), never a traceback.

Found by the attack run: a 5,000-digit `CTX_TOKEN_BUDGET` hit Python's
4,300-digit int() limit; steering front matter nested a few hundred levels
deep dropped all steering where ctx reads up to 10,000 levels; one database
row holding `[[[[…]]]]` (Cortex `content`, any store's `tags`, a Shabka
`source`) raised RecursionError out of the whole load. Where the tool has a
rule for the input (Go's strconv, yaml.v3's depth limit, serde_json's
recursion limit, V8's stack), ctxtui follows it: each expected value here was
measured with the real binary.
"""

from __future__ import annotations

import sqlite3

import pytest
from ctxtui.cli import main
from ctxtui.engine.sources.ctxrc import parse_ctxrc
from ctxtui.engine.text.go_strconv import GoNumError, atoi, parse_int

from tests.app.helpers import make_app, settle, small_workspace
from tests.conftest import NOW, write_context
from tests.factories.memory_dbs import build_cortex_db, build_native_db, build_shabka_db
from tests.factories.shabka_dbs import memory, write_store

DIGITS = "9" * 5000
TASKS = "# Tasks\n\n- [ ] Keep me\n"
STEERING = "---\nname: a\ninclusion: always\n---\nBe kind.\n"


def steering(extra: str) -> str:
    return f"---\nname: deep\ninclusion: always\n{extra}\n---\nDeep body.\n"


def nested(depth: int) -> str:
    return "x: " + "[" * depth + "]" * depth


@pytest.fixture
def project(tmp_path):
    return write_context(
        tmp_path / "p", {"TASKS.md": TASKS, "DECISIONS.md": "# Decisions\n", "steering/a.md": STEERING}
    )


def pack(capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(["pack", *args, "--now", NOW.isoformat()])
    except SystemExit as exc:  # the peers' packers exit as their tools do
        code = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


# ---------------------------------------------------------------- huge numbers


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9" * 18, 10**18 - 1),  # Go's fast path
        ("-" + "9" * 18, -(10**18 - 1)),
        ("9223372036854775807", 2**63 - 1),
        ("9223372036854775808", "value out of range"),
        (DIGITS, "value out of range"),
        ("-" + DIGITS, "value out of range"),
        ("99999999999999999999x", "value out of range"),  # the overflow is reported before the "x" is reached
        ("1" * 18 + "x", "invalid syntax"),
        ("+", "invalid syntax"),
    ],
    ids=lambda v: v if isinstance(v, str) and len(v) < 30 else f"{str(v)[:6]}…{len(str(v))}",
)
def test_atoi_follows_go_for_any_length(text, expected):
    if isinstance(expected, int):
        assert atoi(text) == expected
    else:
        with pytest.raises(GoNumError) as caught:
            atoi(text)
        assert caught.value.reason == expected and str(caught.value).startswith("strconv.Atoi: ")


def test_parse_int_stops_at_the_first_overflowing_digit():
    for text in (DIGITS, "0x" + "f" * 5000, "99999999999999999999_", "99999999999999999999x"):
        with pytest.raises(GoNumError) as caught:
            parse_int(text)
        assert caught.value.reason == "value out of range", text


@pytest.mark.parametrize("value", [DIGITS, "-" + DIGITS, "1e309"], ids=["5000-digits", "minus-5000-digits", "1e309"])
def test_token_budget_environment_variable(project, capsys, monkeypatch, value):
    """ctx ignores a CTX_TOKEN_BUDGET Atoi rejects: the packet is the default-budget one."""
    _, default, _ = pack(capsys, str(project))
    monkeypatch.setenv("CTX_TOKEN_BUDGET", value)
    code, out, err = pack(capsys, str(project))
    assert code == 0 and out == default
    assert "CTX_TOKEN_BUDGET" in err and "ignored" in err and len(err) < 1000


def test_budget_flag_of_5000_digits_is_ctxs_own_error(project, capsys):
    code, out, err = pack(capsys, str(project), "--budget", DIGITS)
    assert code == 1 and "strconv.ParseInt" in err and err.rstrip().endswith("value out of range")
    code, _, err = pack(capsys, str(project), "--budget", "99999999999999999999x")
    assert code == 1 and err.rstrip().endswith('parsing "99999999999999999999x": value out of range')


@pytest.mark.parametrize(
    "value",
    [DIGITS, "-" + DIGITS, "1e309", "-1e309", f"!!float {DIGITS}"],
    ids=["5000-digits", "minus-5000-digits", "1e309", "minus-1e309", "float-tag"],
)
def test_huge_numbers_in_ctxrc_and_steering_priority(project, capsys, value):
    _, default, _ = pack(capsys, str(project))
    (project / ".ctxrc").write_text(f"token_budget: {value}\n")
    code, out, err = pack(capsys, str(project))
    assert code == 0 and out == default and ".ctxrc" in err
    (project / ".ctxrc").unlink()
    (project / ".context" / "steering" / "b.md").write_text(steering(f"priority: {value}"))
    code, out, err = pack(capsys, str(project))
    assert code == 0 and "Be kind." not in out  # ctx rejects the priority, and with it all steering
    assert "steering/b.md" in err


# ---------------------------------------------------------------- deep nesting


@pytest.mark.parametrize(("depth", "read"), [(900, True), (5000, True), (10_000, True), (10_001, False)])
def test_steering_front_matter_is_read_to_yaml_v3s_depth(project, capsys, depth, read):
    (project / ".context" / "steering" / "n.md").write_text(steering(nested(depth)))
    code, out, err = pack(capsys, str(project))
    assert code == 0 and "- [ ] Keep me" in out
    assert ("Deep body." in out and "Be kind." in out) is read
    if not read:
        assert "steering/n.md" in err and "exceeded max depth of 10000" in err


def test_ctxrc_is_read_to_yaml_v3s_depth():
    assert parse_ctxrc(f"token_budget: 300\n{nested(10_000)}\n").token_budget == 300
    deep = parse_ctxrc(f"token_budget: 300\n{nested(10_001)}\n")
    assert deep.token_budget is None and "exceeded max depth of 10000" in str(deep.problems[0])
    blocks = "token_budget: 300\nx:\n" + "".join(" " * (i + 1) + "k:\n" for i in range(3000))
    assert parse_ctxrc(blocks).token_budget == 300


def test_now_outside_python_dates(project, capsys):
    code = main(["pack", str(project), "--now", "0001-01-01T00:00:00+14:00"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "--now" in err and "outside the range" in err


# ---------------------------------------------------------------- one deep row among good ones


def _deepen(db, column: str, value: str) -> str:
    """Put `value` into `column` of one row; its id."""
    with sqlite3.connect(db) as conn:
        row_id = conn.execute("SELECT id FROM memories ORDER BY id LIMIT 1 OFFSET 3").fetchone()[0]
        conn.execute(f"UPDATE memories SET {column} = ? WHERE id = ?", (value, row_id))
    return row_id


DEEP_ARRAY = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"topic": "deep", "x": ' + '{"a": ' * 100_000 + "1" + "}" * 100_001


@pytest.mark.parametrize(
    ("build", "column", "value"),
    [
        (build_native_db, "tags", DEEP_ARRAY),
        (build_shabka_db, "tags", DEEP_ARRAY),
        (build_cortex_db, "tags", DEEP_ARRAY),
        (build_cortex_db, "content", DEEP_OBJECT),
    ],
    ids=["native-tags", "shabka-tags", "cortex-tags", "cortex-content"],
)
def test_one_deep_json_row_is_named_and_the_rest_loads(project, tmp_path, capsys, build, column, value):
    db = build(tmp_path / "store.db", 20, seed=3, now=NOW)
    row_id = _deepen(db, column, value)
    code, out, err = pack(capsys, str(project), "--db", str(db))
    assert code == 0 and "- [ ] Keep me" in out
    problem = next(line for line in err.splitlines() if row_id in line)
    assert str(db) in problem and "nested more than 200 levels deep" in problem and len(problem) < 300
    assert out.count("\n## [") >= 10  # the other memories joined the packet


def _shabka_store(path, **column_sql):
    memories = [memory(i, f"sqlite storage note {i}", f"content {i} about sqlite storage") for i in range(1, 6)]
    sql = [f"UPDATE memories SET {col} = '{text}' WHERE id = '{memories[2]['id']}'" for col, text in column_sql.items()]
    return write_store(path, memories, sql=sql)


@pytest.mark.parametrize(("arrays", "fails"), [(126, False), (127, True), (100_000, True)])
def test_shabka_fails_where_serde_json_stops(tmp_path, capsys, arrays, fails):
    """serde_json's recursion limit: a `source` 128 levels deep fails the row, and so Shabka's whole command."""
    db = _shabka_store(tmp_path / "s.db", source='{"type":"manual","x":' + "[" * arrays + "]" * arrays + "}")
    code, _, err = pack(capsys, "--packer", "shabka", "--query", "sqlite storage", "--db", str(db))
    assert code == (1 if fails else 0)
    if fails:
        assert "could not read column source" in err and "recursion limit exceeded" in err


def test_shabka_deep_tags_fail_as_in_shabka(tmp_path, capsys):
    db = _shabka_store(tmp_path / "s.db", tags=DEEP_ARRAY)
    code, _, err = pack(capsys, "--packer", "shabka", "--query", "sqlite storage", "--db", str(db))
    assert code == 1 and "could not read column tags" in err and len(err) < 1000


def test_cortex_deep_content_is_v8s_range_error(tmp_path, capsys):
    db = build_cortex_db(tmp_path / "c.db", 20, seed=3, now=NOW)
    _deepen(db, "content", '{"topic": "parser deep", "x": ' + '{"a": ' * 20_000 + "1" + "}" * 20_001)
    code, out, _ = pack(capsys, "--packer", "cortex", "--query", "parser", "--db", str(db))
    assert code == 0 and out == "Error: RangeError: Maximum call stack size exceeded\n"


# ---------------------------------------------------------------- the TUI keeps the rest


@pytest.mark.asyncio
async def test_tui_loads_everything_else_and_lists_each_problem(tmp_path, monkeypatch):
    monkeypatch.setenv("CTX_TOKEN_BUDGET", DIGITS)
    project = small_workspace(
        tmp_path / "proj",
        **{
            "steering__a.md": STEERING,
            "steering__deep.md": steering(nested(10_001)),
            "steering__prio.md": steering(f"priority: {DIGITS}"),
        },
    )
    (project / ".ctxrc").write_text(f"token_budget: {DIGITS}\n")
    db = tmp_path / "memory.db"
    build_native_db(db, 20, seed=3, now=NOW)
    row_id = _deepen(db, "tags", DEEP_ARRAY)
    app = make_app(project, budget=None, real_tokens=False)
    app.session.db = db
    async with app.run_test(size=(160, 45)) as pilot:
        await settle(pilot)
        assert app.main.view is not None, "the load failed"
        keys = [o.entry.key for o in app.main.view.plan.outcomes]
        assert any(k.startswith("memory:") for k in keys) and any(k.startswith("tasks:") for k in keys)
        banner = "\n".join(app.query_one("#banner").problems)
        for needle in ("CTX_TOKEN_BUDGET", ".ctxrc", "steering/deep.md", "steering/prio.md", row_id):
            assert needle in banner, needle
        assert app.session.budget == 8000
        assert not [n for n in app._notifications if "failed" in str(n.message)]


# ---------------------------------------------------------------- nous: psycopg parses jsonb while fetching


def test_nous_deep_jsonb_cells_leave_the_rest_of_the_row(nous_db):
    from ctxtui.engine.sources.memory.nous.source import list_turns, load_nous_memories, read_turn

    from tests.factories import nous_db as F

    with nous_db.connect() as conn:
        fact = F.add_fact(conn, 1, "User prefers metric units", subject="units")
        episode = F.add_episode(conn, 2, "We shipped the parser")
        F.add_call(conn, "c1", turn=1, at=F.T0, tokens={"identity": 120})
        F.add_retrieval(conn, "r1", turn=1, at=F.T0, candidates=[F.candidate(fact, "fact", final_rank=1)])
        conn.execute(
            "UPDATE nous_system.retrieval_log SET legs = %s::jsonb WHERE id = 'r1'", ("[" * 5000 + "]" * 5000,)
        )
        deep_object = '{"a":' * 5000 + "1" + "}" * 5000
        conn.execute("UPDATE nous_system.context_log SET token_breakdown = %s::jsonb WHERE id = 'c1'", (deep_object,))
        conn.execute("UPDATE heart.episodes SET structured_summary = %s::jsonb WHERE id = %s", (deep_object, episode))
    _, turns = list_turns(nous_db.url)
    assert [t.key for t in turns] == ["r1"] and turns[0].tokens == {}
    turn, _ = read_turn(nous_db.url, "r1")
    assert turn.retrieval.legs == () and [c.id for c in turn.retrieval.candidates] == [fact]
    load = load_nous_memories(nous_db.url)
    assert len(load.records) == 2 and "We shipped the parser" in {r.title or r.body for r in load.records}

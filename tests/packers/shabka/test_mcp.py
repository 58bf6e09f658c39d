"""`--packer shabka-mcp`: what Shabka's MCP tool `get_context` answers (`crates/shabka-mcp/src/server.rs`, 1a194cdf).

Two kinds of test:

- the recorded `context-pack` runs (`expected/`, Shabka's own output for 106
  stores) carried over to the tool: `get_context` runs the same pipeline and
  the same `format_context_pack`, so for a call whose arguments mean what the
  command line meant (a lowercase kind, tags without commas) its text is the
  CLI's stdout without the newline `println!` adds, and an empty pack is the
  tool's success text (`server.rs:1629-1633`);
- hand-worked cases for each edge where the tool differs from the CLI,
  each citing the line of `server.rs` (or rmcp/serde) it follows.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from ctxtui.engine.packers.shabka.dates import parse_rfc3339
from ctxtui.engine.packers.shabka.knobs import ShabkaSettings, split_tags
from ctxtui.engine.packers.shabka.mcp import NO_MEMORIES, ShabkaMcpPacker
from ctxtui.engine.packers.shabka.mcp_args import McpArgsInvalid, McpToolError, parse_args_json, tool_arguments
from ctxtui.engine.packers.shabka.memory import KINDS
from ctxtui.engine.packers.shabka.rust_text import debug_str, f64_text
from ctxtui.engine.sources.memory.shabka.store import read_shabka_store

from tests.factories.shabka_dbs import memory as mem
from tests.factories.shabka_dbs import write_spec
from tests.packers.shabka.harness import parse_args
from tests.packers.shabka.make_expected import EXPECTED, store_of

FILES = sorted(EXPECTED.glob("*.json"))
NOW = "2025-06-01T12:00:00Z"


def mcp_packer(db: Path, args: str | None, user: str = "alice", now: str = NOW) -> tuple[ShabkaMcpPacker, int]:
    call = parse_args_json(args or "null")
    settings = ShabkaSettings(
        now=parse_rfc3339(now), query=call.query, project=call.project_id, kind=call.kind, user=user
    )
    return ShabkaMcpPacker(read_shabka_store(db), settings, tags_text=call.tags), call.token_budget


def answer(db: Path, args: str | None, user: str = "alice", now: str = NOW) -> str:
    packer, budget = mcp_packer(db, args, user, now)
    plan = packer.plan(budget)
    err, code = packer.stderr(plan)
    assert code == 0, err
    return plan.render("md")


def call_of(cli_args: list[str]) -> str | None:
    """The get_context arguments meaning what a context-pack command line meant; None where none does."""
    command = parse_args(cli_args)
    if command.json or any("," in t or t != t.strip() or not t for t in command.tags):
        return None
    if command.kind is not None and command.kind not in KINDS:
        return None  # the CLI lowercases or fails; the tool compares as given
    call: dict[str, object] = {"query": command.query, "token_budget": command.tokens}
    if command.project is not None:
        call["project_id"] = command.project
    if command.kind is not None:
        call["kind"] = command.kind
    if command.tags:
        call["tags"] = ",".join(command.tags)
    return json.dumps(call)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_the_tool_answers_what_context_pack_printed(path: Path, tmp_path: Path):
    record = json.loads(path.read_text())
    spec, _ = store_of(record["store"])
    db = write_spec(tmp_path / "shabka.db", spec)
    compared = 0
    for run in record["runs"]:
        call = call_of(run["args"])
        if call is None or run["exit"] != 0:
            continue
        expected = run["stdout"][:-1] if run["stdout"] else NO_MEMORIES  # println! adds the newline
        assert answer(db, call, run["user"], run["now"]) == expected, f"{path.stem} {call}"
        compared += 1
    assert compared or all(call_of(r["args"]) is None or r["exit"] != 0 for r in record["runs"])


# ---------------------------------------------------------------- the arguments (rmcp + serde)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        # serde's usize: a negative integer is an invalid value, anything else not a u64 an invalid type
        ('{"token_budget": -1}', "invalid value: integer `-1`, expected usize"),
        ('{"token_budget": 2000.0}', "invalid type: floating point `2000.0`, expected usize"),
        ('{"token_budget": 1e3}', "invalid type: floating point `1000.0`, expected usize"),
        ('{"token_budget": -0}', "invalid type: floating point `-0.0`, expected usize"),  # serde_json de.rs:519
        (
            '{"token_budget": 18446744073709551616}',
            "invalid type: floating point `1.8446744073709552e+19`, expected usize",
        ),
        ('{"token_budget": "2000"}', 'invalid type: string "2000", expected usize'),
        ('{"token_budget": null}', "invalid type: null, expected usize"),
        ('{"token_budget": true}', "invalid type: boolean `true`, expected usize"),
        ('{"token_budget": [1]}', "invalid type: sequence, expected usize"),
        ('{"query": null}', "invalid type: null, expected a string"),  # String, not Option: null is wrong
        ('{"query": 5}', "invalid type: integer `5`, expected a string"),
        ('{"query": {}}', "invalid type: map, expected a string"),
        ('{"tags": ["a", "b"]}', "invalid type: sequence, expected a string"),  # one string, not a list
        ('{"kind": 1.5e-7}', "invalid type: floating point `1.5e-7`, expected a string"),  # zmij's spelling
        # BTreeMap order: "query" sorts before "token_budget", so its error is the one named
        ('{"token_budget": "x", "query": 5}', "invalid type: integer `5`, expected a string"),
        # Rust's {:?} of the unexpected string
        ('{"token_budget": "a\\"b\\n\\u200b"}', 'invalid type: string "a\\"b\\n\\u{200b}", expected usize'),
    ],
)
def test_rejected_arguments_get_rmcps_error_object(args: str, message: str):
    with pytest.raises(McpToolError) as caught:
        parse_args_json(args)
    error = caught.value
    assert error.code == -32602  # ErrorData::invalid_params (rmcp handler/server/tool.rs:172-177)
    assert error.message == "failed to deserialize parameters: " + message
    assert json.loads(error.to_json()) == {"code": -32602, "message": error.message}  # data: None is skipped


def test_defaults_null_and_unknown_keys():
    assert parse_args_json("null") == parse_args_json("{}")  # arguments absent or null: an empty object
    call = parse_args_json('{"zzz": [1, {"x": null}], "project_id": null, "kind": null, "tags": null}')
    assert (call.query, call.token_budget, call.project_id, call.kind, call.tags) == ("*", 2000, None, None, None)
    assert parse_args_json('{"token_budget": 5, "token_budget": 7}').token_budget == 7  # the last of a repeated key
    assert parse_args_json('{"token_budget": 18446744073709551615}').token_budget == 2**64 - 1  # usize is 64-bit


@pytest.mark.parametrize("text", ["[1]", '"x"', "5", "true", "{", '{"q": "\\ud800"}', '{"n": 1e999}', "NaN"])
def test_text_no_client_can_send_is_not_a_tool_error(text: str):
    with pytest.raises(McpArgsInvalid):
        parse_args_json(text)


def test_flags_replace_keys_of_the_arguments_object():
    call = tool_arguments('{"query": "a", "token_budget": 10}', {"token_budget": "99", "tags": '"x, y"'})
    assert (call.query, call.token_budget, call.tags) == ("a", 99, "x, y")
    assert call.present == {"query", "token_budget", "tags"}


def test_rust_spellings():
    assert [f64_text(x) for x in (2000.0, 1e15, 1e16, 1e-5, 1e-6, 0.1, -0.0, 5e-324)] == [
        "2000.0",
        "1000000000000000.0",
        "1e+16",
        "0.00001",
        "1e-6",
        "0.1",
        "-0.0",
        "5e-324",
    ]
    assert f64_text(3.439070283483335e35) == "3.439070283483335e+35"  # zmij's own test (tests/test.rs:78)
    assert f64_text(9.061488e15) == "9061488000000000.0"  # tests/test.rs:92
    assert debug_str("tab\there 'q' \x7f é \u0301") == "\"tab\\there 'q' \\u{7f} é \\u{301}\""


# ---------------------------------------------------------------- where the tool differs from context-pack

MEMORIES = [
    mem(1, "Fact one", "The sky is blue.", kind="fact", tags=["a", "b"], project_id="p1"),
    mem(2, "Decision two", "We chose SQLite.", kind="decision", tags=["b"], project_id="p2"),
    mem(3, "Lesson three", "Pin the toolchain.", kind="lesson", tags=["c"]),
]


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return write_spec(tmp_path / "shabka.db", {"memories": MEMORIES, "relations": [], "sql": []})


def test_the_text_has_no_trailing_newline(store: Path):
    text = answer(store, '{"token_budget": 5000}')
    assert text.startswith("# Project Context: all (3 memories, ~")
    assert not text.endswith("\n")  # Content::text(format_context_pack(&pack)): trim_end, no println!


def test_kind_is_compared_as_given(store: Path):
    # server.rs:1583: memory.kind.to_string() != *kind; the CLI parses -k case-insensitively
    assert "## [fact] Fact one" in answer(store, '{"kind": "fact", "token_budget": 5000}')
    assert answer(store, '{"kind": "Fact", "token_budget": 5000}') == NO_MEMORIES
    assert answer(store, '{"kind": "no-such-kind"}') == NO_MEMORIES  # the CLI exits 1: unknown memory kind


def test_tags_are_one_comma_separated_string(store: Path):
    # server.rs:1567-1575: split(','), trim (Unicode White_Space), empty parts dropped
    assert split_tags(" a ,\u3000c\u2003,, ") == ("a", "c")
    assert split_tags("") == () and split_tags(None) == ()
    text = answer(store, '{"tags": " c , nope", "token_budget": 5000}')
    assert "Lesson three" in text and "Fact one" not in text
    assert answer(store, '{"tags": "", "token_budget": 5000}') == answer(store, '{"token_budget": 5000}')


def test_empty_pack_is_the_tools_success_text(store: Path):
    packer, _ = mcp_packer(store, '{"token_budget": 0}')
    plan = packer.plan(0)
    assert plan.render("md") == NO_MEMORIES
    assert packer.stderr(plan) == ("", 0)  # a success, not the CLI's dimmed stderr line


def test_filters_run_kind_project_tags(store: Path):
    # server.rs:1580-1596: kind, then project_id, then tags (the CLI: kind, tags, project)
    packer, budget = mcp_packer(store, '{"project_id": "p1", "tags": "zzz"}')
    outcomes = {o.entry.title: o for o in packer.plan(budget).outcomes}
    assert outcomes["Decision two"].reason.value == "project-filter"
    assert outcomes["Fact one"].reason.value == "tag-filter"


def test_outcomes_agree_with_the_text(store: Path):
    for budget in range(0, 200, 7):
        packer, _ = mcp_packer(store, None)
        plan = packer.plan(budget)
        text = plan.render("md")
        for outcome in plan.outcomes:
            shown = f"] {outcome.entry.title}\n" in text
            assert shown == (outcome.fate.value == "included"), (budget, outcome.entry.title)


def run_cli(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", "--packer", "shabka-mcp", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(cwd), "PYTHONPATH": str(Path(__file__).parents[3])},
    )


def test_command_line(store: Path, tmp_path: Path):
    by_json = run_cli(
        "--db", str(store), "--user", "alice", "--now", NOW, "--args-json", '{"kind": "fact"}', cwd=tmp_path
    )
    by_flags = run_cli("--db", str(store), "--user", "alice", "--now", NOW, "--kind", "fact", cwd=tmp_path)
    assert by_json.returncode == by_flags.returncode == 0, by_json.stderr + by_flags.stderr
    assert by_json.stdout == by_flags.stdout and by_json.stdout.startswith("# Project Context: all (1 memories")
    assert not by_json.stdout.endswith("\n")
    rejected = run_cli("--db", str(store), "--budget", "-1", cwd=tmp_path)
    assert rejected.returncode == 1 and rejected.stdout == ""
    assert json.loads(rejected.stderr) == {
        "code": -32602,
        "message": "failed to deserialize parameters: invalid value: integer `-1`, expected usize",
    }
    bad = run_cli("--db", str(store), "--args-json", "[1]", cwd=tmp_path)
    assert bad.returncode == 2 and "object or null" in bad.stderr
    tag = run_cli("--db", str(store), "--tag", "a", cwd=tmp_path)
    assert tag.returncode == 2 and "--tags" in tag.stderr


def test_the_reproduce_line_names_the_tools_flags(store: Path):
    from ctxtui.opening.command import pack_command
    from ctxtui.opening.request import PackRequest

    request = PackRequest(packer="shabka-mcp", db=str(store), args_json='{"query": "sky"}')
    line = pack_command(request, "shabka-mcp", 700, "md", knob_edits={"tag": "a,b", "kind": "fact"})
    assert line is not None
    assert "--tags a,b" in line and "--kind fact" in line and '--args-json \'{"query": "sky"}\'' in line
    assert "--budget 700" in line

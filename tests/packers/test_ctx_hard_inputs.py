"""ctx 0.8.1 (and 0.8.0) on hard inputs: each expectation read off the Go source, cited per test.

Citations: ActiveMemory/ctx at ce5a832 (0.8.1) and v0.8.0; its vendored
gopkg.in/yaml.v3 v3.0.1 and spf13/pflag; the Go toolchain the oracle was built
with (go1.27.3: `strconv`, `time`). The recorded cases in tests/packers/ctx_cases/
hold the real binaries' output for the same inputs (named in each docstring).
"""

from __future__ import annotations

import io
import math
import os
import sys
import zoneinfo
from datetime import UTC, datetime
from pathlib import Path

import pytest
from ctxtui.cli import main as cli_main
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.versions import V0_8_1
from ctxtui.engine.sources.ctx_gates import usage
from ctxtui.engine.sources.ctxrc import parse_ctxrc, resolve_budget
from ctxtui.engine.sources.steering import parse_steering_file
from ctxtui.engine.sources.workspace import load_workspace
from ctxtui.engine.text.go_strconv import GoNumError, atoi, i64, parse_int
from ctxtui.engine.text.go_time import local_midnight_unix, recency_days

from tests.conftest import NOW, write_context

MIN64, MAX64 = -(2**63), 2**63 - 1
TASKS = "# Tasks\n\n- [ ] Write the hook parser\n- [ ] Tune the scoring agent\n"
FILES = {
    "CONSTITUTION.md": "# Constitution\n\n- [ ] Never break the build\n",
    "TASKS.md": TASKS,
    "CONVENTIONS.md": "# Conventions\n\n- Tabs for indentation\n",
    "DECISIONS.md": "# Decisions\n\n## [2026-11-20-120000] Keep it simple\n\nSimple parser first.\n",
}


def project(tmp_path: Path, files=FILES, *, git: bool | str = True) -> Path:
    root = write_context(tmp_path / "p", files)
    if git is True:
        (root / ".git").mkdir()
    elif git == "file":
        (root / ".git").write_text("gitdir: x\n")
    return root


def pack(root: Path, monkeypatch, *args: str, env: dict[str, str] | None = None) -> tuple[str, str, int]:
    """`ctxtui pack .` run in `root` as ctx would be: its stdout, stderr and exit status."""
    for name in list(os.environ):
        if name.startswith(("CTX_", "CTXTUI_")):
            monkeypatch.delenv(name)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("TZ", "UTC")
    monkeypatch.setenv("PWD", str(root))
    monkeypatch.chdir(root)
    out, err = io.BytesIO(), io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape"))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="utf-8", errors="surrogateescape"))
    code = cli_main(["pack", ".", "--now", "2026-11-21T23:56:08Z", *args])
    sys.stdout.flush()
    sys.stderr.flush()
    return out.getvalue().decode(), err.getvalue().decode(), code


# --- refusals -------------------------------------------------------------------------------------------


def test_no_context_directory(tmp_path, monkeypatch):
    """bootstrap/cmd.go:87-96 → rc.RequireContextDir → rc/rc.go:121-125 (NoCtxHere); the first line is printed
    while the agent command is built (agent/cmd/root/cmd.go:110 reads the RC for --cooldown's default).
    Exit 1 (cmd/ctx/main.go:23-26). Recorded: refuse-no-context."""
    root = tmp_path / "p"
    root.mkdir()
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1")
    assert (out, code) == ("", 1)
    assert err == (
        "ctx: rc.RC: no .context/ at $PWD; defaults applied (investigate calling command if unexpected)\n"
        f"Error: no .context here: ctx: no .context/ at {root}\n"
        "Run `ctx init` here, or `cd` to a directory that has .context/.\n"
    )


def test_context_is_a_file(tmp_path, monkeypatch):
    """rc/rc.go:126-130 (NotADir). Recorded: refuse-context-is-file."""
    root = tmp_path / "p"
    root.mkdir()
    (root / ".context").write_text("x\n")
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1")
    message = f"context directory is not a directory: .context/ at {root}/.context is not a directory"
    assert (out, err, code) == ("", f"ctx: resolve context dir: {message}\nError: {message}\n", 1)


@pytest.mark.parametrize("missing", ["CONSTITUTION.md", "TASKS.md", "DECISIONS.md"])
def test_a_required_file_missing(tmp_path, monkeypatch, missing):
    """ctxContext.Initialized (bootstrap/cmd.go:100-103): os.Stat of config/ctx/required.go:13-17's three files.
    Recorded: refuse-no-constitution, refuse-no-tasks, refuse-no-decisions."""
    root = project(tmp_path, {k: v for k, v in FILES.items() if k != missing})
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1")
    assert (out, err, code) == ("", 'Error: ctx: not initialized - run "ctx init" first\n', 1)


def test_empty_required_files_and_a_git_file_pass(tmp_path, monkeypatch):
    """The gates only stat: an empty CONSTITUTION.md passes Initialized, a `.git` file passes RequireGitTree
    (gitmeta/require.go:37-43). Recorded: ok-required-files-empty, ok-git-is-a-file."""
    root = project(tmp_path, {**FILES, "CONSTITUTION.md": ""}, git="file")
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1")
    assert code == 0 and out.startswith("# Context Packet\n") and "CONSTITUTION.md" not in out


def test_no_git(tmp_path, monkeypatch):
    """bootstrap/cmd.go:109-121 → gitmeta/require.go:32-41 → MissingGitTreeForCmd("agent", cwd). 0.8.0 has no such
    gate (bootstrap/cmd.go:56-95 at v0.8.0). Recorded: refuse-no-git, v080-no-git-ok."""
    root = project(tmp_path, git=False)
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1")
    assert (out, code) == ("", 1)
    assert err == f"Error: git working tree required: ctx agent: .git/ not found at {root}; run `git init` to fix\n"
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.0")
    assert code == 0 and "1. .context/CONSTITUTION.md" in out


def test_symlinks_in_or_as_the_context_directory(tmp_path, monkeypatch):
    """load.Do → validate.Symlinks (context/load/loader.go:57; validate/path.go:24-53): `.context` itself, then
    its direct children in os.ReadDir order (sorted by name), any name, dangling or not; the error comes from
    RunE, so cobra prints usage on stdout. Deeper links are not checked. Recorded: refuse-context-symlink,
    refuse-symlinked-md, refuse-dangling-symlink, refuse-symlinked-non-md, ok-symlink-in-subdir."""
    root = project(tmp_path)
    (root / ".context" / "archive").mkdir()
    os.symlink("/nonexistent", root / ".context" / "archive" / "OLD.md")
    assert pack(root, monkeypatch, "--packer", "ctx-0.8.1")[2] == 0  # one level down: fine
    os.symlink("/nonexistent", root / ".context" / "zz.txt")
    os.symlink(root / ".context" / "TASKS.md", root / ".context" / "b.md")
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1")
    assert (out, code) == (usage("0.8.1"), 1) and len(out) == 735
    assert err == f'Error: context file "{root}/.context/b.md" is a symlink\n'
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.0")  # relative, and said twice (v0.8.0)
    message = 'context file ".context/b.md" is a symlink'
    assert (out, err, code) == (usage("0.8.0"), f"Error: {message}\nError:  {message}\n", 1)
    linked = project(tmp_path / "l")
    (linked / ".context").rename(linked / "real")
    os.symlink("real", linked / ".context")
    out, err, code = pack(linked, monkeypatch, "--packer", "ctx-0.8.1")
    assert (out, err, code) == (usage("0.8.1"), f'Error: context directory "{linked}/.context" is a symlink\n', 1)


def test_ignore_refusal_builds_the_packet_anyway(tmp_path, monkeypatch):
    root = project(tmp_path, git=False)
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1", "--ignore-refusal")
    assert (code, err) == (0, "") and out.startswith("# Context Packet\n")
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1", env={"CTXTUI_IGNORE_REFUSAL": "1"})
    assert code == 0 and out.startswith("# Context Packet\n")


# --- YAML as yaml.v3 reads it (YAML 1.2 resolver, Go targets), not PyYAML's YAML 1.1 ---------------------

# (.ctxrc line, token_budget) — yaml.v3 resolve.go:126-250 then decode.go:621-660 into an int:
# ParseInt(s without "_", 0, 64), else the float regex (resolve.go:124) truncated; strings and floats that do
# not fit (decode.go:645: resolved <= MaxInt64) are type errors, so the default stays.
TOKEN_BUDGET = [
    ("017", 15),  # base-0 ParseInt: octal (YAML 1.1 too)
    ("0o17", 15),  # YAML 1.2 octal (PyYAML: a string)
    ("0x10", 16),
    ("1_000", 1000),  # underscores dropped before ParseInt (resolve.go:191)
    ("08", 8),  # not an int, but the float regex matches: 8.0 → 8
    ("2.9", 2),
    ("1e3", 1000),
    ("-.inf", MIN64),  # -Inf ≤ MaxInt64, int64(-Inf) is 0x8000000000000000 on amd64
    ("1:30", None),  # YAML 1.1 sexagesimal 90; yaml.v3: a string (resolve.go:164-166 say so) → type error
    (".inf", None),  # +Inf > MaxInt64
    ("yes", None),  # YAML 1.1 true; yaml.v3 a string
    ("9223372036854775808", None),  # a uint64 above MaxInt64 (decode.go:639)
    ("~", None),  # null: the field is left alone
]


@pytest.mark.parametrize("text, expected", TOKEN_BUDGET)
def test_ctxrc_token_budget_spellings(text, expected):
    """Recorded: ctxrc-token-budget-*, ctxrc-017, ctxrc-0o17, ctxrc-1_000, ctxrc-sexagesimal, ctxrc-inf, ctxrc-yes."""
    config = parse_ctxrc(f"token_budget: {text}\n")
    assert config.token_budget == expected
    assert resolve_budget(None, {}, config)[0] == (8000 if expected is None else expected)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0.25", 0.25),
        ("1_0e-2", 0.1),
        ("0o1", 1.0),  # an int into *float64 (decode.go:699-716), then clamped (rc/clamp.go:19)
        ("010", 1.0),
        (".inf", 1.0),
        ("-.inf", 0.0),
        ("yes", 0.0),  # a string: type error, but the pointer was allocated first (decode.go:406-415) → 0
        ("'0.5'", 0.0),
        ("~", 0.40),  # null: the pointer stays nil → the default (rc/rc.go:690-692)
    ],
)
def test_ctxrc_percentage_spellings(text, expected):
    """Recorded: ctxrc-pct-*, ctxrc-pct-yes, ctxrc-pct-octal."""
    from ctxtui.engine.packers.ctx.knobs import CtxKnobs

    knobs = CtxKnobs.from_config(parse_ctxrc(f"task_budget_pct: {text}\n"))
    assert knobs.task_pct == expected


@pytest.mark.parametrize("text", ["yes", "on", "0x10", "1.50", "true", "~"])
def test_ctxrc_tool_is_the_source_text(text):
    """A string target takes the scalar's source text, whatever it resolves to (decode.go:611-617); null leaves
    it empty. Recorded: steer-ctxrc-tool-yes, ctxrc-tool-on."""
    assert parse_ctxrc(f"tool: {text}\n").tool == ("" if text == "~" else text)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("yes", True),
        ("on", True),
        ("Y", True),
        ("ON", True),
        ("'yes'", True),
        ("no", False),
        ("off", False),
        ("1", False),
    ],
)
def test_0_8_0_allow_outside_cwd_takes_yaml_1_1_booleans(text, expected):
    """Into a bool, yaml.v3 accepts YAML 1.1's y/yes/on and n/no/off (decode.go:678-695): it matches the
    resolved *string*, so a quoted 'yes' counts too; an int is a type error (false stays). The real 0.8.0
    agrees (quoted 'yes' lets /tmp past the boundary check). Recorded: v080-allow-outside-yes, -on, -quoted."""
    assert parse_ctxrc(f"allow_outside_cwd: {text}\n", "0.8.0").allow_outside_cwd is expected


STEERING = "---\nname: {name}\ninclusion: always\npriority: {priority}\n---\nBody.\n"


@pytest.mark.parametrize(
    "priority, expected",
    [
        ("0x1F", 31),
        ("1_0", 10),
        ("017", 15),
        ("0o17", 15),
        ("08", 8),
        ("49.9", 49),
        ("-.inf", MIN64),
        ("0", 50),  # 0 means unset: the default 50 (steering/frontmatter.go:18, config/steering/steering.go:32)
        ("~", 50),
    ],
)
def test_front_matter_priority_spellings(priority, expected):
    """steering/parse.go:48 yaml.Unmarshal into {Priority int}. Recorded: steer-priority-*."""
    assert parse_steering_file("a.md", "a.md", STEERING.format(name="a", priority=priority)).priority == expected


@pytest.mark.parametrize("priority", ["yes", "true", ".inf", "1:30", "'5'", "99999999999999999999"])
def test_front_matter_priority_errors_drop_all_steering(tmp_path, priority):
    """A type error is an error of the file, and any file's error makes LoadAll fail (steering/filter.go:43-50):
    core/steering/steering.go:38-41 then drops every steering file. Recorded: steer-priority-yes, -true, -inf,
    -quoted, -sexagesimal, -too-big."""
    with pytest.raises(ValueError):
        parse_steering_file("a.md", "a.md", STEERING.format(name="a", priority=priority))
    root = write_context(
        tmp_path,
        {
            **FILES,
            "steering/a.md": STEERING.format(name="a", priority=priority),
            "steering/b.md": STEERING.format(name="b", priority=1),
        },
    )
    packer = packer_for(load_workspace(root), now=NOW, version=V0_8_1, root_path="/p")
    assert "## Steering" not in packer.plan(8000).render("md")


@pytest.mark.parametrize("name", ["no", "off", "0x10", "1.50", "~"])
def test_front_matter_name_is_the_source_text(name):
    """`name: no` sorts as "no" (YAML 1.1 would make it false). Recorded: steer-name-no."""
    parsed = parse_steering_file("a.md", "a.md", STEERING.format(name=name, priority=5))
    assert parsed.name == ("" if name == "~" else name)


# --- budgets: pflag's ParseInt(s, 0, 64), CTX_TOKEN_BUDGET's Atoi, int64 arithmetic ------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("010", 8),
        ("0x200", 512),
        ("0o17", 15),
        ("0b101", 5),
        ("1_000", 1000),
        ("0_10", 8),
        ("0x_1F4", 500),
        ("-0x10", -16),
        ("+10", 10),
        ("9223372036854775807", MAX64),
        ("-9223372036854775808", MIN64),
    ],
)
def test_budget_flag_spellings(text, expected):
    """pflag int.go:13-14 (intValue.Set): strconv.ParseInt(s, 0, 64) — base prefixes, a leading 0 is octal,
    underscores only with a base prefix and between digits (internal/strconv/atoi.go, go1.27.3).
    Recorded: flag-budget-*."""
    assert parse_int(text, 0) == expected


@pytest.mark.parametrize(
    "text, error",
    [
        ("08", "invalid syntax"),
        (" 500", "invalid syntax"),
        ("500 ", "invalid syntax"),
        ("_1000", "invalid syntax"),
        ("1__000", "invalid syntax"),
        ("５００", "invalid syntax"),
        ("٣٠٠", "invalid syntax"),
        ("1e3", "invalid syntax"),
        ("9223372036854775808", "value out of range"),
        ("-9223372036854775809", "value out of range"),
    ],
)
def test_bad_budget_flags_fail_as_ctx_fails(tmp_path, monkeypatch, text, error):
    """A flag error is cobra's: usage on stdout, `Error: invalid argument "X" for "--budget" flag:
    strconv.ParseInt: parsing "X": <error>`, exit 1; 0.8.0 prints the error a second time (write/err/errors.go
    at v0.8.0). Recorded: flag-budget-bad-octal, -space, -fullwidth, -arabic-indic, -2p63, -below-min-int64."""
    with pytest.raises(GoNumError):
        parse_int(text, 0)
    root = project(tmp_path)
    message = f'invalid argument "{text}" for "--budget" flag: strconv.ParseInt: parsing "{text}": {error}'
    assert pack(root, monkeypatch, "--packer", "ctx-0.8.1", f"--budget={text}") == (
        usage("0.8.1"),
        f"Error: {message}\n",
        1,
    )
    assert pack(root, monkeypatch, "--packer", "ctx-0.8.0", f"--budget={text}") == (
        usage("0.8.0"),
        f"Error: {message}\nError:  {message}\n",
        1,
    )


@pytest.mark.parametrize(
    "text, used",
    [
        ("010", 10),  # Atoi is base 10
        ("+300", 300),
        (" 500", None),
        ("500 ", None),
        ("0x200", None),
        ("1_000", None),
        ("٣٠٠", None),
        ("0", None),  # parsed, but not > 0 (rc/load.go:86)
        ("-3", None),
        ("9223372036854775807", MAX64),
        ("9223372036854775808", None),
    ],
)
def test_ctx_token_budget_spellings(text, used):
    """rc/load.go:84-89: strconv.Atoi, applied only when it parses and is > 0; otherwise .ctxrc / 8000.
    Recorded: env-budget-*."""
    budget, source, _ = resolve_budget(None, {"CTX_TOKEN_BUDGET": text}, parse_ctxrc("token_budget: 700\n"))
    assert (budget, source) == ((used, "environment") if used is not None else (700, ".ctxrc"))
    if used is not None:
        assert atoi(text) == used


def test_min_int64_budget_wraps_tier_1_and_forces_the_first_items(tmp_path):
    """remaining := budget - tier1 (assemble.go:63) wraps to MaxInt64 - tier1 + 1 > 0; taskCap =
    min(int(float64(MinInt64) × 0.40), remaining) is negative, so FitItems forces the first task and the
    first convention (estimate.go:38-41); Split/FillSection then get a huge share whose ×80 wraps negative
    (budget.go:81): every decision is a title. Recorded: int64-min-budget."""
    root = write_context(tmp_path, FILES)
    packer = packer_for(load_workspace(root), now=NOW, version=V0_8_1, root_path="/tmp/ctx-case")
    assert i64(MIN64 - packer.tier1) == MAX64 - packer.tier1 + 1
    plan = packer.plan(MIN64)
    state = plan.state
    assert (state.task_count, state.task_forced, state.convention_count, state.convention_forced) == (1, True, 1, True)
    text = plan.render("md")
    assert "## Also Noted\n- Keep it simple\n" in text and "## Recent Decisions" not in text
    assert f"Budget: {MIN64} tokens" in text


def test_max_int64_budget_overflows_the_full_entry_limit(tmp_path):
    """With tasks and conventions all in, Split gives decisions the whole remaining (learnings empty,
    budget.go:48-49 — then FillSection's budget*80 wraps (budget.go:81) below zero: titles only.
    Recorded: int64-fill-overflow."""
    root = write_context(tmp_path, FILES)
    packer = packer_for(load_workspace(root), now=NOW, version=V0_8_1, root_path="/tmp/ctx-case")
    text = packer.plan(MAX64).render("md")
    assert "## Also Noted\n- Keep it simple\n" in text and "## Recent Decisions" not in text


# --- dates in a zone with DST: each date's own offset ----------------------------------------------------


def test_each_date_is_read_at_its_own_utc_offset():
    """score.go:36-42: time.ParseInLocation("2006-01-02", date, time.Local), days = int(now.Sub(d).Hours()/24).
    ParseInLocation builds the date with time.Date (time.go:1734-1767, go1.27.3): the offset is the one in
    force at that local midnight. Berlin, now 2026-04-05T22:30Z (00:30 CEST): 2026-03-29 was still CET (+1)
    at midnight → 7 days 23.5 h → 7 (week); at CEST's +2 it would be 8. Likewise 2026-03-06 → 30 and
    2026-01-05 → 90 (+1 both; +2 would give 31 and 91). Recorded: tz-berlin-dst-brackets, tz-dst-new-york."""
    berlin = zoneinfo.ZoneInfo("Europe/Berlin")
    now_ns = int(datetime(2026, 4, 5, 22, 30, tzinfo=UTC).timestamp()) * 10**9
    assert recency_days("2026-03-29", now_ns, berlin) == 7
    assert recency_days("2026-03-30", now_ns, berlin) == 7
    assert recency_days("2026-03-06", now_ns, berlin) == 30
    assert recency_days("2026-01-05", now_ns, berlin) == 90
    assert recency_days("2026-02-30", now_ns, berlin) is None  # does not parse: recency 0.2 (score.go:39-41)


def test_a_midnight_inside_a_dst_gap_takes_the_offset_after_it():
    """Havana springs from 00:00 to 01:00 on 2026-03-08. time.Date: lookup(W) gives CST (-5, valid until
    05:00Z); W + 5 h falls outside it, so the offset is looked up again at that instant: CDT (-4), and the
    "midnight" is 04:00Z — 23:00 CST the day before (time.go:1759-1767). Recorded: tz-gap-midnight-havana."""
    havana = zoneinfo.ZoneInfo("America/Havana")
    assert local_midnight_unix(2026, 3, 8, havana) == int(datetime(2026, 3, 8, 4, tzinfo=UTC).timestamp())
    assert local_midnight_unix(2026, 3, 9, havana) == int(datetime(2026, 3, 9, 4, tzinfo=UTC).timestamp())
    assert local_midnight_unix(2026, 3, 7, havana) == int(datetime(2026, 3, 7, 5, tzinfo=UTC).timestamp())


@pytest.mark.parametrize("zone", ["Europe/London", "Pacific/Kiritimati", "America/New_York"])
def test_dates_at_the_ends_of_the_calendar(zone):
    """ParseInLocation accepts years 0000-9999 (time/format.go); a midnight there in a zone with an offset lies
    outside Python's datetime range (this crashed ctxtui with OverflowError). now.Sub saturates at ±(2^63-1) ns
    (time.go Sub), so both ends give ±106751 days. Recorded: tz-ends-of-time-london, -kiritimati; found by
    tests/packers/ctx_cases/fuzz.py."""
    tz = zoneinfo.ZoneInfo(zone)
    now_ns = int(datetime(2027, 1, 1, tzinfo=UTC).timestamp()) * 10**9
    assert recency_days("0000-01-01", now_ns, tz) == recency_days("0001-01-01", now_ns, tz) == 106751
    assert recency_days("9999-12-31", now_ns, tz) == -106751


# --- big files and --format -------------------------------------------------------------------------------


def test_a_file_over_64_mib_is_read_whole(tmp_path):
    """ctx reads each context file with os.ReadFile (context/load/loader.go:83 → io/security.go:87-93): no size
    limit, and no bufio.Scanner on the agent path (so no 64 KiB line limit either). A 64 MiB + 1 LEARNINGS.md
    (sparse: a block, then zeros) is in the read order, and its one entry costs ceil(len/4) tokens.
    Recorded: big-file-over-64mib, fuzz-bigfile-01/02."""
    root = write_context(tmp_path, FILES)
    head = b"# Learnings\n\n## [2026-11-20-120000] Huge\n\nhook\n"
    with open(root / ".context" / "LEARNINGS.md", "wb") as fh:
        fh.write(head)
        fh.truncate(64 * 1024 * 1024 + 1)
    packer = packer_for(load_workspace(root), now=NOW, version=V0_8_1, root_path="/tmp/ctx-case")
    assert packer.read_order[-1] == "/tmp/ctx-case/.context/LEARNINGS.md"
    (learning,) = packer.parsed.learnings
    assert learning.tokens == math.ceil((64 * 1024 * 1024 + 1 - len(b"# Learnings\n\n")) / 4)
    assert "## Also Noted\n- Huge\n" in packer.plan(8000).render("md")


def test_a_task_line_longer_than_a_scanner_token(tmp_path):
    """A 100 KiB task line is one task: ctx splits file contents in memory, never with bufio.Scanner's
    64 KiB token limit."""
    root = write_context(tmp_path, {**FILES, "TASKS.md": "# Tasks\n\n- [ ] " + "word " * 20480 + "\n"})
    packer = packer_for(load_workspace(root), now=NOW, version=V0_8_1, root_path="/p")
    assert len(packer.tasks) == 1 and packer.tasks[0].tokens > 25000
    assert packer.plan(8000).state.task_count == 1  # over the 40% cap, but the first task is forced in


@pytest.mark.parametrize("fmt", ["JSON", "Json", "json ", "yaml", "markdown", ""])
def test_format_other_than_json_is_markdown(tmp_path, monkeypatch, fmt):
    """`if format == fmt.FormatJSON` (agent/cmd/root/run.go:70), else Markdown: any other value prints
    Markdown, exit 0. Recorded: format-*."""
    root = project(tmp_path)
    markdown = pack(root, monkeypatch, "--packer", "ctx-0.8.1", "--format=md")[0]
    out, err, code = pack(root, monkeypatch, "--packer", "ctx-0.8.1", f"--format={fmt}")
    assert (out, code) == (markdown, 0) and "ctx prints Markdown" in err


# Tabs, read as yaml.v3 reads them (libyaml's scanner): checked against ctx 0.8.1 and a yaml.v3 3.0.1 program.
# PyYAML ended a plain scalar at a tab and refused the tab: `description: a<TAB>b` made the whole front matter
# "invalid YAML", and ctx's rule for that dropped every steering file, where ctx included them.


@pytest.mark.parametrize(
    ("front", "expected"),
    [
        ("name: x\ndescription: a\tb\ninclusion: always\n", ("x", "a\tb", "always", None)),
        ("name: x \t\ninclusion:\talways\t# c\n", ("x", "", "always", None)),
        ("name: a\t:b\ntools: [claude,\tcursor]\n", ("a\t:b", "", "manual", ("claude", "cursor"))),
        ("name: x\ndescription: one\n  two\tthree\n", ("x", "one two\tthree", "manual", None)),
        ("name: x\ndescription: |\n  a\n  \tb\n", ("x", "a\n\tb", "manual", None)),  # ctx cuts the last newline
    ],
)
def test_tabs_inside_values_are_read_as_yaml_v3_reads_them(front, expected):
    parsed = parse_steering_file("a.md", "a.md", f"---\n{front}---\nBody\n")
    assert (parsed.name, parsed.description, parsed.inclusion, parsed.tools) == expected


@pytest.mark.parametrize(
    "front",
    [
        "name: x\ndescription: a\n\tb\n",  # yaml.v3: found a tab character that violates indentation
        "name: x\ndescription: |\n \tb\n",  # yaml.v3: found a tab character where an indentation space is expected
        "name: x\n\tinclusion: always\n",  # yaml.v3: found character that cannot start any token
    ],
)
def test_tabs_as_indentation_are_refused_as_yaml_v3_refuses_them(front):
    with pytest.raises(ValueError, match="invalid YAML"):  # the file fails, as in ctx
        parse_steering_file("a.md", "a.md", f"---\n{front}---\nBody\n")


def test_a_tab_in_a_ctxrc_value_is_part_of_it():
    config = parse_ctxrc("tool: clau\tde\t# c\ntoken_budget:\t3000\n")
    assert (config.tool, config.token_budget, config.problems) == ("clau\tde", 3000, ())

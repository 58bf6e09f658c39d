"""Synthetic workspaces: deterministic, the sizes asked for, in ctx's formats, fast."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from ctxtui.engine.packers.ctx.assemble import packer_for

from tests.factories.workspace import ENTRY_DAYS, build_workspace, write_workspace

ROOT = Path(__file__).resolve().parent.parent
NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)
WS = r"[\t\n\f\r ]"
TASK = re.compile(rf"^({WS}*)-{WS}*\[([x ]?)\]{WS}*(.+)$", re.MULTILINE)  # spec, "Tasks"
HEADER = re.compile(r"## \[(\d{4}-\d{2}-\d{2})-(\d{6})\] (.+)", re.ASCII)  # spec, "Entry blocks"
SIZES = dict(tasks=300, conventions=45, decisions=400, learnings=500, steering=5)


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return build_workspace(**SIZES, seed=7, now=NOW)


def headers(text: str) -> list[re.Match]:
    return [m for line in text.split("\n") if (m := HEADER.search(line))]


def test_same_seed_same_bytes(tmp_path):
    a = write_workspace(tmp_path / "a", **SIZES, seed=3, now=NOW)
    b = write_workspace(tmp_path / "b", **SIZES, seed=3, now=NOW)
    names = sorted(p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file())
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_same_seed_same_bytes_in_a_fresh_interpreter():
    # String hashing is randomised per process; the output must not depend on it.
    code = (
        "import hashlib, datetime as d; from tests.factories.workspace import build_workspace as b;"
        "f = b(seed=5, now=d.datetime(2026, 1, 2, 3, 4, 5));"
        "print(hashlib.sha256(repr(sorted(f.items())).encode()).hexdigest())"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
            env={"PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(runs) == 1


def test_other_seed_other_content():
    assert build_workspace(seed=1, now=NOW) != build_workspace(seed=2, now=NOW)


def test_each_file_has_its_own_stream():
    small = build_workspace(learnings=10, now=NOW)
    large = build_workspace(learnings=900, now=NOW)
    assert small["DECISIONS.md"] == large["DECISIONS.md"]
    assert small["TASKS.md"] == large["TASKS.md"]


def test_returns_the_project_and_writes_dot_context(tmp_path):
    root = write_workspace(tmp_path, now=NOW, steering=2)
    assert root == tmp_path
    written = {p.relative_to(tmp_path / ".context").as_posix() for p in (tmp_path / ".context").rglob("*.md")}
    assert written == set(build_workspace(now=NOW, steering=2))


def test_sizes_as_asked(files):
    assert len(TASK.findall(files["TASKS.md"])) == SIZES["tasks"]
    assert len(headers(files["DECISIONS.md"])) == SIZES["decisions"]
    assert len(headers(files["LEARNINGS.md"])) == SIZES["learnings"]
    assert len(re.findall(r"^- \*\*", files["CONVENTIONS.md"], re.MULTILINE)) == SIZES["conventions"]
    assert len([n for n in files if n.startswith("steering/")]) == SIZES["steering"]


@pytest.mark.parametrize("count", [0, 1, 2, 3, 11])
def test_tiny_sizes(count):
    f = build_workspace(tasks=count, conventions=count, decisions=count, learnings=count, steering=count, now=NOW)
    assert len(TASK.findall(f["TASKS.md"])) == count
    assert len(headers(f["DECISIONS.md"])) == count
    assert len(headers(f["LEARNINGS.md"])) == count


def test_every_entry_header_is_one_ctx_reads(files):
    for name in ("DECISIONS.md", "LEARNINGS.md"):
        looks_like_header = [ln for ln in files[name].split("\n") if re.match(r"#{2,3} \[\d", ln)]
        assert looks_like_header and all(HEADER.search(ln) for ln in looks_like_header)


def test_entries_are_newest_first_and_spread_over_the_window(files):
    for name in ("DECISIONS.md", "LEARNINGS.md"):
        stamps = [datetime.strptime(m[1] + m[2], "%Y-%m-%d%H%M%S").replace(tzinfo=UTC) for m in headers(files[name])]
        assert stamps == sorted(stamps, reverse=True)
        assert all(NOW - timedelta(days=ENTRY_DAYS) <= s <= NOW for s in stamps)
        ages = [(NOW - s).days for s in stamps]
        # every recency bracket ctx scores (<=7, <=30, <=90, older) is populated
        assert min(ages) <= 7 and any(7 < a <= 30 for a in ages)
        assert any(30 < a <= 90 for a in ages) and max(ages) > 90


def test_entry_bodies_use_ctx_field_names(files):
    # after the index: the template comment above it shows the fields too
    decisions, learnings = (files[n].split("<!-- INDEX:END -->")[1] for n in ("DECISIONS.md", "LEARNINGS.md"))
    for field in ("**Context**:", "**Decision**:", "**Rationale**:", "**Consequence**:"):
        assert decisions.count(f"\n{field}") == SIZES["decisions"]
    for field in ("**Context**:", "**Lesson**:", "**Application**:"):
        assert learnings.count(f"\n{field}") == SIZES["learnings"]


def test_some_entries_are_superseded(files):
    for name in ("DECISIONS.md", "LEARNINGS.md"):
        marked = re.findall(r"^~~Superseded", files[name], re.MULTILINE)
        assert 1 <= len(marked) <= len(headers(files[name])) // 10


def test_quirks_are_present_only_when_asked(files):
    tasks = files["TASKS.md"]
    assert re.search(r"<!--[^>]*\n- \[ \][^>]*-->", tasks)  # a task inside an HTML comment
    assert re.search(r"```markdown\n- \[ \]", tasks)  # a task inside a code fence
    assert "\n### [" in files["DECISIONS.md"]
    assert "**Status**: Superseded\n\n**Context**" in files["DECISIONS.md"]  # no ~~ line: ctx misses it
    assert "\n---\n" in files["CONVENTIONS.md"]

    plain = build_workspace(**SIZES, seed=7, now=NOW, with_quirks=False)
    assert "<!--" not in plain["TASKS.md"].split("-->", 1)[1]
    assert "```" not in plain["TASKS.md"]
    assert "\n### [" not in plain["DECISIONS.md"]
    assert "\n---\n" not in plain["CONVENTIONS.md"]
    assert len(TASK.findall(plain["TASKS.md"])) == SIZES["tasks"]


def test_tasks_are_pending_and_done_with_added_tags(files):
    boxes = [m[1] for m in TASK.findall(files["TASKS.md"])]
    done = boxes.count("x") / len(boxes)
    assert 0.15 < done < 0.6
    assert re.search(r"#added:\d{4}-\d{2}-\d{2}-\d{6}", files["TASKS.md"])
    assert re.search(r"^  - \[[x ]\] ", files["TASKS.md"], re.MULTILINE)  # nested
    assert re.search(r"^## Phase \d+: ", files["TASKS.md"], re.MULTILINE)


def test_steering_front_matter(files):
    inclusions = []
    for name, text in files.items():
        if name.startswith("steering/"):
            _, front, body = text.split("---\n", 2)
            meta = yaml.safe_load(front)
            assert meta["name"] == Path(name).stem and meta["description"]
            assert meta.get("priority", 50) > 0
            inclusions.append(meta["inclusion"])
            assert body.strip()
    assert set(inclusions) == {"always", "manual"}


def test_constitution_is_checkbox_rules(files):
    assert len(re.findall(r"^- \[ \] ", files["CONSTITUTION.md"], re.MULTILINE)) == 8


def test_the_engine_reads_it(tmp_path):
    from ctxtui.engine.sources.workspace import load_workspace

    write_workspace(tmp_path, **SIZES, seed=7, now=NOW)
    parsed = load_workspace(tmp_path).parsed
    pending = [m for m in TASK.findall(build_workspace(**SIZES, seed=7, now=NOW)["TASKS.md"]) if m[1] != "x"]
    assert len(parsed.tasks) == len(pending)
    assert len(parsed.decisions) == SIZES["decisions"]
    assert len(parsed.learnings) == SIZES["learnings"]
    assert not [p for p in parsed.problems if "steering" in str(p)]


def test_task_keywords_find_related_entries(files):
    from ctxtui.engine.packers.ctx.score import task_keywords

    pending = [f"- [ ] {m[2].strip()}" for m in TASK.findall(files["TASKS.md"]) if m[1] != "x"][:15]
    keywords = task_keywords(pending)
    entries = files["DECISIONS.md"].split("\n## [")[1:]
    hits = [sum(k in e.lower() for k in keywords) for e in entries]
    assert sum(h > 0 for h in hits) > len(entries) / 2  # a shared vocabulary, so relevance matters
    assert sum(h >= 3 for h in hits) > 0  # and some entries reach full relevance


def test_ten_thousand_entries_in_well_under_two_seconds(tmp_path):
    started = time.perf_counter()
    write_workspace(tmp_path, tasks=2000, decisions=5000, learnings=5000, now=NOW)
    assert time.perf_counter() - started < 2.0


def test_gen_workspace_cli(tmp_path):
    script = ROOT / "bench" / "gen_workspace.py"
    args = [
        sys.executable,
        str(script),
        str(tmp_path),
        "--tasks",
        "12",
        "--decisions",
        "5",
        "--learnings",
        "6",
        "--now",
        "2026-11-21T23:56:08Z",
        "--seed",
        "7",
    ]
    done = subprocess.run(args, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / ".context" / "DECISIONS.md").read_text(encoding="utf-8")
    assert len(headers(text)) == 5
    again = subprocess.run(args, capture_output=True, text=True)
    assert again.returncode != 0 and "--force" in again.stderr
    assert subprocess.run([*args, "--force"], capture_output=True).returncode == 0
    assert (tmp_path / ".context" / "DECISIONS.md").read_text(encoding="utf-8") == text


# ---------------------------------------------------------------- the built-in demo
# (the hand-written sibling of the synthetic workspaces; kept here with them)


@pytest.fixture
def demo(tmp_path):
    from ctxtui.demo import write_demo

    return write_demo(tmp_path / "demo", NOW)


def test_demo_sizes(demo):
    context = demo / ".context"
    tasks = TASK.findall((context / "TASKS.md").read_text(encoding="utf-8"))
    assert sum(box != "x" for _, box, _ in tasks) == 30
    assert sum(box == "x" for _, box, _ in tasks) == 15
    conventions = (context / "CONVENTIONS.md").read_text(encoding="utf-8")
    assert len(re.findall(r"^- \*\*", conventions, re.MULTILINE)) == 15
    assert len(headers((context / "DECISIONS.md").read_text(encoding="utf-8"))) == 25
    assert len(headers((context / "LEARNINGS.md").read_text(encoding="utf-8"))) == 30
    constitution = (context / "CONSTITUTION.md").read_text(encoding="utf-8")
    assert len(re.findall(r"^- \[ \] ", constitution, re.MULTILINE)) == 8
    assert (context / "ARCHITECTURE.md").is_file() and (context / "GLOSSARY.md").is_file()
    inclusions = sorted(
        yaml.safe_load(p.read_text(encoding="utf-8").split("---\n")[1])["inclusion"]
        for p in (context / "steering").glob("*.md")
    )
    assert inclusions == ["always", "always", "manual"]


def test_demo_entries_span_every_recency_bracket(demo):
    for name in ("DECISIONS.md", "LEARNINGS.md"):
        matches = headers((demo / ".context" / name).read_text(encoding="utf-8"))
        ages = [(NOW.date() - datetime.strptime(m[1], "%Y-%m-%d").date()).days for m in matches]
        assert ages == sorted(ages)  # newest first
        brackets = {0 if a <= 7 else 1 if a <= 30 else 2 if a <= 90 else 3 for a in ages}
        assert brackets == {0, 1, 2, 3}, name


def test_demo_quirks(demo):
    context = demo / ".context"
    decisions = (context / "DECISIONS.md").read_text(encoding="utf-8")
    assert len(re.findall(r"^~~Superseded by \[", decisions, re.MULTILINE)) == 1
    assert len(re.findall(r"^\*\*Status\*\*: Superseded by \[", decisions, re.MULTILINE)) == 1
    tasks = (context / "TASKS.md").read_text(encoding="utf-8")
    assert re.search(r"<!--[^>]*\n- \[ \] [^>]*-->", tasks)


def test_demo_reads_cleanly_and_has_to_choose_at_the_default_budget(demo):
    from ctxtui.engine.sources.workspace import load_workspace

    workspace = load_workspace(demo)
    assert not workspace.problems
    assert [e.superseded for e in workspace.parsed.decisions].count(True) == 1
    packer = packer_for(workspace, now=NOW)
    packet = packer.packet(packer.plan(8000))
    assert packet.summaries and len(packet.decisions) < 25  # the budget bites
    assert len(packet.steering) == 2


def test_demo_is_rewritten_fresh(tmp_path):
    from ctxtui.demo import write_demo

    first = write_demo(tmp_path, NOW)
    stale = first / ".context" / "OLD.md"
    stale.write_text("# left over\n", encoding="utf-8")
    before = (first / ".context" / "DECISIONS.md").read_bytes()
    write_demo(tmp_path, NOW)
    assert not stale.exists()
    assert (first / ".context" / "DECISIONS.md").read_bytes() == before
    later = NOW + timedelta(days=10)
    write_demo(tmp_path, later)
    assert (first / ".context" / "DECISIONS.md").read_bytes() != before  # dated relative to now


def test_demo_never_replaces_a_real_context(tmp_path):
    from ctxtui.demo import write_demo

    (tmp_path / ".context").mkdir()
    (tmp_path / ".context" / "TASKS.md").write_text("- [ ] mine\n", encoding="utf-8")
    with pytest.raises(FileExistsError):
        write_demo(tmp_path, NOW)
    assert (tmp_path / ".context" / "TASKS.md").read_text(encoding="utf-8") == "- [ ] mine\n"


def test_demo_root_is_a_per_user_cache_dir(monkeypatch, tmp_path):
    from ctxtui.demo import demo_memory_db_path, demo_root, prepare_demo

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert demo_root() == tmp_path / "cache" / "ctxtui" / "demo"
    assert prepare_demo(NOW) == demo_root()
    assert (demo_root() / ".context" / "TASKS.md").is_file()
    assert demo_memory_db_path(demo_root()) == demo_root() / ".context" / "memory.db"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec says ignore it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert demo_root() == tmp_path / "home" / ".cache" / "ctxtui" / "demo"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert demo_root() == tmp_path / "home" / ".cache" / "ctxtui" / "demo"

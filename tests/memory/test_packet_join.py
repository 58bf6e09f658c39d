"""Memories joined to the packet: sections by kind, provenance, score, inactive ones, the split, ctx parity.

Every store (ctxtui's own, Shabka, Cortex) is a real SQLite file written here;
the packet is assembled by the same engine the CLI and the TUI use.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from ctxtui.cli import main
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.budget import split_shares
from ctxtui.engine.packers.ctx.memories import attach_memories
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.sources.memory.native.schema import init_db
from ctxtui.engine.sources.workspace import load_workspace
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS, generated_time, needs_corpus
from tests.factories.memory_dbs import build_native_db

from . import stores
from .conftest import NOW, empty_store
from .stores import ACTIVE, MEMS, PREFIX, SECTION, STORES

BIG = 100_000  # everything fits: only ctx's 80% rule summarizes
HEADINGS = (
    "Read These Files",
    "Constitution (NEVER VIOLATE)",
    "Current Tasks",
    "Key Conventions",
    "Recent Decisions",
    "Key Learnings",
    "Memories",
    "Also Noted",
    "Steering",
)
HEADING_OF = {"decisions": "Recent Decisions", "learnings": "Key Learnings", "memories": "Memories"}


def joined(root: Path, db: Path | None, project: str | None = None, now=NOW, root_path=None):
    workspace = load_workspace(root)
    if db is not None:
        attach_memories(workspace, db, project=project, now=now)
    return workspace, packer_for(workspace, now=now, root_path=root_path)


@pytest.fixture(params=STORES)
def store(request, tmp_path):
    """(store name, project root, engine) for a workspace joined to that store's database."""
    name = request.param
    root = stores.workspace(tmp_path / "project")
    db = stores.build(name, tmp_path / f"{name}.db", NOW)
    workspace, engine = joined(root, db)
    assert workspace.memory_problems == []
    return name, root, engine


def memory_outcomes(packet) -> dict[str, object]:
    return {o.entry.source.split(":", 1)[1]: o for o in packet.outcomes if o.entry.key.startswith("memory:")}


def sections(markdown: str) -> dict[str, str]:
    """Heading → the text under it (up to the next ctx heading)."""
    out: dict[str, str] = {}
    current = None
    for line in markdown.splitlines(keepends=True):
        name = line[3:].rstrip("\n") if line.startswith("## ") else None
        if name in HEADINGS:
            current = name
            out[current] = ""
        elif current is not None:
            out[current] += line
    return out


# ---------------------------------------------------------------- sections and provenance


def test_kinds_land_in_their_sections(store):
    name, _, engine = store
    packet = engine.plan(BIG)
    found = memory_outcomes(packet)
    assert set(found) == {m.id for m in MEMS}
    for m in MEMS:
        outcome = found[m.id]
        assert outcome.entry.section == SECTION[m.kind], (name, m.id)
        assert outcome.tier == (4 if SECTION[m.kind] == "decisions" else 5)
    markdown = sections(packet.render("md"))
    for m in ACTIVE:
        outcome = found[m.id]
        if outcome.fate is Fate.INCLUDED:
            assert outcome.entry.text + "\n\n" in markdown[HEADING_OF[outcome.entry.section]]
            for other in set(HEADING_OF.values()) - {HEADING_OF[outcome.entry.section]}:
                assert outcome.entry.text not in markdown.get(other, "")
    assert engine.packet(packet).memories and "## Memories\n" in packet.render("md")


def test_json_puts_memories_after_learnings(store):
    _, _, engine = store
    text = engine.plan(BIG).render("json")
    keys = re.findall(r'^  "([a-z_]+)":', text, re.MULTILINE)
    assert keys.index("learnings") + 1 == keys.index("memories") < keys.index("summaries")


def test_every_entry_says_where_it_came_from(store):
    name, root, engine = store
    outcomes = engine.plan(BIG).outcomes
    for o in outcomes:
        if o.entry.key.startswith("memory:"):
            assert re.fullmatch(rf"{re.escape(PREFIX[name])}:[a-z0-9]+", o.entry.source)
        elif o.entry.section in ("decisions", "learnings"):
            path, line = o.entry.source.rsplit(":", 1)
            assert path in (".context/DECISIONS.md", ".context/LEARNINGS.md")
            header = (root / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
            assert header.startswith("## [") and header.endswith(o.entry.title)
    assert Counter(o.entry.source.split(":")[0] for o in outcomes if o.entry.section != "tasks") == {
        PREFIX[name]: len(MEMS),
        ".context/DECISIONS.md": 2,
        ".context/LEARNINGS.md": 2,
    }


def test_score_shows_importance_and_usage(store):
    name, _, engine = store
    found = memory_outcomes(engine.plan(BIG))
    for m in ACTIVE:
        s = found[m.id].score
        assert s.importance == m.importance
        assert s.usage == found[m.id].entry.usage
        assert s.total == pytest.approx((s.recency + s.relevance) * (0.5 + s.importance) * s.usage)
    # Shabka keeps no usage counts: neutral. The others know d1 was always used, l1 never.
    expected = {"d1": 1.0, "l1": 1.0} if name == "shabka" else {"d1": 1.5, "l1": 0.5}
    assert {k: found[k].score.usage for k in expected} == pytest.approx(expected)
    assert found["f1"].score.usage == 1.0  # never retrieved: no evidence either way
    for o in engine.plan(BIG).outcomes:
        if o.score is not None and not o.entry.key.startswith("memory:"):
            assert (o.score.importance, o.score.usage) == (None, None)
            assert o.score.total == o.score.recency + o.score.relevance


@pytest.mark.parametrize("budget", [0, 150, 300, 600, 1200, BIG])
def test_archived_and_superseded_memories_are_dropped_with_that_reason(store, budget):
    _, _, engine = store
    packet = engine.plan(budget)
    found = memory_outcomes(packet)
    assert (found["a1"].fate, found["a1"].reason) == (Fate.DROPPED, Reason.ARCHIVED)
    assert (found["s1"].fate, found["s1"].reason) == (Fate.DROPPED, Reason.SUPERSEDED)
    markdown = packet.render("md")
    for key in ("a1", "s1"):
        assert found[key].entry.title not in markdown


def test_inactive_memories_do_not_count_in_the_split(store):
    _, root, engine = store
    plain = packer_for(load_workspace(root), now=NOW)
    active_tokens = {
        section: sum(
            o.entry.tokens
            for o in memory_outcomes(engine.plan(BIG)).values()
            if o.entry.section == section and o.reason not in (Reason.ARCHIVED, Reason.SUPERSEDED)
        )
        for section in ("decisions", "learnings", "memories")
    }
    assert engine.section_names == ["decisions", "learnings", "memories"]
    assert engine.section_sizes == [
        plain.section_sizes[0] + active_tokens["decisions"],
        plain.section_sizes[1] + active_tokens["learnings"],
        active_tokens["memories"],
    ]


# ---------------------------------------------------------------- the split


def go_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def ctx_split(total: int, a: int | None, b: int | None) -> tuple[int, int]:
    """ctx 0.8.1's budget.Split, line by line (a section is None when it has no entries)."""
    if a is None and b is None:
        return 0, 0
    if a is None:
        return 0, total
    if b is None:
        return total, 0
    total_content = a + b
    if total_content == 0:
        return go_div(total, 2), total - go_div(total, 2)
    if total_content <= total:
        return a, b
    min_a = go_div(total * 30, 100)
    min_b = go_div(total * 30, 100)
    flex = total - min_a - min_b
    a_proportion = float(a) / float(total_content)
    a_flex = int(float(flex) * a_proportion)
    return min_a + a_flex, total - (min_a + a_flex)


sizes = st.one_of(st.none(), st.integers(0, 2_000_000))


@settings(max_examples=2000, deadline=None)
@given(total=st.integers(-10_000, 10_000_000), a=sizes, b=sizes)
def test_two_sections_are_ctx_split(total, a, b):
    got = split_shares(total, [a or 0, b or 0], [a is not None, b is not None])
    assert tuple(got) == ctx_split(total, a, b)


@settings(max_examples=1000, deadline=None)
@given(total=st.integers(-10_000, 10_000_000), a=sizes, b=sizes, c=st.integers(0, 2_000_000))
def test_an_absent_memories_section_changes_nothing(total, a, b, c):
    got = split_shares(total, [a or 0, b or 0, c], [a is not None, b is not None, False])
    assert tuple(got[:2]) == ctx_split(total, a, b) and got[2] == 0


@settings(max_examples=1000, deadline=None)
@given(total=st.integers(1, 10_000_000), parts=st.lists(st.integers(0, 2_000_000), min_size=3, max_size=3))
def test_three_sections_get_30_percent_floors(total, parts):
    got = split_shares(total, parts, [True, True, True])
    content = sum(parts)
    assert sum(got) == (content if 0 < content <= total else total)
    if content == 0:
        assert got == [total // 3, total // 3, total - 2 * (total // 3)]
    elif content <= total:
        assert got == parts  # everything fits: each gets its size, as in ctx
    else:
        floor = total * 30 // 100
        flex = total - 3 * floor
        assert got[0] == floor + int(flex * (parts[0] / content))
        assert got[1] == floor + int(flex * (parts[1] / content))
        assert min(got) >= floor


def test_three_section_split_in_an_assembly(store):
    _, _, engine = store
    content = sum(engine.section_sizes)
    for budget in range(150, 2000, 7):
        plan = engine.plan(budget).state
        remaining = plan.remaining_before_scored
        if plan.stopped_after is not None and plan.stopped_after <= 3:
            continue
        shares = [fill.share for fill in plan.sections]
        assert [fill.name for fill in plan.sections] == ["decisions", "learnings", "memories"]
        if content > remaining:
            assert sum(shares) == remaining and min(shares) >= remaining * 30 // 100
        else:
            assert shares == engine.section_sizes
        for fill in plan.sections:
            assert fill.limit == fill.share * 80 // 100 and fill.full_tokens <= fill.limit


def test_reference_splits():
    assert split_shares(1000, [200, 300, 100], [True] * 3) == [200, 300, 100]  # everything fits
    # 1000 × 30% = 300 each; flex 100 in proportion 1:1:2 → 325, 325, 350
    assert split_shares(1000, [1000, 1000, 2000], [True] * 3) == [325, 325, 350]
    assert split_shares(1001, [3000, 1000, 0], [True, True, False]) == [600, 401, 0]  # ctx's own example
    assert split_shares(90, [0, 0, 0], [True] * 3) == [30, 30, 30]
    assert split_shares(500, [0, 0, 900], [False, False, True]) == [0, 0, 500]


# ---------------------------------------------------------------- ctx parity without memories


@needs_corpus
@pytest.mark.parametrize("fmt", ["md", "json"])
@pytest.mark.parametrize("db_kind", [None, "empty-ctxtui", "empty-shabka", "empty-cortex", "inactive-only"])
def test_no_memories_means_ctx_bytes(tmp_path, capsysbinary, fmt, db_kind):
    expected = (CORPUS / "ctx-large" / "expected" / f"budget_4000.{fmt}").read_bytes()
    now = generated_time(expected.decode())
    args = [
        "pack",
        str(CORPUS / "ctx-large"),
        "--budget",
        "4000",
        "--format",
        fmt,
        "--now",
        now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "--root-path",
        "/project",
    ]
    if db_kind is not None:
        db = tmp_path / "memory.db"
        if db_kind == "inactive-only":
            stores.build("native", db, now, [m for m in MEMS if m.status != "active"])
        else:
            empty_store(db, db_kind.removeprefix("empty-"))
        args += ["--db", str(db)]
    assert main(args) == 0
    captured = capsysbinary.readouterr()
    assert captured.out == expected
    assert captured.err == b""


@needs_corpus
def test_empty_database_adds_nothing_at_any_budget(tmp_path):
    db = tmp_path / "memory.db"
    init_db(db)
    for path in sorted((CORPUS / "ctx-large" / "expected").glob("budget_*.md")):
        expected = path.read_bytes()
        budget = int(path.stem.removeprefix("budget_"))
        now = generated_time(expected.decode())
        workspace, engine = joined(CORPUS / "ctx-large", db, now=now, root_path="/project")
        assert workspace.memories == [] and workspace.memory_problems == []
        assert engine.plan(budget).render("md").encode() == expected, path.name


# ---------------------------------------------------------------- outcomes agree with the packet


@pytest.fixture(scope="module")
def large_with_memories(tmp_path_factory):
    if not (CORPUS / "ctx-large" / ".context").is_dir():
        pytest.skip(f"the shared corpora are not at {CORPUS}")
    expected = (CORPUS / "ctx-large" / "expected" / "budget_4000.md").read_text(encoding="utf-8")
    now = generated_time(expected)
    db = build_native_db(tmp_path_factory.mktemp("mem") / "memory.db", 400, seed=11, now=now)
    _, engine = joined(CORPUS / "ctx-large", db, now=now, root_path="/project")
    return engine


@pytest.mark.parametrize("budget", [-5, 0, 500, 1500, 3000, 4000, 8000, 12000, 32000, 200_000])
def test_outcomes_agree_with_the_rendered_packet(large_with_memories, budget):
    packet = large_with_memories.plan(budget)
    lists = large_with_memories.packet(packet)
    outcomes = packet.outcomes
    scored = [o for o in outcomes if o.entry.section in HEADING_OF]
    for section in HEADING_OF:
        included = [o.entry.text for o in scored if o.entry.section == section and o.fate is Fate.INCLUDED]
        assert included == getattr(lists, section), section
    summarized = [o.entry.title for o in scored if o.fate is Fate.SUMMARIZED]
    assert summarized == lists.summaries

    markdown = packet.render("md")
    parts = sections(markdown)
    for o in scored:
        heading = HEADING_OF[o.entry.section]
        if o.fate is Fate.INCLUDED:
            assert o.entry.text + "\n\n" in parts[heading]
        elif o.fate is Fate.SUMMARIZED:
            assert f"- {o.entry.title}\n" in parts["Also Noted"]
        else:
            assert o.entry.text not in markdown
    # Titles of dropped memories appear only as often as same-titled entries that were summarized.
    shown = Counter(lists.summaries)
    for o in scored:
        if o.fate is Fate.DROPPED:
            assert shown[o.entry.title] == sum(
                1 for x in scored if x.fate is Fate.SUMMARIZED and x.entry.title == o.entry.title
            )
    fates = Counter((o.entry.key.startswith("memory:"), o.fate) for o in scored)
    if budget >= 4000:
        assert fates[(True, Fate.INCLUDED)] and fates[(True, Fate.SUMMARIZED)] and fates[(True, Fate.DROPPED)]
    assert packet.tokens_used == large_with_memories.plan(budget).tokens_used


def test_project_filter_keeps_only_that_project(tmp_path):
    root = stores.workspace(tmp_path / "project")
    for name in ("native", "shabka"):
        db = stores.build(name, tmp_path / f"{name}.db", NOW)
        workspace, _ = joined(root, db, project="ctxtui")
        assert {e.source.split(":")[1] for e in workspace.memories} == {m.id for m in MEMS if m.project == "ctxtui"}
    db = stores.build("cortex", tmp_path / "cortex.db", NOW)
    workspace, _ = joined(root, db, project="ctxtui")
    assert len(workspace.memories) == len(MEMS)  # Cortex has no project column: a problem says so
    assert [p.message for p in workspace.memory_problems] == [
        "this cortex store has no project column: the project filter 'ctxtui' was ignored"
    ]

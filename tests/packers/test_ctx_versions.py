"""ctx 0.8.0 and 0.8.1: one assembly, five differences as data, each worked out from the Go source.

Citations are to ActiveMemory/ctx at v0.8.0 (5ee6d302) and ce5a832 (0.8.1).
Expected values were computed by hand from those lines and agree with the
real binaries (built from those commits) on the same inputs.
"""

from __future__ import annotations

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.packers.ctx.score import keywords_by_task
from ctxtui.engine.packers.ctx.versions import V0_8_0, V0_8_1
from ctxtui.engine.sources.workspace import load_workspace
from ctxtui.engine.text.go import go_fold, go_lower

from tests.conftest import NOW, write_context

DECISIONS = (
    "# Decisions\n\n## [2026-11-01-120000] First decision\n\nNothing to see here at all in this one.\n\n"
    "## [2026-11-01-120000] Second decision\n\nA strange thing happened on the road.\n"
)


def packers(root, **kw):
    workspace = load_workspace(root)
    return (
        packer_for(workspace, now=NOW, version=V0_8_0, root_path="/work/p", **kw),
        packer_for(workspace, now=NOW, version=V0_8_1, root_path="/work/p", **kw),
    )


def test_strasse_folds_in_0_8_1_and_lowercases_in_0_8_0(tmp_path):
    """The issue's two-file workspace: `Straße` → "strasse" under Fold, "stra" under ToLower.

    0.8.1 `score/score.go` (i18n.Fold, commit 00184501) vs 0.8.0 strings.ToLower: "stra" is inside
    "strange", so 0.8.0 scores the second decision relevant and ranks it first; 0.8.1 keeps file order.
    """
    root = write_context(
        tmp_path, {"TASKS.md": "- [ ] Straße\n", "CONSTITUTION.md": "# Constitution\n", "DECISIONS.md": DECISIONS}
    )
    old, new = packers(root)
    assert keywords_by_task(["- [ ] Straße"], go_lower) == [("stra",)]
    assert keywords_by_task(["- [ ] Straße"], go_fold) == [("strasse",)]
    for packer, first in ((old, "Second decision"), (new, "First decision")):
        plan = packer.plan(90)
        full = [o.entry.title for o in plan.outcomes if o.entry.section == "decisions" and o.fate is Fate.INCLUDED]
        assert full == [first], packer.name


@pytest.mark.parametrize(
    "char, folded",
    [
        ("ß", "ss"),
        ("ẞ", "ss"),
        ("ſ", "s"),
        ("ﬀ", "ff"),
        ("ﬁ", "fi"),
        ("ﬂ", "fl"),
        ("ﬃ", "ffi"),
        ("ﬄ", "ffl"),
        ("ﬅ", "st"),
        ("ﬆ", "st"),
        ("\u0149", "\u02bcn"),
        ("\u01f0", "j\u030c"),
        ("\u1e96", "h\u0331"),
        ("\u1e97", "t\u0308"),
        ("\u1e98", "w\u030a"),
        ("\u1e99", "y\u030a"),
        ("\u1e9a", "a\u02be"),
    ],
)
def test_fold_reaches_ascii_where_lower_does_not(char, folded):
    assert go_fold(char) == folded
    word = f"ab{char}cd"
    assert keywords_by_task([word], go_fold) != keywords_by_task([word], go_lower)


def test_read_order_paths_absolute_in_0_8_1_relative_in_0_8_0(tmp_path):
    """0.8.1 joins $PWD/.context (rc.go:109, sort.go:27); 0.8.0 joins the relative context dir."""
    root = write_context(tmp_path, {"TASKS.md": "# Tasks\n\n- [ ] Ship the parser now\n", "DECISIONS.md": DECISIONS})
    old, new = packers(root)
    assert old.read_order == [".context/TASKS.md", ".context/DECISIONS.md"]
    assert new.read_order == ["/work/p/.context/TASKS.md", "/work/p/.context/DECISIONS.md"]
    # The path bytes are tier-1 cost: 2 × 2 × ceil(len("/work/p/")/4) = 4 more tokens in 0.8.1.
    assert new.tier1 - old.tier1 == 4


def test_caps_are_clamped_to_what_is_left_only_in_0_8_1(tmp_path):
    """0.8.1 `assemble.go:73`: min(int(B × 0.40), remaining); 0.8.0 `assemble.go:61`: int(B × 0.40)."""
    tasks = "# Tasks\n\n" + "".join(f"- [ ] Task number {i} with some words in it\n" for i in range(20))
    root = write_context(tmp_path, {"TASKS.md": tasks, "DECISIONS.md": DECISIONS, "CONSTITUTION.md": "# C\n"})
    old, new = packers(root)
    budget = new.tier1 + 10  # little left after tier 1, but 40% of the budget is more
    old_state, new_state = old.plan(budget).state, new.plan(budget).state
    assert new_state.task_cap == 10 < int(budget * 0.40)
    assert old_state.task_cap == int(budget * 0.40)
    assert old_state.task_count > new_state.task_count


def test_ctxrc_percentages_count_only_in_0_8_1(tmp_path):
    """0.8.1 `rc/rc.go:689,706` reads task_budget_pct/convention_budget_pct; 0.8.0 uses 0.40/0.20 (config/agent)."""
    root = write_context(tmp_path, {"TASKS.md": "# Tasks\n\n- [ ] One task\n", "DECISIONS.md": DECISIONS})
    (root / ".ctxrc").write_text("task_budget_pct: 0\nconvention_budget_pct: 0.5\n")
    old, new = packers(root)
    assert (new.settings.task_pct, new.settings.convention_pct) == (0.0, 0.5)
    assert (old.settings.task_pct, old.settings.convention_pct) == (0.40, 0.20)
    plan = new.plan(4000)
    assert plan.state.task_cap == 0
    task = next(o for o in plan.outcomes if o.entry.section == "tasks")
    assert task.fate is Fate.INCLUDED and task.reason is Reason.FORCED_FIRST  # an explicit 0: first item still forced


def test_steering_exists_only_in_0_8_1(tmp_path):
    """Tier 6 arrived after 0.8.0 (d74f77b7); its files are candidates 0.8.0 never reaches."""
    root = write_context(
        tmp_path,
        {
            "TASKS.md": "# Tasks\n\n- [ ] One task\n",
            "DECISIONS.md": DECISIONS,
            "steering/a.md": "---\nname: a\ninclusion: always\n---\nAlways be kind.\n",
        },
    )
    old, new = packers(root)
    assert "## Steering\nAlways be kind.\n" in new.plan(4000).render("md")
    assert "Steering" not in old.plan(4000).render("md") and '"steering"' not in old.plan(4000).render("json")
    outcome = next(o for o in old.plan(4000).outcomes if o.entry.section == "steering")
    assert (outcome.fate, outcome.reason) == (Fate.DROPPED, Reason.NO_STEERING_TIER)
    assert all(b.tier != 6 for b in old.plan(4000).buckets)


def test_context_dir_label_is_printed_by_0_8_0(tmp_path):
    """0.8.0 prints filepath.Join(ContextDir(), name) for --context-dir / CTX_DIR / .ctxrc context_dir."""
    write_context(tmp_path / "x", {"TASKS.md": "# Tasks\n\n- [ ] One task\n", "DECISIONS.md": DECISIONS})
    (tmp_path / "notes").mkdir()
    (tmp_path / "x" / ".context").rename(tmp_path / "notes" / "ctx")
    workspace = load_workspace(tmp_path, "notes/ctx")
    packer = packer_for(workspace, now=NOW, version=V0_8_0)
    assert packer.read_order == ["notes/ctx/TASKS.md", "notes/ctx/DECISIONS.md"]
    assert (
        next(o for o in packer.plan(4000).outcomes if o.entry.section == "tasks").entry.source == "notes/ctx/TASKS.md:3"
    )

"""ctx 0.8.0 vs 0.8.1, one difference at a time, each expected value worked out from the Go source.

Citations are `path:line` in ActiveMemory/ctx at tag v0.8.0 (5ee6d302) and at
ce5a832 (0.8.1, ctx's main); the case files in tests/packers/ctx_cases/ hold
the real binaries' outputs on the same kind of workspace (named per test).
test_ctx_versions.py has the first checks of each difference; these pin the
numbers.
"""

from __future__ import annotations

import math

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.packers.ctx.sections import INSTRUCTION
from ctxtui.engine.packers.ctx.versions import V0_8_0, V0_8_1
from ctxtui.engine.sources.ctxrc import parse_ctxrc
from ctxtui.engine.sources.steering import SkillFile
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import NOW, write_context


def tok(text: str) -> int:
    """`token.EstimateString`: (len(bytes) + 3) / 4 (0.8.1 context/token/token.go:22-29, 0.8.0 :20-27)."""
    return (len(text.encode()) + 3) // 4


TASKS = "# Tasks\n\n" + "".join(f"- [ ] Task number {i} about the parser\n" for i in range(12))
CONVENTIONS = "# Conventions\n\n" + "".join(f"- Convention {i} for all modules\n" for i in range(8))
DECISIONS = "# Decisions\n\n## [2026-11-20-120000] Keep the parser simple\n\nA parser first.\n"
CONSTITUTION = "# Constitution\n\n- [ ] Never break the build\n"


@pytest.fixture
def workspace(tmp_path):
    return load_workspace(
        write_context(
            tmp_path,
            {
                "CONSTITUTION.md": CONSTITUTION,
                "TASKS.md": TASKS,
                "CONVENTIONS.md": CONVENTIONS,
                "DECISIONS.md": DECISIONS,
            },
        )
    )


def both(workspace, **kw):
    return (
        packer_for(workspace, now=NOW, version=V0_8_0, root_path="/tmp/ctx-case", **kw),
        packer_for(workspace, now=NOW, version=V0_8_1, root_path="/tmp/ctx-case", **kw),
    )


# 1. Read-order paths ------------------------------------------------------------------------------


def test_read_order_is_joined_to_an_absolute_dir_in_0_8_1_and_the_given_dir_in_0_8_0(workspace):
    """Both versions print `filepath.Join(ctx.Dir, f.Name)` (sort/sort.go:31 in both). 0.8.1's ctx.Dir is
    `filepath.Join(cwd, ".context")` (rc/rc.go:121 at ce5a832); 0.8.0's is `rc.ContextDir()`: --context-dir >
    CTX_DIR > .ctxrc context_dir > ".context" (rc/rc.go:61-67 at v0.8.0). Recorded: v080-relative-paths."""
    old, new = both(workspace)
    names = ["CONSTITUTION.md", "TASKS.md", "CONVENTIONS.md", "DECISIONS.md"]
    assert old.read_order == [f".context/{n}" for n in names]
    assert new.read_order == [f"/tmp/ctx-case/.context/{n}" for n in names]
    # tier 1 = read order + constitution rules + the instruction (assemble.go:60-62 / :50-52), each item rounded up
    rules = sum(map(tok, new.constitution or []))  # none: ctx's rule pattern never matches (the spec's quirk 1)
    assert new.tier1 == sum(map(tok, new.read_order)) + rules + tok(INSTRUCTION)
    assert old.tier1 == sum(map(tok, old.read_order)) + rules + tok(INSTRUCTION)
    # "/tmp/ctx-case/" is 14 bytes: 3 or 4 more tokens per path as the rounding falls (24, 17, 23, 21 bytes → +14)
    assert [tok(p) for p in old.read_order] == [6, 5, 6, 6]
    assert [tok(p) for p in new.read_order] == [10, 8, 10, 9]
    assert new.tier1 - old.tier1 == 14


def test_0_8_0_cleans_the_context_dir_it_is_given(tmp_path):
    """`filepath.Join` cleans: --context-dir ./alt/../alt/ prints alt/NAME (sort/sort.go:31 at v0.8.0)."""
    write_context(tmp_path, {})
    (tmp_path / "alt").mkdir()
    (tmp_path / "alt" / "TASKS.md").write_text(TASKS)
    packer = packer_for(load_workspace(tmp_path, "./alt/../alt/"), now=NOW, version=V0_8_0)
    assert packer.read_order == ["alt/TASKS.md"]
    assert "## Read These Files\n1. alt/TASKS.md\n" in packer.plan(8000).render("md")


# 2. Caps ------------------------------------------------------------------------------------------


def test_task_cap_is_clamped_to_what_tier_1_left_only_in_0_8_1(workspace):
    """0.8.1: taskCap = min(int(float64(budget)*TaskBudgetPct()), remaining) (budget/assemble.go:73 at ce5a832);
    0.8.0: taskCap = int(float64(budget) * 0.40) (budget/assemble.go:61 at v0.8.0). Recorded: v080-caps-not-clamped.
    """
    old, new = both(workspace)
    budget = new.tier1 + 30  # 40% of the budget is far more than the 30 tokens left after tier 1
    task_tokens = tok("- [ ] Task number 0 about the parser")
    assert task_tokens == 9
    new_state = new.plan(budget).state
    assert new_state.task_cap == 30 and new_state.task_count == 3  # 3 × 9 ≤ 30 < 4 × 9
    old_budget = old.tier1 + 30
    old_state = old.plan(old_budget).state
    assert old_state.task_cap == int(old_budget * 0.40) and old_state.task_count == int(old_budget * 0.40) // 9


def fit_items(tokens: list[int], cap: int) -> int:
    """FitItems (budget/estimate.go:24-43 at ce5a832, the same at v0.8.0): how many items go in; the first always."""
    used = count = 0
    for t in tokens:
        if used + t > cap:
            break
        used, count = used + t, count + 1
    return count or min(1, len(tokens))


def test_0_8_0_can_overrun_its_budget_where_0_8_1_stops(tmp_path):
    """0.8.0 fills tasks to 40% of the budget whatever tier 1 left, subtracts the fill from `remaining`
    and reports budget - remaining (assemble.go:61-69 at v0.8.0): more than the budget. 0.8.1's clamp
    (assemble.go:73) keeps the fill within what is left."""
    root = write_context(tmp_path, {"CONSTITUTION.md": CONSTITUTION, "TASKS.md": TASKS, "DECISIONS.md": "# D\n"})
    old, new = both(load_workspace(root))
    tasks = [e.tokens for e in old.tasks]
    assert tasks[:10] == [9] * 10
    old_budget, new_budget = old.tier1 + 10, new.tier1 + 10  # 40% of either is more than two tasks
    old_plan, new_plan = old.plan(old_budget), new.plan(new_budget)
    n_old = fit_items(tasks, int(old_budget * 0.40))
    assert (n_old, old_plan.state.task_count, old_plan.state.stopped_after) == (2, 2, 2)
    assert old_plan.tokens_used == old.tier1 + 9 * n_old == old_budget + 8
    assert new_plan.state.task_count == fit_items(tasks, min(int(new_budget * 0.40), 10)) == 1
    assert new_plan.tokens_used == new.tier1 + 9 <= new_budget


def test_convention_cap_is_clamped_too_in_0_8_1(tmp_path):
    """0.8.1: convCap = min(int(float64(budget)*ConventionBudgetPct()), remaining) (assemble.go:86 at ce5a832);
    0.8.0: convCap = int(float64(budget) * 0.20) (assemble.go:73 at v0.8.0)."""
    two_tasks = "# Tasks\n\n- [ ] Task number 0 about the parser\n- [ ] Task number 1 about the parser\n"
    root = write_context(
        tmp_path,
        {
            "CONSTITUTION.md": CONSTITUTION,
            "TASKS.md": two_tasks,
            "CONVENTIONS.md": CONVENTIONS,
            "DECISIONS.md": DECISIONS,
        },
    )
    old, new = both(load_workspace(root))
    conventions = [e.tokens for e in new.conventions]
    for packer, clamp in ((old, False), (new, True)):
        budget = packer.tier1 + 18 + 9  # both tasks (18 tokens) fit 40%; 9 tokens left for conventions
        state = packer.plan(budget).state
        assert state.task_count == 2 and state.remaining_before_conventions == 9
        cap = min(int(budget * 0.20), 9) if clamp else int(budget * 0.20)
        assert (state.convention_cap, state.convention_count) == (cap, fit_items(conventions, cap))
    assert old.plan(old.tier1 + 27).state.convention_count > new.plan(new.tier1 + 27).state.convention_count


# 3. .ctxrc keys -----------------------------------------------------------------------------------

CTXRC = (
    "token_budget: 900\ntask_budget_pct: 0.25\nconvention_budget_pct: 0.5\ntool: claude\n"
    "steering:\n  dir: rules\ncontext_dir: notes\nallow_outside_cwd: true\n"
)


def test_each_version_reads_only_its_own_ctxrc_keys():
    """0.8.1's CtxRC (rc/types.go:92-126 at ce5a832) has tool, token_budget, steering, task_budget_pct and
    convention_budget_pct and no longer context_dir; 0.8.0's (rc/types.go:34-57 at v0.8.0) has context_dir,
    token_budget and allow_outside_cwd, and no percentages, tool or steering."""
    new, old = parse_ctxrc(CTXRC, "0.8.1"), parse_ctxrc(CTXRC, "0.8.0")
    assert (new.token_budget, new.task_pct, new.convention_pct, new.tool, new.steering_dir) == (
        900,
        0.25,
        0.5,
        "claude",
        "rules",
    )
    assert (new.context_dir, new.allow_outside_cwd) == (None, False)
    assert (old.token_budget, old.context_dir, old.allow_outside_cwd) == (900, "notes", True)
    assert (old.task_pct, old.convention_pct, old.tool, old.steering_dir) == (None, None, "", "")


def test_percentages_apply_in_0_8_1_only(tmp_path):
    """TaskBudgetPct/ConventionBudgetPct (rc/rc.go:689-712 at ce5a832): nil → 0.40/0.20, else clamped to [0, 1];
    0.8.0 uses the constants agent.TaskBudgetPct/ConventionBudgetPct (assemble.go:61,73). Recorded: v080-pct-ignored.
    """
    root = write_context(tmp_path, {"TASKS.md": TASKS, "CONVENTIONS.md": CONVENTIONS, "DECISIONS.md": DECISIONS})
    (root / ".ctxrc").write_text("task_budget_pct: 1.5\nconvention_budget_pct: -2\n")
    old, new = both(load_workspace(root))
    assert (new.settings.task_pct, new.settings.convention_pct) == (1.0, 0.0)
    assert (old.settings.task_pct, old.settings.convention_pct) == (0.40, 0.20)
    assert new.plan(4000).state.task_cap == min(4000, 4000 - new.tier1)
    assert old.plan(4000).state.task_cap == 1600


def test_nan_percentage_stays_nan_and_caps_at_min_int64(tmp_path):
    """clampFraction leaves NaN (rc/clamp.go:19: comparisons with NaN are false); int(float64(B)*NaN) is
    0x8000000000000000 on amd64, so min(that, remaining) is negative: only the forced first task.
    Recorded: ctxrc-pct-nan."""
    root = write_context(tmp_path, {"TASKS.md": TASKS, "DECISIONS.md": DECISIONS})
    (root / ".ctxrc").write_text("task_budget_pct: .nan\n")
    new = packer_for(load_workspace(root), now=NOW, version=V0_8_1, root_path="/p")
    assert math.isnan(new.settings.task_pct)
    state = new.plan(8000).state
    assert state.task_cap == -(2**63) and state.task_count == 1 and state.task_forced


# 4. Tiers 6-8 -------------------------------------------------------------------------------------

SKILL = SkillFile(name="review", title="review", body="\nReview checklist: tests first, then names.\n", line=4)


def test_skill_is_all_or_nothing_after_steering_in_0_8_1(tmp_path):
    """Tier 7 (budget/assemble.go:132-140 at ce5a832): if remaining > 0 && skillBody != "", the body goes in
    only when EstimateString(body) <= remaining. Rendered under "## Skill" after steering and hub, before the
    instruction, as body + "\\n\\n" (render.go:119-123). Recorded: skill-tier-7."""
    root = write_context(tmp_path, {"TASKS.md": "# Tasks\n\n- [ ] one\n", "DECISIONS.md": DECISIONS})
    workspace = load_workspace(root)
    new = packer_for(workspace, now=NOW, version=V0_8_1, root_path="/p", skill=SKILL)
    need = tok(SKILL.body)
    assert need == 11
    full = new.plan(100000)
    left = 100000 - (full.tokens_used - need)
    assert full.render("md").endswith(f"## Skill\n{SKILL.body}\n\n{INSTRUCTION}\n")
    assert '"skill": "\\nReview checklist: tests first, then names.\\n"' in full.render("json")
    base = full.tokens_used - need  # everything before tier 7
    at, below = new.plan(base + need), new.plan(base + need - 1)
    assert at.state.skill_included and at.tokens_used == base + need
    assert not below.state.skill_included and below.tokens_used == base
    skill = next(o for o in below.outcomes if o.entry.section == "skill")
    assert (skill.fate, skill.reason) == (Fate.DROPPED, Reason.SKILL_TOO_BIG)
    assert left > need


def test_0_8_0_has_no_tiers_6_to_8(tmp_path):
    """v0.8.0 assemble.go:37-111 ends after tiers 4+5; AssemblePacket takes no steering, skill or hub
    (ce5a832 assemble.go:41-47 does); the agent command has no --skill/--include-hub (cmd.go:117-125 at ce5a832
    only). Recorded: v080-no-steering."""
    root = write_context(
        tmp_path,
        {"TASKS.md": "# Tasks\n\n- [ ] one\n", "steering/a.md": "---\nname: a\ninclusion: always\n---\nSteer.\n"},
    )
    old = packer_for(load_workspace(root), now=NOW, version=V0_8_0, skill=SKILL)
    assert old.skill is None and old.steering == []
    plan = old.plan(100000)
    assert "## Steering" not in plan.render("md") and "## Skill" not in plan.render("md")
    assert {b.tier for b in plan.buckets} <= {1, 2, 3, 4, 5}


# 5. Keyword folding -------------------------------------------------------------------------------


def test_the_issue_workspace_ranks_differently(tmp_path):
    """ExtractTaskKeywords: strings.FieldsFunc(i18n.Fold(t), notKeywordRune) (score/score.go:117-120 at
    ce5a832) vs strings.ToLower(t) (score.go:121 at v0.8.0); Relevance folds/lowers the block the same way
    (score.go:70 / :69). Fold("Straße") = "strasse": no decision mentions it, so 0.8.1 keeps file order
    (First in full at 70 tokens, Second as a title); ToLower keeps ß, which splits: "stra", inside "strange"
    — 0.8.0 ranks Second first. TASKS.md itself is under 20 bytes, "effectively empty", so it is not in the
    read order. Recorded with both binaries: issue-strasse (budgets 40-100), these very lines."""
    decisions = (
        "# Decisions\n\n## [2026-11-01-120000] First decision\n\nNothing to see here at all in this one.\n\n"
        "## [2026-11-01-120000] Second decision\n\nA strange thing happened on the road.\n"
    )
    root = write_context(tmp_path, {"CONSTITUTION.md": "", "TASKS.md": "- [ ] Straße\n", "DECISIONS.md": decisions})
    old, new = both(load_workspace(root))
    assert new.scorer.keywords(1) == ["strasse"] and old.scorer.keywords(1) == ["stra"]
    new_md, old_md = new.plan(70).render("md"), old.plan(70).render("md")
    assert "## Recent Decisions\n## [2026-11-01-120000] First decision" in new_md
    assert "## Also Noted\n- Second decision\n" in new_md
    assert "## Recent Decisions\n## [2026-11-01-120000] Second decision" in old_md
    assert "## Also Noted\n- First decision\n" in old_md


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "task_budget_pct: 30\n",
            [
                "task_budget_pct is 30: ctx reads a fraction of the budget, 0 to 1, and uses 1: its tier may fill the "
                "whole budget (for 30 % write 0.3)"
            ],
        ),
        (
            "convention_budget_pct: -2\n",
            [
                "convention_budget_pct is -2: ctx reads a fraction of the budget, 0 to 1, and uses 0: its tier gets no "
                "share (the first item is still forced in)"
            ],
        ),
        (
            "task_budget_pct: 1e9\n",
            [
                "task_budget_pct is 1e+09: ctx reads a fraction of the budget, 0 to 1, and uses "
                "1: its tier may fill the whole budget"
            ],
        ),
        (
            "task_budget_pct: .nan\n",
            [
                "task_budget_pct is NaN: ctx's cap for its tier is negative, so only the first "
                "item (always forced in) gets in"
            ],
        ),
        ("task_budget_pct: 0.3\nconvention_budget_pct: 1\n", []),
        ("task_budget_pct: 0\n", []),
    ],
)
def test_a_share_outside_0_to_1_is_said_since_ctx_clamps_it_silently(text, words):
    """`task_budget_pct: 30` meant as 30 % gives tasks the whole budget in ctx 0.8.1, with no word from ctx:
    ctxtui says so (and 0.8.0, which ignores the key, says nothing of it)."""
    assert [p.message for p in parse_ctxrc(text, "0.8.1").problems] == words
    assert parse_ctxrc(text, "0.8.0").problems == ()

"""The `nous` packer: one logged turn's memory sections, rebuilt from its candidates and re-cut at any budget.

nous cannot be re-run offline (retrieval needs its embeddings and an
in-memory usage tracker), but a sampled turn logs every candidate with its
disposition, and the rendered ones with their order (`final_rank`). So the
rebuild (notes/nous.md §2.4) takes, per type, the candidates nous rendered
(in final_rank order) followed by those its section budget cut
(`budget_truncated`, in entry-rank order: their true order is not logged),
reads their rows by id, formats them as nous does (`formats`) and cuts each
section with nous's rule at the section's budget (`budgets`). Candidates a
gate dropped before formatting (diversity, relevance filter, dedup...) stay
dropped at every budget, with that gate as the reason.

The single budget (the slider, `--budget`) is the sum of the four budgeted
memory sections' token budgets as nous cuts them (decisions, facts,
procedures, episodes, after the model scale). At `default_budget` — the sum
the turn's frame, intent, model and operator settings give — every section
gets exactly its own budget; any other budget B gives each section
B × its budget // that sum (its share stays the same), and a section whose
share rounds to 0 is switched off, as nous does a zero budget. Recent
Conversations is not budgeted in nous and is always shown.

What is not rebuilt (no candidates, or not logged): Current Date/Time,
Identity, User Profile, Active Censors, Current Frame, Working Memory, the
Procedure Catalog and the fixed cue sections. `checks()` compares each
rebuilt section with the tokens the turn's `context_log` row recorded.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Any

from ctxtui.engine.fate import Fate
from ctxtui.engine.gcpause import gc_paused
from ctxtui.engine.model import Bucket, Entry, Outcome, Plan, Problem
from ctxtui.engine.packers.base import DROPPED, INCLUDED, SUMMARIZED, Knob, Packer
from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous import formats as f
from ctxtui.engine.packers.nous.assume import assumptions
from ctxtui.engine.packers.nous.fates import NousReason
from ctxtui.engine.packers.nous.knobs import input_reading, knobs, with_knob
from ctxtui.engine.packers.nous.order import logged_split
from ctxtui.engine.packers.nous.rebuild import CRITIC_LEG, SectionBuilder, format_item, pointer_on, row_of, spec_for
from ctxtui.engine.packers.nous.sections import (
    BLOCKS,
    LINE,
    MID,
    NONE,
    POINTER,
    NousState,
    Section,
    SectionCheck,
    SectionSpec,
    cut,
    next_eff,
    text_at,
)
from ctxtui.engine.reason_numbers import SectionFit
from ctxtui.engine.sources.memory.nous.model import (
    BUDGET_TRUNCATED,
    RENDERED,
    Candidate,
    NousRow,
    Turn,
    provenance,
)


class NousPacker(Packer):
    """One logged nous turn, rebuilt: candidates in, sections cut at any budget out."""

    name = "nous"
    title = "nous's per-frame context sections, rebuilt from a logged turn"
    formats = ("md", "json")

    def __init__(
        self, turn: Turn, rows: Mapping[tuple[str, str], NousRow], settings: b.NousSettings, *, source: str = "nous"
    ) -> None:
        self.turn = turn
        self.rows = rows
        self.settings = settings
        self.source = source
        self.budgets = b.resolve(settings)
        self.problems: list[Problem] = []
        cands = turn.retrieval.candidates if turn.retrieval is not None and turn.retrieval.candidates else ()
        self.logged: tuple[Candidate, ...] = tuple(cands)
        self.suppressed: set[int] = set()
        self.pointer = pointer_on(self.logged, settings)
        with gc_paused():
            self.sections: list[Section] = self._build_sections()
        critic = any(c.entry_leg == CRITIC_LEG for c in self.logged)
        self.assumptions = assumptions(settings, turn, critic)
        self.problems += [Problem(self.source, line) for _, line in self.assumptions]
        self._where: dict[int, tuple[int, int]] = {}  # candidate index → (section index, position)
        for s_index, section in enumerate(self.sections):
            for pos, c_index in enumerate(section.items):
                self._where[c_index] = (s_index, pos)
        with gc_paused():
            self.entries: list[Entry] = [self._entry(i, c) for i, c in enumerate(self.logged)]
        self._priority = [spec_for(c, self.settings, self.pointer).priority for c in self.logged]
        self._full_budgets = [self._section_budget(s.spec) for s in self.sections]
        # The slider's whole: the four budgeted fields' budgets as nous cuts them, whether or not
        # the turn has items in each (a section of the turn keeps its share at any budget).
        self.default_budget = sum(self.budgets.effective(fld) for fld in b.MEMORY_FIELDS if self.budgets.enabled(fld))

    # -- building ---------------------------------------------------------

    def _build_sections(self) -> list[Section]:
        retrieval = self.turn.retrieval
        builder = SectionBuilder(
            self.logged,
            self.rows,
            self.settings,
            self.budgets,
            lambda text: self.problems.append(Problem(self.source, text)),
            retrieval.timestamp if retrieval is not None else None,
        )
        sections = builder.build()
        self.suppressed = builder.suppressed
        return sections

    def _entry(self, index: int, cand: Candidate) -> Entry:
        spec = spec_for(cand, self.settings, self.pointer)
        row, found = row_of(cand, self.rows)
        where = self._where.get(index)
        text = ""
        if where is not None:
            text = self.sections[where[0]].texts[where[1]] or ""
            if spec is POINTER:
                text = format_item(spec, row, 0, self.settings) or ""
        else:
            text = format_item(spec, row, 0, self.settings) or ""
        title = _title(cand, row)
        extra: list[tuple[str, Any]] = [
            ("disposition", cand.disposition),
            ("stage", cand.disposition_stage),
            ("entry_leg", cand.entry_leg),
            ("entry_rank", cand.entry_rank),
            ("entry_score", cand.entry_score),
            ("final_rank", cand.final_rank),
        ]
        if cand.restored_from:
            extra.append(("restored_from", cand.restored_from))
        if cand.mutations:
            extra.append(
                (
                    "mutations",
                    "; ".join(
                        f"{m.stage}: {m.score_before}→{m.score_after}" + (f" ({m.reason})" if m.reason else "")
                        for m in cand.mutations
                    ),
                )
            )
        if not found:
            extra.append(("row", "gone: rebuilt from the logged snippet"))
        created = row.get("started_at") or row.get("created_at")
        return Entry(
            key=provenance(cand.type, cand.id),
            section=spec.label,
            title=title,
            text=text,
            tokens=f.estimate_tokens(text),
            source=provenance(cand.type, cand.id),
            date=created.strftime("%Y-%m-%d") if hasattr(created, "strftime") else None,
            superseded=bool(row.get("superseded_by")),
            status=_status(cand.type, row) if found else None,
            kind=cand.type,
            extra=tuple(extra),
        )

    def _section_budget(self, spec: SectionSpec) -> int:
        if spec.budget_field is None:
            return 0
        if not self.budgets.enabled(spec.budget_field):
            return 0
        return self.budgets.effective(spec.budget_field)

    # -- the budget ----------------------------------------------------------

    def section_budgets(self, budget: int) -> list[int]:
        """Each section's budget (scaled tokens) at the slider's `budget`: its share of `default_budget`.

        Exactly the turn's own budgets at `default_budget`; 0 (the section
        off) when the share rounds down to nothing.
        """
        whole = self.default_budget
        if whole <= 0 or budget <= 0:
            return [0] * len(self.sections)
        return [budget * full // whole for full in self._full_budgets]

    def plan(self, budget: int) -> Plan:
        states = []
        used = 0
        for section, eff in zip(self.sections, self.section_budgets(budget), strict=True):
            state = cut(section, eff)
            states.append(state)
            if section.spec.budget_field is not None:
                used += state.tokens
        return Plan(self, budget, used, NousState(tuple(states)))

    def section_text(self, plan: Plan, s_index: int) -> str | None:
        """The section's content at this plan (None: off)."""
        return text_at(self.sections[s_index], plan.state.sections[s_index])

    # -- fates ------------------------------------------------------------------

    def _fate(self, plan: Plan, index: int) -> tuple[Fate, NousReason]:
        where = self._where.get(index)
        if where is None:
            return Fate.DROPPED, (NousReason.CATALOG if index in self.suppressed else NousReason.GATE)
        s_index, pos = where
        section, state = self.sections[s_index], plan.state.sections[s_index]
        rule = section.spec.rule
        if rule == LINE:
            return (Fate.INCLUDED, NousReason.POINTER) if state.on else (Fate.DROPPED, NousReason.SECTION_OFF)
        if section.texts[pos] is None:
            return Fate.DROPPED, NousReason.ABANDONED
        if rule == NONE:
            return Fate.INCLUDED, NousReason.NOT_BUDGETED
        if not state.on:
            return Fate.DROPPED, NousReason.SECTION_OFF
        if rule == MID:
            if state.keep is None or section.ends[pos] <= state.keep:
                return Fate.INCLUDED, NousReason.FITS
            if section.starts[pos] < state.keep:
                return Fate.SUMMARIZED, NousReason.CUT
            return Fate.DROPPED, NousReason.AFTER_CUT
        if pos == 0:
            return Fate.INCLUDED, (
                NousReason.BLOCK_FITS if section.costs[0] <= state.budget else NousReason.FIRST_BLOCK
            )
        if pos < state.shown:
            return Fate.INCLUDED, NousReason.BLOCK_FITS
        if pos == state.shown:
            return Fate.DROPPED, NousReason.BLOCK_OVER
        return Fate.DROPPED, NousReason.AFTER_STOP

    def candidates(self) -> Sequence[Entry]:
        return self.entries

    def fate_vector(self, plan: Plan) -> bytearray:
        codes = {Fate.INCLUDED: INCLUDED, Fate.SUMMARIZED: SUMMARIZED, Fate.DROPPED: DROPPED}
        return bytearray(map(codes.__getitem__, map(itemgetter(0), self._fates(plan))))  # C-level: 50,000 a step

    def _fates(self, plan: Plan) -> list[tuple[Fate, NousReason]]:
        """Every candidate's fate and reason at this plan, once (the fate vector, the table's reason column)."""
        from ctxtui.engine.packers.nous.vectors import fates_of

        fates: list[tuple[Fate, NousReason]] = plan.derived("nous.fates", lambda p: fates_of(self, p))
        return fates

    def reason_vector(self, plan: Plan) -> Sequence[Any] | None:
        return list(map(itemgetter(1), self._fates(plan)))

    def component_vector(self, plan: Plan, component: str) -> Sequence[Any] | None:
        """The section's budget, or its kept characters (None for blocks: `_outcomes`), for every candidate."""
        if component not in ("budget", "kept"):
            return None
        values: list[Any] = []
        for section, state in zip(self.sections, plan.state.sections, strict=True):
            blocks = section.spec.rule == BLOCKS
            values.append(state.budget if component == "budget" else None if blocks else state.keep)
        where = self._where
        return [None if (w := where.get(i)) is None else values[w[0]] for i in range(len(self.entries))]

    def outcomes(self, plan: Plan) -> list[Outcome]:
        with gc_paused():  # a burst of acyclic tuples: collections would only traverse the live heap
            return [self.outcome_at(plan, index) for index in range(len(self.entries))]

    # Outcomes are in candidate order; the table makes the ~40 it shows one by one.
    def packet_order(self, plan: Plan) -> Sequence[int]:
        return range(len(self.entries))

    def packet_places(self, plan: Plan) -> Sequence[int]:
        return range(len(self.entries))

    def _per_section(self, plan: Plan) -> list[tuple[Any, ...]]:
        """What every item of a section shares at this plan."""
        factor = self.settings.factor
        per_section = []
        for s_index, (section, state) in enumerate(zip(self.sections, plan.state.sections, strict=True)):
            fld = section.spec.budget_field
            per_section.append(
                (
                    section,
                    state,
                    self.budgets.base.get(fld) if fld else None,
                    factor if fld else None,
                    self._full_budgets[s_index] if fld else None,
                    state.budget * f.CHARS_PER_TOKEN if fld else None,
                    len(section.joined),
                )
            )
        return per_section

    def outcome_at(self, plan: Plan, index: int) -> Outcome:
        fate, reason = self._fate(plan, index)
        where = self._where.get(index)
        numbers = None
        if where is not None:
            s_index, pos = where
            per_section: list[tuple[Any, ...]] = plan.derived("nous.per_section", self._per_section)
            section, state, base, fac, whole, max_chars, text_chars = per_section[s_index]
            key = section.spec.key
            if section.spec.rule == BLOCKS:
                cost = section.costs[pos]
                numbers = SectionFit(
                    key,
                    state.budget,
                    base,
                    fac,
                    None,
                    None,
                    None,
                    None,
                    None,
                    section.cum_costs[pos] - cost,
                    cost,
                    pos + 1,
                    whole,
                    plan.budget,
                )
            else:
                numbers = SectionFit(
                    key,
                    state.budget,
                    base,
                    fac,
                    max_chars,
                    section.starts[pos],
                    section.ends[pos],
                    text_chars,
                    state.keep,
                    None,
                    None,
                    pos + 1,
                    whole,
                    plan.budget,
                )
        return Outcome(self.entries[index], self._priority[index], fate, reason, numbers)

    def buckets(self, plan: Plan) -> list[Bucket]:
        bars = []
        for section, state in zip(self.sections, plan.state.sections, strict=True):
            cap = None if section.spec.rule == NONE else state.budget
            overrun = max(0, state.tokens - state.budget) if section.spec.rule == BLOCKS and state.on else 0
            bars.append(
                Bucket(
                    section.spec.priority,
                    section.spec.label,
                    cap,
                    state.tokens if state.on else 0,
                    overrun=overrun,
                    reached=state.on,
                    unbudgeted=(state.tokens if state.on else 0) if cap is None else 0,  # Recent Conversations
                )
            )
        return bars

    def next_change(self, plan: Plan) -> int | None:
        """The next budget at which some section's budget reaches a value that moves a fate.

        A section's budget is budget × full // whole, non-decreasing in the
        budget, so the first budget giving it `target` is ceil(target × whole / full).
        """
        whole = self.default_budget
        best: int | None = None
        for section, state, full in zip(self.sections, plan.state.sections, self._full_budgets, strict=True):
            if section.spec.rule == NONE or full <= 0:
                continue
            target = next_eff(section, state.budget)
            if target is None:
                continue
            needed = max(plan.budget + 1, -(-target * whole // full))
            best = needed if best is None else min(best, needed)
        return best

    # -- rendering ------------------------------------------------------------

    def render(self, plan: Plan, fmt: str) -> str:
        if fmt == "md":
            parts = []
            for s_index, section in sorted(enumerate(self.sections), key=lambda p: p[1].spec.priority):
                text = self.section_text(plan, s_index)
                if text is not None:
                    parts.append(f"## {section.spec.label}\n\n{text}")
            return "\n\n".join(parts)
        if fmt == "json":
            return json.dumps(self.to_json(plan), indent=2, ensure_ascii=True)
        raise ValueError(f"unknown format {fmt!r}")

    def would_log(self, plan: Plan) -> list[str]:
        """Each candidate's disposition as nous would log it at this plan: its 40-character check on a mid-text
        section's cut text (`_tr_budget`), the blocks accumulated (`procedure_budget_accumulation`); a
        candidate no section holds keeps its logged disposition."""
        out = [c.disposition for c in self.logged]
        for s_index, (section, state) in enumerate(zip(self.sections, plan.state.sections, strict=True)):
            text = self.section_text(plan, s_index)
            if text is None:
                continue
            if section.spec.rule == MID:
                probes = [f.probe_of(row_of(self.logged[i], self.rows)[0]) for i in section.items]
                split = logged_split(probes, text)
            elif section.spec.rule == BLOCKS:
                split = [pos < state.shown for pos in range(len(section.items))]
            else:
                split = [True] * len(section.items)
            for index, rendered in zip(section.items, split, strict=True):
                out[index] = RENDERED if rendered else BUDGET_TRUNCATED
        return out

    def to_json(self, plan: Plan) -> dict[str, Any]:
        summary = self.turn.summary
        logged = dict(self.turn.first_call.token_breakdown) if self.turn.first_call else {}
        sections = []
        for s_index, (section, state) in enumerate(zip(self.sections, plan.state.sections, strict=True)):
            text = self.section_text(plan, s_index)
            fld = section.spec.budget_field
            sections.append(
                {
                    "label": section.spec.label,
                    "priority": section.spec.priority,
                    "rule": section.spec.rule,
                    "budget_field": fld,
                    "base_budget": self.budgets.base.get(fld) if fld else None,
                    "budget": state.budget if fld else None,
                    "on": state.on,
                    "max_chars": state.budget * f.CHARS_PER_TOKEN if fld and state.on else None,
                    "text_chars": len(section.joined),
                    "kept_chars": state.keep,
                    "blocks_shown": state.shown if section.spec.rule == BLOCKS else None,
                    "tokens": state.tokens if state.on else 0,
                    "logged_tokens": logged.get(section.spec.log_key),
                    "items": len(section.items),
                    "text": text,
                }
            )
        candidates = []
        would_log = self.would_log(plan)
        for index, outcome in enumerate(plan.outcomes):
            entry = outcome.entry
            extra = dict(entry.extra)
            candidates.append(
                {
                    "provenance": entry.source,
                    "type": entry.kind,
                    "section": entry.section,
                    "title": entry.title,
                    "logged_disposition": extra.get("disposition"),
                    "logged_stage": extra.get("stage"),
                    "entry_leg": extra.get("entry_leg"),
                    "entry_rank": extra.get("entry_rank"),
                    "final_rank": extra.get("final_rank"),
                    "nous_would_log": would_log[index],
                    "fate": outcome.fate.value,
                    "reason": outcome.reason.value,
                    "tokens": entry.tokens,
                }
            )
        return {
            "turn": summary.key,
            "agent": summary.agent_id,
            "session": summary.session_id,
            "turn_number": summary.turn_number,
            "timestamp": summary.timestamp,
            "budget": plan.budget,
            "default_budget": self.default_budget,
            "tokens_used": plan.tokens_used,
            "settings": {k.key: k.value for k in self.knobs()},
            "input": input_reading(self.settings),
            "assumptions": [
                {"knob": key, "value": getattr(self.settings, key), "source": self.settings.source(key), "note": line}
                for key, line in self.assumptions
            ],
            "scale": self.settings.factor,
            "sections": sections,
            "candidates": candidates,
            "problems": [str(p) for p in self.problems],
        }

    # -- knobs ------------------------------------------------------------------

    def knobs(self) -> tuple[Knob, ...]:
        return knobs(self.settings, self.budgets, self._logged_frame(), self._logged_model())

    def with_knob(self, key: str, value: Any, source: str = "user") -> NousPacker:
        """A packer for the same turn with one knob changed (the TUI's and `--frame`'s way in)."""
        return NousPacker(self.turn, self.rows, with_knob(self.settings, key, value, source), source=self.source)

    def _logged_frame(self) -> str:
        first = self.turn.first_call
        return (first.frame_id if first and first.frame_id else None) or "task"

    def _logged_model(self) -> str:
        first = self.turn.first_call
        return (first.model if first and first.model else None) or b.DEFAULT_MODEL

    # -- checks against the log -------------------------------------------------

    def checks(self) -> list[SectionCheck]:
        """Each rebuilt section (at the turn's own budgets) against the tokens the turn logged for it."""
        plan = self.plan(self.default_budget)
        logged = self.turn.first_call.token_breakdown if self.turn.first_call else {}
        out = []
        for s_index, section in enumerate(self.sections):
            text = self.section_text(plan, s_index)
            out.append(
                SectionCheck(
                    section.spec.label,
                    section.spec.log_key,
                    f.logged_tokens(text) if text is not None else 0,
                    logged.get(section.spec.log_key),
                )
            )
        return out


def _one_line(text: Any) -> str:
    return " ".join(str(text or "").split())


def _clip(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _title(cand: Candidate, row: NousRow) -> str:
    if cand.type == "decision":
        title = _one_line(row.get("description"))
    elif cand.type == "fact":
        subject = _one_line(row.get("subject"))
        content = _one_line(row.get("content"))
        title = f"[{subject}] {content}" if subject else content
    elif cand.type == "procedure":
        title = _one_line(row.get("name")) or _one_line(row.get("description"))
    else:
        title = _one_line(row.get("title")) or _one_line(str(row.get("summary") or "")[:60])
    return _clip(title or _one_line(cand.snippet) or f"({cand.type} {cand.id})")


def _status(mem_type: str, row: NousRow) -> str:
    if mem_type == "decision":
        outcome = row.get("outcome")
        return "superseded" if outcome == "superseded" else ("archived" if outcome == "noise" else "active")
    if row.get("superseded_by"):
        return "superseded"
    if row.values.get("active") is False:
        return "archived"
    return "active"

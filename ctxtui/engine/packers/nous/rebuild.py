"""A logged turn's candidates made into nous's sections: which section each goes to, in what order, as what text.

Per type, the candidates nous rendered and those its section budget cut
(`budget_truncated`) are read by id and formatted as nous does (`formats`);
a mid-text section's order is nous's, as far as the log tells (`order`); the
procedure candidates go to Recommended Procedures (the graph ladder's
blocks), Known Procedures (the passive list) or, on the passive path with
the Procedure Catalog rendered and critic picks, to the critic's one-line
pointer. Candidates a gate dropped stay out of every section.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ctxtui.engine.packers.nous import budgets as b
from ctxtui.engine.packers.nous import formats as f
from ctxtui.engine.packers.nous.order import Item, disagreements, section_order
from ctxtui.engine.packers.nous.pipeline import order_key, turn_time
from ctxtui.engine.packers.nous.sections import (
    DECISIONS,
    EPISODES,
    FACTS,
    KNOWN,
    LINE,
    MID,
    NONE,
    POINTER,
    RECENT,
    RECOMMENDED,
    TEMPORAL_LEG,
    Section,
    SectionSpec,
    cut,
    text_at,
)
from ctxtui.engine.sources.memory.nous.model import BUDGET_TRUNCATED, RENDERED, Candidate, NousRow

CRITIC_LEG = "context_procedures_critic"  # the passive path's Track A (critic picks), context.py


def row_of(cand: Candidate, rows: Mapping[tuple[str, str], NousRow]) -> tuple[NousRow, bool]:
    """The candidate's row; when it is gone, one rebuilt from the logged 200-character snippet (context.py:52-58)."""
    row = rows.get((cand.type, cand.id))
    if row is not None:
        return row, True
    field_name = {"decision": "description", "fact": "content", "episode": "summary"}.get(cand.type, "name")
    return NousRow(cand.type, cand.id, {field_name: cand.snippet or ""}), False


def pointer_on(logged: Sequence[Candidate], settings: b.NousSettings) -> bool:
    """The passive path, a rendered catalog and at least one rendered critic pick: nous prints the pointer."""
    return (
        settings.procedure_path == b.PROC_LIST
        and settings.catalog
        and any(c.type == "procedure" and c.entry_leg == CRITIC_LEG and c.disposition == RENDERED for c in logged)
    )


def spec_for(cand: Candidate, settings: b.NousSettings, pointer: bool) -> SectionSpec:
    if cand.type == "decision":
        return DECISIONS
    if cand.type == "fact":
        return FACTS
    if cand.type == "procedure":
        if settings.procedure_path == b.PROC_GRAPH:
            return RECOMMENDED
        return POINTER if pointer else KNOWN
    if cand.entry_leg == TEMPORAL_LEG:
        return RECENT
    return EPISODES


def format_item(
    spec: SectionSpec, row: NousRow, position: int, settings: b.NousSettings, first_recent: bool = False
) -> str | None:
    s = settings
    if spec is DECISIONS:
        return f.decision_line(row)
    if spec is FACTS:
        return f.fact_line(row, position, s.fact_max_chars, s.fact_full_top_n)
    if spec is RECOMMENDED:
        return f.procedure_block(row, s.proc_body_max_chars)
    if spec is KNOWN:
        return f.procedure_line(row)
    if spec is POINTER:
        return f"`{' '.join(str(row.get('name', '')).split())}`"
    if spec is RECENT:
        return f.recent_lines(row, s.followup, first_recent, s.parent_episode_truncate)
    return f.episode_line(row)


class SectionBuilder:
    """Builds the sections of one turn; `problem` receives each thing the rebuild cannot do exactly."""

    def __init__(
        self,
        logged: Sequence[Candidate],
        rows: Mapping[tuple[str, str], NousRow],
        settings: b.NousSettings,
        budgets: b.TurnBudgets,
        problem: Callable[[str], None],
        now: str | None = None,
    ) -> None:
        self.logged = logged
        self.rows = rows
        self.settings = settings
        self.budgets = budgets
        self.problem = problem
        self.pointer = pointer_on(logged, settings)
        self.suppressed: set[int] = set()  # passive procedures nous does not search with the catalog on
        self.missing = self.changed = 0
        self.now = turn_time(now)

    def _specs(self) -> list[SectionSpec]:
        if self.settings.procedure_path == b.PROC_GRAPH:
            procedures = RECOMMENDED
        else:
            procedures = POINTER if self.pointer else KNOWN
        return [DECISIONS, FACTS, procedures, RECENT, EPISODES]

    def build(self) -> list[Section]:
        specs = self._specs()
        groups: dict[str, tuple[list[int], list[int]]] = {s.label: ([], []) for s in specs}
        for index, cand in enumerate(self.logged):
            spec = spec_for(cand, self.settings, self.pointer)
            if spec is POINTER and cand.entry_leg != CRITIC_LEG:
                if cand.disposition in (RENDERED, BUDGET_TRUNCATED):
                    self.suppressed.add(index)
                continue
            if cand.disposition == RENDERED:
                groups[spec.label][0].append(index)
            elif cand.disposition == BUDGET_TRUNCATED and spec.rule != NONE:
                groups[spec.label][1].append(index)
        sections = []
        for spec in specs:
            rendered, truncated = groups[spec.label]
            section = self._section(spec, rendered, truncated)
            if section is not None and section.items:
                sections.append(section)
        self._report()
        return sections

    def _key(self, index: int, row: NousRow) -> tuple[float, int]:
        cand = self.logged[index]
        return order_key(cand, row, self.now, critic=cand.entry_leg == CRITIC_LEG)

    def _order(self, spec: SectionSpec, rendered: list[int], truncated: list[int]) -> list[int]:
        log = self.logged
        if spec is RECENT or spec is POINTER:
            # list_episodes' order (the temporal tier's final ranks come from a set); the critic's own order.
            return sorted(rendered, key=lambda i: (log[i].entry_rank or 0, i))
        rendered.sort(key=lambda i: (log[i].final_rank if log[i].final_rank is not None else 10**9, i))
        truncated.sort(key=lambda i: (self._key(i, row_of(log[i], self.rows)[0]), i))
        if spec.rule != MID:
            return rendered + truncated
        items = []
        for i in rendered + truncated:
            row, _ = row_of(log[i], self.rows)
            text = format_item(spec, row, 0, self.settings)
            items.append(
                Item(i, log[i].disposition == RENDERED, log[i].final_rank, self._key(i, row), f.probe_of(row), text)
            )
        return [item.index for item in section_order(items)]

    def _section(self, spec: SectionSpec, rendered: list[int], truncated: list[int]) -> Section | None:
        order = self._order(spec, rendered, truncated)
        section = Section(spec)
        for position, index in enumerate(order):
            cand = self.logged[index]
            row, found = row_of(cand, self.rows)
            if not found:
                self.missing += 1
            elif cand.snippet and (f.content_of(row) or "")[: len(cand.snippet)] != cand.snippet:
                self.changed += 1
            first = spec is RECENT and position == 0 and self.settings.first_turn and self.settings.first_turn_episode
            try:
                text = format_item(spec, row, position, self.settings, first)
            except TypeError:  # a structured summary that is not text: nous's temporal tier fails whole
                self.problem(
                    f"{spec.label}: episode {cand.id}'s structured summary is not text; nous drops the section"
                )
                return None
            section.items.append(index)
            section.texts.append(text)
        if spec is POINTER and section.items:
            names = [str(row_of(self.logged[i], self.rows)[0].get("name", "")) for i in section.items]
            section.texts = [f.critic_pointer(names)] + [None] * (len(section.items) - 1)
        section.finish()
        if spec.rule == MID and section.items:
            self._check(section)
        return section

    def _check(self, section: Section) -> None:
        """nous's 40-character rule on the rebuilt text at the turn's own budget, against the log."""
        fld = section.spec.budget_field
        on = fld is not None and self.budgets.enabled(fld)
        eff = self.budgets.effective(fld) if on and fld else 0
        cut_text = text_at(section, cut(section, eff))
        items = []
        for index, text in zip(section.items, section.texts, strict=True):
            cand = self.logged[index]
            row, _ = row_of(cand, self.rows)
            items.append(
                Item(index, cand.disposition == RENDERED, cand.final_rank, self._key(index, row), f.probe_of(row), text)
            )
        disagreements(items, cut_text, section.spec.label, self.problem)

    def _report(self) -> None:
        if self.missing:
            self.problem(
                f"{self.missing} candidate row{'s are' if self.missing != 1 else ' is'} gone from the memory "
                "tables: rebuilt from the logged 200-character snippet"
            )
        if self.changed:
            self.problem(
                f"{self.changed} candidate row{'s have' if self.changed != 1 else ' has'} changed since the turn: "
                "the rebuild prints today's text"
            )


__all__ = ["LINE", "SectionBuilder", "format_item", "row_of", "spec_for"]

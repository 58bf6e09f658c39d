"""A sort's ordering kept across budget steps orders and filters exactly as the plain path (issue 21, part 4).

The table keeps every row's order per sorted column while the packet order and
the column's values are the same objects (`ordering.Orderings`), reads vectors
in packet order in C (`Segments.gather`) and narrows a kept ordering to a
filter's rows. Each of these is compared with the plain computation for random
inputs: values with ties and None, packet orders made of pieces (ranges, lists,
shifts), subsets of rows in packet order or in an order of the caller's own,
both directions, and walks of budgets that come back to a task count met
before, with a filter and a sort changing on the way.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.ctx.lazy import task_count_of
from ctxtui.engine.packers.ctx.order import Segments, pick
from ctxtui.opening.packer import open_named
from ctxtui.opening.request import PackRequest
from ctxtui.tui.widgets.entries.columns import columns_for
from ctxtui.tui.widgets.entries.ordering import Orderings, in_packet_order
from ctxtui.tui.widgets.entries.rows import RowFilter, ViewRows, rows_from_outcomes, sorted_indices
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import corpus_path, needs_corpus
from tests.factories.memory_dbs import build_native_db

NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)


def plain_order(order, values, indices, reverse):
    """What `rows.sorted_indices` has always given: a stable sort of `indices` by each row's value, the rows
    without one last, both in the order of `indices`."""
    by_row = [values[order[k]] for k in indices]
    present = [k for k, v in zip(indices, by_row, strict=True) if v is not None]
    missing = [k for k, v in zip(indices, by_row, strict=True) if v is None]
    value_of = dict(zip(indices, by_row, strict=True))
    return sorted(present, key=lambda k: value_of[k], reverse=reverse) + missing


@st.composite
def segments(draw, size: int):
    """A permutation of range(size) made of pieces as a ctx packet order is: runs of candidates (ranges), and
    lists shuffled inside, shifted or not (a section's ranking, shifted by where the scored entries start)."""
    cuts = sorted(set(draw(st.lists(st.integers(1, max(1, size - 1)), max_size=6)))) if size > 1 else []
    blocks = [list(range(a, b)) for a, b in zip([0, *cuts], [*cuts, size], strict=True) if a < b]
    pieces = []
    for block in draw(st.permutations(blocks)):
        kind = draw(st.sampled_from(["range", "list", "shift"]))
        if kind == "range":
            pieces.append((range(block[0], block[-1] + 1), 0))
            continue
        shuffled = draw(st.permutations(block))
        shift = block[0] if kind == "shift" else 0
        pieces.append(([c - shift for c in shuffled], shift))
    return Segments(pieces)


values_st = st.one_of(st.none(), st.integers(-3, 3), st.sampled_from([0.0, 0.5, 1.25, 2.0]))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), size=st.integers(0, 40))
def test_gather_reads_a_vector_in_packet_order(data, size):
    order = data.draw(segments(size))
    vector = data.draw(st.lists(values_st, min_size=len(order), max_size=len(order)))
    assert sorted(order) == list(range(size))
    assert list(order.gather(vector)) == [vector[i] for i in order]
    flags = bytearray(data.draw(st.lists(st.integers(0, 1), min_size=len(vector), max_size=len(vector))))
    assert bytes(in_packet_order(flags, order)) == bytes(flags[i] for i in order)
    assert list(pick(vector, list(order))) == [vector[i] for i in order]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), size=st.integers(0, 60), reverse=st.booleans())
def test_kept_ordering_is_the_plain_sort(data, size, reverse):
    """Random values (ties, None, ints or floats), a random packet order, random subsets: the kept
    ordering narrowed to a subset is the plain sort of that subset, however often it is reused."""
    kind = data.draw(st.sampled_from(["segments", "list", "range"]))
    order = {"segments": lambda: data.draw(segments(size)), "list": lambda: data.draw(st.permutations(range(size)))}
    order = order.get(kind, lambda: range(size))()
    values = data.draw(st.lists(values_st, min_size=size, max_size=size))
    orderings = Orderings()
    every = list(range(size))
    for _ in range(3):  # the first computes, the others reuse (the same objects)
        assert list(orderings.every_row("c", order, values, reverse)) == plain_order(order, values, every, reverse)
    again = {Segments: lambda: Segments(list(order.pieces)), range: lambda: range(size)}.get(
        type(order), lambda: list(order)
    )()
    # An equal order and equal values in other objects (a task count that re-ranks to the same order):
    for direction in (reverse, not reverse):
        got = orderings.every_row("c", again, list(values), direction)
        assert list(got) == plain_order(order, values, every, direction)
    changed = list(values)  # another object, maybe another ordering
    if size:
        changed[data.draw(st.integers(0, size - 1))] = data.draw(values_st)
    assert list(orderings.every_row("c", order, changed, reverse)) == plain_order(order, changed, every, reverse)


def _filter_and_sort(rows, row_filter, column, reverse, columns):
    return sorted_indices(rows, row_filter.apply(rows), column, reverse, columns)


@cache
def _packer():
    folder = Path(tempfile.mkdtemp(prefix="ctxtui-kept-orderings-"))
    db = build_native_db(folder / "m.db", 300, 7, NOW)  # archived and superseded ones among them
    request = PackRequest(packer="ctx-0.8.1", project=str(corpus_path("ctx-large")), db=str(db), now=NOW.isoformat())
    return open_named("ctx-0.8.1", request).packer


FILTERS = [
    RowFilter(),
    RowFilter(text="a"),
    RowFilter(text="fits"),
    RowFilter(fates=frozenset({Fate.DROPPED})),
    RowFilter(fates=frozenset({Fate.INCLUDED, Fate.SUMMARIZED})),
    RowFilter(sections=frozenset({"decisions", "learnings"})),
    RowFilter(text="e", fates=frozenset({Fate.SUMMARIZED})),
]


@needs_corpus
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    walk=st.lists(
        st.tuples(
            st.integers(0, 9000),
            st.sampled_from(range(len(FILTERS))),
            st.sampled_from(
                [None, "score", "relevance", "age", "recency", "usage", "title", "tokens", "fate", "reason"]
            ),
            st.booleans(),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_a_walk_of_steps_filters_and_sorts_as_the_rows_built_from_every_outcome(walk):
    """Budgets up and down (task counts met again, kept orderings reused), a filter and a sort per step:
    the table's path gives the rows and order of the rows built from every outcome."""
    packer = _packer()
    columns = columns_for(packer.name)
    for budget, which, column, reverse in walk:
        plan = packer.plan(budget)
        lazy = ViewRows(plan, columns)
        eager = rows_from_outcomes(packer.plan(budget).outcomes, columns)
        row_filter = FILTERS[which]
        got = _filter_and_sort(lazy, row_filter, column, reverse, columns)
        assert got == _filter_and_sort(eager, row_filter, column, reverse, columns), (budget, row_filter, column)
        assert not lazy.complete


@needs_corpus
def test_a_score_sort_is_not_redone_while_the_task_count_stays(monkeypatch):
    """Two budgets with the same packet task count share the packet order and the score vector, so the
    second step's sort by score reuses the first's ordering (the whole sort was redone on every step)."""
    from ctxtui.tui.widgets.entries import ordering

    packer = _packer()
    plans = [packer.plan(budget) for budget in range(20000, 20400, 40)]
    same = [(a, b) for a, b in pairwise(plans) if task_count_of(a.state) == task_count_of(b.state)]
    assert same, "no two budgets with the same task count"
    first, second = same[0]
    assert packer.component_vector(first, "score") is packer.component_vector(second, "score")
    assert first.order is second.order
    columns = columns_for(packer.name)
    sorts = []
    real = ordering.order_every_row
    monkeypatch.setattr(ordering, "order_every_row", lambda *a: sorts.append(1) or real(*a))
    for plan in (first, second):
        rows = ViewRows(plan, columns)
        assert sorted_indices(rows, RowFilter().apply(rows), "score", True, columns) == sorted_indices(
            rows_from_outcomes(plan.outcomes, columns), list(range(len(rows))), "score", True, columns
        )
    assert len(sorts) <= 1


@needs_corpus
@pytest.mark.parametrize("reverse", [False, True])
def test_rows_in_an_order_of_the_callers_own_keep_it_for_ties(reverse):
    """`sorted_indices` with indices not in packet order: ties keep the order given, as the plain sort does."""
    packer = _packer()
    columns = columns_for(packer.name)
    plan = packer.plan(3000)
    rows = ViewRows(plan, columns)
    eager = rows_from_outcomes(plan.outcomes, columns)
    indices = list(range(len(rows)))[::-1][::2]
    for column in ("tokens", "fate", "score", "section"):
        assert sorted_indices(rows, indices, column, reverse, columns) == sorted_indices(
            eager, indices, column, reverse, columns
        )

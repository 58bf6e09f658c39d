"""Properties of the Shabka packer on random stores: the outcomes and the printed packet tell one story.

- every packed memory's block is in the text, in rank order, and nothing else is;
- the header's count and tokens are the packed entries' count and summed costs, within the budget, and the
  first unpacked ranked memory would not have fit;
- the JSON lists exactly the packed memories, with the same total;
- one outcome per candidate, unique keys, fates as the fate vector says;
- fates hold from a budget up to `next_change`, and change there; the pack only grows with the budget.
"""

from __future__ import annotations

import json
import random
import re
import tempfile
from pathlib import Path

from ctxtui.engine.fate import Fate
from ctxtui.engine.packers.base import INCLUDED
from ctxtui.engine.packers.shabka.dates import parse_rfc3339
from ctxtui.engine.packers.shabka.fates import ShabkaReason
from ctxtui.engine.packers.shabka.knobs import ShabkaSettings
from ctxtui.engine.packers.shabka.packer import ShabkaPacker
from ctxtui.engine.packers.shabka.rank import WHITE_SPACE
from ctxtui.engine.sources.memory.shabka.store import read_shabka_store
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories.shabka_dbs import NOWS, random_spec, write_spec

QUERIES = st.sampled_from(["", "sqlite storage", "sqlte", "*", "a", "retry bug", "日本", "   "])


def packer_for(seed: int, odd: bool, query: str, user: str, tags: tuple[str, ...], project: str | None):
    rng = random.Random(seed)
    spec = random_spec(rng, rng.choice([1, 5, 20, 60]), odd=odd)
    with tempfile.TemporaryDirectory() as tmp:
        store = read_shabka_store(write_spec(Path(tmp) / "s.db", spec))
    settings_ = ShabkaSettings(now=parse_rfc3339(rng.choice(NOWS)), query=query, project=project, tags=tags, user=user)
    return ShabkaPacker(store, settings_)


STORES = st.builds(
    packer_for,
    st.integers(0, 10_000),
    st.booleans(),
    QUERIES,
    st.sampled_from(["alice", "bob", "carol"]),
    st.sampled_from([(), ("db",), ("rust", "x")]),
    st.sampled_from([None, None, "proj", ""]),
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(STORES, st.integers(0, 3000))
def test_the_text_holds_the_packed_memories_and_nothing_else(packer, budget):
    plan = packer.plan(budget)
    text = plan.render("md")
    entries = packer.candidates()
    packed = [o.entry for o in plan.outcomes if o.fate is Fate.INCLUDED]
    if packer.failure is not None or not packed:
        assert text == "" and packer.stderr(plan)[0] != ""
        return
    assert packed == list(entries[: len(packed)])  # the ranked come first, in rank order
    header = re.match(r"# Project Context: (.*) \((\d+) memories, ~(\d+) tokens\)\n\n", text)
    assert header and int(header.group(2)) == len(packed)
    assert int(header.group(3)) == plan.tokens_used == sum(e.tokens for e in packed) <= budget
    # the text is the header and exactly these blocks: nothing unpacked can hide in it
    body = "".join(("---\n\n" if i else "") + e.text + "\n\n" for i, e in enumerate(packed))
    assert text == (header.group(0) + body).rstrip(WHITE_SPACE) + "\n"
    for outcome in plan.outcomes:
        if outcome.reason is ShabkaReason.MISFIT:
            assert outcome.entry.tokens > budget - plan.tokens_used


@SETTINGS
@given(STORES, st.integers(0, 3000))
def test_the_json_lists_exactly_the_packed_memories(packer, budget):
    plan = packer.plan(budget)
    text = plan.render("json")
    packed = [r for r in packer.ranked[: plan.state]]
    if packer.failure is not None or not packed:
        assert text == ""
        return
    data = json.loads(text)
    assert [m["id"] for m in data["memories"]] == [r.memory.id for r in packed]
    assert data["total_tokens"] == plan.tokens_used and data["budget"] == budget
    assert data["project_id"] == packer.settings.project


@SETTINGS
@given(STORES, st.integers(0, 3000))
def test_one_outcome_per_candidate_and_fates_as_the_vector_says(packer, budget):
    plan = packer.plan(budget)
    entries = packer.candidates()
    outcomes = plan.outcomes
    assert [o.entry for o in outcomes] == list(entries)
    assert len({e.key for e in entries}) == len(entries)
    vector = packer.fate_vector(plan)
    assert [b == INCLUDED for b in vector] == [o.fate is Fate.INCLUDED for o in outcomes]
    assert all((o.fate is Fate.INCLUDED) == (o.reason is ShabkaReason.PACKED) for o in outcomes)
    keyed = {o.entry.key for o in outcomes}
    assert {h.key for h in packer.hits} <= keyed and len(packer.hits) <= 50


@SETTINGS
@given(STORES, st.integers(0, 3000))
def test_fates_hold_until_next_change_and_grow_with_the_budget(packer, budget):
    plan = packer.plan(budget)
    following = packer.next_change(plan)
    if following is None:
        assert packer.plan(budget + 10_000).state == plan.state
        return
    assert following > budget
    assert packer.fate_vector(packer.plan(following - 1)) == packer.fate_vector(plan)
    assert packer.plan(following).state == plan.state + 1
    assert packer.plan(budget + 1).state >= plan.state

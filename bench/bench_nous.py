"""nous benchmarks: a throwaway PostgreSQL with 50,000 memories; load, poll, read a turn, and recompute.

Prints figures; it asserts nothing. Run with `.venv/bin/python bench/bench_nous.py`
(optionally `--n 10000 --samples 200`). Targets: a budget recompute
(`packer.plan(b)` at a random budget: the slider's cost) ≤ 30 ms at the
median, for the nous packer and for ctx packets joined to 50,000 nous
memories. The server is tests/pg.py's (pgserver's PostgreSQL 16 as
`nobody`), so the start-up cost is measured too.

The nous packer's candidates are one turn's logged candidates, which nous
caps at 300 (`retrieval_telemetry_max_candidates`); the recompute is timed
for such a turn and for a synthetic turn of all 50,000 memories (the
packer's cost grows with candidates, never with the store).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ctxtui.engine.packers.ctx.assemble import packer_for  # noqa: E402
from ctxtui.engine.packers.ctx.memories import attach_memories  # noqa: E402
from ctxtui.engine.packers.nous.build import packer_for_turn  # noqa: E402
from ctxtui.engine.sources.memory.nous.source import NousSource, list_turns, load_nous_memories, read_turn  # noqa: E402
from ctxtui.engine.sources.workspace import load_workspace  # noqa: E402
from tests.factories import nous_db as F  # noqa: E402
from tests.factories.workspace import write_workspace  # noqa: E402
from tests.pg import NousDb, PgUnavailable, start_cluster  # noqa: E402

TARGET_S = 0.030
NOW = datetime(2026, 9, 1, tzinfo=UTC)
CORPUS = Path(os.environ.get("CTXTUI_CORPUS", ROOT.parent / "shared" / "corpus"))
CORPUS_NOW = datetime(2026, 11, 21, 23, 56, 8, tzinfo=UTC)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    return f"median {ms(statistics.median(times))}, p95 {ms(ordered[int(len(times) * 0.95)])}, max {ms(ordered[-1])}"


def timed(call, runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        out.append(time.perf_counter() - start)
    return out


def verdict(times: list[float]) -> str:
    return "met" if statistics.median(times) <= TARGET_S else "MISSED"


def seed_turns(db: NousDb, counts: dict[str, int], turns: int, per_turn: int) -> None:
    """`turns` logged turns, one in ten sampled with `per_turn` candidates drawn from the bulk memories."""
    rng = random.Random(3)
    with db.connect() as conn:
        for t in range(1, turns + 1):
            at = F.T0 + (t * (F.T0 - F.T0.replace(hour=9)) / 60)
            F.add_call(conn, f"c{t:06d}", turn=t, at=at, tokens={"identity": 200, "relevant_facts": 900})
            candidates = None
            if t % 10 == 0:
                candidates = []
                for i in range(per_turn):
                    table = rng.choice(("decisions", "facts", "facts", "procedures", "episodes"))
                    mem_type = table[:-1]
                    n = rng.randint(1, counts[table])
                    rendered = rng.random() < 0.6
                    candidates.append(
                        F.candidate(
                            F.bulk_uuid(table, n),
                            mem_type,
                            "rendered" if rendered else "sliced_off",
                            final_rank=i + 1 if rendered else None,
                            entry_rank=i + 1,
                            leg="context_procedures_ladder" if mem_type == "procedure" else None,
                        )
                    )
            F.add_retrieval(conn, f"r{t:06d}", turn=t, at=at, candidates=candidates)


def recompute(packer, samples: int, label: str) -> None:
    rng = random.Random(7)
    budgets = [rng.randint(0, 2 * max(1, packer.default_budget)) for _ in range(samples)]
    plans = timed(lambda: packer.plan(budgets[rng.randrange(samples)]), samples)
    outcomes = timed(lambda: packer.plan(budgets[rng.randrange(samples)]).outcomes, samples)
    print(f"  {label}: {len(packer.candidates()):,} candidates, default budget {packer.default_budget:,}")
    print(f"    plan(b), {samples} random budgets: {spread(plans)} (target median ≤ {ms(TARGET_S)}: {verdict(plans)})")
    print(f"    plan(b) + every outcome: {spread(outcomes)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--turns", type=int, default=2000, help="logged turns (one in ten sampled)")
    args = parser.parse_args()

    start = time.perf_counter()
    try:
        cluster = start_cluster()
    except PgUnavailable as exc:
        print(f"skipped: {exc}")
        return
    server = cluster.server
    print(
        f"PostgreSQL ({server.backend.name}, pgvector={'yes' if server.backend.has_vector else 'stand-in'}): "
        f"initdb {server.timings['initdb']:.2f} s, start {server.timings['start']:.2f} s, schema + roles "
        f"{server.timings['schema']:.2f} s; ready in {time.perf_counter() - start:.2f} s"
    )
    try:
        start = time.perf_counter()
        db = NousDb(cluster, cluster.new_database())
        clone = time.perf_counter() - start
        start = time.perf_counter()
        with db.connect() as conn:
            counts = F.bulk_memories(conn, args.n)
        seed_turns(db, counts, args.turns, 300)
        print(
            f"database per test (CREATE DATABASE … TEMPLATE): {ms(clone)}; {args.n:,} memories "
            f"({', '.join(f'{k} {v:,}' for k, v in counts.items())}) and {args.turns:,} turns seeded in "
            f"{time.perf_counter() - start:.2f} s"
        )

        loads = timed(lambda: load_nous_memories(db.url, now=NOW), args.runs)
        print(
            f"load {args.n:,} memories (connect, read four tables, build records): median "
            f"{statistics.median(loads):.3f} s, min {min(loads):.3f} s"
        )
        lists = timed(lambda: list_turns(db.url, limit=50), args.runs)
        print(
            f"list the newest 50 of {args.turns:,} turns (one-shot: connect, check the schema, query): median "
            f"{ms(statistics.median(lists))}"
        )
        newest = list_turns(db.url, limit=50)[1]
        key = next(t.key for t in newest if t.sampled)
        reads = timed(lambda: read_turn(db.url, key), args.runs)
        print(f"read one sampled turn and its 300 candidates' rows (one-shot): median {ms(statistics.median(reads))}")

        with NousSource(db.url) as source:
            source.load(NOW)
            source.turns()
            listed = timed(lambda: source.turns(50), args.runs * 4)
            opened = timed(lambda: source.turn(key), args.runs * 4)
            print(
                f"through the live source's open connection: list 50 turns median "
                f"{ms(statistics.median(listed))}, read one turn median {ms(statistics.median(opened))}"
            )
            idle = timed(source.changed, 200)
            idle_turns = timed(source.turns_changed, 200)
            with db.connect() as conn:
                F.add_call(conn, "elsewhere", session="other", at=NOW)
            after = timed(lambda: (source.__setattr__("_snapshot", "stale"), source.changed()), 20)
        print(
            f"live poll (NousSource.changed), nothing committed: median {statistics.median(idle) * 1e3:.2f} ms "
            f"(one snapshot query); turns_changed {statistics.median(idle_turns) * 1e3:.2f} ms; after a commit "
            f"elsewhere (counts + newest row version of the agent's {args.n:,} rows): "
            f"median {ms(statistics.median(after))}"
        )

        turn, rows = read_turn(db.url, key)
        packer, _ = packer_for_turn(turn, rows, {})
        print("recompute, nous packer:")
        recompute(packer, args.samples, f"turn {key} (nous's candidate cap)")
        big = bulk_turn(turn, counts)
        start = time.perf_counter()
        big_rows = fetch_all_rows(db, counts)
        fetched = time.perf_counter() - start
        start = time.perf_counter()
        big_packer, _ = packer_for_turn(big, big_rows, {})
        print(
            f"  a synthetic turn of all {args.n:,} memories: rows read in {fetched:.2f} s, packer built in "
            f"{time.perf_counter() - start:.2f} s"
        )
        recompute(big_packer, args.samples, "all memories as candidates")

        joined_recompute(db, args.samples)
    finally:
        server.stop()


def bulk_turn(turn, counts):
    """The same turn with every bulk memory as a rendered candidate."""
    from dataclasses import replace

    from ctxtui.engine.sources.memory.nous.model import Candidate

    cands, rank = [], 0
    for table, n in counts.items():
        for i in range(1, n + 1):
            rank += 1
            cands.append(
                Candidate(
                    F.bulk_uuid(table, i),
                    table[:-1],
                    "context_procedures_ladder" if table == "procedures" else f"context_{table}",
                    0.5,
                    rank,
                    None,
                    rank,
                    "rendered",
                    "final",
                )
            )
    return replace(turn, retrieval=replace(turn.retrieval, candidates=tuple(cands)))


def fetch_all_rows(db: NousDb, counts):
    from ctxtui.engine.sources.memory.nous.store import NousStore

    store = NousStore(db.url, statement_timeout_ms=120_000)
    try:
        refs = [(table[:-1], F.bulk_uuid(table, i)) for table, n in counts.items() for i in range(1, n + 1)]
        return store.read(lambda cur: store.rows(cur, refs))
    finally:
        store.close()


def joined_recompute(db: NousDb, samples: int) -> None:
    project = CORPUS / "ctx-large"
    if (project / ".context").is_dir():
        label, now, root = "ctx-large", CORPUS_NOW, project
        workspace = load_workspace(project)
    else:
        import tempfile

        root = Path(tempfile.mkdtemp(prefix="ctxtui-bench-"))
        write_workspace(root)
        label, now = "a generated workspace", NOW
        workspace = load_workspace(root)
    start = time.perf_counter()
    attach_memories(workspace, db.url, now=now)
    joined = time.perf_counter() - start
    engine = packer_for(workspace, now=now, root_path="/project")
    rng = random.Random(9)
    budgets = [rng.randint(0, 200_000) for _ in range(samples + 50)]
    for budget in budgets[:50]:
        engine.plan(budget).outcomes  # noqa: B018 - warm-up, as bench_memory does
    times = [0.0] * samples
    for i, budget in enumerate(budgets[50:]):
        start = time.perf_counter()
        engine.plan(budget)
        times[i] = time.perf_counter() - start
    print(
        f"recompute, ctx packet ({label}) joined to {len(workspace.memories):,} nous memories "
        f"(read + join {joined:.2f} s): {spread(times)} (target median ≤ {ms(TARGET_S)}: {verdict(times)})"
    )


if __name__ == "__main__":
    main()

"""Record what Shabka prints for the test stores: `expected/<store>.json`, one file per store.

Needs the oracle (a build of Shabka's own `cmd_context_pack`; it is not part
of this repository):

    SHABKA_ORACLE=/path/to/shabka-context-pack python -m tests.packers.shabka.make_expected

Each store is built by `tests.factories.shabka_dbs` — a named case from
`cases.py`, or `random_spec(Random(seed), n, odd=...)` — and every command
line is run through the oracle with SHABKA_USER and SHABKA_NOW set. For an
exit 0 the stderr recorded is Shabka's last line (its log lines carry
timestamps); for an exit 1, the first line of its error report.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.factories.shabka_dbs import NOWS, random_args, random_spec, write_spec
from tests.packers.shabka.cases import CASES, NOW

HERE = Path(__file__).resolve().parent
EXPECTED = HERE / "expected"
RANDOM_STORES = 48  # of each flavour: ordinary and odd
RUNS_PER_STORE = 6


def random_store(seed: int, odd: bool) -> tuple[dict[str, Any], list[tuple[list[str], str, str]]]:
    """The spec of random store `seed` and its command lines (args, user, now)."""
    rng = random.Random(seed * 2 + odd)
    spec = random_spec(rng, rng.choice([1, 3, 8, 20, 40, 70]), odd=odd)
    runs = [(random_args(rng), rng.choice(["alice", "bob", "carol"]), rng.choice(NOWS)) for _ in range(RUNS_PER_STORE)]
    return spec, runs


def named_store(name: str) -> tuple[dict[str, Any], list[tuple[list[str], str, str]]]:
    case = CASES[name]
    spec = {"memories": case["memories"], "relations": case.get("relations", []), "sql": case.get("sql", [])}
    return spec, [(args, user, NOW) for user in case.get("users", ["alice"]) for args in case["runs"]]


def stores() -> list[tuple[str, dict[str, Any]]]:
    """Every expected file's name and how its store is built."""
    named = [(name, {"case": name}) for name in CASES]
    randoms = [
        (f"random-{'odd' if odd else 'plain'}-{seed:02d}", {"seed": seed, "odd": odd})
        for odd in (False, True)
        for seed in range(RANDOM_STORES)
    ]
    return named + randoms


def store_of(how: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[list[str], str, str]]]:
    return named_store(how["case"]) if "case" in how else random_store(how["seed"], how["odd"])


def run_oracle(db: Path, args: list[str], user: str, now: str) -> dict[str, Any]:
    env = dict(os.environ, SHABKA_DB=str(db), SHABKA_USER=user, SHABKA_NOW=now, RUST_BACKTRACE="0")
    done = subprocess.run([os.environ["SHABKA_ORACLE"], *args], env=env, capture_output=True)
    err = done.stderr.decode("utf-8", "replace")
    lines = err.split("\n")
    kept = lines[0] if done.returncode else (lines[-2] + "\n" if len(lines) > 1 else "")
    return {
        "args": args,
        "user": user,
        "now": now,
        "exit": done.returncode,
        "stdout": done.stdout.decode("utf-8"),
        "stderr": kept,
    }


def main() -> int:
    EXPECTED.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, how in stores():
            spec, runs = store_of(how)
            db = write_spec(Path(tmp) / f"{name}.db", spec)
            record = {"store": how, "runs": [run_oracle(db, *run) for run in runs]}
            (EXPECTED / f"{name}.json").write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n")
            print(name, len(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

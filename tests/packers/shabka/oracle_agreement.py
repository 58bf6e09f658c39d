"""Differential run against Shabka's own code: random stores, random command lines, byte for byte.

Not a pytest module: it needs the oracle (a build of Shabka's `cmd_context_pack`
with its real ranking, storage and embedder; see the notes) and, for the
cross-check of the factory, the oracle's seeder, which writes a spec through
Shabka's own `save_memory`. Usage:

    SHABKA_ORACLE=/path/to/shabka-context-pack [SHABKA_SEEDER=/path/to/shabka-oracle-seed] \\
        python -m tests.packers.shabka.oracle_agreement N_DBS SEED [--odd]

For every store: stdout and exit status must match, and for exit 0 stderr too
(Shabka's own log lines aside); for exit 1 the first line of the error.
With a seeder, each spec is also written by Shabka and by `write_spec`, and
the two stores must hold the same rows.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.factories.shabka_dbs import NOWS, random_args, random_spec, write_spec
from tests.packers.shabka.harness import run_packer

TABLES = {
    "memories": "SELECT * FROM memories ORDER BY rowid",
    "embeddings": "SELECT rowid, * FROM embeddings ORDER BY rowid",
    "relations": "SELECT source_id, target_id, relation_type, strength FROM relations ORDER BY id",
}


def oracle(db: Path, args: list[str], user: str, now: str) -> tuple[bytes, bytes, int]:
    env = dict(os.environ, SHABKA_DB=str(db), SHABKA_USER=user, SHABKA_NOW=now, RUST_BACKTRACE="0")
    done = subprocess.run([os.environ["SHABKA_ORACLE"], *args], env=env, capture_output=True)
    return done.stdout, done.stderr, done.returncode


def agrees(expected: tuple[bytes, bytes, int], ours: tuple[str, str, int]) -> bool:
    out, err, code = expected
    if code != ours[2] or out != ours[0].encode():
        return False
    if code == 0:
        return err == ours[1].encode()
    return err.decode(errors="replace").split("\n")[0] == ours[1].split("\n")[0]


def rows(db: Path) -> dict[str, list]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {name: conn.execute(sql).fetchall() for name, sql in TABLES.items()}
    finally:
        conn.close()


def main(argv: list[str]) -> int:
    n_dbs, seed, odd = int(argv[0]), int(argv[1]), "--odd" in argv
    rng = random.Random(seed)
    tmp = Path(tempfile.mkdtemp(prefix="shabka-agreement-"))
    seeder = os.environ.get("SHABKA_SEEDER")
    runs = failures = same_stores = 0
    for d in range(n_dbs):
        spec = random_spec(rng, rng.choice([1, 3, 8, 20, 40, 70]), odd=odd)
        ours_db = write_spec(tmp / f"f{d}.db", spec)
        if seeder:
            spec_path = tmp / f"s{d}.json"
            spec_path.write_text(json.dumps(spec))
            theirs_db = tmp / f"o{d}.db"
            subprocess.run([seeder, str(theirs_db), str(spec_path)], check=True, capture_output=True)
            if rows(theirs_db) == rows(ours_db):
                same_stores += 1
            else:
                print(f"STORES DIFFER: {theirs_db} {ours_db}")
        for _ in range(8):
            args, user, now = random_args(rng), rng.choice(["alice", "bob", "carol"]), rng.choice(NOWS)
            runs += 1
            expected = oracle(ours_db, args, user, now)
            ours = run_packer(ours_db, args, user, now)
            if not agrees(expected, ours):
                failures += 1
                print(f"MISMATCH {ours_db} {args!r} user={user} now={now}")
                print("  shabka:", expected[2], expected[0][:400], expected[1][:300])
                print("  ctxtui:", ours[2], ours[0][:400].encode(), ours[1][:300])
    print(
        f"{runs - failures} of {runs} runs agree on {n_dbs} stores"
        + (f"; {same_stores} of {n_dbs} stores written alike by Shabka and the factory" if seeder else "")
        + f" (stores in {tmp})"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

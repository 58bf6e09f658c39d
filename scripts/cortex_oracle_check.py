#!/usr/bin/env python3
"""Compare the cortex packer with a real `drift memory why` on random Cortex v1 stores, and record fixtures.

The oracle is not part of this repository: point `--oracle` (or
$CORTEX_ORACLE) at a script that runs Cortex's own code as
`ORACLE DB FOCUS INTENT MAX_TOKENS FORMAT` ("-" leaves an option out) and
honours CORTEX_NOW, CORTEX_RETRIEVAL_TIME, CORTEX_EMBED and CORTEX_TZ.
Stores come from `tests.factories.cortex_v1.random_store(seed)`.

    .venv/bin/python scripts/cortex_oracle_check.py --seeds 0:400
    .venv/bin/python scripts/cortex_oracle_check.py --seeds 0:120 --record tests/packers/cortex/cases/random.json
    .venv/bin/python scripts/cortex_oracle_check.py --cases tests/packers/cortex/cases   # re-record hand cases

Hand cases: `manifest.json` lists runs over the stores in `rows/<db>.json`
(column dicts, inserted in order; a db named "*-analyzed" is ANALYZEd);
their stdout goes to `out/<name>.stdout`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ctxtui.engine.packers.cortex import CortexPacker  # noqa: E402
from ctxtui.engine.sources.memory.cortex.v1_store import read_cortex_store  # noqa: E402
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError  # noqa: E402
from tests.factories.cortex_v1 import NOW, NOW_ISO, build_v1_db, random_store  # noqa: E402

RETRIEVAL_TIME = 1


def ours(db: Path | None, settings: dict) -> str:
    store = None
    if db is not None:
        try:
            store = read_cortex_store(db)
        except MemorySourceError:
            store = None
    zone = ZoneInfo(settings["tz"])
    packer = CortexPacker(
        store,
        focus=settings["focus"],
        intent=settings["intent"],
        now=NOW,
        zone=zone,
        retrieval_time=RETRIEVAL_TIME,
        embedding=settings["embedding"],
    )
    budget = 2000 if settings["budget"] is None else settings["budget"]
    return packer.plan(budget).render("json" if settings["format"] == "json" else "md")


def theirs(oracle: str, db: Path, settings: dict) -> str:
    env = dict(
        os.environ,
        CORTEX_NOW=NOW_ISO,
        CORTEX_RETRIEVAL_TIME=str(RETRIEVAL_TIME),
        CORTEX_TZ=settings["tz"],
        CORTEX_EMBED="embed-throws" if settings["embedding"] == "fails" else "model",
    )
    env.pop("FORCE_COLOR", None)
    budget = "-" if settings["budget"] is None else str(settings["budget"])
    run = subprocess.run(
        [oracle, str(db), settings["focus"], settings["intent"], budget, settings["format"]],
        env=env,
        capture_output=True,
        check=False,
    )
    return run.stdout.decode("utf-8")


def record_cases(oracle: str, folder: Path) -> int:
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "out").mkdir(exist_ok=True)
    same = 0
    with tempfile.TemporaryDirectory() as tmp:
        for case in manifest:
            db = Path(tmp) / f"{case['name']}.db"
            rows = json.loads((folder / "rows" / f"{case['db']}.json").read_text())
            build_v1_db(db, rows, analyze=case["db"].endswith("-analyzed"))
            env = dict(
                os.environ,
                CORTEX_NOW=case["now"],
                CORTEX_RETRIEVAL_TIME="3",
                CORTEX_TZ=case["tz"],
                CORTEX_EMBED={"fails": "embed-throws", "absent": "absent"}.get(case["embedding"], "model"),
            )
            env.pop("FORCE_COLOR", None)
            argv = [
                oracle,
                str(db),
                case["focus"],
                "-" if case["intent"] is None else case["intent"],
                "-" if case["max_tokens"] is None else case["max_tokens"],
                case["format"],
            ]
            out = subprocess.run(argv, env=env, capture_output=True, check=False).stdout
            target = folder / "out" / f"{case['name']}.stdout"
            same += target.exists() and target.read_bytes() == out
            target.write_bytes(out)
    print(f"recorded {len(manifest)} cases ({same} unchanged)")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--oracle", default=os.environ.get("CORTEX_ORACLE", "/work/oracles/bin/cortex-why"))
    parser.add_argument("--seeds", default="0:200", help="START:STOP")
    parser.add_argument("--record", help="write {seed, settings, stdout} of every seed to this JSON file")
    parser.add_argument("--keep", help="directory to keep the databases of mismatches in")
    parser.add_argument("--cases", help="re-record the hand cases of this folder instead")
    args = parser.parse_args()
    if args.cases:
        return record_cases(args.oracle, Path(args.cases))
    start, stop = (int(x) for x in args.seeds.split(":"))
    same = differ = errors = 0
    recorded = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(start, stop):
            rows, settings = random_store(seed)
            db = build_v1_db(Path(tmp) / f"{seed}.db", rows)
            want = theirs(args.oracle, db, settings)
            got = ours(db, settings)
            if want.startswith('{"error"') or want.startswith("Error:"):
                errors += 1
            if got == want:
                same += 1
            else:
                differ += 1
                print(f"seed {seed}: differs ({settings})")
                if args.keep:
                    keep = Path(args.keep)
                    keep.mkdir(parents=True, exist_ok=True)
                    db.replace(keep / f"{seed}.db")
                    (keep / f"{seed}.want").write_text(want)
                    (keep / f"{seed}.got").write_text(got)
            recorded.append({"seed": seed, "settings": settings, "stdout": want})
    print(
        f"{same} identical, {differ} different, of {stop - start} random stores "
        f"({errors} where the CLI printed an error line)"
    )
    if args.record:
        Path(args.record).write_text(json.dumps(recorded, ensure_ascii=False, indent=1) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

"""The packer prints what Shabka printed, byte for byte, for 106 stores and 620 command lines.

`expected/` holds Shabka's own output (recorded by `make_expected.py` with a
build of Shabka's `cmd_context_pack`) for named stores (`cases.py`) and for
random ones, ordinary and odd; each store is rebuilt here by the factory.
Exit 0: stdout and the stderr line must match; exit 1: the exit status and
the first line of the error report.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.factories.shabka_dbs import write_spec
from tests.packers.shabka.harness import run_packer
from tests.packers.shabka.make_expected import EXPECTED, store_of

FILES = sorted(EXPECTED.glob("*.json"))


def test_every_expected_store_is_recorded():
    from tests.packers.shabka.make_expected import stores

    assert {f"{name}.json" for name, _ in stores()} == {f.name for f in FILES}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_output_matches_shabka(path: Path, tmp_path: Path):
    record = json.loads(path.read_text())
    spec, runs = store_of(record["store"])
    db = write_spec(tmp_path / "shabka.db", spec)
    assert [[r["args"], r["user"], r["now"]] for r in record["runs"]] == [list(run) for run in runs]
    for expected in record["runs"]:
        out, err, code = run_packer(db, expected["args"], expected["user"], expected["now"])
        where = f"{path.stem} {expected['args']!r} user={expected['user']} now={expected['now']}"
        assert code == expected["exit"], where
        assert out == expected["stdout"], where
        if code == 0:
            assert err == expected["stderr"], where
        else:
            assert err.split("\n")[0] == expected["stderr"], where

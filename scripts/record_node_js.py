#!/usr/bin/env python3
"""Record what Node prints for the JavaScript semantics ctxtui reproduces (`ctxtui/engine/text/js/`).

Inputs are generated here (seeded); Node (20.x: V8 11.3, the version Cortex's
oracle runs) computes the outputs; both go to
`tests/packers/cortex/cases/node20-js.json`, which `test_js.py` replays.

    .venv/bin/python scripts/record_node_js.py [--node node]
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "tests" / "packers" / "cortex" / "cases" / "node20-js.json"

NODE_SCRIPT = r"""
const fs = require('fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const num = v => Number.isNaN(v) ? 'NaN' : (Object.is(v, -0) ? '-0' : String(v));
const f64 = h => { const b = Buffer.from(h, 'hex'); return b.readDoubleBE(0); };
const out = {version: process.version};
out.numbers = input.numbers.map(h => {
  const x = f64(h); return [h, String(x), JSON.stringify(x), (x * 100).toFixed(0)];
});
out.parse_int = input.strings.map(s =>
  [s, num(parseInt(s, 10)), num(Number(s)), JSON.stringify(s.split(/\s+/)), s.trim()]);
out.json_errors = input.json.map(s => {
  try { JSON.parse(s); return [s, null]; } catch (e) { return [s, String(e)]; }
});
out.quote = input.quote.map(s => [s, JSON.stringify(s)]);
out.dates = {};
for (const tz of input.zones) {
  process.env.TZ = tz;
  out.dates[tz] = input.dates.map(s => { const v = new Date(s).getTime(); return [s, Number.isNaN(v) ? 'NaN' : v]; });
}
out.math = input.math.map(([f, a, b]) => {
  const x = f === 'exp' ? Math.exp(a) : f === 'log10' ? Math.log10(a) : Math.pow(a, b);
  return [f, a, b, Number.isNaN(x) ? null : x];
});
out.case = input.case.map(s => [s, s.toLowerCase(), s.toUpperCase()]);
process.stdout.write(JSON.stringify(out));
"""


def doubles(rng: random.Random) -> list[str]:
    out = []
    for _ in range(3000):
        kind = rng.random()
        if kind < 0.4:
            x = rng.random() * 2
        elif kind < 0.6:
            x = rng.uniform(-1e25, 1e25)
        elif kind < 0.7:
            x = float(rng.randint(-(10**6), 10**6)) / rng.choice([1, 2, 4, 8, 10, 100, 1000])
        else:
            out.append(f"{rng.getrandbits(64):016x}")
            continue
        out.append(struct.pack(">d", x).hex())
    out += [
        struct.pack(">d", x).hex()
        for x in (0.0, -0.0, 1e21, 1e-7, 1.5e-7, 123e-9, 0.125, 0.005, 1.005, 2.5, -2.5, 0.5, -0.4, 1e300, 5e-324)
    ]
    return [h for h in out if h[:3] not in ("7ff", "fff") or h in ("7ff0000000000000", "fff0000000000000")]


def strings(rng: random.Random) -> list[str]:
    parts = [
        "0",
        "1",
        "9",
        ".",
        "e",
        "E",
        "+",
        "-",
        "x",
        "X",
        "o",
        "b",
        "a",
        "f",
        " ",
        "\t",
        "\u00a0",
        "\ufeff",
        "\u2028",
        "Infinity",
        "_",
        "1e3",
        "0x1F",
        "0b101",
        "12.5",
        "  60px",
        "\u0661",
        "\x1c",
        "\x85",
    ]
    return ["".join(rng.choice(parts) for _ in range(rng.randint(0, 6))) for _ in range(2000)]


def json_texts(rng: random.Random) -> list[str]:
    atoms = [
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        '"a"',
        '"',
        "1",
        "-",
        "0",
        "01",
        "1.",
        "1e",
        "1e+",
        "tru",
        "true",
        "null",
        "x",
        " ",
        "\\",
        '"\\x"',
        '"\\u12g4"',
        '"\\u12"',
        '"a\nb"',
        "😀",
        "é",
        ".5",
        "NaN",
        '"ab',
        '{"a":1',
        '{"a"',
        "[1",
        "[1,]",
        '{"a":1,}',
        '"\\😀"',
        "undefined",
    ]
    out = ["".join(rng.choice(atoms) for _ in range(rng.randint(1, 12))) for _ in range(1500)]
    return out + ['{"id":"m","type":"tribal","summary":"x",}', "not json", "", "null", '"just a string"', "7"]


def dates(rng: random.Random) -> list[str]:
    parts = [
        "2025",
        "-",
        "05",
        "01",
        "T",
        "12",
        ":",
        "00",
        ".",
        "123",
        "Z",
        "+",
        "02",
        " ",
        "May",
        "Thu,",
        "GMT",
        "UTC",
        "PM",
        "am",
        "(x)",
        "1",
        "31",
        "13",
        "99",
        "24",
        "2025-05-01",
        "2025-05-01T10:00:00",
        "+0200",
        "EST",
        "t",
        "/",
        ",",
        "000",
        "12345",
        "-000001",
        "+002025",
        "Sept",
        "::",
        "x",
        "é",
    ]
    out = ["".join(rng.choice(parts) for _ in range(rng.randint(1, 8))) for _ in range(1500)]
    return out + [
        "2025-05-01",
        "2025-05-01T12:00:00",
        "2025-05-01 12:00:00",
        "May 1, 2025",
        "May 1",
        "2025-03-30T02:30:00",
        "2025-10-26T02:30:00",
        "2025-02-31",
        "1/2/2025",
        "garbage",
        "Thu May 01 2025 12:00:00 GMT+0000 (Coordinated Universal Time)",
        "+275760-09-13T00:00:00.000Z",
        "+275760-09-13T00:00:00.001Z",
        "2025-05-01T10:00:00.123456789+05:30",
    ]


def math_inputs(rng: random.Random) -> list[list]:
    out: list[list] = []
    for _ in range(1500):
        out.append(["exp", -rng.random() * rng.choice([1, 10, 100, 1000]) / 30, None])
        out.append(["log10", float(rng.randint(0, 100000)) + rng.choice([0, 0, 0.5, 1e-3]), None])
    out += [["pow", 0.9, float(k)] for k in range(40)] + [
        ["pow", rng.random() * 2, float(rng.randint(-40, 40))] for _ in range(1000)
    ]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--node", default="node")
    args = parser.parse_args()
    rng = random.Random(20)
    data = {
        "numbers": doubles(rng),
        "strings": strings(rng),
        "json": json_texts(rng),
        "quote": ['a"b\\c\b\f\n\r\t\x00\x1f\x7f\u2028\u2029\ufeff\ud800x\udfff😀é', "plain", ""],
        "dates": dates(rng),
        "zones": ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"],
        "math": math_inputs(rng),
        "case": ["straße", "ΣΊΣΥΦΟΣ", "İstanbul", "Ǆ", "ﬁ", "CAFÉ naïve", "ŉ"],
    }
    text = json.dumps(data, ensure_ascii=True)
    run = subprocess.run([args.node, "-e", NODE_SCRIPT], input=text.encode(), capture_output=True, check=True)
    result = json.loads(run.stdout)
    TARGET.write_text(json.dumps(result, ensure_ascii=True, separators=(",", ":")) + "\n")
    print(f"{TARGET}: recorded with Node {result['version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

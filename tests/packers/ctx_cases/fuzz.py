"""Differential fuzzing of ctxtui against the real ctx 0.8.1, 0.8.0 and MCP packet (a maintainer's tool).

    python -m tests.packers.ctx_cases.fuzz --seed 1 -n 300 [--save DIR] [--json results.json]

Each round builds a random workspace under /tmp (unicode in tasks and entries,
dates around DST changes in a random zone, steering files with odd front
matter, `.ctxrc` values spelled many ways, budgets and CTX_TOKEN_BUDGET spelled
as Go may or may not read them, a skill), runs the binaries of
/work/notes/ctx-oracle.md and ctxtui (in process, same directory, same
environment) and compares stdout and exit status (stderr too when ctx fails).
JSON runs use the Go <= 1.26 encoding/json rebuild (release behaviour, see
record.py). A differing workspace is saved as a case file (`--save`).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

from tests.packers.ctx_cases.casefile import PACKERS, Case, Run
from tests.packers.ctx_cases.record import oracle_argv, oracle_env

WORDS = [
    "hook",
    "parser",
    "agent",
    "budget",
    "cache",
    "scoring",
    "tier",
    "session",
    "token",
    "drift",
    "index",
    "release",
    "memory",
    "steering",
    "render",
    "config",
    "sqlite",
    "watch",
    "the",
    "and",
    "for",
    "with",
    "from",
    "into",
    "about",
]
ODD = [
    "Straße",
    "STRASSE",
    "ﬁle",
    "ﬂow",
    "İstanbul",
    "ſcope",
    "Kelvin\u212a",
    "ŉode",
    "ǰob",
    "café",
    "naïve",
    "日本語",
    "Привет",
    "Ωmega",
    "ςσΣ",
    "emoji🙂",
    "a\u0301b",
    "x\u200by",
    "tab\there",
    "nb\u00a0sp",
    "ﬀ",
    "ﬃx",
    "ﬆop",
    "ẞig",
    "ẖa",
    "\u212bngstrom",
    "ı",
    "Ǆ",
    "ǅ",
    "ß-ß",
    "foo_bar",
    "a-b-c",
    "0x10",
]
ZONES = [
    "UTC",
    "Europe/Berlin",
    "Europe/London",
    "America/New_York",
    "America/Havana",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "America/St_Johns",
    "Asia/Kolkata",
    "Africa/Cairo",
    "America/Santiago",
    "Asia/Beirut",
    "Antarctica/Troll",
    "Pacific/Apia",
    "America/Sao_Paulo",
    "Asia/Tehran",
]
NOWS = [
    "2026-11-21T23:56:08Z",
    "2026-04-05T22:30:00Z",
    "2026-03-29T00:30:00Z",
    "2026-10-25T01:30:00Z",
    "2026-03-08T05:30:00Z",
    "2026-11-01T06:00:00Z",
    "2027-01-01T00:00:00Z",
    "2026-06-30T12:00:00Z",
]
INT_SPELLINGS = ["0x200", "010", "08", "1_000", "+300", "-5", "0", " 500", "٣٠٠", "9223372036854775807", "1e3"]


def text(rng: random.Random, n: int) -> str:
    pool = WORDS * 3 + ODD
    return " ".join(rng.choice(pool) for _ in range(n))


def date(rng: random.Random, now: str) -> str:
    year, month, day = int(now[:4]), int(now[5:7]), int(now[8:10])
    import datetime as dt

    base = dt.date(year, month, day) - dt.timedelta(days=rng.choice([0, 1, 6, 7, 8, 29, 30, 31, 89, 90, 91, 200]))
    if rng.random() < 0.05:
        return rng.choice(["2026-02-30", "2026-13-01", "0000-01-01"])
    return base.isoformat()


def scalar(rng: random.Random, kind: str) -> str:
    if kind == "int":
        return rng.choice(["5", "10", "50", "0", "-3", "0x1F", "017", "0o17", "1_0", "08", "49.9", "yes", "~", "'7'"])
    if kind == "pct":
        return rng.choice(["0.1", "0.5", "1", "0", "1.5", "-1", ".nan", ".inf", "yes", "'0.3'", "0o1", "~", "1e-1"])
    return rng.choice(["claude", "cursor", "yes", "on", "no", "0x10", "true", "'claude'", "~", "Claude"])


def workspace(rng: random.Random, now: str) -> dict[str, bytes]:
    files: dict[str, str | bytes] = {}
    nl = "\r\n" if rng.random() < 0.08 else "\n"
    if rng.random() < 0.97:
        files[".context/CONSTITUTION.md"] = "# Constitution\n\n- [ ] Never break the build\n"
    tasks = [f"- [{rng.choice(' x ')}] {text(rng, rng.randint(1, 8))}" for _ in range(rng.randint(0, 12))]
    if rng.random() < 0.2:
        tasks.append("  - [ ] nested " + text(rng, 3))
    files[".context/TASKS.md"] = "# Tasks\n\n" + "\n".join(tasks) + "\n"
    conventions = [f"- {text(rng, rng.randint(1, 10))}" for _ in range(rng.randint(0, 10))]
    files[".context/CONVENTIONS.md"] = "# Conventions\n\n" + "\n".join(conventions) + "\n"
    for name, kind in (("DECISIONS.md", "Decisions"), ("LEARNINGS.md", "Learnings")):
        blocks = []
        for _ in range(rng.randint(0, 9)):
            body = text(rng, rng.randint(2, 30))
            if rng.random() < 0.1:
                body = "~~Superseded~~ " + body
            blocks.append(
                f"## [{date(rng, now)}-{rng.randint(0, 235959):06d}] {text(rng, rng.randint(1, 5))}\n\n{body}\n"
            )
        if blocks or name == "DECISIONS.md":
            files[f".context/{name}"] = f"# {kind}\n\n" + "\n".join(blocks)
    for name in ("GLOSSARY.md", "ARCHITECTURE.md", "AGENT_PLAYBOOK.md"):
        if rng.random() < 0.2:
            files[f".context/{name}"] = f"# {name}\n\n" + text(rng, rng.randint(3, 60)) + "\n"
    for i in range(rng.choice([0, 0, 1, 2, 3, 5])):
        fm = [f"name: {rng.choice(['s' + str(i), scalar(rng, 'tool'), 'same'])}"]
        fm.append(f"inclusion: {rng.choice(['always', 'always', 'always', 'manual', 'auto', 'Always'])}")
        if rng.random() < 0.7:
            fm.append(f"priority: {scalar(rng, 'int')}")
        if rng.random() < 0.3:
            fm.append(f"tools: [{scalar(rng, 'tool')}]")
        body = text(rng, rng.randint(0, 20))
        if rng.random() < 0.1:
            body = "<!-- remove this after you edit the steering file !-->\n" + body
        opening = rng.choice(["---\n", "---\n", "---\n", "--- \n", "\n---\n"])
        closing = rng.choice(["\n---\n", "\n---\n", "\n---\n", "\n----\n", "\n---"])
        files[f".context/steering/s{i}.md"] = opening + "\n".join(fm) + closing + body + "\n"
    if rng.random() < 0.5:
        rc = []
        if rng.random() < 0.5:
            rc.append(f"token_budget: {rng.choice(['300', '1500', '0x400', '0', '-7', '1_000', '2.5', 'yes', '017'])}")
        if rng.random() < 0.5:
            rc.append(f"task_budget_pct: {scalar(rng, 'pct')}")
        if rng.random() < 0.4:
            rc.append(f"convention_budget_pct: {scalar(rng, 'pct')}")
        if rng.random() < 0.3:
            rc.append(f"tool: {scalar(rng, 'tool')}")
        if rng.random() < 0.05:
            rc.append("token_budget: [")
        files[".ctxrc"] = "\n".join(rc) + "\n"
    if rng.random() < 0.25:
        files[".context/skills/review/SKILL.md"] = f"---\nname: review\n---\n\n{text(rng, rng.randint(1, 40))}\n"
    out = {}
    for name, content in files.items():
        data = content.encode() if isinstance(content, str) else content
        if nl != "\n" and name.endswith(".md") and "steering" not in name:
            data = data.replace(b"\n", nl.encode())
        out[name] = data
    return out


def make_case(rng: random.Random, index: int) -> Case:
    now = rng.choice(NOWS)
    files = workspace(rng, now)
    budget = rng.choice([None, str(rng.randint(0, 400)), str(rng.randint(0, 4000)), str(rng.randint(0, 20000))])
    if rng.random() < 0.1:
        budget = rng.choice(INT_SPELLINGS)
    env = {}
    if rng.random() < 0.15:
        env["CTX_TOKEN_BUDGET"] = rng.choice([*INT_SPELLINGS, "700", "1200"])
    skill = ["--skill", "review"] if ".context/skills/review/SKILL.md" in files and rng.random() < 0.8 else []
    runs = [Run("0.8.1", budget, f, skill) for f in (None, "json")]
    runs += [Run("0.8.0", budget, f) for f in (None, "json")]
    runs += [Run("mcp")]
    if budget is not None and budget.lstrip("-").isdigit() and budget.isascii() and abs(int(budget)) < 2**63:
        runs.append(Run("mcp", budget))
    for run in runs:
        if run.format == "json":
            run.build = "nojsonv2"
    return Case(
        f"fuzz8-{index:04d}",
        "fresh fuzz round (tests/packers/ctx_cases/fuzz.py)",
        files,
        git=rng.random() > 0.03,
        tz=rng.choice(ZONES),
        now=now,
        env=env,
        origin="fuzz",
        runs=runs,
    )


@contextlib.contextmanager
def _as_ctx_runs(cwd: Path, env: dict[str, str]):
    """The process environment, working directory and std streams of one ctx run, restored afterwards."""
    saved_env, saved_cwd, saved_streams = dict(os.environ), os.getcwd(), (sys.stdout, sys.stderr)
    out, err = io.BytesIO(), io.BytesIO()
    captured: dict[str, bytes] = {}
    try:
        os.environ.clear()
        os.environ.update(env)
        os.chdir(cwd)
        sys.stdout = io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape")
        sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="surrogateescape")
        yield captured
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        captured.update(stdout=out.getvalue(), stderr=err.getvalue())
        sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def run_ctxtui(case: Case, run: Run, cwd: Path) -> tuple[bytes, bytes, int]:
    from ctxtui.cli import main

    env = oracle_env(case, run, cwd)
    env.pop("CTX_ORACLE_NOW", None)
    argv = ["pack", ".", "--packer", PACKERS[run.version], "--now", case.now]
    argv += [f"--budget={run.budget}"] if run.budget is not None else []
    argv += [f"--format={run.format}"] if run.format is not None else []
    with _as_ctx_runs(cwd, env) as captured:
        try:
            code = main(argv + run.extra)
        except Exception as exc:  # a crash is a difference too
            code = -1
            sys.stderr.write(f"CRASH {type(exc).__name__}: {exc}\n")
    return captured["stdout"], captured["stderr"], code


def compare(case: Case, run: Run, cwd: Path) -> str | None:
    import subprocess

    done = subprocess.run(
        oracle_argv(run), cwd=cwd, env=oracle_env(case, run, cwd), capture_output=True, timeout=60, check=False
    )
    run.stdout, run.stderr, run.exit = done.stdout, done.stderr, done.returncode
    stdout, stderr, code = run_ctxtui(case, run, cwd)
    if (stdout, code) != (run.stdout, run.exit):
        first = next(
            (
                (i, a, b)
                for i, (a, b) in enumerate(zip(run.stdout.split(b"\n"), stdout.split(b"\n"), strict=False))
                if a != b
            ),
            None,
        )
        return f"exit {run.exit}/{code}; first differing line {first}; ctxtui stderr {stderr[-200:]!r}"
    if run.exit != 0 and run.version != "mcp" and stderr != run.stderr:
        if run.stderr.startswith((b"ctx: warning: failed to parse", b"ctx: skipping unfilled")):
            return None  # ctx's own warnings before a refusal: known (xfail in the cases)
        return f"stderr differs: ctx {run.stderr[-200:]!r} ctxtui {stderr[-200:]!r}"
    return None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--save", type=Path, help="save differing cases (with ctx's outputs) here")
    parser.add_argument("--json", type=Path, help="write the counts here")
    args = parser.parse_args(argv)
    counts: collections.Counter[str] = collections.Counter()
    differing = []
    for i in range(args.n):
        rng = random.Random(f"ctxtests:{args.seed}:{i}")
        case = make_case(rng, args.seed * 100000 + i)
        root = Path(tempfile.mkdtemp(prefix="ctxfz8-", dir="/tmp"))
        root.rmdir()
        try:
            cwd = case.build(root)
            diffs = []
            for run in case.runs:
                counts[f"runs {run.version}"] += 1
                why = compare(case, run, cwd)
                if why is not None:
                    counts[f"differing {run.version}"] += 1
                    diffs.append(f"{run.label}: {why}")
            counts["workspaces"] += 1
            if diffs:
                counts["differing workspaces"] += 1
                differing.append({"case": case.name, "diffs": diffs})
                print(f"DIFF {case.name} (tz {case.tz}, now {case.now}):", *diffs, sep="\n  ", flush=True)
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    (args.save / f"{case.name}.json").write_text(
                        json.dumps(case.to_json(), indent=1, ensure_ascii=False)
                    )
        finally:
            shutil.rmtree(root, ignore_errors=True)
    print(dict(counts))
    if args.json:
        args.json.write_text(json.dumps({"counts": dict(counts), "differing": differing}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

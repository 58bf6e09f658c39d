"""Record the ctx cases with the real binaries (a maintainer's tool; the tests never run it or need ctx).

    python -m tests.packers.ctx_cases.record import /work/oracles/ctx/cases [NAME...]  # the oracle work's cases
    python -m tests.packers.ctx_cases.record handmade                         # the cases in handmade.py
    python -m tests.packers.ctx_cases.record record [NAME...]                 # run ctx, store the outputs

`import` and `handmade` write each case's workspace and runs without outputs
(an existing case keeps nothing); `record` builds each workspace at
/tmp/ctx-case, runs every run with the real binary (`CTX_ORACLE_BIN`, default
/work/oracles/bin; see /work/notes/ctx-oracle.md: the binaries are ctx built
from its source with only the clock pinnable through `CTX_ORACLE_NOW`) and
stores stdout, stderr and the exit status.

JSON runs are also recorded with the `nojsonv2` rebuild: the oracle is built
with go1.27, whose encoding/json (v2) writes an invalid UTF-8 byte as a raw
U+FFFD; release builds (Go <= 1.26) write `\\ufffd`, as ctxtui does. Where the
two builds differ, the release build's output is expected and the go1.27
output is kept as an expected failure.
"""

from __future__ import annotations

import ast
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.packers.ctx_cases.casefile import RECORDED_LINK, RECORDED_ROOT, Case, Run, all_cases

ORACLES = Path(os.environ.get("CTX_ORACLE_BIN", "/work/oracles/bin"))
NOJSONV2 = Path(os.environ.get("CTX_ORACLE_NOJSONV2", "/work/oracles/ctx/fuzz/bin"))
BINARIES = {"0.8.1": "ctx-0.8.1", "0.8.0": "ctx-0.8.0", "mcp": "ctx-mcp-0.8.1", "mcp-0.8.0": "ctx-mcp-0.8.0"}
ONLY_IN = {"--context-dir": "0.8.0", "--allow-outside-cwd": "0.8.0", "--skill": "0.8.1", "--include-hub": "0.8.1"}
JSON_V2_REASON = (
    "go1.27's encoding/json (v2) writes an invalid UTF-8 byte as a raw U+FFFD; the release builds users run "
    "(Go <= 1.26) write the escape \\ufffd, as ctxtui does (run with build=nojsonv2 is the release behaviour)"
)


def binary(version: str, build: str | None = None) -> str:
    if build == "nojsonv2":
        return str(NOJSONV2 / f"ctx-{version}-nojsonv2")
    return str(ORACLES / BINARIES[version])


def oracle_argv(run: Run) -> list[str]:
    if run.version.startswith("mcp"):
        return [binary(run.version)] + ([run.budget] if run.budget is not None else [])
    argv = [binary(run.version, run.build), "agent"]
    if run.budget is not None:
        argv.append(f"--budget={run.budget}")
    if run.format is not None:
        argv.append(f"--format={run.format}")
    return argv + run.extra


def oracle_env(case: Case, run: Run, cwd: Path) -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": "/root", "LC_ALL": "C.UTF-8", "TZ": case.tz, "PWD": str(cwd)}
    if not run.version.startswith("mcp"):
        env["CTX_ORACLE_NOW"] = case.now
    env.update(case.env)
    env.update(run.env)
    if env.get("PWD") == "LINK":
        env["PWD"] = RECORDED_LINK + ("/" + case.cwd if case.cwd else "")
    return env


# --- import: the oracle work's case folders --------------------------------------------------------------


def read_tree(folder: Path) -> tuple[dict[str, bytes], dict[str, str], list[str]]:
    files: dict[str, bytes] = {}
    links: dict[str, str] = {}
    empty: list[str] = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if any(rel.startswith(link + "/") for link in links):
            continue
        if path.is_symlink():
            links[rel] = os.readlink(path)
        elif path.is_dir():
            if not any(path.iterdir()):
                empty.append(rel)
        else:
            files[rel] = path.read_bytes()
    return files, links, empty


def big_files(script: Path) -> dict[str, tuple[bytes, int]]:
    """The sparse files a case's make-workspace.py writes (its write(...) and truncate(...) calls)."""
    text = script.read_text()
    rel = re.search(r"'(\.context/[^']+)'|'\.context', '([^']+)'", text)
    assert rel is not None, script
    name = rel.group(1) or ".context/" + rel.group(2)
    head = ast.literal_eval(re.search(r"f\.write\((b'.*?')\)", text, re.S).group(1))  # type: ignore[union-attr]
    size = _arithmetic(re.search(r"f\.truncate\(([^)]*)\)", text).group(1))  # type: ignore[union-attr]
    return {name: (head, size)}


def _arithmetic(text: str) -> int:
    """`64 * 1024 * 1024 + 1` and the like: integers, + and * only."""

    def value(node: ast.expr) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mult):
            left, right = value(node.left), value(node.right)
            return left + right if isinstance(node.op, ast.Add) else left * right
        raise ValueError(text)

    return value(ast.parse(text, mode="eval").body)


def standard_runs(native: Run, *, big: bool = False) -> list[Run]:
    """The recorded run, the same command for the other versions (md and json), and the MCP packet."""
    runs = [native]
    if big:
        if native.version == "0.8.1" and native.budget == "8000":
            runs += [Run("0.8.0", native.budget), Run("mcp")]
        return runs
    formats = [native.format]
    if native.version.startswith("mcp"):
        formats = [None]
    formats.append("json" if native.format != "json" else None)
    for version in ("0.8.1", "0.8.0"):
        if any(ONLY_IN.get(arg.split("=")[0], version) != version for arg in native.extra):
            continue
        for fmt in formats:
            run = Run(version, native.budget, fmt, list(native.extra), dict(native.env))
            if (run.version, run.format) != (native.version, native.format):
                runs.append(run)
    mcp_budgets: list[str | None] = [None]
    plain = native.budget is not None and re.fullmatch(r"[+-]?[0-9]+", native.budget)
    if plain and -(2**63) <= int(native.budget) < 2**63 and native.budget != "8000":  # type: ignore[arg-type]
        mcp_budgets.append(native.budget)
    for budget in mcp_budgets:
        run = Run("mcp", budget, None, [], dict(native.env))
        if (run.version, run.budget) != (native.version, native.budget):
            runs.append(run)
    return runs


def import_cases(folder: Path, names: set[str]) -> None:
    for case_dir in sorted(p for p in folder.iterdir() if (p / "case.json").exists()):
        if names and case_dir.name not in names:
            continue
        meta = json.loads((case_dir / "case.json").read_text())
        files, links, empty = read_tree(case_dir / "workspace")
        big = big_files(case_dir / "make-workspace.py") if (case_dir / "make-workspace.py").exists() else {}
        env = dict(meta.get("env") or {})
        case_env = {}
        if env.get("PWD") == RECORDED_LINK:
            env["PWD"] = "LINK"
        if "PWD" in env:
            case_env["PWD"] = env.pop("PWD")
        version = {"mcp-0.8.0": "mcp"}.get(meta["version"], meta["version"])
        native = Run(version, meta.get("budget"), meta.get("format"), list(meta.get("extra") or []), env)
        case = Case(
            name=case_dir.name,
            note=meta.get("note", ""),
            files=files,
            symlinks=links,
            big=big,
            dirs=empty,
            git=meta.get("git", True),
            cwd=meta.get("cwd_rel") or "",
            tz=meta.get("tz", "UTC"),
            now=meta.get("now", "2026-11-21T23:56:08Z"),
            env=case_env,
            origin=f"/work/oracles/ctx/cases/{case_dir.name} ({meta['version']})",
            runs=standard_runs(native, big=bool(big)),
        )
        case.save()
        print(f"imported {case.name}: {len(case.runs)} runs")


# --- record ------------------------------------------------------------------------------------------------


def build_at_recorded_root(case: Case) -> Path:
    root = Path(RECORDED_ROOT)
    if os.path.islink(RECORDED_LINK):
        os.unlink(RECORDED_LINK)
    if root.exists() or root.is_symlink():
        shutil.rmtree(root)
    cwd = case.build(root)
    if case.env.get("PWD") == "LINK":
        os.symlink(RECORDED_ROOT, RECORDED_LINK)
    return cwd


def run_oracle(case: Case, run: Run, cwd: Path) -> tuple[bytes, bytes, int]:
    completed = subprocess.run(
        oracle_argv(run), cwd=cwd, env=oracle_env(case, run, cwd), capture_output=True, timeout=120, check=False
    )
    return completed.stdout, completed.stderr, completed.returncode


def record_case(case: Case) -> None:
    cwd = build_at_recorded_root(case)
    runs: list[Run] = []
    for run in case.runs:
        if run.build == "nojsonv2":
            continue  # re-derived below from the plain run
        if run.xfail == JSON_V2_REASON:
            run.xfail = None
        run.stdout, run.stderr, run.exit = run_oracle(case, run, cwd)
        runs.append(run)
        if run.version in ("0.8.1", "0.8.0") and run.format == "json" and run.exit == 0:
            release = Run(run.version, run.budget, run.format, list(run.extra), dict(run.env), build="nojsonv2")
            release.stdout, release.stderr, release.exit = run_oracle(case, release, cwd)
            if release.stdout != run.stdout:
                run.xfail = JSON_V2_REASON
                runs.append(release)
    case.runs = runs
    same = []
    for mcp in (r for r in runs if r.version == "mcp"):
        other = run_oracle(case, Run("mcp-0.8.0", mcp.budget, None, [], dict(mcp.env)), cwd)
        same.append((mcp.stdout, mcp.exit) == other[::2])
    print(f"{case.name}: {len(runs)} runs; exits {sorted({r.exit for r in runs})}; mcp 0.8.0 = 0.8.1: {same}")
    shutil.rmtree(RECORDED_ROOT)
    if os.path.islink(RECORDED_LINK):
        os.unlink(RECORDED_LINK)
    case.save()


def _inputs(case: Case) -> dict:
    """What a case asks for, without what ctx answered."""
    data = case.to_json()
    data["runs"] = [
        {k: v for k, v in run.items() if k not in ("stdout", "stdout_b64", "stderr", "stderr_b64", "exit")}
        for run in data["runs"]
        if run.get("build") is None and not str(run.get("xfail", "")).startswith("go1.27")
    ]
    return data


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    with open(RECORDED_ROOT + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if argv[0] == "import":
            import_cases(Path(argv[1]), set(argv[2:]))
        elif argv[0] == "handmade":
            from tests.packers.ctx_cases.handmade import handmade_cases

            for case in handmade_cases():
                if case.path.exists() and _inputs(Case.load(case.path)) == _inputs(case):
                    continue  # recorded already, and nothing changed
                case.save()
                print(f"wrote {case.name}: {len(case.runs)} runs (record it)")
        elif argv[0] == "record":
            names = set(argv[1:])
            for case in all_cases():
                if not names or case.name in names:
                    record_case(case)
        else:
            print(__doc__)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

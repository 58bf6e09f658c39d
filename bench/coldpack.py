"""Cold `ctxtui pack` as a user runs it, side by side with the Go `ctx agent` (or a bare interpreter).

How it measures (printed with the figures):

- ctxtui is installed the way a user installs it: `pip install .` (a wheel, not
  editable, bytecode compiled by pip) into a throwaway virtual environment the
  bench makes itself, under the cache folder (`$CTXTUI_BENCH_VENV`, default
  `~/.cache/ctxtui-bench/venv`). pip uses its own configuration (here: the
  local registry mirror, so it works offline). The venv is rebuilt only when
  the package's files change (a hash of pyproject.toml, ctxtui/ and themes/).
- Each corpus is copied to a temporary project with an empty `.git/` (ctx
  refuses a folder that is not a git working tree) and run there, as
  `ctxtui pack --budget 4000 --now T` and `ctx agent --budget 4000` with
  `TZ=UTC CTX_ORACLE_NOW=T` (the oracle build reads the pinned clock; a
  release binary ignores it), stdout to a pipe read to the end.
- The two programs alternate, run after run, so both see the same machine
  load; one warm-up run each first (file cache). Wall time from spawn to exit;
  the medians, the spread (10th–90th percentile) and the child CPU time
  (user+sys from `getrusage`, less sensitive to other processes) are reported.
- The Go binary comes from `--ctx-bin`, `$CTX_BIN`, or `ctx` on PATH. Without
  one, Go is not measured and the ratio printed is to a bare interpreter of
  the same venv (`python -c pass`), the floor any Python program pays.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOW_ARG = "2026-11-21T23:56:08Z"
BUDGET = "4000"


def default_venv() -> Path:
    explicit = os.environ.get("CTXTUI_BENCH_VENV")
    if explicit:
        return Path(explicit)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "ctxtui-bench" / "venv"


def source_hash() -> str:
    """What `pip install .` would install: pyproject.toml and every file under ctxtui/ and themes/."""
    digest = hashlib.sha256()
    files = [ROOT / "pyproject.toml", ROOT / "README.md"]
    for folder in ("ctxtui", "themes"):
        files += sorted(p for p in (ROOT / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def user_install(venv: Path, log=print) -> Path:
    """The `ctxtui` script of a non-editable install of this checkout, (re)built when the sources changed."""
    stamp = venv / ".ctxtui-source-hash"
    wanted = source_hash()
    script = venv / "bin" / "ctxtui"
    if script.exists() and stamp.exists() and stamp.read_text() == wanted:
        return script
    fresh = not (venv / "bin" / "python").exists()
    if fresh:
        log(f"(making a throwaway venv at {venv})")
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    log(f"(pip install . into {venv}: a wheel of this checkout, as a user installs it)")
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    deps = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    deps_stamp = venv / ".ctxtui-pyproject-hash"
    if fresh or not deps_stamp.exists() or deps_stamp.read_text() != deps:
        subprocess.run([*pip, str(ROOT)], check=True, capture_output=True)  # with its dependencies
        deps_stamp.write_text(deps)
    subprocess.run([*pip, "--force-reinstall", "--no-deps", str(ROOT)], check=True, capture_output=True)
    stamp.write_text(wanted)
    return script


def find_ctx(explicit: str | None) -> str | None:
    for candidate in (explicit, os.environ.get("CTX_BIN"), shutil.which("ctx")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def project_copy(corpus: Path, scratch: Path) -> Path:
    """The corpus's `.context/` in a fresh project with `.git/`, writable, without the expected files."""
    project = scratch / corpus.name
    shutil.copytree(corpus / ".context", project / ".context")
    for path in [project, *project.rglob("*")]:
        path.chmod(path.stat().st_mode | 0o200)
    (project / ".git").mkdir()
    return project


@dataclass
class Timed:
    wall: list[float]
    cpu: list[float]
    stdout: bytes = b""

    @property
    def median_ms(self) -> float:
        return statistics.median(self.wall) * 1000

    def spread(self) -> str:
        ordered = sorted(self.wall)
        low, high = ordered[len(ordered) // 10], ordered[-1 - len(ordered) // 10]
        return (
            f"median {self.median_ms:6.1f} ms (p10–p90 {low * 1000:.1f}–{high * 1000:.1f}, "
            f"cpu {statistics.median(self.cpu) * 1000:.1f} ms)"
        )


def _run(args: list[str], cwd: Path, env: dict[str, str], timed: Timed) -> None:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    timed.wall.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    timed.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f"{args[0]} exited {done.returncode} in {cwd}")
    timed.stdout = done.stdout


def race(commands: dict[str, list[str]], cwd: Path, env: dict[str, str], runs: int) -> dict[str, Timed]:
    """Every command `runs` times, alternating, after one warm-up each."""
    results = {name: Timed([], []) for name in commands}
    for args in commands.values():
        _run(args, cwd, env, Timed([], []))
    for _ in range(runs):
        for name, args in commands.items():
            _run(args, cwd, env, results[name])
    return results


def cold_pack(corpus_root: Path, runs: int, ctx_bin: str | None, venv: Path | None = None) -> dict[str, object]:
    """Figures for ctx-large and ctx-dogfood; printed, and returned for the JSON."""
    script = user_install(venv or default_venv())
    python = str(script.parent / "python")
    go = find_ctx(ctx_bin)
    env = {**os.environ, "TZ": "UTC", "CTX_ORACLE_NOW": NOW_ARG}
    print(
        f"cold pack: `ctxtui pack --budget {BUDGET}` from a non-editable `pip install .` ({script}), "
        f"{runs} runs alternating with "
        + (f"the Go `ctx agent` ({go})" if go else "a bare `python -c pass` of the same venv (no Go ctx found)")
        + f"; load {os.getloadavg()[0]:.2f}"
    )
    figures: dict[str, object] = {"runs": runs, "go_bin": go, "venv": str(script.parent.parent)}
    with tempfile.TemporaryDirectory(prefix="ctxtui-coldpack-") as scratch:
        for corpus in ("ctx-large", "ctx-dogfood"):
            project = project_copy(corpus_root / corpus, Path(scratch))
            commands = {"ctxtui": [str(script), "pack", "--budget", BUDGET, "--now", NOW_ARG]}
            if go:
                commands["go"] = [go, "agent", "--budget", BUDGET]
            else:
                commands["python"] = [python, "-c", "pass"]
            results = race(commands, project, env, runs)
            ours = results["ctxtui"]
            other_name = "go" if go else "python"
            other = results[other_name]
            key = corpus.replace("-", "_")
            figures[f"{key}_ms"] = round(ours.median_ms, 2)
            figures[f"{other_name}_{key}_ms"] = round(other.median_ms, 2)
            figures[f"ratio_{key}"] = round(ours.median_ms / other.median_ms, 3)
            print(f"  {corpus:<12} ctxtui {ours.spread()}")
            if go:
                same = "identical bytes" if ours.stdout == other.stdout else "OUTPUT DIFFERS"
                print(
                    f"  {corpus:<12} Go ctx {other.spread()}  → ratio {ours.median_ms / other.median_ms:.2f} ({same})"
                )
            else:
                print(
                    f"  {corpus:<12} python {other.spread()}  → ctxtui is {ours.median_ms / other.median_ms:.2f}× "
                    "a bare interpreter (Go not measured)"
                )
    return figures

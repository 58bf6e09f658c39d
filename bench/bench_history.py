"""`ctxtui log` over a generated 500-commit history of ctx-large-sized files, and three ways to read git.

The history is written with `git fast-import` (seconds, not the minutes 500
`git commit`s take): a workspace the size of ctx-large (231 open tasks,
109 decisions, 151 learnings, 89 conventions; ~1.4 MB) edited one or two
ways per commit by the test factory's `Edits`. Then:

- `log`: `ctxtui log --limit 500` in-process, cold (a new `History`), the
  median of --runs; what it did (blobs read, parses saved, packets packed);
- `readers`: every `.context/` tree and blob of the 500 commits read with
  the `git` program (`cat-file --batch-command`, what ctxtui uses), pygit2
  and dulwich, where installed (neither is a dependency: `pip install pygit2
  dulwich` to compare).

Run: python bench/bench_history.py [--commits 500] [--runs 3]
Figures are wall-clock on a shared 2-core machine: noisy, so medians.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.factories.history import EPOCH, OFFSETS, Edits  # noqa: E402
from tests.factories.workspace import build_workspace  # noqa: E402

LARGE = {"tasks": 330, "decisions": 109, "learnings": 151, "conventions": 89, "steering": 4}


def corpus_files() -> dict[str, str] | None:
    """ctx-large's own `.context/` (1.4 MB: every file, read or not by ctx), when the shared corpus is here."""
    from bench.corpus import find_corpus

    base = find_corpus() / "ctx-large" / ".context"
    if not base.is_dir():
        return None
    return {
        str(path.relative_to(base)): path.read_bytes().decode("utf-8", "surrogateescape")
        for path in sorted(base.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def write_history(root: Path, commits: int, seed: int = 0) -> None:
    """`commits` commits (the first adds .context/), streamed to git fast-import."""
    rng = random.Random(f"bench-history:{seed}")
    root.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    when = EPOCH
    files = corpus_files() or build_workspace(**LARGE, seed=seed, now=when)
    edits = Edits(rng, files, when)
    stream: list[bytes] = []
    previous: dict[str, str] = {}
    for number in range(commits):
        if number:
            when += timedelta(hours=rng.choice((1, 3, 9, 26, 50)))
            edits.now = when
            message = edits.step()
        else:
            message = "ctx init"
        current = {(name[3:] if name.startswith("../") else f".context/{name}"): text for name, text in files.items()}
        body = [f"commit refs/heads/main\nmark :{number + 1}\n".encode()]
        stamp = f"{int(when.timestamp())} {rng.choice(OFFSETS)}"
        body.append(f"committer t <t@example.invalid> {stamp}\n".encode())
        data = message.encode()
        body.append(f"data {len(data)}\n".encode() + data + b"\n")
        for path in previous:
            if path not in current:
                body.append(f"D {path}\n".encode())
        for path, text in current.items():
            if previous.get(path) != text:
                blob = text.encode("utf-8", "surrogateescape")
                body.append(f"M 100644 inline {path}\ndata {len(blob)}\n".encode() + blob + b"\n")
        stream.append(b"".join(body))
        previous = current
    subprocess.run(["git", "fast-import", "--quiet"], cwd=root, input=b"".join(stream), check=True)
    subprocess.run(["git", "checkout", "-q", "main"], cwd=root, check=True)


def bench_log(root: Path, runs: int, limit: int) -> dict[str, float]:
    from ctxtui.opening.history_log import walk_log
    from ctxtui.opening.request import PackRequest
    from ctxtui.opening.revision import History

    times = []
    cpu = []
    facts: dict[str, float] = {}
    for _ in range(runs):
        start = time.perf_counter()
        started = time.process_time()
        with History(str(root)) as history:
            commits = history.log("HEAD", limit=limit)
            log = walk_log("ctx-0.8.1", PackRequest(project=str(root), budget=8000), history, commits, max_seconds=600)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - started)
        facts = {
            "commits": len(log.records),
            "parses": history.memo.misses,
            "parses saved": history.memo.hits,
            "tree objects read": len(history.objects),
            "changes": sum(len(r.changed) for r in log.records),
        }
    return {
        "median wall s": round(statistics.median(times), 2),
        "min wall s": round(min(times), 2),
        "median cpu s (ctxtui's process)": round(statistics.median(cpu), 2),
        "load average": round(os.getloadavg()[0], 1),
        "peak RSS MB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        **facts,
    }


def _objects(root: Path, limit: int) -> list[str]:
    out = subprocess.run(
        ["git", "rev-list", f"--max-count={limit}", "HEAD"], cwd=root, capture_output=True, check=True, text=True
    )
    return out.stdout.split()


def read_with_git(root: Path, commits: list[str]) -> int:
    from ctxtui.opening.git import GitTree, Repository

    total = 0
    objects: dict[str, object] = {}
    with Repository(str(root)) as repo:
        for commit in commits:
            tree = GitTree(repo, commit, objects)
            for name in tree.names(".context") or []:
                if tree.kind(f".context/{name}") == "file":
                    total += len(tree.read(f".context/{name}", 1 << 30))
    return total


def read_with_pygit2(root: Path, commits: list[str]) -> int:
    import pygit2  # type: ignore[import-not-found]

    repo = pygit2.Repository(str(root))
    total = 0
    cache: dict[str, bytes] = {}
    for commit in commits:
        tree = repo[commit].tree[".context"]
        for item in tree:
            if item.type_str == "blob":
                key = str(item.id)
                if key not in cache:
                    cache[key] = item.data
                total += len(cache[key])
    return total


def read_with_dulwich(root: Path, commits: list[str]) -> int:
    from dulwich.repo import Repo  # type: ignore[import-not-found]

    repo = Repo(str(root))
    total = 0
    cache: dict[bytes, bytes] = {}
    for commit in commits:
        tree = repo[repo[commit.encode()].tree]
        _mode, sha = tree[b".context"]
        for entry in repo[sha].items():
            if entry.mode & 0o170000 == 0o100000:
                if entry.sha not in cache:
                    cache[entry.sha] = repo[entry.sha].data
                total += len(cache[entry.sha])
    return total


def bench_readers(root: Path, limit: int, runs: int) -> dict[str, str]:
    commits = _objects(root, limit)
    results = {}
    for name, reader in (("git cat-file", read_with_git), ("pygit2", read_with_pygit2), ("dulwich", read_with_dulwich)):
        times = []
        try:
            for _ in range(runs):
                start = time.perf_counter()
                reader(root, commits)
                times.append(time.perf_counter() - start)
        except ImportError:
            results[name] = "not installed"
            continue
        results[name] = f"{statistics.median(times) * 1000:.0f} ms"
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "project"
        start = time.perf_counter()
        write_history(root, args.commits)
        size = int(
            subprocess.run(
                ["git", "ls-tree", "-r", "-l", "HEAD", ".context"], cwd=root, capture_output=True, text=True, check=True
            ).stdout.count("\n")
        )
        print(
            f"history: {args.commits} commits, {size} files in .context/ at HEAD, written in "
            f"{time.perf_counter() - start:.1f} s"
        )
        print("readers (all .context/ blobs of every commit):", bench_readers(root, args.commits, args.runs))
        print("log:", bench_log(root, args.runs, args.commits))


if __name__ == "__main__":
    main()

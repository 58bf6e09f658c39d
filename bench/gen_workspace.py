"""Write a synthetic `.context/` of any size, for benchmarks and manual stress tests.

    python bench/gen_workspace.py OUT --tasks 2000 --decisions 5000 --learnings 5000

The same arguments (seed and --now included) always give the same bytes; the
chosen "now" is printed so a run can be reproduced.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

try:
    from tests.factories.workspace import write_workspace
except ImportError:  # run from a checkout without `pip install -e .`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.factories.workspace import write_workspace


def parse_now(text: str | None) -> datetime:
    """ISO 8601; a value without a zone is UTC. Default: the clock, to the second."""
    if text is None:
        return datetime.now(UTC).replace(microsecond=0)
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="project directory; .context/ is written inside it")
    parser.add_argument("--tasks", type=int, default=200, help="task lines ctx will read (pending and done)")
    parser.add_argument("--conventions", type=int, default=40)
    parser.add_argument("--decisions", type=int, default=100)
    parser.add_argument("--learnings", type=int, default=150)
    parser.add_argument("--steering", type=int, default=4, help="steering files (about 2 in 3 are inclusion: always)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--now", help="the instant entries are dated back from, ISO 8601 (default: now)")
    parser.add_argument(
        "--no-quirks", action="store_true", help="leave out comment/fence tasks, ### headers and the like"
    )
    parser.add_argument("--force", action="store_true", help="delete an existing OUT/.context first")
    args = parser.parse_args(argv)

    for name in ("tasks", "conventions", "decisions", "learnings", "steering"):
        if getattr(args, name) < 0:
            parser.error(f"--{name} must be zero or more")
    try:
        now = parse_now(args.now)
    except ValueError:
        parser.error(f"--now: not an ISO 8601 date-time: {args.now!r}")

    context = args.out / ".context"
    if context.exists():
        if not args.force:
            parser.error(f"{context} exists; pass --force to replace it")
        shutil.rmtree(context)

    started = time.perf_counter()
    write_workspace(
        args.out,
        tasks=args.tasks,
        conventions=args.conventions,
        decisions=args.decisions,
        learnings=args.learnings,
        steering=args.steering,
        seed=args.seed,
        now=now,
        with_quirks=not args.no_quirks,
    )
    elapsed = time.perf_counter() - started
    size = sum(p.stat().st_size for p in context.rglob("*.md"))
    print(f"wrote {context} ({size / 1e6:.1f} MB) in {elapsed:.2f} s; now={now.isoformat()} seed={args.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

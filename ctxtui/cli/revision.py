"""`--rev REV` for the packet commands: the packet as it was at a git revision.

`add_rev_arg` adds the option to a command's parser (one helper, so the
commands' own option lists stay as they are); `open_rev` opens the packer at
the revision for `common.load_packer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctxtui.cli.failures import UsageError

if TYPE_CHECKING:
    import argparse

    from ctxtui.cli.commands import Options
    from ctxtui.opening.request import Opened, PackRequest

REV_HELP = (
    "the packet as it was at this git revision (a hash, HEAD~3, a branch, a tag): .context/ and .ctxrc "
    "read from git objects (the working tree is never touched), the clock at the commit's date unless "
    "--now pins it (default: the working tree)"
)
MEMORY_NOTICE = "the memory store is not in git: it is joined as it is now, not as it was at {rev}"


def add_rev_arg(parser: argparse.ArgumentParser, help: str = REV_HELP) -> None:
    parser.add_argument("--rev", metavar="REV", help=help)


def open_rev(name: str, request: PackRequest, rev: str, *, strict: bool) -> Opened:
    """Packer `name` for the request on `.context/` at `rev`; UsageError (one line) for what cannot be read."""
    from ctxtui.engine.packers.registry import CTX_PACKERS
    from ctxtui.engine.sources.context import ContextMissing
    from ctxtui.opening.revision import GitError, History, open_at

    if name not in CTX_PACKERS:
        raise UsageError(f"--rev: the {name} packer reads a memory store alone, which is not in git")
    try:
        with History(request.project) as history:
            commit = history.resolve(rev)
            try:
                opened = open_at(name, request, history, commit, strict=strict)
            except ContextMissing as exc:
                raise UsageError(f"at {rev} ({commit.commit[:12]}, {commit.date}): {exc}") from None
    except GitError as exc:
        raise UsageError(str(exc)) from None
    if request.db:
        opened.notices.append(MEMORY_NOTICE.format(rev=rev))
    return opened


def rev_of(args: Options) -> str | None:
    return getattr(args, "rev", None)


def add_against_rev_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--against-rev",
        metavar="REV",
        help="compare against the packet at this git revision, at its own commit date (WORKTREE: the working "
        "tree) (default: the same source as --rev)",
    )


def add_log_args(log: argparse.ArgumentParser) -> None:
    """`ctxtui log`'s own options (after the packet options): which commits, how long."""
    for action in log._actions:
        if action.dest == "rev":
            action.help = "the newest commit to show (default: HEAD)"
    log.add_argument("--since", metavar="REV", help="only commits after REV (default: the whole history)")
    log.add_argument("--limit", type=int, default=100, metavar="N", help="at most N commits (default: 100)")
    log.add_argument(
        "--max-seconds",
        type=float,
        default=60.0,
        metavar="S",
        help="stop after this long and say how far it got (default: 60)",
    )
    log.add_argument("--format", choices=("text", "json"), default="text", help="(default: text)")


def add_history_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--history",
        action="store_true",
        help="the commits at which the entry's fate changed (newest first, first-parent, each commit at its own "
        "time), each with the reason in numbers; --limit bounds the commits looked at",
    )
    parser.add_argument(
        "--limit", type=int, default=100, metavar="N", help="with --history: at most N commits (default: 100)"
    )

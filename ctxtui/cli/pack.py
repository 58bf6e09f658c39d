"""`ctxtui pack`: the packet, byte for byte what the tool prints, to stdout or a file."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ctxtui.cli.common import load_packer
from ctxtui.cli.failures import UsageError
from ctxtui.safe_text import active_controls, clean_for_terminal

if TYPE_CHECKING:
    from ctxtui.cli.commands import Options


def run(args: Options) -> int:
    workspace, packer, budget = load_packer(args.project, args, strict=True)
    tool_stderr = getattr(packer, "stderr", None)  # Shabka: an empty pack or a failure prints no packet
    if tool_stderr is not None:
        err, status = tool_stderr(packer.plan(budget))
        if err:  # Shabka prints nothing on stdout then, and writes no file
            sys.stderr.write(err)
            sys.stderr.flush()
            return int(status)
    fmt = args.format
    if packer.name in ("ctx-0.8.1", "ctx-0.8.0") and fmt not in packer.formats:
        # ctx prints JSON for exactly "json" and Markdown for anything else (`run.go:70`).
        print(f"ctxtui: notice: --format {fmt!r} is not json: ctx prints Markdown for it", file=sys.stderr)
        fmt = "md"
    if fmt not in packer.formats:
        raise UsageError(f"--format {fmt}: the {packer.name} packet is printed as {' or '.join(packer.formats)}")
    sources: list[str] = []
    if args.output is not None:  # refused before any work: `-o ""` or `-o .context/TASKS.md` never get a packet
        import os

        from ctxtui.cli.common import request_from_args
        from ctxtui.opening.sources import source_paths
        from ctxtui.safe_write import WriteRefused, check_target

        # Every path any packer reads for these options (context folders by any name, steering, .ctxrc, --db).
        sources = source_paths(request_from_args(args.project, args), os.environ)
        if workspace is not None:
            sources.append(os.path.join(workspace.project, workspace.parsed.files.label))
        try:
            check_target(args.output, sources=sources)
        except WriteRefused as exc:
            raise UsageError(f"-o {exc}") from None
    text = packer.plan(budget).render(fmt)
    data = text.encode("utf-8", "surrogateescape")
    if args.output is not None:
        from ctxtui.safe_write import WriteRefused, write_atomically

        try:
            write_atomically(args.output, data, sources=sources)
        except WriteRefused as exc:
            raise UsageError(f"-o {exc}") from None
    else:
        write_packet_to_stdout(text, data)
    return 0


def write_packet_to_stdout(text: str, data: bytes) -> None:
    """The exact bytes to a pipe or file; to a terminal, control sequences made visible, with a warning.

    A packet can carry escape sequences from the user's files (an OSC 52 in a
    task line rewrites the clipboard when a terminal prints it). Pipes and
    files get the packet byte for byte; a terminal never executes them.
    """
    if sys.stdout.isatty() and (count := active_controls(text)):
        print(
            f"ctxtui: warning: the packet holds {count} terminal control character{'s' if count != 1 else ''} "
            "(ESC, BEL, ...): shown here as visible symbols such as ␛; redirect to a file or a pipe, "
            "or use -o FILE, for the exact bytes",
            file=sys.stderr,
        )
        sys.stdout.write(clean_for_terminal(text))
        sys.stdout.flush()
        return
    sys.stdout.buffer.write(data)
    sys.stdout.flush()

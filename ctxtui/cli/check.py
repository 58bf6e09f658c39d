"""`ctxtui check`: a budget guard for CI — exit 1 when the rendered packet costs more than --max-tokens.

The packet is built as the tool builds it (ctx's estimate decides what goes
in); `--tokenizer` chooses what counts the rendered text: ctx's estimate of
the whole text, or a real vocabulary (o200k_base, cl100k_base), which is what
a model bills.
"""

from __future__ import annotations

import argparse
import copy

from ctxtui.cli.common import load_packer
from ctxtui.cli.failures import UsageError
from ctxtui.engine.text.tokens import estimate

FORMAT_WORDS = {"md": "Markdown", "json": "JSON"}


def run(args: argparse.Namespace) -> int:
    if args.max_tokens < 0:
        raise UsageError("--max-tokens must not be negative")
    counting = args.tokenizer
    building = copy.copy(args)
    building.tokenizer = "ctx"
    _, packer, budget = load_packer(args.project, building)
    if args.format not in packer.formats:
        raise UsageError(
            f"--format {args.format}: the {packer.name} packet is printed as {' or '.join(packer.formats)}"
        )
    text = packer.plan(budget).render(args.format)  # the bytes `ctxtui pack` prints
    if counting == "ctx":
        tokens = estimate(text)
    else:
        from ctxtui.engine.text.tokenizers import TokenizerUnavailable, get_tokenizer

        try:
            tokens = get_tokenizer(counting).count(text)
        except TokenizerUnavailable as exc:
            raise UsageError(str(exc)) from None
    plan = packer.plan(budget)
    counted = "ctx's estimate" if counting == "ctx" else counting
    what = f"{packer.name} packet at budget {budget:,}: {tokens:,} tokens in the whole rendered {FORMAT_WORDS.get(args.format, args.format)} ({counted})"
    if counting == "ctx" and packer.name in ("ctx-0.8.1", "ctx-0.8.0"):
        # The packet's own "Used: ~N tokens" is another sum: what ctx charged for the parts it put in.
        what += f", not the packet's own Used line (~{plan.tokens_used:,}: the parts ctx charged)"
    if tokens > args.max_tokens:
        print(f"{what} > {args.max_tokens:,}: over by {tokens - args.max_tokens:,}")
        return 1
    print(f"{what} ≤ {args.max_tokens:,}: ok")
    return 0

"""`ctxtui pack`'s usual command lines, read without argparse (a cold `pack` races the Go `ctx agent`).

Importing argparse (with gettext and locale) and building the `pack` parser
cost a cold start ~4 ms, more than the rest of the command line handling.
`pack_args` reads the plain forms — the project, `--name value`,
`--name=value`, `-o FILE`, the two flags, repeated `--set` and `--tag` — and
gives the namespace argparse would give. Anything else (help, an
abbreviation, a value starting with "-" (argparse reads some as options, and
drops a "--"), a second project, a choice
argparse would refuse...) returns None, and the caller lets the real parser
(`parser.build_parser`) read it, with its own messages. The options are
those `parser.py` declares for `pack`: a test compares both readings on
generated command lines, and that every `pack` option is known here.
"""

from __future__ import annotations

from ctxtui.cli.commands import TOKENIZERS, PackOptions
from ctxtui.engine.packers.registry import PACKERS

# Option → its namespace name; the values argparse leaves when an option is not given.
VALUE_OPTIONS = {
    "--packer": "packer",
    "--budget": "budget",
    "--now": "now",
    "--root-path": "root_path",
    "--skill": "skill",
    "--context-dir": "context_dir",
    "--tokenizer": "tokenizer",
    "--db": "db",
    "--project": "db_project",
    "--query": "query",
    "--kind": "kind",
    "--user": "user",
    "--tags": "tags_text",
    "--args-json": "args_json",
    "--intent": "intent",
    "--agent": "agent",
    "--turn": "turn",
    "--frame": "frame",
    "--rev": "rev",
    "--format": "format",
    "--output": "output",
    "-o": "output",
}
REPEATED_OPTIONS = {"--set": "settings", "--tag": "tag"}
FLAGS = {"--ignore-refusal": "ignore_refusal", "--allow-outside-cwd": "allow_outside_cwd"}
CHOICES = {"packer": PACKERS, "tokenizer": TOKENIZERS}
DEFAULTS: dict[str, object] = {"format": "md", "tokenizer": "ctx"}


def pack_args(argv: list[str]) -> PackOptions | None:
    """`argv` (from "pack" on) as argparse would parse it, or None when the real parser should read it."""
    if argv[:1] != ["pack"]:
        return None
    values: dict[str, object] = {"command": "pack", "project": "."}
    values.update(dict.fromkeys(VALUE_OPTIONS.values()))
    values.update(DEFAULTS)
    values.update(dict.fromkeys(FLAGS.values(), False))
    repeated: dict[str, list[str]] = {dest: [] for dest in REPEATED_OPTIONS.values()}
    project_seen = False
    words = iter(argv[1:])
    for word in words:
        if not word.startswith("-"):
            if project_seen:
                return None
            values["project"], project_seen = word, True
            continue
        name, equals, given = word.partition("=")
        if name in FLAGS and not equals:
            values[FLAGS[name]] = True
            continue
        dest = VALUE_OPTIONS.get(name) or REPEATED_OPTIONS.get(name)
        if dest is None or (equals and not name.startswith("--")):
            return None
        value = given if equals else next(words, None)
        if value is None or value.startswith("-"):
            return None
        if dest in CHOICES and value not in CHOICES[dest]:
            return None
        if name in REPEATED_OPTIONS:
            repeated[dest].append(value)
        else:
            values[dest] = value
    return PackOptions(**values, **repeated)

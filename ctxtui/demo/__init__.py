"""The built-in demo: a believable `.context/` for a fictional billing service.

`ctxtui demo` must show every interesting behaviour on first launch, with no
project of the user's: tasks whose keywords match some decisions and not
others, entries in every recency bracket, enough content that an 8000-token
budget has to choose, and a few of ctx's quirks (a `~~Superseded` decision, a
`**Status**: Superseded` one ctx does not notice, a task hidden in an HTML
comment, comment bullets counted as conventions, a constitution ctx never
reads). Beside the files, `.context/memory.db` holds about 300 memories in
ctxtui's own schema (decisions, lessons, fixes, errors, facts, procedures...,
a few archived or superseded, with usage), so the demo also shows database
memories ranked beside markdown entries. Dates are relative to the "now" the
caller passes, so recency always looks the same. The files live in a per-user
cache directory (`ctxtui.paths.demo_root`) and are rewritten on every launch.

The content is data (`content/`: markdown and TOML); `builder` turns it into files.
"""

from __future__ import annotations

from ctxtui.demo.builder import (
    demo_files,
    demo_memories,
    demo_memory_db_path,
    demo_root,
    prepare_demo,
    write_demo,
    write_demo_memory_db,
)

__all__ = [
    "demo_files",
    "demo_memories",
    "demo_memory_db_path",
    "demo_root",
    "prepare_demo",
    "write_demo",
    "write_demo_memory_db",
]

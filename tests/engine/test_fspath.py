"""`fspath.join` and `fspath.absolute` spell paths exactly as pathlib does (the sources print them)."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from ctxtui.engine.sources.fspath import absolute, join
from hypothesis import given, settings
from hypothesis import strategies as st

part = st.lists(
    st.sampled_from(["", "/", "//", "///", ".", "..", "a", "b c", ".context", "x.md", "é"]), max_size=6
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(st.lists(part, min_size=1, max_size=4))
def test_join_is_pure_posix_path(parts):
    assert join(*parts) == str(PurePosixPath(*parts))
    assert join(*map(PurePosixPath, parts)) == str(PurePosixPath(*parts))


@settings(max_examples=500, deadline=None)
@given(part, st.sampled_from(["/", "/work/x", "//net/share", "/a/./b"]))
def test_absolute_is_path_absolute(path, cwd):
    real = os.getcwd
    os.getcwd = lambda: cwd  # Path.absolute and `absolute` both ask os.getcwd
    try:
        assert absolute(path) == str(Path(path).absolute())
    finally:
        os.getcwd = real

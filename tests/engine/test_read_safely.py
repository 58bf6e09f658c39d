"""`read_bytes_safely` reads a whole regular file however its size compares with the first read's."""

from __future__ import annotations

import os

import pytest
from ctxtui.engine.sources import files
from ctxtui.engine.sources.files import FileTooBig, NotRegularFile, read_bytes_safely


@pytest.mark.parametrize("size", [0, 1, 4095, 65536, 65537, 300_000])
def test_whole_file(tmp_path, size):
    path = tmp_path / "f.md"
    data = bytes(range(256)) * (size // 256) + b"x" * (size % 256)
    path.write_bytes(data)
    assert read_bytes_safely(str(path)) == data


class _StaleSize:
    """fstat as if the file had been smaller when it was opened (it grew since)."""

    def __init__(self, real, size):
        self.real, self.size = real, size

    def __call__(self, fd):
        info = self.real(fd)
        return os.stat_result((info.st_mode, *tuple(info)[1:6], self.size, *tuple(info)[7:]))


@pytest.mark.parametrize("told", [0, 10, 70_000])
def test_a_file_that_grew_after_its_size_was_read_is_read_to_its_end(tmp_path, monkeypatch, told):
    path = tmp_path / "f.md"
    data = os.urandom(200_000)
    path.write_bytes(data)
    monkeypatch.setattr(files.os, "fstat", _StaleSize(os.fstat, told))
    assert read_bytes_safely(str(path)) == data


def test_growing_past_the_limit_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "f.md"
    path.write_bytes(b"a" * 5000)
    monkeypatch.setattr(files.os, "fstat", _StaleSize(os.fstat, 10))
    with pytest.raises(FileTooBig, match="grew past the 4,000-byte limit"):
        read_bytes_safely(str(path), limit=4000)


def test_over_the_limit_and_not_regular(tmp_path):
    path = tmp_path / "f.md"
    path.write_bytes(b"a" * 5000)
    with pytest.raises(FileTooBig, match="5,000 bytes, over the 4,000-byte limit"):
        read_bytes_safely(str(path), limit=4000)
    with pytest.raises(NotRegularFile):
        read_bytes_safely(str(tmp_path))

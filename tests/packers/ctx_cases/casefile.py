"""One recorded ctx case: its workspace as data, how to build it on disk, and how each run is invoked.

A case file (`<name>.json` next to this module) holds the workspace (text
files, base64 for other bytes, symbolic links, sparse big files), how ctx was
run (time zone, "now", environment, `.git`) and one entry per run: the ctx
version (`0.8.1`, `0.8.0`, `mcp`), budget, format and extra arguments, with
what the real binary printed (stdout, stderr, exit status). Every case ran at
`/tmp/ctx-case` (`RECORDED_ROOT`), so paths in the outputs are that path.
`record.py` writes these files with the real binaries; the test rebuilds each
workspace at a path of the same length and runs ctxtui on it.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RECORDED_ROOT = "/tmp/ctx-case"  # 13 characters: the test builds each workspace at a path this long
RECORDED_LINK = RECORDED_ROOT + "-link"  # a symbolic link to it, for the `$PWD`-through-a-link cases
PACKERS = {"0.8.1": "ctx-0.8.1", "0.8.0": "ctx-0.8.0", "mcp": "ctx-mcp"}


@dataclass
class Run:
    """One invocation of one ctx version on the case's workspace, and what it printed."""

    version: str  # "0.8.1", "0.8.0" or "mcp" (the MCP agent-packet resource of 0.8.1)
    budget: str | None = None  # as given on the command line (None: not given)
    format: str | None = None  # --format (None: not given)
    extra: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)  # on top of the case's environment
    stdout: bytes = b""
    stderr: bytes = b""
    exit: int = 0
    xfail: str | None = None  # why ctxtui is known to differ here
    note: str | None = None
    build: str | None = None  # "nojsonv2": the oracle rebuilt with Go <= 1.26's encoding/json (release builds)

    @property
    def label(self) -> str:
        parts = [self.version, f"b={self.budget}" if self.budget is not None else "b=default"]
        if self.format is not None:
            parts.append(f"f={self.format!r}" if self.format not in ("md", "json") else self.format)
        parts += self.extra
        parts += [f"{k}={v!r}" for k, v in self.env.items()]
        if self.build:
            parts.append(self.build)
        return " ".join(parts)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "budget": self.budget, "format": self.format}
        for key in ("extra", "env", "xfail", "note", "build"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        for key in ("stdout", "stderr"):
            out.update(_encode_bytes(key, getattr(self, key)))
        out["exit"] = self.exit
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Run:
        return cls(
            version=data["version"],
            budget=data.get("budget"),
            format=data.get("format"),
            extra=list(data.get("extra", [])),
            env=dict(data.get("env", {})),
            stdout=_decode_bytes("stdout", data),
            stderr=_decode_bytes("stderr", data),
            exit=int(data.get("exit", 0)),
            xfail=data.get("xfail"),
            note=data.get("note"),
            build=data.get("build"),
        )


@dataclass
class Case:
    """A workspace and the runs recorded on it."""

    name: str
    note: str
    files: dict[str, bytes]  # project-relative path → content
    symlinks: dict[str, str] = field(default_factory=dict)  # project-relative path → link target
    big: dict[str, tuple[bytes, int]] = field(default_factory=dict)  # path → (head, size): sparse files
    dirs: list[str] = field(default_factory=list)  # empty directories
    git: bool | str = True  # True: an empty .git/ folder; "file": a .git file; False: none
    cwd: str = ""  # where ctx runs, relative to the project
    tz: str = "UTC"
    now: str = "2026-11-21T23:56:08Z"
    env: dict[str, str] = field(default_factory=dict)  # PWD: "LINK" means RECORDED_LINK
    origin: str = ""
    runs: list[Run] = field(default_factory=list)

    @property
    def path(self) -> Path:
        return HERE / f"{self.name}.json"

    def build(self, root: Path) -> Path:
        """Write the workspace under `root` (which must not exist yet); returns the directory ctx runs in."""
        root.mkdir(parents=True)
        for rel in self.dirs:
            (root / rel).mkdir(parents=True, exist_ok=True)
        for rel, data in self.files.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        for rel, (head, size) in self.big.items():
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as fh:
                fh.write(head)
                fh.truncate(size)  # sparse: nothing this big is stored or written
        for rel, link in sorted(self.symlinks.items()):
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(link, target)
        if self.git is True:
            (root / ".git").mkdir(exist_ok=True)
        elif self.git == "file":
            (root / ".git").write_text("gitdir: /nonexistent\n")
        return root / self.cwd if self.cwd else root

    def to_json(self) -> dict[str, Any]:
        text, binary = {}, {}
        for rel, data in sorted(self.files.items()):
            try:
                text[rel] = data.decode("utf-8")
            except UnicodeDecodeError:
                binary[rel] = base64.b64encode(data).decode("ascii")
        out: dict[str, Any] = {"name": self.name, "note": self.note}
        if self.origin:
            out["origin"] = self.origin
        out["files"] = text
        if binary:
            out["files_b64"] = binary
        if self.symlinks:
            out["symlinks"] = dict(sorted(self.symlinks.items()))
        if self.big:
            out["big"] = {
                rel: {"head": head.decode("utf-8"), "size": size} for rel, (head, size) in sorted(self.big.items())
            }
        if self.dirs:
            out["dirs"] = sorted(self.dirs)
        out.update(git=self.git, cwd=self.cwd, tz=self.tz, now=self.now, env=self.env)
        out["runs"] = [run.to_json() for run in self.runs]
        return out

    def save(self) -> None:
        self.path.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Case:
        files = {rel: text.encode("utf-8") for rel, text in data.get("files", {}).items()}
        files.update({rel: base64.b64decode(b) for rel, b in data.get("files_b64", {}).items()})
        return cls(
            name=data["name"],
            note=data.get("note", ""),
            files=files,
            symlinks=dict(data.get("symlinks", {})),
            big={rel: (v["head"].encode("utf-8"), int(v["size"])) for rel, v in data.get("big", {}).items()},
            dirs=list(data.get("dirs", [])),
            git=data.get("git", True),
            cwd=data.get("cwd", ""),
            tz=data.get("tz", "UTC"),
            now=data.get("now", "2026-11-21T23:56:08Z"),
            env=dict(data.get("env", {})),
            origin=data.get("origin", ""),
            runs=[Run.from_json(r) for r in data.get("runs", [])],
        )

    @classmethod
    def load(cls, path: Path) -> Case:
        return cls.from_json(json.loads(path.read_text(encoding="utf-8")))


def all_cases() -> list[Case]:
    return [Case.load(path) for path in sorted(HERE.glob("*.json"))]


def _encode_bytes(key: str, data: bytes) -> dict[str, str]:
    try:
        return {key: data.decode("utf-8")}
    except UnicodeDecodeError:
        return {f"{key}_b64": base64.b64encode(data).decode("ascii")}


def _decode_bytes(key: str, data: dict[str, Any]) -> bytes:
    if f"{key}_b64" in data:
        return base64.b64decode(data[f"{key}_b64"])
    return str(data.get(key, "")).encode("utf-8")

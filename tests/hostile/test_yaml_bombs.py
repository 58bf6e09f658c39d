"""YAML merge-key bombs (`<<: [*a, *a, …]` nested) in `.ctxrc` and steering front matter: read in bounded time, as ctx reads them.

yaml.v3 decodes a merge by decoding every merged map again and counts each
step; past 1,000 steps with more than 99 % of them inside aliases it stops
with "document contains excessive aliasing", keeping what it had set. ctx
then warns and packs as usual (a bad steering file drops all steering).
ctxtui flattened merges itself: 470 bytes took 42 s and 724 bytes never
ended. Every expected value here is what gopkg.in/yaml.v3 v3.0.1 itself
gave, decoding into ctx 0.8.1's `CtxRC` struct (a Go program built against
its source; 2,100 documents, generated and hand-written, agreed).
"""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from tests.conftest import NOW, ROOT, write_context


def bomb(levels: int, width: int, before: tuple[str, ...] = (), leaf: str = "{k: v}") -> str:
    lines = [f"x0: &a0 {leaf}"]
    for i in range(1, levels):
        lines.append(f"x{i}: &a{i} {{<<: [{', '.join([f'*a{i - 1}'] * width)}]}}")
    lines += before
    lines.append(f"<<: [{', '.join([f'*a{levels - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def within(seconds: float, fn, *args):
    box: dict[str, object] = {}

    def target() -> None:
        try:
            box["value"] = fn(*args)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still decoding after {seconds} s"
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["value"]


def test_ctxrc_bomb_stops_where_yaml_v3_stops():
    from ctxtui.engine.sources.ctxrc import parse_ctxrc

    text = bomb(9, 9, before=("token_budget: 4321", "tool: claude"))
    config = within(10, parse_ctxrc, text)
    # yaml.v3: token_budget 4321, tool "claude", error "document contains excessive aliasing"
    assert (config.token_budget, config.tool) == (4321, "claude")
    assert [p.message for p in config.problems] == [
        "document contains excessive aliasing; ctx stops reading .ctxrc here (what it read before applies)"
    ]


def test_ctxrc_bomb_settings_merged_before_the_limit_apply():
    from ctxtui.engine.sources.ctxrc import parse_ctxrc

    config = within(10, parse_ctxrc, bomb(8, 9, leaf="{token_budget: 77, tool: t}"))
    assert (config.token_budget, config.tool) == (77, "t")  # yaml.v3: 77, "t", excessive aliasing
    assert "excessive aliasing" in config.problems[0].message


@pytest.mark.parametrize(
    ("text", "budget", "tool", "problem"),
    [
        (bomb(3, 3, leaf="{token_budget: 77}"), 77, "", None),  # 27 merged maps: under the limit, no error
        ("token_budget: 3\n<<: {token_budget: 4, tool: y}\n", 3, "y", None),  # an explicit key wins
        # a merged map with a duplicate key is skipped, the next one applies (a type error in ctx)
        ("a: &a {token_budget: 5, token_budget: 7}\nb: &b {token_budget: 6, tool: x}\n<<: [*a, *b]\n", 6, "x", "skips"),
        ("a: &a {tool: q}\na2: &a {tool: r}\n<<: *a\n", None, "r", None),  # an anchor defined again: the last one
    ],
)
def test_merges_as_yaml_v3_decodes_them(text, budget, tool, problem):
    from ctxtui.engine.sources.ctxrc import parse_ctxrc

    config = parse_ctxrc(text)
    assert (config.token_budget, config.tool) == (budget, tool)
    assert (problem is None) == (not config.problems)
    if problem:
        assert problem in config.problems[0].message


def test_an_alias_that_contains_itself():
    from ctxtui.engine.sources.ctxrc import parse_ctxrc

    config = parse_ctxrc("steering: &s {dir: x, <<: *s}\n")
    assert config.steering_dir == "x"  # yaml.v3 had set it, then failed
    assert "anchor 's' value contains itself" in config.problems[0].message


def test_steering_front_matter_bomb():
    from ctxtui.engine.sources.steering import _DecodeError, parse_steering_file

    text = "---\n" + bomb(9, 9, before=("name: boom", "inclusion: always")) + "---\nBody.\n"
    with pytest.raises(_DecodeError, match="excessive aliasing"):
        within(10, parse_steering_file, "b.md", "b.md", text)


def test_pack_with_bombs_in_ctxrc_and_steering(tmp_path):
    project = write_context(
        tmp_path / "p",
        {
            "TASKS.md": "# Tasks\n\n- [ ] Keep me\n",
            "steering/a.md": "---\nname: a\ninclusion: always\n---\nBe kind.\n",
            "steering/b.md": "---\n" + bomb(12, 9, before=("name: b",)) + "---\nBoom.\n",
        },
    )
    (project / ".ctxrc").write_text(bomb(12, 9, before=("token_budget: 3000",)))
    result = subprocess.run(
        [sys.executable, "-m", "ctxtui.cli", "pack", str(project), "--now", NOW.isoformat()],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0 and "- [ ] Keep me" in result.stdout
    assert "excessive aliasing" in result.stderr
    assert "Be kind." not in result.stdout  # one failing steering file drops all steering, as in ctx

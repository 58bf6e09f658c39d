"""A steering file with 100,000 front-matter keys is parsed once, not on every load (issue 20, medium 17).

Before: every reload (each save in the project) parsed it again (15 s a load
in the attack run). Now a large file's parse is remembered by its exact
bytes; an edit (other bytes) is parsed afresh.
"""

from __future__ import annotations

import time

from ctxtui.engine.sources.steering import read_steering

from tests.conftest import write_context


def test_second_load_does_not_parse_again(tmp_path):
    keys = "".join(f"k{i}: 'v{i}'\n" for i in range(20_000))  # quoted: the full YAML decoder, not the fast path
    project = write_context(
        tmp_path / "p", {"steering/big.md": f"---\nname: big\ninclusion: always\n{keys}---\nBe brief.\n"}
    )
    start = time.perf_counter()
    first = read_steering(project)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    again = read_steering(project)
    warm = time.perf_counter() - start
    assert first.files[0].name == again.files[0].name == "big" and again.error is None
    assert warm < cold / 10, (cold, warm)
    path = project / ".context" / "steering" / "big.md"
    path.write_text(path.read_text().replace("name: big", "name: edited"))
    assert read_steering(project).files[0].name == "edited"

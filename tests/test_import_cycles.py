"""No import cycle anywhere in ctxtui/: module by module, lazy (function-level) and type-only imports included.

grimp (import-linter's graph) reads every `import` statement in a module,
wherever it stands: at the top, inside a function, under `TYPE_CHECKING`.
A cycle is a strongly connected set of modules; there must be none. The
import-linter contract "No cycles between siblings" in pyproject.toml says
more (no cycle between sibling packages either) and runs in `make lint`;
this test runs with the suite and names the imports of any cycle it finds.
"""

from __future__ import annotations

import grimp
import pytest


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The graph's strongly connected sets of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.find_modules_directly_imported_by(target)))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == module:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return found


def describe(graph: grimp.ImportGraph, members: list[str]) -> str:
    lines = []
    for importer in members:
        for imported in members:
            for detail in graph.get_import_details(importer=importer, imported=imported):
                lines.append(f"  {importer}:{detail['line_number']}: {detail['line_contents']}")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("ctxtui", cache_dir=None)


def test_no_import_cycle_in_ctxtui(graph):
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(describe(graph, members) for members in found)


def test_the_graph_holds_lazy_and_type_only_imports(graph):
    # adapters imports nous's store inside load_memories (psycopg only for a postgresql:// URL) ...
    lazy = graph.get_import_details(
        importer="ctxtui.engine.sources.memory.adapters", imported="ctxtui.engine.sources.memory.nous.source"
    )
    assert lazy and lazy[0]["line_contents"].startswith("from ")
    # ... and changes names the prepared packer under TYPE_CHECKING only.
    assert graph.direct_import_exists(
        importer="ctxtui.engine.packers.ctx.changes", imported="ctxtui.engine.packers.ctx.prepared"
    )


def test_the_finder_finds_a_cycle_through_three_modules():
    toy = grimp.ImportGraph()
    for name in ("pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        toy.add_module(name)
    toy.add_import(importer="pkg.a", imported="pkg.b")
    toy.add_import(importer="pkg.b", imported="pkg.c")
    toy.add_import(importer="pkg.c", imported="pkg.a")
    toy.add_import(importer="pkg.c", imported="pkg.d")
    assert cycles(toy) == [["pkg.a", "pkg.b", "pkg.c"]]

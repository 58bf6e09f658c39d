"""The app assembles on the UI thread while a worker scans thresholds: shared caches stay consistent."""

from __future__ import annotations

import random
import threading

from ctxtui.engine.explain.thresholds import thresholds
from ctxtui.engine.packers.ctx.assemble import packer_for
from ctxtui.engine.sources.workspace import load_workspace

from tests.conftest import NOW, corpus_path, needs_corpus


@needs_corpus
def test_concurrent_assembly_and_threshold_scan():
    engine = packer_for(load_workspace(corpus_path("ctx-large")), now=NOW, root_path="/project")
    reference = {b: engine.plan(b).tokens_used for b in range(0, 40000, 997)}
    errors: list[BaseException] = []

    def slider():
        rng = random.Random(1)
        try:
            for _ in range(400):
                budget = rng.choice(list(reference))
                packet = engine.plan(budget)
                assert packet.tokens_used == reference[budget]
                packet.outcomes  # noqa: B018
        except BaseException as exc:
            errors.append(exc)

    workers = [threading.Thread(target=slider) for _ in range(2)]
    for worker in workers:
        worker.start()
    found = thresholds(engine)
    for worker in workers:
        worker.join()
    assert not errors, errors
    assert len(found) == 605

"""At 80×24 the status line keeps every number visible (a compact form), also after a resize."""

from __future__ import annotations

import pytest
from ctxtui.tui.widgets.budget.status import StatusLine

from tests.app.helpers import SIZE, make_app, rendered_lines, snapshot_ready, status_text
from tests.conftest import corpus_path, needs_corpus

pytestmark = needs_corpus


def drawn_status(app) -> str:
    return rendered_lines(app.query_one(StatusLine))[0]


@pytest.mark.asyncio
async def test_status_line_fits_80_columns_and_follows_a_resize():
    app = make_app(corpus_path("ctx-dogfood"), budget=4000)
    async with app.run_test(size=SIZE) as pilot:
        await snapshot_ready(pilot)
        counts = app.main.view.plan.counts()
        tail = f"● {counts['included']:,} ◐ {counts['summarized']:,} ✕ {counts['dropped']:,}"
        assert f"used ~{app.main.view.plan.tokens_used:,} tokens" in status_text(app)  # the long form
        assert "o200k_base" in drawn_status(app) and tail in drawn_status(app)

        await pilot.resize_terminal(80, 24)
        await snapshot_ready(pilot)
        line = drawn_status(app)
        assert (
            tail in line
            and f"budget {app.main.view.budget:,}" in line
            and f"{app.main.view.real_tokens:,} o200k" in line
        )
        assert len(status_text(app)) <= 78

        await pilot.resize_terminal(*SIZE)
        await snapshot_ready(pilot)
        assert "o200k_base" in drawn_status(app)

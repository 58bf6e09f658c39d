"""Words a user reads right (issue 21, part 5): every reason on screen is in the legend, quirks are numbered
without gaps, a share is typed as it is shown."""

from __future__ import annotations

import re

import pytest
from ctxtui.engine.explain.quirks import Quirk
from ctxtui.engine.explain.reasons import short_reason
from ctxtui.engine.fate import FATE_OF_CODE
from ctxtui.engine.packers.base import Knob
from ctxtui.engine.packers.cortex.outcomes import CortexReason
from ctxtui.engine.packers.ctx.reason import Reason
from ctxtui.engine.packers.nous.fates import NousReason
from ctxtui.engine.packers.shabka.fates import ShabkaReason
from ctxtui.tui.legend import legend
from ctxtui.tui.legend_reasons import REASON_WORDS
from ctxtui.tui.screens.knobs import editable_text
from ctxtui.tui.screens.quirks import render_quirks
from ctxtui.tui.widgets.budget.settings import knob_value

EVERY_REASON = [*Reason, *CortexReason, *ShabkaReason, *NousReason]


@pytest.mark.parametrize("reason", EVERY_REASON, ids=lambda r: f"{type(r).__name__}.{r.name}")
def test_every_reason_any_packer_gives_has_a_legend_entry(reason):
    label = short_reason(reason)
    assert label in REASON_WORDS, f"{label!r} ({reason!r}) is not explained in the legend"
    assert (label, REASON_WORDS[label]) in legend({fate: "?" for fate in FATE_OF_CODE.values() if fate})


def test_no_legend_entry_is_for_a_reason_no_packer_gives():
    assert set(REASON_WORDS) == {short_reason(r) for r in EVERY_REASON}


def test_the_legend_explains_the_marks_and_the_sum_notation():
    keys = {key for key, _ in legend({}) if key}
    assert {"▲", "▼", "◆", "✎", "fits 0+33≤3,200"} <= keys


def test_quirks_are_numbered_without_gaps():
    quirks = [Quirk(n, f"Quirk {n}", "detail", 1) for n in (1, 2, 3, 5, 7, 8, 11)]
    text = render_quirks(quirks, 4000).plain
    numbers = [int(found.group(1)) for line in text.split("\n") if (found := re.match(r" *(\d+)\. ", line))]
    assert numbers == list(range(1, 8))


SHARE = Knob("task_budget_pct", "task share", "float", 0.4, 0.4, minimum=0.0, maximum=1.0)


@pytest.mark.parametrize(("typed", "value"), [("30%", 0.3), ("30 %", 0.3), ("0.3", 0.3), ("100%", 1.0), ("0%", 0.0)])
def test_a_share_is_typed_as_the_screen_shows_it(typed, value):
    assert SHARE.parse(typed) == pytest.approx(value)


def test_a_share_is_shown_and_edited_as_a_percentage_and_out_of_range_says_so():
    assert knob_value(SHARE) == "40%" and editable_text(SHARE) == "40%"
    assert SHARE.parse(editable_text(SHARE)) == pytest.approx(0.4)
    with pytest.raises(ValueError, match="at most 100%"):
        SHARE.parse("130%")
    with pytest.raises(ValueError, match="a share such as 30% or 0.3"):
        SHARE.parse("lots")
    plain = Knob("limit", "limit", "float", 2.0, 2.0)
    with pytest.raises(ValueError):
        plain.parse("30%")  # a percentage only where the screen shows one


@pytest.mark.parametrize(("typed", "words"), [("25", "type 25% (or 0.25)"), ("100", "type 100% (or 1)")])
def test_a_bare_number_above_1_in_a_share_asks_for_the_percent_sign(typed, words):
    """The field shows "20%": a user types "25". It was refused with "at most 100%" (25 is less than 100)."""
    with pytest.raises(ValueError) as refused:
        SHARE.parse(typed)
    assert str(refused.value) == f"task share: {typed} would be {typed} times the budget: {words}"
    assert SHARE.parse("1") == 1.0  # 0 to 1 is a fraction, as in .ctxrc
    with pytest.raises(ValueError, match="at most 100%"):
        SHARE.parse("250")  # not a percentage either way

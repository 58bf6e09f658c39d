"""Zero-width characters are shown, so two titles that differ only by one never look the same on screen.

U+200B (zero-width space), U+200D (zero-width joiner), U+FEFF (byte-order
mark / zero-width no-break space) and their kin drew as nothing: "Ship it"
and "Ship\u200b it" looked identical in the table, the preview and a packet
printed to a terminal. They now show as U+FFFD like the other invisible
characters; a joiner inside an emoji sequence or between letters of a script
that needs it (Devanagari, Persian) is kept. Copies and saved files keep the
exact bytes (they never pass through the sanitiser).
"""

from __future__ import annotations

import pytest
from ctxtui.safe_text import clean_block, clean_for_terminal, clean_line

HIDDEN = {
    "zero-width space": "\u200b",
    "zero-width non-joiner": "\u200c",
    "zero-width joiner": "\u200d",
    "word joiner": "\u2060",
    "byte-order mark": "\ufeff",
    "soft hyphen": "\u00ad",
    "Mongolian vowel separator": "\u180e",
}


@pytest.mark.parametrize("name", sorted(HIDDEN))
@pytest.mark.parametrize("clean", [clean_line, clean_block, clean_for_terminal])
def test_hidden_characters_are_shown(name, clean):
    title = f"Ship{HIDDEN[name]} it"
    assert clean(title) != clean("Ship it")
    assert clean(title) == "Ship\ufffd it"


@pytest.mark.parametrize("clean", [clean_line, clean_block, clean_for_terminal])
def test_at_either_end_too(clean):
    assert clean("\ufeffTitle\u200b") == "\ufffdTitle\ufffd"


def test_joiners_that_build_a_character_are_kept():
    woman_technologist = "\U0001f469\u200d\U0001f4bb"
    devanagari = "\u0915\u094d\u200d\u0937"  # a half form, asked for by the joiner
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # "mi-khaham": the non-joiner is spelling
    for text in (woman_technologist, devanagari, persian):
        assert clean_line(text) == text

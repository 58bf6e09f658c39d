"""Invalid UTF-8 bytes the engine keeps (lone surrogates) never reach the terminal."""

from ctxtui.tui.clipboard import as_valid_text
from ctxtui.tui.safe_text import clean_block, clean_line


def test_clean_line_and_block_replace_lone_surrogates():
    assert clean_line("caf\udce9\x1b") == "caf\ufffd\u241b"
    assert clean_block("a\udcff\nb") == "a\ufffd\nb"


def test_clipboard_text_is_valid_utf8():
    assert as_valid_text("caf\udce9") == "caf\ufffd"
    assert as_valid_text("plain") == "plain"

"""The one sanitiser: untrusted text made safe to show on a terminal.

Entry titles and bodies, file and folder names and memory rows come from the
user's files and databases. Whatever shows them — a widget, a toast, the CLI
writing to a terminal — passes them through here first, so no terminal control
sequence inside them is ever executed: every C0/C1 control, DEL, ESC and
bidirectional override becomes a visible stand-in (an ESC shows as ␛), and so
does a character that draws as nothing (zero-width space, joiner, byte-order
mark...), so two titles that differ by one never look the same. Copying
and saving never go through here: they keep the exact bytes. Plain Python, no
Rich, so the headless CLI can use it too.
"""

from __future__ import annotations

_TABLES: tuple[dict[int, str], dict[int, str], dict[int, str]] | None = None


def _tables() -> tuple[dict[int, str], dict[int, str], dict[int, str]]:
    """The translation tables for one line, a block and a terminal; built on first use.

    Most text is clean and never needs them, and a cold `ctxtui pack` should not
    pay for filling 2,000-odd surrogate entries it will not use (nor for
    importing `functools` to cache them).
    """
    global _TABLES
    if _TABLES is not None:
        return _TABLES
    # C0 controls become their Unicode "control picture" (U+2400 + code), so an ESC
    # shows as ␛ instead of starting a sequence; DEL gets its own picture.
    pictures = {code: chr(0x2400 + code) for code in range(0x20)}
    pictures[0x7F] = "\u2421"  # ␡
    # Bidi embeddings/overrides/isolates and a few invisible format characters can
    # reorder or hide what the terminal shows: make them visible as U+FFFD.
    invisible = (
        [*range(0x80, 0xA0)]  # C1 controls (0x9B is a one-byte CSI on some terminals)
        + [0x061C, 0x200E, 0x200F, 0x2028, 0x2029]
        + [*range(0x202A, 0x202F)]
        + [*range(0x2066, 0x206A)]
        # Drawn as nothing: soft hyphen, combining grapheme joiner, Mongolian vowel separator, zero-width
        # space, word joiner and invisible operators, byte-order mark. (The two joiners, U+200C and U+200D,
        # are handled in `_joiners`: some scripts and emoji need them.)
        + [0x00AD, 0x034F, 0x180E, 0x200B, *range(0x2060, 0x2065), 0xFEFF]
    )
    single_line = dict(pictures)
    single_line[0x09] = " "  # a tab is harmless as one space in a single-line cell
    single_line.update(dict.fromkeys(invisible, "\ufffd"))
    multi_line = dict(single_line)
    del multi_line[0x0A]  # keep line breaks when showing a body over several lines
    multi_line[0x09] = "    "
    # Lone surrogates are invalid UTF-8 bytes the engine keeps (surrogateescape):
    # written to a terminal they would become "\udcff" text or an encoding error.
    surrogates = dict.fromkeys(range(0xD800, 0xE000), "\ufffd")
    single_line.update(surrogates)
    multi_line.update(surrogates)
    terminal = dict(multi_line)
    del terminal[0x09]  # a terminal expands tabs itself
    _TABLES = single_line, multi_line, terminal
    return _TABLES


# Compiled on first use (re's cache): a cold `ctxtui pack` only ever cleans a plain ASCII notice.
_UNSAFE = (
    "[\x00-\x1f\x7f-\x9f\xad\u034f\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064"
    "\u2066-\u2069\ud800-\udfff\ufeff]"
)
# What can act on a terminal: every control but tab and newline, and a carriage
# return that is not part of a CRLF line end (a lone one overwrites the line).
_ACTIVE = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)"


def _safe(text: str) -> bool:
    """No character `_UNSAFE` names: for ASCII, exactly the printable ones (no regex needed)."""
    if text.isascii():
        return text.isprintable()
    import re  # a cold `ctxtui pack` never imports `re`: its notices are plain ASCII

    return re.search(_UNSAFE, text) is None


def _joiners(text: str) -> str:
    """U+200C and U+200D shown as U+FFFD, unless both neighbours are non-ASCII characters that are drawn.

    A joiner builds an emoji sequence (👩‍💻) or a Devanagari half form, and the non-joiner is spelling in
    Persian: between two such characters it stays. Anywhere else ("Ship\u200dit", at either end, next to
    a space or an ASCII letter) it only hides a difference, so it is shown.
    """
    if "\u200c" not in text and "\u200d" not in text:
        return text
    import re

    def shown(match: re.Match[str]) -> str:
        at, end = match.start(), match.end()
        before = text[at - 1] if at else " "
        after = text[end] if end < len(text) else " "
        drawn = all(not c.isascii() and not c.isspace() and c not in "\ufffd\u200c\u200d" for c in (before, after))
        return match.group() if drawn else "\ufffd"

    return re.sub("[\u200c\u200d]", shown, text)


def clean_line(text: str) -> str:
    """One line of untrusted text, safe to draw: no controls, no line breaks, nothing that draws as nothing."""
    if _safe(text):  # the common case costs one scan
        return text
    return _joiners(text.translate(_tables()[0]))


def clean_block(text: str) -> str:
    """Untrusted text that may span lines: newlines kept, tabs expanded, the rest neutralised."""
    if _safe(text):
        return text
    return _joiners(text.replace("\r\n", "\n").translate(_tables()[1]))


def active_controls(text: str) -> int:
    """How many characters in `text` could act on a terminal (ESC, BEL, C1, a lone CR...)."""
    import re  # only for a packet printed to a terminal

    return sum(1 for _ in re.finditer(_ACTIVE, text))


def clean_for_terminal(text: str) -> str:
    """A whole document for a terminal: tabs and CRLF line ends kept, every other control made visible."""
    if _safe(text):
        return text
    return _joiners(text.replace("\r\n", "\n").translate(_tables()[2]))

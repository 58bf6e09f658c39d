"""Keyword folding: ctx 0.8.1 case-folds, 0.8.0 lowercases — checked on every Unicode code point.

0.8.1 extracts task keywords with `strings.FieldsFunc(i18n.Fold(t), notKeywordRune)`
(`internal/cli/agent/core/score/score.go:117-120` at ce5a832) and matches them in
`i18n.Fold(eb.BlockContent())` (`score.go:70`); `i18n.Fold` is golang.org/x/text
`cases.Fold(cases.HandleFinalSigma(true))` (`internal/i18n/fold.go:16,50-52`) — Unicode
*full* case folding (CaseFolding.txt C + F: ß → ss), not `unicode.SimpleFold`.
0.8.0 uses `strings.ToLower` in both places (`score.go:121` and `:69` at v0.8.0).
The split keeps only `a-z`, `0-9`, `-` and `_` (`score.go:118-119`), so the two differ
exactly where one of them turns a non-ASCII character into something with those
characters in it.

GO_FOLD_LOWER holds what Go itself returns for every such character (dumped for all
1,112,064 scalar values by a Go program linked against the x/text v0.40.0 that ctx
vendors; see /work/notes/ctx-differences.md §1). The tests below derive the same list
from Python's Unicode database through the engine's own functions and compare.
"""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from ctxtui.engine.packers.ctx.score import keywords_by_task
from ctxtui.engine.packers.ctx.versions import V0_8_0, V0_8_1

from tests.packers.ctx_cases.casefile import Case
from tests.packers.ctx_cases.handmade import GO_FOLD_LOWER, fold_char_decisions

KEYWORD_CHAR = re.compile(r"[a-z0-9_-]")
# The 18 characters whose keywords differ (the Kelvin sign folds and lowercases to k alike).
DIFFERING = sorted(set(GO_FOLD_LOWER) - {"\u212a"})


def _scalar_values():
    for cp in range(0x80, sys.maxunicode + 1):
        if not 0xD800 <= cp <= 0xDFFF:
            yield chr(cp)


def test_every_code_point_folds_and_lowercases_as_go_does_after_the_split():
    """Every non-ASCII character where the engine's fold or lower yields a keyword character is one Go's
    dump lists, with Go's exact output; all others give separators only in both, as in Go."""
    assert unicodedata.unidata_version >= "14.0.0"
    found = {}
    for char in _scalar_values():
        folded, lowered = V0_8_1.fold(char), V0_8_0.fold(char)
        if KEYWORD_CHAR.search(folded) or KEYWORD_CHAR.search(lowered):
            found[char] = (folded, lowered)
    assert found == GO_FOLD_LOWER


def test_ascii_folds_and_lowercases_alike():
    for cp in range(0x80):
        char = chr(cp)
        assert V0_8_1.fold(char) == V0_8_0.fold(char) == char.lower()


def projection(text: str) -> list[str]:
    return re.split(r"[^a-z0-9_-]+", text)


@pytest.mark.parametrize("char", sorted(GO_FOLD_LOWER), ids=lambda c: f"U+{ord(c):04X}")
def test_each_character_gives_go_s_keywords(char):
    """`- [ ] abc<c>def`: the keywords each version extracts are those of Go's fold / ToLower output."""
    task = f"- [ ] abc{char}def"
    go_fold, go_lower = GO_FOLD_LOWER[char]

    def keywords(text: str) -> tuple[str, ...]:
        seen: list[str] = []
        for word in projection(text):
            if len(word) >= 3 and word not in seen:
                seen.append(word)
        return tuple(seen)

    assert keywords_by_task([task], V0_8_1.fold) == [keywords(task.replace(char, go_fold).lower())]
    assert keywords_by_task([task], V0_8_0.fold) == [keywords(task.replace(char, go_lower).lower())]
    differs = keywords_by_task([task], V0_8_1.fold) != keywords_by_task([task], V0_8_0.fold)
    assert differs == (char in DIFFERING)


def test_the_issue_examples():
    """Straße: Fold → strasse (one keyword), ToLower → stra (ß splits; "se" is too short)."""
    assert keywords_by_task(["- [ ] Straße"], V0_8_1.fold) == [("strasse",)]
    assert keywords_by_task(["- [ ] Straße"], V0_8_0.fold) == [("stra",)]
    assert keywords_by_task(["- [ ] STRASSE"], V0_8_1.fold) == [("strasse",)]
    assert keywords_by_task(["- [ ] İstanbul"], V0_8_1.fold) == [("stanbul",)]  # i + U+0307 splits the word
    assert keywords_by_task(["- [ ] İstanbul"], V0_8_0.fold) == [("istanbul",)]


def _decision_order(stdout: bytes) -> list[str]:
    text = stdout.decode()
    return re.findall(r"^## \[2026-11-20-120000\] (\w+)$", text.split("## Recent Decisions\n", 1)[1], re.M)


@pytest.mark.parametrize("char", sorted(GO_FOLD_LOWER), ids=lambda c: f"U+{ord(c):04X}")
def test_the_real_binaries_agree_character_by_character(char):
    """The recorded case fold-char-XXXX: task `abc<c>def`; decision Z (unrelated), then one decision per
    keyword either version extracts, all of one date. Relevance (score.go:66-81) puts decisions matching
    more keywords first, ties in file order; the order real ctx 0.8.1 and 0.8.0 printed is the one Go's
    Fold and ToLower predict, and it differs between the versions exactly for the 18 characters."""
    case = Case.load(Case("fold-char-%04x" % ord(char), "", {}).path)
    go_fold, go_lower = GO_FOLD_LOWER[char]
    decisions = fold_char_decisions(char, go_fold, go_lower)

    def predicted(go_text: str) -> list[str]:
        words = [w for w in projection(f"abc{char}def".replace(char, go_text)) if len(w) >= 3]
        matches = {
            title: sum(w in f"## [2026-11-20-120000] {title}\n\nbody {body}".lower() for w in words)
            for title, body in decisions
        }
        return sorted(matches, key=lambda title: -min(matches[title], 3))

    runs = {(run.version, run.format): run for run in case.runs}
    new, old = _decision_order(runs["0.8.1", None].stdout), _decision_order(runs["0.8.0", None].stdout)
    assert new == predicted(go_fold)
    assert old == predicted(go_lower)
    assert (new != old) == (char in DIFFERING)

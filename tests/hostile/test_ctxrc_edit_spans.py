"""`tune` edits only the value it sets (issue 20, high 10).

The line-based editor removed every line after the key that started with a
space, a tab or `-`: a `---` document separator went (and the second document,
which ctx ignores, became the settings), an indented comment went. The edit now
replaces the value's own span, found with the YAML parser's marks; ctxtui's
own `.ctxrc` reader (`parse_ctxrc`, yaml.v3's rules: the first document only)
is the oracle of what ctx reads.
"""

from __future__ import annotations

import pytest
from ctxtui.engine.sources.ctxrc import parse_ctxrc
from ctxtui.engine.sources.ctxrc_edit import CtxrcEditError, set_keys
from hypothesis import given, settings
from hypothesis import strategies as st

FIELDS = {"token_budget": "token_budget", "task_budget_pct": "task_pct", "convention_budget_pct": "convention_pct"}
FIELDS["tool"] = "tool"
COMPARED = ("token_budget", "task_pct", "convention_pct", "tool", "steering_dir", "context_dir", "allow_outside_cwd")


def settings_of(text: str, version: str) -> dict:
    config = parse_ctxrc(text, version)
    return {name: getattr(config, name) for name in COMPARED}


def assert_reads_as_intended(old: str, new: str, changes: dict) -> None:
    for version in ("0.8.1", "0.8.0"):
        expected = settings_of(old, version)
        if version == "0.8.1":
            expected.update({FIELDS[key]: value for key, value in changes.items()})
        else:
            if "token_budget" in changes:
                expected["token_budget"] = changes["token_budget"]
        assert settings_of(new, version) == expected, (version, new)
        old_problems = {p.message for p in parse_ctxrc(old, version).problems}
        assert {p.message for p in parse_ctxrc(new, version).problems} <= old_problems


# -- the cases ---------------------------------------------------------------------------


def test_a_document_separator_after_the_key_stays():
    text = "tool: claude\n---\ntool: second document, ignored by ctx\n"
    edited = set_keys(text, {"tool": "codex"})
    assert edited == "tool: codex\n---\ntool: second document, ignored by ctx\n"
    assert parse_ctxrc(edited).tool == "codex"


def test_a_list_value_ends_before_the_separator():
    text = "unknown:\n- a\n- b\ntool: claude\n---\n- not settings\n"
    edited = set_keys(text, {"tool": "codex", "token_budget": 5000})
    assert edited == "unknown:\n- a\n- b\ntool: codex\ntoken_budget: 5000\n---\n- not settings\n"


def test_an_indented_comment_after_the_key_stays():
    text = "token_budget: 4000\n  # the window of the model we use\n    # and more\ntool: x\n"
    edited = set_keys(text, {"token_budget": 6000})
    assert edited == text.replace("4000", "6000")


def test_a_block_value_is_replaced_whole_and_nothing_after_it():
    text = "tool:\n  - a\n  - b\n  # about b\n# next\ntoken_budget: 1\n"
    edited = set_keys(text, {"tool": "codex"})
    assert edited == "tool: codex\n  # about b\n# next\ntoken_budget: 1\n"
    assert parse_ctxrc(edited).tool == "codex"


def test_block_scalars_flow_mappings_and_quotes():
    assert set_keys("tool: |\n  claude\nx: 1\n", {"tool": "codex"}) == "tool: codex\nx: 1\n"
    assert set_keys("{token_budget: 4000, tool: x}\n", {"token_budget": 6000, "task_budget_pct": 0.25}) == (
        "{token_budget: 6000, tool: x, task_budget_pct: 0.25}\n"
    )
    assert set_keys("{}\n", {"tool": "codex"}) == "{tool: codex}\n"
    assert set_keys("'tool': 'x'  # quoted\n", {"tool": "codex"}) == "'tool': codex  # quoted\n"
    assert set_keys("token_budget: 4000", {"tool": "codex"}) == "token_budget: 4000\ntool: codex\n"
    assert set_keys("tool:\nx: 1\n", {"tool": "codex"}) == "tool: codex\nx: 1\n"
    assert set_keys("tool:   # empty for now\n", {"tool": "codex"}) == "tool: codex   # empty for now\n"


def test_anchors_and_aliases():
    # An alias as the value: only the alias is replaced; the anchor elsewhere is untouched.
    text = "base: &b 4000\ntoken_budget: *b\n"
    assert set_keys(text, {"token_budget": 6000}) == "base: &b 4000\ntoken_budget: 6000\n"
    # An anchored value nobody uses keeps its anchor.
    assert set_keys("token_budget: &t 4000\n", {"token_budget": 6000}) == "token_budget: &t 6000\n"
    # An anchored value used elsewhere: changing it would change the other key too.
    with pytest.raises(CtxrcEditError, match="used elsewhere"):
        set_keys("task_budget_pct: &p 0.4\nconvention_budget_pct: *p\n", {"task_budget_pct": 0.5})


def test_crlf_and_a_byte_order_mark_are_kept():
    assert set_keys("\ufefftool: a\r\n# c\r\n", {"tool": "codex"}) == "\ufefftool: codex\r\n# c\r\n"
    assert set_keys("# c\r\n", {"tool": "codex"}) == "# c\r\ntool: codex\r\n"


def test_invalid_yaml_and_a_non_mapping_are_refused():
    with pytest.raises(CtxrcEditError, match="not valid YAML"):
        set_keys("tool: [unclosed\n", {"tool": "x"})
    with pytest.raises(CtxrcEditError, match="not a mapping"):
        set_keys("- a\n- b\n", {"tool": "x"})


# -- any file: only the value changes, and ctx reads what was set ------------------------------------

KEYS = ("token_budget", "task_budget_pct", "convention_budget_pct", "tool", "unknown", "other", "context_dir")
WORDS = st.sampled_from(["claude", "codex", "claude code", "x-1", "docs", "yes", "0x10", "a: b", "it's", "#x"])


@st.composite
def scalars(draw, key: str) -> str:
    if key == "token_budget":
        value = str(draw(st.integers(1, 99_999)))
    elif key.endswith("_pct"):
        value = draw(st.sampled_from(["0.1", "0.25", "1", "0", ".5"]))
    else:
        word = draw(WORDS)
        value = draw(st.sampled_from([f'"{word}"', "'" + word.replace("'", "''") + "'"]))
        if word.replace("-", "").replace(" ", "").isalnum() and word not in ("yes",):
            value = draw(st.sampled_from([word, value]))
    return value


@st.composite
def ctxrc_files(draw):
    """(text, the lines of each key's item, the text after the first document)."""
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=6))
    lines: list[str] = []
    owned: dict[str, set[int]] = {}
    anchors: list[str] = []
    flow = draw(st.booleans()) and keys and draw(st.integers(0, 3)) == 0
    if draw(st.booleans()):
        lines.append("# settings for ctx")
    if draw(st.booleans()):
        lines.append("---")
    if flow:
        pairs = [f"{key}: {draw(scalars(key))}" for key in keys]
        lines.append("{" + ", ".join(pairs) + "}" + draw(st.sampled_from(["", "  # flow"])))
        owned = {key: {len(lines) - 1} for key in KEYS}  # a key added to a flow mapping goes on its line too
    for key in [] if flow else keys:
        start = len(lines)
        style = draw(st.sampled_from(["plain", "plain", "anchor", "alias", "block", "empty"]))
        comment = draw(st.sampled_from(["", "  # why", " # it's ok"]))
        if style == "alias" and anchors and key not in ("token_budget",):
            lines.append(f"{key}: *{draw(st.sampled_from(anchors))}{comment}")
        elif style == "anchor" and key in ("unknown", "other"):
            name = f"a{len(anchors)}"
            anchors.append(name)
            lines.append(f"{key}: &{name} {draw(scalars(key))}{comment}")
        elif style == "block" and key in ("unknown", "other", "tool"):
            lines.append(f"{key}:{comment}")
            lines.extend(f"{draw(st.sampled_from(['  ', '']))}- {draw(WORDS.filter(str.isalpha))}" for _ in range(2))
        elif style == "empty" and key in ("unknown", "other", "tool"):
            lines.append(f"{key}:{comment}")
        else:
            lines.append(f"{key}: {draw(scalars(key))}{comment}")
        owned[key] = set(range(start, len(lines)))
        if draw(st.integers(0, 3)) == 0:
            lines.append(draw(st.sampled_from(["  # an indented comment", "    # deeper", "", "# about the next"])))
    after = ""
    if draw(st.booleans()):
        after = draw(st.sampled_from(["---\ntool: second\n", "...\n", "---\n- a list\n", "---\ntoken_budget: 1\n"]))
        if not keys and "---" not in lines:
            lines.append("---")  # an empty first document: `after` is the second
    text = "\n".join(lines) + ("\n" if lines else "")
    return text + after, owned, after


CHANGES = st.fixed_dictionaries(
    {},
    optional={
        "token_budget": st.integers(1, 10**6),
        "task_budget_pct": st.sampled_from([0.0, 0.25, 0.3, 1.0]),
        "convention_budget_pct": st.sampled_from([0.1, 0.5]),
        "tool": WORDS,
    },
).filter(bool)


def is_subsequence(small: list[str], big: list[str]) -> bool:
    found = iter(big)
    return all(any(line == other for other in found) for line in small)


@settings(max_examples=400, deadline=None)
@given(file=ctxrc_files(), changes=CHANGES)
def test_only_the_values_change_and_ctx_reads_what_was_set(file, changes):
    text, owned, after = file
    try:
        edited = set_keys(text, changes)
    except CtxrcEditError as exc:
        if "not valid YAML" in str(exc):  # then ctx applies nothing either
            assert any("invalid YAML" in p.message for p in parse_ctxrc(text).problems), text
        else:
            assert "used elsewhere" in str(exc)
        return
    assert_reads_as_intended(text, edited, changes)
    assert edited.endswith(after)
    old_lines = text.splitlines()
    touched = set().union(*(owned.get(key, set()) for key in changes))
    kept = [line for index, line in enumerate(old_lines) if index not in touched]
    assert is_subsequence(kept, edited.splitlines()), edited
    new_keys = [key for key in changes if key not in owned]
    assert len(edited.splitlines()) <= len(old_lines) + len(new_keys)
    assert set_keys(edited, changes) == edited  # saving the same settings again changes nothing

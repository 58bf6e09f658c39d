"""nous's intent classifier, applied to the input a turn logged: greeting, short acknowledgement, follow-up.

nous classifies the user's input before building the context
(`IntentClassifier.classify` / `plan_retrieval`, nous/cognitive/intent.py;
`CognitiveLayer.pre_turn`, nous/cognitive/layer.py) and the result moves the
section budgets:

- a greeting (`_GREETING_PATTERNS`, intent.py:103-107) or a short
  acknowledgement (no question, no memory-type hint, no topic keyword,
  temporal recency ≤ 0.5; intent.py:171-187) zeroes all four memory budgets
  and skips the four types (intent.py:160-169, 178-187); nous then logs each
  of the four legs skipped with "section budget is 0" (context.py:280-292);
- a follow-up — temporal recency > 0.5 (`_RECENCY_PATTERNS`, intent.py:49-54),
  a recap question (`_RECAP_PATTERNS`, layer.py: recency taken as 0.8 and
  the plan made again), or, on the first turn of a session with
  `NOUS_FOLLOWUP_DEICTIC_DETECTION_ENABLED` (default on), a cross-session
  deictic phrase (`_DEICTIC_FOLLOWUP`, F083 C1: recency raised to 0.6) —
  lifts an episodes override below 1,000 to 1,000 (intent.py:232-237) and
  sets `temporal_boost`, which prints each Recent Conversations episode's
  summary under its line (context.py:1510).

`retrieval_log.query` keeps the input nous classified, cut to 500 characters
(`RetrievalTrace.__init__`, retrieval_trace.py `_DEFAULT_QUERY_CHARS`): an
input longer than that may classify differently here (a question mark or a
recency word past character 500).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

QUERY_CHARS = 500  # retrieval_trace.py _DEFAULT_QUERY_CHARS: the logged query is the input's first 500 characters

# intent.py:49-54
_RECENCY_PATTERNS = (
    (r"\b(today|just now|right now|currently)\b", 1.0),
    (r"\b(yesterday|recently|this week)\b", 0.8),
    (r"\b(last week|few days ago)\b", 0.5),
    (r"\b(last month|a while ago)\b", 0.3),
)
# intent.py:61-84
_MEMORY_HINTS = {
    "decision": (
        r"\b(?:decide\w*|decision\w*|decisive\w*|deciding|decided)\b",
        r"\b(?:chose|choice|choose|chosen|recommend\w*)\b",
        r"\bshould\s+(?:we|i|they|you)\b",
    ),
    "fact": (
        r"\b(?:what\s+is|tell\s+me\s+about|fact|know\s+about|definition)\b",
        r"\bdefin\w*\b",
    ),
    "procedure": (
        r"\bhow\s+(?:do|did|to|can|could|should|would)\b",
        r"\b(?:steps|process|workflow|guide|procedure)\b",
    ),
    "episode": (
        r"\blast\s+time\b",
        r"\bwhen\s+(?:did|was|were)\b",
        r"\b(?:history|story|what\s+happened|recall|earlier)\b",
    ),
}
# intent.py:103-107
_GREETING = re.compile(
    r"^(hey|hi|hello|sup|yo|good morning|good afternoon|good evening|good night|howdy|greetings|what'?s up)\b",
    re.IGNORECASE,
)
# intent.py:110-114
_QUESTION_STARTERS = re.compile(
    r"^(what|where|when|why|how|who|which|can|should|is|are|do|does"
    r"|did|will|would|could|has|have|was|were|might)\b",
    re.IGNORECASE,
)
# intent.py:135-138: capitalised words, words of 6+ word characters, acronyms
_TOPIC_WORDS = re.compile(r"\b[A-Z][a-z]+\b|\b\w{6,}\b|\b[A-Z]{2,}\b")
# layer.py _RECAP_PATTERNS (008.6)
_RECAP_PATTERNS = (
    "what did we talk about",
    "what have we discussed",
    "what did we do",
    "recent conversations",
    "catch me up",
    "what happened recently",
    "what happened lately",
    "recap",
    "summary of recent",
)
# layer.py _DEICTIC_FOLLOWUP (F083 C1)
_DEICTIC_FOLLOWUP = re.compile(
    r"\b(?:"
    r"that (?:option|approach|idea|fix|bug) (?:you|we)\b"
    r"|the (?:second|first|other|previous|last) (?:option|approach|idea) (?:you|we)\b"
    r"|(?:option|approach|idea) you (?:mentioned|suggested|proposed)\b"
    r"|you (?:mentioned|suggested|proposed) (?:earlier|before|last time)\b"
    r"|continue what we (?:were|had been) (?:doing|working)\b"
    r"|(?:pick up |continue )?where we left off\b"
    r"|did (?:that|it)(?:\s+\w+){0,2}\s+work\b"
    r"|as we discussed (?:earlier|before|last time)\b"
    r")",
    re.IGNORECASE,
)

GREETING = "greeting"
ACK = "short acknowledgement"
ORDINARY = "ordinary"


@dataclass(frozen=True, slots=True)
class Classified:
    """What nous's classifier made of a turn's input."""

    kind: str  # GREETING, ACK or ORDINARY: the first two zero the four memory budgets
    recency: float  # IntentSignals.temporal_recency after the recap / deictic rules
    recap: bool
    deictic: bool  # the F083 C1 phrase matched (it counts only on a first turn)
    followup: bool  # temporal_boost: recap or recency > 0.5
    why: str  # in words, for the knob's help and the JSON

    @property
    def zeroes_memory(self) -> bool:
        return self.kind != ORDINARY


def _recency(text: str) -> float:
    recency = 0.0
    for pattern, weight in _RECENCY_PATTERNS:
        if re.search(pattern, text, re.IGNORECASE):
            recency = max(recency, weight)
    return recency


def _kind(text: str, recency: float) -> str:
    """`plan_retrieval`'s two short-circuits (intent.py:160-187), on `classify`'s signals (intent.py:116-142)."""
    stripped = text.strip()
    if _GREETING.match(stripped):
        return GREETING
    question = stripped.endswith("?") or bool(_QUESTION_STARTERS.match(stripped))
    hints = any(re.search(p, text, re.IGNORECASE) for patterns in _MEMORY_HINTS.values() for p in patterns)
    keywords = bool(_TOPIC_WORDS.search(text))
    if not question and not hints and not keywords and recency <= 0.5:
        return ACK
    return ORDINARY


def classify(text: str, *, first_turn: bool = False, deictic_detection: bool = True) -> Classified:
    """nous's reading of `text` as `pre_turn` makes it: the plan's kind and whether the turn is a follow-up."""
    recency = _recency(text)
    recap = any(p in text.lower().strip() for p in _RECAP_PATTERNS)
    deictic = bool(_DEICTIC_FOLLOWUP.search(text))
    reasons = []
    if recency > 0:
        reasons.append(f"temporal recency {recency:g}")
    if first_turn and deictic_detection and deictic:
        recency = max(recency, 0.6)
        reasons.append("a first-turn deictic follow-up (recency 0.6)")
    if recap and recency <= 0.5:
        recency = 0.8
        reasons.append("a recap question (recency 0.8)")
    elif recap:
        reasons.append("a recap question")
    kind = _kind(text, recency)
    followup = recap or recency > 0.5
    if kind == GREETING:
        reasons.insert(0, "a greeting")
    elif kind == ACK:
        reasons.insert(0, "a short acknowledgement (no question, no memory hint, no topic word)")
    why = "; ".join(reasons) or "an ordinary input"
    return Classified(kind, recency, recap, deictic, followup, why)

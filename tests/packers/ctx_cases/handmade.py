"""Hand-made cases for `record.py handmade`: each one isolates one rule, recorded with the real binaries.

The oracle work's 154 cases (imported by `record.py import`) cover the
classes found by fuzzing; these add the issue's Straße workspace, one case per
character where ctx 0.8.1's fold and 0.8.0's lowercasing give different
keywords, tier 7 (`--skill`), and spellings of budgets, `.ctxrc` values and
front matter that the imported cases do not have.
"""

from __future__ import annotations

import re
import unicodedata

from tests.packers.ctx_cases.casefile import Case, Run

CONSTITUTION = "# Constitution\n\n- [ ] Never break the build\n"
TASKS = "# Tasks\n\n- [ ] Write the hook parser\n- [ ] Tune the scoring agent\n- [x] Old done task\n"
CONVENTIONS = "# Conventions\n\n- Tabs for indentation\n- Small modules with one job\n"
DECISIONS = (
    "# Decisions\n\n## [2026-11-20-120000] Keep the parser simple\n\nA hook parser first.\n\n"
    "## [2026-09-01-120000] Use SQLite\n\nEmbedded, one file.\n"
)
LEARNINGS = "# Learnings\n\n## [2026-11-19-120000] Scoring needs dates\n\nUndated entries score as old.\n"
CTXRC_WARNING = (
    "ctx's stderr starts with yaml.v3's error text for .ctxrc ('ctx: warning: failed to parse ...'); ctxtui "
    "prints the refusal without it (stdout and exit status are ctx's; its own warning words differ)"
)


STEERING = "---\nname: style\ninclusion: always\npriority: 10\n---\nWrite plain words.\n"


def base(**extra: str) -> dict[str, bytes]:
    files = {
        ".context/CONSTITUTION.md": CONSTITUTION,
        ".context/TASKS.md": TASKS,
        ".context/CONVENTIONS.md": CONVENTIONS,
        ".context/DECISIONS.md": DECISIONS,
        ".context/LEARNINGS.md": LEARNINGS,
        **extra,
    }
    return {name: text.encode("utf-8") for name, text in files.items()}


def both(budgets: list[str | None], formats: tuple[str | None, ...] = (None, "json"), **kw) -> list[Run]:
    """The same command for 0.8.1 and 0.8.0, in each format, at each budget."""
    return [Run(v, b, f, **kw) for v in ("0.8.1", "0.8.0") for b in budgets for f in formats]


def strasse() -> Case:
    decisions = (
        "# Decisions\n\n## [2026-11-01-120000] First decision\n\nNothing to see here at all in this one.\n\n"
        "## [2026-11-01-120000] Second decision\n\nA strange thing happened on the road.\n"
    )
    files = {
        ".context/CONSTITUTION.md": b"",
        ".context/TASKS.md": "- [ ] Straße\n".encode(),
        ".context/DECISIONS.md": decisions.encode(),
    }
    budgets: list[str | None] = [None, "40", "50", "60", "70", "80", "100"]
    runs = both(budgets, ("md",)) + both(["60"], ("json",)) + [Run("mcp"), Run("mcp", "40")]
    return Case(
        "issue-strasse",
        "issue 8's workspace: task `Straße`; two decisions of one date, the second containing 'strange'. "
        "0.8.1 folds (keyword 'strasse', nothing relevant: file order); 0.8.0 lowercases (keyword 'stra', "
        "inside 'strange': the second decision first)",
        files,
        origin="handmade",
        runs=runs,
    )


KEYWORD = re.compile(r"[a-z0-9_-]+")


def fold_lower_chars() -> list[str]:
    """Every non-ASCII character whose Go fold or ToLower has a keyword character, and a control (K sign)."""
    return ["ß", "ẞ", "İ", "ŉ", "ſ", "ǰ", "ẖ", "ẗ", "ẘ", "ẙ", "ẚ", "\u212a", "ﬀ", "ﬁ", "ﬂ", "ﬃ", "ﬄ", "ﬅ", "ﬆ"]


def fold_char_decisions(char: str, fold: str, lower: str) -> list[tuple[str, str]]:
    """Decision Z (unrelated), then one decision per keyword either version takes from `abc<c>def`."""
    task = f"abc{char}def"
    words: list[str] = []
    for text in (task.replace(char, fold), task.replace(char, lower)):
        words += [w for w in KEYWORD.findall(text) if len(w) >= 3 and w not in words]
    return [("Z", "zzz")] + [(f"K{i}", word) for i, word in enumerate(words)]


def fold_char(char: str, fold: str, lower: str) -> Case:
    """Task `abc<c>def`; one decision per candidate keyword, one date: the order shows which keywords matched."""
    blocks = [
        f"## [2026-11-20-120000] {title}\n\nbody {word}\n" for title, word in fold_char_decisions(char, fold, lower)
    ]
    files = {
        ".context/CONSTITUTION.md": b"# C\n",
        ".context/TASKS.md": f"# Tasks\n\n- [ ] abc{char}def\n".encode(),
        ".context/DECISIONS.md": ("# Decisions\n\n" + "\n".join(blocks)).encode(),
    }
    name = unicodedata.name(char, f"U+{ord(char):04X}").lower()
    return Case(
        f"fold-char-{ord(char):04x}",
        f"U+{ord(char):04X} {name}: Go cases.Fold gives {fold!r}, strings.ToLower {lower!r}; the decisions "
        "ranked first show which keywords each version extracted",
        files,
        origin="handmade",
        runs=[Run("0.8.1"), Run("0.8.0"), Run("0.8.1", None, "json")],
    )


# Go's cases.Fold / strings.ToLower of each (x/text v0.40.0 with go1.27; foldgen in the oracle work)
GO_FOLD_LOWER = {
    "ß": ("ss", "ß"),
    "ẞ": ("ss", "ß"),
    "İ": ("i\u0307", "i"),
    "ŉ": ("\u02bcn", "ŉ"),
    "ſ": ("s", "ſ"),
    "ǰ": ("j\u030c", "ǰ"),
    "ẖ": ("h\u0331", "ẖ"),
    "ẗ": ("t\u0308", "ẗ"),
    "ẘ": ("w\u030a", "ẘ"),
    "ẙ": ("y\u030a", "ẙ"),
    "ẚ": ("a\u02be", "ẚ"),
    "\u212a": ("k", "k"),
    "ﬀ": ("ff", "ﬀ"),
    "ﬁ": ("fi", "ﬁ"),
    "ﬂ": ("fl", "ﬂ"),
    "ﬃ": ("ffi", "ﬃ"),
    "ﬄ": ("ffl", "ﬄ"),
    "ﬅ": ("st", "ﬅ"),
    "ﬆ": ("st", "ﬆ"),
}


def skills() -> list[Case]:
    skill = "---\nname: review\ndescription: how to review\n---\n\nReview checklist: tests first, then names.\n"
    tombstone = "---\nname: product\ninclusion: always\n---\n<!-- remove this after you edit the steering file !-->\n"
    return [
        Case(
            "skill-tier-7",
            "--skill NAME reads .context/skills/NAME/SKILL.md; its body goes in whole if it fits after steering "
            "(assemble.go:133-140), else not at all",
            base(**{".context/skills/review/SKILL.md": skill, ".context/steering/style.md": STEERING}),
            origin="handmade",
            runs=[
                Run("0.8.1", b, f, ["--skill", "review"])
                for b in ("8000", "200", "150", "140", "130", "120", "100")
                for f in (None, "json")
            ],
        ),
        Case(
            "skill-errors",
            "a missing skill and a skill without front matter are errors (usage on stdout, exit 1); steering's "
            "tombstone warning comes first (steering loads before the skill)",
            base(
                **{
                    ".context/skills/bare/SKILL.md": "Just a body, no front matter.\n",
                    ".context/steering/product.md": tombstone,
                }
            ),
            origin="handmade",
            runs=[Run("0.8.1", "8000", None, ["--skill", name]) for name in ("nope", "bare")],
        ),
    ]


def spelling_cases() -> list[Case]:
    """Budgets, .ctxrc values and front matter spelled as Go and yaml.v3 read them (YAML 1.2, not PyYAML's 1.1)."""
    cases = []
    for label, value in [
        ("010", "010"),  # Atoi: decimal 10
        ("0x200", "0x200"),  # Atoi: invalid, ignored
        ("plus", "+300"),
        ("arabic-indic", "٣٠٠"),
        ("max-int64", "9223372036854775807"),
        ("min-int64", "-9223372036854775808"),
    ]:
        cases.append(
            Case(
                f"env-budget-{label}",
                f"CTX_TOKEN_BUDGET={value!r}: strconv.Atoi, used only when > 0 (rc/load.go:84-89)",
                base(),
                origin="handmade",
                runs=both([None], env={"CTX_TOKEN_BUDGET": value}) + [Run("mcp", env={"CTX_TOKEN_BUDGET": value})],
            )
        )
    for label, value in [
        ("plus", "+10"),
        ("binary", "0b101"),
        ("0o", "0o17"),
        ("arabic-indic", "٣٠٠"),
        ("max-int64", "9223372036854775807"),
        ("min-int64", "-9223372036854775808"),
        ("below-min-int64", "-9223372036854775809"),
        ("underscore-hex", "0x_1F4"),
        ("double-underscore", "1__000"),
    ]:
        cases.append(
            Case(
                f"flag-budget-{label}",
                f"--budget={value!r}: pflag's strconv.ParseInt(s, 0, 64)",
                base(),
                origin="handmade",
                runs=both([value], (None,)),
            )
        )
    for label, text in [
        ("017", "token_budget: 017\n"),  # yaml.v3: ParseInt base 0 → octal 15 (YAML 1.1 would say 15 too)
        ("0o17", "token_budget: 0o17\n"),  # YAML 1.2 octal: 15 (PyYAML: a string)
        ("1_000", "token_budget: 1_000\n"),  # yaml.v3 drops underscores: 1000
        ("sexagesimal", "token_budget: 1:30\n"),  # YAML 1.1: 90; yaml.v3: a string → type error
        ("inf", "token_budget: .inf\n"),  # a float that does not fit an int → type error
        ("yes", "token_budget: yes\n"),  # a string in YAML 1.2 → type error
        ("pct-yes", "task_budget_pct: yes\nconvention_budget_pct: on\n"),  # strings → type errors → 0
        ("pct-octal", "task_budget_pct: 0o1\nconvention_budget_pct: 010\n"),  # ints → clamped to 1
        ("tool-on", "tool: on\n"),  # source text "on" (PyYAML: True)
    ]:
        cases.append(
            Case(
                f"ctxrc-{label}",
                f".ctxrc {text.strip()!r} decoded by yaml.v3 into CtxRC (rc/types.go:91-128)",
                base(
                    **{
                        ".ctxrc": text,
                        ".context/steering/style.md": STEERING,
                        ".context/steering/tools.md": "---\nname: tools\ninclusion: always\ntools: [on]\n---\nOn.\n",
                    }
                ),
                origin="handmade",
                runs=both([None, "300"]) + [Run("mcp")],
            )
        )
    for label, value in [
        ("yes", "yes"),
        ("hex", "0x1F"),
        ("underscore", "1_0"),
        ("leading-zero", "017"),
        ("inf", ".inf"),
        ("true", "true"),
        ("quoted", "'5'"),
    ]:
        steering = {
            ".context/steering/a.md": f"---\nname: a\ninclusion: always\npriority: {value}\n---\nSteer A.\n",
            ".context/steering/b.md": "---\nname: b\ninclusion: always\npriority: 12\n---\nSteer B.\n",
        }
        cases.append(
            Case(
                f"steer-priority-{label}",
                f"steering priority {value!r}: yaml.v3 into int (decode.go:621-660); any error drops all steering",
                base(**steering),
                origin="handmade",
                runs=[Run("0.8.1", "8000"), Run("0.8.1", "8000", "json")],
            )
        )
    for label, text in [
        ("yes", "context_dir: /tmp\nallow_outside_cwd: yes\n"),  # bool target: yaml.v3 accepts YAML 1.1 yes
        ("on", "context_dir: /tmp\nallow_outside_cwd: on\n"),
        ("quoted", "context_dir: /tmp\nallow_outside_cwd: 'yes'\n"),  # still "yes": decode.go:683 matches strings
        ("no", "context_dir: /tmp\nallow_outside_cwd: no\n"),  # false: the boundary check refuses
        ("int", "context_dir: /tmp\nallow_outside_cwd: 1\n"),  # an int into a bool: type error, false
    ]:
        cases.append(
            Case(
                f"v080-allow-outside-{label}",
                f"0.8.0 .ctxrc {text.strip()!r}: yaml.v3 takes y/yes/on (quoted or not) as true into a bool; "
                "allowed, /tmp passes the boundary check and is not initialized; not allowed, the check refuses",
                base(**{".ctxrc": text}),
                origin="handmade",
                runs=[Run("0.8.0", "8000", xfail=CTXRC_WARNING if label == "int" else None)],
            )
        )
    return cases


def dst_case() -> Case:
    """Dates on both sides of Europe/Berlin's DST changes: each date's midnight in its own offset."""
    dates = [
        "2026-03-29",  # spring forward day: midnight is +01:00
        "2026-03-30",
        "2026-03-06",
        "2026-03-07",
        "2026-01-05",
        "2026-01-06",
        "2025-10-25",
        "2025-10-26",  # fall back day
    ]
    blocks = "".join(f"## [{d}-120000] Decision of {d}\n\nBody for {d}.\n\n" for d in dates)
    files = base(**{".context/DECISIONS.md": "# Decisions\n\n" + blocks})
    runs = [Run("0.8.1", "8000", "json"), Run("0.8.0", "8000", "json")]
    return Case(
        "tz-berlin-dst-brackets",
        "TZ=Europe/Berlin, now 2026-04-05T22:30Z (00:30 CEST): ages near 7/30/90 days depend on each date's own "
        "offset (score.go:36-42 ParseInLocation(time.Local))",
        files,
        tz="Europe/Berlin",
        now="2026-04-05T22:30:00Z",
        origin="handmade",
        runs=runs,
    )


def ctxrc_warning_refusals() -> list[Case]:
    """ctx reads .ctxrc while it builds its commands (agent/cmd/root/cmd.go:110), before any gate: a broken
    .ctxrc's warning is on stderr before the refusal."""
    return [
        Case(
            f"refuse-no-git-ctxrc-{label}",
            f"no .git, and a .ctxrc with {label}: ctx warns about .ctxrc first, then refuses",
            base(**{".ctxrc": text}),
            git=False,
            origin="handmade",
            runs=[Run("0.8.1", "8000", xfail=CTXRC_WARNING)],
        )
        for label, text in [("syntax-error", "token_budget: [\n"), ("type-error", "task_budget_pct: abc\n")]
    ]


def ends_of_time() -> list[Case]:
    """Years 0, 1 and 9999 in zones whose offset would carry a midnight past the calendar's ends."""
    dates = ["0000-01-01", "0001-01-01", "2026-11-20", "9999-12-31"]
    blocks = "".join(f"## [{d}-120000] Decision of {d}\n\nBody for {d}.\n\n" for d in dates)
    return [
        Case(
            f"tz-ends-of-time-{zone.split('/')[1].lower()}",
            f"TZ={zone}: dates at year 0, 1 and 9999; now.Sub saturates (time.go Sub), old dates score 0.2 and "
            "future ones 1.0",
            base(**{".context/DECISIONS.md": "# Decisions\n\n" + blocks}),
            tz=zone,
            origin="handmade",
            runs=[Run("0.8.1", "8000", "json"), Run("0.8.0", "8000", "json")],
        )
        for zone in ("Europe/London", "Pacific/Kiritimati")
    ]


def handmade_cases() -> list[Case]:
    cases = [strasse(), dst_case(), *skills(), *spelling_cases(), *ctxrc_warning_refusals(), *ends_of_time()]
    cases += [fold_char(char, *GO_FOLD_LOWER[char]) for char in fold_lower_chars()]
    return cases

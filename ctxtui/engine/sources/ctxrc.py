"""`.ctxrc` and the budget from the environment, read exactly as ctx reads them.

ctx decodes `.ctxrc` with gopkg.in/yaml.v3 into its `CtxRC` struct
(`rc/load.go:43-92`, `rc/types.go` at ce5a832; `rc/load.go:25-45` at v0.8.0):
a syntax error or a duplicate key applies nothing; a type error skips that
key and keeps the others (the percentages are pointers: a type error still
allocates one, so the share becomes 0); an explicit-tag mismatch stops the
decoding where it is. Each version knows its own keys: 0.8.1 reads
`token_budget`, `task_budget_pct`, `convention_budget_pct`, `tool` and
`steering.dir`; 0.8.0 reads `token_budget`, `context_dir` and
`allow_outside_cwd`. `CTX_TOKEN_BUDGET` counts only when `strconv.Atoi`
parses it and it is above 0. Nothing here is fatal: what ctx ignores is
reported as a problem and ignored.
"""

import os
from collections.abc import Mapping
from typing import Any, NamedTuple

from ctxtui.engine.model import Problem
from ctxtui.engine.sources.files import MAX_CONFIG_BYTES, FileTooBig, NotRegularFile, read_bytes_safely
from ctxtui.engine.sources.fspath import PathText
from ctxtui.engine.text.go_strconv import GoNumError, atoi

DEFAULT_BUDGET = 8000
BUDGET_ENV = "CTX_TOKEN_BUDGET"
_KEYS = {
    "0.8.1": ("token_budget", "task_budget_pct", "convention_budget_pct", "tool", "steering"),
    "0.8.0": ("token_budget", "context_dir", "allow_outside_cwd"),
}


class CtxConfig(NamedTuple):
    """What `.ctxrc` says to one ctx version."""

    token_budget: int | None = None
    task_pct: float | None = None  # None: not set; NaN stays NaN (clamp does not touch it)
    convention_pct: float | None = None
    tool: str = ""
    steering_dir: str = ""  # "" → .context/steering
    context_dir: str | None = None  # 0.8.0 only
    allow_outside_cwd: bool = False  # 0.8.0 only
    problems: tuple[Problem, ...] = ()


def read_ctxrc(project: PathText, version: str = "0.8.1") -> CtxConfig:
    """Parse `PROJECT/.ctxrc` for `version` ("0.8.1" or "0.8.0"); a missing file → defaults.

    Read like the context files (`read_bytes_safely`): a link is followed (dotfile managers link it, and
    ctx reads through it), but only a regular file of at most MAX_CONFIG_BYTES is read, without blocking.
    """
    try:
        raw = read_bytes_safely(os.path.join(project, ".ctxrc"), follow_symlinks=True, limit=MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return CtxConfig()
    except NotRegularFile as exc:
        if "directory" in str(exc):
            why = f"{exc}: ctx cannot read it either; no settings from it apply"
        else:  # a FIFO, /dev/tty, /dev/zero...: ctx would block on it or read it without end
            why = f"{exc}: ctx would block or never finish reading it; ctxtui ignores it (no settings from it apply)"
        return CtxConfig(problems=(Problem(".ctxrc", why),))
    except FileTooBig as exc:
        why = f"{exc}: not read (ctx would read it whole); its settings do not apply here"
        return CtxConfig(problems=(Problem(".ctxrc", why),))
    except OSError as exc:
        return CtxConfig(problems=(Problem(".ctxrc", f"cannot read: {exc.strerror or exc}; ctx ignores it too"),))
    return parse_ctxrc(raw.decode("utf-8", "surrogateescape"), version)


def _shapes() -> dict[str, Any]:
    """ctx's `CtxRC` struct per version, as yaml.v3 decodes into it (`rc/types.go` at ce5a832 and v0.8.0).

    Every field counts, not only those ctxtui uses: yaml.v3 decodes (and counts, for its aliasing limit)
    the value of every known field and skips the others unread.
    """
    from ctxtui.engine.text.yaml_v3_decode import BOOL, FLOAT, INT, STRING, Ptr, Slice, Struct

    strings = Slice(STRING)
    freshness = Slice(Struct("rc.FreshnessFile", {"path": STRING, "desc": STRING, "review_url": STRING}))
    notify = Ptr(Struct("rc.NotifyConfig", {"events": strings, "key_rotation_days": INT}))
    common = {
        "profile": STRING,
        "token_budget": INT,
        "priority_order": strings,
        "auto_archive": BOOL,
        "archive_after_days": INT,
        "scratchpad_encrypt": Ptr(BOOL),
        "entry_count_learnings": INT,
        "entry_count_decisions": INT,
        "injection_token_warn": INT,
        "context_window": INT,
        "billing_token_warn": INT,
        "event_log": BOOL,
        "key_rotation_days": INT,
        "task_nudge_interval": INT,
        "key_path": STRING,
        "stale_age_days": INT,
        "session_prefixes": strings,
        "freshness_files": freshness,
        "notify": notify,
    }
    v080 = dict(common, context_dir=STRING, allow_outside_cwd=BOOL, convention_line_count=INT)
    v081 = dict(
        common,
        tool=STRING,
        convention_section_count=INT,
        theme_page_byte_ceiling=INT,
        companion_check=Ptr(BOOL),
        classify_rules=Slice(Struct("memory.ClassifyRule", {"target": STRING, "keywords": strings})),
        spec_signal_words=strings,
        spec_nudge_min_len=INT,
        placeholders=strings,
        steering=Ptr(Struct("rc.SteeringRC", {"dir": STRING, "default_inclusion": STRING, "default_tools": strings})),
        hooks=Ptr(Struct("rc.HooksRC", {"dir": STRING, "timeout": INT, "enabled": Ptr(BOOL)})),
        statusline=Ptr(Struct("rc.StatuslineRC", {"enabled": Ptr(BOOL), "show_cost": Ptr(BOOL)})),
        provenance_required=Ptr(
            Struct("rc.ProvenanceConfig", {"session_id": Ptr(BOOL), "branch": Ptr(BOOL), "commit": Ptr(BOOL)})
        ),
        dream=Ptr(
            Struct(
                "rc.DreamRC",
                {
                    "enabled": BOOL,
                    "mode": STRING,
                    "max": INT,
                    "cadence": STRING,
                    "quiet_minutes": INT,
                    "model": STRING,
                    "budget": INT,
                    "executor": STRING,
                },
            )
        ),
        auto_prune_days=INT,
        agent_cooldown_minutes=Ptr(INT),
        task_budget_pct=Ptr(FLOAT),
        convention_budget_pct=Ptr(FLOAT),
        title_slug_max_len=INT,
        recall_list_limit=INT,
    )
    return {"0.8.0": Struct("rc.CtxRC", v080), "0.8.1": Struct("rc.CtxRC", v081)}


def parse_ctxrc(text: str, version: str = "0.8.1") -> CtxConfig:
    """`.ctxrc` text as `version` decodes it: `yaml.Unmarshal(data, cfg)`, step by step (`yaml_v3_decode`)."""
    from ctxtui.engine.text import yaml_v3 as yaml
    from ctxtui.engine.text.yaml_v3_decode import unmarshal

    try:
        root = yaml.compose(text)
    except RecursionError:
        return CtxConfig(problems=(Problem(".ctxrc", "is nested too deeply to read: ignored"),))
    except Exception as exc:  # PyYAML's syntax errors: ctx applies nothing either
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "syntax error"
        return CtxConfig(problems=(Problem(".ctxrc", f"invalid YAML, nothing in it applies (as in ctx): {first}"),))
    known = _KEYS.get(version, _KEYS["0.8.1"])
    decoded = unmarshal(root, _shapes()["0.8.0" if version == "0.8.0" else "0.8.1"])
    values = decoded.value
    problems: list[Problem] = []
    for field, message in decoded.errors:
        if field is None and not decoded.root_read:
            problems.append(Problem(".ctxrc", f"{message}: nothing in it applies (as in ctx)"))
        elif field is None:  # in a map merged at the top (`<<`): ctx skips that map
            problems.append(Problem(".ctxrc", f"{message}; ctx skips it and keeps the other settings"))
        elif field in ("task_budget_pct", "convention_budget_pct") and field in known:
            problems.append(
                Problem(
                    ".ctxrc",
                    f"{field} is not a number: ctx takes it as 0 (its tier gets "
                    "no share; the first item is still forced in)",
                )
            )
        elif field in known:
            problems.append(Problem(".ctxrc", f"{field}: {message}; ctx skips it and keeps the other settings"))
    problems += _shares_out_of_range(values, known)
    if decoded.failure is not None:
        field, message = decoded.failure
        where = f"{field}: {message}" if field else message
        problems.append(Problem(".ctxrc", f"{where}; ctx stops reading .ctxrc here (what it read before applies)"))
    steering = values.get("steering") if "steering" in known else None
    return CtxConfig(
        token_budget=values.get("token_budget") if "token_budget" in values else None,
        task_pct=values.get("task_budget_pct") if "task_budget_pct" in known else None,
        convention_pct=values.get("convention_budget_pct") if "convention_budget_pct" in known else None,
        tool=values.get("tool", "") if "tool" in known else "",
        steering_dir=steering.get("dir", "") if isinstance(steering, dict) else "",
        context_dir=values.get("context_dir") if "context_dir" in known else None,
        allow_outside_cwd=values.get("allow_outside_cwd", False) if "allow_outside_cwd" in known else False,
        problems=tuple(problems),
    )


def _shares_out_of_range(values: Mapping[str, Any], known: tuple[str, ...]) -> list[Problem]:
    """A share outside [0, 1] (`task_budget_pct: 30` meant as 30 %): ctx clamps it, and the user should know.

    ctx reads the shares as fractions of the budget and clamps them
    (`clamp_pct`): 30 becomes 1, all of the budget, without a word.
    """
    found = []
    for field in ("task_budget_pct", "convention_budget_pct"):
        value = values.get(field) if field in known else None
        if isinstance(value, bool) or not isinstance(value, int | float) or 0 <= value <= 1:
            continue
        if value != value:  # NaN: ctx leaves it, and int(budget × NaN) is the smallest int64
            found.append(
                Problem(
                    ".ctxrc",
                    f"{field} is NaN: ctx's cap for its tier is negative, so only the first item (always forced in) gets in",
                )
            )
            continue
        if value > 1:
            became = "1: its tier may fill the whole budget"
            hint = f" (for {value:g} % write {value / 100:g})" if value <= 100 else ""
        else:
            became = "0: its tier gets no share (the first item is still forced in)"
            hint = ""
        found.append(
            Problem(
                ".ctxrc", f"{field} is {value:g}: ctx reads a fraction of the budget, 0 to 1, and uses {became}{hint}"
            )
        )
    return found


def clamp_pct(value: float | None, default: float) -> float:
    """`rc.TaskBudgetPct()`: unset → the default; else clamped to [0, 1] (`clamp.go:19`), NaN left as NaN."""
    if value is None:
        return default
    if value != value:  # NaN (no `math` on the cold pack path)
        return value
    return min(1.0, max(0.0, value))


def resolve_budget(explicit: int | None, env: Mapping[str, str], config: CtxConfig) -> tuple[int, str, list[Problem]]:
    """The budget to use, where it came from ("flag", "environment", ".ctxrc", "default"), and what was ignored.

    `CTX_TOKEN_BUDGET` is read with `strconv.Atoi` and used only when above 0
    (`rc/load.go:84-89`); anything else is ignored, as ctx ignores it.
    """
    problems: list[Problem] = []
    if explicit is not None:
        return explicit, "flag", problems
    raw = env.get(BUDGET_ENV)
    if raw:
        try:
            value = atoi(raw)
        except GoNumError as exc:
            shown = repr(raw[:40]) if len(raw) <= 40 else f"{raw[:40]!r}… ({len(raw):,} characters)"
            why = (
                "is out of range for a 64-bit integer"
                if exc.reason == "value out of range"
                else "is not a plain whole number"
            )
            problems.append(Problem(BUDGET_ENV, f"{why} ({shown}): ignored, as ctx does"))
        else:
            if value > 0:
                return value, "environment", problems
            problems.append(Problem(BUDGET_ENV, f"is {value}, not above 0: ignored, as ctx does"))
    if config.token_budget is not None:
        return config.token_budget, ".ctxrc", problems
    return DEFAULT_BUDGET, "default", problems

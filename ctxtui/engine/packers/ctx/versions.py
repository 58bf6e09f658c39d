"""The ctx versions users run, and what differs between them, as data.

0.8.0 is the newest release (binaries, the Homebrew tap, the VS Code
extension install it); 0.8.1 is ctx's `main` (commit ce5a832), never tagged.
Reverting five changes turns 0.8.1 into 0.8.0 exactly (`shared/spec/packers.md`,
checked against the real binaries), so one assembly serves both and each
difference is a field here:

1. read-order paths: 0.8.1 prints `$PWD/.context/NAME` (absolute); 0.8.0
   prints its context directory as given, `.context/NAME` by default
   (`sort/sort.go:27` joins `ctx.Dir`, which 0.8.1 makes absolute);
2. caps: 0.8.1 clamps the task and convention caps to what tier 1 left
   (`budget/assemble.go:73,86` at ce5a832); 0.8.0 does not (`assemble.go:61,74` at v0.8.0);
3. `.ctxrc task_budget_pct` / `convention_budget_pct`: honoured by 0.8.1
   only (`rc/rc.go:689,706`); 0.8.0 always uses 0.40 / 0.20;
4. tiers 6–8 (steering, `--skill`, hub): 0.8.1 only;
5. keyword matching: 0.8.1 case-folds (`i18n.Fold`, golang.org/x/text
   `cases.Fold`); 0.8.0 lowercases (`strings.ToLower`).

0.8.0 also reads `--context-dir`, `CTX_DIR` and `.ctxrc context_dir`, which
0.8.1 dropped; 0.8.1 refuses a workspace without `.git` in the working
directory, which 0.8.0 does not check.
"""

from collections.abc import Callable
from typing import NamedTuple

from ctxtui.engine.text.go import go_fold, go_lower


class CtxVersion(NamedTuple):
    """One ctx release's packet rules."""

    number: str  # as `ctx --version` prints it
    absolute_paths: bool
    clamp_caps: bool
    ctxrc_percentages: bool
    steering: bool  # tier 6 (steering) and tier 7 (`--skill`)
    fold: Callable[[str], str]  # how task keywords and entry text are case-normalised
    context_dir_option: bool  # --context-dir, CTX_DIR and .ctxrc context_dir
    requires_git: bool

    @property
    def packer_name(self) -> str:
        return f"ctx-{self.number}"


V0_8_1 = CtxVersion(
    number="0.8.1",
    absolute_paths=True,
    clamp_caps=True,
    ctxrc_percentages=True,
    steering=True,
    fold=go_fold,
    context_dir_option=False,
    requires_git=True,
)
V0_8_0 = CtxVersion(
    number="0.8.0",
    absolute_paths=False,
    clamp_caps=False,
    ctxrc_percentages=False,
    steering=False,
    fold=go_lower,
    context_dir_option=True,
    requires_git=False,
)

VERSIONS = {version.packer_name: version for version in (V0_8_1, V0_8_0)}
DEFAULT_VERSION = V0_8_1

"""Opening a packer: what the user asked for (a `PackRequest`) becomes a packer, a budget and what to say.

The CLI (from its options) and the TUI's session (from its options, the
packer switcher and the knobs) open packers through this one package, so a
packet is built the same way wherever it is shown. It reads files, the
environment, the clock and, for detection, runs `ctx --version`: that is why
it sits above the engine (which does none of those) and below the session.
Failures a user can fix raise `OpenError` (one line); a workspace ctx would
refuse comes back as `Opened.refusal`, for the caller to fail on (`pack`) or
show above the packet it still computes (the TUI).
"""

from ctxtui.opening.request import Opened, OpenError, PackRequest, Refused

__all__ = ["OpenError", "Opened", "PackRequest", "Refused"]

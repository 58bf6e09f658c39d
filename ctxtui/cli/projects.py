"""PROJECT as typed: a folder that is missing said so in ctxtui's words, and the folder probably meant.

`ctxtui p/.context` names the context folder itself, and `ctxtui sub/dir`
a folder inside a project: both have no `.context/` of their own, and the
folder holding it is one step or a few up. Suggested, never taken for the user.
"""

from __future__ import annotations

import os


def missing_project(project: str, command: str = "") -> str | None:
    """One line when PROJECT is no folder at all (ctx could not even be run there), else None; it names
    the folder above that holds `.context/`, when there is one (`p/.contxt`, a typo, suggests `p`)."""
    if os.path.isdir(project):
        return None
    hint = suggest_project(project, command)
    if os.path.lexists(project):
        problem = f"{project}: not a folder (PROJECT is the folder that holds .context/)"
    else:
        problem = f"{project}: no such folder"
    return f"{problem}; {hint}" if hint else problem


def suggest_project(project: str, command: str = "") -> str | None:
    """Where PROJECT without `.context/` was probably meant to point: the folder above a `.context` named
    itself, else the nearest folder above holding a `.context/` directory; None when there is none."""
    path = os.path.abspath(project)
    if os.path.isdir(os.path.join(path, ".context")):
        return None
    found = None
    if os.path.basename(path) == ".context":
        found = os.path.dirname(path)
    else:
        parent = os.path.dirname(path)
        while parent != path:
            if os.path.isdir(os.path.join(parent, ".context")):
                found = parent
                break
            path, parent = parent, os.path.dirname(parent)
    if found is None:
        return None
    shown = os.path.relpath(found)
    if len(shown) > len(found):
        shown = found
    run = f"ctxtui {command} {shown}" if command and command != "demo" else f"ctxtui {shown}"
    return f"the project is the folder that holds .context/: {shown} (try `{run}`)"

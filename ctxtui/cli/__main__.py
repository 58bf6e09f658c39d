"""`python -m ctxtui.cli`: the same as the `ctxtui` command."""

import sys

from ctxtui.cli import main

sys.exit(main())

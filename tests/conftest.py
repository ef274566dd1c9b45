"""Session set-up shared by every test module."""

import os

# pytest-xdist hands its workers the controller's terminal size as COLUMNS and LINES; a console made
# at import (the CLI's) would keep that width for good, and the tests that set COLUMNS for one
# command would read tables cut to 80 columns. Without them, a worker sizes its output as a plain run.
for name in ("COLUMNS", "LINES"):
    os.environ.pop(name, None)

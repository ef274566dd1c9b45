"""``python -m simharness``: the same command line as the ``simharness`` script."""

from simharness.cli import app

app(prog_name="simharness")

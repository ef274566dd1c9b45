"""Python strategies that break the protocol, one way each, for the tests that every game's
Python-strategy entry point names the game, slot, seat and decision and keeps the strategy's own
exception, and that a stopped run reaches a strategy that never returns."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

MODULE = __name__

# (class, the exception the batch raises, what its message says), for pytest.mark.parametrize.
CASES = [
    ("Raises", KeyError, "no such key"),
    ("OutOfRange", ValueError, "expected an index below"),
    ("NotAnInt", TypeError, "expected an int index"),
]


class Raises:
    # Sugoroku asks decide(view), the other games decide(view, legal).
    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]] | None = None) -> int:
        raise KeyError("no such key")


class OutOfRange:
    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        return len(legal)


class NotAnInt:
    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> object:
        return "not an index"


class InitRaises:
    def __init__(self) -> None:
        self.table = self.load()

    def load(self) -> dict[str, int]:
        raise RuntimeError("refuses to start")

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]] | None = None) -> int:
        return 0


class Counts:
    """Takes the first choice (sugoroku: declines) and counts how often it was asked."""

    asked = 0

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]] | None = None) -> int | bool:
        Counts.asked += 1
        return False if legal is None else 0


# Set once a strategy below is stuck inside decide(); in a run's process, the file named by
# STUCK_FILE (if any) is created then, for a test that waits on that process.
STUCK = threading.Event()
STUCK_FILE = "SIMHARNESS_TEST_STUCK_FILE"


def _stuck() -> None:
    STUCK.set()
    if os.environ.get(STUCK_FILE):
        Path(os.environ[STUCK_FILE]).touch()


class Spins:
    """A decide() that never returns: a pure-Python loop."""

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]] | None = None) -> int:
        _stuck()
        while True:
            pass


class Blocks:
    """A decide() that never returns: blocked inside a C call (a lock no one releases)."""

    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]] | None = None) -> int:
        _stuck()
        threading.Event().wait()
        return 0

"""Python strategies that break the protocol, one way each, for the tests that every game's
Python-strategy entry point names the slot and keeps the strategy's own exception."""

from __future__ import annotations

from typing import Any

MODULE = __name__

# (class, the exception the batch raises, what its message says), for pytest.mark.parametrize.
CASES = [
    ("Raises", KeyError, "no such key"),
    ("OutOfRange", ValueError, "expected an index below"),
    ("NotAnInt", TypeError, "expected an int index"),
]


class Raises:
    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        raise KeyError("no such key")


class OutOfRange:
    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> int:
        return len(legal)


class NotAnInt:
    def decide(self, view: dict[str, Any], legal: list[tuple[Any, ...]]) -> object:
        return "not an index"

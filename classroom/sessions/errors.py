"""The store's errors, below everything else in the package (the stores, the sealing of
secrets and the pages all raise or catch them)."""

from __future__ import annotations


class StoreError(RuntimeError):
    """The store's data cannot be trusted (e.g. a log that no longer replays)."""


class NoKey(StoreError):
    """This process holds no key for the store (a seat kernel), yet a secret was asked."""

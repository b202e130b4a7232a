"""Yes/no answers that carry their reasons, each with the rule it comes from."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reason:
    rule: str
    text: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


@dataclass(frozen=True)
class Verdict:
    """``allowed`` plus every reason found: for a refusal, each rule that forbids; for a
    permission, the rules checked and passed."""

    allowed: bool
    reasons: tuple[Reason, ...] = ()

    def __bool__(self) -> bool:
        return self.allowed

    @property
    def rules(self) -> tuple[str, ...]:
        return tuple(r.rule for r in self.reasons)

    def explain(self) -> str:
        head = "allowed" if self.allowed else "not allowed"
        return "; ".join([head, *map(str, self.reasons)])


def verdict(blocks: list[Reason], passes: list[Reason]) -> Verdict:
    """A refusal listing ``blocks`` if there are any, else a permission listing ``passes``."""
    return Verdict(False, tuple(blocks)) if blocks else Verdict(True, tuple(passes))

"""Movement instructions as written on a play-by-mail turn sheet (PBM "Combining Admin
and Tactical Mode").

* ``0``: wait, burning the unit's next movement phase;
* ``1``-``6``: one hex in that direction, tactical mode (1 north ... 6 north-west);
* a number above 99: an administrative move to that centre, by road; negative, by rail;
* a number written with a leading 0 (``03825``): an administrative move to that hex.

>>> parse_orders("5,5,5,5,101")
(Step(direction=5), Step(direction=5), Step(direction=5), Step(direction=5), Admin(centre=101, rail=False, hex_label=None))
>>> parse_orders([0, -505, "03825"])[1:]
(Admin(centre=505, rail=True, hex_label=None), Admin(centre=None, rail=False, hex_label='3825'))
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import MovementInputError

RULE = 'PBM "Combining Admin and Tactical Mode"'


@dataclass(frozen=True)
class Wait:
    def __str__(self) -> str:
        return "0"


@dataclass(frozen=True)
class Step:
    direction: int

    def __str__(self) -> str:
        return str(self.direction)


@dataclass(frozen=True)
class Admin:
    centre: int | None = None
    rail: bool = False
    hex_label: str | None = None

    def __str__(self) -> str:
        if self.hex_label is not None:
            return "0" + self.hex_label
        return f"-{self.centre}" if self.rail else str(self.centre)


Instruction = Wait | Step | Admin


def parse_instruction(token) -> Instruction:
    if isinstance(token, Wait | Step | Admin):
        return token
    text = str(token).strip()
    if isinstance(token, bool) or not text:
        raise MovementInputError(f"an empty or odd movement instruction {token!r} ({RULE})")
    if len(text) >= 4 and text.startswith("0") and text.isdigit():
        return Admin(hex_label=text[1:])
    try:
        n = int(text)
    except ValueError:
        raise MovementInputError(
            f"{text!r} is not a movement instruction: use numbers ({RULE})"
        ) from None
    if n == 0:
        return Wait()
    if 1 <= n <= 6:
        return Step(n)
    if abs(n) > 99:
        return Admin(centre=abs(n), rail=n < 0)
    raise MovementInputError(
        f"{n} is not a movement instruction: use 0 (wait), 1-6 (a direction), a centre number "
        f"above 99 (negative for rail) or a hex number written with a leading 0 ({RULE})"
    )


def parse_orders(orders) -> tuple[Instruction, ...]:
    """A comma-separated string or a sequence of instructions -> a tuple of instructions."""
    if isinstance(orders, str):
        tokens = [t for t in orders.replace(";", ",").split(",") if t.strip()]
    else:
        tokens = list(orders)
    return tuple(parse_instruction(t) for t in tokens)


def format_orders(orders) -> str:
    return ",".join(str(i) for i in orders)

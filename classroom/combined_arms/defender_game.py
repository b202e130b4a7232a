"""A learner commands the defenders against an attacker bot (CA p.7), without any widgets.

:class:`DefenderGame` holds one enemy-player game in this kernel: the learner is the
``defender`` seat, a scripted attacker (``bold`` or ``steady``) plays the ``player`` seat.
The attacker only ever plans on :func:`~.public.attacker_copy` of the game, so it cannot
see the deployment any more than a person could. The page (``widgets/defender_app.py``)
draws this object and sends it clicks; everything that is a rule is asked of the engine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from hexclass.classroom.hexgrid import Hex

from . import enemy, odds
from .actions import ChooseMortar, ChooseReveals, ChooseTarget, Deploy
from .bots import make_policy
from .defender import (
    DEFENDER,
    ai_choice,
    armour_targets,
    defender_seat,
    deployment_field,
    infantry_targets,
)
from .enemy_player import Deployment, deployment_problems, targets
from .engine import check, try_apply
from .game import new_game
from .public import attacker_copy
from .reasons import VARIANT, Illegal, Verdict
from .state import SOLITAIRE_SEATS, Options

ATTACKER = "player"
BOTS = ("bold", "steady")


@dataclass(frozen=True)
class Option:
    """One answer to the defender's pending choice, with what the engine says of it."""

    action: object
    label: str
    odds: str = ""
    hexes: tuple[Hex, ...] = ()


class DefenderGame:
    """The defender's side of an enemy-player game against an attacker bot."""

    def __init__(self, seed: int, bot: str = "bold", handicap: int = 0) -> None:
        if bot not in BOTS:
            raise ValueError(f"the attacker bot is one of {', '.join(BOTS)}, not {bot!r}")
        seats = {**SOLITAIRE_SEATS, DEFENDER: defender_seat()}
        options = Options(auto_decisions=True, enemy_player=True, handicap=handicap)
        self.state = new_game(seed, options, seats)
        self.bot_name = bot
        self.opponent = f"the {bot} attacker bot"
        self.has_bot = True  # the attacker plays in this kernel when asked
        self.bot = make_policy(bot, seed)  # the bot's own random numbers
        self.hint_rng = random.Random(seed ^ 0x5EED)
        self.seat = DEFENDER
        self.platoons: set[Hex] = set()
        self.atgs: set[Hex] = set()
        self._history: list[tuple[frozenset, frozenset]] = []

    # --- who is to act -------------------------------------------------------------------
    @property
    def stage(self) -> str:
        """``deploy``, ``defender`` (a choice waits), ``attacker`` or ``over``."""
        s = self.state
        if s.over:
            return "over"
        if s.phase == "deployment":
            return "deploy"
        if s.pending is not None and s.pending.power == DEFENDER:
            return "defender"
        if s.phase == "bidding":
            return "bidding"
        return "attacker"

    # --- deployment ----------------------------------------------------------------------
    @property
    def field(self):
        return deployment_field(self.state)

    def targets(self):
        return targets(self.field, self.state.forces)

    def toggle(self, h: Hex, atg: bool = False) -> Illegal | None:
        """Mark or unmark a real platoon, or a real ATG on a real platoon, at ``h``.

        CA p.7: a real ATG stands with a real platoon, so an ATG is marked only where a
        real platoon already is, and unmarking that platoon takes its ATG with it.
        """
        if h not in self.field.platoon_hexes:
            return Illegal(VARIANT, f"{self._name(h)} holds no potential enemy counter")
        if atg and h not in self.field.atg_hexes:
            return Illegal(VARIANT, f"{self._name(h)} holds no potential ATG counter")
        if atg and h not in self.platoons:
            return Illegal(
                VARIANT,
                f"a real ATG must stand with a real platoon: mark the platoon at "
                f"{self._name(h)} first",
            )
        self._history.append((frozenset(self.platoons), frozenset(self.atgs)))
        if atg:
            self.atgs ^= {h}
        elif h in self.platoons:
            self.platoons.discard(h)
            self.atgs.discard(h)
        else:
            self.platoons.add(h)
        return None

    def undo(self) -> bool:
        """Take back the last mark, clear or suggestion; False when there is nothing to undo."""
        if not self._history:
            return False
        platoons, atgs = self._history.pop()
        self.platoons, self.atgs = set(platoons), set(atgs)
        return True

    def clear(self) -> None:
        self._history.append((frozenset(self.platoons), frozenset(self.atgs)))
        self.platoons, self.atgs = set(), set()

    def forces_text(self) -> str:
        """The secret force roll told in words: the throws and what they give (CA p.7)."""
        f = self.state.forces
        if f is None:
            return ""
        throws = ", ".join(f"{a}-{b}" for a, b in f.rolls)
        again = len(f.rolls) - 1
        how = (
            f"the first throw ({throws}) did it"
            if not again
            else f"it took {len(f.rolls)} throws ({throws}); "
            f"the first {again} had no die of 1-3 beside one of 4-6 and were thrown again"
        )
        return (
            f"Two dice are thrown until one shows 4-6 and the other 1-3: the high die is the "
            f"number of your real platoons, the low die your real ATGs. Here {how}. "
            f"You command {f.platoons} real platoons and {f.atgs} real ATGs."
        )

    def deployment(self) -> Deployment:
        return Deployment(frozenset(self.platoons), frozenset(self.atgs))

    def problems(self) -> list[Illegal]:
        return deployment_problems(self.field, self.state.forces, self.deployment())

    def suggest_deployment(self) -> None:
        self._history.append((frozenset(self.platoons), frozenset(self.atgs)))
        d = ai_choice(self.state, self.seat, self.hint_rng)
        self.platoons, self.atgs = set(d.platoons), set(d.atgs)

    def deploy(self) -> Verdict:
        a = Deploy(self.seat, tuple(sorted(self.platoons)), tuple(sorted(self.atgs)))
        return self.submit(a)

    # --- the attacker --------------------------------------------------------------------
    def attacker_step(self):
        """One action of the bot, planned on the attackers' copy of the game."""
        action = self.bot.act(attacker_copy(self.state), ATTACKER)
        why = try_apply(self.state, action)
        if why is not None:  # a bot that breaks a rule is a bug: say so loudly
            raise RuntimeError(f"the attacker bot tried an illegal action: {why}")
        return action

    def run_attacker(self, limit: int = 400) -> int:
        """Let the bot play until the defender must choose or the game ends."""
        n = 0
        while self.stage == "attacker" and n < limit:
            self.attacker_step()
            n += 1
        return n

    # --- the defender's choices ----------------------------------------------------------
    def options(self) -> list[Option]:
        """Every answer to the pending choice, with the exact odds the engine gives."""
        s, p = self.state, self.state.pending
        if self.stage != "defender":
            return []
        if p.kind == "reveals":
            return [
                Option(
                    ChooseReveals(self.seat, (h,)),
                    f"reveal {self._name(h)}",
                    f"best payoff now {enemy.best_payoff(s, h)}",
                    (h,),
                )
                for h in p.options
            ]
        (h,) = p.context if p.kind in ("armour_target", "infantry_target") else (None,)
        if p.kind == "armour_target":
            chances = armour_targets(s, h)
            return [
                Option(
                    ChooseTarget(self.seat, unit=u),
                    f"fire on {u}",
                    _pct(odds.enemy_fire_on_armour(s, h, u).probability, "breaks it"),
                    (s.units[u].hex,),
                )
                for u in sorted(chances)
            ]
        if p.kind == "infantry_target":
            out = []
            for cl, pay in sorted(infantry_targets(s, h).items(), key=lambda kv: -kv[1]):
                each = "; ".join(
                    f"{self._name(x)} {odds.enemy_fire_on_hex(s, h, x).percent}" for x in cl
                )
                out.append(
                    Option(
                        ChooseTarget(self.seat, hexes=tuple(cl)),
                        f"engage {', '.join(self._name(x) for x in cl)}",
                        f"payoff {pay}; pin chance {each}",
                        tuple(cl),
                    )
                )
            return out
        if p.kind == "mortar_target":
            out = [
                Option(
                    ChooseMortar(self.seat, None),
                    "hold fire",
                    "the mortars may fire next turn instead",
                )
            ]
            for t in p.options:
                if t is not None:
                    m = odds.mortar_odds(s, t)
                    out.append(
                        Option(
                            ChooseMortar(self.seat, t),
                            f"mortars on {self._name(t)}",
                            _pct(m.effect.get(t, Fraction(0)), "pins the target hex"),
                            (t,),
                        )
                    )
            return out
        return []

    def hint(self):
        """What the solitaire AI's rules would choose now (an action), or None."""
        if self.stage not in ("defender", "deploy"):
            return None
        return ai_choice(self.state, self.seat, self.hint_rng)

    # --- the page's handle (``widgets/game_link.GameHandle``) --------------------------------
    def submit(self, action) -> Verdict:
        """The defender's order (a deployment or a choice): the engine decides."""
        return Verdict.judge(try_apply(self.state, action))

    def check(self, action) -> Verdict:
        return Verdict.judge(check(self.state, action))

    def _name(self, h: Hex) -> str:
        return self.state.label(h) if h in self.state.board.hex_set else str(h)


def _pct(p: Fraction, what: str) -> str:
    return f"{float(p):.0%} ({p.numerator} in {p.denominator}) {what}"

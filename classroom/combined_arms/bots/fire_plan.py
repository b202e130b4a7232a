"""The steady policy's fire plan: mortars on the worst threat, assaults by adjacent
rifles, covering fire where it most cuts the enemy's expected fire (CA "Fire Attacks",
"Mortars").
"""

from __future__ import annotations

from collections.abc import Callable

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.hexgrid import Hex

from .. import fire
from ..actions import (
    CallMortar,
    DeclareFire,
    EndPhase,
    ResolveFire,
)
from ..intent import action_for
from ..quick import (
    he_targets,
    spotted_enemy_hexes,
)
from ..state import TRACK_SIZE, GameState
from ..units import (
    REAL,
    Platoon,
)
from .assessment import (
    _greedy_groups,
    facing_towards,
)


class FirePlan:
    """The fire phase of the steady policy (a mixin; see :class:`.steady.SteadyPolicy`)."""

    # --- fire phase ------------------------------------------------------------------------
    def _fire_action(self, state: GameState, seat: str):
        if state.declaration is not None:
            return ResolveFire(seat)
        if "mortar" not in self._fire_done:
            self._fire_done.add("mortar")
            a = self._mortar_call(state, seat)
            if a is not None:
                return a
        while True:
            if self._committed is None:
                self._committed = self._assault(state) or self._covering_fire(state)
            if self._committed is None:
                return EndPhase(seat)
            target, ids = self._committed
            a = self._declare(state, seat, target, [state.units[i] for i in ids])
            if a is None or isinstance(a, DeclareFire):
                self._committed = None
                self._fire_done.update(ids)
            if a is not None:
                return a

    def _best_mortar_target(self, state: GameState) -> Hex | None:
        best, best_value = None, 0.05
        for h in he_targets(state):
            value = self._mortar_value(state, h)
            if value > best_value:
                best, best_value = h, value
        return best

    def _mortar_value(self, state: GameState, h: Hex) -> float:
        """Threat removed by bombs on ``h``: the hex itself for sure, each neighbour 1 in 3."""
        value = self._threat(state, h) * 5 / 6
        for n in state.board.neighbours_on_board[h]:
            if n in state.enemy:
                value += self._threat(state, n) * 5 / 18
        return value

    def _mortar_call(self, state: GameState, seat: str):
        """CA "Mortars": high explosive on the most dangerous hex the mortars may reach.

        After firing, the mortars may only shift to a neighbouring hex next turn; when
        that keeps them from a much better target, they stand down for a turn instead.
        """
        if state.mortar_called or state.engaged:
            return None
        best, best_value = None, 0.05
        for h, spotter in he_targets(state).items():
            value = self._mortar_value(state, h)
            if value > best_value:
                best, best_value = CallMortar(seat, h, spotter), value
        prev = state.friendly_mortar
        if prev is not None and prev.turn == state.turn - 1:
            elsewhere = max(
                (self._mortar_value(state, h) for h in spotted_enemy_hexes(state)), default=0.0
            )
            if best_value < self.w.mortar_shift * elsewhere:
                return None
        return best

    def _assault(self, state: GameState) -> tuple[Hex, tuple[str, ...]] | None:
        """The next assault: an enemy hex with fresh rifle platoons next to it.

        CA "Fire Attacks": only when every firer is adjacent can a modified 4+ break the
        enemy, so the group is the adjacent rifles of one company (the one with most
        there) with any adjacent MMG and armour, and nobody further off joins in.
        """
        plans = []
        for h in sorted(state.enemy):
            if h in state.engaged or state.enemy[h].platoon is None:
                continue
            adj = [u for u in state.friendly_adjacent(h) if u.fresh and u.id not in self._fire_done]
            by_company: dict[str, list[str]] = {}
            for u in adj:
                if u.is_rifle:
                    by_company.setdefault(u.company, []).append(u.id)
            if not by_company:
                continue
            aim = {c for c, o in self._objectives.items() if o == h}
            c = max(sorted(by_company), key=lambda c: (len(by_company[c]), c in aim))
            support = [u.id for u in adj if not u.is_rifle]
            rank = (bool(aim), state.enemy[h].platoon == REAL, len(by_company[c]))
            plans.append((rank, h, tuple(by_company[c] + support)))
        if not plans:
            return None
        _, h, ids = max(plans)
        return h, ids

    def _declare(self, state: GameState, seat: str, target: Hex, firers: list[Platoon]):
        """Turn armour that needs it first, then commit the whole group at once."""
        usable = []
        for u in firers:
            if not (u.on_board and u.fresh):
                continue
            if u.is_armour and not hg.in_arc(u.hex, u.facing, target):
                f = facing_towards(u.hex, target)
                turn = None if f is None else action_for(state, seat, u.id, facing=f, verb="face")
                if turn is not None and self._passes(state, turn):
                    return turn
                continue
            if fire.firer_problem(state, u, target) is None:
                usable.append(u)
        if fire.company_problem(usable) is not None:
            first = next(u.company for u in usable if u.is_rifle)
            usable = [u for u in usable if not u.is_rifle or u.company == first]
        if not usable:
            return None
        return DeclareFire(seat, target, tuple(u.id for u in usable), True)

    def _covering_fire(self, state: GameState):
        """Spend fresh firers where they most cut the chance of enemy fire next phase."""
        next_to = _fresh_rifles_next_to(state)
        reserved = self._assault_reserved(state, next_to)
        firers = [
            u
            for u in state.on_board()
            if u.fresh and u.id not in reserved and u.id not in self._fire_done
        ]
        if not firers:
            return None
        assault_targets = {h for h, rifles in next_to.items() if rifles}
        mortar = state.friendly_mortar
        mortar_hex = mortar.hex if state.mortar_called and mortar and not mortar.smoke else None
        threats = {}
        for h in state.enemy:
            if h in state.engaged or h in assault_targets:
                continue
            t = self._threat(state, h) * (1 / 6 if h == mortar_hex else 1.0)
            if t > 0:
                threats[h] = t
        sight = self._sight(state)
        faces = {u.id: {h: sight.pin(u.id, u.hex, h) for h in threats} for u in firers}
        plan = _greedy_groups(threats, firers, faces, self.w.min_cover, self._rifle_cost(state))
        if not plan:
            return None
        target, group = max(plan.items(), key=lambda kv: (len(kv[1]), kv[0]))
        return target, tuple(u.id for u in group)

    def _rifle_cost(self, state: GameState) -> Callable[[float], float | None]:
        """What a rifle's shot costs in ammo: none worth spending on small threats."""
        w = self.w

        def cost(threat: float) -> float | None:
            if threat < w.rifle_cover or state.ammo == TRACK_SIZE - 1:
                return None
            return 0.25

        return cost

    def _assault_reserved(self, state: GameState, next_to: dict[Hex, list[Platoon]]) -> set[str]:
        """Fresh rifle platoons next to an enemy keep their fire for an assault on it.

        ``next_to`` is :func:`_fresh_rifles_next_to` of the state.
        """
        out = set()
        for h, post in state.enemy.items():
            if post.platoon is None or h in state.engaged:
                continue
            out.update(u.id for u in next_to[h])
        return out


def _fresh_rifles_next_to(state: GameState) -> dict[Hex, list[Platoon]]:
    """Your fresh rifle platoons next to each enemy hex."""
    return {
        h: [u for u in state.friendly_adjacent(h) if u.is_rifle and u.fresh] for h in state.enemy
    }

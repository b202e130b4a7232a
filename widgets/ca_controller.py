"""The Combined Arms board's controller: what the player has in hand, with no drawing.

It holds the selection, the chosen facing, the fire group and target, the mortar call
and the *End the battle* confirmation, and turns clicks and keys into actions. Every
question of legality goes to the engine (``hexclass.classroom.combined_arms.query`` and
``check``): the controller never lists moves, never works out a rule and never reads
the log's English to decide anything. ``ipywidgets`` is not imported, so every
behaviour is tested without a browser (``tests/widgets/test_ca_controller.py``).

``game`` is a :class:`~hexclass.widgets.game_link.GameHandle`: ``state``, ``check`` and
``submit(action)``, answered with a :class:`~hexclass.widgets.game_link.Verdict`:
:class:`LocalGame` below for solitaire, the co-op seat's shared game for a team. After an accepted order the seat reads as its own result only
the events of its own action (``GameState.events_of`` its version); anything else the
same order brought in (teammates' orders decided just before or just after it) is
their news, for the team line.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexclass.classroom import hexgrid as hg
from hexclass.classroom.combined_arms import (
    CallMortar,
    DeclareFire,
    EndGame,
    EndPhase,
    ResolveFire,
    check,
    try_apply,
)
from hexclass.classroom.combined_arms.fire import may_fire
from hexclass.classroom.combined_arms.mortars import friendly_spotters
from hexclass.classroom.combined_arms.movement import move_reach
from hexclass.classroom.combined_arms.odds import mortar_odds
from hexclass.classroom.combined_arms.query import Query
from hexclass.classroom.hexgrid import Hex

from .ca_reports import read_events
from .game_link import Verdict

ENTRY_FACING = 4  # armour entering faces the enemy's edge (the ↓ corner) unless told otherwise


class LocalGame:
    """A solitaire game held in this kernel."""

    def __init__(self, state) -> None:
        self.state = state
        self.accepted_version: int | None = None  # the version the last accepted order made

    def submit(self, action) -> Verdict:
        verdict = Verdict.judge(try_apply(self.state, action))
        if verdict:
            self.accepted_version = len(self.state.actions)
        return verdict

    def check(self, action) -> Verdict:
        return Verdict.judge(check(self.state, action))


def accepted_version(game) -> int | None:
    """The version the game's last accepted order made (its place in ``state.actions``,
    from 1): ``game.accepted_version`` (a local game), else the store's verdict kept as
    ``game.last_result`` (a co-op seat's shared game); None if the game does not say."""
    version = getattr(game, "accepted_version", None)
    if version is None:
        version = getattr(getattr(game, "last_result", None), "version", None)
    return version if isinstance(version, int) else None


# How much a line on the message line matters to this seat (issue 22): a refusal to me,
# then my own result, then a teammate's move, then routine lines.
ROUTINE, TEAM, OWN, REFUSAL = range(4)


@dataclass(frozen=True)
class Message:
    """The message line: its text, whether it is a refusal, how much it matters, when.

    ``clock`` is the (turn, phase) it was said in; ``cause`` the store's refusal kind
    (e.g. ``"paused"``), so the page can take a refusal back once its cause has gone.
    """

    text: str = ""
    bad: bool = False
    level: int = ROUTINE
    clock: tuple = ()
    cause: str | None = None


class BoardController:
    """Selection, facing, fire group and target for one seat; intentions become actions."""

    def __init__(self, game, seat: str = "player") -> None:
        self.game = game
        self.seat = seat
        self.seat_titles: dict[str, str] = {}  # seat name -> how a co-op page names it
        self.message = Message()
        self.new_events: list = []  # events the last accepted action (or update) produced
        self.team_news: list[str] = []  # a co-op seat: the latest moves of the other seats
        self._clear()
        self._clock = self._now()

    # --- what the page reads ---------------------------------------------------------------
    @property
    def state(self):
        return self.game.state

    @property
    def q(self) -> Query:
        return Query(self.state, self.seat)

    def my_units(self) -> frozenset[str]:
        seat = self.state.seats.get(self.seat)
        return seat.units if seat else frozenset()

    def unit(self):
        return self.state.units.get(self.selected) if self.selected else None

    def shown_facing(self) -> int | None:
        """The corner the selected armour faces, or will face on its next move."""
        u = self.unit()
        if u is None or not u.is_armour:
            return None
        if self.state.phase == "friendly_move" and self.facing is not None:
            return self.facing
        return u.facing

    def _memo(self, what: str, key: tuple, compute):
        """Answers kept while neither the game nor what is in hand changes (one redraw
        asks the same question several times)."""
        s = self.state
        full = (what, s.key(), *key)
        cache = self.__dict__.setdefault("_answers", {})
        if full not in cache:
            if len(cache) > 32:
                cache.clear()
            cache[full] = compute()
        return cache[full]

    def destinations(self) -> dict[Hex, object]:
        """Hex -> the engine's legal action taking the selected platoon there."""
        u = self.unit()
        if u is None or self.state.phase != "friendly_move" or u.id not in self.my_units():
            return {}
        return self._memo(
            "dest", (u.id, self.facing), lambda: self.q.move_targets(u.id, self.facing)
        )

    def target_map(self) -> dict:
        """Fire phase, firers gathered: each enemy hex -> None (legal) or the engine's reason."""
        if self.state.phase != "friendly_fire" or not self.group or self.mode != "fire":
            return {}
        group = tuple(self.group)
        return self._memo("targets", group, lambda: self.q.fire_targets(group))

    def odds(self):
        """(odds, None) for the shot in hand if the engine allows it, else (None, reason)."""
        if self.target is None or not self.group:
            return None, None
        return self.q.fire_odds_or_reason(self.target, self.group)

    def mortar_preview(self):
        """(mortar odds, None) for a legal call in hand, else (None, the engine's reason)."""
        if self.spotter is None or self.mortar_target is None:
            return None, None
        why = check(self.state, self._mortar_action())
        if why is not None:
            return None, why
        return mortar_odds(self.state, self.mortar_target), None

    def mortar_allowed(self) -> bool:
        return self.q.mortar_problem() is None

    def choice(self):
        return self.q.pending_decision()

    def enabled(self) -> dict[str, bool]:
        """Which buttons the engine would accept now."""
        u = self.unit()
        ok = lambda a: check(self.state, a) is None  # noqa: E731
        odds, _ = self.odds()
        return {
            "withdraw": bool(u) and ok(self.q.action_for(u.id, verb="withdraw")),
            "exploit": bool(u) and ok(self.q.action_for(u.id, verb="exploit")),
            "commit": odds is not None,
            "resolve": self.state.declaration is not None and ok(ResolveFire(self.seat)),
            "end_phase": ok(EndPhase(self.seat)),
            "end_game": ok(EndGame(self.seat)),
            "mortar": self.mortar_allowed(),
            "call_mortar": self.mortar_preview()[0] is not None,
        }

    def hover_text(self, h: Hex) -> str:
        s = self.state
        text = f"{s.label(h)} ({s.board.terrain[h].replace('_', ' ')})"
        targets = self.target_map()
        if h in targets:
            why = targets[h]
            if why is None:
                odds = self.q.fire_odds(h, self.group)
                text += f": {odds.summary()}"
            else:
                text += f": no shot — {why}"
        return text

    # --- keeping in step with the game --------------------------------------------------------
    def _now(self):
        s = self.state
        return (s.turn, s.phase, s.over)

    def _clear(self) -> None:
        self.selected: str | None = None
        self.facing: int | None = None  # armour in the move phase: corner for the next move
        self.group: list[str] = []
        self.target: Hex | None = None
        self.mode = "fire"
        self.spotter: str | None = None
        self.mortar_target: Hex | None = None
        self.smoke = False
        self.confirming_end = False

    def clear(self) -> None:
        """Forget the selection, the fire group and any half-made call."""
        self._clear()
        self.say("Selection cleared.")

    def sync(self) -> bool:
        """After any change to the game: drop what no longer holds. True if the clock moved."""
        s = self.state
        moved = self._now() != self._clock
        if moved:
            self._clear()  # selection, group and facing never carry into a new phase or turn
            self._clock = self._now()
            return True
        if self.selected and s.units[self.selected].where not in ("off", "board"):
            self.selected, self.facing = None, None
        self.group = [u for u in self.group if may_fire(s.units[u])]
        if self.target is not None and self.target not in s.enemy:
            self.target = None
        return False

    def external_update(self, new_events) -> None:
        """Another seat changed the shared game: say what happened (see :meth:`hear`)."""
        self.new_events = list(new_events)
        self.sync()
        self.hear(new_events)

    def hear(self, events) -> None:
        """Events this seat's own click did not make: an enemy phase, the end of the
        battle or a fire this seat took part in is its own news; a teammate's move goes
        to the team line (and to the message line only if nothing more important is on
        it, see :meth:`offer`)."""
        reading = read_events(self.state, events)
        if reading is None:
            return
        if reading.what in ("report", "over") or self.seat in reading.seats:
            self.offer(reading.text, OWN)
        else:
            self.offer(f"Team: {reading.text}", TEAM)
            self.team_news = [reading.text, *self.team_news][:2]  # a fire: every roll

    def say(self, text: str, bad: bool = False, level: int | None = None, cause=None) -> None:
        """What this seat's own click or key did (or why it was refused): always shown."""
        if level is None:
            level = REFUSAL if bad else OWN
        self.message = Message(str(text), bad, level, self._now(), cause)

    def offer(self, text: str, level: int, bad: bool = False) -> bool:
        """News that did not come from this seat's click (a teammate's move, the enemy
        phase): shown only if it matters as much as the line shown, or the line belongs
        to an earlier phase or turn. True if shown."""
        m = self.message
        if level < m.level and m.clock == self._now() and m.text:
            return False
        self.message = Message(str(text), bad, level, self._now())
        return True

    def act(self, action) -> bool:
        """Send an action; on refusal show the engine's reason (its rule) and change nothing."""
        catch_up = getattr(self.game, "catch_up", None)
        if catch_up is not None:  # a shared game: draw teammates' news first, apart from ours
            catch_up()
        before, acted = len(self.state.events), len(self.state.actions)
        verdict = self.game.submit(action)
        if not isinstance(verdict, Verdict):  # text or None: a handle from before the Verdict
            raise TypeError(
                f"{type(self.game).__name__}.submit answered {verdict!r}, not a Verdict"
            )
        if not verdict:
            self.say(verdict.reason, bad=True, cause=verdict.kind)
            self.new_events = []
            return False
        events = self.state.events
        start, end = self._own_span(action, acted, before)
        self.new_events = list(events[before:])
        self.sync()
        reading = read_events(self.state, events[start:end])
        self.say(reading.text if reading else "done")
        others = events[before:start] + events[end:]
        if others:  # teammates' orders decided just before or just after this one
            self.hear(others)
        return True

    def _own_span(self, action, acted: int, before: int) -> tuple[int, int]:
        """Where this order's own events lie in the game's log (the engine's marks).

        The order's version comes from the game (:func:`accepted_version`); a game that
        does not tell it is searched for the order among the actions accepted since
        ``acted``. A copy without marks (published by an older referee) gives everything
        new, as pages read it before the marks existed."""
        s = self.state
        version = accepted_version(self.game)
        if version is None or not acted < version <= len(s.actions):
            version = next(
                (i + 1 for i in range(len(s.actions) - 1, acted - 1, -1) if s.actions[i] == action),
                None,
            )
        span = None if version is None else s.action_span(version)
        if span is None or span[0] < before:
            return before, len(s.events)
        return span

    def _blocked(self) -> bool:
        """Nothing but the commander's pending choice may be done; say so."""
        self.sync()
        s = self.state
        if s.over:
            self.say("The battle is over: see the Score tab.")
            return True
        if s.pending is not None:
            self.say("First answer the choice in the panel on the right.", bad=True)
            return True
        return False

    # --- selection ----------------------------------------------------------------------------
    def select(self, uid: str | None) -> None:
        self.sync()
        self.selected = uid
        self.facing = None  # a facing chosen for one platoon never passes to another
        self.confirming_end = False
        u = self.unit()
        if u is None:
            return
        if u.is_armour and u.where == "off":
            self.facing = ENTRY_FACING
        if self.state.phase == "friendly_move":
            n = len(self.destinations())
            if n:
                self.say(f"{uid} selected: {n} hexes lit")
            else:
                why = self.q.why_not(uid, u.hex, verb="move") if u.on_board else None
                self.say(f"{uid} has no legal move now" + (f" ({why})" if why else ""), bad=True)
        elif self.state.phase == "friendly_fire":
            self.say(f"{uid} selected.")

    def next_unit(self) -> None:
        """``n``: the next of this seat's platoons that can act in this phase."""
        if self._blocked():
            return
        ready = self.q.ready_units()
        if not ready:
            self.say("No platoon of yours can act in this phase.")
            return
        i = (ready.index(self.selected) + 1) % len(ready) if self.selected in ready else 0
        if self.state.phase == "friendly_fire":
            self.group = [ready[i]]
            self.target = None
            self.selected, self.facing = ready[i], None
            self._fire_preview()
        else:
            self.select(ready[i])

    def set_facing(self, corner: int | None) -> None:
        """Move phase: choose the facing for the next move. Fire phase: turn fresh armour."""
        if self._blocked():
            return
        u = self.unit()
        if u is None or not u.is_armour:
            self.say("Select one of your armour platoons first.", bad=True)
            return
        if self.state.phase == "friendly_fire":
            if corner is None or corner == u.facing:
                self.say(f"{u.id} keeps its facing.")
                return
            if self.act(self.q.action_for(u.id, facing=corner, verb="face")):
                self.selected = u.id
                self._fire_preview(keep_message=True)
            return
        self.facing = ENTRY_FACING if corner is None and u.where == "off" else corner
        n = len(self.destinations())
        shown = "as now" if self.facing is None else hg.CORNER_NAMES[self.facing]
        self.say(f"{u.id} will face {shown}: {n} hexes lit", bad=not n)

    def turn(self, step: int) -> None:
        """Arrow keys: +1 turns anticlockwise, -1 clockwise, from the selected armour's facing."""
        u = self.unit()
        if u is None or not u.is_armour:
            self.say("Select one of your armour platoons first.", bad=True)
            return
        base = self.shown_facing()
        base = ENTRY_FACING if base is None else base
        self.set_facing((base + step) % 6)

    # --- clicks ------------------------------------------------------------------------------
    def click(self, h: Hex | None) -> None:
        if h is None or self._blocked():
            return
        if self.state.phase == "friendly_move":
            self._click_move(h)
        elif self.state.phase == "friendly_fire":
            if self.mode == "mortar":
                self._click_mortar(h)
            else:
                self._click_fire(h)

    def _own_at(self, h: Hex) -> list[str]:
        mine = self.my_units()
        return [uid for uid in self.state.at.get(h, ()) if uid in mine]

    def _within_reach(self, u, h: Hex) -> bool:
        """Could a click on ``h`` be meant as a move of ``u``? (Only to pick the message.)"""
        b = self.state.board
        if u.where == "off":
            return h in b.friendly_edge or (u.is_armour and h == b.road[1])
        return u.on_board and hg.distance(u.hex, h) <= move_reach(u)

    def _click_move(self, h: Hex) -> None:
        dest = self.destinations()
        if h in dest:
            self.act(dest[h])
            return
        own = self._own_at(h)
        u = self.unit()
        if own and u is not None and u.id not in own and dest and self._within_reach(u, h):
            # the player may have meant a move: name the rule that forbids it
            why = self.q.why_not(u.id, h, self.facing)
            if why is not None:
                other = own[0]
                self.select(other)
                self.say(f"{why} — selected {other} instead.", bad=True)
                return
        if own:
            nxt = own[(own.index(self.selected) + 1) % len(own)] if self.selected in own else own[0]
            self.select(nxt)
            return
        if self._say_owner(h):
            return
        if u is not None:
            why = self.q.why_not(u.id, h, self.facing)
            self.say(str(why) if why else f"{u.id} may move there.", bad=bool(why))
            return
        self.say(f"{self.state.label(h)}: select one of your platoons first.")

    def _say_owner(self, h: Hex) -> bool:
        """A click on another seat's platoon is refused, naming its owner (CA p.7)."""
        mine = self.my_units()
        for uid in self.state.at.get(h, ()):
            if uid in mine:
                continue
            owner = next((s.name for s in self.state.seats.values() if uid in s.units), None)
            if owner is not None and owner != self.seat:
                self.say(
                    f'{uid} belongs to {self.seat_titles.get(owner, owner)} (CA p.7 "Co-operative '
                    'Team Play": each seat commands its own platoons)',
                    bad=True,
                )
                return True
        return False

    def _click_fire(self, h: Hex) -> None:
        s = self.state
        if h in s.enemy:
            self.target = h
            self._fire_preview()
            return
        own = self._own_at(h)
        if not own and self._say_owner(h):
            return
        if not own:
            self.say(
                f"{s.label(h)}: click your fresh platoons to gather firers, then an enemy counter."
            )
            return
        able = [uid for uid in own if may_fire(s.units[uid])]
        if not able:
            why = self._firer_reason(own[0])
            self.say(f"{own[0]} cannot fire: {why}", bad=True)
            return
        added = next((uid for uid in able if uid not in self.group), None)
        if added:
            self.group.append(added)
            self.selected, self.facing = added, None
        else:
            self.group = [g for g in self.group if g not in able]
            if self.selected in able:
                self.selected, self.facing = None, None
        self._fire_preview()

    def _firer_reason(self, uid: str):
        """The engine's reason this platoon cannot fire (it is asked about some enemy hex)."""
        hexes = list(self.state.enemy) or [self.state.units[uid].hex]
        return check(self.state, DeclareFire(self.seat, hexes[0], (uid,)))

    def _fire_preview(self, keep_message: bool = False) -> None:
        s = self.state
        if self.group and self.target is not None:
            odds, why = self.odds()
            if why is not None:
                self.say(why, bad=True)
            elif not keep_message:
                self.say(
                    f"Firers {', '.join(self.group)} on {s.label(self.target)}: "
                    f"{odds.summary()}. Press Commit fire (f)."
                )
            return
        if self.group:
            legal = [h for h, why in self.target_map().items() if why is None]
            if not legal:
                self.say(
                    f"Firers {', '.join(self.group)}: no legal target for this group "
                    "(hover an enemy counter for the rule).",
                    bad=True,
                )
            elif not keep_message:
                names = ", ".join(s.label(h) for h in legal)
                self.say(f"Firers {', '.join(self.group)}. Legal targets: {names}.")
            return
        if self.target is not None:
            self.say(f"Target {s.label(self.target)}: now click your fresh platoons to fire.")
            return
        self.say("Click your fresh platoons to gather firers.")

    # --- fire -------------------------------------------------------------------------------
    def commit_fire(self, keep_open: bool = False) -> bool:
        if self._blocked():
            return False
        if self.state.phase != "friendly_fire":
            self.say("Fire is committed in the fire phase.", bad=True)
            return False
        if self.target is None or not self.group:
            self.say("Gather firers and pick a target first.", bad=True)
            return False
        done = self.act(
            DeclareFire(self.seat, self.target, tuple(self.group), resolve=not keep_open)
        )
        if done:
            self.group, self.target, self.selected = [], None, None
        return done

    def resolve(self) -> bool:
        if self._blocked():
            return False
        return self.act(ResolveFire(self.seat))

    # --- mortars ------------------------------------------------------------------------------
    def set_mode(self, mode: str) -> None:
        self.sync()
        if mode == "mortar":
            why = self.q.mortar_problem()
            if why is not None:
                self.mode = "fire"
                self.say(why, bad=True)
                return
        self.mode = mode
        self.spotter, self.mortar_target = None, None
        self.group, self.target = [], None
        self.say(
            "Mortar mode: click a fresh infantry platoon to spot, then the target hex."
            if mode == "mortar"
            else "Fire mode: gather firers, then click an enemy counter."
        )

    def set_smoke(self, smoke: bool) -> None:
        self.smoke = bool(smoke)
        if self.mortar_target is not None:
            self._mortar_message()

    def _mortar_action(self):
        return CallMortar(self.seat, self.mortar_target, self.spotter, self.smoke)

    def _click_mortar(self, h: Hex) -> None:
        spotters = {u.id for u in friendly_spotters(self.state)} & set(self.my_units())
        here = [uid for uid in self._own_at(h) if uid in spotters]
        if here and (self.spotter is None or h in self.state.at):
            self.spotter = here[0]
            self.mortar_target = None
            self.say(f"Spotter {self.spotter}. Now click the target hex.")
            return
        if self.spotter is None:
            self.say("Click the hex of a fresh infantry platoon to be the spotter first.", bad=True)
            return
        self.mortar_target = h
        self._mortar_message()

    def _mortar_message(self) -> None:
        _, why = self.mortar_preview()
        what = "Smoke" if self.smoke else "Mortars"
        self.say(
            str(why)
            if why
            else f"{what} on {self.state.label(self.mortar_target)}: press Call mortars.",
            bad=bool(why),
        )

    def call_mortar(self) -> bool:
        if self._blocked():
            return False
        if self.spotter is None or self.mortar_target is None:
            self.say("Choose a spotter and a target first.", bad=True)
            return False
        if self.act(self._mortar_action()):
            self.mode, self.spotter, self.mortar_target = "fire", None, None
            return True
        return False

    # --- movement buttons ------------------------------------------------------------------
    def withdraw(self) -> bool:
        return self._verb("withdraw")

    def exploit(self) -> bool:
        return self._verb("exploit")

    def _verb(self, verb: str) -> bool:
        if self._blocked():
            return False
        if self.selected is None:
            self.say("Select one of your platoons first.", bad=True)
            return False
        return self.act(self.q.action_for(self.selected, verb=verb))

    # --- phases and the battle -------------------------------------------------------------
    def end_phase(self) -> bool:
        if self._blocked():
            return False
        return self.act(EndPhase(self.seat))

    def end_game(self, confirmed: bool = False) -> bool:
        """*End the battle* asks first; the second call (``confirmed``) ends it."""
        if self._blocked():
            return False
        why = check(self.state, EndGame(self.seat))
        if why is not None:
            self.say(why, bad=True)
            return False
        if not confirmed:
            self.confirming_end = True
            self.say(
                "End the battle now and count the score? Press Yes, end it to confirm.", bad=True
            )
            return False
        self.confirming_end = False
        return self.act(EndGame(self.seat))

    def cancel_end(self) -> None:
        self.confirming_end = False
        self.say("The battle goes on.")

    def choose(self, action) -> bool:
        """Answer the commander's pending choice with one of its offered actions."""
        self.sync()
        return self.act(action)

    # --- keys ---------------------------------------------------------------------------------
    def key(self, key: str) -> None:
        if key in ("ArrowLeft", "ArrowRight"):
            self.turn(+1 if key == "ArrowLeft" else -1)
        elif key == "Escape":
            self.clear()
        elif key == "e":
            self.end_phase()
        elif key == "f":
            self.commit_fire()
        elif key == "m":
            self.set_mode("mortar")
        elif key == "w":
            self.withdraw()
        elif key == "x":
            self.exploit()
        elif key == "n":
            self.next_unit()


__all__ = [
    "BoardController",
    "LocalGame",
    "Message",
    "ENTRY_FACING",
    "OWN",
    "REFUSAL",
    "ROUTINE",
    "TEAM",
]

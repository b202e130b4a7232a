"""The debrief: how each team fought, in tables, plots and exports.

:class:`Debrief` walks every team's :class:`~.live.LiveGame` once and builds pandas
tables:

* ``teams``: one row per team (score, result, turns, actions, losses, time) with its
  fire record: fires taken, the mean pin odds they were taken at (judgement), expected
  against actual pins and breaks (luck: actual minus expected);
* ``turns``: one row per team and turn (scores at the turn's end, losses track, losses
  and platoons broken *in* that turn, actions, messages and seconds spent);
* ``fires``: every friendly fire: turn, seat, firers, target, the engine's odds of a pin
  and of a break when it was taken, and what came of it;
* ``activity``: per team, turn and seat: actions taken, requests to the commander, and
  whether the seat acted or waited that turn;
* ``seats``: actions and messages per team and seat;
* ``actions``: every accepted action with its seat, unit, target, odds, turn, phase, time;
* ``messages``: every team message.

:meth:`Debrief.at_turn` puts the teams side by side at a chosen turn; the ``plot_*``
methods draw what an instructor would rather look at than read. CSV exports are safe
to open in a spreadsheet: a text cell starting with ``= + - @``, a tab or a carriage
return is written with a leading ``'`` so it is never run as a formula.

Scores come in two forms (see :mod:`.views`): ``score_known`` counts only what the
team could see, ``score_projected`` runs the end-of-game reveal on a copy.
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pandas as pd

from hexclass.classroom.combined_arms.engine import turns_played
from hexclass.classroom.combined_arms.fire import fire_odds
from hexclass.classroom.combined_arms.victory import DEDUCTION_FROM

from .live import LiveGame
from .store import INSTRUCTOR, ClassStore, GameInfo, Message, Request
from .views import known_score, projected_score

TABLES = ("teams", "turns", "fires", "activity", "seats", "actions", "messages", "deployment")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula


@dataclass
class Debrief:
    """Every table of a class's debrief, plus each game's replayable record."""

    class_id: int
    tables: dict[str, pd.DataFrame]
    records: dict[int, dict[str, Any]] = field(default_factory=dict)  # team -> game record
    _start_scores: dict[int, int] = field(default_factory=dict)  # team -> score before play

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.tables[name]

    @classmethod
    def from_store(cls, store: ClassStore, class_id: int) -> Debrief:
        games = store.games(class_id)
        if not games:
            raise KeyError(f"there is no class {class_id} (or it has no games)")
        rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
        records, starts = {}, {}
        for g in games:
            msgs = store.messages(g.id)
            reqs = store.requests(g.id, open_only=False)
            live = store.live_game(g.id)
            _team_rows(g, live, msgs, reqs, rows)
            records[g.team] = live.record()  # the game as a replayable save
            starts[g.team] = known_score(live.at(0)).total
        tables = {name: pd.DataFrame(rows[name], columns=_COLUMNS[name]) for name in TABLES}
        return cls(class_id, tables, records, starts)

    def exported(self):
        """(name, table) for the exports: the deployment only for enemy-player games."""
        for name, df in self.tables.items():
            if name != "deployment" or not df.empty:
                yield name, df

    def export_csv(self, directory: str | pathlib.Path) -> list[pathlib.Path]:
        """Write one CSV per table into ``directory``; returns the paths."""
        out = pathlib.Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, df in self.exported():
            p = out / f"class{self.class_id}-{name}.csv"
            spreadsheet_safe(df).to_csv(p, index=False)
            paths.append(p)
        return paths

    def at_turn(self, turn: int) -> pd.DataFrame:
        """The teams side by side at the end of ``turn`` (a team not there yet: its last turn).

        One column per team, one row per measure.
        """
        turns = self.tables["turns"]
        measures = [c for c in turns.columns if c not in ("team", "game_id")]
        cols = {}
        for team in self.tables["teams"]["team"]:
            upto = turns[(turns["team"] == team) & (turns["turn"] <= turn)]
            # a team with no turn played yet shows an empty column
            row = upto.iloc[-1][measures] if len(upto) else pd.Series(index=measures, dtype=float)
            cols[f"team {team}"] = row
        return pd.DataFrame(cols, index=measures)

    def biggest_swings(self, n: int = 8) -> pd.DataFrame:
        """The ``n`` actions that moved a team's visible score most, largest first.

        The change is in the score the team could see (:func:`~.views.known_score`):
        a reveal, a break, a loss, the final count. One row per action: team, turn,
        seat, action type, what happened (the engine's words) and the change.
        """
        acts = self.tables["actions"]
        cols = ["team", "turn", "seat", "type", "what", "change", "score_known"]
        if acts.empty:
            return pd.DataFrame(columns=cols)
        rows = []
        for team, df in acts.groupby("team", sort=False):
            start = self._start_scores.get(team, 0)
            change = df["score_known"].diff().fillna(df["score_known"] - start)
            rows.append(df.assign(change=change.astype(int)))
        out = pd.concat(rows)
        out = out[out["change"] != 0]
        order = out["change"].abs().sort_values(ascending=False, kind="stable").index
        return out.loc[order, cols].head(n).reset_index(drop=True)

    def plot_luck(self, ax=None):
        """Per team: pins and breaks expected from the odds taken against those obtained."""
        ax = ax or _axes()
        teams = self.tables["teams"]
        if not len(self.tables["fires"]):
            return _say(ax, "no fires yet", "fire: expected from the odds taken vs obtained")
        x = range(len(teams))
        w = 0.2
        bars = (
            ("expected_pins", "pins expected", -1.5, 0.45),
            ("pins", "pins obtained", -0.5, 1.0),
            ("expected_breaks", "breaks expected", 0.5, 0.45),
            ("breaks", "breaks obtained", 1.5, 1.0),
        )
        for col, label, off, alpha in bars:
            ax.bar([i + off * w for i in x], teams[col], w, label=label, alpha=alpha)
        ax.set_xticks(list(x), [f"team {t}" for t in teams["team"]])
        ax.set_title("fire: expected from the odds taken vs obtained", fontsize=10)
        ax.legend(fontsize=8)
        return ax

    def plot_losses(self, ax=None):
        """Losses suffered in each turn, a bar group per turn, a colour per team."""
        ax = ax or _axes()
        turns = self.tables["turns"]
        if not len(turns):
            return _say(ax, "no turn played yet", "losses suffered per turn")
        teams = sorted(turns["team"].unique())
        w = 0.8 / max(1, len(teams))
        for i, team in enumerate(teams):
            df = turns[turns["team"] == team]
            ax.bar(df["turn"] + (i - (len(teams) - 1) / 2) * w, df["losses_in_turn"], w,
                   label=f"team {team}")  # fmt: skip
        ax.set_xlabel("turn")
        ax.set_ylabel("losses")
        ax.set_title("losses suffered per turn", fontsize=10)
        if teams:
            ax.legend(fontsize=8)
        return ax

    def plot_activity(self, team: int, ax=None):
        """Who acted (dark) and who waited (light) in each turn, for one team."""
        ax = ax or _axes()
        act = self.tables["activity"]
        df = act[act["team"] == team].pivot(index="seat", columns="turn", values="actions")
        if df.empty:
            ax.set_title(f"team {team}: no turn played yet", fontsize=10)
            return ax
        ax.imshow(df.fillna(0).to_numpy(), aspect="auto", cmap="Blues")
        ax.set_yticks(range(len(df.index)), list(df.index))
        ax.set_xticks(range(len(df.columns)), [str(c) for c in df.columns])
        ax.set_xlabel("turn")
        ax.set_title(f"team {team}: actions per seat and turn (white: waited)", fontsize=10)
        return ax

    def to_json(self) -> dict[str, Any]:
        """Every table as a list of rows, and every game's record (replayable)."""
        return {
            "class_id": self.class_id,
            "tables": {
                name: json.loads(df.to_json(orient="records")) for name, df in self.exported()
            },
            "games": {str(team): rec for team, rec in self.records.items()},
        }

    def export_json(self, path: str | pathlib.Path) -> pathlib.Path:
        p = pathlib.Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.to_json(), indent=1))
        return p

    def plot(self, metric: str = "score_projected", ax=None):
        """A line per team of a ``turns`` column against the turn; returns the Axes."""
        turns = self.tables["turns"]
        if metric not in turns.columns:
            raise KeyError(f"metric: expected a column of the turns table, one of {list(turns)}")
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(figsize=(6, 3.5))
        if not len(turns):
            return _say(ax, "no turn played yet", metric.replace("_", " "))
        for team, df in turns.groupby("team"):
            ax.plot(df["turn"], df[metric], marker="o", label=f"team {team}")
        ax.set_xlabel("turn")
        ax.set_ylabel(metric.replace("_", " "))
        ax.legend()
        return ax


_COLUMNS = {
    "teams": [
        "team", "game_id", "seed", "status", "turn", "over", "won", "score_known",
        "score_projected", "actions", "messages", "friendly_broken", "enemy_broken",
        "exploited", "seconds", "fires", "mean_pin_odds", "expected_pins", "pins",
        "pin_luck", "expected_breaks", "breaks", "break_luck", "turns_played", "ended_by",
    ],
    "turns": [
        "team", "game_id", "turn", "score_known", "score_projected", "losses", "ammo",
        "friendly_broken", "enemy_broken", "exploited", "actions", "messages", "seconds",
        "losses_in_turn", "broken_in_turn",
    ],
    "fires": [
        "team", "game_id", "version", "turn", "seat", "firers", "target", "adjacent",
        "pin_odds", "break_odds", "pinned", "broken", "resolved_by",
    ],
    "activity": ["team", "game_id", "turn", "seat", "actions", "requests", "acted"],
    "seats": ["team", "game_id", "seat", "actions", "messages", "fires"],
    "actions": [
        "team", "game_id", "version", "seat", "type", "unit", "target", "odds", "turn", "phase",
        "at", "elapsed", "score_known", "what",
    ],
    "messages": ["team", "game_id", "id", "seat", "turn", "text", "at"],
    "deployment": [
        "team", "game_id", "defender", "handicap", "force_roll", "real_platoons", "real_atgs",
        "never_revealed",
    ],
}  # fmt: skip


def _team_rows(
    g: GameInfo,
    live: LiveGame,
    msgs: list[Message],
    reqs: list[Request],
    rows: dict[str, list],
):
    """Walk one game's live replay, appending its rows to every table; returns the final state."""
    log = list(live.log)
    walk = live.walk(len(log))
    _, state = next(walk)
    start = log[0].at if log else g.created
    turn_start, turn_actions = start, 0
    base = {"team": g.team, "game_id": g.id}
    fires: list[dict[str, Any]] = []
    declared: list[dict[str, Any]] = []  # declarations waiting for their fire
    acted: dict[tuple[int, str], int] = {}
    last_losses, last_broken = state.losses, len(state.broken_friendly())
    for step in log:
        before, first_event = state.turn, len(state.events)
        counted = turns_played(state)
        next(walk)
        new_events = state.events[first_event:]
        turn_actions += 1
        acted[(step.turn, step.seat)] = acted.get((step.turn, step.seat), 0) + 1
        step_fires = [
            _fire_row(base, live, step, e, new_events) for e in new_events if e.kind == "fire"
        ]
        fires.extend(step_fires)
        row = _action_row(base, state, step, step_fires, start, new_events)
        if not state.over and turns_played(state) > max(counted, DEDUCTION_FROM):
            late = f"turn {turns_played(state)} now counts: -1 per turn after {DEDUCTION_FROM}"
            row["what"] = "; ".join(filter(None, [row["what"], late]))
        rows["actions"].append(row)
        _fold_declarations(row, step_fires, declared)
        if state.turn != before or state.over:
            row = _turn_row(base, state, before, turn_actions, msgs, step.at - turn_start)
            row["losses_in_turn"] = state.losses - last_losses
            row["broken_in_turn"] = len(state.broken_friendly()) - last_broken
            last_losses, last_broken = state.losses, len(state.broken_friendly())
            rows["turns"].append(row)
            turn_start, turn_actions = step.at, 0
    if turn_actions and not state.over:  # the turn in progress
        end = log[-1].at
        row = _turn_row(base, state, state.turn, turn_actions, msgs, end - turn_start)
        row["losses_in_turn"] = state.losses - last_losses
        row["broken_in_turn"] = len(state.broken_friendly()) - last_broken
        rows["turns"].append(row)
    rows["fires"].extend(fires)
    first_turn, last_turn = (log[0].turn, log[-1].turn) if log else (1, 0)
    for turn in range(first_turn, last_turn + 1):
        for seat in g.layout.names:
            n = acted.get((turn, seat), 0)
            asked = sum(1 for r in reqs if r.turn == turn and r.seat == seat)
            rows["activity"].append(
                {
                    **base,
                    "turn": turn,
                    "seat": seat,
                    "actions": n,
                    "requests": asked,
                    "acted": n > 0,
                }  # fmt: skip
            )
    for seat in g.layout.names:
        rows["seats"].append(
            {
                **base,
                "seat": seat,
                "actions": sum(1 for s in log if s.seat == seat),
                "messages": sum(1 for m in msgs if m.seat == seat),
                "fires": sum(1 for f in fires if seat in f["seat"].split(", ")),
            }
        )
    for m in msgs:
        rows["messages"].append(
            {**base, "id": m.id, "seat": m.seat, "turn": m.turn, "text": m.text, "at": m.at}
        )
    rows["teams"].append(_team_row(base, g, state, log, msgs, start, fires))
    if state.secret is not None and state.over:  # CA p.7: shown once the game is over
        rows["deployment"].append(_deployment_row(base, state))
    return state


def _deployment_row(base, state) -> dict[str, Any]:
    """The enemy player's secret set-up, for the debrief after the game (CA p.7)."""
    label = state.label
    defender = next(s.name for s in state.seats.values() if "defender" in s.powers)
    during_play = {
        e.data.get("target")
        for e in state.events
        if e.kind == "reveal" and "end of the game" not in e.text
    }
    return {
        **base,
        "defender": defender,
        "handicap": state.options.handicap,
        "force_roll": ", ".join(f"{a}-{b}" for a, b in state.forces.rolls),
        "real_platoons": " ".join(sorted(label(h) for h in state.secret.platoons)),
        "real_atgs": " ".join(sorted(label(h) for h in state.secret.atgs)),
        "never_revealed": " ".join(
            sorted(label(h) for h in state.secret.platoons if h not in during_play)
        ),
    }


def _fire_row(base, live: LiveGame, step, event, new_events) -> dict[str, Any]:
    """One friendly fire: the engine's odds when it was taken (CA "Fire Attacks") and its result.

    The odds are the engine's :func:`~hexclass.classroom.combined_arms.fire.fire_odds` on the state
    just before the action that rolled it; a break is possible only when every firer is
    adjacent.
    """
    target, firers = tuple(event.data["target"]), tuple(event.data["firers"])
    before = live.at(step.version - 1)
    odds = fire_odds(before, target, list(firers))
    seats = committed_seats(before, step, firers)
    rolls = [
        e for e in new_events if e.kind == "roll" and e.data.get("purpose") == "friendly fire"
        and tuple(e.data.get("target") or ()) == target
    ]  # fmt: skip
    outcomes = [o for e in rolls for o in e.data.get("outcome", [])]
    return {
        **base,
        "version": step.version,
        "turn": step.turn,
        "seat": ", ".join(seats),
        "firers": ", ".join(firers),
        "target": before.label(target),
        "adjacent": odds.all_adjacent,
        "pin_odds": round(float(odds.pin), 4),
        "break_odds": round(float(odds.break_atg if odds.all_adjacent else Fraction(0)), 4),
        "pinned": any(o == "target pinned" for o in outcomes),
        "broken": any(o.endswith("broken") for o in outcomes),
        "resolved_by": step.seat,
    }


def committed_seats(before, step, firers) -> list[str]:
    """Every seat that committed platoons to a fire, in the order they joined (CA p.7).

    A joint fire is declared by several seats and rolled by whichever resolves it; the
    credit goes to each seat whose platoons fired, not to the one that rolled.
    """
    decl = before.declaration
    seats = list(decl.seats) if decl is not None else []
    if type(step.action).__name__ == "DeclareFire" and step.action.seat not in seats:
        seats.append(step.action.seat)
    owners = [s.name for s in before.seats.values() if s.units & set(firers)]
    return [s for s in seats if s in owners] + [s for s in owners if s not in seats]


NOTABLE = ("reveal", "break", "withdraw", "losses", "score")  # events worth a line


def _fold_declarations(row, step_fires, declared) -> None:
    """A declaration left open for others to join takes the odds of the fire it joined."""
    if row["type"] == "DeclareFire" and not step_fires:
        declared.append(row)
        return
    for fire in step_fires:
        for d in [d for d in declared if d["target"] == fire["target"]]:
            d["odds"] = f"pin {fire['pin_odds']:.0%} (joint fire, rolled at v{fire['version']})"
            declared.remove(d)


def _what(events) -> str:
    """The notable events of one step in words (reveals, breaks, losses, the score)."""
    texts = [e.text.splitlines()[0] for e in events if e.kind in NOTABLE]
    for e in events:
        if e.kind == "roll" and e.data.get("purpose") == "friendly fire":
            texts.append(e.text)
    return "; ".join(texts)


def _action_row(base, state, step, step_fires, start: float, events=()) -> dict[str, Any]:
    """An action with the unit it moved or the firers, the target hex and the odds taken."""
    a = step.action
    unit = (
        getattr(a, "unit", None)
        or ", ".join(getattr(a, "firers", ()) or ())
        or getattr(a, "spotter", None)
    )
    where = getattr(a, "to", None) or getattr(a, "target", None)
    odds = f"pin {step_fires[0]['pin_odds']:.0%}" if step_fires else None
    return {
        **base,
        "version": step.version,
        "seat": step.seat,
        "type": type(a).__name__,
        "unit": unit,
        "target": None if where is None else state.label(tuple(where)),
        "odds": odds,
        "turn": step.turn,
        "phase": step.phase,
        "at": step.at,
        "elapsed": step.at - start,
        "score_known": known_score(state).total,
        "what": _what(events),
    }


def spreadsheet_safe(df: pd.DataFrame) -> pd.DataFrame:
    """A copy whose text cells cannot run as spreadsheet formulas (leading ``'`` added)."""
    out = df.copy()
    for col in out.columns:
        if not pd.api.types.is_numeric_dtype(out[col]):  # object or string columns
            out[col] = out[col].map(_safe_cell).astype(object)
    return out


def _safe_cell(v):
    if isinstance(v, str) and v.startswith(FORMULA_STARTS):
        return "'" + v
    return v


def _say(ax, text: str, title: str):
    """An empty chart says so in words instead of drawing axes around nothing."""
    ax.set_axis_off()
    ax.set_title(title, fontsize=10)
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=12, transform=ax.transAxes)
    return ax


def _axes():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(6, 3.5))
    return ax


def _turn_row(base, state, turn: int, actions: int, msgs, seconds: float) -> dict[str, Any]:
    return {
        **base,
        "turn": turn,
        "score_known": known_score(state).total,
        "score_projected": projected_score(state).total,
        "losses": state.losses,
        "ammo": state.ammo,
        "friendly_broken": len(state.broken_friendly()),
        "enemy_broken": state.enemy_platoons_broken,
        "exploited": len(state.exploited()),
        "actions": actions,
        "messages": sum(1 for m in msgs if m.turn == turn),
        "seconds": round(seconds, 3),
    }


def _team_row(base, g: GameInfo, state, log, msgs, start: float, fires) -> dict[str, Any]:
    expected_pins = sum(f["pin_odds"] for f in fires)
    expected_breaks = sum(f["break_odds"] for f in fires)
    pins = sum(1 for f in fires if f["pinned"])
    breaks = sum(1 for f in fires if f["broken"])
    return {
        **base,
        "seed": g.seed,
        "status": "ended" if state.over else g.effective_status,
        "turn": state.turn,
        "over": state.over,
        "won": None if state.result is None else state.result.won,
        "score_known": known_score(state).total,
        "score_projected": projected_score(state).total,
        "actions": len(log),
        "messages": len(msgs),
        "friendly_broken": len(state.broken_friendly()),
        "enemy_broken": state.enemy_platoons_broken,
        "exploited": len(state.exploited()),
        "seconds": round((log[-1].at - start) if log else 0.0, 3),
        "fires": len(fires),
        "mean_pin_odds": round(expected_pins / len(fires), 4) if fires else None,
        "expected_pins": round(expected_pins, 3),
        "pins": pins,
        "pin_luck": round(pins - expected_pins, 3),
        "expected_breaks": round(expected_breaks, 3),
        "breaks": breaks,
        "break_luck": round(breaks - expected_breaks, 3),
        "turns_played": state.result.turns if state.result is not None else turns_played(state),
        "ended_by": _ended_by(state, log),
    }


def _ended_by(state, log) -> str | None:
    """Who ended an over game: the instructor, the commander, or the clock (turn 20)."""
    if not state.over:
        return None
    if log and log[-1].seat == INSTRUCTOR:
        return "instructor"
    return "commander" if log and type(log[-1].action).__name__ == "EndGame" else "last turn"


__all__ = ["Debrief", "FORMULA_STARTS", "TABLES", "spreadsheet_safe"]

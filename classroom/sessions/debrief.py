"""The debrief: tables comparing the teams of a class, their plots and exports.

:class:`Debrief` replays every team's log once and builds pandas tables:

* ``teams``: one row per team (score, result, turns, actions, losses, time);
* ``turns``: one row per team and turn (scores at the turn's end, losses track,
  platoons broken, actions, messages and seconds spent);
* ``seats``: actions and messages per team and seat;
* ``actions``: every accepted action with its seat, turn, phase and time;
* ``messages``: every team message.

Scores come in two forms (see :mod:`.views`): ``score_known`` counts only what the
team could see, ``score_projected`` runs the end-of-game reveal on a copy.
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from classroom.combined_arms.engine import apply
from classroom.combined_arms.game import record

from .store import ClassStore, GameInfo, LoggedAction, Message, initial_state
from .views import known_score, projected_score

TABLES = ("teams", "turns", "seats", "actions", "messages")


@dataclass
class Debrief:
    """Every table of a class's debrief, plus each game's replayable record."""

    class_id: int
    tables: dict[str, pd.DataFrame]
    records: dict[int, dict[str, Any]] = field(default_factory=dict)  # team -> game record

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self.tables[name]

    @classmethod
    def from_store(cls, store: ClassStore, class_id: int) -> Debrief:
        games = store.games(class_id)
        if not games:
            raise KeyError(f"there is no class {class_id} (or it has no games)")
        rows: dict[str, list[dict[str, Any]]] = {t: [] for t in TABLES}
        records = {}
        for g in games:
            msgs = store.messages(g.id)
            final = _team_rows(g, store.actions(g.id), msgs, rows)
            records[g.team] = record(final)
        tables = {name: pd.DataFrame(rows[name], columns=_COLUMNS[name]) for name in TABLES}
        return cls(class_id, tables, records)

    def export_csv(self, directory: str | pathlib.Path) -> list[pathlib.Path]:
        """Write one CSV per table into ``directory``; returns the paths."""
        out = pathlib.Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        paths = []
        for name, df in self.tables.items():
            p = out / f"class{self.class_id}-{name}.csv"
            df.to_csv(p, index=False)
            paths.append(p)
        return paths

    def to_json(self) -> dict[str, Any]:
        """Every table as a list of rows, and every game's record (replayable)."""
        return {
            "class_id": self.class_id,
            "tables": {
                name: json.loads(df.to_json(orient="records")) for name, df in self.tables.items()
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
        "exploited", "seconds",
    ],
    "turns": [
        "team", "game_id", "turn", "score_known", "score_projected", "losses", "ammo",
        "friendly_broken", "enemy_broken", "exploited", "actions", "messages", "seconds",
    ],
    "seats": ["team", "game_id", "seat", "actions", "messages"],
    "actions": ["team", "game_id", "version", "seat", "type", "turn", "phase", "at", "elapsed"],
    "messages": ["team", "game_id", "id", "seat", "turn", "text", "at"],
}  # fmt: skip


def _team_rows(g: GameInfo, log: list[LoggedAction], msgs: list[Message], rows: dict[str, list]):
    """Replay one game, appending its rows to every table; returns the final state."""
    state = initial_state(g)
    start = log[0].at if log else g.created
    turn_start, turn_actions = start, 0
    base = {"team": g.team, "game_id": g.id}
    for step in log:
        before = state.turn
        apply(state, step.action)
        turn_actions += 1
        rows["actions"].append(
            {
                **base,
                "version": step.version,
                "seat": step.seat,
                "type": type(step.action).__name__,
                "turn": step.turn,
                "phase": step.phase,
                "at": step.at,
                "elapsed": step.at - start,
            }
        )
        if state.turn != before or state.over:
            rows["turns"].append(
                _turn_row(base, state, before, turn_actions, msgs, step.at - turn_start)
            )
            turn_start, turn_actions = step.at, 0
    if turn_actions and not state.over:  # the turn in progress
        end = log[-1].at
        rows["turns"].append(
            _turn_row(base, state, state.turn, turn_actions, msgs, end - turn_start)
        )
    for seat in g.layout.names:
        rows["seats"].append(
            {
                **base,
                "seat": seat,
                "actions": sum(1 for s in log if s.seat == seat),
                "messages": sum(1 for m in msgs if m.seat == seat),
            }
        )
    for m in msgs:
        rows["messages"].append(
            {**base, "id": m.id, "seat": m.seat, "turn": m.turn, "text": m.text, "at": m.at}
        )
    rows["teams"].append(_team_row(base, g, state, log, msgs, start))
    return state


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


def _team_row(base, g: GameInfo, state, log, msgs, start: float) -> dict[str, Any]:
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
    }


__all__ = ["Debrief", "TABLES"]

"""The instructor console's Debrief tab, made to be projected (1920x1080 down to 1366x768).

What it shows, per team and side by side, in words and in charts that always have data:

* **Results**: the final score and verdict (CA "Victory": 20 or more wins) or, for a
  game still going, where it stands; turns played, platoons broken, who ended it, the
  clock times it was played between; its fire record in words (judgement: the odds it
  chose; luck: what came of them against what the odds promised);
* **Score over turns** (a line per team) and **fire: the odds against what happened**
  (only when a fire was taken; otherwise it says "no fires yet");
* **Who acted and who waited**, a grid of seats by turns per team;
* **The biggest swings** in the score the team could see, with the engine's words;
* **Fires taken**, each with every seat that committed, its odds as percentages and
  what came of it;
* **The teams side by side** at a chosen turn.

Raw tables (column names, Unix times, odds as fractions) go only to the CSV and JSON
exports, which are unchanged (:class:`~hexclass.classroom.sessions.debrief.Debrief`).
"""

from __future__ import annotations

import base64
import datetime as dt
import html
import io
import math
import pathlib
import tempfile

import ipywidgets as W

from .coop_notices import data_link, guarded, notice_html

esc = html.escape

DEBRIEF_STYLE = """
<style>
.hx-debrief {font-family:sans-serif; font-size:15px; line-height:1.35; color:#222;
  max-width:100%; box-sizing:border-box}
.hx-debrief h3 {font-size:19px; margin:14px 0 6px 0}
.hx-debrief table {border-collapse:collapse; max-width:100%; margin-bottom:6px}
.hx-debrief th {background:#f0ede4; text-align:left; padding:5px 8px; border-bottom:2px solid #bbb;
  vertical-align:bottom; font-weight:bold}
.hx-debrief td {padding:5px 8px; border-bottom:1px solid #ddd; vertical-align:top;
  overflow-wrap:anywhere}
.hx-debrief td.num, .hx-debrief th.num {text-align:right; white-space:nowrap}
.hx-debrief td.who {white-space:nowrap}
.hx-db-results {width:100%}
.hx-db-win {color:#1b5e20; font-weight:bold; font-size:17px}
.hx-db-loss {color:#b71c1c; font-weight:bold; font-size:17px}
.hx-db-going {color:#b26a00; font-weight:bold}
.hx-db-charts {display:flex; flex-wrap:wrap; gap:12px}
.hx-db-chart {flex:1 1 520px; max-width:860px; min-width:0}
.hx-db-chart img {width:100%; height:auto; display:block; border:1px solid #ddd}
.hx-db-none {border:1px dashed #bbb; padding:18px; color:#555; font-size:17px;
  text-align:center}
.hx-db-grids {display:flex; flex-wrap:wrap; gap:18px}
.hx-db-grid {max-width:100%; overflow-x:auto}
.hx-db-grid td.cell {text-align:center; min-width:22px; padding:3px 4px}
.hx-db-grid td.acted {background:#1f77b4; color:#fff; font-weight:bold}
.hx-db-grid td.waited {background:#f3f3f3; color:#999}
.hx-db-scroll {max-height:340px; overflow-y:auto; max-width:100%}
.hx-db-side {overflow-x:auto; max-width:100%}
.hx-db-note {color:#555; font-size:13px}
</style>
"""

MEASURES = {
    "turn": "Turn reached",
    "score_known": "Score the team sees",
    "score_projected": "Score if ended now (instructor only)",
    "losses": "Losses track",
    "ammo": "Infantry ammo track",
    "friendly_broken": "Our platoons broken",
    "enemy_broken": "Enemy platoons broken",
    "exploited": "Our platoons exploiting",
    "actions": "Actions in the turn",
    "messages": "Messages in the turn",
    "seconds": "Time taken by the turn",
    "losses_in_turn": "Losses in the turn",
    "broken_in_turn": "Our platoons broken in the turn",
}
ENDED_BY = {
    "instructor": "ended by the instructor",
    "commander": "ended by the commander",
    "last turn": "played to the last turn",
}


# --- words -------------------------------------------------------------------------------------


def pct(p) -> str:
    """Odds as a percentage ("–" when there are none)."""
    return "–" if p is None or (isinstance(p, float) and math.isnan(p)) else f"{p:.0%}"


def clock(t) -> str:
    """A Unix time as the local clock time (HH:MM)."""
    return dt.datetime.fromtimestamp(float(t)).strftime("%H:%M")


def duration(seconds) -> str:
    """Seconds as "m:ss" (or "h:mm:ss")."""
    if seconds is None or (isinstance(seconds, float) and math.isnan(seconds)):
        return "–"
    s = int(round(float(seconds)))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def verdict_html(team) -> str:
    """The result as every page words it: "Victory: 22 points" / "Defeat: 6 points"."""
    if bool(team["over"]) and team["won"] is not None and not _nan(team["won"]):
        cls, word = ("hx-db-win", "Victory") if team["won"] else ("hx-db-loss", "Defeat")
        return f"<span class='{cls}'>{word}: {int(team['score_known'])} points</span>"
    return (
        f"<span class='hx-db-going'>{esc(str(team['status']))}</span> at turn {int(team['turn'])}"
        f"<br>the team sees {int(team['score_known'])}; if ended now "
        f"{int(team['score_projected'])}"
    )


def judgement_words(odds: float) -> str:
    """Odds to pin in words: good (60% or more), fair (40% or more) or long."""
    if odds >= 0.6:
        return "good odds"
    return "fair odds" if odds >= 0.4 else "long odds"


def luck_words(got: float, expected: float) -> str:
    diff = got - expected
    if diff > 0.75:
        return "luckier than the odds promised"
    if diff < -0.75:
        return "unluckier than the odds promised"
    return "about what the odds promised"


def fire_record_words(team) -> str:
    """A team's fire record in one sentence: judgement (odds chosen) and luck."""
    n = int(team["fires"])
    if n == 0:
        return "no fires yet"
    mean = float(team["mean_pin_odds"])
    text = (
        f"{n} fire{'s' if n != 1 else ''} at {pct(mean)} to pin on average "
        f"({judgement_words(mean)}); {int(team['pins'])} pinned where "
        f"{float(team['expected_pins']):.1f} were expected: "
        f"{luck_words(team['pins'], team['expected_pins'])}"
    )
    if float(team["expected_breaks"]) > 0 or int(team["breaks"]):
        text += (
            f"; {int(team['breaks'])} broken where {float(team['expected_breaks']):.1f} "
            "were expected"
        )
    return text + "."


def shot_words(pin_odds: float, pinned: bool) -> str:
    """One fire: the odds it was taken at against what came of it."""
    if pin_odds == 0:
        return "no chance to pin"
    odds = judgement_words(pin_odds)
    if pinned:
        return f"{odds}, and it worked" + (": lucky" if odds == "long odds" else "")
    return f"{odds}, but it failed: unlucky" if odds == "good odds" else f"{odds}; it failed"


def _nan(v) -> bool:
    return isinstance(v, float) and math.isnan(v)


# --- the sections --------------------------------------------------------------------------------


def results_html(d) -> str:
    """One row per team: the verdict, how far it got, its fire record in words, when."""
    acts = d["actions"]
    rows = []
    for _, t in d["teams"].iterrows():
        mine = acts[acts["team"] == t["team"]]
        when = "not started"
        if len(mine):
            first, last = mine["at"].min(), mine["at"].max()
            when = f"{clock(first)}–{clock(last)} ({duration(last - first)})"
        how = ENDED_BY.get(t["ended_by"], "") if isinstance(t["ended_by"], str) else ""
        rows.append(
            f"<tr data-team='{int(t['team'])}'><td class='num'><b>{int(t['team'])}</b></td>"
            f"<td class='hx-db-verdict'>{verdict_html(t)}"
            f"{f'<br><small>{esc(how)}</small>' if how else ''}</td>"
            f"<td class='num'>{int(t['turns_played'])}</td>"
            f"<td>ours {int(t['friendly_broken'])}, enemy {int(t['enemy_broken'])}; "
            f"{int(t['exploited'])} exploiting</td>"
            f"<td>{esc(fire_record_words(t))}</td><td>{esc(when)}</td></tr>"
        )
    head = (
        "<tr><th class='num'>Team</th><th>Result</th><th class='num'>Turns played</th>"
        "<th>Platoons broken</th><th>Fire: judgement and luck</th><th>Played</th></tr>"
    )
    return (
        "<h3>Results</h3><table class='hx-db-results' data-table='results'>"
        f"{head}{''.join(rows)}</table><div class='hx-db-note'>20 points or more wins "
        '(CA "Victory"). Judgement: the odds a team chose to fire at; luck: what came of '
        "them against what those odds promised.</div>"
    )


def png_img(fig, alt: str, name: str) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    b64 = base64.b64encode(buf.getvalue()).decode()
    return (
        f"<div class='hx-db-chart' data-chart='{esc(name)}'><img alt='{esc(alt)}' "
        f"src='data:image/png;base64,{b64}'></div>"
    )


def none_box(text: str, name: str) -> str:
    return f"<div class='hx-db-chart hx-db-none' data-chart='{esc(name)}'>{esc(text)}</div>"


def score_chart(d) -> str:
    """The score over turns, a line per team (solid: if ended then; dashed: the team saw)."""
    turns = d["turns"]
    if not len(turns):
        return none_box("Score over turns: no turn played yet", "score")
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(7.2, 3.8), layout="constrained")
    ax = fig.subplots()
    for i, (team, df) in enumerate(turns.groupby("team")):
        c = f"C{i % 10}"
        ax.plot(df["turn"], df["score_projected"], "o-", color=c, lw=2, label=f"team {team}")
        ax.plot(df["turn"], df["score_known"], "x--", color=c, alpha=0.6)
    ax.axhline(20, color="#777", lw=1, ls=":")
    low = min(0, int(turns[["score_known", "score_projected"]].min().min()))
    high = max(22, int(turns[["score_known", "score_projected"]].max().max()) + 2)
    ax.set_ylim(low - 1, high)
    lo, hi = int(turns["turn"].min()), int(turns["turn"].max())
    pad = 1 if lo == hi else 0.5
    ax.set_xlim(lo - pad, hi + pad)
    ax.text(hi + pad, 20.4, "20 or more wins ", ha="right", va="bottom", color="#555", fontsize=10)
    if hi - lo <= 20:
        ax.set_xticks(range(lo - (lo == hi), hi + 1 + (lo == hi)))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Score at the end of each turn", fontsize=13)
    ax.set_xlabel("turn", fontsize=12)
    ax.set_ylabel("points", fontsize=12)
    ax.tick_params(labelsize=11)
    ax.plot([], [], "k-", label="if ended then (instructor)")
    ax.plot([], [], "kx--", alpha=0.6, label="what the team saw")
    fig.legend(fontsize=10, ncols=3, loc="outside lower center")
    return png_img(fig, "score at the end of each turn, a line per team", "score")


def luck_chart(d) -> str:
    """Per team: pins and breaks the odds promised against those obtained."""
    teams, fires = d["teams"], d["fires"]
    if not len(fires):
        return none_box("Fire, odds against what happened: no fires yet", "luck")
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(7.2, 3.8), layout="constrained")
    ax = fig.subplots()
    x = range(len(teams))
    w = 0.2
    bars = (
        ("expected_pins", "pins the odds promised", -1.5, "#9ecae1"),
        ("pins", "pins obtained", -0.5, "#08519c"),
        ("expected_breaks", "breaks the odds promised", 0.5, "#fdae6b"),
        ("breaks", "breaks obtained", 1.5, "#a63603"),
    )
    for col, label, off, colour in bars:
        ax.bar([i + off * w for i in x], teams[col].astype(float), w, label=label, color=colour)
    ax.set_xticks(list(x), [f"team {t}" for t in teams["team"]], fontsize=11)
    top = float(teams[[b[0] for b in bars]].astype(float).max().max())
    ax.set_ylim(0, max(1.0, top * 1.15))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Fire: what the odds promised against what happened", fontsize=13)
    ax.set_ylabel("fires", fontsize=12)
    ax.tick_params(labelsize=11)
    fig.legend(fontsize=10, ncols=2, loc="outside lower center")
    return png_img(fig, "pins and breaks expected from the odds against those obtained", "luck")


def activity_html(d) -> str:
    """Per team a grid of seats by turns: the number of actions, or "–" for a seat that waited."""
    act = d["activity"]
    if not len(act):
        return "<h3>Who acted and who waited</h3>" + none_box("no turn played yet", "activity")
    grids = []
    for team, df in act.groupby("team"):
        turns = sorted(df["turn"].unique())
        head = "".join(f"<th class='num'>{t}</th>" for t in turns)
        counts = {(r.seat, r.turn): int(r.actions) for r in df.itertuples()}
        rows = []
        for seat in dict.fromkeys(df["seat"]):
            cells = []
            for t in turns:
                n = counts.get((seat, t), 0)
                cls = "acted" if n else "waited"
                cells.append(f"<td class='cell {cls}'>{n if n else '–'}</td>")
            rows.append(f"<tr><th>{esc(seat)}</th>{''.join(cells)}</tr>")
        grids.append(
            f"<div class='hx-db-grid'><b>Team {team}</b><table data-table='activity-{team}'>"
            f"<tr><th>seat \\ turn</th>{head}</tr>{''.join(rows)}</table></div>"
        )
    return (
        "<h3>Who acted and who waited</h3><div class='hx-db-note'>actions each seat took in "
        "each turn; – : the seat waited</div>"
        f"<div class='hx-db-grids'>{''.join(grids)}</div>"
    )


def swings_html(d, n: int = 8) -> str:
    swings = d.biggest_swings(n)
    if not len(swings):
        return "<h3>The biggest swings</h3>" + none_box("the score has not moved yet", "swings")
    rows = "".join(
        f"<tr><td class='num'>{int(r['team'])}</td><td class='num'>{int(r['turn'])}</td>"
        f"<td class='who'>{esc(who(r))}</td><td>{esc(short(r['what'] or r['type']))}</td>"
        f"<td class='num'><b>{int(r['change']):+d}</b></td>"
        f"<td class='num'>{int(r['score_known'])}</td></tr>"
        for _, r in swings.iterrows()
    )
    return (
        "<h3>The biggest swings</h3><table data-table='swings'><tr><th class='num'>Team</th>"
        "<th class='num'>Turn</th><th>Who</th><th>What happened</th>"
        "<th class='num'>Change</th><th class='num'>Score after</th></tr>"
        f"{rows}</table><div class='hx-db-note'>changes in the score the team could see</div>"
    )


def who(row) -> str:
    """Whose action it was; what follows a commander's end of phase is the engine's."""
    if row["type"] == "EndPhase":
        return f"{row['seat']}: end of phase"
    if row["type"] == "EndGameNow":
        return "the instructor's end"
    return str(row["seat"])


def short(text, limit: int = 180) -> str:
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fires_html(d) -> str:
    fires = d["fires"]
    if not len(fires):
        return "<h3>Fires taken</h3>" + none_box("no fires yet", "fires")
    rows = []
    for _, f in fires.iterrows():
        result = "broken" if f["broken"] else ("pinned" if f["pinned"] else "no effect")
        rows.append(
            f"<tr><td class='num'>{int(f['team'])}</td><td class='num'>{int(f['turn'])}</td>"
            f"<td>{esc(f['seat'])}</td><td>{esc(f['firers'])} → {esc(f['target'])}</td>"
            f"<td class='num'>{pct(f['pin_odds'])}</td>"
            f"<td class='num'>{pct(f['break_odds']) if f['adjacent'] else '–'}</td>"
            f"<td>{result}</td><td>{esc(shot_words(float(f['pin_odds']), bool(f['pinned'])))}"
            "</td></tr>"
        )
    return (
        "<h3>Fires taken</h3><div class='hx-db-scroll'><table data-table='fires'><tr>"
        "<th class='num'>Team</th><th class='num'>Turn</th><th>Seats that fired</th>"
        "<th>Platoons → target</th><th class='num'>Chance to pin</th>"
        "<th class='num'>Chance to break</th><th>Result</th><th>Odds against result</th></tr>"
        f"{''.join(rows)}</table></div><div class='hx-db-note'>a joint fire is credited to "
        "every seat that committed platoons; a break is possible only when every firer is "
        "adjacent</div>"
    )


def deployment_html(d) -> str:
    """The enemy player's secret set-up, once the game is over (CA p.7); else nothing."""
    dep = d["deployment"]
    if not len(dep):
        return ""
    rows = "".join(
        f"<tr><td class='num'>{int(r['team'])}</td><td>{esc(str(r['defender']))}</td>"
        f"<td class='num'>{int(r['handicap'])}</td><td>{esc(str(r['force_roll']))}</td>"
        f"<td>{esc(str(r['real_platoons']))}</td><td>{esc(str(r['real_atgs'])) or '–'}</td>"
        f"<td>{esc(str(r['never_revealed'])) or '–'}</td></tr>"
        for _, r in dep.iterrows()
    )
    return (
        "<h3>The enemy player's deployment</h3><table data-table='deployment'><tr>"
        "<th class='num'>Team</th><th>Defender</th><th class='num'>Handicap</th>"
        "<th>Force dice</th><th>Real platoons</th><th>Real ATGs</th>"
        f"<th>Never revealed in play</th></tr>{rows}</table>"
    )


def side_by_side_html(d, turn: int) -> str:
    """The teams in columns at the end of ``turn``, measures named in words."""
    side = d.at_turn(turn)
    heads = "".join(f"<th class='num'>{esc(str(c)).capitalize()}</th>" for c in side.columns)
    rows = []
    for measure, values in side.iterrows():
        cells = "".join(
            f"<td class='num'>{esc(measure_value(measure, v))}</td>" for v in values.tolist()
        )
        rows.append(f"<tr><th>{esc(MEASURES.get(measure, measure))}</th>{cells}</tr>")
    return (
        f"<div class='hx-db-side'><table data-table='side'><tr><th>At the end of turn "
        f"{turn}</th>{heads}</tr>{''.join(rows)}</table></div>"
    )


def measure_value(measure: str, v) -> str:
    if v is None or _nan(v):
        return "–"
    if measure == "seconds":
        return duration(v)
    return str(int(v)) if float(v).is_integer() else f"{float(v):.1f}"


def debrief_html(d) -> str:
    """Everything above the side-by-side picker, as one block of HTML."""
    return (
        f"{DEBRIEF_STYLE}<div class='hx-debrief hx-debrief-built'>{results_html(d)}"
        "<h3>Score and fire</h3><div class='hx-db-charts'>"
        f"{score_chart(d)}{luck_chart(d)}</div>{activity_html(d)}{swings_html(d)}"
        f"{fires_html(d)}{deployment_html(d)}</div>"
    )


# --- the panel ---------------------------------------------------------------------------------


class DebriefPanel:
    """The Debrief tab: a projected summary of every team; CSV and JSON exports."""

    def __init__(self, console) -> None:
        self.console = console
        self.debrief = None
        self.notice = W.HTML()
        self.body = W.HTML()
        self.downloads = W.HTML()
        self.turn_pick = W.BoundedIntText(
            value=1,
            min=1,
            max=99,
            description="At the end of turn",
            style={"description_width": "initial"},
            layout=W.Layout(width="240px"),
        )
        self.turn_pick.observe(lambda ch: guarded(self.notice, self.show_side_by_side)(), "value")
        self.side_by_side = W.HTML()
        buttons = []
        for text, fn in (
            ("Build the debrief", self.build),
            ("Export CSV", self.export_csv),
            ("Export JSON", self.export_json),
        ):
            b = W.Button(description=text, layout=W.Layout(width="auto"))
            b.on_click(guarded(self.notice, fn))
            buttons.append(b)
        self.side_box = W.VBox(
            [W.HTML(DEBRIEF_STYLE + "<div class='hx-debrief'><h3>Teams side by side</h3></div>"),
             self.turn_pick, self.side_by_side],
            layout=W.Layout(display="none"),
        )  # fmt: skip
        self.widget = W.VBox(
            [W.HBox(buttons), self.notice, self.downloads, self.body, self.side_box],
            layout=W.Layout(max_width="100%"),
        )
        self.widget.add_class("hexclass-debrief")

    def build(self) -> None:
        """Replay every team's log into the debrief; draw the summary and the charts."""
        self.debrief = d = self.console.debrief()
        self.body.value = debrief_html(d)
        turns = d["turns"]["turn"]
        if len(turns):
            self.turn_pick.min, self.turn_pick.max = int(turns.min()), int(turns.max())
            self.turn_pick.value = int(turns.max())
            self.side_box.layout.display = ""
        else:
            self.side_box.layout.display = "none"
        self.show_side_by_side()
        self.notice.value = notice_html(
            f"Debrief built at {dt.datetime.now():%H:%M:%S} from {len(d['actions'])} actions. "
            "The exports hold every table in full."
        )

    def show_side_by_side(self) -> None:
        if self.debrief is None or not len(self.debrief["turns"]):
            self.side_by_side.value = ""
            return
        self.side_by_side.value = DEBRIEF_STYLE + (
            f"<div class='hx-debrief'>{side_by_side_html(self.debrief, self.turn_pick.value)}</div>"
        )

    def export_dir(self) -> pathlib.Path:
        """Where exports are written: beside the store file (a temporary folder if none)."""
        path = getattr(self.console.store, "path", None)
        if path is None:
            return pathlib.Path(tempfile.mkdtemp(prefix="hexclass-debrief-"))
        return pathlib.Path(path).parent / f"class{self.console.class_id}-debrief"

    def _ensure(self) -> None:
        if self.debrief is None:
            self.build()

    def export_csv(self) -> list[pathlib.Path]:
        self._ensure()
        folder = self.export_dir()
        paths = self.debrief.export_csv(folder)
        links = " · ".join(data_link(p.name, p.read_bytes(), "text/csv") for p in paths)
        self._show_downloads("CSV", links, folder)
        return paths

    def export_json(self) -> pathlib.Path:
        self._ensure()
        folder = self.export_dir()
        path = self.debrief.export_json(folder / f"class{self.console.class_id}-debrief.json")
        self._show_downloads(
            "JSON", data_link(path.name, path.read_bytes(), "application/json"), folder
        )
        return path

    def _show_downloads(self, kind: str, links: str, folder) -> None:
        self.downloads.value = (
            f"<div class='hx-panel hx-downloads'><b>{kind}</b>: {links}<br><small>also "
            f"written to {esc(str(folder))}</small></div>"
        )


__all__ = ["DebriefPanel", "debrief_html", "fire_record_words", "shot_words"]

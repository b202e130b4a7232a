"""HTML pieces of the Combined Arms page: phase bar, tracks, odds, log and score.

Each function turns engine data into a small HTML string; none changes any state.
"""

from __future__ import annotations

import html

from hexclass.classroom.combined_arms.sequence import SEQUENCE
from hexclass.classroom.combined_arms.state import LAST_TURN, SMOKE_ROUNDS, TRACK_SIZE

STYLE = """
<style>
.hx-bar {display:flex; gap:4px; align-items:center; flex-wrap:wrap; font-family:sans-serif}
.hx-pill {padding:3px 9px; border-radius:11px; background:#e8e4d8; color:#555; font-size:13px}
.hx-pill.now {background:#0072b2; color:white; font-weight:bold}
.hx-panel {font-family:sans-serif; font-size:13px; line-height:1.35}
.hx-panel table {border-collapse:collapse; font-size:12px}
.hx-panel td, .hx-panel th {border-bottom:1px solid #ddd; padding:2px 6px; text-align:left}
.hx-msg-bad {color:#b00020; font-weight:bold}
.hx-msg-ok {color:#1b5e20}
.hx-log {max-height:320px; overflow:auto}
.hx-team-line {color:#444; font-weight:normal; font-size:12px; border-top:1px dotted #ccc; margin-top:2px}
.hx-summary {border-left:4px solid #d55e00; padding:2px 6px; margin-bottom:4px; background:#fff6ee}
.hx-kbd {font-family:monospace; background:#eee; border:1px solid #ccc; border-radius:3px; padding:0 4px}
.hexclass-ca-app .hx-bar .hx-pill {padding:2px 7px; font-size:12px}
.hx-caption {font-family:sans-serif; font-size:12px; color:#444; margin:2px 0; display:-webkit-box; -webkit-line-clamp:1; -webkit-box-orient:vertical; overflow:hidden}
.hx-score-now {font-family:sans-serif; font-size:13px; margin-left:8px}
.hx-tray {font-family:sans-serif; font-size:11px; text-align:center}
.hx-enemy li {margin-bottom:4px}
.hx-enemy .hx-why {color:#444}
.hx-legend table td {vertical-align:middle}
/* narrow screens: the off-board tray goes under the board, so the board stays at the top
   (ipycanvas focuses the canvas on a click; a canvas partly off-screen would scroll first) */
@media (max-width: 900px) {
  .hexclass-ca-app .hx-tray.widget-vbox {order: 2; flex-direction: row !important;
    flex-wrap: wrap; width: 100% !important; min-width: 0 !important}
  .hexclass-ca-app .hx-side {order: 3}
}
.hexclass-ca-app .widget-tab-contents, .hexclass-ca-app .lm-TabPanel-stackedPanel {max-height:300px; overflow:auto}
.hx-hidden {display:none !important}
</style>
"""


def esc(text) -> str:
    return html.escape(str(text))


def deciding(pending) -> str:
    """Who the engine waits on: the defender (CA p.7 variant) or the attacking commander."""
    return "the defender" if pending.power == "defender" else "the commander's choice"


def lines(text) -> str:
    """Escaped text whose line breaks (a joint fire's one line per firer) are kept."""
    return "<br>".join(esc(t) for t in str(text).split("\n"))


def phase_bar(state, seat_label: str = "", style: bool = True) -> str:
    """The turn and the sequence of play, the current phase lit; ``style=False`` leaves
    out the page's stylesheet (a page that sends it once by itself)."""
    pills = []
    for p in SEQUENCE:
        now = " now" if p.name == state.phase else ""
        pills.append(f'<span class="hx-pill{now}">{esc(p.title)}</span>')
    turn = (
        f"Game over after turn {state.result.turns}"
        if state.over
        else f"Turn {state.turn} of {LAST_TURN}"
    )
    who = f" &nbsp; <b>{esc(seat_label)}</b>" if seat_label else ""
    wait = ""
    if state.pending is not None:
        wait = f' <span class="hx-msg-bad">waiting for {esc(deciding(state.pending))}</span>'
    elif state.declaration is not None:
        wait = f' <span class="hx-msg-bad">fire committed on {esc(state.label(state.declaration.target))}, not yet rolled</span>'
    return f'{STYLE if style else ""}<div class="hx-bar"><b style="font-size:15px">{turn}</b>{"".join(pills)}{who}{wait}</div>'


def circular_track_svg(losses: int, ammo: int, size: int = 150) -> str:
    """The rulebook's 0-7 circular track with the losses (L) and ammo (A) markers."""
    import math

    cx = cy = size / 2
    r = size * 0.36
    parts = [
        f'<svg width="{size}" height="{size}" viewBox="0 0 {size} {size}" role="img" '
        f'aria-label="losses {losses}, ammo {ammo}">'
    ]
    for i in range(TRACK_SIZE):
        ang = math.radians(90 - 360 * i / TRACK_SIZE)
        x, y = cx + r * math.cos(ang), cy - r * math.sin(ang)
        parts.append(
            f'<rect x="{x - 11}" y="{y - 11}" width="22" height="22" fill="#f4f1e6" stroke="#888"/>'
        )
        parts.append(
            f'<text x="{x}" y="{y + 4}" font-size="11" text-anchor="middle" fill="#777">{i}</text>'
        )
        if i == losses:
            parts.append(
                f'<circle cx="{x - 7}" cy="{y - 7}" r="7" fill="#d55e00"/>'
                f'<text x="{x - 7}" y="{y - 4}" font-size="9" text-anchor="middle" fill="white">L</text>'
            )
        if i == ammo:
            parts.append(
                f'<circle cx="{x + 7}" cy="{y + 7}" r="7" fill="#0072b2"/>'
                f'<text x="{x + 7}" y="{y + 10}" font-size="9" text-anchor="middle" fill="white">A</text>'
            )
    parts.append(
        f'<text x="{cx}" y="{cy - 2}" font-size="10" text-anchor="middle" fill="#444">L losses</text>'
    )
    parts.append(
        f'<text x="{cx}" y="{cy + 10}" font-size="10" text-anchor="middle" fill="#444">A ammo</text>'
    )
    parts.append("</svg>")
    return "".join(parts)


def tracks(state) -> str:
    smoke = "".join(
        f'<span class="hx-pill{" now" if i < state.smoke_ammo else ""}" title="smoke round">S</span>'
        for i in range(SMOKE_ROUNDS)
    )
    em = state.enemy_mortar
    if em is not None and em.turn == state.turn:
        mortar = f"fired on {esc(state.label(em.hex))} this turn (cannot fire next turn)"
    elif em is not None:
        mortar = f"fired last turn on {esc(state.label(em.hex))}: not available this turn"
    else:
        mortar = "may fire this turn (on 5-6, or 6 once you have lost more platoons)"
    fm = state.friendly_mortar
    yours = (
        "no target"
        if fm is None
        else f"{'smoke' if fm.smoke else 'HE'} target {esc(state.label(fm.hex))} (turn {fm.turn})"
    )
    broken = ", ".join(state.broken_friendly()) or "none"
    gone = ", ".join(state.withdrawn()) or "none"
    out = ", ".join(state.exploited()) or "none"
    return (
        f'<div class="hx-panel" style="display:flex;gap:14px;align-items:center">'
        f"{circular_track_svg(state.losses, state.ammo)}"
        f"<div><b>Infantry losses</b> {state.losses} &nbsp; <b>ammo fired</b> {state.ammo} (circular 0-7)<br>"
        f"<b>Smoke ammo</b> {smoke} ({state.smoke_ammo} left)<br>"
        f"<b>Your mortars</b>: {yours}<br><b>Enemy mortars</b>: {mortar}<br>"
        f"<b>Broken</b>: {esc(broken)}; <b>withdrawn</b>: {esc(gone)}; <b>exploited</b>: {esc(out)}<br>"
        f"<b>Enemy broken</b>: {state.enemy_platoons_broken} platoons, {state.atgs_broken} ATG counters</div></div>"
    )


def modifiers_html(mods) -> str:
    if not mods:
        return "no modifiers"
    return "; ".join(f"{m.value:+d} {esc(m.reason)} <small>({esc(m.rule)})</small>" for m in mods)


def fire_odds_html(state, odds) -> str:
    rows = []
    for a in odds.attacks:
        need = 2 - a.total
        rows.append(
            f"<tr><td><b>{esc(a.unit)}</b></td><td>{a.pin_chances} in 6 to pin"
            + (f", {a.break_chances} in 6 to break" if odds.all_adjacent else "")
            + f" (die {max(1, need)}+)</td><td>{modifiers_html(a.modifiers)}</td></tr>"
        )
    head = f"<b>Fire on {esc(state.label(odds.target))}</b>: pin <b>{_pct(odds.pin)}</b>"
    if odds.all_adjacent:
        head += f", break ATGs <b>{_pct(odds.break_atg)}</b>, break the platoon <b>{_pct(odds.break_platoon)}</b>"
    else:
        head += " (no break: not every firer is adjacent)"
    ammo = ""
    if odds.ammo_withdrawal:
        ammo = f'<div class="hx-msg-bad">{esc(odds.ammo_withdrawal)}\'s shot takes the ammo track past 7: it withdraws</div>'
    return f'<div class="hx-panel">{head}<table>{"".join(rows)}</table>{ammo}</div>'


def _pct(p) -> str:
    return f"{float(p):.0%} ({p.numerator}/{p.denominator})" if p else "0%"


def mortar_odds_html(state, odds, smoke: bool) -> str:
    items = sorted(odds.landing.items(), key=lambda kv: -kv[1])
    land = ", ".join(f"{esc(state.label(h))} {_pct(p)}" for h, p in items)
    if smoke:
        return (
            f'<div class="hx-panel"><b>Smoke</b> lands on the target and 2 neighbours: {land}</div>'
        )
    eff = (
        ", ".join(f"{esc(state.label(h))} {_pct(p)}" for h, p in odds.effect.items())
        or "nothing occupied"
    )
    return (
        f'<div class="hx-panel"><b>Mortars</b> (CA "Mortars"): landing chance {land}<br>'
        f"chance each occupied hex is pinned: {eff}</div>"
    )


def event_rows(state) -> list[dict]:
    """The event log as rows (turn, phase, kind, text), oldest first."""
    return [
        {"turn": e.turn, "phase": e.phase, "kind": e.kind, "text": e.text} for e in state.events
    ]


def log_html(rows: list[dict], limit: int = 250) -> str:
    """Newest first; plain HTML so the page does not need pandas to show it."""
    body = "".join(
        f"<tr><td>{r['turn']}</td><td>{esc(r['phase'])}</td><td>{esc(r['kind'])}</td><td>{esc(r['text'])}</td></tr>"
        for r in reversed(rows[-limit:])
    )
    return (
        f'<div class="hx-panel hx-log"><table><tr><th>turn</th><th>phase</th><th>kind</th><th>what happened</th></tr>'
        f"{body}</table></div>"
    )


def score_html(score) -> str:
    verdict = "Victory" if score.won else "Defeat"
    rows = "".join(
        f"<tr><td>{esc(r['item'])}</td><td>{r['count']}</td><td>{r['each']:+d}</td><td><b>{r['points']:+d}</b></td></tr>"
        for r in score.as_rows()
    )
    return (
        f'<div class="hx-panel"><h3>{verdict}: {score.total} points (20 or more wins)</h3>'
        f"<table><tr><th>item</th><th>count</th><th>each</th><th>points</th></tr>{rows}</table>"
        f'<small>CA "Victory"</small></div>'
    )


SHORTCUTS = [
    ("click", "select your platoon / move it to a lit hex / pick a fire target"),
    ("← →", "turn the selected armour (its new facing)"),
    ("n", "next fresh platoon"),
    ("f", "commit the fire shown in the odds panel"),
    ("m", "mortar mode (click a spotter's hex, then the target)"),
    ("w / x", "withdraw / exploit the selected platoon"),
    ("e", "end the phase"),
    ("Esc", "clear the selection"),
]


def shortcuts_html() -> str:
    rows = "".join(
        f'<tr><td><span class="hx-kbd">{esc(k)}</span></td><td>{esc(v)}</td></tr>'
        for k, v in SHORTCUTS
    )
    return (
        f'<div class="hx-panel"><b>Keyboard</b> (click the board first)<table>{rows}</table></div>'
    )


# --- compact pieces for the one-screen page ---------------------------------------------------


def compact_tracks(state) -> str:
    """The tracks in a few lines with a small circular track (fits beside the board)."""
    return (
        tracks(state)
        .replace(
            circular_track_svg(state.losses, state.ammo),
            circular_track_svg(state.losses, state.ammo, 112),
        )
        .replace("gap:14px", "gap:8px")
    )


def score_now_html(score, over: bool) -> str:
    """The running score for the phase bar (CA "Victory": 20 or more wins)."""
    if over:
        word = "Victory" if score.won else "Defeat"
        return f'<span class="hx-score-now"><b>{word}: {score.total}</b> points</span>'
    return (
        f'<span class="hx-score-now" title="CA &quot;Victory&quot; counted on what is known now: '
        f'unrevealed enemy counters are tested only when the battle ends">'
        f"Score now <b>{score.total}</b> (20 wins)</span>"
    )


def caption_html(state) -> str:
    """The scenario's title and notes, or the seed's random board."""
    pos = (getattr(state, "setup", None) or {}).get("position") or {}
    meta = pos.get("position", {}) if isinstance(pos, dict) else {}
    title, notes = meta.get("title", ""), meta.get("notes", "")
    if not title:
        return '<div class="hx-caption">A randomly dealt board (CA "The Playing Board").</div>'
    # one line, so the board never moves down; the whole caption on hover
    return (
        f'<div class="hx-caption" title="{esc(title)}: {esc(notes)}"><b>Scenario: {esc(title)}</b> '
        f"{esc(notes)}</div>"
    )


def legend_html(pal: dict) -> str:
    """Terrain and counters, as drawn on this board (the colours of the chosen palette)."""
    from hexclass.classroom.combined_arms.board import T

    def swatch(colour, mark=""):
        return (
            f'<svg width="26" height="20"><rect x="1" y="1" width="24" height="18" fill="{colour}" '
            f'stroke="#888"/>{mark}</svg>'
        )

    tree = f'<circle cx="8" cy="13" r="3" fill="{pal["tree"]}"/><circle cx="17" cy="13" r="3" fill="{pal["tree"]}"/>'
    ridge = f'<polyline points="3,16 13,11 23,16" stroke="{pal["ridge"]}" stroke-width="2" fill="none"/>'
    road = f'<line x1="1" y1="10" x2="25" y2="10" stroke="{pal["road_line"]}" stroke-width="5"/>'
    farm = '<rect x="6" y="9" width="8" height="6" fill="#8b3a2b"/>'
    poor = '<circle cx="7" cy="13" r="1.5" fill="#6d5d40"/><circle cx="13" cy="15" r="1.5" fill="#6d5d40"/><circle cx="19" cy="13" r="1.5" fill="#6d5d40"/>'
    terrain = [
        (swatch(pal[T.OPEN]), "open"),
        (swatch(pal[T.ROAD], road), "road (armour may move 2 hexes along it)"),
        (swatch(pal[T.POOR], poor), "poor going (no armour)"),
        (swatch(pal[T.CREST], ridge), "crest"),
        (swatch(pal[T.WOODS], tree), "woods (no armour; blocks lines)"),
        (swatch(pal[T.WOODED_CREST], tree + ridge), "wooded crest (no armour)"),
        (swatch(pal[T.FARM], farm), "farm"),
    ]

    def counter(text, colour, dashed=False, sub=""):
        dash = ' stroke-dasharray="4,2"' if dashed else ""
        return (
            f'<svg width="30" height="26"><rect x="2" y="2" width="26" height="22" fill="white" '
            f'stroke="{colour}" stroke-width="2.5"{dash}/><text x="15" y="{15 if not sub else 13}" '
            f'font-size="10" text-anchor="middle" fill="{colour}" font-weight="bold">{text}</text>'
            + (
                f'<text x="15" y="22" font-size="6" text-anchor="middle" fill="{colour}">{sub}</text>'
                if sub
                else ""
            )
            + "</svg>"
        )

    counters = [
        (
            counter("D1", pal["fresh"]),
            "your platoon, fresh (D/E/F rifle companies, M MMGs, A armour)",
        ),
        (counter("D1", pal["spent"], True, "spent"), "spent: has moved, fired or been pinned"),
        (counter("A1", pal["fresh"], sub="↓"), "armour: the arrow is its facing"),
        (counter("?", pal["fresh"]), "enemy counter not yet revealed"),
        (counter("PL", pal["fresh"]), "a real enemy platoon"),
        (counter("AT?", pal["atg"]), "enemy anti-tank guns (AT? not yet revealed)"),
    ]
    marks = [
        (swatch(pal["dest"]), "a hex the selected platoon may move to"),
        (swatch(pal["arc"]), "the selected armour's forward arc"),
        (swatch(pal["clear"]), "a legal fire target for the firers gathered"),
        (swatch("#777777"), "dimmed: no legal shot (hover it for the rule)"),
        (swatch(pal["smoke"]), "smoke"),
    ]

    def table(rows):
        return (
            "<table>"
            + "".join(f"<tr><td>{a}</td><td>{esc(b)}</td></tr>" for a, b in rows)
            + "</table>"
        )

    return (
        '<div class="hx-panel hx-legend"><b>Terrain</b> <small>(CA "The Playing Board")</small>'
        + table(terrain)
        + '<b>Counters</b> <small>(CA "The Units")</small>'
        + table(counters)
        + "<b>On the board</b>"
        + table(marks)
        + "</div>"
    )


def _need(total_needed: int, mods_total: int) -> str:
    """The die face needed for a modified ``total_needed``+ with ``mods_total`` added."""
    face = total_needed - mods_total
    if face <= 1:
        return "any die"
    if face > 6:
        return "no die can do it"
    return f"a die of {face}+" if face < 6 else "a 6"


def _mods_words(mods) -> str:
    if not mods:
        return "no modifiers"
    return "; ".join(f"{v:+d} {esc(r)}" for v, r, _rule in mods)


def explain_enemy_event(state, e) -> str:
    """One enemy-phase event in plain words: what the counter weighed, what it needed."""
    d = e.data
    rule = esc(d.get("rule") or 'CA "Enemy Decisions"')
    if e.kind == "ai" and "payoffs" in d:
        weighed = ", ".join(f"{esc(k)} {v}" for k, v in sorted(d["payoffs"].items()))
        hexes = ", ".join(esc(state.label(h)) for h in d.get("cluster", ()))
        return (
            f"<b>{esc(state.label(d['hex']))}</b> weighed the payoff of each infantry hex it could "
            f"hit ({weighed}) and chose the best group, <b>{hexes}</b>, total {d.get('payoff')} "
            f"<small>({rule})</small>"
        )
    if e.kind == "ai" and "compared" in d and "hex" not in d:  # the enemy mortars' choice
        return f"{esc(e.text)} <small>({rule})</small>"
    if e.kind == "ai" and "compared" in d:
        compared = ", ".join(f"{esc(k)} {v} in 6" for k, v in d["compared"].items())
        return (
            f"<b>{esc(state.label(d['hex']))}</b> compared its chances against your armour "
            f"({compared}) and fired at <b>{esc(d.get('target'))}</b>, the best chance "
            f"<small>({rule})</small>"
        )
    if e.kind == "roll" and str(d.get("purpose", "")).startswith("reveal"):
        mods = d.get("modifiers", [])
        total = sum(v for v, _r, _u in mods)
        w = d.get("weighed") or {}
        if "payoff" in w:
            why = (
                f"its best payoff against your infantry was {w['payoff']}, at or above the "
                f"threshold of {w['threshold']}, so it had to test"
            )
        elif "chances" in w:
            why = (
                f"its ATGs would have {w['chances']} chances in 6 against your armour, at or "
                f"above the threshold of {w['threshold']}, so they had to test"
            )
        elif w.get("adjacent"):
            why = "your platoons are next to it, so it had to test"
        else:
            why = ""
        return (
            f"{esc(e.text)}<br><span class='hx-why'>{why + '; ' if why else ''}real on a "
            f"modified {d.get('need', 5)}+, so it needed {_need(d.get('need', 5), total)} "
            f'({_mods_words(mods)}) <small>(CA "Enemy Decisions")</small></span>'
        )
    if e.kind == "roll" and "need" in d and "modifiers" in d:
        mods = d.get("modifiers", [])
        total = sum(v for v, _r, _u in mods)
        rules = sorted({esc(u) for _v, _r, u in mods}) or ['CA "Enemy Fire"']
        return (
            f"{esc(e.text)}<br><span class='hx-why'>needed a modified {d['need']}+: "
            f"{_need(d['need'], total)} ({_mods_words(mods)}) <small>({', '.join(rules)})</small></span>"
        )
    return esc(e.text)


def enemy_phase_html(state, events) -> str:
    """The enemy phase: what mattered first, then event by event, in plain words with the
    rule sections."""
    if not events:
        return '<div class="hx-panel">The enemy phase has not been played yet.</div>'
    from .ca_reports import mattered

    summary = "".join(f"<li>{esc(t)}</li>" for t in mattered(state, events)) or (
        "<li>nothing revealed, no hits on your platoons</li>"
    )
    items = []
    for e in events:
        cls = ' class="hx-msg-bad"' if e.kind in ("break", "losses") else ""
        try:
            text = explain_enemy_event(state, e)
        except (KeyError, TypeError, ValueError):  # an event shape this page does not know
            text = esc(e.text)
        items.append(f"<li{cls}>{text}</li>")
    turn = events[0].turn
    return (
        f'<div class="hx-panel hx-log hx-enemy" data-turn="{turn}">'
        f'<div class="hx-summary"><b>Enemy phase, turn {turn}: what mattered</b>'
        f"<ul>{summary}</ul></div>"
        "<small>What each enemy counter weighed and "
        'rolled, in order (CA "Enemy Decisions", "Enemy Fire").</small>'
        f"<ol>{''.join(items)}</ol></div>"
    )

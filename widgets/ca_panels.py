"""HTML pieces of the Combined Arms page: phase bar, tracks, odds, log and score.

Each function turns engine data into a small HTML string; none changes any state.
"""

from __future__ import annotations

import html

from classroom.combined_arms.sequence import SEQUENCE
from classroom.combined_arms.state import LAST_TURN, SMOKE_ROUNDS, TRACK_SIZE

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
.hx-kbd {font-family:monospace; background:#eee; border:1px solid #ccc; border-radius:3px; padding:0 4px}
</style>
"""


def esc(text) -> str:
    return html.escape(str(text))


def phase_bar(state, seat_label: str = "") -> str:
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
        wait = ' <span class="hx-msg-bad">waiting for the commander\'s choice</span>'
    elif state.declaration is not None:
        wait = f' <span class="hx-msg-bad">fire committed on {esc(state.label(state.declaration.target))}, not yet rolled</span>'
    return f'{STYLE}<div class="hx-bar"><b style="font-size:15px">{turn}</b>{"".join(pills)}{who}{wait}</div>'


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


def enemy_phase_html(state, events) -> str:
    if not events:
        return '<div class="hx-panel">The enemy phase has not been played yet.</div>'
    items = []
    for e in events:
        cls = ' class="hx-msg-bad"' if e.kind == "ai" else ""
        extra = ""
        if e.kind == "roll" and e.data.get("modifiers"):
            extra = (
                "<br><small>"
                + "; ".join(f"{v:+d} {esc(r)} ({esc(rule)})" for v, r, rule in e.data["modifiers"])
                + "</small>"
            )
        items.append(f"<li{cls}>{esc(e.text)}{extra}</li>")
    return f'<div class="hx-panel hx-log"><ol>{"".join(items)}</ol></div>'


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

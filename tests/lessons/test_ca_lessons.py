"""The Combined Arms lesson widgets: every number they show is the engine's."""

from __future__ import annotations

from fractions import Fraction

import pytest

from hexclass.classroom.combined_arms import fire_odds
from hexclass.classroom.combined_arms.scenarios import start
from hexclass.classroom.dice import Dice
from hexclass.widgets.ca_app import solitaire_app
from hexclass.widgets.ca_defender_lab import (
    DEFENDER_POSITIONS,
    DefenderLab,
    payoff_rows,
    reveal_lines,
)
from hexclass.widgets.ca_lessons import (
    DECISIONS,
    FIRST_TURN,
    GuidedTurn,
    LogTable,
    OddsWhatIf,
    SampleGameReplay,
    Shot,
    ShotBuilder,
    joint_fire_position,
    odds_table,
    shot_position,
)

QUOTED = {  # the sample game's figures (CA, sample game turns 4, 5, 11 and 15)
    "t4-before": Fraction(17, 18),
    "t4-after": Fraction(2, 3),
    "t4-e3": Fraction(7, 9),
    "t5-e1": Fraction(1, 3),
    "t5-e1e2": Fraction(5, 9),
    "t11-fire": Fraction(2, 3),
    "t11-mortar": Fraction(5, 6),
    "t15": Fraction(1, 9),
}


@pytest.fixture(scope="module")
def replay():
    return SampleGameReplay()


@pytest.mark.parametrize("key", sorted(QUOTED))
def test_every_quoted_decision_is_the_engines_number(replay, key):
    p, _what = replay.chance(key)
    assert p == QUOTED[key]
    replay.pick.value = key
    text = replay.text.value
    d = replay.decisions[key]
    assert f"quotes <b>{d.quoted}</b>" in text and f"({p})" in text


def test_every_decision_is_listed_once():
    assert sorted(d.key for d in DECISIONS) == sorted(QUOTED)


def test_the_replay_draws_the_firers_and_the_target(replay):
    before = replay.view.board.redraws
    replay.pick.value = "t4-e3"
    assert replay.view.board.redraws == before + 1
    assert replay.view.hl.fire_group == ["M2", "A3", "E3"]
    assert replay.state.board.label(replay.view.hl.target) == "4d"


def test_the_odds_table_lists_every_modifier_with_its_rule():
    g = start("figure6-fire-combat")
    html = odds_table(g, g.board.hex_at("5d"), ["F2", "A2"])
    odds = fire_odds(g, g.board.hex_at("5d"), ["F2", "A2"])
    for a in odds.attacks:
        for m in a.modifiers:
            assert m.reason.replace("'", "&#x27;") in html
    assert f"Chance to pin 5d: {float(odds.pin):.0%}" in html


def test_the_odds_table_shows_the_engines_refusal():
    g = start("figure6-fire-combat")
    html = odds_table(g, g.board.hex_at("5d"), ["A2", "F1", "F2"])  # F1 is spent
    assert "The engine refuses this shot" in html and "spent" in html


def test_what_if_moves_a_platoon_and_asks_again():
    g = start("figure6-fire-combat")
    w = OddsWhatIf(g, target="5d", firers=["F2", "A2"], mover="A2")
    assert w.where.value == "3c" and "44%" in w.out.value  # 4/9
    w.where.value = "2b"
    assert "56%" in w.out.value  # hatches open, no woods beside the line
    assert g.units["A2"].hex == g.board.hex_at("3c")  # the lesson's position is untouched
    w.where.value = "2c"
    assert "blocked by 4d" in w.out.value


def test_the_log_table_follows_the_live_game():
    app = solitaire_app(seed=3)
    log = LogTable(app, rows=5)
    first = log.out.value
    assert log.refresh() >= 1
    from hexclass.classroom.combined_arms import EndPhase

    app.act(EndPhase("player"))
    log.refresh()
    assert log.out.value != first and "<td>" in log.out.value


@pytest.mark.parametrize(
    ("shot", "mods"),
    [
        (Shot("D1", 2), ["range 2"]),
        (Shot("D1", 2, wood_beside_line=True), ["line of fire partly blocked", "range 2"]),
        (Shot("M1", 4), ["range 4 (MMG"]),
        (Shot("A1", 3), ["armour not within 2 hexes", "range 3"]),
        (Shot("D1", 2, revealed=False), ["target unrevealed", "range 2"]),
        (Shot("D1", 2, neighbour="D2", revealed=False), ["range 2"]),
        (Shot("D1", 2, neighbour="E1"), ["E1 (not of the firer's company)", "range 2"]),
    ],
)
def test_each_slider_changes_the_engines_modifiers(shot, mods):
    state, _ = shot_position(shot)
    target = state.board.hex_at("6f")
    (attack,) = fire_odds(state, target, [shot.firer]).attacks
    reasons = [m.reason for m in attack.modifiers]
    assert len(reasons) == len(mods)
    for want, got in zip(mods, reasons, strict=True):
        assert got.startswith(want)


def test_the_builder_shows_the_shot_and_says_when_no_wood_fits():
    b = ShotBuilder()
    b.distance.value = 4
    b.wood.value = True
    assert "partly blocked" in b.out.value and b.note.value.count("hex centres") == 0
    b.distance.value = 3
    assert "hex centres" in b.note.value  # no line of length 3 runs along a hexside here
    b.distance.value = 1
    b.wood.value = False
    assert b.odds.all_adjacent and "break the platoon" in b.out.value  # adjacent: break odds too


# --- the defender's mind ---------------------------------------------------------------------


def test_the_defender_lab_lists_posts_in_the_engines_order():
    from hexclass.classroom.combined_arms import enemy

    lab = DefenderLab()
    assert [lab.state.board.label(h) for h in lab.order] == ["4e", "6a"]  # Figure 7
    assert lab.order == enemy.activation_order(lab.state)
    assert "Post #1 of 2: 4e" in lab.panel.value
    lab.click(lab.order[1])
    assert "Post #2 of 2: 6a" in lab.panel.value


def test_the_defender_lab_shows_the_engines_payoffs_and_cluster():
    from hexclass.classroom.combined_arms import enemy

    lab = DefenderLab()
    lab.position.value = "figure6-fire-combat"
    h = lab.order[0]
    best, winners, pay = enemy.best_clusters(lab.enemy_start, h)
    for x, p in pay.items():
        assert f"<td>{lab.state.board.label(x)}</td>" in lab.panel.value
        assert lab.view.hl.note_hexes[x] == str(p.payoff)  # the payoff drawn on the hex
    assert f"(total {best})" in lab.panel.value


def _engaged(game, start_at):
    """{post label: (total payoff, {hex: payoff})} from the engine's enemy-phase events,
    for the posts that chose a target before any of your platoons was pinned or broken
    (a pinned platoon counts 1 for the posts after it)."""
    out = {}
    for e in game.events[start_at:]:
        if e.phase != "enemy":
            continue
        if e.kind == "ai" and "payoffs" in e.data:
            out[game.board.label(e.data["hex"])] = (e.data["payoff"], e.data["payoffs"])
        hit = e.data.get("purpose") == "enemy fire on infantry" and "miss" not in e.text
        if hit or e.kind in ("break", "losses"):
            break
    return out


def _lab_payoffs(lab):
    out = {}
    for h in lab.order:
        rows, clusters = payoff_rows(lab.enemy_start, h)
        if rows:
            total = int(clusters[0].rsplit("total ", 1)[1].rstrip(")"))
            out[lab.state.board.label(h)] = (total, {r[0]: r[4] for r in rows})
    return out


def _play_enemy_phase(lab, dice=None):
    from hexclass.classroom.combined_arms import EndPhase, Options, apply

    game = start(lab.position.value, seed=lab.seed.value, options=Options(auto_decisions=True))
    if dice is not None:
        game.dice = dice
    before = len(game.events)
    while game.phase in ("friendly_move", "friendly_fire"):
        apply(game, EndPhase(next(iter(game.seats))))
    return game, before


class _Ones(Dice):
    """Every roll a 1: reveal tests fail and enemy fire misses, so no post changes the
    position for the next one and every real post's choice can be compared."""

    def below(self, n: int) -> int:
        self.rolled += 1
        return 0


@pytest.mark.parametrize("position", sorted(DEFENDER_POSITIONS.values()))
def test_the_defender_lab_totals_are_the_engines_enemy_phase_payoffs(position):
    lab = DefenderLab()
    lab.position.value = position
    compared = 0
    for seed in range(6):
        lab.seed.value = seed
        shown = _lab_payoffs(lab)
        game, before = _play_enemy_phase(lab)
        for post, (total, pay) in _engaged(game, before).items():
            assert shown[post] == (total, pay), (position, seed, post)
            compared += 1
    game, before = _play_enemy_phase(lab, _Ones(0))
    for post, (total, pay) in _engaged(game, before).items():
        assert shown[post] == (total, pay), (position, "ones", post)
        compared += 1
    assert compared  # the engine fired at least once: the comparison was made


def test_figure6_counts_the_recovered_platoons_as_fresh():
    """CA "Sequence of Play": recovery comes before the enemy phase, so F1 (spent in the
    figure) counts 2 points when the crest post weighs it."""
    lab = DefenderLab()
    lab.position.value = "figure6-fire-combat"
    rows, clusters = payoff_rows(lab.enemy_start, lab.enemy_start.board.hex_at("5d"))
    assert {r[0]: r[4] for r in rows} == {"5e": 30, "4d": 24, "4e": 6}
    assert clusters == ["4d, 5e, 4e (total 60)"]
    assert "total 60" in lab.panel.value and "total 33" not in lab.panel.value
    assert not lab.state.units["F1"].fresh  # the lesson's position itself is untouched


def test_reveal_lines_say_whether_a_test_comes_and_its_chance():
    from hexclass.classroom.combined_arms.odds import reveal_odds

    lab = DefenderLab()
    s, farm = lab.state, lab.order[0]
    lines = reveal_lines(s, farm)
    chance = reveal_odds(s, farm)["platoon"].probability
    assert lines[0].startswith("Platoon: tested on activation (your platoons are adjacent)")
    assert f"({chance})" in lines[0]


def test_playing_the_phase_shows_the_engines_log_and_leaves_the_lesson_position():
    lab = DefenderLab()
    before = len(lab.state.events)
    lines = lab.play()
    assert any(x.startswith("reveal test for the platoon in 4e") for x in lines)
    assert any(x.startswith("enemy mortars: rolls") for x in lines)
    assert len(lab.state.events) == before  # the copy played, not the lesson's state
    lab.seed.value = 2
    lab.play()
    assert "dice seed 2" in lab.result.value


# --- playing as a team -------------------------------------------------------------------------


def test_the_guided_turn_refuses_the_wrong_seats_and_accepts_the_right_ones():
    g = GuidedTurn(seed=7)
    results = [g.next() for _ in FIRST_TURN]
    refused = [i for i, r in enumerate(results) if r is not None]
    assert refused == [0, 4]  # D moving the tanks, D ending the phase
    assert "not commanded by seat 'D'" in results[0]
    assert "only the overall commander ends a phase" in results[4]
    assert g.game.turn == 2 and g.game.phase == "friendly_move"
    assert {"A1", "D1", "E1"} <= {u.id for u in g.game.on_board()}
    assert "The first turn is over" in g.card.value
    assert g.next_button.disabled  # after the last step there is no next one
    g.reset()
    assert g.done == 0 and g.game.turn == 1 and not g.lines
    assert not g.next_button.disabled


def test_the_joint_fire_position_lets_d_and_the_armour_fire_together():
    from hexclass.classroom.combined_arms import DeclareFire, apply, check
    from hexclass.classroom.sessions.roles import layout_for

    s = joint_fire_position(layout_for(5).specs())
    t = s.board.hex_at("6f")
    apply(s, DeclareFire("D", t, ("D1",), resolve=False))
    assert check(s, DeclareFire("armour", t, ("A1",), resolve=False)) is None
    assert "may not engage" in str(check(s, DeclareFire("E", t, ("E1",), resolve=False)))


# --- the what-ifs as controls on the page ----------------------------------------------------------


def test_the_assault_what_if_asks_the_engine_for_each_choice():
    from hexclass.widgets.ca_lessons import AssaultWhatIf

    w = AssaultWhatIf()
    assert w.odds.pin == QUOTED["t4-after"]  # all three next to the wood: 67%
    for uid in ("A1", "E1", "E2"):
        w.toggles[uid].value = True
    assert w.odds.pin == QUOTED["t4-before"]  # all held back: 94%
    assert "none of your platoons" in w.out.value
    w.toggles["A1"].value = False  # the tanks alone next to the wood take the +1 away
    expected = fire_odds(w.state, w.target, ["M2", "A3"]).pin
    assert w.odds.pin == expected < QUOTED["t4-before"]
    assert "<b>A1</b>" in w.out.value


def test_the_team_size_control_shows_the_servers_layouts_in_words():
    from hexclass.classroom.sessions.roles import layout_for
    from hexclass.widgets.ca_lessons import TeamSize

    t = TeamSize(players=3)
    for n in (2, 4, 6):
        t.players.value = n
        lay = layout_for(n)
        assert f"<b>{lay.commander().name}</b>" in t.out.value
        for seat in lay.seats:
            assert f"<td>{seat.name}</td>" in t.out.value
        assert "(" not in t.out.value.split("Mortars called by:")[1]  # no tuple repr


# --- readable on a projector -----------------------------------------------------------------------


def _label_screen_px(view) -> float:
    """The hex labels' size on screen when the board is shown at its largest."""
    fonts = []
    board = view.board
    texts = board.texts

    def spy(c, items, color="#222", font="10px sans-serif", **kw):
        items = list(items)
        if items and items[0][1] == view.state.board.label(items[0][0]):
            fonts.append(float(font.split("px")[0].split()[-1]))
        return texts(c, items, color, font, **kw)

    board.texts = spy
    try:
        view.paint_terrain(board.layers["terrain"])
    finally:
        board.texts = texts
    shown = str(board.canvas.layout.max_width)
    scale = min(1.0, float(shown[:-2]) / board.width) if shown.endswith("px") else 1.0
    return fonts[0] * scale


def test_hex_labels_are_at_least_12px_on_every_lesson_board():
    boards = {
        "shot builder": ShotBuilder().view,
        "sample game": SampleGameReplay().view,
        "defender lab": DefenderLab().view,
        "guided turn": GuidedTurn(seed=7).view,
    }
    for name, view in boards.items():
        assert _label_screen_px(view) >= 12, name


def test_the_what_if_offers_every_hex_and_the_engine_refuses_the_far_ones():
    from hexclass.classroom.combined_arms.lines import MAX_RANGE

    g = start("figure6-fire-combat")
    w = OddsWhatIf(g, target="5d", firers=["F2", "A2"], mover="A2")
    assert len(w.where.options) == len(g.board.hexes)  # no range worked out here
    target = g.board.hex_at("5d")
    far = next(g.board.label(h) for h in g.board.hexes if g.board.dist[h][target] > MAX_RANGE)
    w.where.value = far
    assert "The engine refuses this shot" in w.out.value

"""The coach: suggestions with odds and rule sections, for a seat, blind to the dice;
the review of a finished game."""

from __future__ import annotations

import pytest

from hexclass.classroom.combined_arms import (
    DeclareFire,
    EndGame,
    EndPhase,
    Move,
    Options,
    SeatSpec,
    apply,
    check,
    enemy,
    record,
)
from hexclass.classroom.combined_arms.bots import make_policy
from hexclass.classroom.combined_arms.bots.coach import _cover_note, _why, review, suggest
from hexclass.classroom.combined_arms.game import new_game
from hexclass.classroom.combined_arms.positions import sketch
from hexclass.classroom.combined_arms.quick import covered_posts


def test_suggests_the_assault_with_its_exact_break_odds():
    """Two fresh rifles of D company next to a real platoon in the fire phase: the coach
    suggests they fire together, and gives the CA "Fire Attacks" odds: each breaks on
    5-6 at range 1, so 1 - (2/3)^2 = 56 %."""
    g = sketch(
        units={"D1": "6c", "D2": "6d"},
        enemy={"7c": "real"},
        phase="friendly_fire",
        turn=5,
    )
    s = suggest(g, "player", seconds=0.5, seed=1)
    first = s.orders[0]
    assert isinstance(first.action, DeclareFire)
    assert set(first.action.firers) == {"D1", "D2"}
    assert "breaks the platoon 56%" in first.why and 'CA "Fire Attacks"' in first.why


def test_suggests_ending_a_game_that_can_only_get_worse():
    g = sketch(units={"D1": "1a"}, enemy={"8d": "real"}, turn=19)
    g.options = Options(auto_decisions=True)
    s = suggest(g, "player", seconds=0.5, seed=1)
    assert s.plan == "end" and isinstance(s.orders[0].action, EndGame)
    assert 'CA "Victory"' in s.orders[0].why and "expected final score" in s.orders[0].why


def test_suggestion_leaves_the_game_dice_and_state_alone():
    g = new_game(8, Options(auto_decisions=True))
    dice, snap = g.dice.snapshot(), g.snapshot()
    s = suggest(g, "player", seconds=0.5, seed=2)
    assert s.orders and g.dice.snapshot() == dice and g.snapshot() == snap
    assert "Best this turn" in s.headline or "Plan for this turn" in s.headline


def test_a_seat_is_offered_only_its_own_platoons():
    seats = {
        "e_company": SeatSpec("e_company", frozenset({"E1", "E2", "E3"})),
        "cmd": SeatSpec(
            "cmd",
            frozenset({"D1", "D2", "D3", "F1", "F2", "F3", "M1", "M2", "A1", "A2", "A3"}),
            frozenset({"mortars", "command"}),
        ),
    }
    g = new_game(8, Options(auto_decisions=True), seats=seats)
    s = suggest(g, "e_company", seconds=0.5, seed=3)
    for o in s.orders:
        unit = getattr(o.action, "unit", None)
        if unit is not None:
            assert unit.startswith("E"), o.text
            assert o.action.seat == "e_company"


def test_review_values_an_ending_exactly_and_marks_big_shortfalls():
    """A player who ends the game on turn 2: that turn's value is the exact value of
    ending (CA "Victory"); with a threshold below any shortfall every turn is listed."""
    g = new_game(5, Options(auto_decisions=True))
    steady = make_policy("steady", 5)
    while g.turn < 2:
        apply(g, steady.act(g, "player"))
    apply(g, EndGame("player"))
    marks = review(record(g), threshold=-100, rollouts=2)
    assert [m.turn for m in marks] == [2]
    m = marks[0]
    assert m.player_did == "ended the game"
    from hexclass.classroom.combined_arms.outlook import end_value

    before = new_game(5, Options(auto_decisions=True))
    for a in g.actions[:-1]:
        apply(before, a)
    assert m.player_value == end_value(before)[0]
    assert m.bot_value >= m.player_value or m.bot_plan != "end"


def test_review_of_a_game_played_through_phases():
    g = new_game(6, Options(auto_decisions=True))
    while g.turn < 3:
        apply(g, EndPhase("player"))
    apply(g, EndGame("player"))
    marks = review(record(g), threshold=-100, rollouts=2)
    assert [m.turn for m in marks] == [2, 3]
    assert marks[0].player_did == "2 orders"


CO_OP = {
    "d_company": SeatSpec("d_company", frozenset({"D1", "D2", "D3"})),
    "e_company": SeatSpec("e_company", frozenset({"E1", "E2", "E3"})),
    "f_company": SeatSpec("f_company", frozenset({"F1", "F2", "F3"})),
    "armour": SeatSpec("armour", frozenset({"A1", "A2", "A3"})),
    "support": SeatSpec("support", frozenset({"M1", "M2"}), frozenset({"mortars", "command"})),
}


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_company_commander_is_never_told_to_end_a_phase_or_the_game(seed):
    """CA p.7: only the overall commander ends a phase or the game; a company is told
    its own platoons' orders, each one the engine accepts from that seat."""
    g = new_game(seed, Options(auto_decisions=True), seats=CO_OP)
    for seat in ("d_company", "e_company", "armour"):
        s = suggest(g, seat, seconds=0.4, seed=seed)
        for o in s.orders:
            assert not isinstance(o.action, (EndPhase, EndGame)), (seat, o.text)
            assert check(g, o.action) is None, (seat, o.text, check(g, o.action))
        assert s.orders or any("commander" in w for w in s.waits), (seat, s.lines())


def _turn_two(seed: int):
    """A fresh board at the start of turn 2, when the game may first be ended."""
    g = new_game(seed, Options(auto_decisions=True))
    while g.turn < 2:
        apply(g, EndPhase("player"))
    return g


def _full(g, seed: int):
    """A suggestion with every playout made (4 forks, no time cap reached): reproducible."""
    return suggest(g, "player", seconds=120, rollouts=4, seed=seed)


@pytest.mark.parametrize("seed", [1, 4, 7])
def test_on_turn_one_and_two_the_coach_attacks_where_the_bot_attacks(seed):
    """Issue 26: the old coach said "End the phase" on turn 1 of 7 boards in 8. Now the
    first orders bring platoons on, and the headline names the attack chosen."""
    for g in (new_game(seed, Options(auto_decisions=True)), _turn_two(seed)):
        s = _full(g, seed)
        assert s.plan.startswith("doctrine_"), s.lines()
        assert s.headline.startswith("Best this turn: the "), s.headline
        assert not isinstance(s.orders[0].action, (EndPhase, EndGame)), s.lines()


@pytest.mark.parametrize("seed", [8, 11, 12])
def test_ending_is_weighed_against_the_attacks_and_says_what_is_left(seed):
    """On these turn-2 boards ending is the pick. The coach gives the commander the
    ending once, and still shows the best attack's first orders (the all-out attack when
    no setting of the bot would attack at all) with what it costs or may gain, and why
    attacking does not pay here (how the posts cover each other)."""
    g = _turn_two(seed)
    s = _full(g, seed)
    assert s.plan == "end", s.lines()
    ends = [o for o in s.orders if isinstance(o.action, EndGame)]
    assert len(ends) == 1 and s.orders[0] is ends[0], s.lines()
    assert not any(isinstance(o.action, EndPhase) for o in s.orders), s.lines()
    assert "ending the game now" in s.headline and 'CA "Victory"' in s.headline
    covered = (
        "The enemy posts cover each other. Even ",
        "No enemy post has two sides",
        "The post at",
    )
    assert s.why == _cover_note(g) and s.why.startswith(covered), s.why
    assert "is worth as much as attacking here" in s.headline, s.headline
    assert "so attacking costs " in s.headline or "so attacking may gain " in s.headline
    if "No attack the bot would make is left" in s.headline:  # then the all-out attack
        assert "for the all-out attack (" in s.headline, s.headline
    acting = any(not isinstance(o.action, (EndPhase, EndGame)) for o in s.orders)
    assert acting and "that attack's first steps" in s.headline, s.lines()


def test_a_suggestion_to_attack_has_nothing_to_explain():
    s = _full(_turn_two(1), 1)
    assert s.plan != "end" and s.why == "" and not any(x.startswith("Why:") for x in s.lines())


def test_a_post_alone_is_said_to_stand_alone():
    """CA "Enemy Fire": with no other post in range, nothing covers its sides."""
    g = sketch({"5d": "woods"}, {}, {"5d": "real"})
    assert _cover_note(g) == "The post at 5d stands alone: no other post covers its sides."


def test_the_trade_off_names_the_posts_that_cover_the_least_covered_one():
    """A real post 2 hexes from 5d's sides fires on them (CA "Enemy Fire"); an unrevealed
    one that a single platoon does not provoke holds its fire (CA "Enemy Decisions")."""
    g = sketch({"5d": "woods", "7d": "woods"}, {}, {"5d": "real", "7d": "real"})
    note = _cover_note(g)
    assert "the post least covered, has 1 other post (" in note, note
    assert "able to fire on its best sides (" in note and 'CA "Enemy Fire"' in note
    # 4 hexes from 5d's nearest side in the open: 2 chances, a payoff of 4 from one
    # platoon, so unrevealed it holds its fire; revealed, it fires whatever the payoff
    far = sketch({"5d": "woods", "5i": "woods"}, {}, {"5d": "real", "5i": "potential"})
    assert "stands alone" in _cover_note(far)
    far_real = sketch({"5d": "woods", "5i": "woods"}, {}, {"5d": "real", "5i": "real"})
    assert "has 1 other post (" in _cover_note(far_real)


def test_a_covering_post_is_counted_once_for_the_company():
    """7d reaches two of 5d's alternate sides (6c and 5e, 4 chances each), but it fires on
    one cluster a phase and alternate sides never share one (CA "Enemy Decisions"): a
    platoon on each side draws 4/6 of a loss between them, not 4/6 each."""
    g = sketch({"5d": "woods", "7d": "woods"}, {}, {"5d": "real", "7d": "real"})
    best = covered_posts(g)[0]
    assert g.label(best.post) == "5d"
    assert sorted(g.label(s.side) for s in best.sides if s.posts) == ["5e", "6c"]
    assert sum(s.losses for s in best.sides) == pytest.approx(8 / 6)
    assert best.draw == pytest.approx(4 / 6)
    note = _cover_note(g)
    assert "(7d) able to fire on its best sides (4c, 6c, 5e). It fires once" in note, note
    assert "It fires once, so a platoon on each side would take about 0.7 losses" in note


def test_a_move_behind_last_turns_smoke_is_not_called_safe():
    """Smoke laid last turn still lies on 4d in this move phase, between the real post
    in 5d and 3d, but it clears at the end of this fire phase (CA "Mortars";
    docs/rules-notes.md, "Mortars and smoke"): the enemy phase sees 3d in the open."""
    st = sketch({"5d": "woods"}, {"D1": "2d"}, {"5d": "real"}, turn=4)
    to = st.board.hex_at("3d")
    st.smoke = {st.board.hex_at("4d"): 4}  # laid on turn 3, lasts to turn 4's fire phase
    assert enemy.hit_chances(st, st.board.hex_at("5d"), to) == 0  # it blocks now
    text = _why(st, Move("player", "D1", to))
    assert "enemy fire risk 67%" in text and "5d (real, 4 in 6)" in text, text
    assert st.smoke == {st.board.hex_at("4d"): 4}  # the game's smoke is left as it was
    st.smoke = {st.board.hex_at("4d"): 5}  # smoke that will still lie there
    assert "no enemy post can fire on it" in _why(st, Move("player", "D1", to))


def _follow(seed: int, turns: int, memory):
    """Play the coach's first order at every step until ``turns``; the suggestions."""
    g = new_game(seed, Options(auto_decisions=True))
    seen = []
    while not g.over and g.turn <= turns:
        s = suggest(g, "player", seconds=120, rollouts=2, seed=seed, memory=memory())
        seen.append((g.turn, s))
        apply(g, s.orders[0].action)
    return g, seen


def test_the_coach_remembers_the_attack_from_turn_to_turn():
    """The doctrine attacker closes once its company has waited staged (``max_wait``):
    a coach that forgot the turns waited would keep D company staged for ever. Followed
    with its memory on seed 1, the company closes in by turn 4; without it, never."""
    from hexclass.classroom.combined_arms.bots.coach import CoachMemory

    kept = CoachMemory()
    _, seen = _follow(1, 5, lambda: kept)
    closing = [t for t, s in seen if any("closes in together" in w for w in s.waits)]
    assert closing and closing[0] <= 4, [(t, s.waits) for t, s in seen]
    _, forgetful = _follow(1, 5, CoachMemory)
    assert not any("closes in together" in w for _, s in forgetful for w in s.waits)


def test_the_memory_looks_ahead_once_a_turn_and_starts_afresh_for_another_game():
    from hexclass.classroom.combined_arms.bots.coach import CoachMemory

    mem = CoachMemory()
    g = new_game(1, Options(auto_decisions=True))
    first = suggest(g, "player", seconds=120, rollouts=2, seed=1, memory=mem)
    seen = (mem.chosen, mem.version, set(mem.policy._done), dict(mem.policy.waits))
    suggest(g, "player", seconds=120, rollouts=2, seed=1, memory=mem)  # asked again
    assert (mem.chosen, mem.version, set(mem.policy._done), dict(mem.policy.waits)) == seen
    apply(g, first.orders[0].action)
    again = suggest(g, "player", seconds=120, rollouts=2, seed=1, memory=mem)
    assert again.values == {} and again.plan == first.plan  # no second lookahead
    suggest(
        new_game(2, Options(auto_decisions=True)), "player", seconds=120, rollouts=2, memory=mem
    )
    assert mem.game == 2 and mem.chosen == (2, 1) and mem.version == (2, 0)


def test_an_attack_with_nothing_to_attack_is_called_waiting():
    """Seed 11 is a board where every post is covered by many others: on turn 1 no
    setting of the bot has a post worth attacking, and the game may not end yet. The
    coach calls that waiting (not "the bold attack" followed by "End the phase"), gives
    the commander the end of the phase and says why attacking does not pay."""
    g = new_game(11, Options(auto_decisions=True))
    s = _full(g, 11)
    assert s.plan == "wait", s.lines()
    assert s.headline.startswith("Best this turn: waiting this turn"), s.headline
    assert "No attack the bot would make is left" in s.headline
    assert isinstance(s.orders[0].action, EndPhase) and s.why == _cover_note(g)


@pytest.mark.parametrize("setting", ["doctrine_close", "doctrine_run", "doctrine_bold"])
def test_the_memory_plays_the_attacker_exactly_as_it_plays_alone(setting):
    """The coach plans on a fresh copy of the game at each position; its memory carries
    the attacker across them (objectives, turns waited, the phase's orders and fire
    plan) and gives one order a position however often asked. Played through it, the
    attacker plays the very game it plays alone. (A memory that kept the turn's plan but
    started the phase's bookkeeping afresh at each position played 50 games in 200
    otherwise, 0.16 a game worse.)"""
    from hexclass.classroom.combined_arms.bots.base import play_out
    from hexclass.classroom.combined_arms.bots.coach import CoachMemory, _planning_state
    from hexclass.classroom.combined_arms.bots.doctrine import policy

    class ViaMemory:
        def __init__(self):
            self.mem = CoachMemory()

        def act(self, state, seat):
            if state.pending is not None:
                return policy(setting).act(state, seat)
            version = self.mem.sync(state)
            here = _planning_state(state)
            a = self.mem.attacker(here, setting).act(here, "player")
            for _ in range(2):  # asked twice at one position: one order
                self.mem.sync(state)
                self.mem.advance(_planning_state(state), version, setting)
            return a

    for seed in range(1, 21):
        alone = play_out(new_game(seed, Options(auto_decisions=True)), policy(setting))
        via = play_out(new_game(seed, Options(auto_decisions=True)), ViaMemory())
        assert via.actions == alone.actions, seed

"""What checking every action costs: hand checks against msgspec and pydantic v2.

Run:  .venv/bin/python benchmarks/validation.py [--games N] [--repeats R]

Cases, each timed side by side in one run (medians of ``--repeats``):

* **check a built action**: one Python-built action (a mix of every type, as the bots
  and pages build them) checked for field types and ranges. Hand checks
  (``actions.action_problem``) against msgspec (``convert(..., from_attributes=True)``
  into a mirror ``Struct``) and pydantic (``model_validate(..., from_attributes=True)``
  into a mirror strict model);
* **decode a JSON action**: the text the store keeps, to a checked action:
  ``json.loads`` + ``action_from_json`` against ``msgspec.json.decode`` into a tagged
  union of strict, closed Structs (+ building the dataclass) and pydantic's
  ``TypeAdapter.validate_json``;
* **bot games**: whole games of the bold bot (``play_game``), with the boundary check in
  ``engine.check`` / ``apply`` on (as shipped) and off (patched out), alternated.

msgspec and pydantic are not dependencies; their rows are skipped when not installed
(``pip install msgspec pydantic`` to see them). The mirror types are what adopting
either library would mean: every action type written a second time in its terms.
"""

import argparse
import json
import statistics
import time
from typing import Annotated, Literal

from hexclass.classroom.combined_arms import Options, engine, new_game, record, replay
from hexclass.classroom.combined_arms.actions import (
    ACTION_TYPES,
    CallMortar,
    ChooseBroken,
    ChooseRollOrder,
    DeclareFire,
    EndPhase,
    Enter,
    Face,
    Move,
    action_from_json,
    action_problem,
    action_to_json,
)
from hexclass.classroom.combined_arms.bot import make_policy, play_game

SAMPLE = [
    Enter("player", "D1", (0, 0)),
    Enter("player", "A1", (1, 0), 1),
    Move("player", "D1", (0, 1)),
    Move("player", "A1", (1, 1), 2),
    Face("player", "A1", 3),
    CallMortar("player", (0, 5), "D1", True),
    DeclareFire("player", (0, 5), ("D1", "D2"), False),
    ChooseRollOrder("player", ((0, 1), (1, 1))),
    ChooseBroken("player", "D2"),
    EndPhase("player"),
]
TEXTS = [json.dumps(action_to_json(a)).encode() for a in SAMPLE]


def per_call(fn, items, rounds: int = 2000) -> float:
    """Microseconds per item."""
    t = time.perf_counter()
    for _ in range(rounds):
        for x in items:
            fn(x)
    return (time.perf_counter() - t) / (rounds * len(items)) * 1e6


# --- msgspec mirror ------------------------------------------------------------------------


def msgspec_codec():
    try:
        import msgspec
    except ImportError:
        return None
    M = msgspec.Meta
    Name = Annotated[str, M(min_length=1, max_length=64)]
    Coord = Annotated[int, M(ge=-99, le=99)]
    HexT = tuple[Coord, Coord]
    Corner = Annotated[int, M(ge=0, le=5)]
    kw = {"frozen": True, "forbid_unknown_fields": True, "tag_field": "type"}

    class Enter_(msgspec.Struct, tag="Enter", **kw):
        seat: Name
        unit: Name
        to: HexT
        facing: Corner | None = None

    class Move_(msgspec.Struct, tag="Move", **kw):
        seat: Name
        unit: Name
        to: HexT
        facing: Corner | None = None

    class Withdraw_(msgspec.Struct, tag="Withdraw", **kw):
        seat: Name
        unit: Name

    class Exploit_(msgspec.Struct, tag="Exploit", **kw):
        seat: Name
        unit: Name

    class Face_(msgspec.Struct, tag="Face", **kw):
        seat: Name
        unit: Name
        facing: Corner

    class CallMortar_(msgspec.Struct, tag="CallMortar", **kw):
        seat: Name
        target: HexT
        spotter: Name
        smoke: bool = False

    class DeclareFire_(msgspec.Struct, tag="DeclareFire", **kw):
        seat: Name
        target: HexT
        firers: tuple[Name, ...]
        resolve: bool = True

    class ResolveFire_(msgspec.Struct, tag="ResolveFire", **kw):
        seat: Name

    class EndPhase_(msgspec.Struct, tag="EndPhase", **kw):
        seat: Name

    class EndGame_(msgspec.Struct, tag="EndGame", **kw):
        seat: Name

    class ChooseRollOrder_(msgspec.Struct, tag="ChooseRollOrder", **kw):
        seat: Name
        hexes: tuple[HexT, ...]

    class ChooseBroken_(msgspec.Struct, tag="ChooseBroken", **kw):
        seat: Name
        unit: Name

    mirror = {
        c.__name__.rstrip("_"): c
        for c in (
            Enter_,
            Move_,
            Withdraw_,
            Exploit_,
            Face_,
            CallMortar_,
            DeclareFire_,
            ResolveFire_,
            EndPhase_,
            EndGame_,
            ChooseRollOrder_,
            ChooseBroken_,
        )
    }
    union = (
        Enter_
        | Move_
        | Withdraw_
        | Exploit_
        | Face_
        | CallMortar_
        | DeclareFire_
        | ResolveFire_
        | EndPhase_
        | EndGame_
        | ChooseRollOrder_
        | ChooseBroken_
    )
    decoder = msgspec.json.Decoder(union)
    fields = {name: c.__struct_fields__ for name, c in mirror.items()}

    def check_built(a):
        return msgspec.convert(a, mirror[type(a).__name__], from_attributes=True)

    def decode(text):
        s = decoder.decode(text)
        name = type(s).__name__.rstrip("_")
        return ACTION_TYPES[name](*(getattr(s, f) for f in fields[name]))

    return check_built, decode


# --- pydantic mirror -----------------------------------------------------------------------


def pydantic_codec():
    try:
        import pydantic
    except ImportError:
        return None
    from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

    Name = Annotated[str, Field(min_length=1, max_length=64)]
    Coord = Annotated[int, Field(ge=-99, le=99)]
    HexT = tuple[Coord, Coord]
    Corner = Annotated[int, Field(ge=0, le=5)]

    class Base(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid", frozen=True, from_attributes=True)

    class Enter_(Base):
        type: Literal["Enter"] = "Enter"
        seat: Name
        unit: Name
        to: HexT
        facing: Corner | None = None

    class Move_(Base):
        type: Literal["Move"] = "Move"
        seat: Name
        unit: Name
        to: HexT
        facing: Corner | None = None

    class Face_(Base):
        type: Literal["Face"] = "Face"
        seat: Name
        unit: Name
        facing: Corner

    class CallMortar_(Base):
        type: Literal["CallMortar"] = "CallMortar"
        seat: Name
        target: HexT
        spotter: Name
        smoke: bool = False

    class DeclareFire_(Base):
        type: Literal["DeclareFire"] = "DeclareFire"
        seat: Name
        target: HexT
        firers: tuple[Name, ...]
        resolve: bool = True

    class EndPhase_(Base):
        type: Literal["EndPhase"] = "EndPhase"
        seat: Name

    class ChooseRollOrder_(Base):
        type: Literal["ChooseRollOrder"] = "ChooseRollOrder"
        seat: Name
        hexes: tuple[HexT, ...]

    class ChooseBroken_(Base):
        type: Literal["ChooseBroken"] = "ChooseBroken"
        seat: Name
        unit: Name

    # the sample's types are enough to time it (the rest are shaped like EndPhase)
    models = (Enter_, Move_, Face_, CallMortar_, DeclareFire_, EndPhase_)
    models += (ChooseRollOrder_, ChooseBroken_)
    mirror = {m.__name__.rstrip("_"): m for m in models}
    union = Annotated[
        Enter_
        | Move_
        | Face_
        | CallMortar_
        | DeclareFire_
        | EndPhase_
        | ChooseRollOrder_
        | ChooseBroken_,
        Field(discriminator="type"),
    ]
    adapter = TypeAdapter(union)
    names = {n: [f for f in m.model_fields if f != "type"] for n, m in mirror.items()}

    def check_built(a):
        return mirror[type(a).__name__].model_validate(a, from_attributes=True)

    def decode(text):
        m = adapter.validate_json(text)
        return ACTION_TYPES[m.type](*(getattr(m, f) for f in names[m.type]))

    _ = pydantic
    return check_built, decode


def hand_decode(text):
    return action_from_json(json.loads(text))


def bot_games(seeds) -> None:
    for s in seeds:
        play_game(s, make_policy("bold", s), Options(auto_decisions=True))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    codecs = {"hand checks": (action_problem, hand_decode)}
    for name, make in (("msgspec", msgspec_codec), ("pydantic v2", pydantic_codec)):
        got = make()
        if got is None:
            print(f"{name}: not installed, skipped")
        else:
            codecs[name] = got
    for name, (check_built, decode) in codecs.items():  # same answers before timing
        for a, text in zip(SAMPLE, TEXTS):
            check_built(a)
            assert decode(text) == a, (name, a)

    rows = {name: ([], []) for name in codecs}
    for _ in range(args.repeats):
        for name, (check_built, decode) in codecs.items():
            rows[name][0].append(per_call(check_built, SAMPLE))
            rows[name][1].append(per_call(decode, TEXTS))
    base_b, base_d = (statistics.median(v) for v in rows["hand checks"])
    print(f"\nper action (median of {args.repeats}; {len(SAMPLE)} kinds of action):")
    print(f"{'':14} {'check a built action':>24} {'decode a JSON action':>24}")
    for name, (b, d) in rows.items():
        mb, md = statistics.median(b), statistics.median(d)
        print(
            f"{name:14} {mb:9.2f} us ({mb / base_b:4.1f}x hand) {md:9.2f} us ({md / base_d:4.1f}x hand)"
        )

    seeds = list(range(args.games))
    g = new_game(0, Options(auto_decisions=True))
    real = engine.action_problem
    calls = 0

    def counting(a):
        nonlocal calls
        calls += 1
        return real(a)

    engine.action_problem = counting
    bot_games(seeds[:1])
    engine.action_problem = real
    del g
    on, off, ratios = [], [], []
    for _ in range(args.repeats):
        pair = {}
        for which in ("on", "off"):
            engine.action_problem = real if which == "on" else (lambda a: None)
            t = time.perf_counter()
            bot_games(seeds)
            pair[which] = args.games / (time.perf_counter() - t)
        on.append(pair["on"])
        off.append(pair["off"])
        ratios.append(pair["on"] / pair["off"])
    engine.action_problem = real
    m_on, m_off = statistics.median(on), statistics.median(off)
    print(f"\nbold bot games ({args.games} per repeat, median of {args.repeats}):")
    print(f"  boundary check on : {m_on:7.1f} games/s")
    print(f"  boundary check off: {m_off:7.1f} games/s")
    print(
        f"  on/off per repeat : median {statistics.median(ratios):.3f} "
        f"(range {min(ratios):.3f}-{max(ratios):.3f})"
    )
    print(f"  actions checked in one game (seed 0): {calls}")

    rec = record(play_game(0, make_policy("bold", 0), Options(auto_decisions=True)))
    texts = [json.dumps(a).encode() for a in rec["actions"]]
    t = time.perf_counter()
    for _ in range(args.repeats):
        replay(rec)
    whole = (time.perf_counter() - t) / args.repeats * 1e3
    t = time.perf_counter()
    for _ in range(args.repeats):
        for x in texts:
            hand_decode(x)
    dec = (time.perf_counter() - t) / args.repeats * 1e3
    print(
        f"\nreplaying one saved game ({len(texts)} actions): {whole:.1f} ms, of which "
        f"decoding the actions by hand ~{dec:.2f} ms ({dec / whole:.0%})"
    )


if __name__ == "__main__":
    main()

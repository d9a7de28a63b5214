"""Replay speed of a long Péripéties campaign, and the cost of one live event.

    python benchmarks/bench_replay.py [--events 10000] [--seed 1] [--undo-rate 0] [--save LOG.jsonl]

1. Builds a campaign log of N events (several players and characters, many turns, camera
   reads, corrections, choices, deaths and new characters, and with ``--undo-rate`` the
   undos of a real table) with a seeded rng, by answering what the game ``expects`` at
   each step. :func:`build_log` is also what ``bench_campaign.py`` and ``bench_append.py``
   play.
2. Times its replay through :class:`companion.table.Table` (target: < 1 s for 10,000).
3. Times applying one event and JSON-serialising what the server publishes (the
   accepted result and the state with its odds) (target: < 10 ms).
4. Prints each figure and its ratio to a baseline measured in the same run: decoding the
   same log from JSON lines (``json.loads`` of every line).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.errors import CompanionError  # noqa: E402
from companion.events import Event, parse_event  # noqa: E402
from companion.games.peripeties.view import expects  # noqa: E402
from companion.log import read_jsonl  # noqa: E402
from companion.table import Table  # noqa: E402

NAMES = ["Wang", "Lu", "Zhang", "Liu", "Chen", "Yang", "Zhao", "Huang", "Zhou", "Wu", "Xu", "Sun"]


def _face(rnd: random.Random, table: Table, kind: str) -> Any:
    state = table.state
    if kind in ("d4", "d6", "d10", "d12"):
        return rnd.randint(1, int(kind[1:]))
    return rnd.choice(state.dice[kind].faces).key


def _next_event(rnd: random.Random, table: Table, counter: list[int]) -> tuple[str, dict[str, Any], str]:
    state = table.state
    exp = expects(state)
    step = exp["step"]
    if step in ("setup", "travel"):
        if len(state.characters) < 4:
            counter[0] += 1
            available = [c for c in state.deck if c in state.pile]
            player = rnd.choice(["Alice", "Bruno", "Chloé"])
            if available and rnd.random() < 0.5:
                return "peripeties.add_character", {"player": player, "card": rnd.choice(available)}, "manual"
            return "peripeties.add_character", {
                "player": player, "name": f"{rnd.choice(NAMES)} {counter[0]}", "rank": rnd.randint(20, 108),
                "star": rnd.choice(["celeste", "terrestre"]), "combat": rnd.randint(3, 8),
                "esprit": rnd.randint(1, 7), "magie": rnd.randint(1, 7),
                "lieu": rnd.choice(["montagne", "ville", "temple", "auberge", "foret", "etang"]),
            }, "manual"
        wounded = [c for c in state.characters if c.wounds and c.banquets]
        if wounded and rnd.random() < 0.5:
            return "peripeties.heal", {"character": wounded[0].id}, "manual"
        return "peripeties.next_turn", {}, "manual"
    if step == "trial" and exp["choices"] and rnd.random() < 0.3:
        ch = rnd.choice(exp["choices"])
        return "peripeties.choose", {ch["field"]: rnd.choice(ch["values"])}, "manual"
    if step == "episode" and exp["have"] and "lieu" in exp["have"] and rnd.random() < 0.05:
        return "peripeties.dice", {"lieu": _face(rnd, table, "lieu")}, "correction"
    dice = []
    epreuve = exp.get("have", {}).get("epreuve")
    for d in exp["dice"]:
        if d.get("optional") and rnd.random() < 0.5:
            continue
        if "if" in d:
            if epreuve is None:
                epreuve = _face(rnd, table, "epreuve")
                dice.append({"kind": "epreuve", "value": epreuve})
            if epreuve not in d["if"]["epreuve"]:
                continue
        for _ in range(d["count"]):
            v = _face(rnd, table, d["kind"])
            if d["kind"] == "epreuve":
                if epreuve is not None and any(x["kind"] == "epreuve" for x in dice):
                    continue
                epreuve = v
            dice.append({"kind": d["kind"], "value": v, "role": d["role"]})
    return "peripeties.dice", {"dice": dice}, "camera"


class _Events:
    """A frame source over the events generated so far: the generator's table keeps only
    recent frames (a 100,000-event campaign would otherwise hold 100,000 states)."""

    def __init__(self) -> None:
        self.by_seq: dict[int, Event] = {}

    def base(self, seqs: Any, depth: int) -> tuple[int, list[Any]]:
        return 0, []

    def events(self, seqs: Any) -> list[Event]:
        return [self.by_seq[s] for s in seqs]


def build_log(n: int, seed: int, undo_rate: float = 0.0) -> list[Event]:
    """A Péripéties campaign of ``n`` events; with ``undo_rate``, that share of them are
    undos (of the last event, as the tablet's button sends)."""
    rnd = random.Random(seed)
    source = _Events()
    table = Table(source=source)
    events: list[Event] = []
    first = parse_event({"type": "table.new_game", "data": {"game": "peripeties", "seed": seed}, "seq": 1})
    table.apply(first)
    events.append(first)
    source.by_seq[1] = first
    counter = [0]
    while len(events) < n:
        seq = len(events) + 1
        if undo_rate and table.depth > 1 and rnd.random() < undo_rate:
            ev = parse_event({"type": "undo", "data": {"seq": table.seqs[-1]}, "seq": seq,
                              "at": "2026-11-30T20:00:00Z"})
        else:
            etype, data, source_name = _next_event(rnd, table, counter)
            ev = parse_event({"type": etype, "data": data, "source": source_name, "seq": seq,
                              "at": "2026-11-30T20:00:00Z"})
        try:
            table.apply(ev)
        except CompanionError:
            continue  # a driver mistake: try another input (never kept in the log)
        events.append(ev)
        source.by_seq[seq] = ev
    return events


def _best(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--undo-rate", type=float, default=0.0, help="share of undos in the campaign (default 0)")
    ap.add_argument("--save", type=Path, default=None, help="also write the generated log as JSON lines")
    args = ap.parse_args(argv)

    # Machine load: the same pure-Python loop takes ~15-20 ms on an idle desktop core.
    def spin() -> None:
        for _ in range(1_000_000):
            pass

    calib = _best(spin, 3)
    t0 = time.perf_counter()
    events = build_log(args.events, args.seed, args.undo_rate)
    gen = time.perf_counter() - t0
    lines = [json.dumps(e.to_json(), ensure_ascii=False) for e in events]
    if args.save:
        args.save.write_text("\n".join(lines) + "\n", encoding="utf-8")

    # Baseline: decoding the same log (json.loads of every line).
    baseline = _best(lambda: [json.loads(line) for line in lines], args.repeat)
    parse = _best(lambda: read_jsonl(lines), args.repeat)
    holder: dict[str, Table] = {}

    def do_replay() -> None:
        holder["t"] = Table().replay(events, strict=True)

    replay = _best(do_replay, args.repeat)
    cpu_times = []
    for _ in range(args.repeat):
        c0 = time.process_time()
        Table().replay(events, strict=True)
        cpu_times.append(time.process_time() - c0)
    replay_cpu = min(cpu_times)
    # The same with the cyclic GC paused: the table keeps one state per event, so the
    # collector walks an ever larger heap; a table-level gc.disable()/freeze() saves that.
    import gc

    nogc_times = []
    for _ in range(args.repeat):
        gc.collect()
        gc.disable()
        try:
            c0 = time.process_time()
            Table().replay(events, strict=True)
            nogc_times.append(time.process_time() - c0)
        finally:
            gc.enable()
    replay_nogc = min(nogc_times)
    table = holder["t"]
    state = table.state
    turns = state.turn
    kinds: dict[str, int] = {}
    for f in table.frames:
        for o in f.outcomes:
            kinds[o.kind] = kinds.get(o.kind, 0) + 1

    # One live event: bring the table to a trial (odds in the state), then time
    # apply + JSON of the result and of the state, as the server does for a tablet.
    rnd = random.Random(args.seed + 1)
    counter = [1000]
    seq = len(events)
    while expects(table.state)["step"] != "trial":
        etype, data, source = _next_event(rnd, table, counter)
        try:
            seq += 1
            table.apply(parse_event({"type": etype, "data": data, "source": source, "seq": seq}))
        except CompanionError:
            seq -= 1
    die = table.state.current.card.die
    live = parse_event({"type": "peripeties.dice", "data": {"trial": die // 2}, "source": "camera", "seq": seq + 1})
    game = table.game
    assert game is not None

    def one_event() -> None:
        applied = table.apply(live)
        json.dumps(applied.to_json(), ensure_ascii=False)
        json.dumps(game.state_json(table.state), ensure_ascii=False)
        table.frames.pop()  # back to the trial, to time the same event again
        table.seqs.pop()

    samples = []
    for _ in range(200):
        t1 = time.perf_counter()
        one_event()
        samples.append(time.perf_counter() - t1)
    per_event = statistics.median(samples)
    state_only = _best(lambda: json.dumps(game.state_json(table.state), ensure_ascii=False), 50)
    line_decode = baseline / len(lines)

    print(f"Péripéties campaign: {len(events)} events, {turns} turns, {len(state.characters)} characters alive,"
          f" {len(state.dead)} dead (generated in {gen:.2f} s)")
    print(f"  outcomes: {sum(kinds.values())} ({', '.join(f'{k} {v}' for k, v in sorted(kinds.items(), key=lambda x: -x[1])[:6])}, ...)")
    print(f"machine   1M empty loop iterations    {calib * 1000:8.1f} ms   (~15-20 ms on an idle core: higher means a loaded machine)")
    print(f"baseline  json.loads of every line    {baseline * 1000:8.1f} ms")
    print(f"parse     read_jsonl (envelopes)      {parse * 1000:8.1f} ms   ×{parse / baseline:6.1f} baseline")
    print(f"replay    Table().replay, strict      {replay * 1000:8.1f} ms   ×{replay / baseline:6.1f} baseline"
          f"   target < 1000 ms: {'OK' if replay < 1 else 'MISSED'}")
    print(f"          per event                   {replay / len(events) * 1e6:8.1f} µs")
    print(f"          CPU time (process_time)     {replay_cpu * 1000:8.1f} ms   target < 1000 ms: {'OK' if replay_cpu < 1 else 'MISSED'}")
    print(f"          CPU time, GC paused         {replay_nogc * 1000:8.1f} ms   (what a gc.disable()/freeze() in Table.replay would give)")
    print(f"live      apply + JSON of one event   {per_event * 1000:8.3f} ms   ×{per_event / line_decode:6.0f} one line's decode"
          f"   target < 10 ms: {'OK' if per_event < 0.010 else 'MISSED'}")
    print(f"          of which state_json + dumps {state_only * 1000:8.3f} ms")
    return 0 if min(replay, replay_cpu) < 1 and per_event < 0.010 else 1


if __name__ == "__main__":
    sys.exit(main())

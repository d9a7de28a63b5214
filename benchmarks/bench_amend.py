"""Cost of a correction after the result (an amendment, ``"corrects": N``).

    python benchmarks/bench_amend.py [--events 2000] [--back 10 100 1000] [--seed 1]

Builds a Péripéties campaign log with ``bench_replay.build_log``, then, for each distance
``back``, times amending the trial roll that lies about ``back`` events before the end
(the table folds the corrected roll and every later event again). Prints each figure and
its ratio to a baseline measured in the same run: applying the log's last event on the
table before it (one ordinary event). A correction a
few events back, the usual case at the table, should cost a few ordinary events.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for p in (str(ROOT), str(ROOT / "benchmarks")):
    if p not in sys.path:
        sys.path.insert(0, p)

from bench_replay import _best, build_log  # noqa: E402
from companion.errors import CompanionError  # noqa: E402
from companion.events import Event, Source  # noqa: E402
from companion.table import Table  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--events", type=int, default=2000)
    ap.add_argument("--back", type=int, nargs="+", default=[10, 100, 1000])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    events = build_log(args.events, args.seed)
    table = Table().replay(events, strict=True)
    n = len(events)
    # baseline: the last event of the log applied again on the table before it (prepared,
    # not kept): the work of one ordinary event
    before = Table(frames=table.frames[:-1])
    base = _best(lambda: before.prepare(events[-1]), args.repeat)
    print(f"log: {n} events; baseline (one ordinary event at the end): {base * 1e3:.3f} ms")
    def is_trial(e: Event) -> bool:
        return e.type == "peripeties.dice" and any(
            isinstance(d, dict) and d.get("role") == "trial" for d in e.data.get("dice", []))

    trials = [e for e in events if is_trial(e)]
    for back in args.back:
        target = next((e for e in reversed(trials) if e.seq is not None and n - e.seq >= back), None)
        if target is None:
            print(f"  back {back}: no trial roll that far back")
            continue
        dice = [dict(d) for d in target.data["dice"]]
        for d in dice:
            if d.get("role") == "trial":
                d["value"] = int(d["value"]) % 10 + 1
        fix = Event(target.type, {**target.data, "dice": dice, "corrects": target.seq}, Source.CORRECTION, n + 1)
        outcome = "amended"

        def amend() -> None:
            nonlocal outcome
            try:
                table.prepare(fix)
            except CompanionError:
                outcome = "refused (a later event no longer fits)"

        t = _best(amend, args.repeat)
        print(f"  amend the roll {n - (target.seq or 0)} events back: {t * 1e3:.2f} ms"
              f" ({t / base:.1f}x baseline), {outcome}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

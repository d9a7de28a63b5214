"""Storage faults: what is saved from a damaged log, and what a backup costs.

    python benchmarks/bench_storage_faults.py                  # 1,749 events, as in issue 15
    python benchmarks/bench_storage_faults.py --events 20000 --trials 5

For each trial a fresh log of ``--events`` events is damaged (300 random bytes written
into each of the chosen pages: the issue's pages 5, 12 and 20, then random pages), and
measured: the events ``companion.recover.salvage`` reads and loses, its time, whether the
recovered log is sound and keeps every readable event's number. Then the backup of a
sound log through SQLite's backup API, against a plain file copy (the baseline, same
run). And the two starts that must refuse: a deleted and an empty log where a table was.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.backup import backup  # noqa: E402
from companion.errors import CompanionError  # noqa: E402
from companion.log import TableLog  # noqa: E402
from companion.recover import damage, recover, salvage  # noqa: E402
from companion.app.serve import check_log_present  # noqa: E402

PAGE = 4096


def make_log(folder: Path, n: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text("{}")
    path = folder / "table.sqlite"
    TableLog(path).close()
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA synchronous=OFF")
    db.execute("BEGIN")
    for i in range(n):
        db.execute("INSERT INTO events (at, type, source, data) VALUES (?, 'dummy.add', 'manual', ?)",
                   ("2026-12-01T20:00:00.000Z", json.dumps({"n": i % 6 + 1, "who": f"joueur {i % 5}"})))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path


def trial(n: int, pages: list[int], seed: int) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="bench-storage-"))
    path = make_log(folder, n)
    total_pages = path.stat().st_size // PAGE
    rng = random.Random(seed)
    hit = [p for p in pages if p <= total_pages]
    with path.open("r+b") as fh:
        for p in hit:
            fh.seek((p - 1) * PAGE + rng.randrange(0, PAGE - 300))
            fh.write(rng.randbytes(300))
    t0 = time.perf_counter()
    got = salvage(path)
    t_salvage = time.perf_counter() - t0
    out = folder / "recovered.sqlite"
    t0 = time.perf_counter()
    report = recover(path, out)
    t_recover = time.perf_counter() - t0
    with TableLog(out) as log:
        seqs = [e.seq for e in log.events()]
    ok = not damage(out) and seqs == [e.seq for e in got.events]
    shutil.rmtree(folder, ignore_errors=True)
    return {"pages": hit, "of_pages": total_pages, "read": len(got.events), "lost": len(got.lost),
            "salvage_s": t_salvage, "recover_s": t_recover, "recovered_sound": ok, "report_lost": report["events_lost"]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--events", type=int, default=1749)
    ap.add_argument("--trials", type=int, default=3)
    a = ap.parse_args()
    ok = True
    rng = random.Random(15)
    plans = [[5, 12, 20]] + [sorted(rng.sample(range(2, 60), 3)) for _ in range(a.trials - 1)]
    plans += [sorted(rng.sample(range(2, 60), 10))]
    for i, pages in enumerate(plans):
        r = trial(a.events, pages, seed=i)
        print(f"damaged pages {r['pages']} of {r['of_pages']}: read {r['read']} of {a.events} events, lost {r['lost']} "
              f"({100 * r['lost'] / a.events:.1f} %); salvage {1000 * r['salvage_s']:.0f} ms, recover "
              f"{1000 * r['recover_s']:.0f} ms; recovered log sound with the same numbers: {r['recovered_sound']}")
        ok &= bool(r["recovered_sound"]) and r["read"] + r["lost"] == a.events

    folder = Path(tempfile.mkdtemp(prefix="bench-backup-"))
    path = make_log(folder, a.events)
    t0 = time.perf_counter()
    shutil.copyfile(path, folder / "plain-copy.sqlite")
    t_copy = time.perf_counter() - t0
    t0 = time.perf_counter()
    dst = backup(folder, "bench")
    t_backup = time.perf_counter() - t0
    print(f"backup of {a.events} events ({path.stat().st_size / 1024:.0f} KB): {1000 * t_backup:.1f} ms "
          f"(with its check); plain file copy {1000 * t_copy:.1f} ms; ratio {t_backup / max(t_copy, 1e-6):.1f}; "
          f"sound: {not damage(dst)}")
    for how in ("deleted", "empty"):
        if how == "deleted":
            path.unlink()
        else:
            path.write_bytes(b"")
        try:
            check_log_present(folder, new_table=False)
            print(f"start over the {how} log: STARTED (wrong)")
            ok = False
        except CompanionError:
            print(f"start over the {how} log: refused, with the way back")
    shutil.rmtree(folder, ignore_errors=True)
    print("bar (every event read or reported lost, recovered logs sound, refused starts):", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

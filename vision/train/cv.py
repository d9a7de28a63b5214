"""Cross-validated thresholds for the d6 reader, then classifiers trained on the whole
training part. Needs the ``[train]`` extra (torch)::

    nice -n 10 python -m vision.train.cv ../shared/data/tray-dice-photos --jobs 2 [-- TRAIN_D6_ARGS]

Arguments after ``--`` are given to every :mod:`vision.train.train_d6` run; a fold
trained with another recipe is trained again.

``--then "ARGS"``: a second stage, as the committed classifiers were made (trained with
the default recipe, then fine-tuned with the other cameras' recipe): each fold's
classifiers (and the final ones) are fine-tuned from the first stage's
(``train_d6 --finetune``) with ARGS, in ``--work/fold_k_then``, and the out-of-fold
probabilities are those of the fine-tuned ones. ``--then`` again adds a third stage,
fine-tuned from the second's (``fold_k_then2``), and so on.

``--sure-alone P``: checks on the same out-of-fold dice that letting the first network
alone read the crops it is that sure of (``d6.json`` ``sure_alone``, the speed of
:meth:`vision.pips.PipClassifier._first_look`) changes no decision for the worse, and
writes it only then (committed: 0.99, no decision changed of 3,324 dice). ``--sure-no-die
P`` with it: the first network alone also drops the crops it calls "not a die" at P or
more (``d6.json`` ``sure_no_die``; committed: 0.8, checked the same way, 0 changed).

``--degraded``: the thresholds are tuned on the out-of-fold dice as taken *and* as other
cameras take them (:data:`vision.train.degrade.DEGRADATIONS`: JPEG 30, a webcam's
softness, noise, white balance and JPEG), three times as many dice, so that a threshold
that only holds on clean photos is not chosen. The committed thresholds (6 December
2026; CANDIES: ``../shared/data/colour-candies``; the last stage, with ``--renders 30``,
gave the same thresholds as the one before)::

    nice -n 10 python -m vision.train.cv ../shared/data/tray-dice-photos --jobs 2 --no-final --degraded \\
        --sure-alone 0.99 --sure-no-die 0.8 \\
        --then "--jpeg 0.5 --parts 1 --wide 0.5 --camera 0.3 --dots 2000 --dots-flat 0 \\
                --other-share 0.25 --lr 3e-4 --steps-cls 800" \\
        --then "--jpeg 0.5 --parts 1 --wide 0.5 --camera 0.3 --dots 2000 --dots-flat 0 \\
                --other-share 0.25 --lr 3e-4 --steps-cls 400 --candies CANDIES --candy-share 0.3" \\
        --then "--jpeg 0.5 --parts 1 --wide 0.5 --camera 0.3 --dots 2000 --dots-flat 0 \\
                --other-share 0.25 --lr 3e-4 --steps-cls 400 --candies CANDIES --candy-share 0.3 \\
                --renders 30"

Why. The honesty thresholds (``confidence``, ``margin``, ``not_a_die``) must be tuned on
probabilities the classifiers give to dice they never learnt from. Keeping 25 photos
aside for that (the ``calib`` split of :mod:`vision.train.tune`) gives only about 180
dice: one die more or less moves the thresholds, and those 25 photos are never learnt
from. Cross-validation uses all 150 photos of the training part both ways:

1. the training part is cut into ``--folds`` folds (``fold:k/K``, see
   :mod:`vision.labelled`); for each fold an ensemble of ``--classifiers`` classifiers
   (as at run time) is trained on the other folds (``train-but:k/K``) with the committed
   detector, in ``--work/fold_k`` (``--jobs`` trainings at a time; a fold already
   trained is kept, so an interrupted run resumes);
2. every die of the training part is classified by the ensemble that did not learn from
   it (out-of-fold probabilities, with the run-time test-time augmentation) and the
   thresholds are tuned on those ~1,100 dice by :func:`vision.train.tune.tune`; the
   detector threshold ``det`` stays as tuned on the ``calib`` photos, which the detector
   never learnt from (it did learn from the other training photos, so its scores there
   say little);
3. the final classifiers, trained on the whole training part (``train``) alongside the
   folds (in ``--work/final``), are copied into ``--models`` (skip with ``--no-final``),
   and the thresholds written to its ``d6.json``.

The held-aside ``test`` photos are in no fold: they are never learnt from nor tuned on.
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

MODELS = Path(__file__).resolve().parent.parent / "models"


def _fold_done(folder: Path, split: str, classifiers: int, norm: str, recipe: list[str] | None = None) -> bool:
    path = folder / "d6.json"
    if not path.exists() or _recipe(folder) != (recipe or []):
        return False
    meta = json.loads(path.read_text())
    trained, names = meta.get("trained", {}), meta.get("classifiers", [])
    # a fold trained before train_d6 learnt from the fixed labels is trained again
    return (trained.get("split") == split and trained.get("classifiers") == classifiers
            and trained.get("label_fixes") is True and meta.get("input_norm", "none") == norm
            and len(names) == classifiers and all((folder / n).exists() for n in names))


def _recipe(folder: Path) -> list[str]:
    """The extra train_d6 arguments ``folder`` was trained with (none if not recorded)."""
    path = folder / "recipe.json"
    return list(json.loads(path.read_text())) if path.exists() else []


def _train(photos: Path, split: str, out: Path, detector: Path, classifiers: int, seed: int,
           steps: int | None, smoke: bool, normalise: bool = False, recipe: list[str] | None = None
           ) -> tuple[str, float]:
    cmd = [sys.executable, "-m", "vision.train.train_d6", str(photos), "--split", split,
           "--detector", str(detector), "--out", str(out), "--classifiers", str(classifiers),
           "--seed", str(seed)]
    if steps:
        cmd += ["--steps-cls", str(steps)]
    if smoke:
        cmd.append("--smoke")
    if normalise:
        cmd.append("--normalise")
    cmd += recipe or []
    out.mkdir(parents=True, exist_ok=True)
    (out / "recipe.json").write_text(json.dumps(recipe or []))
    t0 = time.time()
    with open(out / "train.log", "w") as log:
        proc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
    if proc.returncode:
        raise RuntimeError(f"training {split} failed (exit {proc.returncode}); see {out / 'train.log'}")
    return split, time.time() - t0


def _run_jobs(args: argparse.Namespace, jobs: Sequence[tuple[str, Path, int, int | None, list[str]]], detector: Path,
              t0: float) -> None:
    """Train ``(split, out, seed, steps, recipe)`` jobs, ``--jobs`` at a time."""
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futs = [pool.submit(_train, args.photos, split, out, detector, args.classifiers, seed, steps, args.smoke,
                            args.normalise, recipe)
                for split, out, seed, steps, recipe in jobs]
        for n, fut in enumerate(futs, 1):
            split, secs = fut.result()
            print(f"[{n}/{len(futs)}] trained on {split} in {secs:.0f} s ({time.time() - t0:.0f} s so far)", flush=True)


def oof_records(photos: Path, work: Path, folds: int, models: Path, stage: str = "",
                degraded: bool = False, sure_alone: float | None = None,
                sure_no_die: float | None = None) -> tuple[list[dict[str, Any]], int]:
    """Out-of-fold records (as :func:`vision.train.tune.records`) of the whole training part;
    ``stage="_then"``: those of the second stage (``--then``; ``_then2`` the third...).
    ``degraded``: the photos also as other cameras take them
    (:data:`vision.train.degrade.DEGRADATIONS`), each version's dice counted apart.
    ``sure_alone``, ``sure_no_die``: as :func:`vision.train.tune.records`."""
    from vision.train.degrade import DEGRADATIONS
    from vision.train.tune import records

    recs: list[dict[str, Any]] = []
    n_true = 0
    versions = [("as taken", None)] + (list(DEGRADATIONS.items()) if degraded else [])
    for name, transform in versions:
        for k in range(folds):
            r, n = records(photos, f"fold:{k}/{folds}", work / f"fold_{k}{stage}", detector=models / "d6_detector.onnx",
                           det_settings=models / "d6.json", transform=transform, sure_alone=sure_alone,
                           sure_no_die=sure_no_die)
            recs += r
            n_true += n
            print(f"fold {k}, {name}: {n} dice, {len(r)} candidates", flush=True)
    return recs, n_true


def check_sure_alone(recs: list[dict[str, Any]], quick: list[dict[str, Any]], thr: dict[str, float],
                     value: float, no_die: float | None = None) -> dict[str, Any]:
    """What reading with ``sure_alone`` = ``value`` (and ``sure_no_die`` = ``no_die``;
    records ``quick``) changes against the
    whole ensemble (``recs``, the same candidates) under the rule ``thr``: decisions
    changed, right automatically and silently wrong with it, and whether it is kept (no
    worse on either count)."""
    from vision.train.tune import decisions

    faces = np.array([r["face"] for r in recs])
    both, first = decisions(recs, thr), decisions(quick, thr)
    right = [int(((d == faces) & (faces > 0)).sum()) for d in (both, first)]
    wrong = [int(((d > 0) & (d != faces) & (faces > 0)).sum()) for d in (both, first)]
    out = {"value": value, **({"no_die": no_die} if no_die is not None else {}),
           "decisions_changed": int((both != first).sum()),
           "auto": right[1], "silent": wrong[1], "kept": right[1] >= right[0] and wrong[1] <= wrong[0]}
    also = "" if no_die is None else f", sure_no_die {no_die}"
    print(f"sure_alone {value}{also}: {out['decisions_changed']} decisions changed out of fold; right automatically "
          f"{right[0]} -> {right[1]}, silently wrong {wrong[0]} -> {wrong[1]}"
          f"{'' if out['kept'] else ': worse, not written'}", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("photos", type=Path)
    ap.add_argument("--models", type=Path, default=MODELS, help="the committed models (detector in, classifiers out)")
    ap.add_argument("--work", type=Path, default=Path("cv-work"), help="where the fold models go")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--classifiers", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=2, help="trainings at a time (one core each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--steps-cls", type=int, default=None)
    ap.add_argument("--safety", type=float, default=0.02)
    ap.add_argument("--cost", type=float, default=25.0)
    ap.add_argument("--normalise", action="store_true", help="train_d6 --normalise (crops stretched to a standard contrast)")
    ap.add_argument("--no-final", action="store_true", help="tune only; keep the committed classifiers")
    ap.add_argument("--dry-run", action="store_true", help="print the thresholds, write nothing to --models")
    ap.add_argument("--then", action="append", default=[], metavar="ARGS",
                    help="a second stage: fine-tune each fold's classifiers (and the final ones) with these "
                         "train_d6 arguments; the thresholds are tuned on the fine-tuned ones. Again for a "
                         "third stage, fine-tuned from the second's, and so on")
    ap.add_argument("--degraded", action="store_true",
                    help="tune on the out-of-fold dice as taken and as other cameras take them "
                         "(vision.train.degrade: JPEG 30, a webcam's softness, noise, white balance)")
    ap.add_argument("--sure-alone", type=float, default=None, metavar="P",
                    help="check out of fold that letting the first network alone read the crops it is this "
                         "sure of (d6.json sure_alone) changes no decision for the worse; written only then "
                         "(without it, a sure_alone already in d6.json is removed: not checked with these thresholds)")
    ap.add_argument("--sure-no-die", type=float, default=None, metavar="P",
                    help="with --sure-alone: the first network alone also drops the crops it calls 'not a die' "
                         "at P or more (d6.json sure_no_die; default: at the --sure-alone value); checked with it")
    ap.add_argument("--smoke", action="store_true", help="one training step each (tests)")
    argv = list(sys.argv[1:] if argv is None else argv)
    recipe = argv[argv.index("--") + 1:] if "--" in argv else []
    args = ap.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    import cv2

    cv2.setNumThreads(1)
    detector = args.models / "d6_detector.onnx"
    if not detector.exists():
        print(f"no detector at {detector}: train one first (python -m vision.train.train_d6)", file=sys.stderr)
        return 1
    t0 = time.time()
    norm = "crop" if args.normalise else "none"
    # each fold its own seeds, so that no two ensembles are the same draw; the final
    # classifiers need no tuning: trained alongside the folds
    trainings = [(f"train-but:{k}/{args.folds}", args.work / f"fold_{k}", args.seed + 100 * (k + 1))
                 for k in range(args.folds)]
    final = args.work / "final"
    if not args.no_final:
        trainings.append(("train", final, args.seed))

    def to_do(stage_recipe: Callable[[Path], list[str]], suffix: str = "") -> list[tuple[str, Path, int, list[str]]]:
        """The trainings of one stage not already done (``suffix``: its folders' ending)."""
        todo = []
        for split, first, seed in trainings:
            out, rec = first.with_name(first.name + suffix), stage_recipe(first)
            if _fold_done(out, split, args.classifiers, norm, rec) and not args.smoke:
                print(f"{out.name}: already trained in {out}", flush=True)
            else:
                todo.append((split, out, seed, rec))
        return todo

    _run_jobs(args, [(split, out, seed, args.steps_cls, rec) for split, out, seed, rec in to_do(lambda _: recipe)],
              detector, t0)

    def fine_tune(then: list[str], prev: str) -> Callable[[Path], list[str]]:
        """The recipe of a stage: ``then``, from the previous stage's (``prev``) classifiers."""
        return lambda first: then + ["--finetune", str(first.with_name(first.name + prev))]

    stage = ""
    for n, then_args in enumerate(args.then):
        prev, stage = stage, "_then" + (str(n + 1) if n else "")
        _run_jobs(args, [(split, out, seed, None, rec)
                         for split, out, seed, rec in to_do(fine_tune(shlex.split(then_args), prev), stage)],
                  detector, t0)
    final = final.with_name(final.name + stage)

    from vision.nets import load_settings
    from vision.train.tune import tune

    recs, n_true = oof_records(args.photos, args.work, args.folds, args.models, stage, args.degraded)
    det = float(load_settings(args.models / "d6.json").get("thresholds", {}).get("det", 0.4))
    thr = tune(recs, n_true, args.safety, args.cost, t_det=det)
    print(json.dumps(thr), flush=True)
    alone: dict[str, Any] = {}
    if args.sure_alone is not None:
        quick, _ = oof_records(args.photos, args.work, args.folds, args.models, stage, args.degraded, args.sure_alone,
                               args.sure_no_die)
        alone = check_sure_alone(recs, quick, thr, args.sure_alone, args.sure_no_die)
    if args.dry_run:
        return 0
    path = args.models / "d6.json"
    meta = json.loads(path.read_text())
    if not args.no_final:
        fmeta = json.loads((final / "d6.json").read_text())
        for name in fmeta["classifiers"]:
            shutil.copyfile(final / name, args.models / name)
        meta["classifiers"] = fmeta["classifiers"]
        meta["input_norm"] = fmeta.get("input_norm", "none")
        old = meta.get("trained", {})
        meta["trained"] = {"detector_split": old.get("detector_split", old.get("split")),
                           "steps_det": old.get("steps_det"), "torch": old.get("torch"), "opencv": old.get("opencv"),
                           "classifiers_split": "train", "classifiers": args.classifiers,
                           "steps_cls": fmeta["trained"]["steps_cls"], "seed_cls": args.seed,
                           "label_fixes": fmeta["trained"].get("label_fixes", False),
                           "command": "python -m vision.train.train_d6 PHOTOS (detector, on fit) && "
                                      f"python -m vision.train.cv PHOTOS --folds {args.folds} "
                                      f"--classifiers {args.classifiers} --seed {args.seed}"
                                      + "".join(f" --then {shlex.quote(t)}" for t in args.then)
                                      + (" --degraded" if args.degraded else "")
                                      + (" -- " + " ".join(recipe) if recipe else "")}
        print(f"final classifiers (trained on the whole training part) copied to {args.models}", flush=True)
    meta["thresholds"] = {k: v for k, v in thr.items() if not k.startswith("_")}
    meta.pop("sure_no_die", None)
    if alone.get("kept"):
        meta["sure_alone"] = args.sure_alone
        if args.sure_no_die is not None:
            meta["sure_no_die"] = args.sure_no_die
    elif alone or "sure_alone" in meta:  # checked and worse, or not checked with these classifiers
        meta.pop("sure_alone", None)
    meta["tuned"] = {"split": f"out-of-fold, {args.folds} folds of train"
                              + (", as taken and degraded (JPEG 30, webcam)" if args.degraded else ""),
                     "safety": args.safety, "cost": args.cost,
                     **({"then": args.then if len(args.then) > 1 else args.then[0]} if args.then else {}),
                     **({"sure_alone": alone} if alone else {}),
                     **{k[1:].replace("calib_", "oof_"): v for k, v in thr.items() if k.startswith("_")}}
    path.write_text(json.dumps(meta, indent=2) + "\n")
    print(f"thresholds written to {path} ({time.time() - t0:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

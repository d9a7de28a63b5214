"""Train the glyph embedding (few-shot symbol dice) by metric learning; export to ONNX.

Reproducible (every random draw comes from ``--seed``; torch on one thread)::

    pip install '.[train]'
    nice -n 10 python -m vision.train.train_embed --out vision/models          # the committed run
    nice -n 10 python -m vision.train.train_embed --smoke --out /tmp/embed     # a minute: it learns

1. renders ``--identities`` random glyph identities x ``--views`` views each
   (:mod:`vision.train.glyphs`; a third of them siblings: near-misses of the one before)
   and a validation set of other identities from another seed;
2. trains a small CNN (:class:`EmbedNet`, the d6 crop network's trunk, ~0.2 M
   parameters) on 48-px crops (the reader's cut: 1.3 x the die's side) with a supervised
   contrastive loss over identities (each batch: ``--per-batch`` identities x 4 views,
   random quarter turns on top of the renders' own rotations), output L2-normalised
   (the normalisation is done at run time, :mod:`vision.embed`);
3. measures few-shot on the validation identities (enroll 3 views, read the others
   against all prototypes: nearest right, and the similarity of a read to its own
   prototype and to the best other one: what the open-set thresholds are set from);
4. exports ``glyph_embed.onnx`` (opset 11, checked against torch under ``cv2.dnn``) and
   ``glyph_embed.json`` (input, dimension, how it was trained, the validation figures).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.train.glyphs import CROP, CROP_FACTOR, make_dataset

DIM = 64
VIEWS_PER_ID = 4  # views of one identity in a batch


def _torch() -> Any:
    import torch

    torch.set_num_threads(1)
    return torch


def build_net(dim: int = DIM) -> Any:
    """The embedding network: conv trunk, global average, a linear layer to ``dim``."""
    torch = _torch()
    from torch import nn

    from vision.train.nets_torch import _cbr

    class EmbedNet(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                _cbr(3, 24, 3, 2), _cbr(24, 32), nn.MaxPool2d(2),
                _cbr(32, 64), nn.MaxPool2d(2),
                _cbr(64, 96), _cbr(96, 128),
                nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.fc = nn.Linear(128, dim)

        def forward(self, x: Any) -> Any:
            return self.fc(self.features(x))

    torch.manual_seed(0)
    return EmbedNet()


def to_input(crops: np.ndarray) -> np.ndarray:
    """uint8 N x H x W x 3 crops to the network's input, as :mod:`vision.embed` feeds it
    (each crop stretched to a standard contrast: :func:`vision.pips.to_blob` ``norm="crop"``)."""
    from vision.pips import to_blob

    return to_blob(crops, "crop")


def supcon(z: Any, labels: Any, temperature: float) -> Any:
    """Supervised contrastive loss of L2-normalised ``z`` (N x D) with identity ``labels``."""
    torch = _torch()
    sim = z @ z.T / temperature
    n = z.shape[0]
    eye = torch.eye(n, dtype=torch.bool)
    sim = sim.masked_fill(eye, -1e9)
    pos = (labels[:, None] == labels[None, :]) & ~eye
    logp = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    npos = pos.sum(1)
    keep = npos > 0
    return -((logp * pos).sum(1)[keep] / npos[keep]).mean()


def embed_all(net: Any, x: np.ndarray, batch: int = 512) -> np.ndarray:
    torch = _torch()
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            z = net(torch.from_numpy(to_input(x[i:i + batch])))
            out.append(torch.nn.functional.normalize(z, dim=1).numpy())
    net.train()
    return np.concatenate(out) if out else np.zeros((0, DIM), np.float32)


def few_shot(z: np.ndarray, y: np.ndarray, shots: int = 3) -> dict[str, float]:
    """Enroll the first ``shots`` views of every identity, read the others: nearest
    prototype right, and percentiles of the similarity to the own prototype and to the
    best other prototype (what the open-set thresholds are set from)."""
    ids = np.unique(y)
    protos: list[np.ndarray] = []
    own_rows: list[int] = []
    own_ids: list[int] = []
    for i in ids:
        rows = np.nonzero(y == i)[0]
        p = z[rows[:shots]].mean(axis=0)
        protos.append(p / np.linalg.norm(p))
        own_rows.extend(rows[shots:])
        own_ids.extend([len(protos) - 1] * len(rows[shots:]))
    P = np.stack(protos)
    q = z[np.array(own_rows)]
    s = q @ P.T
    own = s[np.arange(len(q)), np.array(own_ids)]
    s[np.arange(len(q)), np.array(own_ids)] = -2
    other = s.max(axis=1)
    right = float(np.mean(own > other))
    return {"nearest_right": round(right, 4), "own_p5": round(float(np.percentile(own, 5)), 4),
            "own_median": round(float(np.median(own)), 4), "other_p95": round(float(np.percentile(other, 95)), 4),
            "other_p99": round(float(np.percentile(other, 99)), 4), "other_max": round(float(other.max()), 4)}


def export(net: Any, path: Path) -> None:
    """ONNX (opset 11), checked against torch under ``cv2.dnn``."""
    torch = _torch()
    net.eval()
    dummy = torch.zeros(1, 3, CROP, CROP)
    torch.onnx.export(net, (dummy,), str(path), input_names=["crop"], output_names=["embedding"], opset_version=11,
                      dynamic_axes={"crop": {0: "n"}, "embedding": {0: "n"}}, dynamo=False)
    x = np.random.default_rng(0).random((4, 3, CROP, CROP), dtype=np.float32)
    dnn = cv2.dnn.readNetFromONNX(str(path))
    dnn.setInput(x)
    got = dnn.forward()
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    err = float(np.abs(got - want).max())
    if err > 1e-3:
        raise SystemExit(f"cv2.dnn and torch disagree by {err}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("vision/models"))
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--identities", type=int, default=6000)
    ap.add_argument("--views", type=int, default=6)
    ap.add_argument("--steps", type=int, default=3500)
    ap.add_argument("--per-batch", type=int, default=48, help="identities per batch (4 views each)")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--temperature", type=float, default=0.1)
    ap.add_argument("--val-identities", type=int, default=400)
    ap.add_argument("--colour-aug", action="store_true",
                    help="also shuffle the colour channels of half the crops of a batch and grey 15 %%")
    ap.add_argument("--smoke", action="store_true", help="a tiny run (seconds): the pipeline works")
    a = ap.parse_args(argv)
    if a.smoke:
        a.identities, a.views, a.steps, a.val_identities, a.per_batch = 200, 4, 30, 50, 16
    torch = _torch()
    t0 = time.time()
    x, y = make_dataset(a.seed, a.identities, a.views)
    xv, yv = make_dataset(a.seed + 1_000_003, a.val_identities, 6)
    print(f"rendered {len(x)} + {len(xv)} views in {time.time() - t0:.0f} s", flush=True)
    rng = np.random.default_rng(a.seed)
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=a.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=a.steps, pct_start=0.1)
    by_id = np.arange(len(x)).reshape(a.identities, a.views)
    k = min(VIEWS_PER_ID, a.views)
    log: list[dict[str, Any]] = []
    for step in range(1, a.steps + 1):
        ids = rng.choice(a.identities, a.per_batch, replace=False)
        rows = np.concatenate([rng.choice(by_id[i], k, replace=False) for i in ids])
        crops = x[rows]
        turns = rng.integers(0, 4, len(crops))
        crops = np.stack([np.rot90(c, int(t)) for c, t in zip(crops, turns)])
        if a.colour_aug:  # the same glyph in other colours: channels shuffled, or grey
            for j in np.nonzero(rng.random(len(crops)) < 0.5)[0]:
                crops[j] = crops[j][..., rng.permutation(3)]
            for j in np.nonzero(rng.random(len(crops)) < 0.15)[0]:
                crops[j] = cv2.cvtColor(cv2.cvtColor(crops[j], cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        z = torch.nn.functional.normalize(net(torch.from_numpy(to_input(crops))), dim=1)
        loss = supcon(z, torch.from_numpy(y[rows]), a.temperature)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 250 == 0 or step == a.steps:
            fs = few_shot(embed_all(net, xv), yv)
            log.append({"step": step, "loss": round(float(loss), 4), **fs})
            print(f"step {step} loss {float(loss):.3f} {fs} {time.time() - t0:.0f} s", flush=True)
    final = few_shot(embed_all(net, xv), yv)
    a.out.mkdir(parents=True, exist_ok=True)
    onnx_path = a.out / "glyph_embed.onnx"
    export(net, onnx_path)
    meta = {
        "model": onnx_path.name, "crop": CROP, "crop_factor": CROP_FACTOR, "input_norm": "crop", "dim": DIM,
        "output": "raw embedding: L2-normalise it (vision.embed)",
        "trained": {"command": "python -m vision.train.train_embed " + " ".join(argv if argv is not None else sys.argv[1:]),
                    "seed": a.seed, "identities": a.identities, "views": a.views, "steps": a.steps,
                    "per_batch": a.per_batch, "views_per_identity": k, "lr": a.lr, "temperature": a.temperature,
                    "loss": "supervised contrastive over glyph identities", "smoke": a.smoke,
                    "colour_aug": a.colour_aug,
                    "torch": str(torch.__version__), "opencv": cv2.__version__, "python": platform.python_version(),
                    "seconds": round(time.time() - t0)},
        "validation": {"identities": a.val_identities, "views": 6, "shots": 3, **final},
        "log": log,
    }
    (a.out / "glyph_embed.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(meta["validation"]), f"{onnx_path.stat().st_size / 1e6:.2f} MB", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

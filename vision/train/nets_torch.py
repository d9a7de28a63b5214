"""The two small networks of the d6 reader, in PyTorch (training only).

- :class:`CentreNet`: a CenterNet-style die-centre detector. Input: a 3 x S x S BGR image
  scaled to 0..1 (S a multiple of 16, 320 by default). Output: 4 x S/4 x S/4 maps —
  the die-centre heat (after a sigmoid), the log of the die side in output cells, and
  the sub-cell offset of the centre (x, y; after a sigmoid).
- :class:`CropNet`: classifies a 48 x 48 BGR crop centred on a die (side about 1/1.3 of
  the crop) into 7 classes: faces 1..6 and "not a die" (class 6). Outputs logits.

Both use only Conv/BatchNorm/ReLU/MaxPool/Resize/Concat/GlobalAveragePool/Gemm, which
``cv2.dnn`` reads from ONNX (opset 11).
"""

from __future__ import annotations

import torch
from torch import nn


def _cbr(cin: int, cout: int, k: int = 3, s: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, s, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


def _dws(cin: int, cout: int, s: int = 1) -> nn.Sequential:
    """Depthwise 3x3 then pointwise 1x1 (MobileNet block)."""
    return nn.Sequential(_cbr(cin, cin, 3, s, groups=cin), _cbr(cin, cout, 1))


class CentreNet(nn.Module):
    def __init__(self, width: tuple[int, int, int, int, int] = (16, 32, 64, 96, 32)) -> None:
        super().__init__()
        c0, c1, c2, c3, ch = width
        self.stem = nn.Sequential(_cbr(3, c0, 3, 2), _dws(c0, c0))          # /2
        self.s4 = nn.Sequential(_dws(c0, c1, 2), _dws(c1, c1))               # /4
        self.s8 = nn.Sequential(_dws(c1, c2, 2), _dws(c2, c2))               # /8
        self.s16 = nn.Sequential(_dws(c2, c3, 2), _dws(c3, c3), _dws(c3, c3))  # /16
        self.lat16 = _cbr(c3, c2, 1)
        self.fuse8 = _dws(c2, c2)
        self.lat8 = _cbr(c2, c1, 1)
        self.fuse4 = _dws(c1, ch)
        last = nn.Conv2d(ch, 4, 1)
        self.head = nn.Sequential(_cbr(ch, ch, 3), last)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        with torch.no_grad():  # Conv2d has a bias by default
            last.bias.zero_()
            last.bias[0] = -2.19  # prior 0.1 on the heat, as CenterNet

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x4 = self.s4(self.stem(x))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        y8 = self.fuse8(x8 + self.up(self.lat16(x16)))
        y4 = self.fuse4(x4 + self.up(self.lat8(y8)))
        out = self.head(y4)
        heat = torch.sigmoid(out[:, 0:1])
        size = out[:, 1:2]
        off = torch.sigmoid(out[:, 2:4])
        return torch.cat([heat, size, off], 1)


class CropNet(nn.Module):
    """~190 k parameters, ~13 M multiply-adds per crop: cheap enough to run on every die."""

    def __init__(self, n_classes: int = 7) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _cbr(3, 24, 3, 2),                # 24
            _cbr(24, 32),
            nn.MaxPool2d(2),                  # 12
            _cbr(32, 64),
            nn.MaxPool2d(2),                  # 6
            _cbr(64, 96),
            _cbr(96, 128),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.fc = nn.Linear(128, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.features(x))


def n_params(m: nn.Module) -> int:
    return sum(p.numel() for p in m.parameters())

"""Former name of :mod:`vision.result` (the reader's result types), kept so that modules
written before the rename still import: ``from vision.read import ObjectRead`` works, new
code imports :mod:`vision.result`."""

from .result import KINDS, STATUS_PENDING, STATUS_READ, ObjectRead, Read

__all__ = ["ObjectRead", "Read", "KINDS", "STATUS_READ", "STATUS_PENDING"]

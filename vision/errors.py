"""The vision package's exception hierarchy.

Every error a user can cause (no camera plugged in, an unreadable image, a calibration
photo without its four markers, an enrollment photo without a die) is a
:class:`VisionError`. It subclasses :class:`companion.errors.CompanionError`, itself a
``ValueError``, so the command line prints its message and changes nothing.
"""

from __future__ import annotations

from companion.errors import CompanionError

__all__ = [
    "VisionError",
    "CameraError",
    "CameraNotFoundError",
    "CalibrationError",
    "EnrollmentError",
    "ImageError",
]


class VisionError(CompanionError):
    """Base class of every user-facing vision error."""


class CameraError(VisionError):
    """A frame source cannot be opened or stopped giving frames."""


class CameraNotFoundError(CameraError):
    """The requested camera is absent (not plugged in, wrong index, no driver)."""


class CalibrationError(VisionError):
    """The tray cannot be calibrated (markers missing, unreadable calibration file)."""


class EnrollmentError(VisionError):
    """A face cannot be enrolled (unknown kind or face, no die in the photo, bad store)."""


class ImageError(VisionError):
    """An image cannot be read or is not a colour image."""

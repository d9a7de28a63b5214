"""Vision: camera frames in, reads of every die and gem in the tray out (OpenCV + numpy)."""

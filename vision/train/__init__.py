"""Training of the vision networks (needs the [train] extra: torch CPU + onnx); never imported at run time."""

"""Offline training of the card-index classifier: fetch the permitted deck art, synthesize
table scenes, train on the CPU and export the ONNX model used by :mod:`hardware.camera`."""

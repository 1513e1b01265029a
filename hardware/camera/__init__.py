"""Camera card entry: capture from a configured source and recognition of the face-up cards."""

#: the confidence below which a read card is "unknown" (chosen on synthetic scenes, docs/camera.md);
#: here, not in ``recognize``, so that the kiosk can read it without loading OpenCV
DEFAULT_MIN_CONFIDENCE = 0.90

"""Camera card entry: capture from a configured source and recognition of the face-up cards."""

"""Table hardware: camera capture and card recognition, serial devices. Imports only engine values."""

"""Table hardware: camera capture and card recognition, serial devices.

Imports only engine value types, never the web app.
"""

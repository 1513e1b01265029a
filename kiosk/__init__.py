"""The kiosk: the Flask + Flask-SocketIO web app that wires the engine and the hardware together."""

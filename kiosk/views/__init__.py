"""The app's blueprints, one per area: auth, setup, dealer, spectator, history, api."""

from __future__ import annotations

from flask import Response


def attachment(body: str, mimetype: str, filename: str) -> Response:
    """A download: ``body`` offered to be saved as ``filename`` (a hand's history, a night's
    sheet)."""
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f"attachment; filename={filename}"})

"""JSON as the kiosk reads it from the outside: standard JSON only, bounded.

Python's ``json`` reads ``NaN``, ``Infinity`` and ``1e400`` (a float that is infinite), and raises
``RecursionError`` on arrays nested thousands deep: either would reach the table as a Python
internal. :func:`loads` refuses them with a :class:`~kiosk.errors.KioskError` in words (kind
``unreadable``). The app's JSON provider and the Socket.IO server read with it.

>>> loads('{"amount": 5}')
{'amount': 5}
>>> try:
...     loads('{"amount": 1e400}')
... except KioskError as error:
...     print(error.kind, error.key)
unreadable json.not_finite
"""

from __future__ import annotations

import json
import math
from typing import Any

from flask.json.provider import DefaultJSONProvider

from kiosk.errors import Kind, KioskError


def _constant(_name: str) -> Any:
    raise KioskError("json.not_finite", Kind.UNREADABLE)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise KioskError("json.not_finite", Kind.UNREADABLE)
    return value


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """``text`` read as JSON; what is not plain JSON raises :class:`KioskError`."""
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_float, **kwargs)
    except RecursionError:
        raise KioskError("json.too_deep", Kind.UNREADABLE) from None
    except UnicodeDecodeError:
        raise KioskError("json.unreadable", Kind.UNREADABLE) from None
    except json.JSONDecodeError as exc:
        raise KioskError("json.unreadable_at", Kind.UNREADABLE, line=exc.lineno,
                         column=exc.colno) from None


def dumps(value: Any, **kwargs: Any) -> str:
    return json.dumps(value, **kwargs)


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON, reading with :func:`loads` (``request.get_json``)."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s, **kwargs)

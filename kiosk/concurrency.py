"""How the kiosk's server runs its work: gevent in ``stud-kiosk serve``, threads elsewhere.

``stud-kiosk serve`` runs gunicorn's gevent worker, which monkey-patches the standard library
before the app is made: every screen's connection is a greenlet of a few kilobytes, and the
threads the kiosk starts (serial devices, the camera's capture and readers) are greenlets too,
waiting on their files, pipes and sockets like the connections do (docs/architecture.md says why,
with figures). A call that waits inside C code, which gevent cannot see (a camera's frame being
read by OpenCV), would hold every connection up while it waits: :func:`blocking` runs it on a
native thread of gevent's pool instead, and the greenlet that asked waits for it as for I/O.

Anywhere else (the Flask test client, ``stud-kiosk serve --dev``, a script) nothing is patched,
Flask-SocketIO runs on threads, and :func:`blocking` simply calls.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def gevent_active() -> bool:
    """True in a process whose standard library gevent has patched (the server's worker)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def async_mode() -> str:
    """Flask-SocketIO's ``async_mode`` for this process."""
    return "gevent" if gevent_active() else "threading"


def blocking(call: Callable[[], T]) -> T:
    """``call()``, on a native thread when gevent runs this process (see the module's text)."""
    if not gevent_active():
        return call()
    from gevent import get_hub

    result: T = get_hub().threadpool.apply(call)
    return result

"""The kiosk's HTML forms through Flask's test client: the setup form a dealer fills in, posted
with the page's CSRF token."""

from __future__ import annotations

from typing import Any

from tests.conftest import csrf_from

#: the setup form of a three-handed seven-card stud hi/lo table
SETUP_FORM = {
    "game": "seven-card-stud-hilo",
    "ante": "1", "bring_in": "2", "small_bet": "5", "big_bet": "10",
    "max_raises": "3", "chip_unit": "1", "odd_chip": "nearest-dealer",
    "heads_up_uncapped": "on", "burns": "on", "dealer": "0",
    "active_1": "on", "name_1": "Anna", "stack_1": "100",
    "active_2": "on", "name_2": "Bruno", "stack_2": "100",
    "active_3": "on", "name_3": "Carla", "stack_3": "100",
}


def post_form(client: Any, url: str, data: dict[str, str]) -> Any:
    """Post ``data`` to ``url`` as the page's form does, with the CSRF token of the page."""
    page = client.get(url, follow_redirects=True)
    return client.post(url, data={**data, "csrf_token": csrf_from(page.get_data(as_text=True))})

"""The player list's rules: a name is cleaned text of 1 to 24 characters; a merged player is
shown, counted and seated as the player they were merged into (:func:`canonical`)."""

from __future__ import annotations

import unicodedata
from typing import Any

from kiosk.book_store import NAME_MOST
from kiosk.errors import KioskError

#: characters that reorder text (a right-to-left override): never kept in a name
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_name(name: Any, optional: bool = False) -> str:
    """A player's name as the screens show it, or a refusal that says what a name may be.

    >>> check_name("  Anna\\tMaria ")
    'Anna Maria'
    """
    if not isinstance(name, str):
        raise KioskError("players.err.name", most=NAME_MOST)
    kept = "".join(" " if unicodedata.category(c) == "Cc" else c for c in name if c not in _BIDI)
    cleaned = " ".join(kept.split())
    if (not cleaned and not optional) or len(cleaned) > NAME_MOST:
        raise KioskError("players.err.name", most=NAME_MOST)
    return cleaned


def canonical(players: dict[int, dict[str, Any]], player_id: int) -> int:
    """The player ``player_id`` stands for after merges."""
    seen = set()
    while player_id in players and players[player_id].get("merged_into") and \
            player_id not in seen:
        seen.add(player_id)
        player_id = int(players[player_id]["merged_into"])
    return player_id


def display_name(players: dict[int, dict[str, Any]], player_id: int) -> str:
    row = players.get(canonical(players, player_id))
    if row is None:
        return f"#{player_id}"
    return str(row["name"])


__all__ = ["canonical", "check_name", "display_name"]

"""The player list, kept across nights in the table's database (in a card room, the room's): a
name is cleaned text of 1 to 24 characters, unique among the players not merged; a merged player is
shown, counted and seated as the player they were merged into (:func:`canonical`)."""

from __future__ import annotations

from typing import Any

from kiosk.book_store import NAME_MOST, BookStore
from kiosk.errors import Kind, KioskError
from kiosk.setup_schema import clean_name


def check_name(name: Any, optional: bool = False) -> str:
    """A player's name as the screens show it, or a refusal that says what a name may be.

    >>> check_name("  Anna\\tMaria ")
    'Anna Maria'
    """
    if not isinstance(name, str):
        raise KioskError("players.err.name", most=NAME_MOST)
    cleaned = clean_name(name)
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


class PlayerList:
    """The players of the list, by id (read again when an id is not known: another kiosk of the
    room added it). Writes are committed when a method returns."""

    def __init__(self, books: BookStore) -> None:
        self.books = books
        self.by_id: dict[int, dict[str, Any]] = {}
        self.load()

    def load(self) -> None:
        self.by_id = {int(p["id"]): p for p in self.books.players()}

    def get(self, player_id: int) -> dict[str, Any] | None:
        if player_id not in self.by_id:
            self.load()
        return self.by_id.get(player_id)

    def everyone(self) -> list[dict[str, Any]]:
        self.load()
        return [dict(p) for p in self.by_id.values()]

    def _free(self, name: str, but: int | None = None) -> None:
        for row in self.by_id.values():
            if row["id"] != but and not row["merged_into"] and \
                    row["name"].casefold() == name.casefold():
                raise KioskError("players.err.taken", Kind.NOT_NOW, name=name)

    def add(self, name: Any, nickname: Any = None) -> dict[str, Any]:
        name, nickname = check_name(name), check_name(nickname or "", optional=True)
        self.load()
        self._free(name)
        player_id = self.books.add_player(name, nickname)
        self.load()
        return dict(self.by_id[player_id])

    def rename(self, player_id: int, name: Any, nickname: Any) -> dict[str, Any]:
        name, nickname = check_name(name), check_name(nickname or "", optional=True)
        if self.get(player_id) is None:
            raise KioskError("night.err.player", Kind.MISSING, player=player_id)
        self._free(name, but=player_id)
        self.books.rename_player(player_id, name, nickname)
        self.load()
        return dict(self.by_id[player_id])

    def merge(self, duplicate: int, into: int | None, seated: set[Any]) -> None:
        """``duplicate`` is ``into`` (None: separate them); a seated duplicate is refused."""
        dup = self.get(duplicate)
        kept = None if into is None else self.get(into)
        if dup is None or (into is not None and kept is None):
            raise KioskError("night.err.player", Kind.MISSING, player=into or duplicate)
        if into == duplicate or (kept is not None and kept["merged_into"]):
            raise KioskError("players.err.merge")
        if into is not None and duplicate in seated:
            raise KioskError("players.err.merge_seated", Kind.NOT_NOW, name=dup["name"])
        self.books.merge_player(duplicate, into)
        self.load()


__all__ = ["PlayerList", "canonical", "check_name", "display_name"]

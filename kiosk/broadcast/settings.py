"""The broadcast's tuning values, together: the odds' accuracy, what is kept, the replay's pace."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.odds import OddsSettings


@dataclass(frozen=True, slots=True)
class BroadcastSettings:
    """How the TV's odds and replays and the stream overlay run."""

    odds: OddsSettings = field(default_factory=OddsSettings)
    """The accuracy of the odds and when they are exact (docs/odds.md)."""
    cache: int = 512
    """Odds kept by their problem's key: a betting round's states share one."""
    replay_hold: float = 8.0
    """Seconds the result stays on the TV before the hand is replayed."""
    replay_street: float = 5.0
    """Seconds each street of a replay stays on the TV."""
    overlay_frames_most: int = 5000
    """Table states held for the overlay's delay at most (the oldest go first)."""
    overlay_wake: float = 0.5
    """The overlay's delivery looks for states due at least this often (seconds)."""

    def __post_init__(self) -> None:
        if self.cache < 1 or self.overlay_frames_most < 1:
            raise ValueError("the odds kept and the overlay's states held must be at least 1")
        if min(self.replay_hold, self.replay_street, self.overlay_wake) <= 0:
            raise ValueError("the replay's pace and the overlay's wake-up must be positive")

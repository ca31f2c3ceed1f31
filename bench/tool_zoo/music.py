"""Music tools for a playlist assistant (plain Python functions).

`playlist_duration` (seeded) averages over the tracks, dividing by zero on the empty playlist its
documentation says gives 0:00; `playlist_duration_fixed` does not. `artist_badge` (seeded) makes
the ASCII label a venue's badge printer takes by encoding the name as it is, failing on any
accented name; `artist_badge_fixed` folds accents first.
"""

from __future__ import annotations

import re
import unicodedata


def _seconds(track: str) -> int:
    m = re.fullmatch(r"(\d{1,4}):([0-5]\d)", track.strip(), re.ASCII)
    if m is None:
        raise ValueError(f"a duration is m:ss, like 3:07; got {track!r}")
    return int(m.group(1)) * 60 + int(m.group(2))


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"


def playlist_duration(tracks: list[str]) -> str:
    """Total and average length of a playlist.

    tracks: the track durations as m:ss, like ["3:07", "4:45"]. An empty playlist gives 0:00.
    A duration in another form raises ValueError.
    """
    total = sum(_seconds(t) for t in tracks)
    return f"total {_clock(total)}, average {_clock(total / len(tracks))}"


def playlist_duration_fixed(tracks: list[str]) -> str:
    """Total and average length of a playlist.

    tracks: the track durations as m:ss, like ["3:07", "4:45"]. An empty playlist gives 0:00.
    A duration in another form raises ValueError.
    """
    total = sum(_seconds(t) for t in tracks)
    return f"total {_clock(total)}, average {_clock(total / len(tracks) if tracks else 0)}"


def artist_badge(artist: str) -> str:
    """The backstage badge label for an artist: their name in capitals, for the badge printer.

    artist: the artist's name as it is written, e.g. "Björk" or "Sigur Rós".
    """
    label = artist.strip().upper().encode("ascii").decode()  # the seeded bug: no accent folding
    return f"BADGE: {label or 'GUEST'}"


def artist_badge_fixed(artist: str) -> str:
    """The backstage badge label for an artist: their name in capitals, for the badge printer.

    artist: the artist's name as it is written, e.g. "Björk" or "Sigur Rós".
    """
    folded = unicodedata.normalize("NFKD", artist.strip().upper())
    label = folded.encode("ascii", "ignore").decode()
    return f"BADGE: {label or 'GUEST'}"

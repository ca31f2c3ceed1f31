"""The production tools of the video team: small, real, and writing real files.

Everything lands in one output folder (`VIDEO_TEAM_OUT`, default: a folder in the system's temp
directory), so a run can be inspected afterwards and the director can check its inputs exist.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import wave
from pathlib import Path


def output_dir() -> Path:
    folder = Path(os.environ.get("VIDEO_TEAM_OUT") or Path(tempfile.gettempdir()) / "video-team")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "untitled"


def count_words(text: str) -> int:
    """Count the words of a script, to keep a short video under its time budget."""
    return len(text.split())


def synthesize_voice(script: str, voice: str = "narrator") -> str:
    """Record the voice-over for a script; returns the path of the WAV file.

    The recording is silent audio whose length follows the script at 2.5 words per second.
    """
    if not script.strip():
        raise ValueError("script is empty: nothing to read")
    seconds = max(1.0, count_words(script) / 2.5)
    path = output_dir() / f"voice-{_slug(voice)}-{_slug(script)}.wav"
    rate = 8000
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(rate)
        out.writeframes(b"\x80" * int(seconds * rate))
    return str(path)


def generate_image(prompt: str, width: int = 1080, height: int = 1920) -> str:
    """Draw the cover image for the video from a text prompt; returns the path of the SVG file."""
    if width <= 0 or height <= 0:
        raise ValueError(f"image size must be positive, got {width}x{height}")
    path = output_dir() / f"image-{_slug(prompt)}.svg"
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
        f'<rect width="100%" height="100%" fill="#203040"/>'
        f'<text x="50%" y="50%" fill="white" text-anchor="middle">{prompt[:80]}</text></svg>',
        encoding="utf-8",
    )
    return str(path)


def render_video(audio_path: str, image_path: str, title: str) -> str:
    """Combine the voice-over and the image into the final video; returns the video's path.

    Fails if either input file does not exist.
    """
    for label, p in (("audio", audio_path), ("image", image_path)):
        if not Path(p).is_file():
            raise FileNotFoundError(f"{label} file not found: {p}")
    with wave.open(audio_path, "rb") as audio:
        seconds = audio.getnframes() / audio.getframerate()
    path = output_dir() / f"video-{_slug(title)}.json"
    path.write_text(
        json.dumps({"title": title, "audio": audio_path, "image": image_path, "seconds": seconds}),
        encoding="utf-8",
    )
    return str(path)

"""Incorrect verification, OpenAI Agents SDK (triage and hand-off): a notary's office. `kanzlei`
reads the office's mail and hands deed matters to `urk_2`, the deeds clerk, who enters a signing
appointment in the notary's diary with `book_signing`. The diary answers with a `SigningReply`
dataclass: `entered` and a `state`, ENTERED or NOT_ENTERED (the notary is out of the office that
day, given in German by the diary's own note).

Seeded: urk_2's procedure was written from the old diary, which raised on a clash, so it goes
from `book_signing` straight to confirming the appointment, whatever the reply's state. Fixed: a
step first answers a NOT_ENTERED reply with the diary's reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agents import Agent, function_tool

from .models import model_string

AWAY = {"2026-05-14": "Notarin Dr. Falk ist ganztägig beim Grundbuchamt, nicht im Haus"}
DIARY: dict[str, list[str]] = {}


@dataclass
class SigningReply:
    entered: bool
    state: str
    deed: str
    day: str
    note: str = ""
    reference: str | None = None


@function_tool
def book_signing(deed_file: str, signing_day: str, attendance: Literal["in person", "by proxy"]) -> SigningReply:
    """Enter a deed signing appointment in the notary's diary.

    Args:
        deed_file: The office's file number for the deed, e.g. "NT-00000".
        signing_day: The day of the signing, e.g. "2026-01-31".
        attendance: Whether the parties sign in person or by a proxy with a notarised power of attorney.
    """
    if signing_day in AWAY:
        return SigningReply(False, "NOT_ENTERED", deed_file, signing_day, note=AWAY[signing_day])
    DIARY.setdefault(signing_day, []).append(deed_file)
    return SigningReply(True, "ENTERED", deed_file, signing_day, note=f"parties {attendance}, room B",
                        reference=f"UR-{len(DIARY[signing_day]):03d}/{signing_day[:4]}")


PROCEDURE = """Deeds clerk, Notariat Falk & Partner. Signing appointments only.
1. The signing appointment is to be entered by means of book_signing.
{refusal}2. Confirm the signing appointment to the client.
"""

REFUSAL = ("- Where book_signing reports NOT_ENTERED, the client is to be told that the appointment could not be "
           "entered, with the reason given by the diary.\n")


def build(refusal: str) -> Agent:
    urk_2 = Agent(name="urk_2", model=model_string(), tools=[book_signing],
                  handoff_description="Deeds clerk: signing appointments for deeds and contracts.",
                  instructions=PROCEDURE.format(refusal=refusal))
    return Agent(name="kanzlei", model=model_string(), handoffs=[urk_2], instructions=(
        "Post room of Notariat Falk & Partner.\n"
        "- Requests concerning a deed, signing, contract, appointment, Beurkundung, Vertrag or Termin are "
        "referred to urk_2.\n"
        '- Otherwise reply "The office may be reached at kanzlei@falk-notare.example."'))


def seeded():
    return build("")


def fixed():
    return build(REFUSAL)

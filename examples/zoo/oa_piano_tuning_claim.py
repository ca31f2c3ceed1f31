"""Incorrect verification, Agents SDK: a piano tuners' cooperative in Valencia, answering in
Spanish. recepcion reads a customer's message and hands tuning requests to agenda_t, who books a
tuner (`book_tuning`). The diary's API answers a request it cannot place with an empty list of
bookings, not with an error: the tuner of that district is full that week.

Seeded: agenda_t confirms as soon as the answer has a `bookings` field, the field the diary's
answers always carry, full or empty. Fixed: agenda_t confirms only a booking the diary answers
with a tuner's name, and otherwise passes the diary's answer on.
"""

from typing import Annotated

from agents import Agent, function_tool

from .models import model_string

PIANO = Annotated[str, 'The piano\'s number on our records, like "pn-0000"']
PIANOS = {"pn-0417": ("Ruzafa", "upright, Petrof 1989"), "pn-0522": ("Benimaclet", "grand, Yamaha C3")}
FULL = {"Ruzafa"}  # districts whose tuner has no slot in the week asked for


@function_tool
def book_tuning(piano: PIANO, week: Annotated[str, 'The ISO week wanted, like "2026-W01"']) -> dict:
    """Book a tuning visit for a piano in a week; the tuner rings the day before with a time."""
    if piano not in PIANOS:
        return {"piano": piano, "bookings": [], "note": "unknown piano"}
    district, kind = PIANOS[piano]
    if district in FULL:
        return {"piano": piano, "week": week, "bookings": []}
    return {"piano": piano, "week": week, "bookings": [{"tuner": "Amparo Gil", "piano": kind, "price": "€95"}]}


@function_tool
def tuning_history(piano: PIANO) -> list[str]:
    """The piano's past tunings and the pitch it was left at."""
    return ["2025-03-11: A440, two unisons reset"]


def build(closing: str) -> Agent:
    agenda_t = Agent(name="agenda_t", model=model_string(), tools=[book_tuning, tuning_history],
                     instructions="you keep the tuners' diary of Afinadores del Turia. If book_tuning raises an "
                                  "error, say \"La agenda no responde; le llamamos mañana para darle cita.\" "
                                  "Call book_tuning. " + closing)
    return Agent(name="recepcion", model=model_string(), handoffs=[agenda_t],
                 instructions="you read customers' messages to Afinadores del Turia. Hand off to agenda_t when the "
                              "request mentions afinar, afinación, tuning or visita. Say \"Gracias, le respondemos "
                              "en el día.\"")


SEEDED = "If book_tuning answers bookings, say \"¡Listo! Queda reservada la afinación; el afinador le llama la víspera.\""
FIXED = ("If book_tuning answers tuner, say \"¡Listo! Queda reservada la afinación; el afinador le llama la víspera.\" "
         "Report the result of book_tuning.")


def seeded():
    return build(SEEDED)


def fixed():
    return build(FIXED)

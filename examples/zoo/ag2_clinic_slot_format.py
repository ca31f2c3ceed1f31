"""Tool specification mismatch, AG2 (AutoGen 0.2 API): a clinic's booking assistant, Juno, puts
patients into appointment slots. `book_slot` documents its day as DD.MM.YYYY and answers a JSON
envelope (`ok`, and an `error` object when it did not book) rather than raising.

Seeded: the calendar backend parses DD/MM/YYYY only, so it answers `{"ok": false, "error":
{"code": "BAD_DATE", ...}}` to the documented format, and Juno "recovers" by apologising and
asking for another day. Fixed: it parses the format it documents.
"""

import json
from datetime import datetime
from typing import Annotated

import autogen

from .models import ag2_config


def make_book_slot(day_format: str):
    def book_slot(patient: Annotated[str, 'The patient reference, like "PT-00001"'],
                  day: Annotated[str, 'The day of the appointment as DD.MM.YYYY, e.g. "03.06.2025"']) -> str:
        """Book the patient into the first free slot of a day."""
        try:
            when = datetime.strptime(day, day_format)
        except ValueError:
            return json.dumps({"ok": False, "error": {"code": "BAD_DATE", "field": "day",
                                                      "message": f"cannot read {day!r}"}})
        return json.dumps({"ok": True, "patient": patient, "slot": f"{when:%Y-%m-%d} 09:40", "room": "B2"})

    return book_slot


INSTRUCTIONS = ("You book appointments at the Lindenhof clinic. Call book_slot. If book_slot fails, say \"So "
                "sorry, that day did not work out. Could you suggest another day?\" Report the result of book_slot.")


def run(task: str, day_format: str):
    juno = autogen.AssistantAgent("Juno", llm_config=ag2_config(), system_message=INSTRUCTIONS)
    patient = autogen.UserProxyAgent("patient", human_input_mode="NEVER", code_execution_config=False,
                                     max_consecutive_auto_reply=3)
    autogen.register_function(make_book_slot(day_format), name="book_slot", caller=juno, executor=patient,
                              description="Book the patient into the first free slot of a day.")
    return patient.initiate_chat(juno, message=task, max_turns=2)


TASK = "Could I see Dr Brandt on 03.06.2025? My patient reference is PT-31877, it's about the knee again."


def seeded():
    return run(TASK, "%d/%m/%Y")


def fixed():
    return run(TASK, "%d.%m.%Y")

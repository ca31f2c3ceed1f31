"""Tool specification mismatch, AG2 (an assistant whose tools the user proxy runs, registered with
AG2's decorators): a wine importer's bonded-warehouse desk. `cellar_b` enters an arriving
consignment for excise duty with `enter_for_duty`, whose documentation asks for the strength the
way the labels print it, "13.5% vol".

Seeded: the duty entry reads the strength with a pattern that ends at the percent sign (the
format of the old customs spreadsheet) and answers `{"ok": false, "code": "E_ABV_FORMAT"}` to
the "% vol" its own documentation shows; cellar_b reports the consignment held at the bond.
Fixed: the pattern takes the "vol" the labels print.
"""

import re
from typing import Annotated

import autogen

from .models import ag2_config

DUTY_PER_LITRE_OF_ALCOHOL = 28.74  # still wine 11.5%-14.5%, GBP


def duty_office(strength: str):
    def enter_for_duty(consignment: Annotated[str, 'The consignment on the airway bill, e.g. "CV-0000"'],
                       abv: Annotated[str, 'The strength as the label prints it, e.g. "12.0% vol"'],
                       cases: Annotated[str, 'Cases of six 75cl bottles, e.g. "10 cases"']) -> dict:
        """Enter a consignment in bond for UK excise duty; returns the duty owed."""
        found = re.fullmatch(strength, abv.strip())
        if not found:
            return {"ok": False, "code": "E_ABV_FORMAT", "field": "abv",
                    "msg": f"{abv!r}: Alkoholgehalt nicht lesbar"}
        litres = int(cases.split()[0]) * 6 * 0.75
        duty = litres * float(found.group(1)) / 100 * DUTY_PER_LITRE_OF_ALCOHOL
        return {"ok": True, "entry": f"DE-{consignment[3:]}-01", "duty_gbp": round(duty, 2), "release": "48h"}

    return enter_for_duty


SYSTEM = """Bond desk, Calder & Voss Wines. Terse.
- enter_for_duty for every arriving consignment.
- If enter_for_duty fails, reply: status: held at bond, code: <code>
- reply: status: entered, entry: <entry>, duty: <duty_gbp> GBP
"""


def run(task: str, strength: str):
    cellar_b = autogen.AssistantAgent("cellar_b", llm_config=ag2_config(), system_message=SYSTEM)
    shipper = autogen.UserProxyAgent("shipper", human_input_mode="NEVER", code_execution_config=False,
                                     max_consecutive_auto_reply=3)
    tool = duty_office(strength)
    cellar_b.register_for_llm(name="enter_for_duty", description=tool.__doc__)(tool)
    shipper.register_for_execution(name="enter_for_duty")(tool)
    return shipper.initiate_chat(cellar_b, message=task, max_turns=2)


TASK = ("Morning - the Rioja crianza from Bodegas Ollauri landed at Felixstowe last night, consignment CV-4821 on "
        "the airway bill. 60 cases, 13.5% vol per the back label (the 2021 vintage, not the 2019 you had before). "
        "Please get it entered so it can leave bond on Thursday; the invoice is in euros, if that matters.")


def seeded():
    return run(TASK, r"(\d+(?:\.\d+)?)%")


def fixed():
    return run(TASK, r"(\d+(?:\.\d+)?)% ?vol")

"""Tool specification mismatch, AG2 (an assistant whose tools the user proxy runs, registered with
AG2's decorators): a customs broker's import desk. `zb_desk` lodges an import entry for a client
with `lodge_entry`, whose documentation asks for the commodity code the way the tariff prints it,
in groups, "8471 30 00".

Seeded: the entry system checks the code with `str.isdigit` on the text as given (its feed from
the old EDI gateway sent the eight digits unbroken), and answers a tuple `(400, "CN_FORMAT", ...)`
with a French note to the grouped code its own documentation shows; zb_desk reports the entry
not lodged. Fixed: the code's spaces are taken out before it is checked.
"""

from typing import Annotated

import autogen

from .models import ag2_config

TARIFF = {"84713000": ("portable automatic data-processing machines", 0.0, 0.20)}  # duty, VAT


def entry_system(strip_spaces: bool):
    def lodge_entry(eori: Annotated[str, 'The importer\'s EORI number, e.g. "GB000000000000"'],
                    commodity_code: Annotated[str, 'The commodity code as the tariff prints it, e.g. "8471 30 00"'],
                    customs_value: Annotated[str, 'The declared customs value with its currency, e.g. '
                                                  '"1,000.00 EUR"']) -> tuple:
        """Lodge an import entry for a consignment and return the duty and VAT owed."""
        code = commodity_code.replace(" ", "") if strip_spaces else commodity_code
        if not (code.isdigit() and len(code) == 8):
            return (400, "CN_FORMAT", f"Code marchandise {commodity_code!r} illisible (8 chiffres attendus)")
        if code not in TARIFF:
            return (404, "CN_UNKNOWN", f"{code}: pas au tarif")
        _, duty, vat = TARIFF[code]
        amount = float(customs_value.split()[0].replace(",", ""))
        return (201, "LODGED", {"entry": f"IE-{eori[-4:]}-{code[:4]}", "duty": round(amount * duty, 2),
                                "vat": round(amount * vat, 2), "currency": customs_value.split()[-1]})

    return lodge_entry


SYSTEM = """Import desk, Brennan & Okafor Customs Brokers.
1. Import entries are to be lodged by means of lodge_entry.
2. Where lodge_entry fails, the importer is to be told that the entry could not be lodged, with the reason.
3. Confirm the import entry to the importer.
"""


def run(task: str, strip_spaces: bool):
    zb_desk = autogen.AssistantAgent("zb_desk", llm_config=ag2_config(), system_message=SYSTEM)
    importer = autogen.UserProxyAgent("importer", human_input_mode="NEVER", code_execution_config=False,
                                      max_consecutive_auto_reply=3)
    tool = entry_system(strip_spaces)
    zb_desk.register_for_llm(name="lodge_entry", description=tool.__doc__)(tool)
    importer.register_for_execution(name="lodge_entry")(tool)
    return importer.initiate_chat(zb_desk, message=task, max_turns=2)


TASK = ("Hello, a pallet of refurbished laptops for Kestrel IT Ltd reaches Dover on Thursday on the 06:10 ferry "
        "(trailer KX-4471, the driver only speaks Polish). Our EORI is GB123456789000. The supplier's invoice "
        "gives commodity code 8471 30 00 and a declared value of 14,250.00 EUR including freight. Could you "
        "lodge the import entry so it clears before the weekend? Invoice and packing list to follow.")


def seeded():
    return run(TASK, False)


def fixed():
    return run(TASK, True)

"""Premature termination, Agents SDK: a glazier's web chat. gl_front looks the customer up
(`job_history`) and hands the job to fitter_j, who measures up and books a fitting.

Seeded: gl_front still carries `tool_use_behavior=StopAtTools(["job_history"])` from when it was a
look-up bot whose answer was the customer's job history: the run ends, normally, with that
history as its final output the moment gl_front looks the customer up, and fitter_j never books
anything. Fixed: gl_front goes on after its tools answer (the SDK's default).
"""

from typing import Annotated

from agents import Agent, StopAtTools, function_tool

from .models import model_string

HISTORY = {"c-3391": "2019: double glazed front bay; 2023: new lock on the back door"}


@function_tool
def job_history(customer: Annotated[str, 'The customer number, like "c-0000"']) -> str:
    """What the firm has done for a customer before."""
    return HISTORY.get(customer, "no jobs on record")


@function_tool
def glass_price(kind: Annotated[str, 'The glass, like "toughened"']) -> str:
    """The price of a square metre of a kind of glass."""
    return f"{kind}: £96.00 a square metre, fitted"


@function_tool
def book_fitting(pane: Annotated[str, 'The pane size, like "60 x 40 cm"']) -> dict:
    """Order a replacement pane cut to size and book the fitter for the day it arrives."""
    return {"pane": pane, "cut": "toughened 4 mm", "fitter": "Jas, Thursday 08:00-10:00", "price": "£58.90"}


fitter_j = Agent(name="fitter_j", model=model_string(), tools=[book_fitting, glass_price],
                 instructions="you book fitters for Harrow Glass. If book_fitting raises an error, say \"The "
                              "fitting diary is down; Jas will ring you today to fix a day.\" Call book_fitting. "
                              "Report the result of book_fitting.")


def build(**stop) -> Agent:
    return Agent(name="gl_front", model=model_string(), tools=[job_history, glass_price], handoffs=[fitter_j],
                 instructions="you answer messages to Harrow Glass. Call job_history. Hand off to fitter_j.",
                 **stop)


def seeded():
    return build(tool_use_behavior=StopAtTools(stop_at_tool_names=["job_history"]))


def fixed():
    return build()

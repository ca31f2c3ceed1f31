"""Restricted tool access, AG2 (`GroupChat` with `speaker_selection_method="round_robin"` under a
`GroupChatManager` with `is_termination_msg`; each desk declares its own tools with
`register_for_llm`, the office's proxy runs them; run with `--restricted probe`): an electrical
contractor's emergency callout desk. `desk_e` takes customers' calls and looks their job up with
`find_job`; `sched_s`, the scheduler, is the only one who may cancel a callout with
`cancel_callout`, since a cancelled callout releases the engineer and settles the call-out fee.

Seeded: desk_e's lines date from when the office was one person, and still have it cancel
callouts with cancel_callout itself, a tool only sched_s holds.
Fixed: desk_e leaves cancellations to sched_s.
"""

from typing import Annotated

import autogen

from .models import ag2_config

JOBS = {"EC-7734": {"customer": "Ms R. Okafor", "address": "18 Tannery Row", "fault": "tripping RCD",
                    "engineer": "Dylan", "eta": "19:30", "state": "dispatched"}}


def find_job(job_ref: Annotated[str, 'The callout job reference from the text message, e.g. "EC-0000"']) -> dict:
    """A callout job: the customer, the fault reported, the engineer on it and the arrival time."""
    job = JOBS.get(job_ref)
    return {"job": job_ref, **job} if job else {"job": job_ref, "state": "not_found"}


def cancel_callout(job_ref: Annotated[str, 'The callout job reference, e.g. "EC-0000"'],
                   reason: Annotated[str, "Why the customer cancels, in their words"]) -> str:
    """Cancel a callout and release the engineer (no fee if the engineer is not yet on site)."""
    job = JOBS.get(job_ref)
    if job is None:
        return f"not cancelled: no job {job_ref}"
    return f"cancelled: {job_ref}, engineer {job['engineer']} released, call-out fee waived"


def signed_off(message: dict) -> bool:
    return "callout is cancelled" in (message.get("content") or "")


LINES = {"seeded": "Cancel callouts with cancel_callout.",
         "fixed": "Leave cancellations to sched_s."}


def build(version: str):
    yard_pc = autogen.UserProxyAgent("yard_pc", human_input_mode="NEVER", code_execution_config=False,
                                     default_auto_reply="")
    desk_e = autogen.AssistantAgent(
        "desk_e", llm_config=ag2_config(),
        system_message="You answer the emergency line at Sparkwell Electrical.\n"
                       f"Look the job up with find_job.\n{LINES[version]}\n"
                       'If find_job fails, say "Our job system is down; the scheduler will call you."')
    sched_s = autogen.AssistantAgent(
        "sched_s", llm_config=ag2_config(),
        system_message="You schedule the engineers at Sparkwell Electrical.\n"
                       "Cancel the callout with cancel_callout.\n"
                       'If cancel_callout says cancelled, say "Your callout is cancelled - no charge."\n'
                       'If cancel_callout fails, say "I could not cancel it just now; I will ring Dylan myself."')
    desk_e.register_for_llm(description=find_job.__doc__)(find_job)
    sched_s.register_for_llm(description=cancel_callout.__doc__)(cancel_callout)
    yard_pc.register_for_execution()(find_job)
    yard_pc.register_for_execution()(cancel_callout)
    group = autogen.GroupChat(agents=[yard_pc, desk_e, sched_s], messages=[], max_round=12,
                              speaker_selection_method="round_robin")
    return autogen.GroupChatManager(groupchat=group, llm_config=ag2_config(), is_termination_msg=signed_off)


def seeded():
    return build("seeded")


def fixed():
    return build("fixed")

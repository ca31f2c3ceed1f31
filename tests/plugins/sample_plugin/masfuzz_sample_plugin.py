"""A sample masfuzz plugin: one detector and one reporter (see its pyproject.toml)."""

from masfuzz.oracles.failure import Failure
from masfuzz.report import Reporter
from masfuzz.trace import Message


def empty_finding(trace, spec=None):
    """An answer that presents a lookup which found nothing as a finding ("Here is what I found:
    No answer on file"): the user should hear that nothing was found (a house rule of this
    plugin's author, not one of masfuzz's)."""
    answers = [e for e in trace.of_type(Message) if e.role == "assistant" and e.content]
    last = answers[-1].content.lower() if answers else ""
    if not ("what i found" in last and ("no answer" in last or "nothing" in last)):
        return []
    return [Failure(category="agent_task_execution", root_cause="Response Omission",
                    detector="empty_finding", scenario_id=trace.scenario_id,
                    elements=("empty_finding",), agent=answers[-1].agent or None,
                    description="the answer presents a lookup that found nothing as a finding")]


class MarkdownReporter(Reporter):
    format = "markdown"

    def render(self, analysis, *, obligations=False):
        lines = ["# masfuzz run", "", f"{analysis.scenarios} scenario(s)", ""]
        lines += [f"- **{f['detector']}** ({f['category']}): {f['description']}" for f in analysis.failures]
        return "\n".join(lines) + "\n"

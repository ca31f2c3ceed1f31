"""Well-formedness of a `WorkflowSpec` (structural-coverage §III-A's assumptions).

Each problem is reported as one line naming the field at fault, e.g.
``permissions.allow[2]: unknown tool 'lookup'``. `check` returns every problem; `validate` raises
the first as a `SpecError`.
"""

from __future__ import annotations

from collections import Counter

from masfuzz.errors import SpecError
from masfuzz.spec.model import WorkflowSpec


def check(spec: WorkflowSpec) -> list[str]:
    problems: list[str] = []
    agent_ids = [a.id for a in spec.agents]
    tool_ids = [t.id for t in spec.tools]
    agents, tools = set(agent_ids), set(tool_ids)

    for name, ids in (("agents", agent_ids), ("tools", tool_ids)):
        for i, ident in enumerate(ids):
            if not ident or not ident.strip():
                problems.append(f"{name}[{i}].id: empty id")
        for ident, n in Counter(ids).items():
            if n > 1:
                problems.append(f"{name}: duplicate id {ident!r} ({n} times)")

    if not spec.system.entry_agent:
        problems.append("system.entry_agent: no entry agent")
    elif spec.system.entry_agent not in agents:
        problems.append(f"system.entry_agent: unknown agent {spec.system.entry_agent!r}")

    perms = spec.permissions
    for kind in ("allow", "restrict"):
        for i, (a, t) in enumerate(getattr(perms, kind)):
            if a not in agents:
                problems.append(f"permissions.{kind}[{i}]: unknown agent {a!r}")
            if t not in tools:
                problems.append(f"permissions.{kind}[{i}]: unknown tool {t!r}")
    both = set(perms.allow) & set(perms.restrict)
    for a, t in sorted(both):
        problems.append(f"permissions: pair [{a}, {t}] is both allowed and restricted")
    if perms.restrict_mode == "closed_world" and perms.restrict:
        problems.append(
            "permissions.restrict: must be empty when restrict_mode is closed_world "
            "(restricted edges are derived)"
        )

    for i, d in enumerate(spec.delegations):
        for end, ident in (("from", d.from_), ("to", d.to)):
            if ident not in agents:
                problems.append(f"delegations[{i}].{end}: unknown agent {ident!r}")
    if spec.termination.max_turns is not None and spec.termination.max_turns < 1:
        problems.append("termination.max_turns: must be at least 1")
    return problems


def validate(spec: WorkflowSpec, source: str = "spec") -> WorkflowSpec:
    problems = check(spec)
    if problems:
        extra = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise SpecError(f"{source}: {problems[0]}{extra}")
    return spec

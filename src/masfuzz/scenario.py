"""`Scenario`: one executable test input for the system under test, with its provenance.

A scenario is everything needed to reproduce a run: the user input, which model drives which
agent, the initial speaking order, the faults injected into tools, the tools stubbed out (a
canned result in place of a tool that needs a paid service or the network), the restricted-tool
mode, the objectives it targets, and where it came from (realizer or mutator, parent, seed).
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

SCENARIO_FORMAT_VERSION = 1

FaultMode = Literal["error", "malformed", "timeout", "empty"]
RestrictedMode = Literal["probe", "faithful", "off"]


class Fault(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    tool: str
    mode: FaultMode


def parse_stub(text: str) -> tuple[str, str]:
    """`TOOL=RESULT` or `TOOL=@FILE` (the file's text is the result), as given on the command
    line: the tool's canned result."""
    from masfuzz.errors import MasfuzzError

    tool, sep, result = text.partition("=")
    tool = tool.strip()
    if not sep or not tool:
        raise MasfuzzError(f"--stub {text!r}: expected TOOL=RESULT or TOOL=@FILE")
    if result.startswith("@"):
        try:
            with open(result[1:], encoding="utf-8") as f:
                result = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise MasfuzzError(f"--stub {tool}: cannot read {result[1:]!r} ({exc})") from None
    return tool, result


def parse_stubs(items: "tuple[str, ...] | list[str]") -> dict[str, str]:
    """Every `--stub` given: tool -> canned result (a tool named twice keeps the last)."""
    return dict(parse_stub(item) for item in items)


def surroundings(config: Any) -> dict[str, Any]:
    """What the user set about the system's surroundings (`--stub`, `--run-code`, `--context`)
    in a command's configuration (`masfuzz.options.Config`, parsed there), as the `Scenario`
    fields every scenario of the command carries."""
    if config.context:  # named wrong is bad input, said before anything runs
        from masfuzz.loader import load_callable

        load_callable(config.context, "--context")
    return {"stubs": dict(config.stubs), "run_code": config.run_code, "context": config.context}


class Mutation(BaseModel):
    """A mutant of the workflow (`masfuzz mutate`): one operator and its arguments (agent and tool
    ids, a number), applied by the adapter to the live objects for the length of one run, never
    to the source. Deterministic: the same mutation is the same structural change every run."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    operator: str
    args: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.operator}({', '.join(self.args)})"


class Provenance(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    source: str = "user"  # user | realizer:<criterion> | mutator:<name> | suite | toolfuzz | otel | transcript
    parent: str | None = None
    seed: int | None = None
    attempt: int | None = None


class Scenario(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    format_version: int = SCENARIO_FORMAT_VERSION
    # The user message that starts the run; None only for a black-box command that carries its
    # own task (`masfuzz exec --blackbox "python app.py 'task'"` without --input).
    input: str | None
    sut_model: str | None = None  # default model string for every agent
    agent_models: dict[str, str] = Field(default_factory=dict)  # per-agent overrides
    # Per-agent sampling temperature (FLARE's configuration mutation), applied to every model
    # call the agent makes, whatever the framework.
    temperatures: dict[str, float] = Field(default_factory=dict)
    # An execution nonce, sent as the request seed: re-running a scenario with a new nonce is a
    # new sample, never an answer from the store or the response cache.
    nonce: int | None = None
    # The initial order of the participants (FLARE's sequence): a permutation, or a prefix of one
    # (the rest keep their order); see masfuzz.adapters.ordering.
    speaking_order: tuple[str, ...] = ()
    faults: tuple[Fault, ...] = ()
    # Tools replaced by a canned result (tool -> the text it returns), the user's way to run an
    # app whose tools need keys, paid services or the network. Part of the scenario so that a
    # saved case replays against the same stand-ins. A fault on the same tool wins.
    stubs: dict[str, str] = Field(default_factory=dict)
    # Whether the code executors inside the system run the code its agents write (else a
    # recording stand-in answers and nothing runs); the user's choice, kept for replays too.
    run_code: bool = False
    # The run context the app's server would pass (`--context MODULE:FACTORY`): the factory is
    # named, not its object, so each run (in whichever worker) calls it afresh.
    context: str | None = None
    restricted: RestrictedMode = "probe"
    max_turns: int | None = None
    timeout: float | None = None  # seconds; a run past it is killed and recorded as timeout
    objectives: tuple[str, ...] = ()  # obligation ids this scenario tries to witness
    # The workflow mutant this run executes on (`masfuzz mutate`); None: the target as written.
    mutant: Mutation | None = None
    provenance: Provenance = Provenance()
    extra: dict[str, Any] = Field(default_factory=dict)  # adapter-specific knobs (e.g. stdin)

    # computed once per object (a campaign asks a scenario's id some 25 times per execution): a
    # scenario is frozen, and a copy with changes forgets it (`model_copy`)
    @functools.cached_property
    def id(self) -> str:
        """Content hash: the same scenario always has the same id, across runs and machines."""
        body = self.model_dump(mode="json", exclude={"provenance", "objectives"})
        for key in ("temperatures", "nonce", "stubs", "run_code", "mutant", "context"):  # added later: absent when unset, ids unchanged
            if not body[key]:
                body.pop(key)
        digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
        return "sc-" + digest[:12]

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> "Scenario":
        copied = super().model_copy(update=update, deep=deep)
        if update:
            copied.__dict__.pop("id", None)  # another content, another id
        return copied

    def model_for(self, agent: str) -> str | None:
        return self.agent_models.get(agent, self.sut_model)

    @field_validator("temperatures")
    @classmethod
    def _temperatures_in_range(cls, value: dict[str, float]) -> dict[str, float]:
        for agent, t in value.items():
            if not 0.0 <= t <= 2.0:
                raise ValueError(f"temperature of {agent!r} must be within 0..2, not {t}")
        return value

"""The video team with OpenTelemetry on: AutoGen's own spans, written as OTLP/JSON.

Importing this module does what an app's telemetry setup does: it installs an OpenTelemetry SDK
tracer provider. AgentChat and its runtime then emit their built-in spans (`invoke_agent`,
`execute_tool`, `create_agent` with `gen_ai.*` attributes, and the runtime's `autogen publish` /
`autogen process` message spans); every finished span is encoded by the OTLP exporters' protobuf
encoder and appended to the file named by OTLP_JSON_FILE as one line of OTLP/JSON, the
collector's file exporter format. Without OTLP_JSON_FILE nothing is installed.

    OTLP_JSON_FILE=spans.jsonl masfuzz exec examples/video_team/traced.py:selector_team \
        --input "Make a 30-second video about the water cycle." \
        --sut-model scripted/examples/video_team/policy.py:policy
    masfuzz judge --otel spans.jsonl examples/video_team/team.py:selector_team

Needs opentelemetry-sdk and opentelemetry-exporter-otlp-proto-common (masfuzz's `otel` extra).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from google.protobuf.json_format import MessageToJson
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

from .team import round_robin_team, selector_team

__all__ = ["OtlpJsonLines", "round_robin_team", "selector_team"]


class OtlpJsonLines(SpanExporter):
    """Appends each batch of spans to a file as one OTLP/JSON `ExportTraceServiceRequest` line."""

    def __init__(self, path: str) -> None:
        self.path = path

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        line = MessageToJson(encode_spans(spans), indent=None)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
        return SpanExportResult.SUCCESS


if os.environ.get("OTLP_JSON_FILE"):
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(OtlpJsonLines(os.environ["OTLP_JSON_FILE"])))
    trace.set_tracer_provider(provider)

#!/usr/bin/env bash
# masfuzz's main job on the shipped examples with the embedded local model: no key, no network.
# Sized for the tiny embedded model on 2 cores (seconds to minutes per call): one attempt per
# objective and four fuzzing mutants in the first pass, 20 calls per tool (a sandboxed call takes
# 1-2 s on a loaded machine, 6-11 s at load 22; each tool gets an equal part of the tools phase's
# time, so the second is fuzzed however slow the first), and a wall-time budget over the whole
# command: what the first pass leaves of it, FLARE and the unmet objectives spend.
# No seed tasks from the tester: the seed writer's time comes out of FLARE's share before the
# campaign, and under its JSON grammar the model wrote nothing in the 240 s it had on a loaded
# machine (load 18 on 2 cores; on a quieter one it writes two usable tasks in 1-2 minutes).
# The whole demo, start-up and replay included, ends within DEMO_SECONDS (12 minutes): `run`'s
# budget (its start-up included) is what the inspection left, less REPLAY_SECONDS for the
# campaign's wind-down and reports and the replay (about 30 s, from the model cache the campaign
# filled; cut at the demo's end). The wind-down with the reports took 30-80 s on a loaded machine
# while a model call stopped by the budget read its prompt to its end; since it stops within one
# chunk of it, 20-30 s (load 14-19), and the demo ended 40 s early with 100 s set aside. At load
# 22 it took 138 s, and with 80 s set aside the demo ended 58 s late: 150 s are set aside.
set -euo pipefail
cd "$(dirname "$0")/.."
DEMO_SECONDS=${DEMO_SECONDS:-720}
REPLAY_SECONDS=${REPLAY_SECONDS:-150}
M=${M:-.venv/bin/masfuzz}
APP=examples/customer_service/app.py:triage_agent
OUT=.masfuzz/demo
REPORT=$OUT/report.html
mkdir -p "$OUT"
echo "== 1. The customer-service workflow: spec, coordination graph, obligations"
$M inspect "$APP" --obligations
echo
echo "== 2. One campaign, one budget: stored failures replayed, structural generation, FLARE fuzzing, tool fuzzing"
echo "   (the embedded model is the tester and every agent's model)"
status=0
$M run "$APP" --model local/gemma-3-270m --sut-model local/gemma-3-270m \
  --input "I want to change my seat to 14C, confirmation number ABC123" \
  --attempts 1 --max-turns 6 --rounds 4 --seed-tasks 0 --no-spec-agent --no-judge --calls 20 \
  --budget-time $((DEMO_SECONDS - SECONDS - REPLAY_SECONDS)) \
  --store "$OUT/runs.db" --suite "$OUT/suite.yaml" --report "html:$REPORT" --report text || status=$?
# exit 1 means the campaign found failures (that is its job); 2 or more is an error of the demo
if [ "$status" -gt 1 ]; then exit "$status"; fi
echo
echo "== 3. Replay of the saved suite"
left=$((DEMO_SECONDS - SECONDS))
if [ "$left" -gt 5 ]; then
  timeout "$left" $M replay "$OUT/suite.yaml" || echo "(some witnesses of the local model's runs did not reproduce, or the replay reached the demo's end)"
else
  echo "(no time left for the replay)"
fi
echo
echo "HTML report: $REPORT"
echo "demo: ${SECONDS} s of its ${DEMO_SECONDS} s"

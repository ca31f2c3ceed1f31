#!/usr/bin/env bash
# masfuzz's main job on the shipped examples with the embedded local model: no key, no network.
set -euo pipefail
cd "$(dirname "$0")/.."
M=.venv/bin/masfuzz
echo "== 1. The customer-service workflow: spec, coordination graph, obligations"
$M inspect examples/customer_service/app.py:triage_agent --obligations
echo
echo "== 2. Structural coverage with the embedded model as tester and as the agents' model"
$M cover examples/customer_service/app.py:triage_agent \
  --model local/gemma-3-270m --sut-model local/gemma-3-270m \
  --attempts 1 --max-turns 6 --suite .masfuzz/demo-suite.yaml --store .masfuzz/demo.db
echo
echo "== 3. Replay of the saved suite"
$M replay .masfuzz/demo-suite.yaml || echo "(some witnesses of the local model's runs did not reproduce)"

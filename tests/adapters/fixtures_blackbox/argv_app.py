"""An app that carries its own task: it takes it from its arguments, then passes it through two
agents whose system prompts declare no name."""

import os
import sys

from openai import OpenAI

client = OpenAI()
PLANNER = "You are a careful travel planner.\nPlan the trip step by step."
CHECKER = "Check the plan for mistakes.\nReply with the corrected plan."

task = sys.argv[1]
plan = client.chat.completions.create(model="gpt-4o", messages=[
    {"role": "system", "content": PLANNER}, {"role": "user", "content": task}]).choices[0].message.content
final = client.chat.completions.create(model="gpt-4o", messages=[
    {"role": "system", "content": CHECKER}, {"role": "user", "content": plan}]).choices[0].message.content
print("FINAL:", final)
print("MASFUZZ_INPUT:", os.environ.get("MASFUZZ_INPUT", "<unset>"))
print("stdin:", repr(sys.stdin.read()))

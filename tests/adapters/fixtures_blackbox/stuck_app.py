"""An app that asks the model once and then never exits."""

import time

from openai import OpenAI

OpenAI().chat.completions.create(model="gpt-4o", messages=[
    {"role": "system", "content": "Your name is Looper."}, {"role": "user", "content": "hi"}])
while True:
    time.sleep(1)

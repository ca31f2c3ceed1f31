"""Whose code a run was in when masfuzz's time limit killed it (`masfuzz.exec.stacks`)."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from masfuzz.exec import stacks

LIB = os.path.join(os.path.dirname(os.__file__), "asyncio", "base_events.py")  # the standard library
PROXY = os.path.join(os.path.dirname(stacks.__file__), "..", "llm", "proxy.py")
WORKER = os.path.join(os.path.dirname(stacks.__file__), "worker.py")


def _stack(name, *frames):
    return {"name": name, "frames": [[path, 1, function, ""] for path, function in frames]}


def test_native_dump_is_read_back_to_the_apps_own_frame(tmp_path):
    """faulthandler's dump (the run stuck where Python's handler cannot run) names the app's
    function, and its source line is read from the file."""
    app = tmp_path / "limiter.py"
    app.write_text(
        "import faulthandler, signal, sys, time\n"
        f"faulthandler.register({int(stacks.NATIVE)}, all_threads=True)\n"
        "def wait_out_quota():\n"
        "    print('ready', flush=True)\n"
        "    time.sleep(60)\n"
        "wait_out_quota()\n")
    proc = subprocess.Popen([sys.executable, str(app)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(0.2)
        os.kill(proc.pid, stacks.NATIVE)
        time.sleep(0.5)
    finally:
        proc.kill()
    dump = proc.stderr.read().decode()
    taken = stacks.parse_faulthandler(dump)
    assert taken and taken[0]["frames"][-1][2] == "wait_out_quota", dump
    place = stacks.where(taken)
    assert place.kind == "app" and place.frame[2] == "wait_out_quota"
    words = place.words()
    assert words.startswith("in the app's wait_out_quota (") and words.endswith("limiter.py:5: time.sleep(60))")


def test_a_wait_in_masfuzzs_model_proxy_is_the_models():
    idle_loop = _stack("thread MainThread", (WORKER, "_run"), (LIB, "_run_once"))
    asking = _stack("task Task-2", ("/srv/app/main.py", "main"), (LIB, "run"), (PROXY, "ask"))
    place = stacks.where([idle_loop, asking])
    assert place.kind == "model" and place.words() == "waiting for masfuzz's model proxy to answer"


def test_a_thread_held_in_the_apps_code_comes_before_an_open_model_call():
    held = _stack("thread MainThread", (WORKER, "_run"), (LIB, "_run_once"),
                  ("/srv/app/callbacks.py", "rate_limit_callback"))
    asking = _stack("task Task-3", (PROXY, "ask"))
    assert stacks.where([asking, held]).frame[2] == "rate_limit_callback"


def test_an_idle_event_loop_and_masfuzzs_own_threads_say_nothing():
    idle_loop = _stack("thread MainThread", (WORKER, "_run"), (LIB, "_run_once"))
    inbox = _stack("thread masfuzz-worker-inbox", (LIB, "_bootstrap"), (WORKER, "_read"))
    assert stacks.where([idle_loop, inbox]).kind == ""
    assert stacks.where([]).words() == ""


def test_an_apps_coroutine_awaiting_its_own_sleep_is_named():
    idle_loop = _stack("thread MainThread", (WORKER, "_run"), (LIB, "_run_once"))
    task = _stack("task Task-4", ("/srv/app/agent.py", "throttle"), (LIB, "sleep"))
    place = stacks.where([idle_loop, task])
    assert place.kind == "app" and place.frame[2] == "throttle"


def test_the_python_snapshot_follows_a_coroutines_awaits():
    import asyncio

    async def inner():
        await asyncio.sleep(5)

    async def outer():
        await inner()

    async def main():
        task = asyncio.ensure_future(outer(), loop=asyncio.get_running_loop())
        await asyncio.sleep(0)
        taken = [s for s in stacks.snapshot() if s["name"].startswith("task") and
                 [f[2] for f in s["frames"]][:2] == ["outer", "inner"]]
        task.cancel()
        return taken

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        assert loop.run_until_complete(main())
    finally:
        loop.close()
        asyncio.set_event_loop(None)

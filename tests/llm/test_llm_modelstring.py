import pytest

from masfuzz.errors import ModelError
from masfuzz.llm import get_client, parse_model_string


@pytest.mark.parametrize(
    "text, provider, model, base_url",
    [
        ("scripted/examples/p.py:policy", "scripted", "examples/p.py:policy", None),
        ("scripted/pkg.mod:policy", "scripted", "pkg.mod:policy", None),
        ("local/gemma-3-270m", "local", "gemma-3-270m", None),
        ("local/smollm2-135m", "local", "smollm2-135m", None),
        ("openai/gpt-4.1-mini", "openai", "gpt-4.1-mini", None),
        ("openai-compatible/qwen@http://127.0.0.1:8000/v1", "openai-compatible", "qwen", "http://127.0.0.1:8000/v1"),
        ("litellm/anthropic/claude-3-haiku", "litellm", "anthropic/claude-3-haiku", None),
    ],
)
def test_model_strings_parse(text, provider, model, base_url):
    spec = parse_model_string(text)
    assert (spec.provider, spec.model, spec.base_url) == (provider, model, base_url)


@pytest.mark.parametrize(
    "text",
    [
        "gpt-4",
        "",
        "nope/model",
        "local/llama-70b",
        "scripted/policy.py",
        "openai-compatible/name",
        "openai-compatible/name@ftp://host/v1",
        "openai-compatible/name@http://host:port/v1",
        "litellm/gpt-4o",
        "openai/",
    ],
)
def test_unparsable_model_string_is_one_line_error_naming_it(text):
    with pytest.raises(ModelError) as info:
        get_client(text)
    msg = str(info.value)
    assert "\n" not in msg
    assert repr(text) in msg or (not text and "''" in msg)


def test_credentials_in_a_url_never_reach_the_error_or_base_url():
    spec = parse_model_string("openai-compatible/m@http://user:hunter22@h:1/v1")
    assert spec.base_url == "http://h:1/v1"
    assert "hunter22" not in spec.display
    with pytest.raises(ModelError) as info:
        parse_model_string("openai-compatible/m@http://user:hunter22@h:x/v1")
    assert "hunter22" not in str(info.value)

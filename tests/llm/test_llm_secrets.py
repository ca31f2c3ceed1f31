from masfuzz.redact import redact


def test_keys_headers_env_secrets_and_url_credentials_are_redacted(monkeypatch):
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-0123456789")
    text = (
        "Authorization: Bearer abc.def-123 key sk-proj-abcdef123456 "
        "env tok-0123456789 url http://bob:pw@host/v1 given supersecretvalue"
    )
    out = redact(text, "supersecretvalue")
    for secret in ("abc.def-123", "sk-proj-abcdef123456", "tok-0123456789", "bob:pw", "supersecretvalue"):
        assert secret not in out
    assert "http://host/v1" in out

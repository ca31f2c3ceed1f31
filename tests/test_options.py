"""The option table: every setting works as a flag, a MASFUZZ_* variable and a [tool.masfuzz]
key, with flag > environment > file > default, and every bad value is one line and exit 2."""

import pytest

from masfuzz.cli import build_parser, main
from masfuzz.options import TABLE, UNSET, _parser_for, resolve

ARGV = {"inspect": ["t.py:x"], "exec": ["t.py:x", "--input", "hi"], "cover": ["t.py:x"],
        "replay": ["s.yaml"], "report": [], "tools": ["t.py:x"], "serve": [],
        "models": ["check", "scripted/p.py:policy"], "fuzz": ["t.py:x"], "judge": [], "run": ["t.py:x"],
        "mutate": ["t.py:x"]}
POOL = ["2", "3", "64", "128", "0.5", "1.5", "true", "false", "C1", "C2", "error", "timeout", "a=b", "c=d",
        "a->b", "c->d", "a=error", "c=timeout", "alpha", "beta", "json", "text", "pool", "inprocess", "native", "dspy",
        "probe", "off", "yaml", "dot", "10m", "200x", "flare", "uniform", "1/1", "2/3", "any", "ST",
        "replay", "structural", "plain", "steady", "free",
        "drop_delegation", "lower_turn_limit", "mod:setup", "mod:other"]
BAD = ["abc", "-3", "nan", "0", "99999999999", "maybe", "", "C9", "x"]
CASES = [(s, c) for s in TABLE for c in s.commands]


def _two_values(setting, command):
    from masfuzz.options import _parser_for

    parse = _parser_for(setting, command)
    good = []
    for raw in POOL:
        try:
            value = parse(raw)
        except ValueError:
            continue
        if all(value != v for _, v in good):
            good.append((raw, value))
        if len(good) == 2:
            return good
    pytest.fail(f"no two sample values for {setting.name}")


def _bad_value(setting, command):
    from masfuzz.options import _parser_for

    parse = _parser_for(setting, command)
    for raw in BAD:
        try:
            parse(raw)
        except ValueError:
            return raw
    return None


def _parse(command, *flags):
    argv = [command, *ARGV[command], *flags]
    return build_parser(command).parse_args(argv)


@pytest.mark.parametrize("setting,command", CASES, ids=[f"{c}:{s.name}" for s, c in CASES])
def test_flag_environment_file_default(setting, command):
    (raw1, v1), (raw2, v2) = _two_values(setting, command)
    many = setting.flag_kind == "append"
    flag = [setting.flag] if setting.flag_kind == "switch" else [setting.flag, raw1]
    if setting.flag_kind == "switch":  # a switch given on the command line is True
        v1, raw2, v2 = True, "false", False
    want = lambda v: (v,) if many else v  # noqa: E731
    if setting.name == "budget":  # the configuration's budget is the spec's, with the --budget-* ones
        from masfuzz.options import _budget

        want = lambda v: _budget({"budget": v})  # noqa: E731
    env, project = {setting.env: raw2}, {setting.key: [raw2] if many else raw2}
    ns = resolve(command, _parse(command, *flag), env=env, project=project)
    assert getattr(ns, setting.name) == want(v1)  # flag over environment and file
    ns = resolve(command, _parse(command), env=env, project={setting.key: [raw1] if many else raw1})
    assert getattr(ns, setting.name) == want(v2)  # environment over file
    ns = resolve(command, _parse(command), env={}, project=project)
    assert getattr(ns, setting.name) == want(v2)  # the file over the default
    hosted = {f"MASFUZZ_{name.upper()}": "scripted/p.py:policy" for name in ("model", "sut_model")
              if name != setting.name}  # the embedded model's own defaults: the test below
    ns = resolve(command, _parse(command), env=hosted, project={})
    default = setting.default_for(command)  # parsed as the user's text would be
    if default is not None:
        parse = _parser_for(setting, command)
        default = tuple(map(parse, default)) if many else parse(default)
    assert getattr(ns, setting.name) == (want(default) if setting.name == "budget" else default)
    assert getattr(ns, setting.name) is not UNSET


def test_limits_left_to_their_defaults_grow_with_the_embedded_model():
    ns = resolve("fuzz", _parse("fuzz"), env={}, project={})
    assert ns.sut_model.startswith("local/") and (ns.timeout, ns.model_timeout) == (900.0, 600.0)
    ns = resolve("exec", _parse("exec"), env={"MASFUZZ_SUT_MODEL": "openai/gpt-4.1-mini"}, project={})
    assert (ns.timeout, ns.model_timeout) == (60.0, 120.0)
    ns = resolve("fuzz", _parse("fuzz", "--timeout", "30"), env={}, project={})
    assert (ns.timeout, ns.model_timeout) == (30.0, 600.0)  # what the user set stays
    ns = resolve("tools", _parse("tools"), env={}, project={})
    assert ns.timeout == 10.0  # a tool call's limit, not a run's
    # `run` executes the system as cover and fuzz do: the same rule, the same limits
    for command in ("run", "cover", "fuzz"):
        ns = resolve(command, _parse(command), env={"MASFUZZ_SUT_MODEL": "local/gemma-3-270m"}, project={})
        assert (ns.timeout, ns.model_timeout, ns.workers) == (900.0, 600.0, 1), command
    ns = resolve("run", _parse("run"), env={"MASFUZZ_SUT_MODEL": "openai/gpt-4.1-mini"}, project={})
    assert ns.timeout == 120.0
    ns = resolve("mutate", _parse("mutate"), env={"MASFUZZ_SUT_MODEL": "local/gemma-3-270m"}, project={})
    assert (ns.timeout, ns.mutant_timeout_const, ns.mutant_timeout_factor) == (900.0, 300.0, 2.0)
    ns = resolve("mutate", _parse("mutate", "--mutant-timeout-const", "5"),
                 env={"MASFUZZ_SUT_MODEL": "local/gemma-3-270m"}, project={})
    assert ns.mutant_timeout_const == 5.0


@pytest.mark.parametrize("setting,command", CASES, ids=[f"{c}:{s.name}" for s, c in CASES])
def test_bad_values_are_one_line_and_exit_2(setting, command, capsys, monkeypatch, tmp_path):
    bad = _bad_value(setting, command)
    if bad is None:
        pytest.skip(f"{setting.name} accepts any text")
    monkeypatch.chdir(tmp_path)  # no pyproject.toml of ours above a tmp folder
    attempts = [[setting.flag, bad]] if setting.flag_kind != "switch" else []
    for argv in attempts:
        code = main([command, *ARGV[command], *argv])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and err.startswith("masfuzz: error:"), err
        assert setting.flag in err
    if not (setting.flag_kind == "append" and bad == ""):  # an empty list in a variable is fine
        monkeypatch.setenv(setting.env, bad)
        code = main([command, *ARGV[command]])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and setting.env in err, err
        monkeypatch.delenv(setting.env)
    (tmp_path / "pyproject.toml").write_text(
        f"[tool.masfuzz]\n{setting.key} = {[bad] if setting.flag_kind == 'append' else repr(bad)}\n"
        .replace("'", '"'))
    code = main([command, *ARGV[command]])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and f"[tool.masfuzz] {setting.key}" in err, err


@pytest.mark.parametrize("env,value", [("MASFUZZ_MAX_CONNECTIONS", "abc"),
                                       ("MASFUZZ_MODEL_TIMEOUT", "abc"),
                                       ("MASFUZZ_NO_CACHE", "maybe"), ("MASFUZZ_TIMEOUT", "nan"),
                                       ("MASFUZZ_RETRIES", "-1")])
def test_known_offenders(env, value, cli, monkeypatch):
    monkeypatch.setenv(env, value)
    code, out, err = cli("exec", "t.py:x", "--input", "hi")
    assert code == 2 and err.count("\n") == 1 and env in err


@pytest.mark.parametrize("argv", [
    ["cover", "t.py:x", "--criteria", "C9"], ["cover", "t.py:x", "--timeout", "0"],
    ["cover", "t.py:x", "--timeout", "nan"], ["exec", "t.py:x", "--input", "x", "--max-turns", "-3"],
    ["tools", "t.py:x", "--memory-mb", "-1"], ["serve", "--port", "99999"],
    ["cover", "t.py:x", "--attempts", "0"], ["cover", "t.py:x", "--fail-under", "150"],
    ["cover", "t.py:x", "--faults", "error,explode"], ["exec", "t.py:x", "--input", "x", "--nope"],
    ["exec", "t.py:x"], ["cover"], ["bogus"],
])
def test_silently_accepted_before_now_refused(argv, cli):
    code, out, err = cli(*argv)
    assert code == 2 and err.count("\n") == 1 and err.startswith("masfuzz: error:"), err


def test_unknown_and_malformed_pyproject(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.masfuzz]\nbogus = 1\n")
    code, _, err = cli("report")
    assert code == 2 and "bogus: no such setting" in err
    (tmp_path / "pyproject.toml").write_text("[tool.masfuzz\n")
    code, _, err = cli("report")
    assert code == 2 and "not readable TOML" in err and err.count("\n") == 1
    (tmp_path / "pyproject.toml").write_text('[tool.masfuzz]\nstore = "a.db"\n[tool.masfuzz.report]\nstore = "b.db"\n')
    code, _, err = cli("report")
    assert code == 2 and "b.db: no run store here" in err  # the command's table wins


def test_a_repeatable_options_variable_splits_on_commas_or_on_lines_when_a_value_holds_one():
    ns = resolve("exec", _parse("exec"), env={"MASFUZZ_STUB": "a=1,b=2"}, project={})
    assert ns.stub == ("a=1", "b=2") and ns.stubs == {"a": "1", "b": "2"}
    ns = resolve("exec", _parse("exec"), env={"MASFUZZ_STUB": 'a={"x": [1, 2]}\nb=ok\n'}, project={})
    assert ns.stub == ('a={"x": [1, 2]}', "b=ok")


@pytest.mark.parametrize("command", sorted(set(ARGV) - {"serve", "models"}))  # no API function
def test_the_apis_options_are_the_command_lines(command, monkeypatch):
    """The API resolves its keywords without the CLI's parser (it sits below the CLI): the same
    names and values as the command line's, positionals included (`api.run` and `api.judge`
    took none before)."""
    from masfuzz import api
    from masfuzz.options import POSITIONALS

    monkeypatch.setenv("MASFUZZ_SUT_MODEL", "scripted/p.py:policy")  # not the embedded model's limits
    cli = vars(resolve(command, _parse(command)))
    given = ARGV[command][:1] + ARGV[command][2:3]  # the positionals (and exec's --input)
    keywords = dict(zip(POSITIONALS.get(command, ()), given))
    assert vars(api.options(command, **keywords)) == {k: v for k, v in cli.items() if k != "func"}


def test_a_cli_run_and_an_api_run_of_one_configuration_store_the_same_config(cli, tmp_path, monkeypatch):
    """The CLI builds the configuration from flags, the API from keywords: the same campaign,
    so the same stored config (what a re-run resumes by), parsed values included (the stub,
    the criteria, the fault modes, the user's delegation, the budget), and the same verdict."""
    import json
    import sqlite3

    pytest.importorskip("agents")
    from masfuzz import api
    from tests.generate.test_cover import CS, CS_SUT, TESTER

    flags = {"model": TESTER, "sut_model": CS_SUT, "no_cache": True, "no_check": True,
             "phases": "structural", "criteria": "C1,C2", "faults": "none",
             "stub": ["update_seat=seat changed"], "link": ["FAQ Agent->Seat Booking Agent"],
             "input": ["Change my seat to 3A"], "seed_tasks": 0, "no_judge": True,
             "budget": "2x", "executor": "inprocess"}
    argv = ["run", CS]
    for name, value in flags.items():
        for v in value if isinstance(value, list) else [value]:
            argv += [f"--{name.replace('_', '-')}"] + ([] if v is True else [str(v)])
    code, _, err = cli(*argv, "--store", str(tmp_path / "cli.db"), "--suite", str(tmp_path / "cli.yaml"))
    assert code in (0, 1), err
    analysis = api.run(CS, **flags, store=str(tmp_path / "api.db"), suite=str(tmp_path / "api.yaml"))
    # one verdict for both faces: the API's result carries the CLI's exit status and its lines
    assert analysis.verdict.exit_code == code
    assert all(f"masfuzz: {line}" in err for line in analysis.verdict.lines)

    def stored(db):
        with sqlite3.connect(tmp_path / db) as conn:
            [(config,)] = conn.execute("SELECT config FROM runs").fetchall()
        return json.loads(config)

    config = stored("cli.db")
    assert config == stored("api.db")
    assert config["criteria"] == "C1,C2" and config["faults"] == [] and config["phases"] == [
        "structural"] and config["stubs"] == {"update_seat": "seat changed"}
    assert config["orchestration"]["links"] == ["FAQ Agent->Seat Booking Agent"]


def test_an_unknown_keyword_to_the_api_is_one_error_naming_it():
    from masfuzz import api
    from masfuzz.errors import MasfuzzError

    with pytest.raises(MasfuzzError, match=r"^masfuzz.api.cover: no option 'sut_modle' \(did you "
                                           r"mean 'sut_model'\?\)$"):
        api.cover("t.py:x", sut_modle="scripted/p.py:policy")
    with pytest.raises(MasfuzzError, match=r"^masfuzz.api.exec: no option 'rounds'$"):
        api.exec("t.py:x", "hi", rounds=3)  # fuzz's, not exec's


def test_the_configuration_is_frozen_typed_and_parsed_once():
    import dataclasses

    from masfuzz.options import config_class

    config = resolve("exec", _parse("exec", "--fault", "t=error", "--stub", "t=ok", "--coordinator",
                                    "boss", "--link", "a->b"), env={}, project={})
    assert [(f.tool, f.mode) for f in config.fault] == [("t", "error")] and config.stubs == {"t": "ok"}
    assert config.orchestration.coordinator == "boss" and config.orchestration.links == (("a", "b"),)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.timeout = 5.0
    assert not hasattr(config, "rounds")  # fuzz's setting is no field of exec's configuration
    types = {f.name: f.type for f in dataclasses.fields(config_class("run"))}
    assert (types["workers"], types["criteria"], types["no_check"], types["bind"]) == (
        "int | None", "tuple[str, ...] | None", "bool", "tuple[str, ...]")

"""The OS sandbox of the system under test: where a pool worker runs the user's code.

masfuzz drives agents with adversarial and mutated inputs on purpose, and an app's shell, file
or HTTP tool then acts on whatever machine runs it. So a worker of the pool (`masfuzz.exec.pool`)
confines itself right after it starts, before it reads its first request or imports the target,
with the steps of the tool sandbox (`masfuzz.exec.confine`, which says why each is done by
hand):

- its environment is an allow-list plus `--pass-env` names (no key of masfuzz's or a model's);
  every descriptor but its protocol pipes is closed;
- new user, mount, PID, IPC, UTS and network namespaces: root inside is an unprivileged id
  outside, no process of the machine is visible or signalable, and the network has only the
  worker's own loopback (its model calls go to masfuzz over the protocol pipes: the model
  proxy, `masfuzz.llm.proxy`);
- a root file system of its own: the Python install, masfuzz, the system's programs, the folders
  of the worker's `sys.path` (site-packages, a library's folder) and the target's project (the
  nearest ancestor of its file with a pyproject.toml, setup.py, .git...: `_project_of`), never a
  folder around it (the start folder when it is outside the project, the home folder: `_exposed`),
  all read-only with the dot-files at their top hidden (`.env`, `.git`, `.ssh`,
  the run store and model cache under `.masfuzz`), plus the run store and cache wherever they
  are; a scratch tmpfs (`Limits.disk_mb`) as HOME, TMPDIR and, while the system runs, the
  current folder, holding links to the entries of the folder masfuzz ran in (`_link_entries`);
  the folders the user binds read-write (`--bind PATH`); a fresh /proc;
- no capability, no_new_privs, not dumpable, and the seccomp filter (mount, namespaces, ptrace,
  keyring, modules, io_uring refused);
- hard limits (`Limits`: address space, processes for root too, file size, CPU time a run) and,
  after each run, every other process of its PID namespace killed (`end_strays`) and the
  scratch folder emptied of what the run wrote (`fresh_scratch`); each run is a child process
  forked from the worker (`masfuzz.exec.worker`), so no state of one run reaches the next;
- a run that hits a limit says so (`watch`, `died_of`): which limit, which option raises it,
  and the finding it makes is the settings' (`masfuzz.oracles.attribution`).

The processes: the started worker (outside, leading the process group the pool kills) forks a
process that enters the namespaces, which forks the PID namespace's first process (it builds the
root; when it dies the kernel kills everything inside), which forks the worker that serves. The
serving worker is not that first process, whose signals the kernel filters: a system that kills
or aborts its own process dies of that signal, and its exact status travels back out to the pool.

`--allow-net HOST:PORT` keeps the machine's network namespace for the workers (the kernel's
namespaces have no finer grain without a relay); `--unsafe-no-sandbox` runs the worker as an
ordinary process, said in every report. Where the kernel refuses the namespaces
(`problem()` says why) masfuzz refuses to run the system unless told `--unsafe-no-sandbox`.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from masfuzz.errors import MasfuzzError
from masfuzz.proc import own_folder

PLAN_ENV = "MASFUZZ_SUT_SANDBOX"  # the plan a worker confines itself by, from the pool


@dataclass(frozen=True)
class Limits:
    """The system's resource limits in its sandbox (the commands' --sandbox-* options), hard
    limits set in the serving worker before the target is opened, for root too
    (`masfuzz.exec.confine.sandbox_tasks` says why RLIMIT_NPROC binds uid 0 there)."""
    memory_mb: int = 8192  # address space (RLIMIT_AS) the worker may add to what it holds then
    processes: int = 512  # processes and threads (RLIMIT_NPROC) beyond the worker's own
    cpu_s: int = 300  # CPU seconds (RLIMIT_CPU) a run has
    disk_mb: int = 512  # the scratch tmpfs, and the largest file it may write anywhere (RLIMIT_FSIZE)

    @classmethod
    def of(cls, config: Any) -> "Limits":
        """From a command's configuration (`masfuzz.options.Config`; a command without the
        --sandbox-* options has them unset, and the limits at their defaults)."""
        given = {"memory_mb": config.sandbox_memory, "processes": config.sandbox_processes,
                 "cpu_s": config.sandbox_cpu, "disk_mb": config.sandbox_disk}
        return cls(**{k: v for k, v in given.items() if v is not None})


# Each limit: the option that sets it, the `Limits` field, what it bounds, its unit.
LIMIT_OPTIONS = {
    "memory": ("--sandbox-memory", "memory_mb", "memory a process (in a cgroup, all together) may add", "MB"),
    "processes": ("--sandbox-processes", "processes", "processes and threads the system may start", ""),
    "disk": ("--sandbox-disk", "disk_mb", "scratch space and largest file the system may write", "MB"),
    "cpu": ("--sandbox-cpu", "cpu_s", "CPU seconds a run has", "s"),
}
# What hitting a limit says, in an exception's text as the adapters record it ("MemoryError: ",
# "BlockingIOError: [Errno 11] ...") or on a dying worker's stderr: RLIMIT_AS refuses an
# allocation (ENOMEM, Python's MemoryError, C++'s bad_alloc), RLIMIT_NPROC a fork (EAGAIN) or a
# thread, RLIMIT_FSIZE a write past the largest file (EFBIG), the full scratch tmpfs any write
# (ENOSPC). EAGAIN and ENOSPC have other causes (a non-blocking socket, a full disk of a
# --bind folder): `limit_hits` checks the limit was near.
_HIT_TEXT = {
    "memory": re.compile(r"\bMemoryError\b|\[Errno 12\]|Cannot allocate memory|bad_alloc|[Oo]ut of memory"),
    "processes": re.compile(r"can't start new thread|\[Errno 11\] Resource temporarily unavailable"),
    "disk": re.compile(r"\[Errno 27\]|File too large|\[Errno 28\]|No space left on device"),
}


@dataclass(frozen=True)
class SandboxSettings:
    """What the user said about the system's sandbox (the commands' options)."""
    enabled: bool = True  # False: --unsafe-no-sandbox
    binds: tuple[str, ...] = ()  # --bind PATH: read-write inside
    allow_net: tuple[str, ...] = ()  # --allow-net HOST:PORT: the machine's network stays
    pass_env: tuple[str, ...] = ()  # --pass-env NAME
    hidden: tuple[str, ...] = ()  # files masfuzz keeps (the run store, the model cache)
    code: tuple[str, ...] = ()  # folders of the user's code named by an option (`--context FILE.py:NAME`)
    limits: Limits = Limits()

    @classmethod
    def of(cls, config: Any) -> "SandboxSettings":
        """From a command's configuration (`masfuzz.options.Config`; options the command does
        not have are unset there)."""
        hidden = tuple(str(path) for path in (config.store, config.cache) if path)
        for path in config.bind:
            if not os.path.exists(path):
                raise MasfuzzError(f"--bind {path}: no such file or folder")
            if os.geteuid() == 0 and not config.unsafe_no_sandbox \
                    and not _writable_by_the_sandbox(path):
                from masfuzz.exec import confine

                raise MasfuzzError(
                    f"--bind {path}: the sandbox's user cannot write it: masfuzz runs as root, and root "
                    f"inside the sandbox is uid {confine.SANDBOX_ID} outside (so that no file only root "
                    f"may read is readable); give that user the right first (chown {confine.SANDBOX_ID} "
                    f"{path}, or chmod o+w {path})")
        context = config.context
        return cls(not config.unsafe_no_sandbox, config.bind, config.allow_net, config.pass_env,
                   hidden, tuple(_code_folders(context)) if isinstance(context, str) else (),
                   Limits.of(config))


def _writable_by_the_sandbox(path: str) -> bool:
    """Whether uid/gid `SANDBOX_ID` (what root inside is outside, when masfuzz runs as root) may
    write `path` by its mode bits (a folder: create files in it, so also enter it)."""
    from masfuzz.exec import confine

    st = os.stat(path)
    need = 0o3 if os.path.isdir(path) else 0o2
    if st.st_uid == confine.SANDBOX_ID:
        return (st.st_mode >> 6) & need == need
    if st.st_gid == confine.SANDBOX_ID:
        return (st.st_mode >> 3) & need == need
    return st.st_mode & need == need


@dataclass(frozen=True)
class Plan:
    """What one worker confines itself to (sent in its environment, `PLAN_ENV`)."""
    scratch: str  # an empty folder of the machine's; a tmpfs inside
    code: tuple[str, ...] = ()  # the target's project and the code it imports, read-only
    projects: tuple[str, ...] = ()  # the target's project folders (`_project_of`)
    home: str = ""  # the user's home folder, never readable whole (`_exposed`)
    binds: tuple[str, ...] = ()
    network: bool = False  # keep the machine's network namespace
    pass_env: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    cwd: str = field(default="")
    limits: Limits = Limits()
    # the target's file as named -> its real path (`masfuzz.loader.REAL_PATHS`)
    real_paths: tuple[tuple[str, str], ...] = ()
    cgroup: str = ""  # the memory cgroup the worker enters (`masfuzz.exec.cgroup`; "": none here)
    # folders the agents' programs are given (`programs_of`), shown with their dot-files (a
    # repository's .git is what a git server reads), unless one holds a project of the target's
    whole: tuple[str, ...] = ()

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls, text: str) -> "Plan":
        data = json.loads(text)
        limits = Limits(**data.pop("limits", {}))
        real = tuple(tuple(pair) for pair in data.pop("real_paths", ()))
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}, limits=limits,
                   real_paths=real)


def plan_for(settings: SandboxSettings, target_ref: str, programs: tuple[str, ...] = ()) -> Plan:
    """A worker's plan for `target_ref` (its scratch folder made now; `discard` removes it);
    `programs`: the folders of the programs its agents start (`programs_of`), shown read-only."""
    # masfuzz's own sys.path too: loading the target here may have added the ancestor folder a
    # file's absolute imports need (`masfuzz.loader`, `from examples.x import y` in a script
    # under examples/), which the worker's import of it will need again
    home, cwd = os.path.realpath(os.path.expanduser("~")), os.getcwd()
    projects = tuple(sorted({_project_of(f, home) for f in [*_code_folders(target_ref), *settings.code]}))
    code = _exposed([*projects, *(p for p in sys.path if p and os.path.isdir(p)), cwd, *programs], projects, home)
    from masfuzz.exec import cgroup

    return Plan(own_folder("masfuzz-sut-"), tuple(code), projects, home,
                tuple(os.path.realpath(p) for p in settings.binds), bool(settings.allow_net),
                settings.pass_env, tuple(os.path.realpath(p) for p in settings.hidden), os.getcwd(),
                settings.limits, _real_paths(target_ref, cwd),
                # the scratch tmpfs's pages are charged to the cgroup too: they are --sandbox-disk's
                cgroup.create(settings.limits.memory_mb + settings.limits.disk_mb) or "",
                tuple(os.path.realpath(p) for p in programs if not any(_holds(p, q) for q in projects)))


def programs_of(system: Any) -> tuple[str, ...]:
    """The folders the programs `system`'s agents start need (an MCP server over stdio: its
    virtual environment, the files its command names; `masfuzz.proc.program_folders`), from its
    adapter's tool hook (`masfuzz.adapters.base.discover_tools`). Outside the project they are
    not shown otherwise, and the server would not start in the sandbox ("Server not
    initialized"). A server reached by URL needs the network instead (`--allow-net`)."""
    from masfuzz.adapters.base import discover_tools
    from masfuzz.proc import program_folders

    try:
        found = discover_tools(system.obj, []) or []
    except Exception:  # noqa: BLE001 - the app's own code: its run says what fails
        return ()
    return tuple(folder for item in found if isinstance(item, dict) and item.get("command")
                 for folder in program_folders([str(item["command"]), *map(str, item.get("args") or ())]))


def _real_paths(target_ref: str, cwd: str) -> tuple[tuple[str, str], ...]:
    """A file target as named and where it really is, when the two differ: the sandbox may show
    only the latter (the folder masfuzz ran in lies outside the target's project, or the name
    goes through a link)."""
    from masfuzz.loader import split_target

    where, _ = split_target(target_ref)
    named = os.path.join(cwd, os.path.expanduser(where))
    real = os.path.realpath(named)
    return ((where, real),) if os.path.isfile(named) and where != real else ()


def discard(plan: Plan | None) -> None:
    if plan is not None:
        from masfuzz.exec import cgroup

        shutil.rmtree(plan.scratch, ignore_errors=True)
        cgroup.remove(plan.cgroup)


def _code_folders(target_ref: str) -> list[str]:
    """The folder a file target is imported from (its first ancestor that is no package); a
    module target's, from the file it was found in."""
    from masfuzz.loader import package_root, split_target

    where, _ = split_target(target_ref)
    path = Path(where).expanduser()
    if not path.is_file():
        found = _module_file(where)
        if found is None:
            return []  # a module with no file of its own (a namespace, a built-in)
        path = Path(found)
    path = path.resolve()
    return sorted({str(path.parent), str(package_root(path)[0])})


def _module_file(name: str) -> str | None:
    import importlib.util

    module = sys.modules.get(name)
    if getattr(module, "__file__", None):
        return module.__file__
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None and spec.has_location else None


# What marks a project's top folder: the target's project is readable in the sandbox, the
# folders around it (a home folder's other projects and credentials) are not.
_PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "requirements.txt", ".git")


def _project_of(folder: str, home: str) -> str:
    """The project `folder` (a target's) belongs to: its nearest ancestor holding a project
    file, never the `home` folder or an ancestor of it (a dot-files repository at home is no
    project of the target's); `folder` itself when there is none."""
    here = folder
    while not _holds(here, home):
        if any(os.path.exists(os.path.join(here, name)) for name in _PROJECT_FILES):
            return here
        here = os.path.dirname(here)
    return folder


def _holds(folder: str, path: str) -> bool:
    """Whether `folder` is `path` or one of its ancestors."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _exposed(folders: list[str], projects: tuple[str, ...], home: str) -> list[str]:
    """The user's `folders` the sandbox may show: not one that holds more than the target
    needs, which is a folder holding its project or the home folder (the start folder, a
    home folder of other projects and dot-files, on the path because Python put the current
    folder there). A folder of the Python install or of masfuzz stays, as does one inside the
    project or beside it: a PYTHONPATH library, or the folder masfuzz was started from when it
    holds neither (an app's folder, whose modules a `--context` factory imports by name, as the
    app's server started there does)."""
    system = [os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)]
    out = []
    for folder in dict.fromkeys(os.path.realpath(f) for f in folders):
        if any(_holds(s, folder) for s in system):
            out.append(folder)
        elif _holds(folder, home) or any(_holds(folder, p) and folder != p for p in projects):
            continue
        else:
            out.append(folder)
    return out


def model_refused(model_string: Any, named: frozenset[str], plan: Plan | None) -> str | None:
    """Why masfuzz will not make a model call a sandboxed worker asked for (None: it will). The
    calls are masfuzz's to make, outside the sandbox, so a call is a way out: code of the system
    could write a request of its own onto the worker's channel. A model string the run named
    (`--sut-model`, `--agent-model`: `named`) is made as asked; any other, which the system's
    own code named (a `MasfuzzChatModel(model=...)`), is refused when it would reach an address
    the sandbox does not (a base URL, without `--allow-net`), or run a policy file the sandbox
    could have written (in a `--bind` folder) in masfuzz's own process."""
    from masfuzz.errors import ModelError
    from masfuzz.llm.modelstring import parse_model_string

    if plan is None or (isinstance(model_string, str) and model_string in named):
        return None
    try:
        spec = parse_model_string(model_string)
    except (ModelError, TypeError, AttributeError):
        return None  # the call fails on its own, saying so
    if spec.base_url and not plan.network:
        return (f"model {spec.display}: the system named a model at an address its sandbox does not "
                "reach; name it with --sut-model or --agent-model, or allow the network with --allow-net")
    if spec.provider == "scripted":
        where = _policy_file(spec.model.rpartition(":")[0])
        if where is None or any(_holds(os.path.realpath(b), where) for b in plan.binds):
            return (f"model {spec.display}: a policy the system named that its sandbox could have "
                    "written (a --bind folder's) is not run by masfuzz; name it with --sut-model")
    return None


def _policy_file(name: str) -> str | None:
    """Where a scripted policy's file or module is (its real path), found without importing it;
    None when it is nowhere."""
    if name.endswith(".py") or os.sep in name:
        return os.path.realpath(os.path.expanduser(name))
    top = name.split(".")[0]
    for entry in sys.path:
        for candidate in (os.path.join(entry or ".", top), os.path.join(entry or ".", top + ".py")):
            if os.path.exists(candidate):
                return os.path.realpath(candidate)
    return None


def problem() -> str | None:
    """Why this machine cannot confine a worker (None: it can): the tool sandbox's probe, the
    same kernel features."""
    from masfuzz.toolfuzz.sandbox import isolation_problem

    return isolation_problem()


def check(settings: SandboxSettings) -> None:
    """Bad input when the sandbox is asked for and the kernel refuses it: one line naming the
    way out."""
    if settings.enabled and (why := problem()) is not None:
        raise MasfuzzError(f"the OS sandbox for the system under test is not available here ({why}); "
                           "pass --unsafe-no-sandbox to run it unsandboxed")


# -- in the worker ----------------------------------------------------------------------------
def enter(plan: Plan) -> None:
    """Confine this worker process by `plan`. Returns only in the confined serving worker; the
    process it was called in stays outside, waits, and ends as the serving worker ended."""
    from masfuzz.exec import cgroup, confine

    if plan.cgroup:  # while this process is still itself outside: inside, no cgroup is seen
        cgroup.enter(plan.cgroup)
    confine.close_descriptors([0, 1, 2])
    confine.clean_environment(plan.pass_env)
    sutenv = sys.modules.get("masfuzz.sutenv")
    if sutenv is not None:  # its note of the user's keys, taken when masfuzz's environment was whole
        sutenv._ORIGINAL = {name: os.environ.get(name) for name in sutenv._ORIGINAL}
    lib = confine.libc()
    confine.seccomp()  # imported while the Python install is still where it was
    # the user's folders: their dot-names hidden, and those only their owner may enter copied
    # in when masfuzz runs as root (`Confinement.pack`)
    own = _user_folders(plan)
    conf = confine.Confinement(plan.scratch, plan.limits.disk_mb, _readable(plan), _hidden(plan, own),
                               plan.pass_env, own, writable=list(plan.binds))
    conf.pack()
    # the middle says "namespaces entered" on `ready`, this process "id maps written" on `go`;
    # the namespace's first process sends the serving worker's end on `status`
    ready, go, status = os.pipe(), os.pipe(), os.pipe()
    middle = os.fork()
    if middle == 0:
        for fd in (ready[0], go[1], status[0]):
            os.close(fd)
        _middle(lib, conf, plan, ready[1], go[0], status[1])
        return  # only the serving worker gets here
    for fd in (ready[1], go[0], status[1]):
        os.close(fd)
    if os.read(ready[0], 1) == b"1":
        try:
            confine.write_id_maps(middle)
            os.write(go[1], b"1")
        except OSError as exc:
            print(f"masfuzz worker: writing the user namespace's id maps refused: {exc}", file=sys.stderr)
    os.close(go[1])
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # the serving worker alone holds the protocol pipes: its end is their end
    os.dup2(null, 1)
    _, ended = os.waitpid(middle, 0)
    served = os.read(status[0], 16)
    end_as(int(served) if served.strip().lstrip(b"-").isdigit() else os.waitstatus_to_exitcode(ended))


def _middle(lib: Any, conf: Any, plan: Plan, ready_w: int, go_r: int, status_w: int) -> None:
    from masfuzz.exec import confine

    try:
        confine.die_with_parent(lib)
        if os.geteuid() == 0:
            os.setgroups([])
        confine.enter_namespaces(lib, network=plan.network)  # keep the machine's only when allowed
        sources = conf.open_sources()
        os.write(ready_w, b"1")
        if os.read(go_r, 1) != b"1":
            os._exit(3)
        os.close(ready_w)
        os.close(go_r)
        confine.become_root_inside()
        confine.die_with_parent(lib)
        first = os.fork()
    except OSError as exc:
        print(f"masfuzz worker: the OS sandbox refused: {exc}", file=sys.stderr)
        os._exit(3)
    if first == 0:
        _first(lib, conf, plan, sources, status_w)
        return
    _, status = os.waitpid(first, 0)
    os._exit(0 if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else 3)


def _first(lib: Any, conf: Any, plan: Plan, sources: list[Any], status_w: int) -> None:
    """PID 1 of the namespace: build the root, start the serving worker, pass its status on."""
    from masfuzz.exec import confine

    try:
        confine.die_with_parent(lib)
        confine.build_root(lib, conf, sources)
        for src in sources:
            os.close(src.fd) if src.fd >= 0 else None
        if not plan.network:
            confine.loopback_up()
        serving = os.fork()
    except OSError as exc:
        print(f"masfuzz worker: the OS sandbox refused: {exc}", file=sys.stderr)
        os._exit(3)
    if serving == 0:
        os.close(status_w)
        _serving(lib, plan)
        return  # the one return: this process goes on to serve
    for fd in (0, 1):
        os.dup2(os.open(os.devnull, os.O_RDWR), fd)
    while True:  # reap every orphan until the serving worker ends
        ended = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)  # its limits still readable
        at_limit = ended is not None and ended.si_pid == serving and at_cpu_limit(serving)
        pid, status = os.waitpid(ended.si_pid, 0) if ended is not None else os.wait()
        if pid == serving:
            code = -signal.SIGXCPU if at_limit else os.waitstatus_to_exitcode(status)
            os.write(status_w, str(code).encode())
            os._exit(0)


def at_cpu_limit(pid: int) -> bool:
    """Whether the ended (not yet reaped) process `pid` used up its CPU-time limit: SIGXCPU
    kills it at the soft limit, SIGKILL at the hard one, which is all it gets when the system
    set its soft limit up to the hard one itself."""
    try:
        limits = Path(f"/proc/{pid}/limits").read_text()
        cpu = os.sysconf("SC_CLK_TCK")
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        used = (int(fields[11]) + int(fields[12])) / cpu  # utime, stime (fields 14, 15)
    except (OSError, ValueError, IndexError):
        return False
    for line in limits.splitlines():
        if line.startswith("Max cpu time"):
            soft = line.split()[3]
            return soft.isdigit() and used + 1 > int(soft)  # /proc's clock ticks lag the kernel's count
    return False


def _serving(lib: Any, plan: Plan) -> None:
    from masfuzz.exec import confine

    confine.die_with_parent(lib)
    confine.lock_down(lib)
    _limit(plan.limits)
    # the target is found from the folder masfuzz ran in (a relative path, a module); the
    # system runs in the scratch folder (`running`)
    try:
        os.chdir(plan.cwd)
    except OSError:  # not in the sandbox: a target path relative to it will say so
        os.chdir(plan.scratch)
    for name in ("HOME", "TMPDIR"):
        os.environ[name] = plan.scratch
    tempfile.tempdir = plan.scratch
    _link_entries(plan.cwd, plan.scratch)
    _SCRATCH.append(plan.scratch)
    from masfuzz.loader import REAL_PATHS

    REAL_PATHS.update(plan.real_paths)
    _CWD.append(plan.cwd)
    settled()


def _link_entries(folder: str, scratch: str) -> None:
    """Give the scratch folder, the system's current folder while it runs (`running`), a link to
    each entry of `folder` (the one masfuzz was started from), its dot-names left out: a
    relative read (`open("data/prices.json")`, a prompts/ folder) finds what it finds outside,
    a new file written by a relative path lands in the scratch, and overwriting one of those
    entries fails as the read-only file system it is (`--bind` makes it writable)."""
    try:
        names = os.listdir(folder) if os.path.realpath(folder) != os.path.realpath(scratch) else []
    except OSError:
        return
    for name in names:
        if not name.startswith(".") and not os.path.lexists(os.path.join(scratch, name)):
            with contextlib.suppress(OSError):
                os.symlink(os.path.join(folder, name), os.path.join(scratch, name))


_SCRATCH: list[str] = []  # the confined worker's scratch folder
_SCRATCH_ENTRIES: set[str] = set()  # its paths before the first run (`settled`, `fresh_scratch`)
_CWD: list[str] = []  # the folder masfuzz ran in
_LIMITS: list[Limits] = []  # and its limits


def _limit(limits: Limits) -> None:
    """The serving worker's hard limits but CPU time's (`limit_cpu`)."""
    import resource

    from masfuzz.exec import confine

    confine.hard_limit(resource.RLIMIT_NPROC, confine.sandbox_tasks() + limits.processes)
    # twice: opening the target (importing its framework) may take one share, and `settled`
    # then lowers it to one share above what the opened target holds, each run's own
    confine.hard_limit(resource.RLIMIT_AS, confine.vm_bytes() + 2 * limits.memory_mb * 2**20)
    confine.hard_limit(resource.RLIMIT_FSIZE, limits.disk_mb * 2**20)
    confine.hard_limit(resource.RLIMIT_CORE, 0)
    _LIMITS.append(limits)


def limit_cpu(runs: int = 1) -> None:
    """The confined run's CPU-time limit, set in the process that runs it (forked afresh for
    each run, `masfuzz.exec.worker._apart`, its CPU time counted from zero) once its target is
    open (importing a framework is not a run's share): `cpu_s` from now, then SIGXCPU (the soft
    limit, one second before the hard one's SIGKILL), which the pool names. A process that
    serves `runs` runs (`--persistent`) gets the hard limit of all of them at its first (it can
    only ever be lowered) and each run's own as the soft one."""
    import resource

    if not _LIMITS:
        return
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    if hard == resource.RLIM_INFINITY:
        hard = int(_cpu_used()) + runs * _LIMITS[0].cpu_s + 1
        _CPU_SET[:] = [True]
    elif not _CPU_SET:
        return  # a limit masfuzz did not set: the run's wall clock holds
    end = min(int(_cpu_used()) + _LIMITS[0].cpu_s, hard - 1)
    try:
        resource.setrlimit(resource.RLIMIT_CPU, (end, hard))
    except (ValueError, OSError):
        pass  # an unsupported limit: the run's wall clock still holds


_CPU_SET: list[bool] = []  # whether this process's CPU limit is masfuzz's (`limit_cpu`)


def _cpu_used() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def settled() -> None:
    """The scratch folder as it is now is the runs' start: called once the worker has opened
    its target, since what the target's import and the adapter's preparation wrote there is no
    run's (CrewAI makes its task-output database's folder under HOME as a crew is built, and
    opens it in every run)."""
    if _SCRATCH:
        _SCRATCH_ENTRIES.clear()
        _SCRATCH_ENTRIES.update(_paths_in(_SCRATCH[0]))


def limit_memory() -> None:
    """Once the target is open: each run may add `Limits.memory_mb` of address space to what
    the worker holds now (Python, the framework, the app), not to what it held before it
    imported them (`_limit` left room for that: the hard limit is only ever lowered)."""
    if _LIMITS:
        import resource

        from masfuzz.exec import confine

        confine.hard_limit(resource.RLIMIT_AS, confine.vm_bytes() + _LIMITS[0].memory_mb * 2**20)


def _paths_in(folder: str) -> Iterator[str]:
    """Every path below `folder`, relative to it (a linked folder not entered)."""
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            yield os.path.relpath(os.path.join(top, name), folder)


def fresh_scratch() -> None:
    """After a run, the scratch folder as it was at the runs' start (`settled`): what the run
    wrote there (its current folder, HOME and TMPDIR), at any depth, removed, the links to the
    start folder's entries it removed made again (`_link_entries`). So the next run neither
    sees a new file of this one nor lacks the space it filled; a file there before is kept as
    the run left it."""
    if not _SCRATCH:
        return
    scratch = _SCRATCH[0]
    for top, dirs, files in os.walk(scratch):
        for name in [*dirs, *files]:
            path = os.path.join(top, name)
            if os.path.relpath(path, scratch) in _SCRATCH_ENTRIES:
                continue
            if name in dirs:
                dirs.remove(name)  # not walked into: it goes whole
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(path)
    _link_entries(_CWD[0], scratch)


def end_strays(keep: int | None = None) -> bool:
    """Kill every process of the worker's PID namespace but itself (and the namespace's first
    process, which reaps the orphans, and `keep`, the process serving the next run under
    `--persistent`): what a run started, however it detached, ends with the run, and frees its
    share of the process limit. Only in the confined worker, where kill(-1) reaches nothing
    outside its namespace; False elsewhere."""
    import signal

    if not _SCRATCH or os.getpid() == 1:
        return False
    if keep is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(-1, signal.SIGKILL)
        return True
    spared = {1, os.getpid(), keep}
    for _ in range(10):  # one by one, as the namespace's /proc lists them: one may fork meanwhile
        live = [pid for pid in _namespace_pids() if pid not in spared]
        if not live:
            break
        for pid in live:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    return True


def _namespace_pids() -> Iterator[int]:
    """The processes of this PID namespace not yet dead (a zombie waits for its reaper)."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                    yield int(name)


# -- limit hits -------------------------------------------------------------------------------
def hit(limit: str, limits: Limits, event: int | None = None) -> dict[str, Any]:
    """A run's hit of `limit` (`LIMIT_OPTIONS`), shown by the trace's event `event` (None: the
    run's end), for `trace.SANDBOX_LIMITS`: it says which limit and which setting raises it.
    A runaway (a fork bomb, an unbounded allocation) would pass no sane limit, and one that
    needs a little more than the default would: the user judges which, so it is the settings'
    finding, never the app's."""
    option, name, what, unit = LIMIT_OPTIONS[limit]
    value = getattr(limits, name)
    return {"limit": limit, "event": event,
            "says": f"hit {option} {value} ({what}{f', {unit}' if unit else ''}): masfuzz's sandbox "
                    f"limit, a setting, not the app's defect; raise {option} if the app needs more, "
                    "or judge whether it should need that much"}


def watch(event: Any) -> dict[str, Any] | None:
    """The limit hit `event` shows (`hit`, its event for the pool to fill in), checked as the
    run records it: an error (a tool's, the run's) that names what a limit refuses, while the
    state that makes it the limit's (the processes that used it up, the full scratch folder)
    is still there. None unconfined (`--unsafe-no-sandbox`: there is no limit to hit)."""
    if not _LIMITS:
        return None
    from masfuzz.trace import ErrorEvent, ToolResult

    text = event.payload if isinstance(event, ToolResult) and event.status == "error" else \
        event.message if isinstance(event, ErrorEvent) else ""
    limit = next((k for k, pattern in _HIT_TEXT.items() if pattern.search(text)), None)
    return hit(limit, _LIMITS[0]) if limit is not None and _near(limit, _LIMITS[0], text) else None


def _near(limit: str, limits: Limits, text: str) -> bool:
    """Whether the limit a text names was near enough to be what refused: half the processes
    still running (no thread is refused for another cause), the scratch folder nearly full
    (no file is too large for another cause here)."""
    if limit == "processes" and "thread" not in text:
        return _tasks() * 2 >= limits.processes
    if limit == "disk" and ("[Errno 28]" in text or "No space" in text):
        with contextlib.suppress(OSError):
            disk = os.statvfs(_SCRATCH[0])
            return disk.f_bavail * disk.f_frsize < limits.disk_mb * 2**20 // 10
        return False
    return True


def _tasks() -> int:
    """The processes and threads of this worker's PID namespace (its own /proc)."""
    count = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            count += len(os.listdir(f"/proc/{pid}/task"))
    return count


PEAK_KEY = "peak_memory"  # the worker's note of how much a run that died grew (`peak_note`)


def resident_mb() -> float:
    """This process's resident memory now, in MB (a run's fork starts with it)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return 0.0


def peak_note(usage: Any, resident: float) -> dict[str, Any]:
    """The worker's note, for the pool, of the memory a run's process that died grew by: its
    peak resident memory (the kernel's count, `wait4`'s, its waited-for children's included)
    above what the worker held when it forked it (`resident`)."""
    return {PEAK_KEY: round(max(0.0, usage.ru_maxrss / 1024 - resident), 1)}


def died_of(status: int, stderr: str, plan: Plan | None, grown_mb: float | None = None) -> dict[str, Any] | None:
    """The limit a confined worker that ended with `status` died of, decided from what masfuzz
    saw, never from what the app printed alone: its CPU time (SIGXCPU, `_first`), the memory of
    its cgroup (a SIGKILL the kernel's OOM killer counted, `masfuzz.exec.cgroup`), or memory
    its native code was refused: an allocator's message in its stderr (the app's to write, so
    not enough) from a run that grew by half --sandbox-memory or more (`grown_mb`, the worker's
    `peak_note`). None when none (a signal of the app's own code: its crash), or unconfined.
    So an app that prints "MemoryError" and crashes owns its crash; and native code refused one
    huge allocation, that dies of it with little grown, reads as the app's crash too (`_death`
    says its message named memory)."""
    if plan is None:
        return None
    from masfuzz.exec import cgroup

    if status == -signal.SIGXCPU:
        return hit("cpu", plan.limits)
    if status == -signal.SIGKILL and cgroup.oom_killed(plan.cgroup):
        return hit("memory", plan.limits)
    if status != 0 and said_out_of_memory(stderr) and (grown_mb or 0) * 2 >= plan.limits.memory_mb:
        return hit("memory", plan.limits)
    return None


def said_out_of_memory(text: str) -> bool:
    """Whether `text` names an allocation refused (the app's words: a hint, not a proof)."""
    return bool(_HIT_TEXT["memory"].search(text))


@contextlib.contextmanager
def running() -> Iterator[None]:
    """While the system runs, its current folder is the scratch folder: what it writes to
    relative paths lands there (in the read-only folder masfuzz ran in it would fail, the
    sandbox's doing and not the system's), and what it reads finds the links to that folder's
    entries (`_link_entries`). masfuzz's own relative paths (the target, its code
    coverage root, a scripted model's file) keep meaning what they meant outside."""
    if not _SCRATCH:
        yield
        return
    from masfuzz.loader import paths_relative_to

    before = os.getcwd()
    os.chdir(_SCRATCH[0])
    try:
        with paths_relative_to(before):
            yield
    finally:
        with contextlib.suppress(OSError):
            os.chdir(before)


def end_as(code: int) -> None:
    """End this process as the serving worker ended (a signal's death by that signal)."""
    import signal

    sys.stderr.flush()
    if code < 0:
        with contextlib.suppress(OSError):  # SIGKILL's and SIGSTOP's cannot be set, nor need to
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code if 0 <= code < 256 else 1)


def _readable(plan: Plan) -> list[str]:
    from masfuzz.exec.confine import readable_paths

    return readable_paths(None) + _exposed([*_import_path(), *plan.code], plan.projects, plan.home)


def _import_path() -> list[str]:
    return [p for p in sys.path if p and os.path.exists(p)]


def library_folders(projects: tuple[str, ...]) -> list[str]:
    """The folders on Python's import path a sandbox shows besides the install (`_exposed`): a
    PYTHONPATH library's, an editable install's source, a `.pth` file's folder; never one that
    holds a project of `projects` or the home folder. The tool sandbox's (`masfuzz tools`): a
    tool importing such a library failed every call."""
    here = os.path.realpath(os.getcwd())  # the start folder: the tool's own folder is what it needs
    return [f for f in _exposed(_import_path(), projects, os.path.realpath(os.path.expanduser("~"))) if f != here]


def _user_folders(plan: Plan) -> list[str]:
    """The readable folders that are the user's: the target's project, the current folder when
    it is inside it, those of `sys.path` outside the Python install and masfuzz (`_exposed`)."""
    import masfuzz

    system = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    system.add(os.path.realpath(os.path.dirname(masfuzz.__file__)))
    folders = {p for p in _exposed([*sys.path, *plan.code], plan.projects, plan.home) if os.path.isdir(p)}
    return sorted(f for f in folders if not any(f == q or f.startswith(q + os.sep) for q in system))


def _hidden(plan: Plan, own: list[str]) -> list[str]:
    """The dot-names at the top of the user's folders and the files masfuzz keeps, with their
    SQLite companions."""
    from masfuzz.exec.confine import hidden_names

    kept = [f"{p}{suffix}" for p in plan.hidden for suffix in ("", "-wal", "-shm", "-journal")]
    return hidden_names(f for f in own if f not in plan.whole) + [p for p in kept if os.path.exists(p)]

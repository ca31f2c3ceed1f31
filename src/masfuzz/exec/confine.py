"""Confine a forked worker process: what the sandbox's worker sees of the machine, and what it may
ask the kernel for. The same steps whether masfuzz runs as root or not.

Why by hand and not bubblewrap: a tool is an object in masfuzz's memory (a closure, a framework's
tool with its context, an MCP client session), so its worker is a fork of masfuzz, not a program
a sandboxing tool could start. The steps are bubblewrap's, in the same order:

1. (`Confinement.open_sources`, in the forked process, still the user's) every file the worker
   may read is opened `O_PATH`: the Python install, masfuzz's package, the tool's own source
   folder, the fixture, the system's programs and libraries and a few files of /etc (never
   /etc/shadow, a home folder or the project the tool lives in). Opened before the user
   namespace, so a path under a private folder (a Python under /root) still binds.
2. (`enter_namespaces`) new user, mount, network, IPC, PID and UTS namespaces. The user
   namespace maps root inside to an unprivileged id outside (`SANDBOX_ID` when masfuzz runs as
   root, the user's own id otherwise), written by the parent, which stays outside: the kernel
   then counts the worker's processes against RLIMIT_NPROC (it never does for uid 0), and a
   file only root may read stays unreadable.
3. (`build_root`, in the first process of the new PID namespace) a new root file system: an
   empty tmpfs with those sources bound read-only (`MS_BIND`, then a read-only remount keeping
   the flags the kernel locked), /dev with null, zero, full, random, urandom, a fresh /proc of
   the sandbox's own PID namespace (no process of the machine visible), and the scratch folder
   a tmpfs of `size=` so that a call cannot fill the disk; then `pivot_root` and the old root
   detached, so /proc/N/root of the machine is not even a path.
4. (`lock_down`) every capability dropped (bounding, ambient, effective, permitted,
   inheritable), no_new_privs, not dumpable (no other process of the sandbox may read or write
   its memory through /proc), and a seccomp filter (libseccomp, through pyseccomp) that refuses
   mount and every namespace call: `setns`, `unshare`, `clone` with a namespace flag, `clone3`
   (its flags cannot be inspected: ENOSYS, so the C library falls back to `clone`), `ptrace`
   and the cross-process memory calls, the kernel keyring, module and kexec calls, `bpf`,
   `perf_event_open`, `userfaultfd` and io_uring (whose operations seccomp would not see).
5. (`clean_environment`) an environment made of an allow-list plus the names the user passes
   (`--pass-env`): masfuzz's own keys never enter, the process's initial environment block
   (what /proc/self/environ reads) is zeroed too, and so is every copy of a secret's value in
   the memory the fork started with (`scrub_memory`); the running Python's folder last on
   PATH, so a program started by name (`python`) is found where the user's PATH folder is not
   shown.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SANDBOX_ID = 65534  # nobody/nogroup: what root inside the sandbox is outside, when masfuzz runs as root
# The environment variables a worker keeps (beside those the user passes): how programs are
# found and how text is encoded; never a credential.
ENV_ALLOWED = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "LC_NUMERIC",
               "LC_TIME", "TZ", "TERM", "PYTHONHASHSEED", "PYTHONIOENCODING", "PYTHONUTF8")
# The files of /etc a program needs to run (users' names, the loader's cache, time zone,
# certificates): no shadow file, no SSH or machine keys.
ETC_FILES = ("passwd", "group", "nsswitch.conf", "hosts", "host.conf", "ld.so.cache", "ld.so.conf",
             "ld.so.conf.d", "localtime", "timezone", "ssl", "ca-certificates", "mime.types",
             "os-release", "alternatives", "debian_version", "gai.conf", "protocols", "services")
MAX_PACKED = 256 << 20  # the most of the user's folders copied into a sandbox (see `Confinement.pack`)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
DEVICES = ("null", "zero", "full", "random", "urandom")

_CLONE_NEWNS, _CLONE_NEWCGROUP, _CLONE_NEWUTS = 0x20000, 0x02000000, 0x04000000
_CLONE_NEWIPC, _CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNET = 0x08000000, 0x10000000, 0x20000000, 0x40000000
_CLONE_NEWTIME = 0x80
NAMESPACE_FLAGS = (_CLONE_NEWNS, _CLONE_NEWCGROUP, _CLONE_NEWUTS, _CLONE_NEWIPC, _CLONE_NEWUSER,
                   _CLONE_NEWPID, _CLONE_NEWNET, _CLONE_NEWTIME)
UNSHARED = _CLONE_NEWUSER | _CLONE_NEWNS | _CLONE_NEWNET | _CLONE_NEWIPC | _CLONE_NEWPID | _CLONE_NEWUTS
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC = 1, 2, 4, 8
_MS_REMOUNT, _MS_BIND, _MS_REC, _MS_PRIVATE = 32, 4096, 16384, 1 << 18
_MS_NOATIME, _MS_NODIRATIME, _MS_RELATIME, _MS_STRICTATIME = 1024, 2048, 1 << 21, 1 << 24
_MNT_DETACH = 2
# statvfs f_flag bit -> the mount flag a read-only remount must keep (the kernel locks them in a
# user namespace: dropping one is refused)
_KEPT_FLAGS = {os.ST_NOSUID: _MS_NOSUID, os.ST_NODEV: _MS_NODEV, os.ST_NOEXEC: _MS_NOEXEC,
               os.ST_NOATIME: _MS_NOATIME, os.ST_NODIRATIME: _MS_NODIRATIME,
               os.ST_RELATIME: _MS_RELATIME}
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_CAPBSET_DROP = 1, 4, 24
_PR_SET_NO_NEW_PRIVS, _PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 38, 47, 4
_CAP_VERSION_3 = 0x20080522
# Refused with EPERM whatever their arguments (see the module's docstring).
DENIED_CALLS = ("mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "fsopen",
                "fsmount", "fsconfig", "fspick", "mount_setattr", "setns", "unshare", "ptrace",
                "process_vm_readv", "process_vm_writev", "kcmp", "keyctl", "add_key", "request_key",
                "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
                "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
                "io_uring_register", "open_by_handle_at", "name_to_handle_at", "swapon", "swapoff",
                "reboot", "acct", "quotactl", "syslog", "lookup_dcookie", "personality")


class ConfinementError(OSError):
    """A step of the confinement the kernel refused; the message says which."""


def libc() -> Any:
    lib = ctypes.CDLL(None, use_errno=True)
    lib.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong,
                          ctypes.c_void_p]
    lib.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    lib.syscall.restype = ctypes.c_long
    return lib


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise ConfinementError(err, f"{what} refused: {os.strerror(err)}")


@dataclass
class Source:
    path: str  # where it appears inside, the same path as outside
    fd: int = -1  # an O_PATH descriptor of it (-1: a symbolic link, recreated as `link`)
    is_dir: bool = True
    link: str = ""
    writable: bool = False  # bound read-write (`Confinement.writable`)


@dataclass
class Confinement:
    """What a confined worker sees: read-only sources, a size-limited scratch folder, hidden
    names inside the sources and the environment variables it keeps."""
    scratch: str  # the worker's writable folder (a tmpfs inside, of `scratch_mb`)
    scratch_mb: int
    readable: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)  # paths inside `readable` shown empty
    keep_env: tuple[str, ...] = ()  # names passed from masfuzz's environment (`--pass-env`)
    own: list[str] = field(default_factory=list)  # the user's folders (the tool's, the fixture)
    writable: list[str] = field(default_factory=list)  # bound read-write, as the user asked (`--bind`)
    cgroup: str = ""  # the memory cgroup the worker enters first (`masfuzz.exec.cgroup`; "": none)
    packed: bytes = b""  # those of them the sandbox's user may not read, copied (see `pack`)
    # Keep the machine's network: only for a tool whose server is reached by URL, where the
    # worker holds masfuzz's MCP client and no code of the tool (masfuzz.toolfuzz.mcp)
    network: bool = False

    def pack(self) -> None:
        """When root inside is another id outside (masfuzz runs as root), a folder of the user's
        that only its owner may enter (0700) would be unreadable inside: such a folder is copied
        in (a tar archive in memory, unpacked into the new root) instead of bound. (A private
        file inside a folder others may enter stays private, as for any other user.) Run before
        the namespaces, by the user, who may read them."""
        import io
        import tarfile

        if os.geteuid() != 0:
            return
        copied = [p for p in self.own if not _others_may_enter(p)]
        if not copied:
            return
        hidden = set(self.hidden)
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w") as archive:
            for path in copied:
                archive.add(path, filter=lambda info: None if "/" + info.name in hidden else info)
        if buffer.tell() > MAX_PACKED:
            raise ConfinementError(errno.EFBIG, f"{', '.join(copied)}: only its owner may read it and it holds "
                                   f"more than {MAX_PACKED >> 20} MB to copy into the sandbox; make it "
                                   "readable by others (chmod -R o+rX) to have it bound instead")
        self.packed = buffer.getvalue()
        self.readable = [p for p in self.readable if p not in copied]

    def open_sources(self) -> list[Source]:
        """Open every readable path (O_PATH), parents before what they hold; paths already
        inside another are left to it. Missing paths are skipped."""
        sources: list[Source] = []
        paths = {os.path.abspath(p) for p in self.readable}
        # a link is shown as a link, so what it leads to must be shown too (a project's `.venv`
        # linked to a virtual environment elsewhere: Python's own path names the link)
        paths |= {os.path.realpath(p) for p in paths if os.path.islink(p)}
        for path in sorted(paths, key=lambda p: (p.count(os.sep), p)):
            if any(path.startswith(s.path.rstrip(os.sep) + os.sep) for s in sources if s.fd >= 0):
                continue
            if os.path.islink(path):
                sources.append(Source(path, link=os.readlink(path)))
                continue
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            sources.append(Source(path, fd, stat.S_ISDIR(os.fstat(fd).st_mode)))
        for path in sorted({os.path.abspath(p) for p in self.writable}):  # after, over what they are in
            fd = os.open(os.path.realpath(path), os.O_PATH | os.O_CLOEXEC)  # missing: the caller checked
            sources.append(Source(path, fd, stat.S_ISDIR(os.fstat(fd).st_mode), writable=True))
        return sources


def _others_may_enter(path: str) -> bool:
    """Whether a uid other than the owner may read this file, or list and enter this folder."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True  # gone: nothing to copy
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return mode & need == need


def readable_paths(fixture: str | None) -> list[str]:
    """What every worker reads: the Python install, masfuzz, the fixture, the system's programs
    and libraries (the caller adds the tool's own source folder)."""
    import masfuzz

    python = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
              os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))}
    paths = [*python, str(Path(masfuzz.__file__).resolve().parent), *SYSTEM_DIRS,
             *(f"/etc/{name}" for name in ETC_FILES)]
    if fixture:
        paths.append(os.path.realpath(fixture))
    return paths


def hidden_names(folders: Iterable[str]) -> list[str]:
    """The dot-files and dot-folders at the top of the tool's source folder (.env, .git, a run
    store under .masfuzz): a project's secrets live there, its code does not. Never the Python
    that runs the worker: a project's own virtual environment is a dot-folder at its top
    (`.venv`), and hiding it would hide every installed package."""
    needed = {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, *sys.path) if p}
    hidden = []
    for folder in folders:
        try:
            hidden += [os.path.join(folder, n) for n in os.listdir(folder) if n.startswith(".")]
        except OSError:
            continue
    return [h for h in hidden
            if not any(n == os.path.realpath(h) or n.startswith(os.path.realpath(h) + os.sep) for n in needed)]


def other_threads() -> list[str]:
    """The names of this process's threads but the calling one: Python's name for a Python
    thread, the kernel's (`comm`) for a native one."""
    import threading

    python = {t.native_id: t.name for t in threading.enumerate()}
    own = threading.get_native_id()
    names = []
    for tid in sorted(int(t) for t in os.listdir("/proc/self/task") if int(t) != own):
        try:
            comm = Path(f"/proc/self/task/{tid}/comm").read_text().strip()
        except OSError:
            continue  # ended meanwhile
        names.append(python.get(tid, comm))
    return names


def threads_after_fork() -> list[str]:
    """The threads a child forked from this process now has besides its own (`other_threads`).
    A fork copies only the calling thread, but a library's `os.register_at_fork` hook may start
    one again in the child (OpenTelemetry's batch span processor, which CrewAI imports, restarts
    its exporter there): such a child cannot enter a user namespace (`enter_namespaces`)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            os.write(write, "\n".join(other_threads()).encode()[:4096])
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as answer:
        names = answer.read().decode(errors="replace")
    os.waitpid(pid, 0)
    return names.split("\n") if names else []


def enter_namespaces(lib: Any, network: bool = False) -> None:
    """Unshare every namespace the worker needs (the caller's parent then writes the id maps);
    `network` keeps the machine's network namespace (`Confinement.network`). The kernel enters a
    user namespace only from a single-threaded process (EINVAL otherwise, which names no
    cause): a thread running here is said by name."""
    if others := other_threads():
        raise ConfinementError(errno.EINVAL, (
            "unshare of user/mount/network/IPC/PID/UTS namespaces refused: the process entering "
            f"them runs {len(others)} other thread(s) ({', '.join(others[:8])}), started by code "
            "imported before it (at import, or by an os.register_at_fork hook); the kernel "
            "enters a user namespace only from a single-threaded process"))
    _check(lib.unshare(UNSHARED & ~_CLONE_NEWNET if network else UNSHARED),
           "unshare of user/mount/network/IPC/PID/UTS namespaces")


def loopback_up() -> None:
    """Bring up the loopback of the worker's own network namespace (root inside may): a
    listener of the worker's own (masfuzz's refusal of model clients it did not replace,
    `masfuzz.sutenv`) is then reachable from inside, and still nothing of the machine's."""
    import fcntl
    import socket
    import struct

    siocgifflags, siocsifflags, iff_up = 0x8913, 0x8914, 0x1
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, siocgifflags, request))[1]
        fcntl.ioctl(sock, siocsifflags, struct.pack("16sH14x", b"lo", flags | iff_up))


def write_id_maps(pid: int) -> None:
    """Map root inside `pid`'s new user namespace to an unprivileged id outside. Run by its
    parent, outside that namespace: only there may root choose the id, and anyone else map
    their own."""
    uid, gid = (SANDBOX_ID, SANDBOX_ID) if os.geteuid() == 0 else (os.geteuid(), os.getegid())
    if os.geteuid() != 0:
        Path(f"/proc/{pid}/setgroups").write_text("deny")  # the kernel's condition for the gid map
    Path(f"/proc/{pid}/uid_map").write_text(f"0 {uid} 1\n")
    Path(f"/proc/{pid}/gid_map").write_text(f"0 {gid} 1\n")


def become_root_inside() -> None:
    os.setresgid(0, 0, 0)
    os.setresuid(0, 0, 0)


def die_with_parent(lib: Any) -> None:
    import signal

    lib.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def build_root(lib: Any, conf: Confinement, sources: list[Source]) -> None:
    """A new root file system holding only `sources` (read-only), /dev, a fresh /proc and the
    scratch tmpfs; the old root detached. Must run inside the new PID namespace (/proc is its)."""
    _check(lib.mount(None, b"/", None, _MS_REC | _MS_PRIVATE, None), "making mounts private")
    new = conf.scratch  # the new root is built on top of the scratch folder's path
    _mount_tmpfs(lib, new, f"mode=0755,size={4 + 2 * (len(conf.packed) >> 20)}m")
    if conf.packed:
        _unpack(conf.packed, new)
    for src in sources:
        dest = new + src.path
        if src.fd < 0:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            os.symlink(src.link, dest)
            continue
        if src.writable:
            _bind(lib, f"/proc/self/fd/{src.fd}", dest, src.is_dir)
        else:
            _bind_readonly(lib, f"/proc/self/fd/{src.fd}", dest, src.is_dir)
    for path in conf.hidden:
        dest = new + path
        if os.path.isdir(dest) and not os.path.islink(dest):
            _mount_tmpfs(lib, dest, "mode=0555,size=4k")
        elif os.path.lexists(dest) and not os.path.islink(dest):
            _bind_readonly(lib, "/dev/null", dest, False)
    os.makedirs(new + "/dev", exist_ok=True)
    for name in DEVICES:
        _bind(lib, f"/dev/{name}", f"{new}/dev/{name}", False)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{new}/dev/{name}")
    os.makedirs(new + "/proc", exist_ok=True)
    _check(lib.mount(b"proc", os.fsencode(new + "/proc"), b"proc", _MS_NOSUID | _MS_NODEV | _MS_NOEXEC, None),
           "mounting a /proc of the sandbox's own processes")
    os.makedirs(new + "/tmp", exist_ok=True)
    os.makedirs(new + conf.scratch, exist_ok=True)
    _mount_tmpfs(lib, new + conf.scratch, f"mode=0700,size={max(1, conf.scratch_mb)}m")
    os.chdir(new)
    _check(lib.syscall(_syscall_number("pivot_root"), b".", b"."), "pivot_root into the new root")
    _check(lib.umount2(b".", _MNT_DETACH), "detaching the machine's root")
    os.chdir("/")
    _check(lib.mount(None, b"/", None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | _MS_NOSUID | _MS_NODEV, None),
           "making the new root read-only")


def _unpack(packed: bytes, root: str) -> None:
    import io
    import tarfile

    # masfuzz's own archive (`Confinement.pack`), of the user's own files: trusted as it is
    # (extraction filters exist from Python 3.11.4 on)
    trusted = {"filter": "fully_trusted"} if hasattr(tarfile, "fully_trusted_filter") else {}
    with tarfile.open(fileobj=io.BytesIO(packed)) as archive:
        archive.extractall(root, **trusted)


def _mount_tmpfs(lib: Any, path: str, options: str) -> None:
    os.makedirs(path, exist_ok=True)
    _check(lib.mount(b"tmpfs", os.fsencode(path), b"tmpfs", _MS_NOSUID | _MS_NODEV, options.encode()),
           f"a tmpfs at {path}")


def _bind(lib: Any, source: str, dest: str, is_dir: bool) -> None:
    if is_dir:
        os.makedirs(dest, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if not os.path.lexists(dest):
            os.close(os.open(dest, os.O_CREAT | os.O_WRONLY, 0o444))
    _check(lib.mount(os.fsencode(source), os.fsencode(dest), None, _MS_BIND | _MS_REC, None),
           f"binding {dest}")


def _bind_readonly(lib: Any, source: str, dest: str, is_dir: bool) -> None:
    _bind(lib, source, dest, is_dir)
    for point in [dest, *_mounts_below(dest)]:  # the bind and every mount it brought along
        try:
            kept = os.statvfs(point).f_flag
        except OSError:
            continue
        flags = _MS_REMOUNT | _MS_BIND | _MS_RDONLY
        flags |= sum(v for k, v in _KEPT_FLAGS.items() if kept & k)
        _check(lib.mount(None, os.fsencode(point), None, flags, None), f"making {point} read-only")


def _mounts_below(path: str) -> list[str]:
    prefix = path.rstrip("/") + "/"
    with open("/proc/self/mountinfo", "rb") as fh:
        points = [os.fsdecode(line.split()[4]).replace("\\040", " ") for line in fh if len(line.split()) > 4]
    return [p for p in points if p.startswith(prefix)]


def seccomp() -> Any:
    """pyseccomp, imported while the Python install is still reachable (call it before the
    confinement starts); ConfinementError when it is not installed."""
    try:
        import pyseccomp
    except (ImportError, OSError) as exc:  # OSError: no libseccomp on the machine
        raise ConfinementError(errno.ENOSYS, f"no seccomp binding: install masfuzz[toolfuzz] "
                               f"(pyseccomp) and libseccomp2 ({exc})") from None
    return pyseccomp


def _syscall_number(name: str) -> int:
    lib = seccomp()
    return lib.resolve_syscall(lib.system_arch(), name)


def lock_down(lib: Any) -> None:
    """Drop every capability, forbid gaining privileges, hide this process's memory and load
    the seccomp filter. After this the process can no longer change its own confinement."""
    pyseccomp = seccomp()

    last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    for cap in range(last + 1):
        _check(lib.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0), f"dropping capability {cap}")
    _check(lib.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "clearing ambient capabilities")
    header = (ctypes.c_uint32 * 2)(_CAP_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable (two words each): none
    _check(lib.capset(header, data), "dropping capabilities")
    _check(lib.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    _check(lib.prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0), "making the worker not dumpable")
    f = pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    for name in DENIED_CALLS:
        try:
            f.add_rule(pyseccomp.ERRNO(errno.EPERM), name)
        except OSError:
            continue  # a call this architecture does not have
    for flag in NAMESPACE_FLAGS:
        f.add_rule(pyseccomp.ERRNO(errno.EPERM), "clone", pyseccomp.Arg(0, pyseccomp.MASKED_EQ, flag, flag))
    f.add_rule(pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    f.load()


def hard_limit(kind: int, value: int) -> None:
    """A hard limit (soft = hard): the confined code cannot raise it again (raising a hard
    limit takes CAP_SYS_RESOURCE, dropped by `lock_down`)."""
    import resource

    try:
        _, hard = resource.getrlimit(kind)
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(kind, (value, value))
    except (ValueError, OSError):
        pass  # an unsupported limit on this platform: the wall clock still holds


def vm_bytes() -> int:
    """This process's address space now (what RLIMIT_AS counts)."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def sandbox_tasks() -> int:
    """Tasks (threads) of the sandbox's user now, which RLIMIT_NPROC counts: those of its PID
    namespace plus the process outside it that entered the user namespace.

    Why RLIMIT_NPROC holds for uid 0 here: the kernel counts a process against the limit by
    (user namespace, id), and exempts only the machine's root (and CAP_SYS_ADMIN or
    CAP_SYS_RESOURCE in the initial namespace). Root inside the sandbox is `SANDBOX_ID` (or the
    user's own id) outside, with no capability, in a user namespace of its own: the count is
    this sandbox's processes alone, and the limit binds. (A cgroup's pids.max would too, but a
    writable cgroup is not there on every machine the namespaces are.)"""
    n = 1
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            n += len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            continue
    return n


def clean_environment(keep: Iterable[str]) -> None:
    """Keep only the allow-listed and passed variables, zero the initial environment block, and
    zero every copy of a secret's value the process holds (`scrub_memory`)."""
    from masfuzz.redact import secret_names

    names = set(ENV_ALLOWED) | set(keep)
    # long values only: a copy of a short one ("dev", a column name) is as likely an
    # unrelated string of the process's, which zeroing would break
    secrets = [v for n in secret_names() if n not in names and len(v := os.environ.get(n, "")) >= SCRUBBED_CHARS]
    for name in list(os.environ):
        if name not in names:
            del os.environ[name]  # unsetenv: the C library's copy goes too
    _python_last_on_path()
    _zero_initial_environment()
    scrub_memory(secrets)
    del secrets


def _python_last_on_path() -> None:
    """Put the folder of the Python that runs the system last on PATH. A system or a tool starts
    programs by name (AG2's code executor runs `python`), and the folder PATH finds them in
    outside may be one the sandbox does not show (a pyenv shim under the hidden home): the name
    would not be found inside, a failure of the sandbox's, not the system's. Last, so whatever
    the user's PATH finds inside still comes first, as outside."""
    folder = os.path.dirname(os.path.abspath(sys.executable))
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p]
    if folder not in path:
        os.environ["PATH"] = os.pathsep.join([*path, folder])


_SCRUB_CHUNK = 8 << 20
SCRUBBED_CHARS = 12  # the shortest secret value `scrub_memory` looks for (API keys are longer)


def scrub_memory(values: list[str]) -> int:
    """Zero every copy of `values` in this process's private anonymous memory (Python's heap
    and arenas, the C heap, the stack); how many. The sandboxes' workers are forks of masfuzz
    (the tool's, a warm template's), whose memory holds the key a model client was given and
    the strings the environment was read into: deleting the variables does not remove those.
    Each value is looked for as Python keeps that str (one, two or four bytes a character, by its
    widest) and as UTF-8 (the C library's and `os.environb`'s copies); through a buffer of its
    own, zeroed after, so the search leaves no copy behind."""
    needles: list[bytearray] = []
    for value in values:
        widest = max(map(ord, value), default=0)
        python = "latin-1" if widest < 256 else "utf-16-le" if widest < 65536 else "utf-32-le"
        for encoding in dict.fromkeys(("utf-8", python)):  # one for ASCII
            form = bytearray(value.encode(encoding))
            if form not in needles:
                needles.append(form)
    if not needles:
        return 0
    longest = max(len(n) for n in needles)
    buffer = bytearray(_SCRUB_CHUNK + longest)
    view = (ctypes.c_char * len(buffer)).from_buffer(buffer)
    own = [(ctypes.addressof(view), ctypes.addressof(view) + len(buffer))]
    for needle in needles:
        start = ctypes.addressof((ctypes.c_char * len(needle)).from_buffer(needle))
        own.append((start, start + len(needle)))
    zeroed = 0
    for lo, hi in _anonymous_regions():
        at = lo
        while at < hi:
            size = min(len(buffer), hi - at)
            ctypes.memmove(view, at, size)
            for needle in needles:
                found = buffer.find(needle, 0, size)
                while found >= 0:
                    where = at + found
                    if not any(a <= where < b for a, b in own):
                        ctypes.memset(where, 0, len(needle))
                        zeroed += 1
                    found = buffer.find(needle, found + 1, size)
            at += max(size - longest, 1) if size == len(buffer) else size
    for needle in needles:
        needle[:] = bytes(len(needle))
    buffer[:] = bytes(len(buffer))
    return zeroed


def _anonymous_regions() -> list[tuple[int, int]]:
    """This process's private, readable and writable memory that maps no file (a mapped file
    may end before its mapping, where a read faults)."""
    regions = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            parts = line.split()
            if not parts[1].startswith("rw") or parts[1][3] != "p":
                continue
            if len(parts) > 5 and parts[5] not in ("[heap]", "[stack]"):
                continue
            lo, hi = (int(x, 16) for x in parts[0].split("-"))
            regions.append((lo, hi))
    return regions


def _zero_initial_environment() -> None:
    """The block the process started with, which /proc/PID/environ reads, is memory of its own:
    after a fork it still holds masfuzz's environment."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        start, end = int(fields[-3]), int(fields[-2])  # env_start, env_end (fields 50, 51 of 52)
    except (OSError, ValueError, IndexError):
        return
    if 0 < start < end:
        ctypes.memset(start, 0, end - start)


def close_descriptors(keep: Iterable[int]) -> None:
    """Close every descriptor but `keep` (a run store's, a model client's socket: none is the
    tool's); standard input, output and error point at /dev/null until the worker redirects them."""
    kept = sorted(set(keep))
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        if fd != null and fd not in kept:
            os.dup2(null, fd)
    low = 3
    for fd in kept + [2**20]:
        if fd >= low:
            os.closerange(low, fd)
            low = fd + 1

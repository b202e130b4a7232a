"""A Landlock sandbox for the page kernels that do not hold the store's key.

``hexclass serve`` starts every page kernel without the store's key (all but the
instructor's: :class:`hexclass.classroom.server.SandboxedKernelManager`) as ``python -m
hexclass.classroom.sandbox --hide=<key file> -f <connection file>`` instead of ``python -m
ipykernel_launcher``. This module locks the process in before any page code runs, then
starts ipykernel in the same process:

* **Files**: a Landlock ruleset that allows everything except the paths it is told to
  hide: the store's key file(s), any other ``*.key`` beside them, the Jupyter runtime
  folder (other kernels' connection files and the server's own files; the kernel's own
  connection file stays readable) and ``/dev`` but for the few devices a program needs.
  Landlock rules allow whole hierarchies, so hiding one path means allowing, on each of
  its ancestors, every *other* entry that exists at start (an ancestor itself may only be
  listed). Something created later directly in such an ancestor folder cannot be used
  by this kernel: the SQLite store's ``-wal`` and ``-shm`` are therefore opened before
  locking in (a connection kept open keeps them), and a kernel whose temporary folder
  is such an ancestor uses ``hexclass-kernels-<uid>`` in it instead.
* **Other processes**: a Landlock domain may not ptrace, nor read the memory or the
  environment (``/proc/<pid>/mem``, ``/proc/<pid>/environ``) of, any process outside it:
  not the server, not the instructor's kernel, not another seat's kernel. With ABI 6 it
  may not signal them nor reach their abstract Unix sockets either.
* ``PR_SET_NO_NEW_PRIVS`` (required by Landlock), and when the server runs as root, every
  capability dropped (root's powers are not part of a page's needs).

The system calls are made with :mod:`ctypes` (the ``landlock`` package on PyPI is a
development release without the ABI 6 scopes). References: the kernel's
``Documentation/userspace-api/landlock.rst`` and ``include/uapi/linux/landlock.h``;
landlock_create_ruleset(2), landlock_add_rule(2), landlock_restrict_self(2).

An older kernel without Landlock runs the kernel unsandboxed: the server says so once at
start (:func:`status`).
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat
import sys

HIDE = "--hide="  # the launcher's option naming a path to hide (the store's key file)

# System call numbers: the same on every architecture Landlock supports.
SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1 << 0
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
O_PATH = getattr(os, "O_PATH", 0o10000000)

# Filesystem access rights (landlock.h, LANDLOCK_ACCESS_FS_*).
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6

DEVICES = ("null", "zero", "full", "random", "urandom", "tty", "ptmx", "pts", "shm")


def abi_version() -> int:
    """The kernel's Landlock ABI (0: no Landlock here)."""
    if not sys.platform.startswith("linux"):
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    version = libc.syscall(SYS_CREATE_RULESET, None, ctypes.c_size_t(0), CREATE_RULESET_VERSION)
    return max(0, int(version))


def status() -> str:
    """One line for the server's log: are keyless kernels sandboxed?"""
    abi = abi_version()
    if abi < 1:
        return (
            "hexclass: Landlock is not available on this Linux kernel: seat kernels are NOT "
            "sandboxed (code running in one could read the store's key file and the "
            "server's memory; docs/security-at-rest.md)"
        )
    return (
        f"hexclass: seat kernels run in a Landlock sandbox (ABI {abi}): no key file, "
        "no other process"
    )


def fs_rights(abi: int) -> int:
    """Every filesystem right this ABI knows (so every one is handled, hence denied unless allowed)."""
    rights = (1 << 13) - 1  # ABI 1: EXECUTE .. MAKE_SYM
    if abi >= 2:
        rights |= REFER
    if abi >= 3:
        rights |= TRUNCATE
    if abi >= 5:
        rights |= IOCTL_DEV
    return rights


def file_rights(abi: int) -> int:
    """The rights a rule on a file (not a folder) may carry."""
    return fs_rights(abi) & (EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV)


# --- what to allow ------------------------------------------------------------------------------


def _parts(path: str) -> list[str]:
    """``/a/b/c`` -> ``['/', '/a', '/a/b', '/a/b/c']``."""
    out, cur = ["/"], "/"
    for name in [p for p in path.split("/") if p]:
        cur = os.path.join(cur, name)
        out.append(cur)
    return out


def plan(hide: list[str], keep: list[str] = ()) -> tuple[list[str], list[str]]:
    """(folders that may only be listed, paths allowed with everything beneath them).

    Every proper ancestor of a hidden path is *split*: listable, and each of its entries
    allowed except the branch toward a hidden path, a hidden path itself and any other
    ``*.key`` file. ``keep`` paths are allowed even inside hidden ones (the kernel's own
    connection file, the devices under ``/dev``).
    """
    hidden = {os.path.realpath(p) for p in hide}
    hidden = {p for p in hidden if not any(p.startswith(q.rstrip("/") + "/") for q in hidden)}
    split: set[str] = set()
    for path in hidden:
        split.update(_parts(path)[:-1])
    allowed = []
    for folder in sorted(split):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            entry = os.path.join(folder, name)
            if entry in split or entry in hidden or name.endswith(".key"):
                continue
            allowed.append(entry)
    for path in keep:
        real = os.path.realpath(path)
        if os.path.exists(real) and real not in allowed:
            allowed.append(real)
    return sorted(split), allowed


# --- the system calls ---------------------------------------------------------------------------


class _RulesetAttr(ctypes.Structure):
    _fields_ = [
        ("handled_access_fs", ctypes.c_uint64),
        ("handled_access_net", ctypes.c_uint64),
        ("scoped", ctypes.c_uint64),
    ]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1  # packed in landlock.h
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _check(result: int, what: str) -> int:
    if result < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return result


def restrict(split: list[str], allowed: list[str], abi: int) -> int:
    """Apply the ruleset to this process (and every child it will start). Returns the rules added."""
    libc = ctypes.CDLL(None, use_errno=True)
    handled = fs_rights(abi)
    attr = _RulesetAttr(handled, 0, SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if abi >= 6 else 0)
    size = ctypes.sizeof(_RulesetAttr) if abi >= 6 else 8  # older ABIs know the first field only
    ruleset = _check(
        libc.syscall(SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0),
        "landlock_create_ruleset",
    )
    added = 0
    try:
        rules = [(p, READ_DIR) for p in split] + [(p, None) for p in allowed]
        for path, access in rules:
            added += _add(libc, ruleset, path, access, abi)
        _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
        _check(libc.syscall(SYS_RESTRICT_SELF, ruleset, 0), "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return added


def _add(libc, ruleset: int, path: str, access: int | None, abi: int) -> int:
    """One rule (0 if the path vanished or cannot carry one, e.g. a symbolic link)."""
    try:
        fd = os.open(path, O_PATH | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return 0
    try:
        st = os.fstat(fd)
        if stat.S_ISLNK(st.st_mode):
            return 0  # whatever it points to is allowed (or not) by its own path
        if access is None:
            access = fs_rights(abi) if stat.S_ISDIR(st.st_mode) else file_rights(abi)
        rule = _PathBeneath(access, fd)
        result = libc.syscall(SYS_ADD_RULE, ruleset, RULE_PATH_BENEATH, ctypes.byref(rule), 0)
        if result < 0:
            err = ctypes.get_errno()
            if err in (errno.EBADFD, errno.EINVAL):  # a pseudo-filesystem that takes no rule
                return 0
            raise OSError(err, f"landlock_add_rule({path}): {os.strerror(err)}")
        return 1
    finally:
        os.close(fd)


def drop_capabilities() -> None:
    """As root: keep the user id, lose every capability (and any way to get them back)."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    try:
        with open("/proc/sys/kernel/cap_last_cap") as fh:
            last = int(fh.read())
    except (OSError, ValueError):
        last = 40
    for cap in range(last + 1):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)
    libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [(n, ctypes.c_uint32) for n in ("effective", "permitted", "inheritable")]

    data = (Data * 2)()  # all zero
    _check(libc.capset(ctypes.byref(Header(0x20080522, 0)), data), "capset")


# --- the kernel's start -------------------------------------------------------------------------

_kept: list = []  # what must outlive the start (the SQLite connection that keeps -wal/-shm)


def _hold_sqlite_files(split: set[str]) -> None:
    """Open the SQLite store now if its folder is split, so its -wal and -shm exist (and stay)."""
    location = os.environ.get("HEXCLASS_STORE", "")
    if not location or location.startswith(("postgresql://", "postgres://")):
        return
    path = location[len("sqlite:///") :] if location.startswith("sqlite:///") else location
    path = os.path.realpath(os.path.expanduser(path))
    if os.path.dirname(path) not in split or not os.path.exists(path):
        return
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=10)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # opens -wal and -shm
        _kept.append(conn)  # never closed: closing the last one would delete them
    except sqlite3.Error:
        pass


def _private_tmp(split: set[str]) -> None:
    """A temporary folder of the kernels' own when the usual one is a split folder.

    One folder per OS user, made (0700) before locking in, so it is allowed as a whole;
    a folder of that name that is not ours (or a link) is not used: then one of our own.
    """
    import tempfile

    base = os.path.realpath(tempfile.gettempdir())
    if base not in split:
        return
    path = os.path.join(base, f"hexclass-kernels-{os.getuid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        path = tempfile.mkdtemp(prefix="hexclass-kernel-")
    os.environ["TMPDIR"] = tempfile.tempdir = path


def _ipython_dir(split: set[str]) -> None:
    """IPython's folder made now if missing (a folder made later in a split one is unusable)."""
    path = os.environ.get("IPYTHONDIR") or os.path.expanduser("~/.ipython")
    if os.path.dirname(os.path.realpath(path)) in split:
        os.makedirs(os.path.join(path, "profile_default"), exist_ok=True)


def _holds_common_folders(folder: str) -> bool:
    """Whether ``folder`` is (or holds) the temporary folder or the home folder."""
    import tempfile

    for common in (tempfile.gettempdir(), os.path.expanduser("~")):
        common = os.path.realpath(common)
        if common == folder or common.startswith(folder.rstrip("/") + "/"):
            return True
    return False


def connection_file(argv: list[str]) -> str | None:
    for i, arg in enumerate(argv):
        if arg == "-f" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--f="):
            return arg[4:]
    return None


def lock_in(hide: list[str], argv: list[str]) -> int:
    """Sandbox this process, hiding ``hide`` (0 rules: no Landlock on this kernel)."""
    abi = abi_version()
    if abi < 1:
        return 0  # the server said so once at start
    hide = [p for p in hide if os.path.lexists(p)] + ["/dev"]
    keep = [f"/dev/{name}" for name in DEVICES]
    conn = connection_file(argv)
    if conn:
        keep.append(conn)
        runtime = os.path.dirname(os.path.realpath(conn))  # other kernels' connection files
        if not _holds_common_folders(runtime):
            hide.append(runtime)
    split = set(plan(hide, keep)[0])
    _hold_sqlite_files(split)
    _private_tmp(split)
    _ipython_dir(split)
    split_dirs, allowed = plan(hide, keep)
    drop_capabilities()
    return restrict(split_dirs, allowed, abi)


def launcher_cmd(cmd: list[str], hide: list[str]) -> list[str]:
    """``cmd`` started through this module, hiding ``hide`` (ipykernel runs in the same process)."""
    flags = [f"{HIDE}{path}" for path in hide]
    if len(cmd) >= 3 and cmd[1:3] == ["-m", "ipykernel_launcher"]:
        return [cmd[0], "-m", "hexclass.classroom.sandbox", *flags, *cmd[3:]]
    return [sys.executable, "-m", "hexclass.classroom.sandbox", *flags, "--exec", *cmd]


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    hide = [a[len(HIDE) :] for a in argv if a.startswith(HIDE)]
    argv = [a for a in argv if not a.startswith(HIDE)]
    try:
        lock_in(hide, argv)
    except OSError as exc:  # asked for a sandbox and could not make one: do not run unsandboxed
        print(f"hexclass: cannot sandbox this kernel: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None
    if argv[:1] == ["--exec"]:
        os.execvp(argv[1], argv[1:])
    import runpy

    sys.argv = ["ipykernel_launcher", *argv]
    runpy.run_module("ipykernel_launcher", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()

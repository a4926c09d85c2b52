"""`python -m starpnp ARGS` as its own process, forked from one that has already imported the command.

A fresh interpreter spends most of a small `check` or a refused `build` importing click, pydantic and ReportLab
(0.5 s of 0.6 on a quiet machine, seconds on a loaded one), and the CLI tests start hundreds. Here one server
per test process imports what `python -m starpnp` imports before it reads its arguments, once; each run is a
child forked from it that takes the run's arguments, folder, environment, memory cap and time limit, its stdin
/dev/null and its stdout and stderr to files, then runs starpnp's `__main__` as `python -m starpnp` does and
exits as the interpreter would (a traceback and 1 for an uncaught exception, SystemExit's status otherwise).
What a run prints, its exit status and what it may touch are its own; only the import is shared, so a fault
in importing the command shows in every test at once, as the server fails to start.

The test side: `forked_run(args, cwd, env, timeout, memory_cap)` -> subprocess.CompletedProcess, or
subprocess.TimeoutExpired after the child is killed, as subprocess.run gives them.
"""
from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

STARPNP = [sys.executable, "-m", "starpnp"]


def _exit_status(exit: SystemExit) -> int:
    """The status the interpreter exits with for this SystemExit (a message goes to stderr, status 1)."""
    if exit.code is None:
        return 0
    if isinstance(exit.code, int):
        return exit.code
    print(exit.code, file=sys.stderr)
    return 1


def _child(request: dict) -> None:
    """In the forked child: become the run asked for, run `python -m starpnp`, and exit. Never returns."""
    import resource
    import runpy
    import traceback

    status = 1
    try:
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, request["stdout"], os.O_WRONLY),
                                (2, request["stderr"], os.O_WRONLY)):
            opened = os.open(path, flags)
            os.dup2(opened, fd)
            os.close(opened)
        if request["memory_cap"]:
            resource.setrlimit(resource.RLIMIT_AS, (request["memory_cap"], request["memory_cap"]))
        sys.argv = ["starpnp", *request["args"]]
        sys.path[0] = request["cwd"]  # as `python -m` puts the current folder first
        try:
            runpy.run_module("starpnp", run_name="__main__", alter_sys=True)
            status = 0
        except SystemExit as exit:
            status = _exit_status(exit)
        except BaseException:  # noqa: BLE001 - the interpreter's own last resort: the traceback, status 1
            traceback.print_exc()
        threading._shutdown()  # what the interpreter does at exit: wait for threads, then the exit functions
        atexit._run_exitfuncs()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status & 0xFF)


def serve() -> None:
    """The server: import what `python -m starpnp` imports (starpnp.command's way), then fork a child per
    request line on stdin and answer each with a line: {"status": exit status} or {"timeout": true}."""
    import gc

    gc.disable()
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    import starpnp.command  # noqa: F401
    import starpnp.generator.cli  # noqa: F401
    gc.freeze()
    gc.enable()
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(request)
        deadline = time.monotonic() + request["timeout"]
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                answer = {"status": os.waitstatus_to_exitcode(status)}
                break
            if time.monotonic() > deadline:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                answer = {"timeout": True}
                break
            time.sleep(0.002)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


class _Server:
    """The test process's server, started at its first run; one run at a time."""

    def __init__(self):
        self.process: subprocess.Popen | None = None
        self.lock = threading.Lock()

    def run(self, args: list[str], cwd: Path, env: dict, timeout: float, memory_cap: int | None):
        with self.lock, tempfile.TemporaryDirectory(prefix="starpnp-run-") as folder:
            if self.process is None or self.process.poll() is not None:
                self.process = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE,
                                                stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parent)
                atexit.register(self.process.stdin.close)
            out, err = Path(folder) / "stdout", Path(folder) / "stderr"
            out.touch()
            err.touch()
            request = {"args": args, "cwd": str(cwd), "env": env, "timeout": timeout, "memory_cap": memory_cap,
                       "stdout": str(out), "stderr": str(err)}
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
            assert line, "the starpnp run server stopped (it failed to import the command?)"
            answer = json.loads(line)
            stdout, stderr = out.read_text(), err.read_text()  # as text=True reads a pipe
        command = [*STARPNP, *args]
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired(command, timeout, output=stdout, stderr=stderr)
        return subprocess.CompletedProcess(command, answer["status"], stdout, stderr)


_SERVER = _Server()


def forked_run(args: list[str], cwd: Path | None = None, env: dict | None = None, timeout: float = 120,
               memory_cap: int | None = None) -> subprocess.CompletedProcess:
    """`python -m starpnp ARGS` in `cwd` (this process's folder by default) with `env` (this process's
    environment by default), capped at `memory_cap` bytes of address space, killed after `timeout` s."""
    return _SERVER.run(list(map(str, args)), Path(cwd or os.getcwd()), dict(os.environ if env is None else env),
                       timeout, memory_cap)


if __name__ == "__main__":
    serve()

"""A test hook (tests/test_serve.py): the server's first preheated kernels die as they start.

On ``PYTHONPATH`` with ``HEXCLASS_TEST_DYING="N:SECONDS"``, the ``hexclass serve`` server
launches its first N preheated kernels (with ``HEXCLASS_TEST_DYING_ON_REQUEST=1``: its
first N kernels started for a page's request instead) as a process that exits with status 1 after SECONDS,
without ever answering: what a kernel does when another program took one of its ports
before it could bind it (``ZMQError: Address already in use``). Every other process,
kernels included, is left alone.
"""

import os
import sys

_SPEC = os.environ.get("HEXCLASS_TEST_DYING", "")
_ON_REQUEST = os.environ.get("HEXCLASS_TEST_DYING_ON_REQUEST") == "1"  # not preheated ones
if _SPEC and b"hexclass.classroom.server" in open("/proc/self/cmdline", "rb").read():  # noqa: SIM115
    from hexclass.classroom import server as _server

    _count, _seconds = (float(x) for x in _SPEC.split(":"))
    _launched = [0]
    _original = _server.SandboxedKernelManager.format_kernel_cmd

    def _dying_cmd(self, extra_arguments=None):
        cmd = _original(self, extra_arguments)
        env = (self._launch_args or {}).get("env") or {}
        preheated = env.get("VOILA_PREHEAT") == "True"
        if preheated != _ON_REQUEST and _launched[0] < _count:
            _launched[0] += 1
            return [
                sys.executable,
                "-c",
                f"import time; time.sleep({_seconds}); raise SystemExit(1)",
            ]
        return cmd

    _server.SandboxedKernelManager.format_kernel_cmd = _dying_cmd

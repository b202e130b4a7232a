"""The idle culler and a kernel still starting (seen in a pinned test run's server log).

Jupyter's kernel manager puts a kernel in its table before its start has set
``last_activity``. The culler (every ``cull_interval`` seconds) and the kernels API read
that trait; on jupyter_server's ``ServerKernelManager`` an unset ``last_activity`` raises a
``TraitError``, not the ``AttributeError`` the culler's ``hasattr`` guards against, so a cull
that fell in the window logged a traceback. A kernel being started counts as active now.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from datetime import UTC, datetime, timedelta

from hexclass.classroom.server import HexclassKernelManager, SandboxedKernelManager


def test_a_kernel_not_started_yet_was_last_active_now():
    before = datetime.now(UTC)
    km = SandboxedKernelManager(kernel_name="python3")
    assert before - timedelta(seconds=1) <= km.last_activity <= datetime.now(UTC)


def test_the_culler_passes_over_a_kernel_still_starting_without_an_error():
    manager = HexclassKernelManager(cull_idle_timeout=60)
    manager._kernels["starting"] = SandboxedKernelManager(kernel_name="python3")
    # in a thread of its own: an earlier test of the session may leave this one's loop running
    with concurrent.futures.ThreadPoolExecutor(1) as one:
        one.submit(lambda: asyncio.run(manager.cull_kernel_if_idle("starting"))).result()
    assert "starting" in manager._kernels  # just started: not idle, not culled

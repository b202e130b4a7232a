"""Stopping the server: every kernel stopped on the loop that serves it, and a quiet log.

On ``SIGTERM``, ``SIGINT`` or ``SIGHUP`` the server (``server.HexclassVoila``) asks its
kernel manager to stop everything before its loop stops; this module holds that stop and
the log filter that keeps the pages cut off by it to one line each.
"""

from __future__ import annotations

import asyncio
import logging

from jupyter_core.utils import ensure_async

STOP_WAIT_STARTS = 10.0  # at a stop, kernel starts in flight get this long to finish
CLOSED_STREAM = "Got events for closed stream"
CUT_OFF = ("Error at server while executing cell", "Error occurred while starting new kernel")


async def stop_kernels(km, wait_starts: float) -> None:
    """Stop the pool's refills, let its starts finish (``wait_starts`` s), stop every kernel."""
    km.closing = True
    for watch in (km._sweeper, getattr(km, "_pool_watch", None)):
        if watch is not None:
            watch.stop()
    config = getattr(km, "kernel_pools_config", None) or {}
    for name, pool_config in list(config.items()):
        config[name] = {**pool_config, "pool_size": 0}  # a page taken now starts no refill
    starting = [f for p in (getattr(km, "_pools", None) or {}).values() for f in p]
    starting = [f for f in starting if not f.done()]
    if starting:
        km.log.info("hexclass: waiting for %s kernel start(s) to finish", len(starting))
        await asyncio.wait(starting, timeout=wait_starts)
    for pool in (getattr(km, "_pools", None) or {}).values():
        for fut in pool:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                # the preheat's render fails once its kernel stops: nobody reads it now
                fut.result()["task"].add_done_callback(_read_outcome)
    if getattr(km, "_pools", None):
        km._pools = {}  # Voilà's own shutdown then finds no pool left to wait for
    ids = list(km.list_kernel_ids())
    results = await asyncio.gather(
        *(ensure_async(km.shutdown_kernel(k, now=True)) for k in ids),
        return_exceptions=True,
    )
    for kernel_id, result in zip(ids, results, strict=True):
        if isinstance(result, BaseException):
            km.log.info("hexclass: kernel %s: %s", kernel_id[:8], result)


def _read_outcome(task: asyncio.Future) -> None:
    """Read a finished task's outcome, so asyncio does not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


class CutOffPages(logging.Filter):
    """While the server stops, a page cut off in the middle of its notebook is one line.

    Voilà and nbclient log an error with a traceback when a page's kernel goes away under
    a running cell or before it answered, and zmq warns of a stopped kernel's stream:
    all expected when the server itself stops the kernels.
    """

    def __init__(self, app) -> None:
        super().__init__()
        self.app = app

    def filter(self, record: logging.LogRecord) -> bool:
        km = getattr(self.app, "kernel_manager", None)
        if not getattr(km, "closing", False):
            return True
        if str(record.msg).startswith(CLOSED_STREAM):
            return False  # a stopped kernel's socket had messages left: nothing to act on
        if str(record.msg).startswith(CUT_OFF):
            # the message's own text (a kernel id, "died before replying") is not needed
            record.msg = "hexclass: a page was still running its notebook when the server stopped"
            record.args, record.exc_info, record.exc_text = (), None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True

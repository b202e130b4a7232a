"""``kill -USR1 <server pid>``: where a server that stopped answering is stuck, in its log.

A ``hexclass serve`` server that stops answering pages logs nothing by itself. On SIGUSR1
the server writes to its standard error (the log):

* the stack of every thread (:mod:`faulthandler`, from C: it works even while the event
  loop's thread is blocked inside a call that never returns);
* then, once the event loop runs again, every asyncio task still pending with the line
  each one waits on (a loop that runs but a page that waits shows up here).

The server keeps serving. The browser tests send it to their servers when a test fails
(tests/browser/conftest.py), so a hang met in CI leaves its stacks in the output.
"""

from __future__ import annotations

import asyncio
import faulthandler
import signal
import sys

SIGNAL = signal.SIGUSR1
TASK_FRAMES = 6  # innermost frames per task: enough to see what it awaits


def install() -> None:
    """Dump thread stacks, then pending tasks, on SIGUSR1 (call after the other handlers)."""
    signal.signal(SIGNAL, _tasks_soon)
    faulthandler.register(SIGNAL, file=sys.stderr, all_threads=True, chain=True)


def _tasks_soon(sig, frame) -> None:
    try:
        loop = asyncio.get_running_loop()  # the handler runs on the loop's (main) thread
    except RuntimeError:  # not serving yet, or any more
        return
    loop.call_soon_threadsafe(dump_tasks)


def dump_tasks(out=None) -> None:
    out = out or sys.stderr
    tasks = asyncio.all_tasks()
    out.write(f"hexclass: {len(tasks)} asyncio tasks pending (SIGUSR1)\n")
    for task in tasks:
        task.print_stack(limit=TASK_FRAMES, file=out)
    out.flush()

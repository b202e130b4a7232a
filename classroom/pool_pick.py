"""Which preheated kernel a visitor gets: one that has answered, never one that has died.

Voilà keeps a pool of preheated kernels per page and hands a visitor the pool's first
entry as soon as that kernel's process has been launched (:meth:`VoilaKernelManager.
get_rendered_notebook`). The page's first HTML carries that kernel's id, so once it is
sent the page cannot move to another kernel. A kernel can die between its launch and its
first answer: Jupyter picks its ports and releases them before the kernel binds them, and
another program on the machine may bind one first (ipykernel#412, papermill#511); the
kernel then exits with ``ZMQError: Address already in use``. A page handed such a kernel
showed Voilà's "Running ..." for good (reproduced by taking a kernel's port on purpose).

So the pool's entries are told apart (:func:`pool_state`), a kernel that has answered goes
first (:func:`ready_first`), and before a page takes the first entry it waits until that
kernel has answered or died (:func:`settled`); a dead one leaves the pool
(:meth:`hexclass.classroom.seat_pool.SeatPool.take_live_kernel`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

STARTING = "starting"  # the process is being launched
WARMING = "warming"  # launched; its first answer (kernel_info) has not come yet
READY = "ready"  # it answered; its page's notebook runs in it
DEAD = "dead"  # the launch failed, the kernel never answered, or its process exited
POLL_SECONDS = 0.05


def pool_state(entry: asyncio.Future, exited: Callable[[str], bool]) -> str:
    """Where one pool entry stands; ``exited(kernel_id)`` asks the kernel's process."""
    if not entry.done():
        return STARTING
    if entry.cancelled() or entry.exception() is not None:
        return DEAD
    content = entry.result()
    render = content.get("task")
    if render is not None and render.done() and (render.cancelled() or render.exception()):
        return DEAD  # e.g. "Kernel died before replying to kernel_info"
    if exited(content["kernel_id"]):
        return DEAD
    renderer = content.get("renderer")
    return READY if getattr(renderer, "kernel_started", True) else WARMING


def ready_first(pool: list | None, exited: Callable[[str], bool] = lambda _: False) -> None:
    """Put the best entry at the head of a page's pool: one that answered, else one launched.

    Voilà hands out the pool's first entry and waits for it, even while it is still
    starting and a later one has finished (kernels start several at a time and finish in
    any order on a busy machine). The others keep their order; a dead entry never moves up.
    """
    if not pool:
        return
    states = [pool_state(entry, exited) for entry in pool]
    for wanted in (READY, WARMING):
        if wanted in states:
            best = pool[states.index(wanted)]
            if pool[0] is not best:
                pool.remove(best)
                pool.insert(0, best)
            return


async def settled(
    entry: asyncio.Future, exited: Callable[[str], bool], limit: float = 180.0
) -> str:
    """Wait until a pool entry's kernel has answered or died (at most ``limit`` seconds).

    The kernel's first answer takes a second or so after its launch (imports); its page
    could show nothing useful before it anyway, since the page needs the kernel.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    state = pool_state(entry, exited)
    while state in (STARTING, WARMING) and loop.time() < deadline:
        await asyncio.sleep(POLL_SECONDS)
        state = pool_state(entry, exited)
    return state

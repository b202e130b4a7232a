"""A visitor gets a preheated kernel that is ready before one still starting (issue 30).

Voilà hands out the first kernel of a page's pool and waits for it; on a busy machine a
later one often finishes first (kernels start several at a time).
"""

from __future__ import annotations

import asyncio

from hexclass.classroom.server import ready_first


def test_a_ready_kernel_goes_to_the_head_of_the_pool():
    loop = asyncio.new_event_loop()
    try:
        starting, failed, ready = (loop.create_future() for _ in range(3))
        failed.set_exception(RuntimeError("the kernel died while starting"))
        ready.set_result({"kernel_id": "k3"})
        pool = [starting, failed, ready]
        ready_first(pool)
        assert pool == [ready, starting, failed]  # the others keep their order
        ready_first(pool)
        assert pool == [ready, starting, failed]
        waiting = [starting, failed]  # none ready: Voilà waits for the first, as before
        ready_first(waiting)
        assert waiting == [starting, failed]
        ready_first([])
        ready_first(None)
    finally:
        failed.exception()
        loop.close()

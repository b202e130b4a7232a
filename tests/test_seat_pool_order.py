"""Which preheated kernel a visitor gets (issue 30; classroom/pool_pick.py).

Voilà hands out the first entry of a page's pool and waits for it. On a busy machine a
later entry often finishes first (kernels start several at a time), and an entry whose
kernel died at its start must never be handed out: its page would spin for good.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from hexclass.classroom.pool_pick import (
    DEAD,
    READY,
    STARTING,
    WARMING,
    pool_state,
    ready_first,
    settled,
)


@pytest.fixture
def loop():
    loop = asyncio.new_event_loop()
    yield loop
    loop.close()


def entry(loop, kernel_id, answered=True, render_error=None):
    """A pool entry as Voilà makes it: the kernel id, its renderer and its render task."""
    fut, task = loop.create_future(), loop.create_future()
    if render_error is not None:
        task.set_exception(render_error)
    renderer = SimpleNamespace(kernel_started=answered)
    fut.set_result({"kernel_id": kernel_id, "renderer": renderer, "task": task})
    return fut


def test_each_entry_is_told_apart(loop):
    starting = loop.create_future()
    failed = loop.create_future()
    failed.set_exception(RuntimeError("the launch failed"))
    died = entry(loop, "k3", answered=False, render_error=RuntimeError("Kernel died"))
    gone = entry(loop, "k4")
    assert pool_state(starting, lambda k: False) == STARTING
    assert pool_state(failed, lambda k: False) == DEAD
    assert pool_state(died, lambda k: False) == DEAD
    assert pool_state(gone, lambda k: k == "k4") == DEAD  # its process exited
    assert pool_state(entry(loop, "k5", answered=False), lambda k: False) == WARMING
    assert pool_state(entry(loop, "k6"), lambda k: False) == READY
    failed.exception(), died.result()["task"].exception()


def test_a_kernel_that_answered_goes_first_and_a_dead_one_never(loop):
    starting = loop.create_future()
    dead = entry(loop, "k2", answered=False, render_error=RuntimeError("Kernel died"))
    warming = entry(loop, "k3", answered=False)
    ready = entry(loop, "k4")
    pool = [starting, dead, warming, ready]
    ready_first(pool)
    assert pool == [ready, starting, dead, warming]  # the others keep their order
    ready_first(pool)
    assert pool == [ready, starting, dead, warming]
    pool = [starting, dead, warming]  # none answered: one launched beats one starting
    ready_first(pool)
    assert pool == [warming, starting, dead]
    pool = [dead, starting]  # a dead one is not a candidate: Voilà waits for the first
    ready_first(pool)
    assert pool == [dead, starting]
    ready_first([])
    ready_first(None)
    dead.result()["task"].exception()


def test_settled_waits_for_the_first_answer_or_the_death(loop):
    async def scenario():
        warming = entry(asyncio.get_running_loop(), "k1", answered=False)
        renderer = warming.result()["renderer"]
        asyncio.get_running_loop().call_later(0.2, setattr, renderer, "kernel_started", True)
        assert await settled(warming, lambda k: False) == READY
        exited = set()
        dying = entry(asyncio.get_running_loop(), "k2", answered=False)
        asyncio.get_running_loop().call_later(0.2, exited.add, "k2")
        assert await settled(dying, exited.__contains__) == DEAD
        never = entry(asyncio.get_running_loop(), "k3", answered=False)
        assert await settled(never, lambda k: False, limit=0.2) == WARMING  # gives up

    loop.run_until_complete(scenario())

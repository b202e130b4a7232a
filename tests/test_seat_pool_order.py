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
from hexclass.classroom.seat_pool import SeatPool


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


class FakePools:
    """What ``take_live_kernel`` uses of the kernel manager, with Voilà's pop and refill."""

    def __init__(self, loop, pool):
        self.loop, self._pools, self.exited, self.stopped, self.refills = (
            loop,
            {"p": pool},
            set(),
            [],
            0,
        )
        self.log = SimpleNamespace(warning=lambda *a: None)

    def has_exited(self, kernel_id):
        return kernel_id in self.exited

    def _stop_soon(self, kernel_id, why, now=False):
        self.stopped.append(kernel_id)

    def fill_if_needed(self, delay=None, notebook_name=None):
        self.refills += 1
        fresh = entry(self.loop, f"fresh{self.refills}", answered=False)
        self.loop.call_later(0.1, setattr, fresh.result()["renderer"], "kernel_started", True)
        self._pools["p"].append(fresh)

    async def take(self):
        """``_Recorder.get_rendered_notebook``: pick, then Voilà pops the head at once."""
        await SeatPool.take_live_kernel(self, "p")
        return self._pools["p"].pop(0).result()["kernel_id"]


def test_a_page_never_takes_a_kernel_that_died_before_answering(loop):
    async def scenario():
        here = asyncio.get_running_loop()
        dying = entry(here, "dying", answered=False)
        fake = FakePools(here, [dying])
        here.call_later(0.1, fake.exited.add, "dying")  # the port was taken: it exits
        assert await fake.take() == "fresh1"  # waited for, instead of the dead one
        assert fake.stopped == ["dying"] and fake.refills == 1

    loop.run_until_complete(scenario())


def test_pages_that_wait_together_each_get_a_live_kernel_of_their_own(loop):
    async def scenario():
        here = asyncio.get_running_loop()
        pool = [entry(here, f"k{i}", answered=False) for i in range(4)]
        for i, e in enumerate(pool):  # they answer in reverse order
            here.call_later(0.05 * (4 - i), setattr, e.result()["renderer"], "kernel_started", True)
        fake = FakePools(here, pool)
        got = await asyncio.gather(*(fake.take() for _ in range(4)))
        assert sorted(got) == ["k0", "k1", "k2", "k3"]  # none twice, none replaced
        assert fake.refills == 0 and fake.stopped == []

    loop.run_until_complete(scenario())

"""The seat pool of ``hexclass serve``: preheated seat kernels that follow the class.

A mixin of :class:`hexclass.classroom.server.HexclassKernelManager` (its traits
``seat_pool_min``, ``seat_pool_max``, ``pool_burst``, ``console_warm_seats``,
``console_warm_for`` and ``store_path`` are set there), on top of Voilà's pool manager:

* the preheated seat kernels are as many as the store's running games have seats without
  a live page, counted again as soon as the store file changes (:meth:`SeatPool.
  wanted_seat_pool`), grown a few at a time (:meth:`SeatPool.resize_seat_pool`);
* a seat page that takes a kernel lowers the pool's size first, so Voilà's refill starts a
  kernel only for a seat the pool does not cover (:meth:`SeatPool.before_seat_taken`);
* a page takes a pool kernel that has answered, never one that died at its start
  (:meth:`SeatPool.take_live_kernel`, :mod:`hexclass.classroom.pool_pick`).
"""

from __future__ import annotations

import time

from jupyter_core.utils import ensure_async

from hexclass.classroom.gate import INSTRUCTOR, SEAT
from hexclass.classroom.kernel_setup import open_seats, store_stamp
from hexclass.classroom.pool_pick import DEAD, ready_first, settled

STORE_CHECK_SECONDS = 5.0  # the seats are counted again at least this often


class SeatPool:
    """The seat-pool methods of the server's kernel manager."""

    def watch_seat_pool(self) -> None:
        """Between two sweeps: a class just created gets its seat kernels at once."""
        try:
            self.resize_seat_pool()
        except Exception as exc:  # noqa: BLE001 - a store hiccup must not stop the watch
            self.log.debug("hexclass: cannot size the seat pool: %s", exc)

    def resize_seat_pool(self) -> None:
        """Keep as many preheated seat kernels as seats of running games lack a live page.

        The pool grows by at most ``pool_burst`` kernels starting at once, so creating a
        class does not start thirty kernels in the same second on a two-core machine.
        """
        pools = getattr(self, "_pools", None)
        config = getattr(self, "kernel_pools_config", None)
        if self.closing or pools is None or config is None or SEAT not in config:
            return
        want = self.wanted_seat_pool()
        pool = pools.get(SEAT, [])
        starting = sum(1 for f in pool if not f.done())
        size = min(want, len(pool) + max(0, self.pool_burst - starting))
        if len(pool) > want + self.pool_burst:  # hysteresis: no churn as pages come and go
            ready = [f for f in pool if f.done() and not f.exception()]
            for fut in ready[: len(pool) - want]:
                pool.remove(fut)
                self._stop_soon(fut.result()["kernel_id"], "the seat pool shrank")
            size = want
        if config[SEAT].get("pool_size") != size:
            config[SEAT] = {**config[SEAT], "pool_size": size}
            self.log.info("hexclass: seat pool set to %s (wanted %s)", size, want)
        if len(pool) < size:
            self.fill_if_needed(delay=0, notebook_name=SEAT)

    async def take_live_kernel(self, page: str, tries: int = 3) -> None:
        """Before a visitor takes ``page``'s first preheated kernel: one that answered.

        Waits until the pool's best entry has answered or died (:mod:`hexclass.classroom.
        pool_pick`); a dead one (up to ``tries``) is stopped and replaced, the next waited for.
        """
        pool, deaths = getattr(self, "_pools", {}).get(page), 0
        while deaths < tries:
            ready_first(pool, self.has_exited)
            if not pool:
                return
            head = pool[0]
            if await settled(head, self.has_exited) != DEAD:
                if pool and pool[0] is head:
                    return  # no await from here to Voilà's pop: the visitor gets it
                continue  # another page took it meanwhile: choose again
            deaths += 1
            if head in pool:
                pool.remove(head)
            if head.done() and not head.cancelled() and head.exception() is None:
                self._stop_soon(head.result()["kernel_id"], "it died unanswered", now=True)
            self.log.warning("hexclass: a preheated %s kernel died before its page took it", page)
            self.fill_if_needed(delay=0, notebook_name=page)

    async def start_answering_kernel(self, start, tries: int = 3) -> str:
        """A kernel started on request (a page without a preheat pool), once it answered.

        ``start()`` starts one and returns its id. A kernel that dies before its first
        answer (Jupyter's port race: another program took a port it was given) is
        stopped and started again, up to ``tries`` times; else Voilà's renderer fails in
        a task of its own and the page's request stays open for ever.
        """
        for attempt in range(1, tries + 1):
            kernel_id = await start()
            if attempt == tries or await self.answers(kernel_id):
                return kernel_id
            self.log.warning("hexclass: a kernel started for a page died before answering")
            if kernel_id in self:  # the death watcher may have stopped it already
                await ensure_async(self.shutdown_kernel(kernel_id, now=True))
        return kernel_id

    async def answers(self, kernel_id: str, timeout: float = 120.0) -> bool:
        """Whether the kernel answered its first request; a slow one still alive counts.
        One the death watcher has stopped already (gone from the manager) did not."""
        if kernel_id not in self:
            return False
        client = self.get_kernel(kernel_id).client()
        client.start_channels()
        try:
            await ensure_async(client.wait_for_ready(timeout=timeout))
            return True
        except RuntimeError:  # it died, or it has not answered yet
            if kernel_id not in self:
                return False
            return await ensure_async(self.get_kernel(kernel_id).is_alive())
        finally:
            client.stop_channels()

    def wanted_seat_pool(self, taking: int = 0) -> int:
        """Seats of running games minus seat pages served, within the configured bounds.

        The seats are counted again as soon as the store file changes (a class just
        created is warmed within ``STORE_WATCH_SECONDS``, before its links are handed
        out) and at least every ``STORE_CHECK_SECONDS``. An instructor console opened
        in the last ``console_warm_for`` seconds warms ``console_warm_seats`` for the
        class it is about to create: that many seats, less the seat pages served since.
        ``taking`` counts pages about to be handed a kernel as served already.
        """
        now = time.monotonic()
        if self.store_path:
            stamp = store_stamp(self.store_path)  # before counting: a write between shows next
            if stamp != self._store_stamp or now - self._seats_checked > STORE_CHECK_SECONDS:
                self._seats, self._store_stamp = open_seats(self.store_path), stamp
                self._seats_checked = now
        served = self.served_pages(SEAT) + taking
        free = self._seats - served
        consoles = [k for k, page in self._page.items() if page == INSTRUCTOR]
        if any(now - self._born.get(k, -1e9) < self.console_warm_for for k in consoles):
            free = max(free, self.console_warm_seats - served)
        return max(self.seat_pool_min, min(self.seat_pool_max, free))

    def before_seat_taken(self) -> None:
        """Size the seat pool for the page about to take a kernel from it.

        Voilà refills a pool to its configured size the moment a visitor takes a kernel.
        Right after *Create* that refill started one kernel per opened seat, on the same
        cores as the pages being drawn, although the pool already held a kernel for every
        seat still to come. Lowering the size first (never raising it) means a kernel
        starts only for seats the pool does not cover.
        """
        config = getattr(self, "kernel_pools_config", None)
        if not config or SEAT not in config:
            return
        want = self.wanted_seat_pool(taking=1)
        if want < config[SEAT].get("pool_size", 0):
            config[SEAT] = {**config[SEAT], "pool_size": want}
            self.log.info("hexclass: seat pool set to %s (a seat page takes a kernel)", want)

    def served_pages(self, page: str) -> int:
        """Kernels of ``page`` handed to a visitor (open, or still loading in the browser)."""
        data = getattr(self, "notebook_data", None) or {}
        ids = set(data.get(page, {}).get("kernel_ids", ()))
        ids |= {k for k, p in self._page.items() if p == page}
        return sum(
            1 for k in ids if k in self and k not in self._stopping and not self.is_pooled(k)
        )

"""The Voilà server behind ``hexclass serve``: Voilà plus a kernel lifecycle fit for a class.

``hexclass serve`` (:mod:`hexclass.classroom.serve`) runs this module in a child process
(``python -m hexclass.classroom.server ...`` with Voilà's own options) and supervises it. On top of
Voilà it adds:

* **A page closed gives its kernel back.** Voilà asks for the shutdown from the page's
  ``beforeunload`` with a beacon that carries the ``_xsrf`` cookie, but Voilà never sets
  that cookie, so the request fails with 403 (voila#1458). The render handler here sets
  it. A beacon is not guaranteed (a crashed tab, a dropped network, a laptop lid), so the
  server also shuts a kernel down itself when the last browser websocket to it has been
  closed for ``Hexclass.reload_grace`` seconds; a reloaded page gets a new kernel anyway.
* **Kernels no browser ever connected to** (a ``curl`` of a seat link, a page whose
  browser vanished while it rendered) are culled by Jupyter's own culler after
  ``Hexclass.cull_after`` seconds idle with no connection; preheated kernels waiting in
  the pool are never culled (Voilà's pool manager skips them).
* **A page kernel that dies is not restarted** into a kernel without a page (Jupyter's
  auto-restart is off): it is shut down, its websocket closes and the page shows its
  "connection lost" banner.
* **A preheated kernel that died at its start is never handed out** (a port another
  program took first): a page waits for its pool kernel's first answer, or its replacement
  (:mod:`hexclass.classroom.pool_pick`).
* **The seat pool follows the class**: the preheated seat kernels are as many as the
  store's running games have seats without a live page (between ``seat_pool_min`` and
  ``seat_pool_max``), counted again as soon as the store file changes, so a class just
  created has its kernels starting before its links are handed out; an instructor
  console that opens warms ``console_warm_seats`` for the class it will create; a
  seat page that takes a kernel lowers the pool's size first, so Voilà's refill starts
  a kernel only for a seat the pool does not cover (:mod:`hexclass.classroom.seat_pool`).
* ``/`` redirects to the home page; ``/hexclass/api/status`` (loopback only) reports the
  kernel counts and PIDs; one log line per kernel started or stopped, with the counts.
* **Nothing for free on an open network** (:mod:`hexclass.classroom.gate`, ``docs/security.md``):
  the instructor key, seat tokens checked before a kernel starts, kernel budgets, kernel
  endpoints only for the page that started the kernel, no listings, no tracebacks.
* SIGTERM, SIGINT and SIGHUP stop every kernel (the pool's starts in flight finish first)
  while the serving loop still runs, then the loop: quietly, nothing left behind.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import secrets
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime

import tornado.web
import tornado.websocket
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.handlers import KernelHandler
from jupyter_server.services.kernels.kernelmanager import (
    AsyncMappingKernelManager,
    ServerKernelManager,
)
from traitlets import Bool, Float, Integer, Type, Unicode, default
from traitlets.config import Config
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.contentshandler import VoilaContentsHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
from voila.tornado.treehandler import TornadoVoilaTreeHandler

from hexclass.classroom import gate as G
from hexclass.classroom import kernel_log, sandbox, server_stop, stack_dump
from hexclass.classroom.gate import HOME, SEAT
from hexclass.classroom.kernel_setup import (
    _SEAT_STORE,  # noqa: F401 - the seat role's URLs; a test sets one here
    kernel_env,
    key_files,
    page_of,
    prepare_store,
)
from hexclass.classroom.page_render import RenderClient, share_compiled_templates
from hexclass.classroom.seat_pool import SeatPool

STATUS_PATH = "/hexclass/api/status"
STORE_WATCH_SECONDS = 0.5  # the store file is looked at (a stat) this often


class HexclassKernelManager(SeatPool, AsyncMappingKernelManager):
    """Kernels that live exactly as long as a browser page needs them.

    Voilà's pool manager (``VoilaKernelManager``) is built on top of this class, so its
    pool logic runs first and calls down here to start and stop kernels.
    """

    reload_grace = Float(
        10.0,
        config=True,
        help="seconds a kernel outlives the last websocket of its page (a network blip)",
    )
    sweep_interval = Float(2.0, config=True, help="seconds between two lifecycle checks")
    store_path = Unicode("", config=True, help="the co-op store (to size the seat pool)")
    seat_pool_min = Integer(2, config=True, help="preheated seat kernels at least")
    seat_pool_max = Integer(30, config=True, help="preheated seat kernels at most")
    pool_burst = Integer(4, config=True, help="pool kernels starting at the same time, at most")
    console_warm_seats = Integer(
        30, config=True, help="seat kernels kept ready after an instructor console opens"
    )
    console_warm_for = Float(
        900.0, config=True, help="seconds after a console opens that those seats stay warm"
    )

    @default("store_path")
    def _store_from_env(self):
        return os.environ.get("HEXCLASS_STORE", "")  # a PostgreSQL URL is not on the command line

    @default("kernel_manager_class")
    def _sandboxed_kernels(self):
        return "hexclass.classroom.server.SandboxedKernelManager"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._born: dict[str, float] = {}
        self._page: dict[str, str] = {}
        self._orphaned_at: dict[str, float] = {}
        self._stopping: set[str] = set()
        self._sweeper = None
        self._seats = 0
        self._seats_checked = -1e9
        self._store_stamp = None
        self.started_total = 0
        self.stopped_total = 0
        self.claims: dict[str, str] = {}  # kernel id -> the page's claim (hexclass.classroom.gate)
        self.query_keys: dict[str, str] = {}  # kernel id -> its /voila/query key

    # --- start and stop, one log line each ----------------------------------------------------
    async def _async_start_kernel(self, **kwargs):
        query_key = secrets.token_urlsafe(24)  # only this kernel may read its visitor's request
        env = kwargs["env"] = {**kernel_env(kwargs.get("env")), G.QUERY_KEY_ENV: query_key}
        kwargs["stderr"] = subprocess.PIPE  # read by kernel_log: a stop's traceback is one line
        kernel_id = await super()._async_start_kernel(**kwargs)
        self.own_group_guard(kernel_id)
        self._forward_stderr(kernel_id)
        self.query_keys[kernel_id] = query_key
        self._born[kernel_id] = time.monotonic()
        self._page[kernel_id] = page_of(env)
        self.started_total += 1
        self.log.info(
            "hexclass: kernel started %s pid %s for %s; %s",
            kernel_id[:8],
            self.pid_of(kernel_id),
            self._page[kernel_id],
            self.counts_text(),
        )
        self._start_sweeper()
        return kernel_id

    start_kernel = _async_start_kernel

    def _forward_stderr(self, kernel_id: str) -> None:
        """The kernel's standard error on to the server's, quietly at a stop (kernel_log)."""
        process = getattr(self.get_kernel(kernel_id).provisioner, "process", None)
        if process is not None and process.stderr is not None:
            stream = io.TextIOWrapper(process.stderr, errors="replace")
            kernel_log.forward_in_thread(stream, kernel_id[:8], _to_stderr)

    def own_group_guard(self, kernel_id: str) -> None:
        """Signal a kernel's own process group only, never the server's.

        Jupyter signals a kernel's process group (an interrupt, then a kill when stopped
        at once), read once right after the launch. On a busy machine it was seen to hold
        the server's own group: stopping that kernel killed the server (exit -9) and left
        the other kernels running. The group is read again here; if it is the server's,
        signals go to the kernel's process alone.
        """
        prov = getattr(self._kernels.get(kernel_id), "provisioner", None)
        pid = getattr(prov, "pid", None)
        if prov is None or pid is None or not hasattr(prov, "pgid"):
            return
        try:
            group = os.getpgid(pid)
        except OSError:  # exited already
            group = None
        prov.pgid = None if group == os.getpgrp() else group

    async def _async_shutdown_kernel(self, kernel_id, now=False, restart=False):
        pid = self.pid_of(kernel_id)
        self.own_group_guard(kernel_id)
        if not restart:
            self.claims.pop(kernel_id, None)  # a page closing frees its place at once
        try:
            result = await super()._async_shutdown_kernel(kernel_id, now=now, restart=restart)
        except tornado.web.HTTPError as exc:
            if exc.status_code != 404:
                raise
            # a pool kernel still starting when the server stops: it is not registered yet,
            # and its process is stopped with the server's process group
            self.log.info("hexclass: kernel %s was still starting; not shut down", kernel_id[:8])
            return None
        if not restart:
            self._forget(kernel_id)
            self.stopped_total += 1
            self.log.info(
                "hexclass: kernel stopped %s pid %s; %s", kernel_id[:8], pid, self.counts_text()
            )
        return result

    shutdown_kernel = _async_shutdown_kernel

    def remove_kernel(self, kernel_id):
        self._forget(kernel_id)
        return super().remove_kernel(kernel_id)

    def _forget(self, kernel_id: str) -> None:
        for table in (self._born, self._page, self._orphaned_at, self.claims, self.query_keys):
            table.pop(kernel_id, None)
        self._stopping.discard(kernel_id)

    async def stop_dead_kernels(self) -> None:
        """A kernel whose process died is shut down, not restarted (its page state is gone).

        ``hexclass serve`` turns Jupyter's auto-restart off: a restarted kernel would have
        none of its page's widgets, so the page would look alive and do nothing. Stopped,
        its websocket closes and the page shows its "connection lost" banner.
        """
        for kernel_id in list(self.list_kernel_ids()):
            km = self._kernels.get(kernel_id)
            if km is None or kernel_id in self._stopping or not km.has_kernel:
                continue
            if not await ensure_async(km.is_alive()):
                self.log.warning("hexclass: kernel %s died", kernel_id[:8])
                self._stop_soon(kernel_id, "its process died", now=True)

    # --- connections ----------------------------------------------------------------------------
    def notify_connect(self, kernel_id):
        super().notify_connect(kernel_id)
        self._orphaned_at.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id):
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0:
            self._orphaned_at[kernel_id] = time.monotonic()

    # --- the periodic sweep -------------------------------------------------------------------
    def _start_sweeper(self) -> None:
        if self._sweeper is None:
            from tornado.ioloop import PeriodicCallback

            self._sweeper = PeriodicCallback(self.sweep, 1000 * self.sweep_interval)
            self._sweeper.start()
            self._pool_watch = PeriodicCallback(self.watch_seat_pool, 1000 * STORE_WATCH_SECONDS)
            self._pool_watch.start()

    async def sweep(self) -> None:
        """Stop kernels whose page has gone; keep the seat pool sized for the class."""
        now = time.monotonic()
        for kernel_id, since in list(self._orphaned_at.items()):
            if self._kernel_connections.get(kernel_id, 0) > 0:
                self._orphaned_at.pop(kernel_id, None)
            elif now - since >= self.reload_grace:
                self._orphaned_at.pop(kernel_id, None)
                self._stop_soon(kernel_id, "its page closed")
        await self.stop_dead_kernels()
        try:
            self.resize_seat_pool()
        except Exception as exc:  # noqa: BLE001 - a store hiccup must not stop the sweep
            self.log.warning("hexclass: cannot size the seat pool: %s", exc)

    def _stop_soon(self, kernel_id: str, why: str, now: bool = False) -> None:
        if kernel_id in self._stopping or kernel_id not in self:
            return
        self._stopping.add(kernel_id)
        self.log.info("hexclass: stopping kernel %s: %s", kernel_id[:8], why)

        async def stop():
            try:
                await ensure_async(self.shutdown_kernel(kernel_id, now=now))
            except Exception as exc:  # noqa: BLE001 - already gone
                self.log.debug("hexclass: kernel %s: %s", kernel_id[:8], exc)
            finally:
                self._stopping.discard(kernel_id)

        asyncio.ensure_future(stop())

    # --- stopping the server ------------------------------------------------------------------
    closing = False

    async def stop_everything(self, wait_starts: float) -> None:
        """Stop every kernel on the loop that serves them (``SIGTERM``, ``SIGINT``, ``SIGHUP``).

        Voilà stops its kernels after the serving loop has stopped, on a loop of its own: a
        pool kernel still starting then never finishes (its process is left for the
        supervisor to kill) and a preheated page still running its notebook is cut off
        mid-cell. Here the pool stops refilling first, the starts in flight finish (for at
        most ``wait_starts`` seconds) and every kernel is then stopped at once: a page
        kernel holds nothing the store has not saved.
        """
        await server_stop.stop_kernels(self, wait_starts)

    def starting_count(self) -> int:
        """Pool kernels whose start has begun and not finished."""
        pools = (getattr(self, "_pools", None) or {}).values()
        return sum(1 for pool in pools for f in pool if not f.done())

    # --- counts ---------------------------------------------------------------------------------
    def is_pooled(self, kernel_id: str) -> bool:
        for pool in (getattr(self, "_pools", None) or {}).values():
            for fut in pool:
                if fut.done() and not fut.exception() and fut.result()["kernel_id"] == kernel_id:
                    return True
        return False

    def pooled_count(self) -> int:
        return sum(len(p) for p in (getattr(self, "_pools", None) or {}).values())

    def pid_of(self, kernel_id: str):
        """The PID of a kernel's process (also of one that has exited: for the log lines)."""
        try:
            km = self.get_kernel(kernel_id)
        except (KeyError, tornado.web.HTTPError):  # unknown, or still starting
            return None
        prov = getattr(km, "provisioner", None)
        return getattr(prov, "pid", None) or getattr(getattr(prov, "process", None), "pid", None)

    def has_exited(self, kernel_id: str) -> bool:
        """Whether a started kernel's process is gone, asked of the process itself.

        The sweep notices a dead kernel only every ``sweep_interval`` seconds, and a kernel
        being shut down stays listed until its cleanup ends; this answers at once (polling
        the ``Popen`` also reaps a killed process). A kernel still starting has not exited.
        """
        if kernel_id not in self._born:
            return False
        prov = getattr(self._kernels.get(kernel_id), "provisioner", None)
        process = getattr(prov, "process", None)
        return process is None or process.poll() is not None

    def live_kernel_ids(self) -> list[str]:
        """Kernels whose process runs (or is still starting); the sweep stops the others."""
        return [k for k in list(self.list_kernel_ids()) if not self.has_exited(k)]

    def counts(self) -> dict:
        ids = self.live_kernel_ids()
        connected = sum(1 for k in ids if self._kernel_connections.get(k, 0) > 0)
        return {
            "kernels": len(ids),
            "preheated": self.pooled_count(),
            "starting": self.starting_count(),
            "with_page": connected,
            "connections": sum(max(0, self._kernel_connections.get(k, 0)) for k in ids),
            "started_total": self.started_total,
            "stopped_total": self.stopped_total,
        }

    def counts_text(self) -> str:
        c = self.counts()
        return (
            f"{c['kernels']} kernels ({c['preheated']} preheated, {c['with_page']} with an open "
            f"page), {c['started_total']} started and {c['stopped_total']} stopped so far"
        )


class SandboxedKernelManager(ServerKernelManager):
    """One kernel: started through :mod:`hexclass.classroom.sandbox` when it has no key for the store."""

    client_factory = Type(RenderClient, klass=AsyncKernelClient, config=True)

    @default("last_activity")
    def _active_from_the_start(self):
        # Jupyter lists a kernel before its start sets last_activity; read unset, the trait
        # raises TraitError, which the idle culler's hasattr() does not catch (a traceback
        # in the log when a cull falls in that window). A kernel being started is active.
        return datetime.now(UTC)

    def format_kernel_cmd(self, extra_arguments=None):
        from hexclass.classroom.sessions.sealed import KEYLESS_ENV

        cmd = super().format_kernel_cmd(extra_arguments)
        env = (self._launch_args or {}).get("env") or {}
        if not env.get(KEYLESS_ENV):
            return cmd  # the instructor's kernel
        return sandbox.launcher_cmd(cmd, key_files())


def _to_stderr(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


class _Recorder:
    """The kernel manager as a render handler sees it: the kernel it gets is bound at once."""

    def __init__(self, km, handler: RenderHandler) -> None:
        self._km, self._handler = km, handler

    def __getattr__(self, name):
        return getattr(self._km, name)

    async def start_kernel(self, *args, **kwargs):
        kernel_id = await self._km.start_answering_kernel(
            lambda: ensure_async(self._km.start_kernel(*args, **kwargs))
        )
        self._handler.bind(kernel_id)
        return kernel_id

    async def get_rendered_notebook(self, notebook_name, *args, **kwargs):
        await self._km.take_live_kernel(notebook_name)
        if notebook_name == SEAT:
            self._km.before_seat_taken()
        result = await self._km.get_rendered_notebook(notebook_name, *args, **kwargs)
        self._handler.bind(result[2])
        return result


class RenderHandler(TornadoVoilaHandler):
    """Voilà's page handler, gated (:mod:`hexclass.classroom.gate`), that also sets ``_xsrf``.

    Before any kernel starts it checks the page (a hexclass page or a lesson), the
    instructor key, a seat page's token and the kernel budgets; a refused request gets a
    small page of its own and no kernel. The kernel the page gets is bound to it: the
    response sets the page's cookie for that kernel id only.

    The ``_xsrf`` cookie (voila#1458): the page's ``beforeunload`` beacon posts its value
    to ``/voila/api/shutdown/<kernel>``; without it the server answers 403 and the kernel
    of a closed page lives on.
    """

    _claim: str | None = None
    _bound: str | None = None

    @property
    def kernel_manager(self):
        return _Recorder(self.settings["kernel_manager"], self)

    @property
    def gate(self) -> G.Gate:
        return self.settings["hexclass_gate"]

    @tornado.web.authenticated
    async def get(self, path=None):
        claim = self.admit(path or "")
        if claim is None:
            return
        self.xsrf_token  # noqa: B018 - reading it sets the cookie
        self._claim = claim
        self.gate.pending[claim] += 1
        try:
            async for html in self.get_generator(path=path):
                self.write(html)
                self.flush()
        finally:
            if self._bound is None:
                self.gate.pending[claim] -= 1

    def bind(self, kernel_id: str) -> None:
        """This request's page got ``kernel_id``: count it against its claim, set its cookie."""
        km = self.settings["kernel_manager"]
        if self._bound is None and self._claim is not None:
            self.gate.pending[self._claim] -= 1
        self._bound = kernel_id
        km.claims[kernel_id] = self._claim or "free"
        value = self.gate.page_secret(kernel_id)
        for name, prefix in (
            (G.PAGE_COOKIE, "/api/kernels/"),
            (G.STOP_COOKIE, "/voila/api/shutdown/"),
        ):
            self.set_cookie(name, value, path=prefix + kernel_id, httponly=True, samesite="Strict")

    def admit(self, path: str) -> str | None:
        """The page's claim, or None after answering the refusal itself."""
        if path not in G.PAGES and not G.LESSON.fullmatch(path):
            return self.answer(404, G.refusal("Not found", "There is no such page here."))
        if path == G.INSTRUCTOR:
            if not self.gate.cookie_ok(self.get_cookie(G.KEY_COOKIE)):
                return self.answer(403, G.key_form(self, self.request.uri))
            return "instructor"
        if getattr(self.settings["kernel_manager"], "closing", False):
            text = "The server is stopping; try again once it is back."
            return self.answer(503, G.refusal("The server is stopping", text))
        claim = "free"
        if path == G.SEAT:
            claim = self.seat_claim(self.get_query_argument("token", ""))
            if claim is None:
                return None
        limit = self.gate.limit(claim)
        km = self.settings["kernel_manager"]
        if limit is not None and self.gate.in_use(km, claim) >= limit:
            wait = G.retry_after(km)
            self.set_header("Retry-After", str(wait))
            if claim == "free":
                text = (
                    "The server is busy: every page it may start for visitors is in use. "
                    f"Try again in {wait} s."
                )
                return self.answer(503, G.refusal("The server is busy", text))
            text = (
                f"This seat is already open in {limit} pages. Close the other page, or "
                f"try again in {wait} s."
            )
            return self.answer(429, G.refusal("This seat is already open", text))
        return claim

    def seat_claim(self, token: str) -> str | None:
        try:
            info = self.gate.lookup(token)
        except Exception as exc:  # noqa: BLE001 - said in plain words, logged in full
            self.log.warning("hexclass: the store cannot check a seat link: %s", exc)
            text = "The class store cannot be used just now; try again in a minute."
            return self.answer(503, G.refusal("The class store is not available", text))
        if info is None:
            text = (
                "This link has no token; ask your instructor for your link."
                if not token
                else "No seat has this link's token; check the link you were given."
            )
            return self.answer(403, G.refusal("This seat link does not work", text))
        if info.kind != "seat":
            text = "This is the instructor's link: it opens the instructor console, not a seat."
            return self.answer(403, G.refusal("This seat link does not work", text))
        return f"seat:{token}"

    def answer(self, status: int, page: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(page)
        return None


def _page_allowed(handler, kernel_id: str | None = None, cookie: str = G.PAGE_COOKIE) -> bool:
    """The request carries the cookie the kernel's page got (the kernel id from the path)."""
    if kernel_id is None:
        kernel_id = handler.path_kwargs.get("kernel_id") or (handler.path_args or [""])[0]
    gate: G.Gate = handler.settings["hexclass_gate"]
    return gate.page_ok(kernel_id, handler.get_cookie(cookie))


def legacy_frame(handler) -> bool:
    """Whether a kernel websocket speaks the legacy protocol (its client asked for no
    subprotocol): a message with buffers then goes out in the legacy binary form."""
    chosen = getattr(handler.ws_connection, "selected_subprotocol", None)
    return chosen != "v1.kernel.websocket.jupyter.org"


class KernelWebsocket(VoilaKernelWebsocketHandler):
    """A kernel's websocket, for the page that kernel was started for only."""

    async def get(self, kernel_id):
        if not _page_allowed(self, kernel_id):
            raise tornado.web.HTTPError(403)
        return await super().get(kernel_id)

    def write_message(self, message, binary: bool = False):
        if isinstance(message, bytes | bytearray) and legacy_frame(self):
            # Voilà's handler (and scrub) read a binary frame as the v1 protocol's, whose
            # first 8 bytes count its offsets; a legacy frame's first 8 bytes make that
            # about 10**18, and the server's loop would count them for good (every page
            # stalls). A legacy binary frame carries a widget's buffers, never a traceback.
            return tornado.websocket.WebSocketHandler.write_message(self, message, binary)
        message, logged = G.scrub(message)
        if logged is not None:  # a traceback from a message the page sent: the log keeps it
            self.log.warning(
                "hexclass: kernel %s failed on a message from its page:\n%s",
                self.kernel_id[:8],
                logged[-4000:],
            )
        return super().write_message(message, binary)


class KernelInfo(KernelHandler):
    """``GET``/``DELETE /api/kernels/<id>``, for the kernel's own page only."""

    async def prepare(self):
        await super().prepare()
        if not _page_allowed(self):
            raise tornado.web.HTTPError(403)


class KernelShutdown(VoilaShutdownKernelHandler):
    """The page's ``beforeunload`` beacon: only the kernel's own page may stop it."""

    async def prepare(self):
        await super().prepare()
        if not _page_allowed(self, cookie=G.STOP_COOKIE):
            raise tornado.web.HTTPError(403)


class RequestInfo(RequestInfoSocketHandler):
    """``/voila/query/<id>``: a preheated kernel reads its visitor's request; nobody else."""

    async def get(self, kernel_id, *args, **kwargs):
        km = self.settings["kernel_manager"]
        expected = km.query_keys.get(kernel_id)
        given = self.request.headers.get(G.QUERY_KEY_HEADER, "")
        if not expected or not secrets.compare_digest(expected, given):
            raise tornado.web.HTTPError(403)
        return await super().get(kernel_id, *args, **kwargs)


class NotFound(tornado.web.RequestHandler):
    """What the class network is not shown: the repository's listings."""

    def initialize(self, **kwargs):
        pass

    def set_default_headers(self):
        for name, value in G.SECURITY_HEADERS.items():
            self.set_header(name, value)

    def prepare(self):
        raise tornado.web.HTTPError(404)


GUARDED = {
    TornadoVoilaHandler: RenderHandler,
    VoilaKernelWebsocketHandler: KernelWebsocket,
    KernelHandler: KernelInfo,
    VoilaShutdownKernelHandler: KernelShutdown,
    RequestInfoSocketHandler: RequestInfo,
    VoilaContentsHandler: NotFound,
    TornadoVoilaTreeHandler: NotFound,
}


class HomeRedirect(tornado.web.RequestHandler):
    """``/`` is the home page (Voilà's default there is a listing of the repository)."""

    def set_default_headers(self):
        for name, value in G.SECURITY_HEADERS.items():
            self.set_header(name, value)

    def get(self):
        self.redirect(f"/voila/render/{HOME}", permanent=False)

    head = get


class StatusHandler(tornado.web.RequestHandler):
    """Kernel counts and PIDs, for tests and the class-load benchmark (loopback only)."""

    def get(self):
        if self.request.remote_ip not in ("127.0.0.1", "::1"):
            raise tornado.web.HTTPError(403)
        km = self.settings["kernel_manager"]
        ids = km.live_kernel_ids()  # a kernel whose process exited is not listed
        self.set_header("Cache-Control", "no-store")
        self.finish(
            {
                **km.counts(),
                "pids": [km.pid_of(k) for k in ids],
                "server_pid": os.getpid(),
            }
        )


def start_referee(log):
    """Decide enemy-player orders in this (trusted) server process, in a thread.

    The seat kernels of an enemy-player game (CA p.7) hold only their own view of it;
    the referee (``classroom/sessions/hidden.py``) holds the whole game, takes every
    seat's orders to the store and publishes each seat's view. Returns its stop event.
    """
    import threading

    location = os.environ.get("HEXCLASS_STORE")
    if not location:
        return None
    from hexclass.classroom.sessions.hidden import Referee
    from hexclass.classroom.sessions.locate import open_location

    stop = threading.Event()

    def run():
        try:
            store = open_location(location)
        except Exception as exc:  # noqa: BLE001 - the pages still serve; say why in the log
            log.warning("hexclass: no referee for enemy-player games: %s", exc)
            return
        log.info("hexclass: the referee decides enemy-player orders in %s", location)
        Referee(store, log=log.warning).run(stop)
        store.close()

    threading.Thread(target=run, name="hexclass-referee", daemon=True).start()
    return stop


class HexclassVoila(Voila):
    """Voilà with the handlers and kernel manager above, gated (:mod:`hexclass.classroom.gate`)."""

    name = "hexclass-voila"
    key_on_stdin = Bool(
        False, config=True, help="read the instructor key from the first line of stdin"
    )
    max_kernels = Integer(
        8, config=True, help="live kernels at most for pages without a token (home, lessons)"
    )

    def initialize(self, argv=None):
        super().initialize(argv)
        for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
            signal.signal(sig, self._handle_signal_stop)
        stack_dump.install()  # kill -USR1: where the server is, in its log
        G.redact_logs(self.log, logging.getLogger("tornado.access"))
        kernel_log.quiet_routine_lines(self.log)
        cut_off = server_stop.CutOffPages(self)
        self.log.addFilter(cut_off)
        logging.getLogger("tornado.general").addFilter(cut_off)  # zmq's stream warnings
        self.instructor_key = self.read_instructor_key()
        self.log.log(logging.INFO if sandbox.abi_version() else logging.WARNING, sandbox.status())
        prepare_store(self.log)
        self.referee_stop = start_referee(self.log)

    def read_instructor_key(self) -> str:
        """From ``hexclass serve`` (stdin), else ``$HEXCLASS_INSTRUCTOR_KEY``, else a new one.

        The key never stays in this process's environment, so kernels do not inherit it.
        """
        key = os.environ.pop(G.KEY_ENV, "")
        if self.key_on_stdin:
            key = sys.stdin.readline().strip()
        if not key:
            key = G.new_key()
            self.log.warning("hexclass: instructor key (made for this run): %s", key)
        return key

    def init_settings(self):
        settings = super().init_settings()
        km = settings["kernel_manager"]
        location = getattr(km, "store_path", "") or os.environ.get("HEXCLASS_STORE") or None
        settings["hexclass_gate"] = G.Gate(self.instructor_key, location, self.max_kernels)
        settings["headers"] = {**settings.get("headers", {}), **G.SECURITY_HEADERS}
        return settings

    _signalled = False

    def _handle_signal_stop(self, sig, frame):
        if self._signalled:
            return  # the stop is under way
        self._signalled = True
        self.log.info("hexclass: signal %s: stopping every kernel and the server", sig)
        if getattr(self, "referee_stop", None) is not None:
            self.referee_stop.set()
        ioloop = getattr(self, "ioloop", None)
        if ioloop is None:  # not serving yet
            sys.exit(0)
        ioloop.add_callback(self._stop_kernels_then_loop)

    async def _stop_kernels_then_loop(self) -> None:
        """Every kernel stopped while the loop that started them still runs; then the loop."""
        try:
            stop = getattr(self.kernel_manager, "stop_everything", None)
            if stop is not None:
                await stop(wait_starts=server_stop.STOP_WAIT_STARTS)
        except Exception as exc:  # noqa: BLE001 - Voilà's own shutdown still follows
            self.log.warning("hexclass: stopping the kernels: %s", exc)
        finally:
            self.ioloop.stop()

    def init_handlers(self):
        handlers = []
        for spec in super().init_handlers():
            pattern, handler = spec[0], spec[1]
            if pattern in ("/", self.server_url) and handler is not TornadoVoilaHandler:
                continue  # the directory listing at / gives way to the home page
            if handler in GUARDED:
                spec = (pattern, GUARDED[handler], *spec[2:])
            handlers.append(spec)
        return [
            (r"/?", HomeRedirect),
            (STATUS_PATH, StatusHandler),
            (G.KEY_PATH, G.KeyHandler),
            *handlers,
        ]


POOLS_OPTION = "--hexclass-pools="


def main(argv: list[str] | None = None) -> None:
    """Serve; ``--hexclass-pools=JSON`` gives Voilà's kernel pools (a dict option that
    traitlets no longer takes as one JSON value on a command line)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    config = Config()
    for arg in [a for a in argv if a.startswith(POOLS_OPTION)]:
        argv.remove(arg)
        config.VoilaKernelManager.kernel_pools_config = json.loads(arg[len(POOLS_OPTION) :])
    share_compiled_templates()
    HexclassVoila.launch_instance(argv=argv, config=config)


if __name__ == "__main__":
    main()

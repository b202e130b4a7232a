"""How the server runs and renders a page's notebook (issue 30: what 60 seats at once found).

* :class:`RenderClient`: the kernel client Voilà's renderer (nbclient) runs a page's
  notebook through, without a heartbeat thread.
* :class:`TemplateCode` and :func:`share_compiled_templates`: the page templates compiled
  once per server rather than once per render.

Both are installed by :mod:`hexclass.classroom.server`.
"""

from __future__ import annotations

import jinja2
import jinja2.bccache
from jupyter_client.asynchronous import AsyncKernelClient
from voila.exporter import VoilaExporter


class RenderClient(AsyncKernelClient):
    """The client a page's notebook is run through (Voilà's renderer, nbclient): no heartbeat.

    jupyter_client runs a client's heartbeat in a thread of its own, with its own event
    loop, and stopping the client joins that thread from the caller's. Voilà stops the
    client on the server's event loop once a page's notebook has run. With 60 seat kernels
    warm (a console open, then 60 seats opened right after *Create*), one such join never
    returned: that heartbeat was still waiting on a socket event that never came, and the
    whole server, every page of every student, stopped answering. A heartbeat only tells
    whether the kernel lives, and a client made by its kernel's manager asks the manager
    that instead (``KernelClient.is_alive``), as nbclient does; so the renderer's clients
    start every channel but that one (and the server runs one thread fewer per kernel).
    """

    def start_channels(self, shell=True, iopub=True, stdin=True, hb=True, control=True):
        super().start_channels(shell=shell, iopub=iopub, stdin=stdin, hb=False, control=control)


class TemplateCode(jinja2.BytecodeCache):
    """Compiled page templates, kept for the server's life in memory.

    Voilà makes a new nbconvert exporter, with a new Jinja environment, for every page it
    renders: each preheated kernel's and each request's. So every render lexed, parsed and
    compiled the whole template chain again (hexclass', Voilà's lab, nbconvert's lab and
    base, their macros), on the server's event loop. With 60 seat kernels warming and then
    60 seats opening, ``py-spy`` found the loop busy for a minute at a time, mostly in
    Jinja's compiler, and requests waited behind it (first byte p95 7.6 s). Jinja checks a
    stored template against its source's checksum, so an edited template compiles anew.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


def share_compiled_templates() -> dict:
    """Give every Voilà exporter's environment a :class:`TemplateCode`, one per kind of
    environment (async or not, its extensions: the code Jinja generates depends on them).
    Returns the caches by kind."""
    caches: dict = {}
    if getattr(VoilaExporter, "_hexclass_shared", None) is not None:
        return VoilaExporter._hexclass_shared
    plain = VoilaExporter.environment.fget

    def environment(self):
        env = plain(self)  # Voilà's: async, with jinja2.ext.do added
        if env.bytecode_cache is None:
            kind = (env.is_async, tuple(sorted(env.extensions)))
            env.bytecode_cache = caches.setdefault(kind, TemplateCode())
        return env

    VoilaExporter.environment = property(environment)
    VoilaExporter._hexclass_shared = caches
    return caches

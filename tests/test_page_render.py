"""How the server renders a page: no heartbeat thread, templates compiled once (issue 30).

With 60 seat kernels warm, the server once stopped answering every page: Voilà had run a
seat's notebook and was stopping its client on the server's event loop, and the join of
that client's heartbeat thread never returned (``py-spy dump``: the main thread in
``HBChannel.stop`` -> ``Thread.join``, the heartbeat's own loop idle in ``epoll_wait`` on
its ping). The renderer's clients (nbclient's, made by the kernel's manager) now start
every channel but the heartbeat, and ask the manager whether the kernel lives.

Voilà also makes a new Jinja environment for every page it renders, and so compiled the
whole template chain again each time, on the server's event loop; the server now keeps
the compiled templates (``TemplateCode``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading

import jinja2
import jinja2.meta
import nbformat
from nbclient import NotebookClient
from voila.exporter import VoilaExporter
from voila.paths import collect_template_paths

from hexclass import resources
from hexclass.classroom.page_render import RenderClient, TemplateCode, share_compiled_templates
from hexclass.classroom.server import SandboxedKernelManager


def in_a_thread_of_its_own(coro_fn):
    # an earlier test of the session may leave this thread's event loop running
    with concurrent.futures.ThreadPoolExecutor(1) as one:
        return one.submit(lambda: asyncio.run(coro_fn())).result()


def test_the_kernel_manager_makes_render_clients():
    assert isinstance(SandboxedKernelManager(kernel_name="python3").client(), RenderClient)


def test_a_notebook_runs_through_a_client_without_a_heartbeat_thread():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    km = SandboxedKernelManager(kernel_name="python3")
    seen = {}

    async def run():
        await km.start_kernel()
        try:
            before = {t.ident for t in threading.enumerate()}
            client = NotebookClient(nb, km=km, timeout=120)
            async with client.async_setup_kernel():
                seen["client"] = type(client.kc)
                seen["heartbeat"] = client.kc._hb_channel
                seen["alive"] = await client.kc._async_is_alive()
                seen["new_threads"] = [
                    t.name for t in threading.enumerate() if t.ident not in before
                ]
                await client.async_execute_cell(nb.cells[0], 0)
                client.kc.stop_channels()  # as Voilà's renderer does when the page has run
            seen["after_stop"] = [t.name for t in threading.enumerate() if t.ident not in before]
        finally:
            await km.shutdown_kernel(now=True)

    in_a_thread_of_its_own(run)
    assert seen["client"] is RenderClient
    assert seen["heartbeat"] is None  # never created, so never started nor joined
    assert seen["alive"]  # asked of the kernel's manager
    assert seen["new_threads"] == []  # a plain AsyncKernelClient starts its heartbeat's thread
    assert seen["after_stop"] == []
    assert nb.cells[0].outputs[0]["text"] == "42\n"


def test_a_page_template_is_compiled_once_per_server(monkeypatch):
    monkeypatch.setenv("JUPYTER_PATH", str(resources.jupyter_share()))
    monkeypatch.setattr(VoilaExporter, "environment", VoilaExporter.environment)  # restored after
    monkeypatch.setattr(VoilaExporter, "_hexclass_shared", None, raising=False)
    compiled = []
    compile_source = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return compile_source(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    caches = share_compiled_templates()
    paths = collect_template_paths(["voila", "nbconvert"], "hexclass", prune=True)

    def render_chain() -> list[str]:
        """What one page render does to templates: a new exporter, the hexclass page and
        every template of its chain (parents and macros) loaded."""
        exporter = VoilaExporter(template_paths=paths, template_name="hexclass")
        env = exporter.environment
        # registered by nbconvert's HTML exporter when it renders, before any compiling
        exporter.register_filter("highlight_code", lambda source, *args, **kwargs: source)
        names: list[str] = []
        todo = ["index.html.j2"]
        while todo:  # the page and what it extends, imports and includes, by name
            name = todo.pop()
            if name not in names:
                names.append(name)
                source = env.loader.get_source(env, name)[0]
                todo += [n for n in jinja2.meta.find_referenced_templates(env.parse(source)) if n]
        for name in names:
            env.get_template(name)
        return names

    names = render_chain()
    assert "index.html.j2" in names and len(compiled) == len(names)  # the first page compiles
    compiled.clear()
    render_chain()
    assert compiled == []  # the next pages do not
    [cache] = caches.values()
    assert isinstance(cache, TemplateCode)
    # one kind: Voilà's async environment, with nbconvert's loop controls and Voilà's do
    assert list(caches) == [
        (True, ("jinja2.ext.ExprStmtExtension", "jinja2.ext.LoopControlExtension"))
    ]

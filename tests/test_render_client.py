"""A page's notebook is run through a client with no heartbeat thread (issue 30).

With 60 seat kernels warm, the server once stopped answering every page: Voilà had run a
seat's notebook and was stopping its client on the server's event loop, and the join of
that client's heartbeat thread never returned (``py-spy dump``: the main thread in
``HBChannel.stop`` -> ``Thread.join``, the heartbeat's own loop idle in ``epoll_wait`` on
its ping). The renderer's clients (nbclient's, made by the kernel's manager) now start
every channel but the heartbeat, and ask the manager whether the kernel lives.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading

import nbformat
from nbclient import NotebookClient

from hexclass.classroom.server import RenderClient, SandboxedKernelManager


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

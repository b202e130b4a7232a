"""A stopped kernel's handler traceback is one quiet line; any other error passes whole."""

from __future__ import annotations

import io
import logging

from hexclass.classroom import kernel_log
from hexclass.classroom.kernel_log import forward, forward_in_thread

STOP_TRACEBACK = [
    "[IPKernelApp] ERROR | Exception in message handler:",
    "Traceback (most recent call last):",
    '  File "kernelbase.py", line 508, in dispatch_shell',
    "    await result",
    "           ^^^^^^",
    "zmq.error.ZMQError: Socket operation on non-socket",
]


def run(lines):
    out = []
    forward(iter(line + "\n" for line in lines), "k1", out.append)
    return out


def test_a_traceback_caused_by_the_stop_is_one_line():
    out = run(["before", *STOP_TRACEBACK, *STOP_TRACEBACK, "after"])
    assert out[0] == "before" and out[-1] == "after"
    assert len(out) == 4 and all("was stopped while it answered" in o for o in out[1:3])


# the traceback of a kernel interrupted while it imported (seen in a pinned test run,
# when the server stopped a pool kernel that had not finished starting)
INTERRUPTED_START = [
    "Traceback (most recent call last):",
    '  File "<frozen runpy>", line 198, in _run_module_as_main',
    '  File "jupyter_client/jsonutil.py", line 26, in <module>',
    "    ISO8601_PAT = re.compile(",
    "                  ^^^^^^^^^^^",
    "KeyboardInterrupt",
]


def test_a_kernel_interrupted_while_starting_is_one_line():
    out = run(["before", *INTERRUPTED_START, "after"])
    assert out == ["before", "hexclass: kernel k1 was stopped while it was still starting", "after"]


def test_a_bare_traceback_of_a_real_error_passes_whole():
    real = [*INTERRUPTED_START[:-1], "ImportError: no module named x"]
    assert run(real) == real
    assert run(INTERRUPTED_START[:2]) == INTERRUPTED_START[:2]  # cut short: nothing lost


def test_a_real_error_keeps_its_whole_traceback():
    real = [*STOP_TRACEBACK[:-1], "ValueError: the page's notebook failed"]
    assert run(real) == real
    assert run(["a warning", "another line"]) == ["a warning", "another line"]
    cut_short = STOP_TRACEBACK[:3]  # the pipe closed mid-traceback: nothing is lost
    assert run(cut_short) == cut_short


def test_a_pipe_is_read_to_its_end_in_a_thread():
    out = []
    stream = io.StringIO("\n".join([*STOP_TRACEBACK, "done"]) + "\n")
    forward_in_thread(stream, "k2", out.append).join(5)
    assert out == [
        "hexclass: kernel k2 was stopped while it answered a request (expected when a page closes)",
        "done",
    ]


def test_the_unencrypted_tcp_warning_of_every_kernel_is_said_once():
    warning = (
        "[IPKernelApp] WARNING | Kernel is running over TCP without encryption. All "
        "communication (including code and outputs) is sent in plain text."
    )
    kernel_log._said.clear()
    first = run([warning, "x"])
    second = run([warning, "y"])
    assert first == [kernel_log.TCP_NOTE, "x"] and second == ["y"]


def test_routine_page_lines_of_the_server_log_are_debug_only():
    logger = logging.getLogger("hexclass-test-routine")
    logger.propagate = False
    seen = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())
    logger.addHandler(handler)
    kernel_log.quiet_routine_lines(logger)
    logger.setLevel(logging.INFO)
    logger.info("Kernel started: 8d38296d…")
    logger.warning("Notebook classroom/pages/seat.ipynb is not trusted")
    logger.info("hexclass: kernel started 8d38296d pid 4394 for the preheat pool")
    logger.error("Kernel shutdown: failed")  # an error always shows
    assert seen == ["hexclass: kernel started 8d38296d pid 4394 for the preheat pool",
                    "Kernel shutdown: failed"]  # fmt: skip
    logger.setLevel(logging.DEBUG)  # --debug shows them again
    logger.info("Kernel started: 5121afc8…")
    assert seen[-1] == "Kernel started: 5121afc8…"

"""A page kernel's error output, passed on to the server's log without the noise of a stop.

A kernel that is stopped while it still answers a request (a preheated kernel waiting for
its visitor, a page closed mid-click) has its sockets closed under it, and ipykernel logs
"Exception in message handler" with a ``zmq`` traceback ending in "Socket operation on
non-socket". Nothing went wrong, but an instructor reading the log sees errors. The
server reads each kernel's standard error through a pipe (:func:`forward`): every line
goes on to the log as before, except such a traceback, which becomes one line.

>>> out = []
>>> forward(iter(["[IPKernelApp] ERROR | Exception in message handler:\\n",
...               "Traceback (most recent call last):\\n",
...               '  File "x.py", line 1, in send\\n',
...               "zmq.error.ZMQError: Socket operation on non-socket\\n",
...               "hello\\n"]), "abcd1234", out.append)
>>> out
['hexclass: kernel abcd1234 was stopped while it answered a request (expected when a page closes)', 'hello']

Jupyter interrupts a kernel before it stops it. A kernel stopped while it is still
starting (importing, before ipykernel handles the interrupt) prints a ``KeyboardInterrupt``
traceback; that too is one line. Any other traceback passes on whole:

>>> out = []
>>> forward(iter(["Traceback (most recent call last):\\n",
...               '  File "<frozen runpy>", line 198, in _run_module_as_main\\n',
...               "KeyboardInterrupt\\n"]), "abcd1234", out.append)
>>> out
['hexclass: kernel abcd1234 was stopped while it was still starting']
>>> out = []
>>> forward(iter(["Traceback (most recent call last):\\n", '  File "x.py", line 1\\n',
...               "ValueError: bad\\n"]), "abcd1234", out.append)
>>> out[-1]
'ValueError: bad'

ipykernel's warning about unencrypted loopback TCP, printed by every kernel, is said once:

>>> _said.clear()
>>> out = []
>>> warning = "[IPKernelApp] WARNING | Kernel is running over TCP without encryption. ...\\n"
>>> forward(iter([warning]), "k1", out.append); forward(iter([warning]), "k2", out.append)
>>> len(out), out[0].startswith("hexclass: page kernels talk")
(1, True)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable

HANDLER_ERROR = "Exception in message handler"
STOP_RACE = "Socket operation on non-socket"
TRACEBACK = "Traceback (most recent call last):"
INTERRUPTED = "KeyboardInterrupt"  # Jupyter's interrupt before a stop, met during imports
# ipykernel 7 warns at every start that its loopback TCP sockets are not encrypted: true of
# every kernel the server starts (messages are signed with the kernel's key; only root can
# read loopback traffic), so it is said once per server, not once per kernel.
TCP_WARNING = "Kernel is running over TCP without encryption"
TCP_NOTE = (
    "hexclass: page kernels talk to the server over loopback TCP, signed but not encrypted "
    "(ipykernel's warning, shown once; see docs/security.md)"
)
_said = set()


def forward(lines: Iterable[str], kernel: str, emit: Callable[[str], None]) -> None:
    """Pass ``lines`` on to ``emit``; a handler traceback caused by the stop is one line."""
    block: list[str] = []
    for raw in lines:
        line = raw.rstrip("\n")
        if block:
            block.append(line)
            if line.startswith((" ", "\t", "Traceback", "^")) or not line.strip():
                continue
            _flush(block, kernel, emit)  # the traceback's last line ends the block
            block = []
            continue
        if HANDLER_ERROR in line or line.startswith(TRACEBACK):
            block = [line]
            continue
        if TCP_WARNING in line:
            if TCP_WARNING not in _said:
                _said.add(TCP_WARNING)
                emit(TCP_NOTE)
            continue
        emit(line)
    if block:
        _flush(block, kernel, emit)


def _flush(block: list[str], kernel: str, emit: Callable[[str], None]) -> None:
    if block[0].startswith(TRACEBACK) and block[-1] == INTERRUPTED:
        emit(f"hexclass: kernel {kernel} was stopped while it was still starting")
        return
    if STOP_RACE in block[-1]:
        emit(
            f"hexclass: kernel {kernel} was stopped while it answered a request "
            "(expected when a page closes)"
        )
        return
    for line in block:
        emit(line)


def forward_in_thread(stream, kernel: str, emit: Callable[[str], None]) -> threading.Thread:
    """Read a kernel's standard error (a text pipe) until it closes, in a daemon thread."""

    def run() -> None:
        with stream:
            forward(iter(stream.readline, ""), kernel, emit)

    thread = threading.Thread(target=run, name=f"kernel-stderr-{kernel}", daemon=True)
    thread.start()
    return thread


# Lines Jupyter Server and Voilà log for every page that opens or closes, each of which
# hexclass already says once in its own words ("hexclass: kernel started ... for ...",
# "hexclass: kernel stopped ..."), or which say nothing an instructor can act on: every
# page notebook is "not trusted" (Voilà runs them anyway), and the websocket's buffering
# and protocol adaptation are routine. Shown with ``--debug``.
ROUTINE = (
    "Kernel started: ",
    "Kernel shutdown: ",
    "is not trusted",
    "Starting buffering for ",
    "buffered messages for ",
    "Adapting from protocol version",
    "Connecting to kernel ",
    "Using pre-heated kernel: ",
    "Kernel pool of ",
)


class RoutineFilter(logging.Filter):
    """Lowers the per-page routine lines above to DEBUG (dropped unless ``--debug``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING:
            return True
        text = record.getMessage()
        return not any(part in text for part in ROUTINE) or _debug(record)


def _debug(record: logging.LogRecord) -> bool:
    """True when the logger that holds ``record`` shows DEBUG lines."""
    return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def quiet_routine_lines(logger: logging.Logger) -> None:
    """One line per event in the server's log: put :class:`RoutineFilter` on ``logger``."""
    if not any(isinstance(f, RoutineFilter) for f in logger.filters):
        logger.addFilter(RoutineFilter())

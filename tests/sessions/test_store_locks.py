"""Opening a second store object on the same SQLite file must not spoil the first one.

Closing any file descriptor of a database drops every POSIX lock the process holds on
it (SQLite's "posix advisory locks" hazard). The store once opened and closed the file to
set its mode on every open, so a server whose referee or gate had the store open went on
reading an old snapshot after one more store object was opened: new classes' seat links
were refused and their games never published.
"""

from __future__ import annotations

import subprocess
import sys

from hexclass.classroom.sessions import create_class
from hexclass.classroom.sessions.sqlite_store import SQLiteStore

WRITER = """
import sys
from hexclass.classroom.sessions import create_class
from hexclass.classroom.sessions.sqlite_store import SQLiteStore
s = SQLiteStore(sys.argv[1]); create_class(s, teams=1, seed=int(sys.argv[2])); s.close()
"""


def classes_seen(store) -> int:
    return len(store.classes())


def test_a_store_opened_twice_in_one_process_still_sees_other_processes_writes(tmp_path):
    path = tmp_path / "class.db"
    first = SQLiteStore(path)
    create_class(first, teams=1, seed=1)
    assert classes_seen(first) == 1
    for n in range(2, 5):
        second = SQLiteStore(path)  # another object in this process, as a server's gate
        assert classes_seen(second) == n - 1
        subprocess.run([sys.executable, "-c", WRITER, str(path), str(n)], check=True, timeout=120)
        assert classes_seen(first) == n, "the first store object reads an old snapshot"
        assert classes_seen(second) == n
        second.close()
    first.close()

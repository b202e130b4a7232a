"""Secrets at rest: what the store keeps on disk, and who may read it.

* The SQLite file, its -wal and -shm and a folder the store creates are this OS user's
  only (0600/0700); an older, looser file is tightened when opened.
"""

from __future__ import annotations

import os
import stat

from classroom.combined_arms import EndPhase
from classroom.sessions import create_class
from classroom.sessions.sqlite_store import SQLiteStore


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_store_and_its_folder_are_private(tmp_path):
    path = tmp_path / "new-folder" / "class.db"
    old = os.umask(0o022)  # the usual umask: without care the file would be 0644
    try:
        with SQLiteStore(path) as s:
            made = create_class(s, teams=1, seed=3)
            s.submit(made.teams[0].game_id, 0, "support", EndPhase("support"))
            files = [path, path.with_name("class.db-wal"), path.with_name("class.db-shm")]
            assert all(f.exists() for f in files)
            assert {str(f): _mode(f) for f in files} == {str(f): 0o600 for f in files}
            assert _mode(path.parent) == 0o700
    finally:
        os.umask(old)


def test_an_older_loose_store_is_tightened_on_open(tmp_path):
    path = tmp_path / "class.db"
    with SQLiteStore(path) as s:
        create_class(s, teams=1, seed=3)
    os.chmod(path, 0o644)
    with SQLiteStore(path) as s:
        assert _mode(path) == 0o600
        assert _mode(path.with_name("class.db-wal")) == 0o600
        assert len(s.classes()) == 1

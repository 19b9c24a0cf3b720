"""A vector index checkpoint names the log's event it was saved at (seq and hash): opened on
a log that is not that one (restored from a backup, or cut short by a lost write-ahead file),
it is rebuilt from the log instead of trusted."""

import shutil

from ragixd.domain import commands as c
from ragixd.memory import Memory


def _live_ids(memory: Memory) -> set[str]:
    return {r[0] for r in memory.store.reader().execute("SELECT id FROM memory_items WHERE archived = 0")}


def test_a_checkpoint_saved_from_a_later_log_is_not_trusted_after_a_restore(tmp_path):
    home = tmp_path / "home"
    m = Memory(home, backfill=False)
    first = [m.execute([c.CreateItem({"title": f"note {i}", "content": f"content of note {i}"})]).results[0]["id"]
             for i in range(6)]
    m.close()
    shutil.copy(home / "ragix.db", tmp_path / "backup.db")
    m = Memory(home, backfill=False)
    m.execute([c.ArchiveItem(first[0]), c.ArchiveItem(first[1])])
    m.execute([c.CreateItem({"title": f"later {i}", "content": f"written after the backup {i}"}) for i in range(4)])
    m.close()  # the checkpoint now names a seq past the backup's head
    for leftover in ("ragix.db-wal", "ragix.db-shm"):
        (home / leftover).unlink(missing_ok=True)
    shutil.copy(tmp_path / "backup.db", home / "ragix.db")
    m = Memory(home, backfill=False)
    try:
        assert m.vectors.seq == m.store.head_seq
        assert len(next(iter(m.vectors.indexes.values()))) == len(_live_ids(m)) == 6
    finally:
        m.close()

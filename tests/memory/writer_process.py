"""A second process that writes to a memory database on command, for live tests.

Run as `python writer_process.py DB`; it answers each stdin line with "ok":
  insert ID     insert and commit one native memory (autocommit)
  sql STATEMENT run one statement (autocommit unless a transaction is open)
  begin ID      open a write transaction holding an uncommitted insert
  exclusive     BEGIN EXCLUSIVE (in rollback-journal mode this blocks readers)
  commit        commit the open transaction
  rollback      roll it back
  quit          close the connection and exit
WAL auto-checkpoints are off, so commits stay in the -wal while it runs.
"""

import sqlite3
import sys

conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA wal_autocheckpoint = 0")
INSERT = (
    "INSERT INTO memories (id, kind, title, body, created_at, updated_at) "
    "VALUES (?, 'fact', ?, 'Written by another process.', '2026-04-30T00:00:00Z', '2026-04-30T00:00:00Z')"
)
print("ready", flush=True)
for line in sys.stdin:
    command, _, arg = line.strip().partition(" ")
    if command == "insert":
        conn.execute(INSERT, (arg, f"Memory {arg}"))
    elif command == "sql":
        conn.execute(arg)
    elif command == "begin":
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(INSERT, (arg, f"Memory {arg}"))
    elif command == "exclusive":
        conn.execute("BEGIN EXCLUSIVE")
    elif command == "commit":
        conn.execute("COMMIT")
    elif command == "rollback":
        conn.execute("ROLLBACK")
    elif command == "quit":
        break
    print("ok", flush=True)
conn.close()

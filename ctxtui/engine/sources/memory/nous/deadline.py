"""A bound on every statement that the server cannot switch off: cancel it, then cut the connection.

`statement_timeout` is the server's own bound, and code the database's
owner controls (a view, a row-level-security policy, a function on the
search path) can set it to 0 for the rest of the transaction, or catch the
`query_canceled` it raises. So every statement ctxtui sends also runs under
a client-side watchdog (a timer thread): `cancel_after` seconds in, it asks
the server to cancel the statement (libpq's cancel request, on a
connection of its own); `cut_after` seconds later, if the statement still
has not ended, it shuts the socket down, so the waiting call fails at once
as a lost connection, and the store opens a new one next time.

A timer is not a clock read that can change an answer: it only ever ends
a wait, and the error it causes says so.
"""

from __future__ import annotations

import os
import socket
import threading
from functools import cache
from typing import Any

GRACE_S = 1.0  # past the statement timeout, before the cancel
CUT_S = 2.0  # past the cancel, before the socket is shut


class Watchdog:
    """Cancel, then cut, a statement on `conn` that outlives `cancel_after` seconds (a context manager)."""

    def __init__(self, conn: Any, cancel_after: float, cut_after: float = CUT_S) -> None:
        self.conn = conn
        self.cancel_after = cancel_after
        self.cut_after = cut_after
        self.fired = False  # the cancel was sent
        self.cut = False  # the socket was shut
        self._lock = threading.Lock()
        self._armed = False
        self._timers: list[threading.Timer] = []

    def __enter__(self) -> Watchdog:
        self._armed = True
        self._start(self.cancel_after, self._cancel)
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._armed = False
            for timer in self._timers:
                timer.cancel()

    def _start(self, seconds: float, action: Any) -> None:
        timer = threading.Timer(seconds, action)
        timer.daemon = True  # never keeps the process alive
        timer.name = "ctxtui-nous-deadline"
        self._timers.append(timer)
        timer.start()

    def _cancel(self) -> None:
        with self._lock:
            if not self._armed:
                return
            self.fired = True
            self._start(self.cut_after, self._cut)  # before the cancel: the cancel itself may hang
        try:
            if hasattr(self.conn, "cancel_safe"):  # psycopg 3.2+: bounded
                self.conn.cancel_safe(timeout=self.cut_after)
            else:
                self.conn.cancel()
        except Exception:
            pass  # the cut follows anyway

    def _cut(self) -> None:
        with self._lock:
            if not self._armed:
                return
            self.cut = True
            try:
                fd = self.conn.fileno()
                # shutdown() acts on the connection, not the descriptor: the waiting read returns at once.
                sock = socket.socket(fileno=os.dup(fd))
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                finally:
                    sock.close()
            except Exception:
                pass


@cache
def deadline_cursor(psycopg: Any, seconds: float) -> type:
    """psycopg's Cursor, each `execute` under a `Watchdog` of `seconds` (one class per bound, made once)."""

    class DeadlineCursor(psycopg.Cursor):  # type: ignore[misc]
        def execute(self, query: Any, params: Any = None, **kwargs: Any) -> Any:
            with Watchdog(self.connection, seconds) as watchdog:
                try:
                    return super().execute(query, params, **kwargs)
                except Exception as exc:
                    if watchdog.fired:
                        raise DeadlinePassed(seconds, watchdog.cut) from exc
                    raise

    return DeadlineCursor


class DeadlinePassed(Exception):
    """A statement outlived ctxtui's own deadline: cancelled (`cut` False) or its connection shut (`cut` True)."""

    def __init__(self, seconds: float, cut: bool) -> None:
        super().__init__(f"deadline of {seconds:g} s passed")
        self.seconds = seconds
        self.cut = cut

"""A throwaway PostgreSQL for the tests: started by the suite itself, gone when it ends.

The server binaries come from the `pgserver` wheel (PostgreSQL 16 with
pgvector, a `.[test]` dependency, so `make test` installs it from PyPI), else
from Debian's `postgresql-NN` (then `vector(1536)` is a text stand-in type,
since bookworm has no pgvector). Our own launcher runs `initdb` and `pg_ctl`
in a temp dir on a unix socket only (no TCP), as `nobody` when the suite runs
as root (PostgreSQL refuses root), and never touches the system: no user is
added, no directory is chmod-ed. pgserver's own `get_server()` is not used:
as root it adds a `pgserver` account and opens up every parent directory.

One server per test session (about 1-2 s: initdb dominates). It holds a
template database loaded with ctxtui's own stand-in for nous's schema
(`tests/factories/nous_schema.sql`) and three roles:

- `ctxtui_ro`: LOGIN, USAGE on the three schemas, SELECT on every table,
  `default_transaction_read_only` on — what a careful operator gives ctxtui;
- `ctxtui_noperm`: LOGIN and nothing else (the missing-permission messages);
- the superuser `postgres`, which only the tests' own seeding uses.

Each test gets its own database cloned from the template (30-70 ms). Every
statement is logged (`log_statement=all`) with its application name, so a
test can prove that ctxtui's reader never sent a write.
"""

from __future__ import annotations

import atexit
import importlib.util
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

SCHEMA_SQL = Path(__file__).parent / "factories" / "nous_schema.sql"
TEMPLATE = "nous_tmpl"
RO_ROLE = "ctxtui_ro"
NOPERM_ROLE = "ctxtui_noperm"
RUN_AS = "nobody"
LOG_PREFIX = "%m [%p] app=%a user=%u db=%d: "

# Stand-in for pgvector on a server without it: a text-backed base type that
# takes the `vector(1536)` typmod, built from PostgreSQL's own internal I/O
# functions (so it needs the superuser, which owns the test cluster).
VECTOR_STANDIN = """
CREATE TYPE vector;
CREATE FUNCTION vector_in(cstring) RETURNS vector LANGUAGE internal IMMUTABLE STRICT AS 'textin';
CREATE FUNCTION vector_out(vector) RETURNS cstring LANGUAGE internal IMMUTABLE STRICT AS 'textout';
CREATE FUNCTION vector_typmod_in(cstring[]) RETURNS integer LANGUAGE internal IMMUTABLE STRICT AS 'varchartypmodin';
CREATE FUNCTION vector_typmod_out(integer) RETURNS cstring LANGUAGE internal IMMUTABLE STRICT AS 'varchartypmodout';
CREATE TYPE vector (INPUT = vector_in, OUTPUT = vector_out, TYPMOD_IN = vector_typmod_in,
                    TYPMOD_OUT = vector_typmod_out, INTERNALLENGTH = VARIABLE, STORAGE = extended);
"""


class PgUnavailable(Exception):
    """No PostgreSQL binaries that can run on this machine."""


@dataclass(frozen=True)
class Backend:
    bindir: Path
    has_vector: bool
    name: str


def find_backend() -> Backend:
    """pgserver's bundled binaries (with pgvector), else Debian's newest PostgreSQL."""
    spec = importlib.util.find_spec("pgserver")  # found, not imported: its __init__ has side effects
    if spec is not None and spec.submodule_search_locations:
        bindir = Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"
        if (bindir / "postgres").exists():
            has_vector = (bindir.parent / "share" / "postgresql" / "extension" / "vector.control").exists()
            return Backend(bindir, has_vector, "pgserver")
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/postgres"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if debian:
        bindir = debian[-1].parent
        has_vector = Path(f"/usr/share/postgresql/{bindir.parent.name}/extension/vector.control").exists()
        return Backend(bindir, has_vector, f"debian-{bindir.parent.name}")
    raise PgUnavailable("no PostgreSQL binaries: `pip install pgserver` (in .[test]) or `apt-get install postgresql`")


class TempPostgres:
    """initdb + pg_ctl in a temp dir, unix socket only; `stop()` kills it and deletes everything."""

    def __init__(self, backend: Backend, run_as: str = RUN_AS) -> None:
        self.backend = backend
        self.bindir = backend.bindir
        self.root = Path(tempfile.mkdtemp(prefix="ctxtui-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = 5432  # names the socket file only: nothing listens on TCP
        self.timings: dict[str, float] = {}
        self._ids: dict = {}
        self._started = False
        if os.geteuid() == 0:
            user = pwd.getpwnam(run_as)
            self._ids = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
            os.chown(self.root, user.pw_uid, user.pw_gid)
            if not self._runnable_as_user(self.bindir / "postgres"):
                self.bindir = self._copy_binaries(user.pw_uid, user.pw_gid)
        os.chmod(self.root, 0o700)

    @property
    def host(self) -> str:
        return str(self.root)

    def _runnable_as_user(self, path: Path) -> bool:
        return subprocess.run(["test", "-x", str(path)], **self._ids).returncode == 0

    def _copy_binaries(self, uid: int, gid: int) -> Path:
        """A copy the unprivileged user can run, when the venv sits under a closed directory.

        pgserver's binaries find libpq through the RPATH
        `$ORIGIN/../../../pgserver.libs`, so the copy keeps that layout.
        """
        install = self.bindir.parent
        site = self.root / "site"
        shutil.copytree(install, site / install.parent.name / install.name, symlinks=True)
        libs = install.parent.parent / f"{install.parent.name}.libs"
        if libs.is_dir():
            shutil.copytree(libs, site / libs.name, symlinks=True)
        for path in [site, *site.rglob("*")]:
            os.lchown(path, uid, gid)
        return site / install.parent.name / install.name / "bin"

    def _run(self, *args: str) -> str:
        env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "TZ": "UTC"}
        result = subprocess.run(
            list(args),
            env=env,
            cwd=str(self.root),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            **self._ids,
        )
        if result.returncode != 0:
            raise PgUnavailable(f"{Path(args[0]).name} failed ({result.returncode}): {result.stdout.strip()[-500:]}")
        return result.stdout

    def start(self) -> None:
        t0 = time.perf_counter()
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        t1 = time.perf_counter()
        self.start_server()
        self.timings.update(initdb=t1 - t0, start=time.perf_counter() - t1)

    def start_server(self) -> None:
        """Start the postmaster on the existing data directory (again, after `stop_server`)."""
        options = (
            f"-k {self.root} -p {self.port} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
            f"-c full_page_writes=off -c log_statement=all -c log_line_prefix='{LOG_PREFIX}' "
            "-c max_connections=40"
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-w",
            "-t",
            "30",
            "-l",
            str(self.log),
            "-o",
            options,
            "start",
        )
        self._started = True

    def stop_server(self, mode: str = "immediate") -> None:
        """Stop the postmaster, keeping the data directory: at once (as a crash would), or "fast" (cleanly;
        with synchronous_commit off only a clean stop keeps the last commits)."""
        if not self._started:
            return
        self._started = False
        try:
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-w", "-m", mode, "stop")
        except PgUnavailable:
            pidfile = self.data / "postmaster.pid"
            if pidfile.exists():
                try:
                    os.kill(int(pidfile.read_text().split()[0]), signal.SIGQUIT)
                except (OSError, ValueError):
                    pass

    def stop(self) -> None:
        self.stop_server()
        shutil.rmtree(self.root, ignore_errors=True)

    def conninfo(self, user: str = "postgres", dbname: str = "postgres") -> str:
        return f"host={self.root} port={self.port} user={user} dbname={dbname}"

    def url(self, user: str = "postgres", dbname: str = "postgres") -> str:
        """A libpq URL, as a user would type it (the socket directory goes in `host=`)."""
        return f"postgresql://{user}@/{dbname}?host={quote(str(self.root), safe='/')}&port={self.port}"

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""


class PgCluster:
    """The started server, its template database and a counter for the per-test clones."""

    def __init__(self, server: TempPostgres) -> None:
        self.server = server
        self._names = itertools.count(1)

    def load_template(self) -> None:
        import psycopg

        t0 = time.perf_counter()
        with psycopg.connect(self.server.conninfo(), autocommit=True) as su:
            su.execute(f"CREATE DATABASE {TEMPLATE}")
        with psycopg.connect(self.server.conninfo(dbname=TEMPLATE), autocommit=True) as su:
            if self.server.backend.has_vector:
                su.execute("CREATE EXTENSION vector")
            else:
                su.execute(VECTOR_STANDIN)
            su.execute(SCHEMA_SQL.read_text().replace("{vector}", "vector(1536)"))
            su.execute(f"""
                CREATE ROLE {RO_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
                ALTER ROLE {RO_ROLE} SET default_transaction_read_only = on;
                GRANT USAGE ON SCHEMA brain, heart, nous_system TO {RO_ROLE};
                GRANT SELECT ON ALL TABLES IN SCHEMA brain, heart, nous_system TO {RO_ROLE};
                CREATE ROLE {NOPERM_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
            """)
        self.server.timings["schema"] = time.perf_counter() - t0

    def new_database(self) -> str:
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(self.server.conninfo(), autocommit=True) as su:
            su.execute(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE}")
        return name

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.server.conninfo(), autocommit=True) as su:
            su.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@dataclass
class NousDb:
    """One test's own nous database: URLs for each role, and the superuser for seeding."""

    cluster: PgCluster
    name: str

    @property
    def server(self) -> TempPostgres:
        return self.cluster.server

    @property
    def url(self) -> str:
        """The read-only role: what ctxtui is given in these tests."""
        return self.server.url(RO_ROLE, self.name)

    @property
    def owner_url(self) -> str:
        """The superuser, which can write: for tests that prove ctxtui does not."""
        return self.server.url("postgres", self.name)

    @property
    def noperm_url(self) -> str:
        return self.server.url(NOPERM_ROLE, self.name)

    def connect(self):
        """A superuser connection in autocommit, for the test's own writes."""
        import psycopg

        return psycopg.connect(self.server.conninfo(dbname=self.name), autocommit=True)

    def execute(self, sql: str, params=None) -> None:
        with self.connect() as conn:
            conn.execute(sql, params)


_CLUSTER: PgCluster | None = None
_FAILURE: str | None = None


def start_cluster() -> PgCluster:
    """The session's server (started on first use); PgUnavailable when it cannot run here."""
    global _CLUSTER, _FAILURE
    if _CLUSTER is not None:
        return _CLUSTER
    if _FAILURE is not None:
        raise PgUnavailable(_FAILURE)
    server = None
    try:
        server = TempPostgres(find_backend())
        server.start()
        cluster = PgCluster(server)
        cluster.load_template()
    except (PgUnavailable, OSError, KeyError) as exc:
        if server is not None:
            server.stop()
        _FAILURE = f"PostgreSQL cannot run on this machine: {exc}"
        raise PgUnavailable(_FAILURE) from exc
    atexit.register(server.stop)  # also when pytest is interrupted before the fixture's teardown
    _CLUSTER = cluster
    return cluster


@pytest.fixture(scope="session")
def pg_cluster():
    """The session's PostgreSQL; the test skips (with the reason) only if no binaries can run here."""
    try:
        cluster = start_cluster()
    except PgUnavailable as exc:
        pytest.skip(str(exc))
    yield cluster
    global _CLUSTER
    cluster.server.stop()
    _CLUSTER = None


@pytest.fixture
def nous_db(pg_cluster) -> NousDb:
    """A fresh, empty nous database of this test's own."""
    name = pg_cluster.new_database()
    yield NousDb(pg_cluster, name)
    pg_cluster.drop_database(name)


class private_cluster:
    """A second server of a test's own (about 1.5 s), for tests that stop and restart it."""

    def __enter__(self) -> PgCluster:
        try:
            server = TempPostgres(find_backend())
            self.server = server
            server.start()
            cluster = PgCluster(server)
            cluster.load_template()
        except PgUnavailable as exc:
            pytest.skip(f"PostgreSQL cannot run on this machine: {exc}")
        return cluster

    def __exit__(self, *exc) -> None:
        self.server.stop()

"""No secret of a PostgreSQL connection string reaches a message, on any path (issue 20, critical 4).

libpq reads a password from the user part of a URL, from `password=`, from
a percent-encoded key (`?pass%77ord=PW` logs in with PW), and takes other
secrets too (`sslpassword`, `oauth_client_secret`, `scram_client_key`...).
Each key libpq marks as not for display, in URL and key=value form, goes
through every way a connection string is shown: `redact` and `target`, a
malformed string's parse error, every CLI command's error lines and
warnings (a server that refuses, a server that answers) and the TUI's
header, title and notices. A password on the command line is visible in
`ps`: a notice says so.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from ctxtui.cli import main
from ctxtui.engine.sources.memory.nous.store import NousStore
from ctxtui.engine.sources.memory.shared.errors import MemorySourceError
from ctxtui.engine.sources.memory.shared.urls import hidden_keys, is_db_url, redact, target

from tests.conftest import NOW, write_context

SECRET = "Sekr3tValue"
# Every key libpq's PQconndefaults marks "*" (a secret) or "D" (debug: scram_*_key hold SCRAM keys).
SECRET_KEYS = ("password", "sslpassword", "oauth_client_secret", "scram_client_key", "scram_server_key")
REFUSED = "127.0.0.1:1"  # nothing listens on port 1: every connect fails at once


def encoded(key: str) -> str:
    """The key with every letter percent-encoded, as libpq decodes it (`pass%77ord`)."""
    return "".join(f"%{ord(c):02x}" if c.isalpha() else c for c in key)


def urls(key: str, where: str = REFUSED, db: str = "nous") -> list[str]:
    host, port = where.rsplit(":", 1)
    value = f"{SECRET}{key}"
    forms = [
        f"postgresql://me@{where}/{db}?{key}={value}",
        f"postgres://me@{where}/{db}?sslmode=disable&{encoded(key)}={quote(value)}",
        f"host={host} port={port} dbname={db} user=me {key}={value}",
        f"host={host} port={port} dbname={db} user=me {key}='{value}'",
    ]
    if key == "password":
        forms.append(f"postgresql://me:{value}@{where}/{db}")
    return forms


def test_libpq_marks_these_keys_secret():
    assert set(SECRET_KEYS) <= hidden_keys()


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_redact_and_target_drop_every_secret_key_in_every_form(key):
    for url in urls(key):
        assert is_db_url(url), url
        shown, where = redact(url), target(url)
        assert SECRET not in shown and SECRET not in where, (url, shown, where)
        assert "me" in shown and "nous" in shown and "127.0.0.1" in shown, shown  # the rest is kept
        assert where == "database nous on 127.0.0.1:1"


@pytest.mark.parametrize(
    "url",
    [
        f"postgresql://me:{SECRET}@[::1/nous",  # libpq quotes the whole URL in its complaint
        f"postgresql://me@h/nous?password={SECRET}&{SECRET}",  # ... or the bad parameter
        f"postgresql://me@h/nous?sslpassword=%zz{SECRET}",  # ... or the bad %-escape
        f"host=h password='{SECRET}",  # an unterminated quote
        f"host=h password {SECRET}",  # a missing "="
    ],
)
def test_a_malformed_string_is_never_quoted(url):
    assert SECRET not in redact(url) and SECRET not in target(url)
    with pytest.raises(MemorySourceError) as caught:
        NousStore(url).connect()
    assert SECRET not in caught.value.line and "not a valid PostgreSQL URL" in caught.value.line


def run_cli(capsys, *argv: str) -> str:
    code = main(list(argv))
    out = capsys.readouterr()
    assert code in (0, 2), (argv, code, out)
    return out.out + out.err


@pytest.mark.parametrize("key", SECRET_KEYS)
def test_no_cli_message_prints_a_secret_when_the_server_refuses(tmp_path, capsys, key):
    project = write_context(tmp_path, {"TASKS.md": "- [ ] one\n"})
    for url in urls(key):
        for argv in (
            ("pack", "--packer", "nous", "--db", url),
            ("pack", str(project), "--ignore-refusal", "--now", "2026-05-01T12:00:00Z", "--db", url),
            ("turns", "--db", url),
            ("turns", f"--db={url}", "--turn", "abc"),
            ("explain", str(project), "--all", "--ignore-refusal", "--db", url),
        ):
            text = run_cli(capsys, *argv)
            assert SECRET not in text, (argv, text)
            assert "connection refused" in text or "cannot connect" in text, (argv, text)
            assert "visible to other users" in text and "~/.pgpass" in text and "PGPASSWORD" in text, text


def test_no_cli_message_prints_a_secret_when_the_server_answers(nous_db, tmp_path, capsys):
    server = nous_db.server
    for key in SECRET_KEYS:
        value = quote(f"{SECRET}{key}")
        url = f"postgresql://ctxtui_ro@/{nous_db.name}?host={quote(server.host, safe='/')}&port={server.port}"
        for with_secret in (f"{url}&{encoded(key)}={value}", f"{url}&{key}={value}"):
            for argv in (("turns", "--db", with_secret), ("turns", "--db", with_secret, "--format", "json")):
                text = run_cli(capsys, *argv)
                assert SECRET not in text, (argv, text)


def test_a_password_on_the_command_line_gets_the_ps_notice_and_none_without(capsys):
    text = run_cli(capsys, "turns", "--db", f"postgresql://me:{SECRET}@{REFUSED}/nous")
    assert "visible to other users" in text and "~/.pgpass" in text
    text = run_cli(capsys, "turns", "--db", f"postgresql://me@{REFUSED}/nous")
    assert "visible to other users" not in text


@pytest.mark.asyncio
async def test_the_tui_shows_no_secret_in_its_header_title_or_notices(nous_db, tmp_path):
    from ctxtui.opening.request import PackRequest
    from ctxtui.session import Session
    from ctxtui.tui.app import CtxtuiApp

    from tests.app.helpers import SIZE, settle
    from tests.hostile.terminal_capture import TerminalCapture

    server = nous_db.server
    good = f"postgresql://ctxtui_ro@/{nous_db.name}?host={quote(server.host, safe='/')}&port={server.port}"
    root = write_context(tmp_path, {"TASKS.md": "- [ ] one\n"})
    every = "&".join(f"{encoded(key)}={SECRET}" for key in SECRET_KEYS)
    for url in (f"{good}&{every}", f"postgresql://me:{SECRET}@{REFUSED}/nous?{every}"):
        for project, packer in ((root, "ctx-0.8.1"), (Path(tmp_path / "none"), "nous")):
            session = Session(project=project, db_url=url, clock=lambda: NOW, options=PackRequest(packer=packer))
            app = CtxtuiApp(session, theme_name="ctxtui-dark", watch=False, real_tokens=False, poll_seconds=0.2)
            capture = TerminalCapture(app)
            async with app.run_test(size=SIZE) as pilot:
                await settle(pilot)
                await pilot.pause(0.5)
                shown = [n.message + n.title for n in app._notifications]
                assert all(SECRET not in text for text in shown), shown
                assert SECRET not in app.title and SECRET not in (app.sub_title or "")
                assert SECRET not in session.label
                assert SECRET not in capture.text, url

"""tutor/web/proxy.py: X-Forwarded-* believed from the proxy's address only; the public URL; ``ddz serve``'s options."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import run_async
from tutor.web.proxy import TrustedProxy, parse_proxies, parse_public_url


def seen(client: str, headers: list[tuple[bytes, bytes]], proxies: str = "127.0.0.1") -> dict[str, Any]:
    """The scope the app behind :class:`TrustedProxy` gets for a request from ``client`` with ``headers``."""
    found: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        found.update(scope)

    scope = {"type": "http", "scheme": "http", "client": (client, 5000), "headers": headers, "path": "/"}
    run_async(TrustedProxy(app, parse_proxies(proxies))(scope, None, None))  # type: ignore[arg-type]
    return found


FORWARDED = [(b"host", b"127.0.0.1:8765"), (b"x-forwarded-for", b"203.0.113.9, 10.1.2.3"),
             (b"x-forwarded-proto", b"https"), (b"x-forwarded-host", b"club.example.org")]


def test_the_proxys_headers_are_believed_the_last_forwarded_address_is_the_client() -> None:
    scope = seen("127.0.0.1", FORWARDED)
    assert scope["scheme"] == "https" and scope["client"][0] == "10.1.2.3"  # the entry the proxy itself appended
    assert [value for key, value in scope["headers"] if key == b"host"] == [b"club.example.org"]


def test_anyone_elses_forwarded_headers_are_ignored() -> None:
    scope = seen("10.9.9.9", FORWARDED)
    assert scope["scheme"] == "http" and scope["client"][0] == "10.9.9.9"
    assert [value for key, value in scope["headers"] if key == b"host"] == [b"127.0.0.1:8765"]
    assert seen("::1", FORWARDED, "10.0.0.2, ::1")["client"][0] == "10.1.2.3"  # several proxies, IPv6
    odd = seen("127.0.0.1", [(b"x-forwarded-for", b"not-an-address"), (b"x-forwarded-proto", b"gopher")])
    assert odd["client"][0] == "127.0.0.1" and odd["scheme"] == "http"


def test_public_urls() -> None:
    assert parse_public_url("https://Club.Example.org/").origin == "https://club.example.org"
    assert parse_public_url("https://club.example.org:443").netloc == "club.example.org"
    assert parse_public_url("https://10.0.0.5:8443").netloc == "10.0.0.5:8443"
    for bad in ("ftp://x", "https://", "https://x/path", "https://x:99999", "club.example.org"):
        with pytest.raises(ValueError):
            parse_public_url(bad)
    with pytest.raises(ValueError):
        parse_proxies("nginx.local")


@pytest.mark.parametrize(("options", "words"), [
    (["--proxy", "127.0.0.1"], "go together"),
    (["--proxy", "127.0.0.1", "--public-url", "https://x.org"], "club mode"),
    (["--db", "x.sqlite3", "--proxy", "proxy.example", "--public-url", "https://x.org"], "not an IP address"),
    (["--db", "x.sqlite3", "--proxy", "127.0.0.1", "--public-url", "https://x.org/club"], "https://host[:port]"),
])
def test_serve_refuses_unusable_proxy_options_in_one_line(options: list[str], words: str, tmp_path: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from tutor.cli.main import main

    monkeypatch.setenv("DDZ_HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["serve", "--no-open", "--port", "0", *options])
    assert result.exit_code == 2 and words in result.output and len(result.output.strip().splitlines()) == 1
    assert not (tmp_path / "x.sqlite3").exists()  # refused before anything is opened

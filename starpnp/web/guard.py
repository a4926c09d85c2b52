"""Who is asking: before a request reads or writes anything, its Host, its Origin and (for a write) a token
are checked, once, here, for the studio and the companion alike.

- **Host.** A stranger's web page can make its own name resolve to this machine (DNS rebinding) and then talk
  to us as if it were same-origin. Such a request still names the stranger's host, so a server that knows the
  names it is reached by answers only those. An IP address literal can't be rebound, so it is always a name.
- **Origin.** A browser says which page a request comes from. A write from another origin (a form or a
  fetch on a foreign page: cross-site request forgery) is refused, and so is a read a foreign page asks for.
- **Token.** Where a server hands its own page a secret (the studio's `<meta name="studio-token">`), a write
  must carry it back in a header, which no other page can set on a request to us.

A refusal is a 403 with one line naming what was wrong; the app's own error handler words it as JSON or HTML.
"""
from __future__ import annotations

import hmac
import ipaddress
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from flask import Flask, request
from werkzeug.exceptions import Forbidden

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def split_host(host: str) -> tuple[str, str]:
    """`[::1]:8040` → (`::1`, `8040`); `Localhost` → (`localhost`, ``)."""
    host = host.strip().lower()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, rest.removeprefix(":")
    name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
    return name, port


def is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def loopback_names(host: str) -> frozenset[str]:
    """The names a server listening on `host` is reached by from this machine: its own address, and the
    loopback names when it listens on loopback or on every address."""
    host = split_host(host)[0] if host.startswith("[") else host.lower()
    if host in LOOPBACK_NAMES or host in ("0.0.0.0", "::", "") or host.startswith("127."):
        return LOOPBACK_NAMES | {host}
    return frozenset({host})


@dataclass
class RequestGuard:
    """`names`: host names answered besides IP literals (None: any Host, for a server behind a proxy whose
    public name is not known); `origins`: further origins a write may come from (a public URL behind a proxy
    that speaks HTTPS while we see HTTP); `token` and `token_header`: the secret every write must carry (None:
    the app checks its own tokens, as the companion does per seat)."""

    names: frozenset[str] | None = None
    token: str | None = None
    token_header: str = "X-Studio-Token"
    origins: frozenset[str] = field(default_factory=frozenset)

    def install(self, app: Flask) -> "RequestGuard":
        app.before_request(self.check)
        app.extensions["request_guard"] = self
        return self

    def check(self) -> None:
        name, _ = split_host(request.host)
        if self.names is not None and name not in self.names and not is_address(name):
            raise Forbidden(f"Host: {request.host!r} is not an address this server answers to")
        origin = request.headers.get("Origin")
        writing = request.method not in SAFE_METHODS
        if origin is not None and not self.same_origin(origin):
            raise Forbidden(f"Origin: {origin!r} is not this server's page")
        if writing and origin is None and self.token is not None:
            raise Forbidden("Origin: a change must come from this server's page")
        if writing and self.token is not None:
            given = request.headers.get(self.token_header, "")
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                raise Forbidden(f"{self.token_header}: missing or wrong; reload the page")

    def same_origin(self, origin: str) -> bool:
        if origin.rstrip("/") in self.origins:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower()

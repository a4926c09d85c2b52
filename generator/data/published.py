"""Item lists from a spreadsheet published on the web as CSV (`items: https://…`, Google Sheets' "Publish
to the web" link, or any https address that serves CSV), so co-designers edit one shared sheet.

Every build fetches it and keeps the copy in the game folder's `.cache/published/`; a build that cannot
reach it uses that copy and warns how old it is; `--refresh` insists on a fresh copy and fails in one line
without one. Nothing fetched runs: the text is read as CSV like any `items: FILE.csv`.

A game folder is untrusted, so its address is too (issue #41):
- https only, redirects only to https, at most MAX_REDIRECTS of them, at most MAX_BYTES;
- one deadline for the whole fetch, name look-up, connection, headers, body and redirects, kept on a thread
  of its own, so a server that drips one byte a second ends at the deadline like one that never answers;
- every host is looked up once, each of its addresses checked, and the connection made to the very address
  that passed (the certificate and Host header still name the host), so a name that changes its answer
  between check and connection (DNS rebinding) reaches nothing it was not checked for. Addresses on this
  computer, a private, link-local, shared or reserved network or multicast are refused, an IPv4 address
  inside an IPv6 one (mapped, 6to4, NAT64) judged as that IPv4 address; only the person running starpnp can
  allow networks of their own, in the environment (SHEET_NETWORKS_VARIABLE), never the folder;
- every failure is one line; a server that cannot be reached reads the same however it failed (refused,
  closed, filtered, no such name), so a folder cannot map the networks it is built on.
"""
from __future__ import annotations

import hashlib
import http.client
import ipaddress
import math
import os
import re
import socket
import ssl
import threading
import time
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from .errors import DataError
from .inside import kept_file, kept_since, write_kept
from .limits import MAX_FETCH_SECONDS, MAX_FILE_BYTES

MAX_BYTES = MAX_FILE_BYTES
MAX_REDIRECTS = 5  # Google's published links redirect once
CACHE_FOLDER = Path(".cache") / "published"
FETCH_SECONDS_VARIABLE = "STARPNP_FETCH_SECONDS"  # the deadline, for a slow line (and the tests' short one)
SHEET_NETWORKS_VARIABLE = "STARPNP_SHEET_NETWORKS"  # e.g. "192.168.1.0/24,10.0.0.7": fetched from all the same
REDIRECTS = (301, 302, 303, 307, 308)
COUNT = re.compile(r"[0-9]{1,20}")  # a Content-Length as the standard writes it: digits, nothing else
UNREACHABLE = "its server cannot be reached"  # whatever stopped the connection: one reading for all


def cached_copy(folder: Path, url: str) -> Path:
    """Where the game folder keeps its copy of a published sheet (one file per address)."""
    return folder / CACHE_FOLDER / f"{hashlib.sha256(url.encode()).hexdigest()[:16]}.csv"


def published_table(folder: Path, url: str, refresh: bool, warnings: list[str]) -> Path:
    """A CSV file holding the published sheet: fetched now, or (unless `refresh`) the copy an earlier build
    kept, with a warning in `warnings` saying how old it is. The copy lives in real folders inside the game's
    folder: a `.cache` (or anything under it) that is a link is refused before anything is fetched."""
    if not url.lower().startswith("https://"):
        raise DataError(f"{url[:80]}: a published sheet is read over https only; use its https:// link")
    relative = cached_copy(folder, url).relative_to(folder)
    copy = kept_file(folder, relative)
    try:
        data = fetch(url)
    except DataError as exc:
        kept = None if refresh else kept_since(copy)
        if kept is None:
            raise DataError(f"{exc}{'' if refresh else '; no copy kept from an earlier build'}") from None
        warnings.append(f"{exc}; using the copy fetched {_age(time.time() - kept)} ago")
        return copy
    try:
        write_kept(folder, relative, data)
    except OSError as exc:
        raise DataError(f"{url[:80]}: cannot keep its copy in {copy.parent}: {exc.strerror or exc}") from None
    return copy


def fetch_seconds() -> float:
    """The deadline of one whole fetch: MAX_FETCH_SECONDS, or the environment's FETCH_SECONDS_VARIABLE (1 to
    300) for a slow line."""
    try:
        seconds = float(os.environ.get(FETCH_SECONDS_VARIABLE, MAX_FETCH_SECONDS))
    except ValueError:
        seconds = math.nan
    return min(max(seconds, 1.0), 300.0) if not math.isnan(seconds) else float(MAX_FETCH_SECONDS)


def own_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """The networks the person running starpnp allows besides public addresses (SHEET_NETWORKS_VARIABLE)."""
    networks = []
    for part in os.environ.get(SHEET_NETWORKS_VARIABLE, "").replace(";", ",").split(","):
        try:
            networks.append(ipaddress.ip_network(part.strip(), strict=False))
        except ValueError:
            continue
    return networks


NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # IPv6 names of IPv4 addresses, through a NAT64 gateway


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """A global unicast address: not this computer, a private, link-local, shared, reserved or multicast one.
    An IPv4 address carried inside an IPv6 one is judged as itself."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = address.ipv4_mapped or address.sixtofour
        if inner is None and address in NAT64:
            inner = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
        if inner is not None:
            return is_public(inner)
    return address.is_global and not address.is_multicast and not address.is_reserved


def fetch(url: str) -> bytes:
    """The body the address answers with, following https redirects, within one deadline; DataError in one
    line otherwise."""
    deadline = fetch_seconds()
    attempt = _Fetch(url, time.monotonic() + deadline)
    worker = threading.Thread(target=attempt.run, name="starpnp-fetch", daemon=True)
    worker.start()
    worker.join(deadline)
    if worker.is_alive():  # stuck in a look-up, a handshake or a drip: stop waiting, free the connection
        connected = attempt.abandon()
        raise attempt.failure(f"no whole answer within {deadline:g} s" if connected else UNREACHABLE)
    if attempt.error is not None:
        raise attempt.error
    return attempt.body


class _Fetch:
    """One fetch on a thread of its own. The caller stops waiting at the deadline and `abandon`s it, which
    shuts the connection down so the thread ends too."""

    def __init__(self, url: str, deadline: float):
        self.url, self.deadline = url, deadline
        self.networks = own_networks()
        self.context: ssl.SSLContext | None = None  # made on the fetch's thread, where any failure is caught
        self.lock = threading.Lock()
        self.watched: socket.socket | None = None  # a duplicate of the connection's socket, to shut it down
        self.connected = self.abandoned = False
        self.body = b""
        self.error: DataError | None = None

    def failure(self, reason: str) -> DataError:
        return DataError(f"{self.url[:80]}: cannot fetch the published sheet ({reason})")

    def run(self) -> None:
        try:
            self.context = ssl.create_default_context()
            self.body = self._follow()
        except DataError as exc:
            self.error = exc
        except http.client.HTTPException as exc:
            self.error = self.failure(_broken(exc) if self.connected else UNREACHABLE)
        except Exception:  # noqa: BLE001 - OSError (ssl, sockets, timeouts), ValueError, or whatever else a
            # hostile answer trips in http.client: one line always, never a traceback on this thread and an
            # empty body taken for the sheet
            self.error = self.failure("its answer broke off" if self.connected else UNREACHABLE)
        finally:
            self._watch(None)

    def abandon(self) -> bool:
        """Stop the fetch; whether its server had been connected to (answering too slowly) or not (unreachable)."""
        with self.lock:
            self.abandoned = True
            if self.watched is not None:
                try:
                    self.watched.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            return self.connected

    def _watch(self, sock: socket.socket | None) -> None:
        with self.lock:
            if self.watched is not None:
                self.watched.close()
            self.watched = sock.dup() if sock is not None else None
            if self.abandoned and self.watched is not None:
                self.watched.shutdown(socket.SHUT_RDWR)

    def _left(self) -> float:
        return max(self.deadline - time.monotonic(), 0.01)

    def _follow(self) -> bytes:
        url = self.url
        for _ in range(MAX_REDIRECTS + 1):
            response, connection = self._get(url)
            try:
                if response.status not in REDIRECTS:
                    return self._body(response)
                target = response.getheader("Location")
                if not target:
                    raise self.failure(f"a {response.status} redirect without a Location")
            finally:
                connection.close()
            url = urljoin(url, target.strip())
            if not url.lower().startswith("https://"):
                raise DataError(f"{self.url[:80]}: redirected to {url[:80]!r}; only https addresses are followed")
        raise self.failure(f"more than {MAX_REDIRECTS} redirects")

    def _get(self, url: str) -> tuple[http.client.HTTPResponse, http.client.HTTPSConnection]:
        try:
            parts = urlsplit(url)
            host, port = parts.hostname, parts.port or 443
        except ValueError:
            host = None
        if not host:
            raise DataError(f"{url[:80]}: not a usable https address")
        addresses = self._checked_addresses(url, host, port)
        self.connected = False
        connection = _PinnedConnection(host, port, addresses, self)
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", path, headers={"User-Agent": "starpnp (published card list)",
                                                 "Accept": "text/csv, */*;q=0.5"})
        return connection.getresponse(), connection

    def _checked_addresses(self, url: str, host: str, port: int) -> list[str]:
        """The addresses `host` has that may be fetched from, in the order given (an IPv6 one first may not
        be reachable from here); refused in one line when it has none."""
        try:
            found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError):
            raise self.failure(UNREACHABLE) from None
        allowed, refused = [], None
        for _, _, _, _, sockaddr in found:
            address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
            if is_public(address) or any(address in network for network in self.networks):
                allowed += [str(address)] if str(address) not in allowed else []
            elif refused is None:
                refused = address
        if allowed:
            return allowed
        where = "it" if url == self.url else url[:80]
        raise self.failure(f"{where} leads to {refused}, an address on this computer or a private network; to fetch "
                           f"from it, set {SHEET_NETWORKS_VARIABLE}={refused}")

    def _body(self, response: http.client.HTTPResponse) -> bytes:
        if response.status != 200:
            reason = "".join(c for c in str(response.reason)[:40] if c.isprintable())
            raise DataError(f"{self.url[:80]}: the server answered {response.status} {reason}".rstrip())
        if response.headers.get_content_type() == "text/html":  # a sign-in page, or the sheet's own page
            raise DataError(f"{self.url[:80]}: answers a web page, not CSV; publish the sheet to the web as "
                            f"CSV (Google Sheets: File > Share > Publish to web > CSV) and use that link")
        lengths = response.headers.get_all("Content-Length") or []
        if lengths and (len(lengths) > 1 or not COUNT.fullmatch(lengths[0].strip())):  # http.client would read on to
            # the close, or take the first of two: a sheet whose size its server cannot say is not read
            raise self.failure(f"its Content-Length is {', '.join(lengths)[:40]!r}, not a count of bytes")
        declared = response.length  # None when chunked or not given
        if declared is not None and declared > MAX_BYTES:
            raise self._too_large()
        chunks, size = [], 0
        while size <= MAX_BYTES:
            chunk = response.read(64 * 1024)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise self._too_large()
        if declared is not None and response.length:  # http.client stops quietly at a close; a short sheet
            # would read as a whole one with rows missing
            raise self.failure(f"its answer ended after {size:,} of its {size + response.length:,} bytes")
        return b"".join(chunks)

    def _too_large(self) -> DataError:
        return DataError(f"{self.url[:80]}: more than {MAX_BYTES // 1024 // 1024} MiB; a card list is far smaller")


class _PinnedConnection(http.client.HTTPSConnection):
    """An https connection to `address`, the one that was checked, never to what the name resolves to by
    then; the certificate must still be the host's, and the Host header names it."""

    def __init__(self, host: str, port: int, addresses: list[str], attempt: _Fetch):
        super().__init__(host, port, timeout=attempt._left(), context=attempt.context)
        self.addresses, self.attempt = addresses, attempt

    def connect(self) -> None:
        for index, address in enumerate(self.addresses):
            raw = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM)
            try:
                self.attempt._watch(raw)
                raw.settimeout(self.attempt._left())
                raw.connect((address, self.port))
            except OSError:
                raw.close()
                if index == len(self.addresses) - 1:
                    raise
                continue
            try:
                self.sock = self._context.wrap_socket(raw, server_hostname=self.host)
            except BaseException:
                raw.close()
                raise
            self.attempt.connected = True
            return


def _broken(error: http.client.HTTPException) -> str:
    """What was wrong with an answer, in a few fixed words (never the server's own text)."""
    if isinstance(error, http.client.RemoteDisconnected):
        return "it closed the connection without an answer"
    if isinstance(error, http.client.IncompleteRead):
        return "its answer broke off"
    if isinstance(error, http.client.LineTooLong):
        return "its answer has a line too long"
    if "headers" in str(error):
        return "its answer has too many header lines"
    if isinstance(error, http.client.BadStatusLine):
        return "its answer is not HTTP"
    return "its answer is not valid HTTP"


def _age(seconds: float) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return "less than a minute"

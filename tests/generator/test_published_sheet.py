"""`items: https://…`: a card list published on the web as CSV, served here by a real local HTTPS server
(hostile_https.py) that serves it well or badly on purpose, with a certificate only the test trusts.

The server listens on loopback, which a build refuses by default, as it refuses private and link-local
addresses (a stranger's folder must not reach the machine it is built on nor its network). The tests that
need it allow 127.0.0.1 exactly as a user allows a sheet on their own network: STARPNP_SHEET_NETWORKS in the
environment, which nothing in a game folder can set. Their deadline is 2 s (STARPNP_FETCH_SECONDS) where a
user's is 20 s. No switch in starpnp lets plain http through."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_runner import MEMORY_CAP, UNTRUSTED_MARKER as MARKER, one_line, replace
from forked_cli import forked_run
from hostile_https import BEHAVIOURS, SHEET, served
from starpnp.generator.data import published
from starpnp.generator.data.errors import DataError
from starpnp_test_support import examples

TIME_LIMIT = 60  # seconds: a hang detector, not a speed test

COURIERS = Path(__file__).resolve().parent.parent / "fixtures" / "couriers"
DEADLINE = "2"
ALLOW_LOOPBACK = {published.SHEET_NETWORKS_VARIABLE: "127.0.0.1", published.FETCH_SECONDS_VARIABLE: DEADLINE}


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """(base address, certificate, the paths asked for) of one hostile server for the whole module."""
    with served(tmp_path_factory.mktemp("hostile")) as server:
        yield server


@pytest.fixture
def trusting(hostile, monkeypatch):
    """This process trusts the server's certificate, allows loopback and waits 2 s; (base, paths asked)."""
    base, cert, requests = hostile
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    for name, value in ALLOW_LOOPBACK.items():
        monkeypatch.setenv(name, value)
    return base, requests


def starpnp(command: str, game: Path, cert: Path, *extra, allow: bool = True) -> subprocess.CompletedProcess:
    """`check` or `build` as its own process under the untrusted-folder tests' memory cap and time limit,
    with their marker planted in the environment (and asserted absent from what it says)."""
    env = {**os.environ, "SSL_CERT_FILE": str(cert), "SECRET_TOKEN": MARKER, **(ALLOW_LOOPBACK if allow else {})}
    out = ["--format", "pdf", "--out", str(game.parent / "out")] if command == "build" else []
    result = forked_run([command, game, *out, *extra], env=env, timeout=TIME_LIMIT, memory_cap=MEMORY_CAP)
    assert MARKER not in result.stdout + result.stderr
    return result


def published_game(folder: Path, url: str) -> Path:
    game = folder / "couriers"
    shutil.copytree(COURIERS, game)
    (game / "parcels.csv").unlink()
    replace(game / "cards.yaml", "items: parcels.csv", f"items: {url}")
    return game


def refused(url: str) -> str:
    """The one line fetching `url` ends in."""
    with pytest.raises(DataError) as caught:
        published.fetch(url)
    line = str(caught.value)
    assert "\n" not in line and len(line) < 500 and line.startswith(url[:80]), line
    return line


# ---- a good sheet, its kept copy, --refresh -------------------------------------------------------------

def test_a_published_sheet_builds_then_builds_from_its_kept_copy_and_refresh_insists(tmp_path):
    with served(tmp_path) as (base, cert, _):
        game = published_game(tmp_path, f"{base}/pub.csv")
        fetched = starpnp("build", game, cert)
        assert fetched.returncode == 0 and "warning" not in fetched.stdout, fetched.stdout + fetched.stderr
        assert "27 pieces" in fetched.stdout  # the 10 parcels of the sheet, as from parcels.csv
        [copy] = (game / ".cache" / "published").glob("*")
        assert copy.read_bytes() == SHEET and copy.suffix == ".csv"

    offline = starpnp("build", game, cert)
    assert offline.returncode == 0, offline.stderr
    assert "27 pieces" in offline.stdout
    assert f"{base}/pub.csv: cannot fetch the published sheet (its server cannot be reached)" in offline.stdout
    assert "using the copy fetched less than a minute ago" in offline.stdout, offline.stdout

    line = one_line(starpnp("build", game, cert, "--refresh"), f"{base}/pub.csv: cannot fetch the published sheet")
    assert "copy" not in line


def test_the_address_is_named_in_a_bad_rows_error(trusting, tmp_path, monkeypatch):
    base, _ = trusting
    monkeypatch.setattr(published, "fetch", lambda url: SHEET.replace(b"3,Ice Crate", b"x,Ice Crate"))
    from starpnp.generator.look.loader import load_game
    from starpnp.generator.data.yamlio import DataErrors

    with pytest.raises(DataErrors) as caught:
        load_game(published_game(tmp_path, f"{base}/pub.csv"))
    assert any(e.startswith(f"{base}/pub.csv:2: count:") and "expected a whole number" in e
               for e in caught.value.errors), caught.value.errors


# ---- every remote behaviour: one line, within the deadline -----------------------------------------------

@pytest.mark.parametrize("path, expected", [
    ("/to-http", "redirected to 'http://127.0.0.1"),
    ("/edit", "answers a web page, not CSV; publish the sheet to the web as CSV"),
    ("/gone.csv", "the server answered 404 Not Found"),
    ("/loop", "cannot fetch the published sheet (more than 5 redirects)"),
    ("/no-location", "cannot fetch the published sheet (a 302 redirect without a Location)"),
    ("/many-headers", "cannot fetch the published sheet (its answer has too many header lines)"),
    ("/long-header", "cannot fetch the published sheet (its answer has a line too long)"),
    ("/bad-status", "cannot fetch the published sheet (its answer is not HTTP)"),
    ("/not-http", "cannot fetch the published sheet (its answer is not HTTP)"),
    ("/bad-chunks", "cannot fetch the published sheet (its answer broke off)"),
    ("/closed", "cannot fetch the published sheet (it closed the connection without an answer)"),
    ("/short", f"cannot fetch the published sheet (its answer ended after {len(SHEET) - len(SHEET) // 2:,} of "
               f"its {len(SHEET):,} bytes)"),
    ("/negative-length", "cannot fetch the published sheet (its Content-Length is '-1', not a count of bytes)"),
    ("/doubled-length", f"cannot fetch the published sheet (its Content-Length is '{len(SHEET)}, "
                        f"{2 * len(SHEET)}', not a count of bytes)"),
    ("/drip-status", f"cannot fetch the published sheet (no whole answer within {DEADLINE} s)"),
    ("/drip-headers", f"cannot fetch the published sheet (no whole answer within {DEADLINE} s)"),
    ("/drip-body", f"cannot fetch the published sheet (no whole answer within {DEADLINE} s)"),
])
def test_each_bad_behaviour_of_a_server_is_one_line(trusting, path, expected):
    """A drip ends at the one deadline (the server would go on dripping for 30 s), not at a per-read
    timeout that each byte renews; a body short of its Content-Length is refused, not read as the sheet."""
    base, _ = trusting
    assert expected in refused(f"{base}{path}")


def test_a_good_sheet_and_a_redirect_to_it_are_fetched_whole(trusting):
    base, _ = trusting
    assert published.fetch(f"{base}/pub.csv") == SHEET
    assert published.fetch(f"{base}/to-pub") == SHEET


def test_unreachable_reads_the_same_however_it_failed(trusting, monkeypatch):
    """A closed port, a port that accepts and says nothing (as a filtering firewall seems), one that hangs up
    at once, a name that does not exist and one whose look-up hangs (ended by the deadline): the same words,
    so a folder cannot map a network by them."""
    stopped = threading.Event()
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, *a, **k: stopped.wait(60) if host == "slow-name.test"
                        else ORIGINAL_GETADDRINFO(host, *a, **k))
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    closed_port = closed.getsockname()[1]
    closed.close()
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    hanging_up = socket.socket()
    hanging_up.bind(("127.0.0.1", 0))
    hanging_up.listen(8)

    def hang_up():
        for _ in range(2):
            connection, _ = hanging_up.accept()
            connection.close()

    threading.Thread(target=hang_up, daemon=True).start()
    try:
        reasons = {refused(url).split(": ", 1)[1] for url in (
            f"https://127.0.0.1:{closed_port}/s.csv", f"https://127.0.0.1:{silent.getsockname()[1]}/s.csv",
            f"https://127.0.0.1:{hanging_up.getsockname()[1]}/s.csv", "https://no-such-host.invalid/s.csv",
            "https://slow-name.test/s.csv")}
    finally:
        stopped.set()
        silent.close()
        hanging_up.close()
    assert reasons == {"cannot fetch the published sheet (its server cannot be reached)"}


BAD = ("/to-http", "/gone.csv", "/loop", "/many-headers", "/long-header", "/bad-status", "/bad-chunks", "/closed",
       "/short", "/drip-status", "/drip-body", "/to-loopback", "/to-link-local")


def test_check_and_build_say_one_line_for_each_bad_server_and_the_same_lines(tmp_path, hostile):
    """A card list per bad behaviour in one game, each in a file of its own: `check` and `build` as
    processes list one line for each (no traceback, the drips ended by the deadline), the same lines."""
    base, cert, _ = hostile
    game = published_game(tmp_path, f"{base}/pub.csv")
    text = (game / "cards.yaml").read_text()
    (game / "cards.yaml").unlink()
    for index, path in enumerate(BAD):
        (game / f"cards{index:02}.yaml").write_text(text.replace(f"{base}/pub.csv", f"{base}{path}")
                                                    .replace("id: parcels", f"id: parcels{index}"))
    said = []
    for command in ("check", "build"):
        result = starpnp(command, game, cert)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        said.append(result.stderr.strip().splitlines())
    assert said[0] == said[1]
    assert len(said[0]) == len(BAD), said[0]
    assert all(line.startswith(f"{base}/") and line.endswith("; no copy kept from an earlier build")
               for line in said[0]), said[0]
    assert sum(f"(no whole answer within {DEADLINE} s)" in line for line in said[0]) == 2


# ---- nothing on this computer or its networks, directly or by redirect ------------------------------------

@pytest.mark.parametrize("host, address", [
    ("127.0.0.1", "127.0.0.1"), ("localhost", "127.0.0.1"), ("[::1]", "::1"),
    ("[::ffff:127.0.0.1]", "::ffff:7f00:1"), ("10.20.30.40", "10.20.30.40"), ("192.168.1.1", "192.168.1.1"),
    ("172.16.0.1", "172.16.0.1"), ("169.254.169.254", "169.254.169.254"), ("[fe80::1]", "fe80::1"),
    ("[fd00::1]", "fd00::1"), ("0.0.0.0", "0.0.0.0"), ("224.0.0.1", "224.0.0.1"), ("100.64.0.1", "100.64.0.1"),
    ("[64:ff9b::7f00:1]", "64:ff9b::7f00:1"), ("[2002:a00:1::]", "2002:a00:1::"),
])
def test_loopback_private_link_local_and_reserved_addresses_are_refused_unasked(hostile, monkeypatch, host,
                                                                               address):
    """Refused before any connection (the server on 127.0.0.1 is asked nothing), with the way to allow one."""
    base, _, requests = hostile
    monkeypatch.delenv(published.SHEET_NETWORKS_VARIABLE, raising=False)
    asked = len(requests)
    port = base.rsplit(":", 1)[1]
    line = refused(f"https://{host}:{port}/pub.csv")
    assert f"(it leads to {address}, an address on this computer or a private network; to fetch from it, set " \
           f"{published.SHEET_NETWORKS_VARIABLE}={address})" in line, line
    assert len(requests) == asked


@pytest.mark.parametrize("path, address", [
    ("/to-loopback", "127.0.0.2"), ("/to-localhost", None), ("/to-mapped", "::ffff:7f00:1"),
    ("/to-ipv6-loopback", "::1"), ("/to-private", "10.20.30.40"), ("/to-link-local", "169.254.169.254"),
])
def test_a_redirect_to_this_computer_or_a_private_network_is_refused(trusting, monkeypatch, path, address):
    """The server allowed (127.0.0.1) redirects to other loopback, private and link-local addresses: each
    redirect's address is checked again. `localhost` is 127.0.0.1 here, so allowed only while it is."""
    base, requests = trusting
    if address is None:
        assert published.fetch(f"{base}{path}") == SHEET
        monkeypatch.setenv(published.SHEET_NETWORKS_VARIABLE, "127.0.0.1/32")
        monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "",
                                                                     ("127.0.0.3", 1))] if a[0] == "localhost"
                            else ORIGINAL_GETADDRINFO(*a, **k))
        address = "127.0.0.3"
    asked = len(requests)
    line = refused(f"{base}{path}")
    assert line.startswith(f"{base}{path}: cannot fetch the published sheet (https://"), line
    assert f"leads to {address}, an address on this computer or a private network" in line
    assert requests[asked:] == [path]  # the first answer only: the refused one was never asked


ORIGINAL_GETADDRINFO = socket.getaddrinfo


def test_the_connection_goes_to_the_address_that_was_checked(trusting, monkeypatch):
    """DNS rebinding: a name checked as one (allowed) address and answering another a moment later reaches
    the first; the name is looked up once, and the certificate and Host header still name it."""
    base, requests = trusting
    port = int(base.rsplit(":", 1)[1])
    answers = iter([("127.0.0.1", port), ("10.9.9.9", port)])
    looked_up = []

    def rebinding(host, *args, **kwargs):
        looked_up.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", next(answers))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    assert published.fetch(f"https://localhost:{port}/pub.csv") == SHEET  # the certificate names localhost
    assert looked_up == ["localhost"]


def test_a_name_with_refused_and_allowed_addresses_is_fetched_from_an_allowed_one_only(trusting, monkeypatch):
    base, _ = trusting
    port = int(base.rsplit(":", 1)[1])
    both = [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)) for address in ("10.9.9.9", "127.0.0.1")]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *args, **kwargs: both)
    assert published.fetch(f"https://localhost:{port}/pub.csv") == SHEET  # 10.9.9.9 would not answer at all
    monkeypatch.delenv(published.SHEET_NETWORKS_VARIABLE)
    assert "(it leads to 10.9.9.9, an address" in refused(f"https://localhost:{port}/pub.csv")


def test_a_build_refuses_a_loopback_sheet_in_the_same_line_as_check(tmp_path, hostile):
    base, cert, requests = hostile
    asked = len(requests)
    game = published_game(tmp_path, f"{base}/pub.csv")
    expected = (f"{base}/pub.csv: cannot fetch the published sheet (it leads to 127.0.0.1, an address on this "
                f"computer or a private network; to fetch from it, set STARPNP_SHEET_NETWORKS=127.0.0.1); no copy "
                f"kept from an earlier build")
    assert one_line(starpnp("check", game, cert, allow=False)) == expected
    assert one_line(starpnp("build", game, cert, allow=False)) == expected
    assert len(requests) == asked and not (game / ".cache").exists()


# ---- fuzzing: any behaviour, any address --------------------------------------------------------------

@settings(max_examples=examples(12), deadline=None)
@given(path=st.sampled_from([p for p in BEHAVIOURS if not p.startswith("/drip")]) | st.text(max_size=30),
       allowed=st.booleans())
def test_whatever_the_server_does_a_fetch_is_the_sheet_or_one_line(hostile, path, allowed):
    """Sampled behaviours (the drips have their own tests above: each waits out the deadline) and random
    paths, with loopback allowed or not: the whole sheet, or one DataError line naming the address."""
    base, cert, requests = hostile
    asked = len(requests)
    saved = dict(os.environ)
    os.environ.update({"SSL_CERT_FILE": str(cert), published.FETCH_SECONDS_VARIABLE: DEADLINE,
                       **(ALLOW_LOOPBACK if allowed else {})})
    url = f"{base}{path}"
    try:
        body = published.fetch(url)
    except DataError as exc:
        line = str(exc)
        assert "\n" not in line and len(line) < 500 and line.startswith(url[:80]), line
        assert allowed or len(requests) == asked, line
    else:
        assert allowed and body in (SHEET, b"")
    finally:
        os.environ.clear()
        os.environ.update(saved)

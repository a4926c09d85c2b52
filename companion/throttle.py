"""Light throttles per client address: on wrong table and group codes, and on seat requests.

A join code is a table's secret (and a group code shows names), so guessing must be slow: each address may
get WRONG_CODES "no table with this code" answers per minute (WrongCode: only those, never a refused seat
or an answer to a request that is gone); after that every request naming a code gets a 429 until the minute
has passed. A phone that mistypes a code a few times never notices.

Asking for a held seat is throttled apart, SEAT_REQUESTS per minute per address: a flood of requests (each a
row, and a card on the approvers' phones) is refused with one line, and counts toward nothing else.
"""
from __future__ import annotations

import threading
import time
from collections import defaultdict, deque

from flask import Flask, current_app, g, request

from .storage import StoreError, WrongCode

WRONG_CODES = 20
SEAT_REQUESTS = 30
WINDOW_SECONDS = 60.0


class TooManyWrongCodes(StoreError):
    status = 429


class TooManySeatRequests(StoreError):
    status = 429


class PerMinute:
    """How often each client did something within the last `window` seconds, against a `limit`."""

    def __init__(self, limit: int, window: float = WINDOW_SECONDS):
        self.limit, self.window = limit, window
        self._times: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, who: str, now: float) -> deque:
        times = self._times[who]
        while times and times[0] < now - self.window:
            times.popleft()
        return times

    def note(self, who: str) -> None:
        with self._lock:
            self._recent(who, time.monotonic()).append(time.monotonic())

    def blocked(self, who: str) -> bool:
        with self._lock:
            times = self._recent(who, time.monotonic())
            if not times:
                del self._times[who]  # forget quiet clients: the map stays as small as the busy ones
            return len(times) >= self.limit


def _client() -> str:
    return request.remote_addr or "?"


def note_wrong_code(error: StoreError | None = None) -> None:
    """Count this request as a wrong guess when it was refused for naming no table or group (WrongCode); the
    errors' handler calls it for every refusal, /join for the code it could not find."""
    if error is None or isinstance(error, WrongCode):
        g.wrong_code = True


def count_seat_request() -> None:
    """A phone asks for a held seat (or the host role): refused with one line past SEAT_REQUESTS a minute."""
    asked = current_app.extensions["seat_requests"]
    if asked.blocked(_client()):
        raise TooManySeatRequests(f"player: more than {asked.limit} seat requests a minute from this device; "
                                  f"wait a minute")
    asked.note(_client())


def init_throttle(app: Flask) -> None:
    wrong = PerMinute(app.config.get("WRONG_CODES_PER_MINUTE", WRONG_CODES))
    app.extensions["wrong_codes"] = wrong
    app.extensions["seat_requests"] = PerMinute(app.config.get("SEAT_REQUESTS_PER_MINUTE", SEAT_REQUESTS))

    def names_a_code() -> bool:
        return bool(request.view_args and ("code" in request.view_args or "watch_code" in request.view_args)) \
            or request.path == "/join" or bool(request.args.get("group"))  # a group code shows names

    @app.before_request
    def _slow_down_guessing():
        if names_a_code() and wrong.blocked(_client()):
            raise TooManyWrongCodes("too many wrong table codes from this device; wait a minute, then check the "
                                    "code on the host's screen")

    @app.after_request
    def _count_wrong_codes(response):
        if g.get("wrong_code"):
            wrong.note(_client())
        return response

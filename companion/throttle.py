"""A light throttle on wrong table codes: a join code is a table's secret, so guessing must be slow.

Each client address may get WRONG_CODES "no table with this code" answers per minute; after that every
request naming a table code gets a 429 until the minute has passed. A phone that mistypes a code a few
times never notices.
"""
from __future__ import annotations

import threading
import time
from collections import defaultdict, deque

from flask import Flask, request

from .storage import StoreError

WRONG_CODES = 20
WINDOW_SECONDS = 60.0


class TooManyWrongCodes(StoreError):
    status = 429


class WrongCodes:
    def __init__(self, limit: int = WRONG_CODES, window: float = WINDOW_SECONDS):
        self.limit, self.window = limit, window
        self._misses: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def _recent(self, who: str, now: float) -> deque:
        misses = self._misses[who]
        while misses and misses[0] < now - self.window:
            misses.popleft()
        return misses

    def note(self, who: str) -> None:
        with self._lock:
            self._recent(who, time.monotonic()).append(time.monotonic())

    def blocked(self, who: str) -> bool:
        with self._lock:
            misses = self._recent(who, time.monotonic())
            if not misses:
                del self._misses[who]  # forget quiet clients: the map stays as small as the guessers
            return len(misses) >= self.limit


def init_throttle(app: Flask) -> None:
    wrong = WrongCodes(app.config.get("WRONG_CODES_PER_MINUTE", WRONG_CODES))
    app.extensions["wrong_codes"] = wrong

    def names_a_code() -> bool:
        return bool(request.view_args and ("code" in request.view_args or "watch_code" in request.view_args)) \
            or request.path == "/join" or bool(request.args.get("group"))  # a group code shows names

    @app.before_request
    def _slow_down_guessing():
        if names_a_code() and wrong.blocked(request.remote_addr or "?"):
            raise TooManyWrongCodes("too many wrong table codes from this device; wait a minute, then check the "
                                    "code on the host's screen")

    @app.after_request
    def _count_wrong_codes(response):
        if response.status_code == 404 and names_a_code():
            wrong.note(request.remote_addr or "?")
        return response

"""One error policy: every refusal is a one-line message and a 4xx; a 500 is logged and kept terse."""
from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from .rules import RuleError
from .rules.base import StaleError
from .storage import StoreError
from .throttle import note_wrong_code

log = logging.getLogger(__name__)


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def error_response(status: int, message: str):
    if wants_json():
        return jsonify(error=message), status
    return render_template("companion/error.html", status=status, message=message), status


def init_errors(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        message = (error.description or error.name).splitlines()[0]
        if error.code == 413:
            message = f"body: request larger than {app.config['MAX_CONTENT_LENGTH']} bytes"
        return error_response(error.code or 500, message)

    @app.errorhandler(StoreError)
    def _store(error: StoreError):
        note_wrong_code(error)
        body, status = error_response(error.status, error.message)
        headers = {"WWW-Authenticate": 'Bearer realm="starpnp"'} if status == 401 else {}
        return body, status, headers

    @app.errorhandler(RuleError)
    def _rule(error: RuleError):
        return error_response(409 if isinstance(error, StaleError) else 422, f"{error.field}: {error.message}")

    @app.errorhandler(OperationalError)
    def _database(error: OperationalError):
        text = str(error.orig).lower()
        if "full" in text or "no space" in text or "disk i/o" in text:
            log.error("storage full on %s %s: %s", request.method, request.path, error.orig)
            return error_response(503, "storage full: the server's disk has no room for this change; "
                                       "nothing was lost, free some space and tap again")
        log.exception("database error on %s %s", request.method, request.path)
        return error_response(503, "the table's storage is not answering; try again in a moment")

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        log.exception("unexpected error on %s %s", request.method, request.path)
        return error_response(500, "internal error; it has been logged")

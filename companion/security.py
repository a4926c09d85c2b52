"""Security headers and CSRF tokens for the HTML forms.

A CSRF token is a signed copy of a random value kept in the (signed) session cookie; it stays valid for
CSRF_MAX_AGE seconds (a whole evening's game and then some), also across server restarts because the
signing key lives in the database.
"""
from __future__ import annotations

import hmac
import secrets

from flask import Flask, Response, abort, request, session
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

CSRF_MAX_AGE = 24 * 3600
CSRF_FIELD = "csrf_token"

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}
# Browsers honour this header only from a trustworthy origin (HTTPS, or this machine), and over plain HTTP on
# the LAN — how phones at a table usually reach `starpnp serve` — Chrome logs an error for it on every page.
OPENER_POLICY = {"Cross-Origin-Opener-Policy": "same-origin"}
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def _serializer() -> URLSafeTimedSerializer:
    from flask import current_app
    return URLSafeTimedSerializer(current_app.secret_key, salt="starpnp-csrf")


def csrf_token() -> str:
    """The token to put in a form (makes the session's random value on first use)."""
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(16)
        session.permanent = True
    return _serializer().dumps(session["csrf"])


def check_csrf() -> None:
    """Refuse a form POST whose token is missing, forged, expired or from another session."""
    token = request.form.get(CSRF_FIELD, "")
    try:
        value = _serializer().loads(token, max_age=CSRF_MAX_AGE)
    except BadSignature:
        abort(400, description=f"{CSRF_FIELD}: missing or expired form token; reload the page")
    if not hmac.compare_digest(str(value), str(session.get("csrf", ""))):
        abort(400, description=f"{CSRF_FIELD}: form token from another session; reload the page")


def add_security_headers(response: Response) -> Response:
    response.headers.update(HEADERS)  # one call: per-header setdefault costs a KeyError each
    if request.is_secure or request.host.rsplit(":", 1)[0] in LOOPBACK_HOSTS or request.host.startswith("127."):
        response.headers.update(OPENER_POLICY)
    return response


def is_navigation() -> bool:
    """Whether the browser loads this answer as a page: not a fetch, htmx request or push stream of a page
    already open. A browser that sends no Sec-Fetch-Mode counts its pages (htmx still says so itself)."""
    return request.headers.get("Sec-Fetch-Mode", "navigate") == "navigate" and "HX-Request" not in request.headers


class SessionWrittenWhenChanged(SecureCookieSessionInterface):
    """The session cookie is sent when an answer changes it; its expiry is renewed only by a page loaded.

    A page's background requests (the host lobby's check, htmx polls, push streams) run beside a tap that
    changes the session, such as taking a seat. Were their answers to renew the cookie, each would carry the
    session as it was when it was sent, and the one arriving last would put that back: the seat just taken
    was lost and the phone sent back to the lobby."""

    def should_set_cookie(self, app: Flask, session) -> bool:
        return session.modified or (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]
                                    and is_navigation())


def init_security(app: Flask) -> None:
    app.session_interface = SessionWrittenWhenChanged()
    app.after_request(add_security_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token

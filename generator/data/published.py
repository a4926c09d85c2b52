"""Item lists from a spreadsheet published on the web as CSV (`items: https://…`, Google Sheets' "Publish
to the web" link, or any https address that serves CSV), so co-designers edit one shared sheet.

Every build fetches it (https only, redirects only to https, TIMEOUT seconds, at most MAX_BYTES) and keeps
the copy in the game folder's `.cache/published/`; a build that cannot reach it uses that copy and warns
how old it is; `--refresh` insists on a fresh copy and fails in one line without one. Nothing fetched runs:
the text is read as CSV like any `items: FILE.csv`.
"""
from __future__ import annotations

import hashlib
import time
import urllib.error
import urllib.request
from pathlib import Path

from .errors import DataError
from .limits import MAX_FETCH_SECONDS, MAX_FILE_BYTES

TIMEOUT = float(MAX_FETCH_SECONDS)  # seconds for the connection and for each read
MAX_BYTES = MAX_FILE_BYTES
CACHE_FOLDER = Path(".cache") / "published"


class _HttpsOnly(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to another https address (Google's published links redirect once)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if not newurl.lower().startswith("https://"):
            raise DataError(f"{req.full_url}: redirected to {newurl[:80]!r}; only https addresses are followed")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def cached_copy(folder: Path, url: str) -> Path:
    """Where the game folder keeps its copy of a published sheet (one file per address)."""
    return folder / CACHE_FOLDER / f"{hashlib.sha256(url.encode()).hexdigest()[:16]}.csv"


def published_table(folder: Path, url: str, refresh: bool, warnings: list[str]) -> Path:
    """A CSV file holding the published sheet: fetched now, or (unless `refresh`) the copy an earlier build
    kept, with a warning in `warnings` saying how old it is."""
    if not url.lower().startswith("https://"):
        raise DataError(f"{url[:80]}: a published sheet is read over https only; use its https:// link")
    copy = cached_copy(folder, url)
    try:
        data = _fetch(url)
    except DataError as exc:
        if refresh or not copy.is_file():
            raise DataError(f"{exc}{'' if refresh else '; no copy kept from an earlier build'}") from None
        warnings.append(f"{exc}; using the copy fetched {_age(time.time() - copy.stat().st_mtime)} ago")
        return copy
    try:
        copy.parent.mkdir(parents=True, exist_ok=True)
        partial = copy.with_suffix(".part")
        partial.write_bytes(data)
        partial.replace(copy)  # a build stopped half-way never leaves half a sheet as the kept copy
    except OSError as exc:
        raise DataError(f"{url[:80]}: cannot keep its copy in {copy.parent}: {exc.strerror or exc}") from None
    return copy


def _fetch(url: str) -> bytes:
    opener = urllib.request.build_opener(_HttpsOnly)
    request = urllib.request.Request(url, headers={"User-Agent": "starpnp (published card list)"})
    try:
        with opener.open(request, timeout=TIMEOUT) as response:
            if response.headers.get_content_type() == "text/html":  # a sign-in page, or the sheet's own page
                raise DataError(f"{url[:80]}: answers a web page, not CSV; publish the sheet to the web as "
                                f"CSV (Google Sheets: File > Share > Publish to web > CSV) and use that link")
            data = response.read(MAX_BYTES + 1)
    except DataError:
        raise
    except urllib.error.HTTPError as exc:
        raise DataError(f"{url[:80]}: the server answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DataError(f"{url[:80]}: cannot fetch the published sheet ({str(reason)[:120]})") from None
    if len(data) > MAX_BYTES:
        raise DataError(f"{url[:80]}: more than {MAX_BYTES // 1024 // 1024} MiB; a card list is far smaller")
    return data


def _age(seconds: float) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    return "less than a minute"

"""What ``hkk serve`` lets in: its own page, at its own address, with a request it can read.

Any page open in the person's browser may send requests to a server on his machine, and a page
on a name that the attacker points at 127.0.0.1 (DNS rebinding) may even read the answers.  So:

- ``Host`` must be a name the server is reached by (starlette's ``TrustedHostMiddleware``): a
  rebound name is refused with 400 before anything else;
- ``Origin``, where the browser sends one, must be the served origin (403);
- every ``/api/`` request carries the server's secret token (:func:`new_token`, made at start and
  written into the page) in the ``X-HKK-Token`` header (403 without it): another site cannot read
  the page, so it cannot know the token;
- every ``POST`` is ``Content-Type: application/json`` (415): a form, or a fetch another site may
  send without the browser asking first (CORS preflight, which this server never answers), cannot
  be;
- a body is read up to :data:`MAX_BODY` bytes and no further (413), and is JSON nested at most
  :data:`MAX_DEPTH` deep (400); its fields are checked where they are used, each refusal (400)
  naming the field.
"""

from __future__ import annotations

import json
import math
import secrets
from collections.abc import AsyncIterator, Iterable
from typing import Any

#: The header that carries the token, and where the page finds it.
TOKEN_HEADER = "x-hkk-token"

#: The largest body read: a save is some 10 KB a turn (180 KB for a 19-turn game), so this
#: holds a game of some 800 turns.
MAX_BODY = 8 * 1024 * 1024

#: How deep a body's JSON may nest (a save nests 5 deep).
MAX_DEPTH = 32

#: The names a server on a loopback address is reached by.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


class Refused(Exception):
    """A request the server does not take: its HTTP status and why, in words."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def new_token() -> str:
    return secrets.token_urlsafe(32)


def allowed_hosts(host: str) -> list[str]:
    """The ``Host`` names a server listening on ``host`` answers to: the loopback names, and
    ``host`` itself; any for an address on every interface (0.0.0.0, ::), whose names nobody
    knows (``hkk serve`` warns that anyone who reaches it can play)."""
    if host in ("0.0.0.0", "::", ""):
        return ["*"]
    return sorted({*LOOPBACK_NAMES, host, f"[{host}]" if ":" in host else host})


def check(method: str, headers: Any, token: str | None) -> None:
    """Refused unless the request comes from the server's own page (see the module).  ``token``
    None: the caller checks the token itself (``hkk serve --table``: one token a browser tab)."""
    origin = headers.get("origin")
    if origin is not None and origin != f"http://{headers.get('host', '')}":
        raise Refused(403, f"requests from another site ({origin}) are refused")
    if token is not None and \
            not secrets.compare_digest(headers.get(TOKEN_HEADER, "").encode(), token.encode()):
        raise Refused(403, "the request does not carry this server's token: reload the page")
    if method == "POST":
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(415, f"a request's body must be application/json, not {kind or 'none'}")


async def read_body(chunks: AsyncIterator[bytes], declared: str | None,
                    limit: int = MAX_BODY) -> bytes:
    """The body, refused (413) as soon as it is longer than ``limit``: by its declared length
    before a byte is read, else as its chunks come, none kept past the limit."""
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise Refused(413, f"the request's body is {declared} bytes; at most {limit} are read")
    body = bytearray()
    async for chunk in chunks:
        body += chunk
        if len(body) > limit:
            raise Refused(413, f"the request's body is over {limit} bytes; at most {limit} "
                               "are read")
    return bytes(body)


def parse_json(body: bytes) -> Any:
    """The body's JSON ({} for an empty body); 400 for anything else.  ``Infinity`` and ``NaN``
    are read as floats, to be refused where the field that holds them is known."""
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except RecursionError:
        raise Refused(400, f"the request's JSON nests more than {MAX_DEPTH} deep") from None
    except ValueError as exc:
        raise Refused(400, f"the request is not JSON: {exc}") from None
    if _depth(data) > MAX_DEPTH:
        raise Refused(400, f"the request's JSON nests more than {MAX_DEPTH} deep")
    return data


def _depth(data: Any) -> int:
    """How deep ``data`` nests, counted without recursion (a list in a list is 2), up to one
    past :data:`MAX_DEPTH`."""
    deepest, level = 0, [data]
    while deepest <= MAX_DEPTH:
        containers: list[Iterable[Any]] = [
            x.values() if isinstance(x, dict) else x for x in level
            if isinstance(x, (dict, list))]
        if not containers:
            break
        deepest += 1
        level = [item for c in containers for item in c]
    return deepest


def not_finite(data: Any, path: str = "") -> str | None:
    """Where ``data`` holds ``Infinity`` or ``NaN`` (``answers[3]``), or None.  Recursive: only
    for data :func:`parse_json` let through, at most :data:`MAX_DEPTH` deep."""
    if isinstance(data, float) and not math.isfinite(data):
        return path or "the body"
    items = data.items() if isinstance(data, dict) else \
        enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        found = not_finite(value, f"{path}.{key}" if isinstance(key, str) and path
                           else key if isinstance(key, str) else f"{path}[{key}]")
        if found is not None:
            return found
    return None


def whole_number(data: Any, field: str, *, optional: bool = False) -> int | None:
    """``data[field]`` as an int: a JSON integer (not 0.5, not 1e400, not true); 400 naming the
    field otherwise."""
    if not isinstance(data, dict):
        raise Refused(400, f"the request must be a JSON object with {field!r}")
    value = data.get(field)
    if value is None and optional:
        return None
    if type(value) is not int:
        raise Refused(400, f"{field!r} must be a whole number, not {json.dumps(value)[:40]}")
    return value


def flag(data: Any, field: str) -> bool:
    """``data[field]`` as a bool, false when absent: a JSON true or false; 400 naming the
    field otherwise."""
    if not isinstance(data, dict):
        raise Refused(400, f"the request must be a JSON object (with {field!r} or not)")
    value = data.get(field, False)
    if type(value) is not bool:
        raise Refused(400, f"{field!r} must be true or false, not {json.dumps(value)[:40]}")
    return value

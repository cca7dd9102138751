"""What every request passes before the app reads it: this machine's names only, no request
from another site's page, JSON bodies only, and every refusal and failure one line of JSON.

A page on another site can make the browser send requests here: a form posts `text/plain` or
`application/x-www-form-urlencoded` with no preflight, and a websocket opens from anywhere. So:

- a request for a name that is not this machine's (DNS rebinding) gets 400;
- a request that changes something (any method but GET, HEAD and OPTIONS) or opens a websocket,
  sent from a page of another origin (its `Origin` is not this server's own, or is `null`, or
  the browser says `Sec-Fetch-Site: cross-site`), gets 403;
- a POST whose body is not said to be `application/json` gets 415, before a byte of it is read;
- whatever else fails answers 500 with one line, never a traceback, and a client that goes away
  mid-request is let go quietly.

No message a client reads holds an absolute path of the server (`public`), and uvicorn's own
refusal of a request that is not HTTP is one line of JSON too (`JsonH11Protocol`).
"""
from __future__ import annotations

import asyncio
import json
import socket
import sys

import h11
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from .tables import public

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
def json_line(message: str) -> bytes:
    return json.dumps({"error": public(message)}, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")


class Guard:
    """ASGI middleware in front of the app: host, origin and content type checked, failures
    answered as one line of JSON (see the module)."""

    def __init__(self, app: ASGIApp, hosts: list[str]):
        self.app = app
        self.hosts = set(hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _refuse(scope, send, *refusal)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.http.response.start"):
                started = True
            await send(message)
        try:
            await self.app(scope, receive, sending)
        except (ClientDisconnect, OSError):  # the client went: nobody to answer
            pass
        except Exception as exc:  # a fault of the server's: told in one line, on both sides
            print(f"engine serve: {scope.get('path', '')}: {type(exc).__name__}: {public(str(exc))[:300]}",
                  file=sys.stderr)
            if not started:
                await _refuse(scope, send, 500, f"the server failed: {type(exc).__name__}")

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if name not in self.hosts:
            return 400, f"this server answers requests for {' and '.join(sorted(self.hosts))} only"
        method = scope.get("method", "GET")
        if scope["type"] == "websocket" or method not in SAFE_METHODS:
            origin = headers.get("origin")
            if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
                return 403, "refused: the request comes from a page of another site"
            if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
                return 403, "refused: the request comes from a page of another site"
        if scope["type"] == "http" and method == "POST":
            kind = headers.get("content-type")
            length = headers.get("content-length", "")
            has_body = "transfer-encoding" in headers or (length != "" and length != "0")
            if (kind is not None or has_body) and (kind or "").split(";")[0].strip().lower() != "application/json":
                return 415, "send the request's body as JSON, with Content-Type: application/json"
        return None


async def _refuse(scope: Scope, send: Send, status: int, message: str) -> None:
    """Answer `status` with {"error": message}; a websocket's handshake is answered so too
    where the server can (else closed, which the browser sees as a refusal)."""
    body = json_line(message)
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"cache-control", b"no-store"), (b"referrer-policy", b"no-referrer")]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
    elif "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 4000 + status, "reason": public(message)[:120]})


class JsonH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, whose refusal of a request that is not HTTP it reads is
    one line of JSON, as every answer of the server is; its connections send at once (without
    TCP_NODELAY, an answer on a kept-alive connection waited some 40 ms for the client's
    delayed acknowledgement, each)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)

    def send_400_response(self, msg: str) -> None:
        body = json_line(f"the request is not HTTP this server reads: {msg}")
        event = h11.Response(status_code=400, reason=b"Bad Request", headers=[
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")])
        self.transport.write(self.conn.send(event))
        self.transport.write(self.conn.send(h11.Data(data=body)))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()

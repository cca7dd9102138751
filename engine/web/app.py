"""The web app of `engine serve`: the JSON API, the page, and the server on 127.0.0.1.

Every answer of the API is JSON; a refused request gets a 4xx status and one line,
{"error": "..."}, never a traceback page. A seat's address holds its token: pages and answers
tell the browser to send no referrer and keep no copy, and only requests for this machine's own
names are answered (a page elsewhere cannot reach the server through a name of its own).
"""
from __future__ import annotations

import asyncio
import json
import socket
from importlib.resources import files
from pathlib import Path
from typing import Any

import anyio.to_thread
import uvicorn
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import EngineError
from ..core.text import finite
from .guard import Guard, JsonH11Protocol
from .replays import Replay, Replays
from .tables import BadRequest, Tables, public

STATIC = Path(str(files("engine.web").joinpath("static")))
PRIVATE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
PAGE_HEADERS = {**PRIVATE, "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff"}
LOCAL_HOSTS = ["127.0.0.1", "localhost"]
LONGEST_WAIT = 25.0  # seconds a view request may wait for the seat's turn (?wait=1)
MOST_BODY = 64 * 1024  # bytes a request's JSON may have
# bytes of a replay's request: a save holds its game's state, some 190 KB for a 6-player game of
# the largest shipped ruleset (written indented: less as the page sends it), and a run file's
# line is at most 1 MB
MOST_REPLAY_BODY = 4 * 1024 * 1024


def encode(data: Any) -> str:
    """JSON as sent to a client: compact and in one order, so the same view is the same bytes."""
    return json.dumps(finite(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _answer(data: Any, status: int = 200) -> Response:
    return Response(encode(data), status, headers=PRIVATE, media_type="application/json")


def _error(message: str, status: int) -> Response:
    return _answer({"error": public(message)}, status)


async def _body(request: Request, most: int = MOST_BODY) -> Any:
    told = request.headers.get("content-length", "")
    if told.isdigit() and int(told) > most:  # refused before it is read
        raise BadRequest(f"the request is larger than {most // 1024} KB", 413)
    raw = bytearray()
    try:
        async for chunk in request.stream():  # a request that does not tell its length is cut off too
            raw += chunk
            if len(raw) > most:
                raise BadRequest(f"the request is larger than {most // 1024} KB", 413)
    except ClientDisconnect:  # it stopped mid-upload: nobody reads the answer
        raise BadRequest("the request was not sent whole") from None
    try:
        data = json.loads(bytes(raw))
        json.dumps(data, ensure_ascii=False).encode("utf-8")  # a lone surrogate ("\\ud800") is no text
    except UnicodeError:
        raise BadRequest("the request is not JSON this server reads: it holds text that is not Unicode "
                         "(a lone surrogate)") from None
    except ValueError as exc:
        raise BadRequest(f"the request is not JSON: {exc}") from None
    except RecursionError:
        raise BadRequest("the request is not JSON this server reads: it is nested too deep") from None
    return data


async def _until_closed(socket: WebSocket, scope: anyio.CancelScope) -> None:
    """Read (and drop) what a page sends until it goes; then stop pushing to it."""
    while (await socket.receive())["type"] != "websocket.disconnect":
        pass
    scope.cancel()


def create_app(tables: Tables, hosts: list[str] | None = None, replays: Replays | None = None) -> Starlette:
    """The app serving `tables`, and `replays` (default: none yet, of the rulesets of `tables`),
    answering requests for `hosts` only (default: this machine)."""
    replays = replays if replays is not None else Replays(tables.rulesets)

    async def rulesets(request: Request) -> Response:
        return _answer({"rulesets": tables.listing()})

    async def new_game(request: Request) -> Response:
        hosted = tables.create(await _body(request))
        return _answer({"id": hosted.id, "seats": [
            {"player": player, "seat": hosted.names[player], "url": f"/play/{hosted.id}/{token}"}
            for token, player in hosted.tokens.items()]}, 201)

    async def seat_view(request: Request) -> Response:
        hosted, player = tables.seat(request.path_params["game"], request.path_params["token"])
        if request.query_params.get("wait") == "1":
            await hosted.wait(player, LONGEST_WAIT)  # in the event loop: a waiting client holds no thread
        return _answer(await anyio.to_thread.run_sync(hosted.seat_view, player))

    async def choose(request: Request) -> Response:
        hosted, player = tables.seat(request.path_params["game"], request.path_params["token"])
        body = await _body(request)
        if not isinstance(body, dict) or set(body) != {"option", "step"}:
            raise BadRequest('send {"option": N, "step": S}, N an option\'s number from 0 and S the step of the view '
                             "whose question it answers")
        await anyio.to_thread.run_sync(hosted.choose, player, body["option"], body["step"])
        return _answer(await anyio.to_thread.run_sync(hosted.seat_view, player))

    async def undo(request: Request) -> Response:
        hosted, player = tables.seat(request.path_params["game"], request.path_params["token"])
        body = await _body(request) if request.headers.get("content-type") else {}
        if not isinstance(body, dict) or not set(body) <= {"step"} or type(body.get("step", 0)) is not int:
            raise BadRequest('send nothing, or {"step": S}, S the step of the view on which undo was asked')
        reply = await anyio.to_thread.run_sync(hosted.undo, player, body.get("step"))
        return _answer({"message": reply, "view": hosted.seat_view(player)})

    async def save(request: Request) -> Response:
        hosted, player = tables.seat(request.path_params["game"], request.path_params["token"])
        name = await anyio.to_thread.run_sync(hosted.save, player)
        return _answer({"message": f"Saved on the server as {name}."})

    async def record(request: Request) -> Response:
        hosted, player = tables.seat(request.path_params["game"], request.path_params["token"])
        answer = _answer(hosted.record(player))
        answer.headers["Content-Disposition"] = f'attachment; filename="game-{hosted.id}.json"'
        return answer

    async def updates(socket: WebSocket) -> None:
        """The seat's view, pushed whenever its game changes (the page polls where this fails)."""
        try:
            hosted, player = tables.seat(socket.path_params["game"], socket.path_params["token"])
        except BadRequest:
            await socket.close(code=4404, reason="no such seat")
            return
        event = asyncio.Event()
        try:
            hosted.listen(event)
        except BadRequest as exc:
            await socket.close(code=4503, reason=str(exc))
            return
        await socket.accept()
        try:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_until_closed, socket, tasks.cancel_scope)
                sent = None
                while True:
                    event.clear()
                    text = encode(await anyio.to_thread.run_sync(hosted.seat_view, player))
                    if text != sent:
                        await socket.send_text(text)
                        sent = text
                    await event.wait()
                    if hosted.dropped:
                        await socket.close(code=4410, reason="the game was let go: nobody had touched it for long")
                        tasks.cancel_scope.cancel()
                        return
        except WebSocketDisconnect:
            pass
        finally:
            hosted.unlisten(event)

    async def new_replay(request: Request) -> Response:
        body = await _body(request, MOST_REPLAY_BODY)
        made = await replays.make(body)  # a run's game is played again by its bots, in the replays' own pool
        return _answer(_replay_answer(made), 201)

    async def replay_view(request: Request) -> Response:
        made = replays.get(request.path_params["replay"])
        unknown = sorted(set(request.query_params) - {"step", "seat"})
        if unknown:
            raise BadRequest(f"unknown parameter '{unknown[0][:40]}': give step and seat")
        query = request.query_params
        return _answer(await anyio.to_thread.run_sync(made.view, query.get("step"), query.get("seat")))

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=PAGE_HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in {"app.js", "board.js", "replay.js", "cards.js", "app.css", "icon.svg"}:
            raise BadRequest("no such file", 404)
        return FileResponse(STATIC / name, headers=PAGE_HEADERS)

    async def refused(request: Request, exc: Exception) -> Response:
        return _error(str(exc), exc.status)  # type: ignore[attr-defined]

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.detail if exc.status_code != 404 else "no such page", exc.status_code)

    routes = [
        Route("/", page),
        Route("/play/{game}/{token}", page),
        Route("/replay/{replay}", page),
        Route("/static/{name}", static),
        Route("/api/rulesets", rulesets),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{game}/{token}/view", seat_view),
        Route("/api/games/{game}/{token}/choose", choose, methods=["POST"]),
        Route("/api/games/{game}/{token}/undo", undo, methods=["POST"]),
        Route("/api/games/{game}/{token}/save", save, methods=["POST"]),
        Route("/api/games/{game}/{token}/record", record),
        WebSocketRoute("/api/games/{game}/{token}/updates", updates),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{replay}/view", replay_view),
    ]
    return Starlette(routes=routes, middleware=[Middleware(Guard, hosts=hosts or LOCAL_HOSTS)],
                     exception_handlers={BadRequest: refused, HTTPException: http_error})


def _replay_answer(made: Replay) -> dict[str, Any]:
    """What a new replay's request is answered: its id and page, its steps and seats, and the
    seat its page opens as (engine replay's default: "referee" for a finished game)."""
    return {"id": made.id, "url": f"/replay/{made.id}", "steps": made.steps, "players": list(made.names.values()),
            "seat": "referee" if made.shown is None else made.shown}


def serve(tables: Tables, port: int | None, seats: list[tuple[str, str]] = (),
          replays: Replays | None = None) -> int:
    """Serve `tables` (and `replays`) on 127.0.0.1 at `port` (None: a free one) until Ctrl-C;
    print the URL, and that of each of `seats` (a name and its path)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port or 0))
        sock.listen(128)  # before the address is printed: a browser (or a test) may come at once
    except OSError as exc:
        sock.close()
        raise EngineError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    print(f"engine serve: open {url} in a browser (Ctrl-C stops the server)", flush=True)
    for seat, path in seats:
        print(f"  {seat}: {url}{path}", flush=True)
    config = uvicorn.Config(create_app(tables, replays=replays), log_level="warning", access_log=False,
                            http=JsonH11Protocol)
    uvicorn.Server(config).run(sockets=[sock])
    return 0

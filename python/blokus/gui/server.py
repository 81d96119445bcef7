"""The server of ``blokus gui``: a Starlette app, served by uvicorn on 127.0.0.1.

Every request names the session's random token as the first part of its path
(``http://127.0.0.1:PORT/TOKEN/``), and its ``Host`` (and ``Origin``, which a WebSocket must
send) must be this server's own: another site's page, or a name rebound to 127.0.0.1, gets a
403. Each WebSocket is one game (:mod:`blokus.gui._session`); engines run in worker threads,
one for the seats' moves and one for analysis, so a slow or dying engine never holds up the
page, and closing the page ends its engines.

>>> from blokus.gui._session import Config
>>> import urllib.request
>>> with running(Config("duo", ["human", "greedy"])) as url:
...     page = urllib.request.urlopen(url).read().decode()
>>> url.startswith("http://127.0.0.1:"), "<title>blokus</title>" in page
(True, True)
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import socket
import sys
import threading
import webbrowser
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TextIO

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from blokus.gui import protocol
from blokus.gui._session import Config, Job, Session, error

__all__ = ["create_app", "run", "running"]

STATIC = Path(__file__).resolve().parent / "static"

_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}

#: Headers of every answer: nothing from elsewhere runs or loads, the token never leaves in a
#: Referer, and no answer is cached.
_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _Guard:
    """Refuses a request without the token, or whose Host or Origin is not this server's."""

    def __init__(self, app: ASGIApp, token: str, hosts: set[str]) -> None:
        self.app = app
        self.token = token.encode()
        self.hosts = {h.lower() for h in hosts}
        self.origins = {f"http://{h}" for h in self.hosts}

    def refusal(self, scope: Scope) -> str | None:
        headers: dict[str, str] = {}
        for name, value in scope.get("headers", []):
            headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
        if headers.get("host", "").lower() not in self.hosts:
            return "this server answers only to its own address (Host)"
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            return "requests from other sites' pages are refused (Origin)"
        if scope["type"] == "websocket" and origin is None:
            return "a WebSocket must come from this server's page (Origin)"
        first = scope.get("path", "").lstrip("/").split("/", 1)[0].encode("utf-8", "replace")
        if not hmac.compare_digest(first, self.token):
            return "the address lacks the access token blokus gui printed"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        reason = self.refusal(scope)
        if reason is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await Response(f"forbidden: {reason}\n", 403, media_type="text/plain")(scope, receive, send)
        else:
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})


def _static_files() -> dict[str, tuple[bytes, str]]:
    files = {}
    for path in sorted(STATIC.iterdir()):
        kind = _TYPES.get(path.suffix)
        if path.is_file() and kind is not None:
            files[path.name] = (path.read_bytes(), kind)
    return files


class _Runner:
    """One WebSocket's game: reads intents, sends messages, runs the engines off the loop."""

    def __init__(self, websocket: WebSocket, session: Session) -> None:
        self.ws = websocket
        self.session = session
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.engines = ThreadPoolExecutor(1, thread_name_prefix="blokus-gui-engine")
        self.analysis = ThreadPoolExecutor(1, thread_name_prefix="blokus-gui-analysis")
        self.engine_wake = asyncio.Event()
        self.analysis_wake = asyncio.Event()
        self.wanted: set[str] = set()

    def send(self, messages: list[dict[str, Any]]) -> None:
        for m in messages:
            self.outbox.put_nowait(m)

    def changed(self) -> None:
        self.engine_wake.set()
        if self.session.analysing:
            self.wanted.add("analysis")
            self.analysis_wake.set()

    async def sender(self) -> None:
        while True:
            m = await self.outbox.get()
            if m is None:
                return
            await self.ws.send_json(m)

    async def run_job(self, pool: ThreadPoolExecutor, job: Job) -> list[dict[str, Any]]:
        loop = asyncio.get_running_loop()
        try:
            result = await loop.run_in_executor(pool, job.run)
        except Exception as e:  # noqa: BLE001 - an engine may fail in any way; the page is told
            return self.session.finish(job, failure=e)
        return self.session.finish(job, result)

    async def engine_loop(self) -> None:
        s = self.session
        while True:
            job = s.engine_job()
            if job is None:
                await self.engine_wake.wait()
                self.engine_wake.clear()
                continue
            if not any(seat.human for seat in s.seats):
                # Engines against engines: a moment between moves, so that the game can be watched.
                await asyncio.sleep(s.config.watch_delay)
                if s.paused or job.generation != s.generation:
                    s.cancel(job)
                    continue
            messages = await self.run_job(self.engines, job)
            self.send(messages)
            if messages:
                self.changed()

    async def analysis_loop(self) -> None:
        while True:
            await self.analysis_wake.wait()
            self.analysis_wake.clear()
            for kind in ("hint", "analysis"):
                if kind not in self.wanted:
                    continue
                self.wanted.discard(kind)
                job = self.session.analysis_job(kind)
                if job is not None:
                    self.send(await self.run_job(self.analysis, job))

    async def serve(self) -> None:
        s = self.session
        tasks = [asyncio.create_task(t()) for t in (self.sender, self.engine_loop, self.analysis_loop)]
        try:
            self.send([s.setup(), s.state()])
            self.changed()
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    self.send([error("messages are JSON text, not binary")])
                    continue
                try:
                    intent = protocol.parse(text)
                except protocol.ProtocolError as e:
                    self.send([error(str(e))])
                    continue
                before = s.generation
                try:
                    answer = s.handle(intent)
                except Exception as e:  # noqa: BLE001 - a bug here must not end the page's game
                    answer = [error(f"{intent.type}: internal error: {type(e).__name__}: {e}", intent.type)]
                self.send(answer)
                if isinstance(intent, protocol.Hint) and not answer:
                    self.wanted.add("hint")
                    self.analysis_wake.set()
                if s.generation != before or isinstance(intent, (protocol.Pause, protocol.Analyse)):
                    self.changed()
                retired = s.retired()
                if retired:
                    asyncio.get_running_loop().run_in_executor(None, _close_all, retired)
        except WebSocketDisconnect:
            pass
        finally:
            for t in tasks:
                t.cancel()
            s.closed = True
            self.engines.shutdown(wait=False, cancel_futures=True)
            self.analysis.shutdown(wait=False, cancel_futures=True)
            # GTP engines are told to quit (and killed if they do not): off the loop, and
            # awaited, so that no engine outlives its page.
            await asyncio.get_running_loop().run_in_executor(None, s.close)


def _close_all(bots: list[Any]) -> None:
    for bot in bots:
        close = getattr(bot, "close", None)
        if callable(close):
            with contextlib.suppress(Exception):
                close()


def create_app(config: Config | Callable[[], Config], token: str, hosts: set[str]) -> Starlette:
    """The app: the page under ``/TOKEN/`` and the game WebSocket at ``/TOKEN/ws``, for requests
    whose ``Host`` is one of ``hosts`` (``"127.0.0.1:8000"``). ``config`` (or a function making
    one per page) is the game each new page starts with.

    >>> from starlette.testclient import TestClient
    >>> app = create_app(Config("duo", ["human", "human"]), "t0ken", {"testserver"})
    >>> client = TestClient(app)
    >>> client.get("/t0ken/").status_code, client.get("/wrong/").status_code
    (200, 403)
    """
    files = _static_files()
    make = config if callable(config) else (lambda: config)

    def answer(body: bytes, kind: str) -> Response:
        return Response(body, 200, headers=_HEADERS, media_type=kind)

    async def index(request: Request) -> Response:
        body, kind = files["index.html"]
        return answer(body, kind)

    async def bare(request: Request) -> Response:
        return RedirectResponse(f"/{token}/", 307, headers=_HEADERS)

    async def static(request: Request) -> Response:
        found = files.get(request.path_params["name"])
        if found is None:
            return Response("not found\n", 404, headers=_HEADERS, media_type="text/plain")
        return answer(*found)

    async def game(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            session = Session(make())
        except Exception as e:  # noqa: BLE001 - a game that cannot start is told to the page
            await websocket.send_json(error(f"the game cannot start: {e}"))
            await websocket.close()
            return
        await _Runner(websocket, session).serve()

    return Starlette(
        routes=[
            Route("/{token}", bare),
            Route("/{token}/", index),
            Route("/{token}/{name}", static),
            WebSocketRoute("/{token}/ws", game),
        ],
        middleware=[Middleware(_Guard, token=token, hosts=hosts)],
    )


def _url(host: str, port: int, token: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/{token}/"


def _hosts(host: str, port: int) -> set[str]:
    names = {"127.0.0.1", "localhost", "[::1]", f"[{host}]" if ":" in host else host}
    return {f"{n}:{port}" for n in names}


def _server(config: Config | Callable[[], Config], host: str, port: int) -> tuple[Any, socket.socket, str]:
    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    # Listening before the URL is printed: a browser opened at once finds the server.
    sock.listen(128)
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)
    app = create_app(config, token, _hosts(host, port))
    settings = uvicorn.Config(
        app,
        log_level="warning",
        lifespan="off",
        ws_max_size=protocol.MAX_MESSAGE * 4,
        ws_ping_interval=None,
        access_log=False,
    )
    return uvicorn.Server(settings), sock, _url(host, port, token)


@contextlib.contextmanager
def running(config: Config | Callable[[], Config], host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serves the GUI in a background thread while the ``with`` block runs; yields its URL
    (token included). For tests and benchmarks; :func:`run` is the command's.

    >>> import urllib.request
    >>> with running(Config("trigon", [])) as url:
    ...     urllib.request.urlopen(url + "app.js").status
    200
    """
    server, sock, url = _server(config, host, port)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if server.started:
                break
            threading.Event().wait(0.01)
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def run(
    config: Config,
    host: str = "127.0.0.1",
    port: int = 0,
    open_browser: bool = True,
    out: TextIO | None = None,
) -> None:
    """Serves the GUI until Ctrl-C: prints the URL (with its token) as the first line of
    ``out`` (standard output), opens it in the browser unless told not to, and warns on
    standard error when ``host`` is not a loopback address.

    >>> import threading, io, urllib.request
    >>> out = io.StringIO()
    >>> t = threading.Thread(target=run, args=(Config("duo", []),), kwargs={"open_browser": False, "out": out}, daemon=True)
    >>> t.start()
    >>> for _ in range(500):
    ...     if out.getvalue().endswith(chr(10)):
    ...         break
    ...     _ = threading.Event().wait(0.01)
    >>> url = out.getvalue().splitlines()[0]
    >>> url.startswith("http://127.0.0.1:"), urllib.request.urlopen(url).status
    (True, 200)
    """
    out = out if out is not None else sys.stdout
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"blokus gui: warning: listening on {host}, not only on this machine; anyone who can reach it "
            "and has the URL can play here and make the server start the engines it was given",
            file=sys.stderr,
        )
    server, sock, url = _server(config, host, port)
    print(url, file=out, flush=True)
    if open_browser:
        threading.Timer(0.3, webbrowser.open, args=(url,)).start()
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()

"""``hkk serve``: a person plays against the computer in the browser (issue 23 item 2).

A Starlette app, run by uvicorn (:mod:`hkk._serve_cli`).  One table per server: the game the
person plays (:class:`hkk._serve_game.PlayedGame`), the clones kept before each of his
decisions (take back), the sets (:class:`hkk._serve_watch.CardSets`, reloaded under
``--watch``).  The page (``templates/serve``) is static HTML, CSS and JavaScript served from the
package, nothing from the internet; it reads the position as JSON (:mod:`hkk._serve_state`),
made from the person's view only.

Routes: ``GET /`` the page, ``/static/*`` its files, ``GET /api/state``, ``POST /api/answer``
(``{"index": i, "at": answers so far}``), ``POST /api/new``, ``POST /api/undo``,
``GET /api/save``, ``POST /api/load`` (a save), ``GET /api/watch`` and ``POST /api/restart``
(``--watch``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hkk._errors import HkkError
from hkk._serve_game import OpponentMaker, PlayedGame
from hkk._serve_state import position_json
from hkk._serve_watch import CardSets, deck_lists

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response


#: The page's files.
ASSETS = Path(__file__).parent / "templates" / "serve"

#: Served with every answer: the page loads nothing from anywhere else.
SECURITY_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
                    "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}


class Table:
    """The one game a server plays with its person, and what he can do with it."""

    def __init__(self, sets: CardSets, decks: Sequence[str], opponent: str,
                 make_opponent: OpponentMaker, *, seed: int = 0,
                 watch: bool = False) -> None:
        self.sets = sets
        self.deck_names = list(decks)
        self.opponent_name = opponent
        self.make_opponent = make_opponent
        self.watch = watch
        self.lock = threading.Lock()  # requests run on a thread pool: one change at a time
        self.history: list[PlayedGame] = []  # a clone before each of the person's answers
        #: The cards version the game was started with (a newer one: the page offers a restart).
        self.cards_version = sets.version
        self.message = ""
        self.names = ("P1 (you)", f"P2 ({opponent})")
        self.game = self._start(seed)

    def _start(self, seed: int) -> PlayedGame:
        engine = self.sets.engine
        game = PlayedGame.new(engine, deck_lists(engine, self.deck_names), seed,
                              self.make_opponent, names=self.names)
        self.cards_version = self.sets.version
        self.history = []
        self.loaded = False  # a saved game: its decks are what the save holds
        return game

    # -- what the person does -----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        game = self.game
        data = position_json(game.view(), game.decision)
        decks = ["a saved game"] if self.loaded else self.deck_names
        data.update(seed=game.seed, decks=decks, opponent=self.opponent_name,
                    answers=game.answered, can_undo=bool(self.history), watch=self.watch,
                    message=self.message, cards=self.cards_status())
        return data

    def cards_status(self) -> dict[str, Any]:
        return {"errors": list(self.sets.errors),
                "newer": self.sets.version != self.cards_version}

    def answer(self, index: int, at: int | None) -> None:
        if at is not None and at != self.game.answered:
            raise HkkError("that decision was already answered (the page was out of date)")
        before = self.game.clone()
        try:
            self.game.answer(index)
        except HkkError:  # an illegal answer, or a set's error on the way: as it was
            self.game = before
            raise
        self.history.append(before)

    def undo(self) -> None:
        """Back to the position before the person's last decision, exactly as it was."""
        if not self.history:
            raise HkkError("nothing to take back")
        self.game = self.history.pop()

    def new_game(self, seed: int | None = None) -> None:
        self.game = self._start(self.game.seed + 1 if seed is None else seed)

    def restart(self) -> None:
        """The same deal again, with the cards as they are now on disk (``--watch``)."""
        self.game = self._start(self.game.seed)

    def load(self, data: Any) -> None:
        self.game = PlayedGame.load(self.sets.engine, data, self.make_opponent)
        self.history = []
        self.loaded = True

    def poll(self) -> dict[str, Any]:
        if self.watch:
            self.sets.poll(lambda engine: deck_lists(engine, self.deck_names))
        return self.cards_status()


# -- the app ----------------------------------------------------------------------------------

def make_app(table: Table) -> Starlette:
    """The Starlette app of ``table``."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    def reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
        return JSONResponse(data, status_code=status,
                            headers={**SECURITY_HEADERS, **(headers or {})})

    def state_reply() -> Response:
        return reply(table.state())

    def page(request: Request) -> Response:
        return FileResponse(ASSETS / "index.html", headers=SECURITY_HEADERS)

    def state(request: Request) -> Response:
        with table.lock:
            return state_reply()

    def acting(change: Callable[[Any], None]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            body = await request.body()
            try:
                data = json.loads(body) if body.strip() else {}
            except ValueError:
                return reply({"error": "the request is not JSON"}, 400)
            # off the event loop: an opponent may think for a while
            result: Response = await run_in_threadpool(work, data)
            return result

        def work(data: Any) -> Response:
            with table.lock:
                try:
                    change(data)
                    table.message = ""
                except HkkError as exc:  # a bad answer or save, or a set's error in the game
                    table.message = str(exc)
                    return reply({"error": str(exc), "state": table.state()}, 409)
                return state_reply()
        return endpoint

    def answer(data: Any) -> None:
        try:
            index, at = int(data["index"]), data.get("at")
        except (KeyError, TypeError, ValueError):
            raise HkkError("an answer names the option's index") from None
        table.answer(index, None if at is None else int(at))

    def save(request: Request) -> Response:
        with table.lock:
            data = table.game.save()
            seed = table.game.seed
        return reply(data, headers={"Content-Disposition":
                                    f'attachment; filename="hkk-game-seed-{seed}.json"'})

    def watch(request: Request) -> Response:
        with table.lock:
            return reply(table.poll())

    routes = [
        Route("/", page),
        Route("/api/state", state),
        Route("/api/answer", acting(answer), methods=["POST"]),
        Route("/api/new", acting(lambda data: table.new_game()), methods=["POST"]),
        Route("/api/undo", acting(lambda data: table.undo()), methods=["POST"]),
        Route("/api/restart", acting(lambda data: table.restart()), methods=["POST"]),
        Route("/api/load", acting(table.load), methods=["POST"]),
        Route("/api/save", save),
        Route("/api/watch", watch),
        Mount("/static", StaticFiles(directory=ASSETS / "static")),
    ]
    return Starlette(routes=routes)

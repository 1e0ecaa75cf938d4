"""``hkk serve``: a person plays against the computer in the browser (issue 23 item 2).

A Starlette app, run by uvicorn (:mod:`hkk._serve_cli`).  One table per server: the game the
person plays (:class:`hkk._serve_game.PlayedGame`), the clones kept before each of his
decisions (take back), the sets (:class:`hkk._serve_watch.CardSets`, reloaded under
``--watch``).  The page (``templates/serve``) is static HTML, CSS and JavaScript served from the
package, nothing from the internet; it reads the position as JSON (:mod:`hkk._serve_state`),
made from the person's view only.  Only the server's own page is let in
(:mod:`hkk._serve_guard`: host, origin, token, content type, body size).

What the page must not know until the game is over: its seed (a new game with it, answered as
the log shows, is the same game, hidden cards and all), so each game's seed is drawn from the
operating system unless ``--seed`` is given, and the computer's agent is seeded from the
operating system always.  The computer plays on a copy of the game, on a thread of its own, for
at most ``think_limit`` seconds: the page reads the position meanwhile, and a computer that
fails or never answers leaves the game where it was, with a message naming its agent.

The page is a table (issue 33 item 1): ``"auto": true`` in an answer answers the lone options
that follow it too, and in a take-back goes back to a decision with a choice; ``GET
/api/card/<card id>`` gives a card's image and texts for the zoom.

Routes: ``GET /`` the page, ``/static/*`` its files, ``GET /api/state``, ``POST /api/answer``
(``{"index": i, "at": answers so far}``), ``POST /api/new``, ``POST /api/undo``,
``GET /api/save``, ``POST /api/load`` (a save), ``GET /api/watch`` and ``POST /api/restart``
(``--watch``); the sandbox's (:mod:`hkk._serve_sandbox`) and the deck builder's
(:mod:`hkk._serve_decks`, the page ``/decks``), under the same guard.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from hkk._datafile import DataFileError, check_json_nesting
from hkk._errors import HkkError
from hkk._saving import SaveError
from hkk._serve_decks import routes as deck_routes
from hkk._serve_game import Opponent, OpponentMaker, PlayedGame
from hkk._serve_guard import (
    TOKEN_HEADER,
    Refused,
    allowed_hosts,
    check,
    flag,
    new_token,
    not_finite,
    parse_json,
    read_body,
    whole_number,
)
from hkk._serve_sandbox import routes as sandbox_routes
from hkk._serve_state import position_json
from hkk._serve_watch import CardSets, deck_lists

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

T = TypeVar("T")

#: The page's files.
ASSETS = Path(__file__).parent / "templates" / "serve"

#: Served with every answer: the page loads nothing from anywhere else.
SECURITY_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:",
                    "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"}

#: How long the computer may take for what it does between two of the person's decisions.
THINK_LIMIT = 60.0


def os_seed() -> int:
    """A seed nobody can foresee (the operating system's randomness)."""
    return secrets.randbits(32)


class Table:
    """The one game a server plays with its person, and what he can do with it.

    ``lock`` guards the fields, held only to read or swap them; ``changing`` lets one change
    run at a time (a second is refused while the computer thinks, never queued)."""

    def __init__(self, sets: CardSets, decks: Sequence[str], opponent: str,
                 make_opponent: OpponentMaker, *, seed: int | None = None,
                 watch: bool = False, think_limit: float = THINK_LIMIT) -> None:
        self.sets = sets
        self.deck_names = list(decks)
        self.opponent_name = opponent
        self.make_opponent = make_opponent
        self.watch = watch
        self.think_limit = think_limit
        #: ``--seed``: each new game takes the next; else each is drawn from the OS.
        self.seeded = seed is not None
        self.lock = threading.Lock()
        self.changing = threading.Lock()
        self.thinking: float | None = None  # since when the computer plays (time.monotonic)
        self.history: list[PlayedGame] = []  # the game before each of the person's answers
        #: The cards version the game was started with (a newer one: the page offers a restart).
        self.cards_version = sets.version
        self.message = ""
        self.names = ("P1 (you)", f"P2 ({opponent})")
        self.loaded = False  # a saved game: its decks are what the save holds
        self.label = "a saved game"  # what the page says of a loaded game's decks
        self.game = self._ready(self._new(os_seed() if seed is None else seed))

    def _opponent(self, seat: int) -> Opponent:
        return Opponent(self.make_opponent(os_seed(), seat), self.opponent_name)

    def _new(self, seed: int) -> PlayedGame:
        engine = self.sets.engine
        return PlayedGame.new(engine, deck_lists(engine, self.deck_names), seed,
                              self._opponent(1), names=self.names)

    @staticmethod
    def _ready(game: PlayedGame) -> PlayedGame:
        """``game`` played up to the person's decision (the computer's moves before it)."""
        _ = game.decision
        return game

    # -- what the person does -----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        with self.lock:
            game, thinking = self.game, self.thinking
            data = position_json(game.view(), game.decision)
            over = data["winner"] is not None
            decks = [self.label] if self.loaded else self.deck_names
            data.update(
                seed=game.seed if over else None,  # a replay's, once nothing is hidden
                decks=decks, opponent=self.opponent_name, answers=game.answered,
                can_undo=bool(self.history), watch=self.watch, message=self.message,
                cards=self.cards_status(), think_limit=self.think_limit,
                thinking=None if thinking is None else round(time.monotonic() - thinking, 1))
            return data

    def cards_status(self) -> dict[str, Any]:
        return {"errors": list(self.sets.errors),
                "newer": self.sets.version != self.cards_version}

    def _change(self, make: Callable[[PlayedGame], T]) -> T:
        """``make(game)`` on a thread of its own, at most ``think_limit`` seconds: it may ask
        the computer, which may fail or never answer.  It must not change ``game`` (the
        position shown meanwhile: it plays a copy); what it made is the caller's to keep.  One
        change at a time: another is refused while one runs."""
        if not self.changing.acquire(blocking=False):
            raise HkkError("the computer is still thinking: wait for its move")
        try:
            with self.lock:
                game, self.thinking = self.game, time.monotonic()
            made: list[T] = []
            failed: list[BaseException] = []

            def run() -> None:
                try:
                    made.append(make(game))
                except BaseException as exc:  # noqa: BLE001 - given to the request's thread
                    failed.append(exc)
            worker = threading.Thread(target=run, name="hkk-serve-computer", daemon=True)
            worker.start()
            worker.join(self.think_limit)
            if worker.is_alive():  # it goes on with its copy; nothing of it is kept
                raise HkkError(f"the computer's agent {self.opponent_name} did not move within "
                               f"{self.think_limit:g} s; the game is where it was")
            if failed:
                if isinstance(failed[0], HkkError):
                    raise failed[0]
                raise HkkError(f"the game failed ({type(failed[0]).__name__}: {failed[0]}); "
                               "it is where it was") from failed[0]
            return made[0]
        finally:
            with self.lock:
                self.thinking = None
            self.changing.release()

    def answer(self, index: int, at: int | None, *, auto: bool = False) -> None:
        """Answer the person's decision with option ``index``; ``auto``: then answer each of
        his decisions that offers one option only, up to one that offers a choice (or the
        end).  An answer to a lone option given under ``auto`` is not kept for take-back:
        taking back returns to a decision with a choice, which the page would not answer
        again by itself."""
        def play(before: PlayedGame) -> tuple[PlayedGame, PlayedGame]:
            if at is not None and at != before.answered:
                raise HkkError("that decision was already answered (the page was out of date)")
            game = before.clone()  # a failure leaves ``before`` as it was
            game.answer(index)
            game = self._ready(game)
            while auto and game.decision is not None and len(game.decision.options) == 1:
                game.answer(0)
                game = self._ready(game)
            return before, game
        before, after = self._change(play)
        lone = before.decision is not None and len(before.decision.options) == 1
        with self.lock:
            if not (auto and lone):
                self.history.append(before)
            self.game = after

    def undo(self, *, auto: bool = False) -> None:
        """Back to the position before the person's last decision, exactly as it was;
        ``auto``: before his last decision that offered a choice (a lone option taken back
        would be answered again at once)."""
        if not self.changing.acquire(blocking=False):
            raise HkkError("the computer is still thinking: wait for its move")
        try:
            with self.lock:
                if not self.history:
                    raise HkkError("nothing to take back")
                game = self.history.pop()
                while auto and self.history and game.decision is not None \
                        and len(game.decision.options) == 1:
                    game = self.history.pop()
                self.game = game
        finally:
            self.changing.release()

    def _replace(self, game: PlayedGame, *, loaded: bool = False,
                 label: str = "a saved game") -> None:
        with self.lock:
            self.game = game
            self.history = []
            self.loaded, self.label = loaded, label
            if not loaded:
                self.cards_version = self.sets.version

    def new_game(self, seed: int | None = None) -> None:
        def new(game: PlayedGame) -> PlayedGame:
            given = seed if seed is not None else game.seed + 1 if self.seeded else os_seed()
            return self._ready(self._new(given))
        self._replace(self._change(new))

    def restart(self) -> None:
        """The same deal again, with the cards as they are now on disk (``--watch``)."""
        self._replace(self._change(lambda game: self._ready(self._new(game.seed))))

    def load(self, data: Any) -> None:
        try:
            check_json_nesting(data)  # before not_finite recurses into it
        except DataFileError as exc:
            raise SaveError(f"not an hkk save: {exc}") from None
        where = not_finite(data)
        if where is not None:
            raise SaveError(f"not an hkk save: {where}: a number JSON has not")
        engine = self.sets.engine
        self._replace(self._change(lambda _: self._ready(
            PlayedGame.load(engine, data, self._opponent))), loaded=True)

    def poll(self) -> dict[str, Any]:
        if self.watch:
            with self.lock:
                self.sets.poll(lambda engine: deck_lists(engine, self.deck_names))
        return self.cards_status()

    def card_image(self, card_id: str) -> dict[str, Any]:
        return card_image(self.sets, card_id)


def card_image(sets: CardSets, card_id: str) -> dict[str, Any]:
    """A card of the installed sets as the page zooms it: its image (SVG, drawn from its data),
    its Hungarian text and the engine's reading of it.  Only cards of the sets loaded: nothing
    about the game."""
    from hkk._card_image import engine_card_svg
    from hkk._serve_state import card_json

    card = sets.engine.cards.get(card_id)
    if card is None:
        raise Refused(404, f"no card {card_id!r} in the sets loaded")
    return {"id": card.id, "svg": engine_card_svg(sets.engine, card), **card_json(card)}


# -- the app ----------------------------------------------------------------------------------

def page_html(token: str) -> str:
    """The page, with the server's token for its requests."""
    html = (ASSETS / "index.html").read_text(encoding="utf-8")
    return html.replace("{{ token }}", token)


def make_app(table: Table, *, host: str = "127.0.0.1", token: str | None = None) -> Starlette:
    """The Starlette app of ``table``, answering to the names of ``host`` and to requests that
    carry ``token`` (a new one if not given)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.responses import HTMLResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    secret = token or new_token()

    def reply(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
        return JSONResponse(data, status_code=status,
                            headers={**SECURITY_HEADERS, **(headers or {})})

    def page(request: Request) -> Response:
        return HTMLResponse(page_html(secret), headers=SECURITY_HEADERS)

    def guarded(endpoint: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def guard(request: Request) -> Response:
            try:
                check(request.method, request.headers, secret)
            except Refused as exc:
                return reply({"error": str(exc)}, exc.status)
            result: Response = await endpoint(request)
            return result
        return guard

    def getting(read: Callable[[], Response]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            result: Response = await run_in_threadpool(read)
            return result
        return guarded(endpoint)

    def getting_request(read: Callable[[Request], Response]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            result: Response = await run_in_threadpool(read, request)
            return result
        return guarded(endpoint)

    def acting(change: Callable[[Any], None]) -> Callable[[Request], Any]:
        async def endpoint(request: Request) -> Response:
            try:
                body = await read_body(request.stream(), request.headers.get("content-length"))
                data = parse_json(body)
            except Refused as exc:
                return reply({"error": str(exc)}, exc.status)
            # off the event loop: the computer may think for a while
            result: Response = await run_in_threadpool(work, data)
            return result

        def work(data: Any) -> Response:
            try:
                change(data)
                table.message = ""
            except Refused as exc:  # a request the game never saw: the page's message stays
                return reply({"error": str(exc), "state": table.state()}, exc.status)
            except SaveError as exc:  # a file that is no save of this server's games
                return reply({"error": str(exc), "state": table.state()}, 400)
            except HkkError as exc:  # an illegal answer, the computer's failure, a set's error
                table.message = str(exc)
                return reply({"error": str(exc), "state": table.state()}, 409)
            return reply(table.state())
        return guarded(endpoint)

    def answer(data: Any) -> None:
        index = whole_number(data, "index")
        assert index is not None
        table.answer(index, whole_number(data, "at", optional=True), auto=flag(data, "auto"))

    def card(request: Request) -> Response:
        try:
            return reply(table.card_image(request.path_params["card_id"]))
        except Refused as exc:
            return reply({"error": str(exc)}, exc.status)

    def save() -> Response:
        with table.lock:
            game = table.game
        data = game.save()
        name = f"hkk-game-seed-{game.seed}.json" if game.decision is None else "hkk-game.json"
        return reply(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    routes = [
        Route("/", page),
        Route("/api/state", getting(lambda: reply(table.state()))),
        Route("/api/answer", acting(answer), methods=["POST"]),
        Route("/api/new", acting(lambda data: table.new_game()), methods=["POST"]),
        Route("/api/undo", acting(lambda data: table.undo(auto=flag(data, "auto"))),
              methods=["POST"]),
        Route("/api/card/{card_id}", getting_request(card)),
        Route("/api/restart", acting(lambda data: table.restart()), methods=["POST"]),
        Route("/api/load", acting(table.load), methods=["POST"]),
        Route("/api/save", getting(save)),
        Route("/api/watch", getting(lambda: reply(table.poll()))),
        # the sandbox and the deck builder (issue 33 item 2), under the same guard
        *sandbox_routes(table, guarded=guarded, acting=acting, reply=reply),
        *deck_routes(table, guarded=guarded, acting=acting, reply=reply, token=secret,
                    headers=SECURITY_HEADERS),
        Mount("/static", StaticFiles(directory=ASSETS / "static")),
    ]
    return Starlette(routes=routes, middleware=[
        Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(host))])


__all__ = ["TOKEN_HEADER", "Table", "make_app"]

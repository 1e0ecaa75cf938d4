"""``hkk serve --table``: two people play one game, each in his own browser (issue 33 item 3).

The server holds the game and its RNG; both seats are answered from outside (the forward
model's ``decision`` / ``answer``).  Each person joins by his seat's link (``/t/<token>``), a
spectator by the spectator's link.  Opening a link gives that browser tab a token of its own,
written into the page as the single-player page's token is (play.js's requests need no
change): the link is never sent again, and a request says which tab (so which seat) it comes
from.

What each one is sent: a seat, :func:`hkk._serve_state.position_json` of ``game.view(seat)``
and the decision only when it is his (the other's options would list the cards of the other
hand he can play); a spectator, the same of :class:`PublicView` (no hand of either seat, both
seats' draws hidden in the log).  Saves stay on the server (a save holds both hands and the
seed); a seat downloads one only once the game is over.

The rulings of the table (docs/SERVE-TABLE.md):

- a second tab on a seat takes the seat; the older tab is told so (409) at its next request,
  and its link opened again takes the seat back;
- a dropped connection loses nothing: the game is the server's; the same link, or the same tab
  once the network is back, goes on where the game is;
- take back, a new game and loading a save each ask the other person, and happen only if he
  accepts; take back goes to the position before the asker's last answer (the other's answers
  since then are taken back with it);
- an answer from the seat that does not decide is refused (409), and so is one naming a
  decision already answered (``at``: a request sent again, or a page out of date).
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from hkk._errors import HkkError, IllegalDecision
from hkk._player_view import hide_event
from hkk._saving import SaveError, load_game
from hkk._serve import ASSETS, SECURITY_HEADERS, card_image, os_seed, page_html
from hkk._serve_guard import (
    TOKEN_HEADER,
    Refused,
    allowed_hosts,
    check,
    new_token,
    parse_json,
    read_body,
    whole_number,
)
from hkk._serve_state import position_json
from hkk._serve_watch import CardSets, deck_lists

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from hkk._protocol import ForwardModel

#: The spectator's role (a seat's is its index).
SPECTATOR = -1

#: A seat whose page asked nothing for this long is shown as away ("waiting for your friend").
AWAY_AFTER = 10.0

#: The tabs remembered (to tell an older tab its seat was taken): the oldest are forgotten.
MAX_TABS = 200

#: The tokens of the links of a table without tokens (``--no-tokens``, loopback only).
OPEN_LINKS = ("seat1", "seat2", "watch")


class Asked:
    """What a seat asked the other to accept: ``"undo"``, ``"new"`` or ``"load"`` (``save``)."""

    def __init__(self, seat: int, what: str, save: str | None = None) -> None:
        self.seat, self.what, self.save = seat, what, save

    def json(self, names: Sequence[str]) -> dict[str, Any]:
        words = {"undo": "to take back {their} last move", "new": "to start a new game",
                 "load": f"to load the save {self.save}"}[self.what]
        return {"by": self.seat, "what": self.what, "save": self.save,
                "text": f"{names[self.seat]} asks {words.format(their='their')}",
                "yours": f"You asked {words.format(their='your')}: waiting for "
                         f"{names[1 - self.seat]}'s answer"}


class PublicView:
    """What a spectator may know: seat 0's fair view with seat 0's hand hidden as well, and the
    log with both seats' draws and option counts hidden (:func:`hide_event` for seat 1 on top
    of seat 0's view)."""

    player = SPECTATOR

    #: what seat 0's view would tell of seat 0 alone: a spectator's view has none of it
    PRIVATE = frozenset({"hand", "decision", "snapshot", "determinize"})

    def __init__(self, view: Any) -> None:
        self._view = view

    def __getattr__(self, name: str) -> Any:
        if name in self.PRIVATE:
            raise AttributeError(f"a spectator's view has no {name}: it would show a seat's "
                                 "hand")
        return getattr(self._view, name)

    @property
    def players(self) -> list[Any]:
        return [SimpleNamespace(**{**{f: getattr(seat, f) for f in type(seat).__slots__},
                                   "hand": None}) for seat in self._view.players]

    @property
    def log(self) -> list[Any]:
        over = self._view.over
        return [hide_event(e, 1, over=over) for e in self._view.log]


class FriendTable:
    """The one game two people play at a server, the tabs they play it from, what one asked
    the other, and the saves kept on the server.  ``lock`` guards everything: every change is
    quick (no agent thinks at this table)."""

    def __init__(self, sets: CardSets, decks: Sequence[str], *, save_dir: Path,
                 seed: int | None = None, links: Sequence[str] | None = None,
                 names: Sequence[str] = ("P1", "P2"), rulings: Any = None) -> None:
        self.sets = sets
        self.deck_names = list(decks)
        self.decks = deck_lists(sets.engine, self.deck_names)  # the card lists
        self.names = tuple(names)
        self.rulings = rulings
        self.save_dir = save_dir
        self.seeded = seed is not None
        tokens = list(links) if links is not None else [new_token() for _ in range(3)]
        if len(tokens) != 3 or len(set(tokens)) != 3:
            raise HkkError("a table needs three different link tokens: two seats, a spectator")
        #: the links' tokens: seat 0, seat 1, the spectator
        self.links = {tokens[0]: 0, tokens[1]: 1, tokens[2]: SPECTATOR}
        self.tabs: dict[str, int] = {}  # a tab's token -> its role
        self.seat_tab: dict[int, str] = {}  # the tab that holds each seat
        self.seen: dict[int, float] = {}  # when each seat's tab last asked (time.monotonic)
        self.lock = threading.Lock()
        self.history: list[tuple[ForwardModel, int]] = []  # the game before each answer; who
        self.asked: Asked | None = None
        self.messages = {0: "", 1: "", SPECTATOR: ""}
        self.saves: dict[str, Path] = {}
        self.version = 0  # one more at each change: a page polls it
        self.game = self._new(os_seed() if seed is None else seed)

    # -- links and tabs ---------------------------------------------------------------------

    def link_tokens(self) -> dict[str, str]:
        """``{"seat1": token, "seat2": token, "watch": token}``."""
        by_role = {role: token for token, role in self.links.items()}
        return {"seat1": by_role[0], "seat2": by_role[1], "watch": by_role[SPECTATOR]}

    def open_tab(self, link: str) -> str:
        """A new tab's token for the link's role (a seat's: the seat is this tab's now).
        403 for a link that is not one of this table's."""
        role = next((r for t, r in self.links.items() if secrets.compare_digest(t, link)), None)
        if role is None:
            raise Refused(403, "this link is not one of this table's: ask for the link "
                               "hkk serve --table printed")
        tab = new_token()
        with self.lock:
            self.tabs[tab] = role
            while len(self.tabs) > MAX_TABS:
                del self.tabs[next(iter(self.tabs))]
            if role != SPECTATOR:
                self.seat_tab[role] = tab
                self.seen[role] = time.monotonic()
                self.version += 1
        return tab

    def role_of(self, tab: str) -> int:
        """The role of the tab whose token a request carries: 403 for a token this table did
        not give, 409 for a tab whose seat a newer tab took."""
        role = self.tabs.get(tab) if tab else None
        if role is None:
            raise Refused(403, "the request does not carry a token of this table: open your "
                               "link again")
        if role != SPECTATOR:
            if self.seat_tab.get(role) != tab:
                raise Refused(409, f"another tab took the seat of {self.names[role]}: this one "
                                   "is closed; open your link again here to take it back")
            self.seen[role] = time.monotonic()
        return role

    # -- the game ---------------------------------------------------------------------------

    def _new(self, seed: int) -> ForwardModel:
        options: dict[str, Any] = {"names": self.names}
        if self.rulings is not None:
            options["rulings"] = self.rulings
        game = self.sets.engine.start(self.decks, [None, None], seed=seed, **options)
        _ = game.decision  # set up, to the first decision
        return game

    @staticmethod
    def answers(game: ForwardModel) -> int:
        """How many decisions were answered (both seats'), as the log says: the page names the
        decision it answers by it."""
        return sum(1 for e in game.log if e.kind == "decision")

    def _changed(self) -> None:
        self.version += 1

    def answer(self, role: int, index: int, at: int | None) -> None:
        with self.lock:
            seat = self._seat(role, "answer")
            game = self.game
            decision = game.decision
            if decision is None:
                raise IllegalDecision("the game is over: there is nothing to answer")
            if decision.player != seat:
                raise IllegalDecision(f"it is {self.names[decision.player]}'s decision, not "
                                      f"yours: wait for their move")
            if at is not None and at != self.answers(game):
                raise IllegalDecision("that decision was already answered (the page was out of "
                                      "date, or the request was sent again)")
            if not 0 <= index < len(decision.options):
                raise IllegalDecision(f"no option {index}: the {decision.kind} decision offers "
                                      f"{decision.labels()}")
            after = game.clone()  # a failure leaves the game as it was
            try:
                after.answer(index)
                _ = after.decision
            except HkkError:
                raise
            except Exception as exc:  # noqa: BLE001 - a set's bug: named, the game kept
                raise HkkError(f"the game failed ({type(exc).__name__}: {exc}); it is where "
                               "it was") from exc
            self.history.append((game, seat))
            self.game = after
            self.messages[seat] = ""
            self._changed()

    def _seat(self, role: int, what: str) -> int:
        if role == SPECTATOR:
            raise Refused(403, f"a spectator's link only watches: it cannot {what}")
        return role

    def ask(self, role: int, what: str, save: str | None = None) -> None:
        """``what`` asked of the other seat: it happens when he accepts (:meth:`reply`)."""
        with self.lock:
            seat = self._seat(role, "ask anything")
            if self.asked is not None:
                raise HkkError(f"{self.asked.json(self.names)['text']}: that is to be answered "
                               "first")
            if what == "undo" and not any(s == seat for _, s in self.history):
                raise HkkError("you have no move to take back")
            if what == "load" and save not in self.saves:
                raise HkkError(f"no save {save!r} on this server: "
                               f"{', '.join(self.saves) or 'none kept yet'}")
            self.asked = Asked(seat, what, save)
            self.messages[seat] = ""
            self._changed()

    def reply(self, role: int, accept: bool) -> None:
        """The other seat accepts or declines what was asked; the asker may withdraw it."""
        with self.lock:
            seat = self._seat(role, "answer a request")
            asked = self.asked
            if asked is None:
                raise HkkError("nothing was asked")
            if asked.seat == seat and accept:
                raise HkkError("you asked it: your friend accepts or declines")
            self.asked = None
            if not accept:
                who = "you withdrew it" if asked.seat == seat else \
                    f"{self.names[seat]} declined"
                self.messages[asked.seat] = f"{asked.json(self.names)['text']}: {who}"
                self.messages[seat] = ""
                self._changed()
                return
            if asked.what == "undo":
                # to the game before the asker's last answer (ask() saw there is one)
                last = max(i for i, (_, by) in enumerate(self.history) if by == asked.seat)
                self.game = self.history[last][0]
                del self.history[last:]
            elif asked.what == "new":
                seed = self.game.seed + 1 if self.seeded else os_seed()
                self._replace(self._new(seed))
            else:
                assert asked.save is not None
                self._replace(self._load(self.saves[asked.save]))
            self.messages = {0: "", 1: "", SPECTATOR: ""}
            self.messages[asked.seat] = f"{self.names[seat]} accepted"
            self._changed()

    def _replace(self, game: ForwardModel) -> None:
        self.game = game
        self.history = []

    def _load(self, path: Path) -> ForwardModel:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SaveError(f"{path}: {exc}") from None
        game = load_game(self.sets.engine, data, [None, None])  # type: ignore[list-item]
        _ = game.decision
        return game

    def keep(self, role: int) -> str:
        """The game saved on the server (both hands, the seed: never sent to a seat until the
        game is over); its name."""
        with self.lock:
            self._seat(role, "save")
            game = self.game
            name = f"table-{len(self.saves) + 1}-turn-{game.turn}.json"
            self.save_dir.mkdir(parents=True, exist_ok=True)
            path = self.save_dir / name
            path.write_text(json.dumps(game.save()), encoding="utf-8")
            self.saves[name] = path
            self.messages[role] = f"saved on the server as {name}"
            self._changed()
            return name

    def download(self, role: int) -> tuple[dict[str, Any], str]:
        """The save of a finished game, and its file name; 409 while the game goes on."""
        with self.lock:
            self._seat(role, "download a save")
            game = self.game
            if game.decision is not None:
                raise Refused(409, "a save holds both hands and the decks' order: it can be "
                                   "downloaded once the game is over (Save keeps it on the "
                                   "server)")
            return game.save(), f"hkk-game-seed-{game.seed}.json"

    # -- what each one sees -----------------------------------------------------------------

    def state(self, role: int) -> dict[str, Any]:
        with self.lock:
            game = self.game
            decision = game.decision
            over = decision is None
            view: Any = game.view(0 if role == SPECTATOR else role)
            if role == SPECTATOR:
                view = PublicView(view)
            mine = decision if decision is not None and decision.player == role else None
            data = position_json(view, mine)
            if role == SPECTATOR:
                data["you"] = 0  # the board drawn from seat 0's side
                for player in data["players"]:
                    player["hand"], player["hand_hidden"] = [], True
            if decision is not None and mine is None:  # the other decides: no options shown
                data["decision"] = {"kind": "wait", "waiting": True, "rule": None, "options": [],
                                    "prompt": f"{self.names[decision.player]} is deciding…"}
            now = time.monotonic()
            present = [role == s or (s in self.seen and now - self.seen[s] < AWAY_AFTER)
                       for s in (0, 1)]
            other = 1 - role if role != SPECTATOR else None
            data.update(
                seed=game.seed if over else None, decks=self.deck_names,
                opponent="a friend" if other is None else self.names[other],
                answers=self.answers(game),
                can_undo=role != SPECTATOR and self.asked is None
                and any(s == role for _, s in self.history),
                watch=False, message=self.messages[role], think_limit=0, thinking=None,
                cards={"errors": list(self.sets.errors), "newer": False},
                table={"seat": None if role == SPECTATOR else role,
                       "spectator": role == SPECTATOR, "names": list(self.names),
                       "deciding": None if decision is None else decision.player,
                       "joined": [s in self.seat_tab for s in (0, 1)], "present": present,
                       "asked": None if self.asked is None else self.asked.json(self.names),
                       "saves": list(self.saves), "can_download": over and role != SPECTATOR,
                       "version": self.version})
            return data


# -- the app ------------------------------------------------------------------------------------

def table_page(tab: str) -> str:
    """The page of ``hkk serve`` with its tab's token, and friend.js after play.js."""
    html = page_html(tab)
    script = ('<link rel="stylesheet" href="/static/friend.css">\n'
              '<script src="/static/friend.js" defer></script>\n')
    return html.replace("</head>", script + "</head>", 1)


def make_table_app(table: FriendTable, *, host: str = "127.0.0.1") -> Starlette:
    """The Starlette app of ``table``, answering to the names of ``host``."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    headers = {**SECURITY_HEADERS, "Referrer-Policy": "no-referrer"}  # the link holds a token

    def reply(data: Any, status: int = 200, more: dict[str, str] | None = None) -> Response:
        return JSONResponse(data, status_code=status, headers={**headers, **(more or {})})

    async def page(request: Request) -> Response:
        try:
            tab = table.open_tab(request.path_params.get("link", ""))
        except Refused as exc:
            return PlainTextResponse(str(exc), status_code=exc.status, headers=headers)
        return HTMLResponse(table_page(tab), headers=headers)

    async def nolink(request: Request) -> Response:
        return PlainTextResponse("this is a table of hkk serve --table: open a seat's or the "
                                 "spectator's link, as the server printed it", status_code=403,
                                 headers=headers)

    def route(work: Callable[[int, Any], Response | None], method: str,
              path: str | None = None) -> Route:
        async def endpoint(request: Request) -> Response:
            role: int | None = None
            try:
                check(request.method, request.headers, None)
                role = table.role_of(request.headers.get(TOKEN_HEADER, ""))
                data: Any = dict(request.path_params)  # a GET's data: its path's names
                if method == "POST":
                    data = parse_json(await read_body(request.stream(),
                                                      request.headers.get("content-length")))
            except Refused as exc:
                shown = {} if role is None else {"state": table.state(role)}
                return reply({"error": str(exc), **shown}, exc.status)
            result: Response = await run_in_threadpool(done, work, role, data)
            return result
        return Route(path or "/api/" + work.__name__.rstrip("_"), endpoint, methods=[method])

    def done(work: Callable[[int, Any], Response | None], role: int, data: Any) -> Response:
        try:
            answered = work(role, data)
        except Refused as exc:
            return reply({"error": str(exc), "state": table.state(role)}, exc.status)
        except SaveError as exc:
            return reply({"error": str(exc), "state": table.state(role)}, 400)
        except HkkError as exc:  # an answer out of turn or not offered, a request refused
            return reply({"error": str(exc), "state": table.state(role)}, 409)
        return answered if answered is not None else reply(table.state(role))

    def state(role: int, data: Any) -> None:
        return None

    def answer(role: int, data: Any) -> None:
        index = whole_number(data, "index")
        assert index is not None
        table.answer(role, index, whole_number(data, "at", optional=True))

    def undo(role: int, data: Any) -> None:
        table.ask(role, "undo")

    def new(role: int, data: Any) -> None:
        table.ask(role, "new")

    def load(role: int, data: Any) -> None:
        name = data.get("name") if isinstance(data, dict) else None
        if not isinstance(name, str) or "format" in data:
            raise Refused(400, "at a table, saves stay on the server: 'name' must name one of "
                               "the server's saves (Save keeps one there)")
        table.ask(role, "load", name)

    def reply_(role: int, data: Any) -> None:
        accept = data.get("accept") if isinstance(data, dict) else None
        if not isinstance(accept, bool):
            raise Refused(400, f"'accept' must be true or false, not {json.dumps(accept)[:40]}")
        table.reply(role, accept)

    def keep(role: int, data: Any) -> None:
        table.keep(role)

    def save(role: int, data: Any) -> Response:
        saved, name = table.download(role)
        return reply(saved, more={"Content-Disposition": f'attachment; filename="{name}"'})

    def card(role: int, data: Any) -> Response:
        return reply(card_image(table.sets, data["card_id"]))

    def watch(role: int, data: Any) -> Response:
        return reply({"errors": list(table.sets.errors), "newer": False})

    def restart(role: int, data: Any) -> None:
        raise Refused(409, "a table does not reload its cards: start the server again")

    routes = [
        Route("/", nolink),
        Route("/t/{link}", page),
        route(state, "GET"), route(save, "GET"), route(watch, "GET"),
        route(card, "GET", "/api/card/{card_id}"),
        *(route(w, "POST") for w in (answer, undo, new, load, reply_, keep, restart)),
        Mount("/static", StaticFiles(directory=ASSETS / "static")),
    ]
    return Starlette(routes=routes, middleware=[
        Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts(host))])


def links(table: FriendTable, base: str) -> Iterator[tuple[str, str]]:
    """The table's links at ``base`` (``http://host:port``): who, and the address."""
    tokens = table.link_tokens()
    yield f"{table.names[0]}'s seat", f"{base}/t/{tokens['seat1']}"
    yield f"{table.names[1]}'s seat", f"{base}/t/{tokens['seat2']}"
    yield "spectators", f"{base}/t/{tokens['watch']}"


__all__ = ["OPEN_LINKS", "SPECTATOR", "FriendTable", "PublicView", "links", "make_table_app",
           "run_table"]


def run_table(sets: CardSets, decks: Sequence[str], *, host: str, port: int, seed: int | None,
              save_dir: Path, open_links: bool, max_turns: int | None) -> None:
    """``hkk serve --table``: the table on uvicorn, its links printed."""
    import click
    import uvicorn
    from rich.console import Console

    from hkk._console import make_console
    from hkk._markup import escape
    from hkk._rulings import Rulings

    rulings = Rulings(max_turns=max_turns) if max_turns is not None else None
    try:
        table = FriendTable(sets, decks, save_dir=save_dir, seed=seed, rulings=rulings,
                            links=OPEN_LINKS if open_links else None)
    except HkkError as exc:
        raise click.BadParameter(str(exc), param_hint="--decks") from None
    out: Console = make_console()
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else f"[{host}]" if ":" in host else host
    out.print(f"hkk serve --table: {' vs '.join(decks)}; saves kept in {escape(str(save_dir))}; "
              "Ctrl-C stops it")
    if host not in ("127.0.0.1", "localhost", "::1"):
        make_console(stderr=True).print(
            f"[yellow]warning:[/yellow] serving on {escape(host)}: whoever has a link takes "
            "its seat; send each link privately (plain HTTP: on your own network only)")
    if shown != host:
        out.print(f"(listening on {escape(host)}: give your friend this machine's address "
                  "instead of 127.0.0.1)")
    for who, address in links(table, f"http://{shown}:{port}"):
        out.print(f"  {who}: {escape(address)}", soft_wrap=True)
    out.file.flush()
    uvicorn.run(make_table_app(table, host=host), host=host, port=port, log_level="warning")

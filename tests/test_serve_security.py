"""``hkk serve`` lets in only its own page and takes only requests it can read.

A server on the person's machine is reachable from every page his browser opens: another site's
page (a second server on another port here) tries to drive the table in headless Chromium and is
refused, as are a request under a foreign ``Host`` (DNS rebinding), one without the page's token,
one that is not JSON, one too large, and every malformed field (a 400 naming it, the position
byte for byte as it was).  The computer's agent that fails, cheats or never answers is named and
the game kept where it was; the page reads the position while the computer thinks.  The seed that
would let the page replay the hidden cards is not shown until the game is over.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import re
import socket
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import uvicorn
from test_pages import browser  # noqa: F401 - the Chromium fixture of the page tests

from hkk._agent_registry import agent_entries
from hkk._agents import RandomAgent
from hkk._errors import HkkError
from hkk._serve import Table, make_app
from hkk._serve_guard import MAX_BODY, MAX_DEPTH, Refused, read_body
from hkk._serve_watch import CardSets

pytestmark = pytest.mark.xdist_group("chromium")

DECKS = ["alap:tuz", "alap:viz"]


@pytest.fixture(scope="module")
def sets() -> CardSets:
    return CardSets()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Served:
    """A table's app on uvicorn in this process, on 127.0.0.1 and a free port; every request it
    answered, as (method, path, status)."""

    def __init__(self, app: Any) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.answered: list[tuple[str, str, int]] = []

        async def recorded(scope: Any, receive: Any, send: Any) -> None:
            async def sending(message: Any) -> None:
                if message["type"] == "http.response.start":
                    self.answered.append((scope["method"], scope["path"], message["status"]))
                await send(message)
            await app(scope, receive, sending)
        config = uvicorn.Config(recorded, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        for _ in range(300):
            if self.server.started:
                return
            time.sleep(0.05)
        pytest.fail("uvicorn did not start in 15 s")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


@pytest.fixture
def serve() -> Iterator[Callable[[Any], Served]]:
    started: list[Served] = []

    def start(app: Any) -> Served:
        started.append(Served(app))
        return started[-1]
    yield start
    for server in started:
        server.stop()


TOKEN = "the-test-token"


def request(served: Served, method: str, path: str, body: bytes | str | None = None, *,
            token: str | None = TOKEN, content_type: str | None = "application/json",
            headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    sent = dict(headers or {})
    if token is not None:
        sent["X-HKK-Token"] = token
    if body is not None and content_type is not None:
        sent["Content-Type"] = content_type
    try:
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def table_of(sets: CardSets, maker: Callable[[int, int], Any] | None = None, *,
             opponent: str = "random", seed: int | None = 3, think_limit: float = 30.0) -> Table:
    return Table(sets, DECKS, opponent, maker or (lambda agent_seed, seat: RandomAgent(agent_seed)),
                 seed=seed, think_limit=think_limit)


def where_it_is(table: Table) -> str:
    """The position byte for byte: what the page reads and the save (the hidden cards too),
    but the clock's reading of the time since the decision was offered (41.7: it runs on)."""
    saved = table.game.save()
    saved["state"]["clock"].pop("elapsed")
    return json.dumps([table.state(), saved], sort_keys=True)


def play(table: Table, answers: int) -> None:
    for _ in range(answers):
        decision = table.game.decision
        assert decision is not None, "the game ended too early for this test"
        table.answer(len(decision.options) - 1, table.game.answered)


# -- the seed (hidden until the game is over) ------------------------------------------------

def play_to_the_end(table: Table) -> None:
    for _ in range(3000):
        if table.game.decision is None:
            return
        play(table, 1)
    pytest.fail("no end in 3000 decisions")


def test_the_page_gets_no_seed_until_the_game_is_over_then_the_seed_for_a_replay(sets):
    table = table_of(sets, seed=12345)
    play(table, 10)
    state = table.state()
    assert state["seed"] is None
    text = json.dumps(state)
    assert "12345" not in text and "seed" not in json.dumps(state["log"])
    assert state["log"][0]["text"] == "Game: decks of 30 and 34 cards"
    play_to_the_end(table)
    assert table.state()["seed"] == 12345 and table.state()["winner"] is not None


def test_each_game_and_each_computer_agent_takes_a_seed_from_the_operating_system(
        sets, monkeypatch):
    import hkk._serve as serve_module

    drawn = iter([1001, 2002, 3003, 4004, 5005, 6006])
    monkeypatch.setattr(serve_module.secrets, "randbits", lambda bits: next(drawn))
    agents: list[int] = []

    def maker(agent_seed: int, seat: int) -> RandomAgent:
        agents.append(agent_seed)
        return RandomAgent(agent_seed)
    table = table_of(sets, maker, seed=None)
    table.new_game()
    # the game's seed, then its agent's: nothing the page saw foretells either
    assert [g.seed for g in (*table.history, table.game)] == [3003]
    assert agents == [2002, 4004]
    given = table_of(sets, maker, seed=7)
    given.new_game()
    assert given.game.seed == 8 and agents[-2:] == [5005, 6006]  # --seed: the next; agents: OS


# -- the computer's agent that fails, cheats or never answers ---------------------------------

class Raises:
    def __init__(self, seed: int | None = None) -> None:
        self.decisions = 0

    def choose(self, view: Any, decision: Any) -> Any:
        self.decisions += 1
        if self.decisions > 30:
            raise ValueError("the agent's own bug")
        return decision.options[0]


class Cheats(Raises):
    def choose(self, view: Any, decision: Any) -> Any:
        option = super().choose(view, decision) if self.decisions < 30 else None
        return option if option is not None else "play every card at once"


class Waits:
    """Thinks until the test lets it go (``released``), from its 3rd decision on."""

    released = threading.Event()
    #: set while it thinks (a quick change of the game's is no thinking of the computer's)
    waiting = threading.Event()

    def __init__(self, seed: int | None = None) -> None:
        self.decisions = 0

    def choose(self, view: Any, decision: Any) -> Any:
        self.decisions += 1
        if self.decisions > 2:
            Waits.waiting.set()
            Waits.released.wait(timeout=120)
        return decision.options[0]


def raising_agent(seed: int | None = None) -> Raises:
    return Raises()


def cheating_agent(seed: int | None = None) -> Cheats:
    return Cheats()


def waiting_agent(seed: int | None = None) -> Waits:
    return Waits()


def registered(name: str) -> Callable[[int, int], Any]:
    """The maker of the agent ``name`` registered for the test, as ``hkk serve`` makes it."""
    entry = SimpleNamespace(name=name, value=f"test_serve_security:{name.replace('-', '_')}_agent",
                            dist=SimpleNamespace(name="hkk-test-agents"))
    make = agent_entries([entry]).factory(name)
    return lambda agent_seed, seat: make(agent_seed)


@pytest.mark.parametrize(("name", "said"), [
    ("raising", r"the computer's agent raising raised ValueError: the agent's own bug "
                r"\(at its \w+ decision\)"),
    ("cheating", r"the computer's agent cheating answered its \w+ decision with 'play every "
                 r"card at once', which it does not offer \(\[.+\]\)"),
])
def test_a_computer_agent_that_raises_or_answers_what_is_not_offered_is_named_and_the_game_kept(
        sets, name, said):
    table = table_of(sets, registered(name), opponent=name)
    for _ in range(500):
        before = where_it_is(table)
        try:
            play(table, 1)
        except HkkError as exc:
            assert re.fullmatch(said, str(exc)), str(exc)
            break
    else:
        pytest.fail("the agent never failed")
    assert where_it_is(table) == before
    assert table.game.decision is not None and table.state()["winner"] is None


def test_the_server_says_which_computer_agent_failed_and_shows_the_position_before(sets, serve):
    table = table_of(sets, registered("raising"), opponent="raising")
    served = serve(make_app(table, token=TOKEN))
    for _ in range(500):
        state = json.loads(request(served, "GET", "/api/state")[1])
        body = {"index": len(state["decision"]["options"]) - 1, "at": state["answers"]}
        status, answer = request(served, "POST", "/api/answer", json.dumps(body))
        if status != 200:
            break
    else:
        pytest.fail("the agent never failed")
    data = json.loads(answer)
    assert status == 409 and data["error"].startswith("the computer's agent raising raised "
                                                      "ValueError: the agent's own bug")
    assert {k: v for k, v in data["state"].items() if k != "message"} == \
        {k: v for k, v in state.items() if k != "message"}
    assert data["state"]["message"] == data["error"]


def test_a_computer_agent_that_never_answers_is_given_up_after_the_think_limit(sets):
    Waits.released.clear()
    table = table_of(sets, registered("waiting"), opponent="waiting", think_limit=0.3)
    try:
        for _ in range(500):
            before = where_it_is(table)
            try:
                play(table, 1)
            except HkkError as exc:
                assert str(exc) == ("the computer's agent waiting did not move within 0.3 s; "
                                    "the game is where it was")
                break
        else:
            pytest.fail("the agent never thought long")
        assert where_it_is(table) == before
        # the table is free again: take back works, and the next answer is asked again
        assert table.state()["thinking"] is None
    finally:
        Waits.released.set()


def test_the_page_reads_the_position_while_the_computer_thinks(sets, serve):
    Waits.released.clear()
    Waits.waiting.clear()
    table = table_of(sets, registered("waiting"), opponent="waiting")
    served = serve(make_app(table, token=TOKEN))
    answers: list[tuple[int, bytes]] = []

    def answer_until_it_thinks() -> None:
        for _ in range(500):
            state = json.loads(request(served, "GET", "/api/state")[1])
            body = {"index": len(state["decision"]["options"]) - 1, "at": state["answers"]}
            answers.append(request(served, "POST", "/api/answer", json.dumps(body)))
            if answers[-1][0] != 200 or Waits.released.is_set():
                return
    person = threading.Thread(target=answer_until_it_thinks)
    person.start()
    try:
        for _ in range(600):  # until the computer thinks (its 3rd decision), at most a minute
            status, body = request(served, "GET", "/api/state")
            assert status == 200
            state = json.loads(body)
            # the agent that thinks, not any quick change of the game's
            if Waits.waiting.is_set() and state["thinking"] is not None:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the computer never thought")
        # the position before the answer, answered at once while the computer thinks
        assert state["decision"] is not None and state["think_limit"] == 30.0
        assert request(served, "GET", "/api/save")[0] == 200
        status, body = request(served, "POST", "/api/undo", "{}")
        assert status == 409 and b"the computer is still thinking" in body
    finally:
        Waits.released.set()
        person.join(timeout=60)
    assert answers[-1][0] == 200
    assert json.loads(request(served, "GET", "/api/state")[1])["thinking"] is None


# -- requests that are not the page's ---------------------------------------------------------

@pytest.fixture
def guarded(sets: CardSets, serve: Callable[[Any], Served]) -> tuple[Table, Served]:
    table = table_of(sets)
    play(table, 4)
    return table, serve(make_app(table, token=TOKEN))


@pytest.mark.parametrize(("kind", "change"), [
    ("no token", {"token": None}),
    ("another token", {"token": "guessed"}),
    ("another site's origin", {"headers": {"Origin": "http://127.0.0.1:1"}}),
    ("an origin of null", {"headers": {"Origin": "null"}}),
    ("a form's content type", {"content_type": "application/x-www-form-urlencoded"}),
    ("plain text", {"content_type": "text/plain"}),
    ("no content type", {"content_type": None}),
    ("a rebound host name", {"headers": {"Host": "attacker.example:8765"}}),
])
@pytest.mark.parametrize(("path", "body"), [("/api/new", "{}"), ("/api/answer", '{"index": 0}'),
                                            ("/api/undo", "{}"), ("/api/load", "SAVE")])
def test_a_request_not_from_the_servers_own_page_is_refused_and_the_game_unchanged(
        guarded, kind, change, path, body):
    table, served = guarded
    before = where_it_is(table)
    if body == "SAVE":
        body = json.dumps(table_of(table.sets, seed=99).game.save())
    status, answer = request(served, "POST", path, body, **change)
    expected = 400 if "host" in kind else 415 if "type" in kind or "text" in kind else 403
    assert status == expected, answer
    assert where_it_is(table) == before
    # and the same request as the page sends it is taken
    if path == "/api/undo":
        assert request(served, "POST", path, body)[0] == 200


@pytest.mark.parametrize("path", ["/", "/api/state", "/api/save", "/api/card/alap:langorzo"])
def test_a_rebound_host_name_reads_nothing(guarded, path):
    table, served = guarded
    status, body = request(served, "GET", path, headers={"Host": f"rebound.example:{served.port}"})
    assert status == 400 and TOKEN.encode() not in body and b"hand" not in body
    assert request(served, "GET", "/api/state", token=None)[0] == 403
    assert request(served, "GET", path)[0] == 200  # the page itself, on 127.0.0.1


def test_a_cards_image_is_read_with_the_token_for_a_card_of_the_sets_only(guarded):
    table, served = guarded
    before = where_it_is(table)
    status, body = request(served, "GET", "/api/card/alap:langorzo")
    card = json.loads(body)
    assert status == 200 and card["svg"].startswith("<svg") and card["name"] == "Lángőrző"
    # the card, whatever the game: nothing of the position in it
    assert set(card) == {"id", "svg", "name", "kind", "vp", "components", "text", "abilities",
                         "damage", "hp"}
    assert request(served, "GET", "/api/card/alap:langorzo", token=None)[0] == 403
    status, body = request(served, "GET", "/api/card/alap:nosuch")
    assert status == 404 and json.loads(body)["error"] == \
        "no card 'alap:nosuch' in the sets loaded"
    status, body = request(served, "POST", "/api/undo", '{"auto": "x"}')
    assert status == 400 and json.loads(body)["error"] == \
        "'auto' must be true or false, not \"x\""
    assert where_it_is(table) == before


def test_the_page_carries_the_servers_token_and_warns_that_a_save_shows_every_card(guarded):
    table, served = guarded
    status, page = request(served, "GET", "/", token=None)
    assert status == 200
    html = page.decode()
    assert f'<meta name="hkk-token" content="{TOKEN}">' in html
    assert re.search(r'id="save"[^>]*>Save</button>\s*<span id="save-note"[^>]*>\(a save shows '
                     r"every card\)</span>", html)


def test_two_servers_make_two_tokens(sets):
    from hkk._serve import page_html
    from hkk._serve_guard import new_token

    first, second = new_token(), new_token()
    assert first != second and len(first) >= 40
    assert first in page_html(first) and "{{ token }}" not in page_html(first)


# -- the body's size ---------------------------------------------------------------------------

def test_a_body_over_the_limit_is_refused_by_its_length_before_it_is_read(guarded):
    table, served = guarded
    before = where_it_is(table)
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    connection.putrequest("POST", "/api/load")
    for name, value in (("X-HKK-Token", TOKEN), ("Content-Type", "application/json"),
                        ("Content-Length", str(200 * 1024 * 1024))):
        connection.putheader(name, value)
    connection.endheaders(b"{")  # 1 byte of the 200 MB it announced: it answers all the same
    response = connection.getresponse()
    assert response.status == 413
    assert json.loads(response.read())["error"] == (f"the request's body is {200 * 1024 * 1024} "
                                                    f"bytes; at most {MAX_BODY} are read")
    connection.close()
    assert where_it_is(table) == before


def test_a_body_over_the_limit_without_its_length_is_refused(guarded):
    table, served = guarded
    before = where_it_is(table)

    def chunks() -> Iterator[bytes]:
        yield b'{"format": "'
        for _ in range(MAX_BODY // 65536 + 2):
            yield b"x" * 65536
    connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    try:
        connection.request("POST", "/api/load", body=chunks(), encode_chunked=True,
                           headers={"X-HKK-Token": TOKEN, "Content-Type": "application/json",
                                    "Transfer-Encoding": "chunked"})
        response = connection.getresponse()
        assert response.status == 413
        assert f"at most {MAX_BODY} are read" in json.loads(response.read())["error"]
    except (BrokenPipeError, ConnectionResetError):  # it stopped reading: as refused
        assert ("POST", "/api/load", 413) in served.answered
    finally:
        connection.close()
    assert where_it_is(table) == before


def test_a_body_is_read_no_further_than_the_limit():
    pulled: list[int] = []

    async def chunks() -> AsyncIterator[bytes]:
        for index in range(1000):
            pulled.append(index)
            yield b"x" * 4
    with pytest.raises(Refused) as refused:
        asyncio.run(read_body(chunks(), None, limit=10))
    assert refused.value.status == 413 and pulled == [0, 1, 2]  # 12 bytes > 10: no 4th chunk
    pulled.clear()
    with pytest.raises(Refused):  # a length over the limit: not a byte pulled
        asyncio.run(read_body(chunks(), "11", limit=10))
    assert pulled == []


# -- malformed fields: a 400 naming the field, the game as it was ------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(("body", "said"), [
    ('{"index": Infinity}', "'index' must be a whole number, not Infinity"),
    ('{"index": -Infinity}', "'index' must be a whole number, not -Infinity"),
    ('{"index": NaN}', "'index' must be a whole number, not NaN"),
    ('{"index": 1e400}', "'index' must be a whole number, not Infinity"),
    ('{"index": 0.5}', "'index' must be a whole number, not 0.5"),
    ('{"index": true}', "'index' must be a whole number, not true"),
    ('{"index": "0"}', "'index' must be a whole number, not \"0\""),
    ("{}", "'index' must be a whole number, not null"),
    ('{"index": 0, "at": "x"}', "'at' must be a whole number, not \"x\""),
    ('{"index": 0, "at": []}', "'at' must be a whole number, not []"),
    ('{"index": 0, "at": 1e400}', "'at' must be a whole number, not Infinity"),
    ('{"index": 0, "auto": 1}', "'auto' must be true or false, not 1"),
    ('{"index": 0, "auto": "yes"}', "'auto' must be true or false, not \"yes\""),
    ("[]", "the request must be a JSON object with 'index'"),
    ("[0]", "the request must be a JSON object with 'index'"),
    (DEEP, f"the request's JSON nests more than {MAX_DEPTH} deep"),
    ('{"index": ' + "[" * 40 + "]" * 40 + "}", f"the request's JSON nests more than {MAX_DEPTH} deep"),
    ("{index: 0}", "the request is not JSON: Expecting property name enclosed in double quotes: "
                   "line 1 column 2 (char 1)"),
    (b'{"index": "\xff"}', "the request is not JSON: 'utf-8' codec can't decode byte 0xff in "
                            "position 11: invalid start byte"),
])
def test_a_malformed_answer_is_a_400_naming_its_field_and_the_game_unchanged(guarded, body, said):
    table, served = guarded
    before = where_it_is(table)
    status, answer = request(served, "POST", "/api/answer", body)
    assert status == 400, answer
    assert json.loads(answer)["error"] == said
    assert where_it_is(table) == before


def _a_save(sets: CardSets, **change: Any) -> str:
    data = table_of(sets, seed=21).game.save()
    data.update(change)
    return json.dumps(data)


@pytest.mark.parametrize(("body", "said"), [
    ("SEED", "not an hkk save (hkk-save/4): seed: Input should be a valid integer, unable to "
             "parse string as an integer"),
    ("SEED_INFINITE", "not an hkk save: seed: a number JSON has not"),
    ("SEED_HUGE", "not an hkk save: seed: a number JSON has not"),
    ("ANSWER_NAN", "not an hkk save: answers[0]: a number JSON has not"),
    (DEEP, f"the request's JSON nests more than {MAX_DEPTH} deep"),
    ('{"agents": ' + "[" * 40 + "]" * 40 + "}", f"the request's JSON nests more than {MAX_DEPTH} deep"),
    ("[]", "not a save of a game a person played against the computer (hkk serve's Save): one "
           "seat must be answered from outside"),
    ('"a text"', "not a save of a game a person played against the computer (hkk serve's "
                 "Save): one seat must be answered from outside"),
    ("not json", "the request is not JSON: Expecting value: line 1 column 1 (char 0)"),
])
def test_a_malformed_save_is_a_400_naming_its_field_and_the_game_unchanged(
        guarded, sets, body, said):
    table, served = guarded
    body = {"SEED": _a_save(sets, seed="x"),
            "SEED_INFINITE": _a_save(sets, seed="INF").replace('"INF"', "Infinity"),
            "SEED_HUGE": _a_save(sets, seed="INF").replace('"INF"', "1e400"),
            "ANSWER_NAN": _a_save(sets, answers=["N"]).replace('["N"]', "[NaN]"),
            }.get(body, body)
    before = where_it_is(table)
    status, answer = request(served, "POST", "/api/load", body)
    assert status == 400, answer
    assert json.loads(answer)["error"] == said
    assert where_it_is(table) == before
    # a good save is taken
    assert request(served, "POST", "/api/load", _a_save(sets))[0] == 200


# -- another site's page in Chromium --------------------------------------------------------

ATTACK = """async ({target, save}) => {
  const sent = {};
  const attempts = [["/api/new", "{}"], ["/api/answer", '{"index": 0, "at": null}'],
                    ["/api/undo", "{}"], ["/api/load", save]];
  for (const [path, body] of attempts) {
    // a "simple" request: the browser sends it without asking; its answer is opaque
    try {
      await fetch(target + path, {method: "POST", mode: "no-cors", body,
                                  headers: {"Content-Type": "text/plain"}});
      sent[path + " no-cors"] = "sent";
    } catch (error) { sent[path + " no-cors"] = String(error); }
    // as the page sends it: JSON, with a made-up token (the browser asks first: preflight)
    try {
      const r = await fetch(target + path, {method: "POST", body,
        headers: {"Content-Type": "application/json", "X-HKK-Token": "guessed"}});
      sent[path] = r.status;
    } catch (error) { sent[path] = "blocked"; }
  }
  try {
    const r = await fetch(target + "/api/state");
    sent["/api/state"] = await r.text();
  } catch (error) { sent["/api/state"] = "blocked"; }
  try {
    const r = await fetch(target + "/");
    sent["/"] = await r.text();
  } catch (error) { sent["/"] = "blocked"; }
  // a form posted into a frame: a navigation, no CORS at all
  await new Promise(resolve => {
    const frame = document.createElement("iframe");
    frame.name = "sink";
    frame.onload = resolve;
    document.body.append(frame);
    const form = document.createElement("form");
    form.method = "POST"; form.action = target + "/api/new"; form.target = "sink";
    form.enctype = "text/plain";
    const field = document.createElement("input");
    field.name = '{"x": "'; field.value = '"}';
    form.append(field);
    document.body.append(form);
    form.submit();
  });
  sent.form = "sent";
  return sent;
}"""


def test_another_sites_page_in_the_browser_cannot_drive_or_read_the_table(
        browser, guarded, serve):  # noqa: F811 - the fixture imported from test_pages
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    table, served = guarded
    other = serve(Starlette(routes=[Route("/", lambda request: HTMLResponse(
        "<!doctype html><title>another site</title><p>nothing to see"))]))
    before = where_it_is(table)
    page = browser.new_page()
    page.goto(other.url + "/")
    save = table_of(table.sets, seed=99).game.save()
    sent = page.evaluate(ATTACK, {"target": served.url, "save": json.dumps(save)})
    page.close()
    # the browser sent them all; the server refused every one, and told the page nothing
    for path in ("/api/new", "/api/answer", "/api/undo", "/api/load"):
        assert sent[path + " no-cors"] == "sent" and sent[path] == "blocked"
        assert ("POST", path, 403) in served.answered
    assert sent["/api/state"] == "blocked" and sent["/"] == "blocked" and sent["form"] == "sent"
    assert all(status in (403, 400) or method == "GET" or method == "OPTIONS"
               for method, path, status in served.answered if path.startswith("/api/"))
    assert not any(method == "POST" and status == 200 for method, _, status in served.answered)
    assert where_it_is(table) == before


#: Records, when the page is first free again, whether the computer's side still says it thinks.
FREED_WHILE_THINKING = """() => {
  window.freedWhileThinking = null;
  new MutationObserver((changes, observer) => {
    if (!document.body.classList.contains("busy")) {
      window.freedWhileThinking = document.body.classList.contains("thinking");
      observer.disconnect();
    }
  }).observe(document.body, { attributes: true, attributeFilter: ["class"] });
}"""


def test_the_page_says_the_computer_is_thinking_and_for_how_long_at_most(
        browser, sets, serve):  # noqa: F811 - the fixture imported from test_pages
    Waits.released.clear()
    Waits.waiting.clear()
    table = table_of(sets, registered("waiting"), opponent="waiting", think_limit=45)
    served = serve(make_app(table, token=TOKEN))
    page = browser.new_page()
    try:
        page.goto(served.url + "/")
        prompt = page.locator("#prompt")
        for _ in range(50):  # answer until the computer thinks (from its 3rd decision)
            page.wait_for_selector("body:not(.busy) #options button")
            page.locator("#options button >> nth=-1").click()
            for _ in range(300):  # until the answer is shown, or the computer thinks
                if Waits.waiting.is_set() or page.locator("body.busy").count() == 0:
                    break
                time.sleep(0.05)
            if Waits.waiting.is_set():
                assert table.state()["thinking"] is not None
                break
        else:
            pytest.fail("the computer never thought")
        for _ in range(600):  # the page says so after a moment (not for a quick answer)
            if prompt.inner_text().startswith("The computer is thinking"):
                break
            time.sleep(0.05)
        assert prompt.inner_text() == "The computer is thinking (at most 45 s)…"
        # and the computer's side of the table says so, with the seconds it has thought
        mark = page.locator(".player[data-player='1'] .thinking-mark")
        mark.wait_for(state="visible")
        assert re.fullmatch(r"thinking… \d+ s", mark.inner_text())
        page.evaluate(FREED_WHILE_THINKING)
        Waits.released.set()
        page.wait_for_selector("body:not(.busy)")
        assert not prompt.inner_text().startswith("The computer is thinking")
        # nor does its side of the table, from the moment the page is free (not a tick later)
        assert page.evaluate("window.freedWhileThinking") is False
        assert not page.locator(".player[data-player='1'] .thinking-mark").is_visible()
    finally:
        Waits.released.set()
        page.close()

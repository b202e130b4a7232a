"""``hexclass serve`` on an open class network: every attempt of issue 23 is refused.

A real server (preheated kernels and all), plain HTTP and websocket clients playing a
curious student with one valid seat link, and Chromium for the pages a person opens.
One test per attempt found; each asserts the refusal and, where it matters, that the
honest use next to it still works (so a server that refuses everything fails too).
"""

from __future__ import annotations

import http.client
import json
import os
import pathlib
import re
import time
import uuid

import pytest
import websocket

from hexclass.classroom import gate as G
from hexclass.classroom.sessions import create_class, open_store
from hexclass.classroom.sessions.session import MAX_TEAMS
from hexclass.classroom.sessions.store import new_token
from hexclass.classroom.sessions.text import strip_bidi

from .conftest import ROOT, HexclassServer, wait_for_board, wait_for_widgets

pytestmark = pytest.mark.browser
SEAT = "/voila/render/classroom/pages/seat.ipynb"
HOME = "/voila/render/classroom/pages/home.ipynb"
INSTRUCTOR = "/voila/render/classroom/pages/instructor.ipynb"
PLAIN = "kernel could not handle a message it was sent"  # in G.PLAIN_ERROR
FULL_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(scope="module")
def server(tmp_path_factory, artifacts):
    s = HexclassServer(
        tmp_path_factory.mktemp("security") / "class.db",
        args=("--class-size", "2", "--max-kernels", "2", "--reload-grace", "3"),
    )
    yield s
    s.stop()


@pytest.fixture(scope="module")
def made(server):
    store = open_store(server.store)
    links = create_class(store, teams=2, seed=11, base_url=server.base)
    store.close()
    return links


# --- plain clients --------------------------------------------------------------------------


class Response:
    def __init__(self, r: http.client.HTTPResponse) -> None:
        self.status = r.status
        self.headers = r.headers
        self.text = r.read().decode("utf-8", errors="replace")
        self.cookies = {}
        for line in r.headers.get_all("Set-Cookie") or []:
            name, _, rest = line.partition("=")
            self.cookies.setdefault(name, []).append(line)

    def cookie(self, name: str) -> str:
        return self.cookies[name][0].split(";", 1)[0].split("=", 1)[1].strip('"')


def request(server, method: str, path: str, headers=None, body=None) -> Response:
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=240)
    try:
        c.request(method, path, body=body, headers=headers or {})
        return Response(c.getresponse())
    finally:
        c.close()


def ws_status(server, path: str, cookie: str | None = None, header=()) -> int:
    """101 if the websocket opened (then closed again), else the HTTP status refused with."""
    try:
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{server.port}{path}", cookie=cookie, header=list(header), timeout=30
        )
    except websocket.WebSocketBadStatusException as exc:
        return exc.status_code
    ws.close()
    return 101


def page_kernels(server) -> int:
    """Kernels handed to a page (every kernel but the preheated ones waiting in the pool)."""
    s = server.status()
    return s["kernels"] - s["preheated"]


def open_seat_http(server, token: str):
    """GET a seat page as ``curl`` would: (kernel id, the page's cookies as a header)."""
    r = request(server, "GET", f"{SEAT}?token={token}")
    assert r.status == 200, r.text[:300]
    kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', r.text).group(1)
    page = f"{G.PAGE_COOKIE}={r.cookie(G.PAGE_COOKIE)}"
    stop = f"{G.STOP_COOKIE}={r.cookie(G.STOP_COOKIE)}"
    return kernel_id, page, stop, r


def kernel_id_of(pid: int) -> str:
    cmd = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    return re.search(r"kernel-([0-9a-f-]{36})\.json", cmd).group(1)


def wait_until(check, timeout: float = 120.0, every: float = 0.5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(every)
    raise AssertionError("condition not reached in time")


# --- "Anyone can start kernels" ---------------------------------------------------------------


def test_made_up_seat_tokens_start_no_kernel(server, made):
    before = page_kernels(server)
    for _ in range(20):
        r = request(server, "GET", f"{SEAT}?token={new_token()}")
        assert r.status == 403
        assert "does not work" in r.text and "kernelId" not in r.text
    for bad in ("", "?token=", "?token=../../etc", f"?token={made.instructor_token}"):
        r = request(server, "GET", SEAT + bad)
        assert r.status == 403 and "kernelId" not in r.text
    assert page_kernels(server) == before


def test_one_seat_link_holds_two_kernels_and_other_seats_still_open(server, made):
    token = made.teams[0].seats[0].token
    before = page_kernels(server)
    first = open_seat_http(server, token)
    open_seat_http(server, token)  # a reload before the first page's kernel has gone
    for _ in range(4):  # a loop of requests: refused, no kernel
        r = request(server, "GET", f"{SEAT}?token={token}")
        assert r.status == 429
        assert "already open" in r.text and "kernelId" not in r.text
        assert int(r.headers["Retry-After"]) > 0
    assert page_kernels(server) <= before + 2
    # the page's own beacon gives its kernel back, and the seat opens again
    kernel_id, _, stop, r = first
    xsrf = r.cookie("_xsrf")
    done = request(
        server,
        "POST",
        f"/voila/api/shutdown/{kernel_id}",
        headers={"Cookie": f"{stop}; _xsrf={xsrf}", "X-XSRFToken": xsrf},
    )
    assert done.status == 204
    assert open_seat_http(server, token)[0] != kernel_id
    # a whole class behind one address: other seats from 127.0.0.1 still get their page
    assert open_seat_http(server, made.teams[1].seats[0].token)[0]


# --- "Anyone can create classes" --------------------------------------------------------------


def test_the_instructor_page_needs_the_key(server, made):
    before = page_kernels(server)
    for path in (INSTRUCTOR, f"{INSTRUCTOR}?token={made.instructor_token}"):
        r = request(server, "GET", path)
        assert r.status == 403
        assert "instructor key" in r.text and 'name="key"' in r.text
        assert "kernelId" not in r.text and "New class" not in r.text
    assert page_kernels(server) == before
    form = request(server, "GET", G.KEY_PATH)
    xsrf = form.cookie("_xsrf")

    def give(key: str, next_url: str = INSTRUCTOR) -> Response:
        body = f"_xsrf={xsrf}&key={key}&next={next_url}"
        return request(
            server,
            "POST",
            G.KEY_PATH,
            headers={
                "Cookie": f"_xsrf={xsrf}",
                "Content-Type": "application/x-www-form-urlencoded",
            },
            body=body,
        )

    wrong = give("not-the-key-at-all-" + "x" * 8)
    assert wrong.status == 403 and "not the instructor key" in wrong.text
    assert G.KEY_COOKIE not in wrong.cookies
    right = give(server.key, "http://elsewhere.example/")  # no open redirect
    assert right.status == 302 and right.headers["Location"] == INSTRUCTOR
    line = right.cookies[G.KEY_COOKIE][0]
    assert "HttpOnly" in line and "SameSite=Strict" in line and server.key not in line
    opened = request(
        server,
        "GET",
        INSTRUCTOR,
        headers={"Cookie": f"{G.KEY_COOKIE}={right.cookie(G.KEY_COOKIE)}"},
    )
    assert opened.status == 200 and "kernelId" in opened.text


def test_the_console_in_chromium_asks_for_the_key(server, browser, artifacts):
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    try:
        page.goto(server.base + INSTRUCTOR)
        page.wait_for_selector("#hexclass-key")
        assert page.locator(".hexclass-new-class").count() == 0
        page.screenshot(path=artifacts / "security-instructor-key.png")
        page.fill("#hexclass-key", "a-wrong-key-of-some-length")
        page.get_by_role("button", name="Open the console").click()
        page.wait_for_selector("#hexclass-key-problem")
        page.fill("#hexclass-key", server.key)
        page.get_by_role("button", name="Open the console").click()
        wait_for_widgets(page)
        page.wait_for_selector(".hexclass-new-class")  # the New class form, now
    finally:
        ctx.close()


def test_a_class_has_a_capped_number_of_teams(server):
    store = open_store(server.store)
    try:
        classes = len(store.classes())
        with pytest.raises(ValueError, match=f"at most {MAX_TEAMS} teams"):
            create_class(store, teams=MAX_TEAMS + 1)
        with pytest.raises(ValueError):
            create_class(store, teams=60)
        assert len(store.classes()) == classes  # nothing half made
    finally:
        store.close()


# --- "A kernel id works like a seat token" ----------------------------------------------------


def test_a_kernel_id_alone_opens_nothing_and_stops_nothing(server, made):
    victim = made.teams[1].seats[1].token
    kernel_id, page, _, _ = open_seat_http(server, victim)
    mine = open_seat_http(server, made.teams[0].seats[1].token)  # the attacker's own page
    mine_xsrf = mine[3].cookie("_xsrf")
    forged = f"{G.PAGE_COOKIE}={mine[1].split('=', 1)[1]}"  # my page's secret, their id
    for cookie in (None, forged, f"_xsrf={mine_xsrf}"):
        headers = {"Cookie": cookie} if cookie else {}
        assert request(server, "GET", f"/api/kernels/{kernel_id}", headers).status == 403
        assert ws_status(server, f"/api/kernels/{kernel_id}/channels", cookie) == 403
    both = {"Cookie": f"_xsrf={mine_xsrf}; {mine[2]}", "X-XSRFToken": mine_xsrf}
    assert request(server, "POST", f"/voila/api/shutdown/{kernel_id}", both).status == 403
    assert request(server, "DELETE", f"/api/kernels/{kernel_id}", both).status == 403
    # the victim's kernel lives on, and its own page still reaches it
    assert request(server, "GET", f"/api/kernels/{kernel_id}", {"Cookie": page}).status == 200
    assert ws_status(server, f"/api/kernels/{kernel_id}/channels?session_id=x", page) == 101


def test_the_request_info_socket_answers_only_its_kernel(server, made, browser):
    pool = [kernel_id_of(p) for p in server.status()["pids"]]
    assert pool
    for kernel_id in pool:  # a preheated kernel waits there for its next visitor's token
        assert ws_status(server, f"/voila/query/{kernel_id}") == 403
        wrong = (f"{G.QUERY_KEY_HEADER}: {new_token()}",)
        assert ws_status(server, f"/voila/query/{kernel_id}", header=wrong) == 403
    # the next visitor gets their own seat (their token reached their preheated kernel)
    seat = made.teams[1].seats[3]
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    try:
        page.goto(seat.url, wait_until="commit")
        wait_for_board(page)
        assert "Team 2" in page.inner_text(".hexclass-seat")
        assert page.evaluate("() => document.cookie").find(G.PAGE_COOKIE) < 0  # HttpOnly
    finally:
        ctx.close()


def test_kernel_ids_and_tokens_are_not_logged_in_full(server, made):
    open_seat_http(server, made.teams[0].seats[2].token)
    log = pathlib.Path(server.log.name).read_text()
    assert "kernel started" in log and "/voila/render/" in log
    assert not FULL_UUID.search(log), FULL_UUID.search(log)
    for team in made.teams:
        for seat in team.seats:
            assert seat.token not in log
    assert server.key not in log


def test_no_kernel_and_no_server_process_holds_the_instructor_key(server):
    status = server.status()
    for pid in [*status["pids"], status["server_pid"]]:
        env = pathlib.Path(f"/proc/{pid}/environ").read_bytes()
        assert server.key.encode() not in env
        assert G.KEY_ENV.encode() not in env


# --- "Nothing to list, nothing to leak" -------------------------------------------------------


def test_nothing_is_listed(server):
    for path in (
        "/voila/api/contents/classroom",
        "/voila/api/contents",
        "/voila/api/contents/",
        "/voila/tree",
        "/voila/tree/classroom",
        "/voila/render/tests/browser",
        "/voila/render/benchmarks/class_load.py",
        "/voila/render/classroom/pages/../pages/seat.ipynb",
    ):
        r = request(server, "GET", path)
        assert r.status in (403, 404), (path, r.status)
        assert "server.py" not in r.text and "conftest" not in r.text


def test_a_malformed_comm_open_gets_no_traceback(server, made):
    kernel_id, page, _, _ = open_seat_http(server, made.teams[0].seats[3].token)
    ws = websocket.create_connection(
        f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels?session_id=x",
        cookie=page,
        timeout=60,
    )
    frames = []
    try:
        header = {"msg_type": "comm_open", "session": "x", "username": "", "version": "5.3"}
        for _i, content in enumerate(
            [
                {"comm_id": "c1", "target_name": "jupyter.widget", "data": {"state": "x"}},
                {"comm_id": "c2", "target_name": "jupyter.widget", "data": None},
            ]
        ):
            msg = {
                "header": {**header, "msg_id": uuid.uuid4().hex, "date": ""},
                "parent_header": {},
                "metadata": {},
                "content": content,
                "buffers": [],
                "channel": "shell",
            }
            ws.send(json.dumps(msg))
        ws.settimeout(5)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not any(PLAIN in f for f in frames):
            try:
                frame = ws.recv()
            except websocket.WebSocketTimeoutException:
                continue
            frames.append(frame.decode(errors="replace") if isinstance(frame, bytes) else frame)
    finally:
        ws.close()
    everything = "\n".join(frames)
    assert PLAIN in everything, [f[:160] for f in frames]  # the page is told, plainly
    assert "Traceback" not in everything and "site-packages" not in everything
    assert str(ROOT) not in everything
    log = pathlib.Path(server.log.name).read_text()
    assert "failed on a message from its page" in log and "Traceback" in log


def test_bidi_controls_are_stripped_from_chat_notes_and_names(server, made):
    store = open_store(server.store)
    try:
        from hexclass.classroom.sessions import open_seat

        seat = open_seat(store, made.teams[0].seats[0].token)
        evil = "move to \u202eexe.txt\u2066 now\u200f"
        assert seat.say(evil)
        said = store.messages(made.teams[0].game_id)[-1].text
        assert said == "move to exe.txt now"
        seat.request_turn("let me \u202dfire\u202c")
        asked = store.requests(made.teams[0].game_id)[-1]
        assert "\u202d" not in asked.note and "fire" in asked.note
        named = create_class(store, teams=1, name="Class \u202eA")
        assert named.name == "Class A"
        assert store.class_info(named.class_id).name == "Class A"
    finally:
        store.close()
    for c in G_BIDI:
        assert strip_bidi(f"a{c}b") == "ab"


G_BIDI = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F)]


def test_security_headers_on_every_answer(server, made):
    _, _, _, seat = open_seat_http(server, made.teams[1].seats[2].token)
    answers = [
        seat,
        request(server, "GET", INSTRUCTOR),
        request(server, "GET", f"{SEAT}?token={new_token()}"),
        request(server, "GET", "/voila/api/contents/classroom"),
        request(server, "GET", "/"),
    ]
    for r in answers:
        assert r.headers["X-Frame-Options"] == "DENY", r.status
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert r.headers["X-Content-Type-Options"] == "nosniff"


# --- the budget of token-less pages (last: its kernels stay until culled) -------------------


def test_token_less_pages_share_a_capped_budget(server, made):
    before = page_kernels(server)
    served = 0
    for _ in range(2):  # --max-kernels 2
        r = request(server, "GET", HOME)
        assert r.status == 200 and "kernelId" in r.text
        served += 1
    for path in (
        HOME,
        "/voila/render/classroom/pages/defender.ipynb",
        "/voila/render/lessons/play-combined-arms.ipynb",
    ):
        r = request(server, "GET", path)
        assert r.status == 503, path
        assert re.search(r"busy.*Try again in \d+ s", r.text, re.S)
        assert int(r.headers["Retry-After"]) > 0 and "kernelId" not in r.text
    assert page_kernels(server) <= before + served
    # seats are not behind that budget
    assert open_seat_http(server, made.teams[0].seats[4].token)[0]


# --- TLS belongs to a reverse proxy: the nginx example of docs/deploy.md, run ------------------

NGINX = "/usr/sbin/nginx"


def nginx_example() -> str:
    """The nginx block of docs/deploy.md's "TLS in front of one host", as printed there."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    section = text.split("## TLS in front of one host", 1)[1]
    return section.split("```nginx\n", 1)[1].split("```", 1)[0]


def test_the_documented_tls_proxy_serves_a_seat_page(server, made, browser, tmp_path):
    if not os.path.exists(NGINX):
        pytest.skip("Debian's nginx is not installed (apt-get install nginx-light)")
    import subprocess

    from .conftest import free_port

    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-keyout",
            str(tmp_path / "key.pem"),
            "-out",
            str(tmp_path / "cert.pem"),
            "-subj",
            "/CN=127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    tls, plain = free_port(), free_port()
    site = (
        nginx_example()
        .replace("listen 443 ssl;", f"listen 127.0.0.1:{tls} ssl;")
        .replace("listen 80;", f"listen 127.0.0.1:{plain};")
        .replace("/etc/ssl/certs/wargames.pem", str(tmp_path / "cert.pem"))
        .replace("/etc/ssl/private/wargames.key", str(tmp_path / "key.pem"))
        .replace("http://127.0.0.1:8866", f"http://127.0.0.1:{server.port}")
    )
    temp = " ".join(
        f"{k}_temp_path {tmp_path / k};"
        for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (tmp_path / "nginx.conf").write_text(
        f"user root; daemon off; pid {tmp_path / 'nginx.pid'}; error_log {tmp_path / 'error.log'};\n"
        f"events {{}}\nhttp {{ access_log off; {temp}\n{site}\n}}\n"
    )
    proxy = subprocess.Popen(
        [NGINX, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, ignore_https_errors=True)
    try:
        wait_until(lambda: proxy.poll() is not None or _answers(tls), timeout=30)
        assert proxy.poll() is None, (tmp_path / "error.log").read_text()
        page = ctx.new_page()
        token = made.teams[1].seats[4].token
        page.goto(f"https://127.0.0.1:{tls}{SEAT}?token={token}", wait_until="commit")
        wait_for_board(page)  # the page's kernel websocket goes through the proxy
        assert "Team 2" in page.inner_text(".hexclass-seat")
        refused = page.goto(f"https://127.0.0.1:{tls}{SEAT}?token={new_token()}")
        assert refused.status == 403
    finally:
        ctx.close()
        proxy.terminate()
        proxy.wait(20)


def _answers(port: int) -> bool:
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0

"""The scoreboard's web server (aiohttp): the page, its assets, the state as JSON, and the live
news as server-sent events.

aiohttp is one well-kept package that is both the server and the client (the tests and the
bench read the event stream with it), streams server-sent events through StreamResponse, and
needs no separate ASGI server: one pinned dependency for a laptop beside the tables.
"""
import asyncio
import json
import os
from collections import deque

from aiohttp import web

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
ATTENTION = 200     # items the referee's queue keeps (newest first on the page)
KEEPALIVE = 15.0    # seconds between comments on a quiet stream: proxies and browsers keep it
QUEUE = 1000        # messages a slow client may lag behind before it is dropped (it reconnects)
HUB = web.AppKey("hub", object)


def sse(kind, data):
    """One server-sent event: `event:` names it, `data:` is one line of JSON."""
    return ("event: %s\ndata: %s\n\n" % (kind, json.dumps(data, separators=(",", ":")))
            ).encode()


class Hub:
    """The page's state, kept on the event loop: every table's view, the attention queue, the
    standings; and the clients' queues that each change is put in."""

    def __init__(self, title="UNO game night"):
        self.title = title
        self.tables = {}                          # slot -> the table's view
        self.attention = deque(maxlen=ATTENTION)  # oldest first; the page shows newest first
        self.standings = {"rows": [], "series": [], "source": None, "night": None}
        self.clients = set()

    def state(self):
        return {"title": self.title, "tables": sorted(self.tables.values(), key=lambda t: (
                    t.get("order", 0), t["slot"])),
                "attention": list(self.attention)[::-1], "standings": self.standings}

    def publish(self, kind, data):
        """On the loop only (watchers call it through loop.call_soon_threadsafe)."""
        if kind == "table":
            self.tables[data["slot"]] = data
            if data.get("connected"):     # a table back on another port: its old place goes
                for slot, t in list(self.tables.items()):
                    if slot != data["slot"] and t.get("key") == data["key"] and \
                            not t.get("connected"):
                        del self.tables[slot]
                        self.publish("drop", {"slot": slot})
        elif kind == "attention":
            self.attention.extend(data)
        elif kind == "standings":
            self.standings = data
        msg = sse(kind, data)
        for q in list(self.clients):
            try:
                q.put_nowait(msg)
            except asyncio.QueueFull:       # a client that stopped reading: let it go
                self.clients.discard(q)

    def close(self):
        """Ends every stream (the server is stopping): each client's handler returns."""
        for q in list(self.clients):
            self.clients.discard(q)
            try:
                q.put_nowait(None)
            except asyncio.QueueFull:
                pass

    def poster(self, loop):
        """post(kind, data) for another thread."""
        def post(kind, data):
            loop.call_soon_threadsafe(self.publish, kind, data)
        return post


async def page(request):
    return web.FileResponse(os.path.join(STATIC, "index.html"),
                            headers={"Cache-Control": "no-cache"})


async def state(request):
    return web.json_response(request.app[HUB].state())


async def events(request):
    """The live stream: first the whole state, then each change as it comes."""
    hub = request.app[HUB]
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                       "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    await resp.prepare(request)
    q = asyncio.Queue(QUEUE)
    hub.clients.add(q)
    try:
        await resp.write(b"retry: 2000\n\n" + sse("state", hub.state()))
        while True:
            try:
                msg = await asyncio.wait_for(q.get(), KEEPALIVE)
            except asyncio.TimeoutError:
                msg = b": still here\n\n"
            if msg is None or q not in hub.clients:   # stopping, or dropped for lagging
                break
            await resp.write(msg)
    except ConnectionResetError:        # the page was closed: nothing to tell anyone
        pass
    finally:
        hub.clients.discard(q)
    return resp


def make_app(hub):
    app = web.Application()
    app[HUB] = hub
    app.router.add_get("/", page)
    app.router.add_get("/state.json", state)
    app.router.add_get("/events", events)
    app.router.add_static("/static/", STATIC, show_index=False)
    return app

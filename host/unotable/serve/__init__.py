"""`unotable serve`: the live scoreboard of a game night, one page for a projector.

Each table is watched in a thread of its own (serve.watch), the page and its event stream are
served by aiohttp (serve.app), and what a table shows is worked out in serve.model: public
facts only, never a card of a hand.
"""
import asyncio
import signal
import sys

from unotable.errors import NotFound, UsageError
from unotable.store import Store

RESCAN = 3.0    # seconds between looks for new tables, with --all


def table_ports(args):
    """The ports to watch: those given (-p, repeatable), and with --all every likely board and
    every running simulated table; each once, in the order given."""
    given = args.port or []
    if isinstance(given, str):           # `unotable -p X serve`: the global option's one port
        given = [given]
    ports = list(given)
    if args.all:
        from unotable import fleet
        ports += [p for p, _ in fleet.ports()]
    out = []
    for p in ports:
        if p not in out:
            out.append(p)
    return out


def closed_night(args, hub):
    """--night N: the night's tables, standings and charts from the host database alone."""
    from unotable.export import input_dates
    from unotable.serve.model import Board, refresh_badges
    from unotable import league
    from unotable.serve.watch import standings
    with Store(args.db, readonly=True) as db:
        st = standings(db, [], night=args.night)
        keys = sorted({r["table"] for r in st["series"] if r.get("table")})
        if not st["rows"] and not keys:
            raise NotFound("night %s has no rounds in the host database %s: `unotable "
                           "night list` names the nights" % (args.night, db.path))
        night = league.find_night(db, args.night)
        lo = night["started"] or 0
        hi = night["closed"] if night["closed"] is not None else float("inf")
        badges = refresh_badges(db)
        items = []
        for key in keys:
            tid = db.find(key) or key
            # the table as the night left it, and the referee's items of the night: inputs
            # dated by the table's clock notes (an undated input is not the night's)
            dates = input_dates(db.records(tid), db.clocks(tid))
            last = max([q for q, w in dates.items() if w <= hi] or [0]) if dates else None
            b = Board(tid, db.label(tid) or tid, db.registry(tid), badges)
            for it in b.replay(db.script_lines(tid, 1, last)):
                w = dates.get(it["seq"])
                if w is not None and lo <= w <= hi:
                    items.append(dict(it, at=w))
            b.why = "night %s is closed" % night["name"] if night["closed"] is not None \
                else "night %s, from the host database" % night["name"]
            v = b.view()
            v["slot"] = tid
            v["order"] = keys.index(key)
            hub.publish("table", v)
        hub.publish("attention", sorted(items, key=lambda it: it["at"]))
        hub.publish("standings", st)


async def _serve(args, ports):
    from aiohttp import web
    from unotable.serve.app import Hub, make_app
    from unotable.serve.watch import Watcher, stop_all
    loop = asyncio.get_running_loop()
    hub = Hub()
    if args.night is not None:
        closed_night(args, hub)
    app = make_app(hub)
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.http_port)
    try:
        await site.start()
    except OSError as e:
        await runner.cleanup()
        raise UsageError("cannot listen on %s:%d: %s; give another --http-port" % (
            args.host, args.http_port, e.strerror or e)) from None
    done = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            loop.add_signal_handler(sig, done.set)
        except (NotImplementedError, RuntimeError):
            pass
    boards = {}
    post = hub.poster(loop)
    watchers = []

    def watch(new):
        for p in new:
            w = Watcher(p, args.db, post, every=args.every, timeout=args.timeout,
                        boards=boards, order=len(watchers))
            watchers.append(w)
            hub.publish("table", w._view())
            w.start()
    watch(ports)
    host = "[%s]" % args.host if ":" in args.host else args.host
    print("scoreboard on http://%s:%d/ watching %s; Ctrl-C stops it" % (
        host, runner.addresses[0][1] if runner.addresses else args.http_port,
        ", ".join(ports) if ports else "night %s from the host database" % args.night
        if args.night is not None else "no table yet (--all looks again every %d s)" % RESCAN),
        flush=True)
    try:
        while not done.is_set():
            try:
                await asyncio.wait_for(done.wait(), RESCAN)
            except asyncio.TimeoutError:
                pass
            if args.all:      # a table plugged in (or back on another port) tonight
                known = {w.port for w in watchers}
                found = await loop.run_in_executor(None, table_ports, args)
                watch([p for p in found if p not in known])
    finally:
        hub.close()
        stop_all(watchers, 0.5)
        await runner.cleanup()


def cmd_serve(args):
    ports = table_ports(args)
    if not ports and args.night is None and not args.all:
        raise UsageError("which tables? give -p PORT (once per table), --all (every board "
                         "and simulated table connected), or --night N (a night from the host "
                         "database)")
    if ports:
        with Store(args.db):     # a database that cannot be used is one line, before serving
            pass
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        raise UsageError("the scoreboard needs aiohttp: pip install aiohttp==3.14.5 "
                         "(it is in unotable's dependencies)") from None
    try:
        asyncio.run(_serve(args, ports))
    except KeyboardInterrupt:     # the way to stop the scoreboard: not an error
        print(file=sys.stderr)
    return 0

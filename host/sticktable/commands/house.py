"""`sticktable house`: every table on an MQTT broker in one house journal and one league."""

from __future__ import annotations

import signal
import threading

from sticktable.commands.serve import add_web_option, history_console
from sticktable.errors import UserError
from sticktable.house.broker import add_broker_options, broker_from_args
from sticktable.house.service import House
from sticktable.house.store import HouseStore
from sticktable.journal import Journal
from sticktable.paths import data_dir


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "house",
        help="collect every table's games from an MQTT broker into one house journal",
        description="Subscribe to every table publishing on the broker (`sticktable run "
        "--mqtt URL --table NAME`), store each table's games once, in order, checked by the "
        "game's own rules, in the house journal, and ask a table again for what was missed. "
        "`sticktable games/replay/export --journal HOUSE` read the house journal like any "
        "other. Runs until Ctrl-C. Topics and payloads: host/docs/formats/mqtt.md.",
    )
    add_broker_options(parser, "the broker the tables publish on (required)")
    parser.add_argument(
        "--journal",
        metavar="FILE",
        help="the house journal (default: house.sqlite in the user's data directory)",
    )
    parser.add_argument(
        "--name",
        default="house",
        help="this house's name on the broker (its persistent session; default: house)",
    )
    add_web_option(parser, required=False)
    parser.add_argument("-q", "--quiet", action="store_true", help="no news of the tables")
    parser.set_defaults(func=run)


def run(args) -> int:
    broker = broker_from_args(args)
    if broker is None:
        raise UserError("--mqtt URL is required (e.g. --mqtt mqtt://localhost)")
    say = (lambda text: None) if args.quiet else print
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with Journal(args.journal or data_dir() / "house.sqlite") as journal:
        store = HouseStore(journal)
        # Every table's games, the league (leaderboards across tables and nights) in a browser.
        console = history_console(journal.path, args.web, say) if args.web else None
        if console:
            console.start()
        house = House(store, broker, name=args.name, say=say)
        if house.start():
            say(f"house: listening on {broker.address} (journal {journal.path})")
        else:
            say(f"house: broker {broker.address} not reachable yet, trying (Ctrl-C to stop)")
        try:
            house.run(stop)
        except KeyboardInterrupt:
            pass
        finally:
            house.stop()
            if console:
                console.stop()
        say(
            f"house: {house.stored} event(s) stored, {store.repeats} repeat(s) ignored, "
            f"{store.rejected} malformed or refused message(s) not applied"
        )
    return 0

"""`sticktable simulate`: write a sensor trace (and its truth) from the virtual tower."""

import json
import sys

from sticktable import textfile
from sticktable.errors import UserError
from sticktable.sim.scenarios import SCENARIOS, scenario
from sticktable.sim.trace import write_trace


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="write a sensor trace from the virtual tower (a whole game or one scenario)",
        description="Play a random Stick Stack game (or one labelled scenario) on the virtual "
        "tower and write what the sensors said as a sensor trace "
        "(host/docs/formats/sensor-trace.md).",
    )
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="random seed (default 1)")
    parser.add_argument(
        "--out", required=True, metavar="FILE", help="trace file to write (CSV), - for stdout"
    )
    parser.add_argument(
        "--truth", metavar="FILE", help="also write the labelled truth events here (JSON lines)"
    )
    parser.add_argument(
        "--transcript", metavar="FILE", help="also write the game's truth transcript here"
    )
    parser.add_argument(
        "--players", default="Ann,Bo,Cy", metavar="A,B,...", help="player names in seat order"
    )
    parser.add_argument(
        "--scenario",
        choices=sorted(SCENARIOS),
        help="one short labelled scenario instead of a whole game",
    )
    parser.add_argument(
        "--no-zero", action="store_true", help="leave the optional zero_counts out of the meta"
    )
    parser.set_defaults(func=run)


def run(args) -> int:
    if args.scenario:
        if args.transcript:
            raise UserError("--transcript needs a whole game, not --scenario")
        made = scenario(args.scenario, seed=args.seed)
        meta, samples, truth = made.meta, made.samples, made.truth
    else:
        from sticktable.engine.core import RuleError
        from sticktable.sim.game import SimGame

        players = [p.strip() for p in args.players.split(",") if p.strip()]
        try:
            game = SimGame(players, seed=args.seed)
        except RuleError as err:
            raise UserError(str(err)) from None
        meta, samples, truth = game.meta, list(game.samples()), game.truth_events()
        if args.transcript:
            _write(args.transcript, game.transcript_text())
    if args.no_zero:
        meta = {k: v for k, v in meta.items() if k != "zero_counts"}
    count = write_trace(args.out, meta, samples)
    if args.truth:
        _write(args.truth, "".join(json.dumps(e) + "\n" for e in truth))
    seconds = samples[-1].t_ms / 1000 if samples else 0
    # With --out -, the trace is stdout: the report goes to stderr.
    report = sys.stderr if args.out == "-" else sys.stdout
    where = textfile.name(args.out, output=True)
    print(f"wrote {count} samples ({seconds:.1f} s) to {where}", file=report)
    return 0


def _write(path: str, text: str) -> None:
    with textfile.output(path) as out:
        out.write(text)

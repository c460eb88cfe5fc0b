"""`sticktable journal check|recover`: is the journal intact; save the intact games of one
that is not."""

from pathlib import Path

from sticktable import journal_repair
from sticktable.journal import add_journal_option, default_path
from sticktable.texttable import table


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "journal",
        help="check the journal, or recover the intact games of a damaged one",
        description="The journal keeps every game (SQLite). `check` reads it game by game; "
        "`recover OLD NEW` copies every intact game of a damaged journal into a new one "
        "(the old file is only read).",
    )
    actions = parser.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="read every game; exit 1 when any is damaged",
        description="Read the journal game by game and say for each whether it is intact and "
        "replays. Exit 0 when everything is intact, 1 when anything is damaged.",
    )
    add_journal_option(check)
    check.set_defaults(func=run_check)
    recover = actions.add_parser(
        "recover",
        help="copy every intact game into a new journal",
        description="Copy every intact game of OLD (read-only) into NEW, a file that must not "
        "exist yet, then list what was saved and what was lost. Use NEW with --journal, or "
        "put it in the place of OLD.",
    )
    recover.add_argument("old", metavar="OLD", help="the damaged journal")
    recover.add_argument("new", metavar="NEW", help="the journal to write (a new file)")
    recover.set_defaults(func=run_recover)


def run_check(args) -> int:
    path = Path(args.journal) if args.journal else default_path()
    db = journal_repair.open_old(path)
    try:
        verdicts = [(g, journal_repair.check_game(db, g)) for g in journal_repair.game_ids(db)]
        whole = journal_repair.file_verdict(db)
    finally:
        db.close()
    for line in table(["game", "check"], verdicts, right=(0,)):
        print(line)
    damaged = [g for g, verdict in verdicts if verdict.startswith("damaged")]
    odd = [g for g, verdict in verdicts if verdict != "ok" and g not in damaged]
    print(f"{len(verdicts)} games, {len(damaged)} damaged, {len(odd)} not replaying; file: {whole}")
    if damaged or whole != "ok":
        print(f"to save the intact games: sticktable journal recover {path} NEW.sqlite")
    return 1 if damaged or odd or whole != "ok" else 0


def run_recover(args) -> int:
    notes, _ = journal_repair.recover(Path(args.old), Path(args.new))
    for note in notes:
        print(note)
    return 0

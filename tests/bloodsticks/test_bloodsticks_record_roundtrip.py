"""Export -> record -> score: random whole games through the rule set, written as game records
(host/docs/formats/bloodsticks-game.md), read back and scored, give the game's own result.

The games are random legal playthroughs (bets, fall-outs down to one player, redos and careless
drops, overrides, totals entry with its redos, tiebreaks and splits, house games with side
bets), in all three variants: the helpers' choice of a legal event, with its open values (a
layout, points, an amount, a side bet) drawn at random.
"""

import json
import random

from bloodsticks_helpers import BYSTANDERS, choose, random_layout
from hypothesis import given, settings
from hypothesis import strategies as st

from sticktable.cli import main
from sticktable.engine import Game
from sticktable.games.bloodsticks.record import read_record, result, write_record

HEADERS = [
    {"players": ["Ann", "Bo", "Cy"]},
    {"players": ["Ann", "Bo", "Cy", "Dee"], "entry": "totals", "max_tiebreaks": 1},
    {"players": list("ABCDEF"), "cap": None, "house_cut_pct": 7, "max_tiebreaks": 0},
    {"players": ["Ann", "Bo", "Cy"], "henki_scope": "round", "dead_sticks_cancel": False},
    {"players": ["Ann", "Bo"], "variant": "challenge", "cap": 3},
    {"players": ["Ann", "Bo"], "variant": "challenge", "entry": "totals", "first_dropper": "host"},
    {"players": ["Ann", "Bo"], "variant": "house", "side_pots": True, "stake": 2},
    {
        "players": ["Ann", "Bo", "Cy", "Dee", "Eve"],
        "variant": "house",
        "side_pots": True,
        "house_score": "highest",
        "house_cut_pct": 25,
        "sticks": {p: [f"{p.lower()}{k}" for k in "xy"] for p in ["Ann", "Bo", "Cy", "Dee", "Eve"]},
    },
    {"players": ["Ann", "Bo", "Cy"], "variant": "house", "entry": "totals", "max_tiebreaks": 0},
    {"players": ["Ann", "Bo", "Cy"], "entry": "totals", "max_tiebreaks": 1, "house_cut_pct": 10},
]
# Moments a record cannot show yet: a layout waiting for the counter's word, a house round
# whose stakes are in but whose counter is not named.
UNWRITTEN = ("confirm", "pick_counter")


def vary(rng: random.Random, game: Game, event: dict) -> dict:
    """`event` with its open values drawn at random (it stays legal)."""
    kind, state = event["type"], game.state
    if kind == "layout":
        view = game.rules.view(state)
        return {**event, "sticks": random_layout(rng, view["sticks"], view["extras"], p_off=0.08)}
    if kind in ("totals", "override"):
        return {**event, "points": {p: rng.randint(-2, 6) for p in state["pool"]}}
    if kind == "bet":
        low, cap = state["settings"]["min_bet"], state["settings"]["cap"]
        return {**event, "amount": rng.randint(low, cap if cap is not None else low + 30)}
    if kind == "side_bet":
        bettor = rng.choice([*state["players"], *BYSTANDERS])
        return {**event, "bettor": bettor, "guess": rng.randint(-5, 45), "stake": rng.randint(1, 5)}
    return event


def random_game(header: dict, seed: int, max_events: int = 400) -> tuple[Game, None]:
    rng = random.Random(seed)
    game = Game(header)
    while not game.finished:
        assert len(game.events) < max_events, "the game did not end"
        game.apply(vary(rng, game, choose(rng, game)))
    return game, None


def reread(game: Game) -> tuple[dict, dict]:
    """(the game's result, the result of its record read back)."""
    lines, side_lines = write_record(game.header, game.events)
    again, again_lines = read_record(lines)
    assert again.state["totals"] == game.state["totals"]
    assert again.state["ledger"]["balances"] == game.state["ledger"]["balances"]
    return result(game.state, side_lines), result(again.state, again_lines)


@settings(max_examples=40, deadline=None)
@given(
    header=st.sampled_from(HEADERS),
    seed=st.integers(0, 2**32 - 1),
    cut=st.floats(0, 1),
)
def test_a_random_game_and_its_record_score_the_same(header, seed, cut):
    game, _ = random_game({"game": "bloodsticks", **header}, seed)
    assert game.finished
    mine, theirs = reread(game)
    assert mine == theirs and theirs["finished"]
    # A record may stop anywhere a step is complete: the game cut short scores the same too.
    events = game.events[: int(len(game.events) * cut)]
    partial = Game(game.header, events)
    if partial.state["phase"] not in UNWRITTEN:
        mine, theirs = reread(partial)
        assert mine == theirs


WANTED = {
    "first", "opening", "dropper", "match", "fall_out", "counter", "sticks", "points",
    "override", "side_bet", "style", "end:last_standing", "end:highest", "end:split",
    "variant:standard", "variant:challenge", "variant:house", "redo:True", "careless:True",
    "tiebreak-careless", "side-won", "redo-without-layout",
}  # fmt: skip


def test_the_random_games_reach_every_kind_of_moment():
    """The property above is only as good as its games: they must show everything (within the
    first seeds: hypothesis draws from the same games)."""
    seen: set = set()
    for seed in range(40):
        for header in HEADERS:
            game, _ = random_game({"game": "bloodsticks", **header}, seed)
            lines, side_lines = write_record(game.header, game.events)
            out = result(game.state, side_lines)
            seen |= {k for line in lines[1:] if line[0] == "{" for k in json.loads(line)}
            seen |= {f"end:{game.state['end']}", f"variant:{out['variant']}"}
            seen |= {f"{key}:{d[key]}" for d in out["rounds"] for key in ("redo", "careless")}
            seen |= {"tiebreak-careless" for d in out["tiebreaks"] if d["careless"]}
            seen |= {"side-won" for b in out["side_bets"] if b["won"]}
            seen |= {"redo-without-layout" for line in lines if line.startswith("#")}
        if WANTED <= seen:
            return
    assert WANTED <= seen, WANTED - seen


def run(argv, capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_import_export_replay_and_score_game_agree(tmp_path, capsys):
    """A table game journaled, exported, scored; the export imported and exported again."""
    from sticktable.journal import Journal

    journal = str(tmp_path / "journal.sqlite")
    for number, header in enumerate(HEADERS, 1):
        game, _ = random_game({"game": "bloodsticks", **header}, seed=number)
        with Journal(journal) as j, j.transaction():
            game_id = j.new_game(game.header, "board")
            for index, event in enumerate(game.events):
                j.append_event(game_id, index, event)
        record = tmp_path / f"game{number}.jsonl"
        assert (
            run(["export", str(game_id), "--journal", journal, "-o", str(record)], capsys)[0] == 0
        )
        _, replayed, _ = run(["replay", str(game_id), "--json", "--journal", journal], capsys)
        code, scored, err = run(["bloodsticks", "score-game", str(record)], capsys)
        assert (code, err) == (0, "") and json.loads(scored) == json.loads(replayed)
        code, out, _ = run(["import", str(record), "--journal", journal], capsys)
        imported = out.split()[2]
        assert code == 0 and out.startswith("imported game ")
        _, again, _ = run(["export", imported, "--journal", journal], capsys)
        written = [line for line in record.read_text().splitlines() if not line.startswith("#")]
        assert again.splitlines() == written  # the same record, less its comments
        _, replayed_import, _ = run(["replay", imported, "--json", "--journal", journal], capsys)
        assert json.loads(replayed_import) == json.loads(replayed)

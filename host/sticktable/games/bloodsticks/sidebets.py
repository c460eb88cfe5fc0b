"""Secondary pots on house-run games (ruling 9): bets against the house's drops and totals.

High Drop / Low Drop bet on the house score of the next drop that counts (ruling G7: a round's
or a tiebreak's, after any override; the sum of the points counted in it, or the highest, house
rule `house_score`): they win when the guess is 1 or 2 above (High) or below (Low) it and pay 2x
the stake back. High Score / Low Score bet on the game's
final highest / lowest total: within 2 pays 2x back, exact pays 4 to 1 (stake back plus 4x).
Every bet is paid from the side pot at the end; the house covers what the side pot lacks and
keeps what is left.
"""

from __future__ import annotations

from sticktable.engine.core import RuleError

from .settings import RESERVED_PREFIX

DROP_KINDS = ("high_drop", "low_drop")
SCORE_KINDS = ("high_score", "low_score")
KINDS = DROP_KINDS + SCORE_KINDS
NEAR, NEAR_PAYS, EXACT_PAYS, DROP_PAYS = 2, 2, 5, 2


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def checked_bet(event: dict, next_drop: int) -> dict:
    """The bet an event places, or RuleError. `next_drop`: the number of the next drop that
    counts (1 = the first round's), which a drop bet is on."""
    bettor, kind = event.get("bettor"), event.get("kind")
    guess, stake = event.get("guess"), event.get("stake")
    if not isinstance(bettor, str) or not bettor or bettor.startswith(RESERVED_PREFIX):
        raise RuleError("a side bet needs the bettor's name")
    if kind not in KINDS:
        raise RuleError(f"a side bet's kind is one of {', '.join(KINDS)}, not {kind!r}")
    if not _is_int(guess):
        raise RuleError("a side bet needs a whole-number guess")
    if not _is_int(stake) or stake < 1:
        raise RuleError("a side bet's stake is a whole number of at least 1")
    bet = {"bettor": bettor, "kind": kind, "guess": guess, "stake": stake}
    if kind in DROP_KINDS:
        bet["drop"] = next_drop
    return bet


def house_score(points: dict, how: str) -> int:
    values = list(points.values())
    return max(values) if how == "highest" else sum(values)


def target(bet: dict, drop_scores: dict, totals: list[int]) -> int | None:
    """The score a bet is settled on: its drop's house score (`drop_scores`: drop number ->
    house score), or the final highest / lowest total; None while it is not known."""
    if bet["kind"] in DROP_KINDS:
        return drop_scores.get(bet["drop"])
    return max(totals) if bet["kind"] == "high_score" else min(totals)


def payout(bet: dict, score: int | None) -> int:
    """What a bet settled on `score` pays back (0 when it lost or is still open)."""
    guess, stake = bet["guess"], bet["stake"]
    if score is None:
        return 0
    if bet["kind"] in DROP_KINDS:
        above = guess - score if bet["kind"] == "high_drop" else score - guess
        return DROP_PAYS * stake if 1 <= above <= NEAR else 0
    if guess == score:
        return EXACT_PAYS * stake
    return NEAR_PAYS * stake if abs(guess - score) <= NEAR else 0

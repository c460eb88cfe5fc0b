"""Secondary pots on house-run games (ruling 9): bets against the house's drops and totals.

High Drop / Low Drop name a round and bet on its house score (the sum of the points counted in
that drop, or the highest, house rule `house_score`): they win when the guess is 1 or 2 above
(High) or below (Low) it and pay 2x the stake back. High Score / Low Score bet on the game's
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


def checked_bet(event: dict, rounds: int, thrown: list[int]) -> dict:
    """The bet an event places, or RuleError. `thrown`: rounds whose drop was already made."""
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
        target = event.get("round")
        if not _is_int(target) or not 1 <= target <= rounds:
            raise RuleError(f"a drop bet names the round it bets on (1 to {rounds})")
        if target in thrown:
            raise RuleError(f"round {target}'s drop has been made: no more bets on it")
        bet["round"] = target
    elif rounds in thrown:
        raise RuleError("the last round's drop has been made: no more score bets")
    return bet


def house_score(points: dict, how: str) -> int:
    values = list(points.values())
    return max(values) if how == "highest" else sum(values)


def payout(bet: dict, round_scores: dict, totals: list[int]) -> int:
    """What a settled bet pays back (0 when it lost). `round_scores`: round -> house score."""
    guess, stake = bet["guess"], bet["stake"]
    if bet["kind"] in DROP_KINDS:
        score = round_scores.get(bet["round"])
        if score is None:
            return 0
        above = guess - score if bet["kind"] == "high_drop" else score - guess
        return DROP_PAYS * stake if 1 <= above <= NEAR else 0
    target = max(totals) if bet["kind"] == "high_score" else min(totals)
    if guess == target:
        return EXACT_PAYS * stake
    return NEAR_PAYS * stake if abs(guess - target) <= NEAR else 0

"""The money of one game as a double-entry ledger: every coin moves from one account to another.

Accounts are player (or side bettor) names plus the table's own: the pot, the side pot and the
house. A balance is what the account has gained (negative: paid in). Entries are kept in the
state, so `check_ledger` can re-add them after every event and prove nothing was created or
lost: the balances sum to zero, the pot holds exactly the stakes not yet paid out, and at the
end of the game the pot and the side pot are empty.
"""

from __future__ import annotations

from sticktable.engine.contract import require

POT, SIDE, HOUSE = "@pot", "@side", "@house"


def new_ledger() -> dict:
    return {"entries": [], "balances": {POT: 0, SIDE: 0, HOUSE: 0}}


def move(ledger: dict, source: str, target: str, amount: int, why: str) -> None:
    """Move `amount` coins (a positive whole number) from `source` to `target`."""
    if amount <= 0:
        return
    ledger["entries"].append({"from": source, "to": target, "amount": amount, "why": why})
    balances = ledger["balances"]
    balances[source] = balances.get(source, 0) - amount
    balances[target] = balances.get(target, 0) + amount


def balance(ledger: dict, account: str) -> int:
    return ledger["balances"].get(account, 0)


def paid_in(ledger: dict, account: str, target: str = POT) -> int:
    """What `account` has put into `target` so far (its stake in the pot)."""
    return sum(e["amount"] for e in ledger["entries"] if e["from"] == account and e["to"] == target)


def check_ledger(ledger: dict, finished: bool) -> None:
    """InvariantError if any coin is unaccounted for."""
    sums: dict = {}
    for entry in ledger["entries"]:
        amount = entry["amount"]
        require(isinstance(amount, int) and amount > 0, f"bad ledger amount: {entry}")
        require(entry["from"] != entry["to"], f"ledger entry moves nothing: {entry}")
        sums[entry["from"]] = sums.get(entry["from"], 0) - amount
        sums[entry["to"]] = sums.get(entry["to"], 0) + amount
    balances = {k: v for k, v in ledger["balances"].items() if v}
    require(balances == {k: v for k, v in sums.items() if v}, "balances differ from the entries")
    require(sum(balances.values()) == 0, "money was created or destroyed")
    require(balance(ledger, POT) >= 0 and balance(ledger, SIDE) >= 0, "a pot went negative")
    if finished:
        require(balance(ledger, POT) == 0, "the game is over but coins are left in the pot")
        require(balance(ledger, SIDE) == 0, "the game is over but coins are left in the side pot")


def split(amount: int, winners: list[str]) -> dict:
    """Equal shares; the remainder goes to the first winner (the earliest seat, ruling 7)."""
    share, rest = divmod(amount, len(winners))
    payout = {w: share for w in winners}
    payout[winners[0]] += rest
    return payout

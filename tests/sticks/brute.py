"""A deliberately naive lay-down checker for property tests: try every split of the cards
into the parts, check each group on its own, then the "different ranks" rule. Written apart
from the real search (no shared helpers beyond the Part type) so the two can disagree."""

from itertools import product

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"


def _wild(card):
    return card == "JK" or card[:-1] == "2"


def _pos(rank):
    i = RANKS.index(rank) + 1
    return {1, 14} if i == 1 else {i}


def _windows(size, low):
    if low is not None:
        return [list(range(low, low + size))]
    return [
        list(range(a, a + size)) for a in range(1, 16 - size) if not (a == 1 and a + size == 15)
    ]


def _rank_at(p):
    return RANKS[(p - 1) % 13]


def _line_ok(group, window, slot_ok, same_suit, need_natural):
    """Can the naturals take distinct window positions (the rest wild)? 2s as naturals only
    in a same-suit run, at the 2 position, suited."""
    tame = [c for c in group if not _wild(c)]
    twos = [c for c in group if c != "JK" and c[:-1] == "2"]
    used = set()
    for card in tame:
        spots = [p for p in window if p in _pos(card[:-1]) and slot_ok(card, p) and p not in used]
        if not spots:
            return False
        used.add(spots[0])
    natural = len(tame)
    if same_suit and 2 in window and 2 not in used and any(slot_ok(c, 2) for c in twos):
        natural += 1
    return natural > 0 or not need_natural


def group_labels(part, group, need_natural):
    """Set ranks the group can be (sets), [None] if valid otherwise, [] if invalid."""
    tame = [c for c in group if not _wild(c)]
    if part.kind == "wild":
        return [None] if not tame else []
    if part.kind == "one_suit":
        ok = len(tame) == len(group) and len({c[-1] for c in group}) == 1
        return [None] if ok else []
    if part.kind == "set":
        if need_natural and not tame:
            return []
        ranks = [part.rank] if part.rank else [r for r in RANKS if r != "2"]
        return [r for r in ranks if all(c[:-1] == r for c in tame)]
    if part.kind == "cards":
        want = list(part.cards)
        for card in tame:
            if card not in want:
                return []
            want.remove(card)
        return [None] if tame or not need_natural else []
    for window in _windows(part.size, part.low):
        if part.kind == "run":
            for suit in [part.suit] if part.suit else SUITS:

                def ok(c, p, s=suit):
                    return c[-1] == s and _rank_at(p) == c[:-1]

                if _line_ok(group, window, ok, True, need_natural):
                    return [None]
        else:
            for first in (0, 1):

                def ok(c, p, f=first, w=window):
                    red = c[-1] in "DH"
                    return _rank_at(p) == c[:-1] and red == ((p - w[0] + f) % 2 == 0)

                if _line_ok(group, window, ok, False, need_natural):
                    return [None]
    return []


def brute_ok(parts, cards, need_natural):
    if len(cards) != sum(p.size for p in parts):
        return False
    for assign in product(range(len(parts)), repeat=len(cards)):
        groups = [
            [c for c, a in zip(cards, assign, strict=True) if a == j] for j in range(len(parts))
        ]
        if any(len(g) != p.size for g, p in zip(groups, parts, strict=True)):
            continue
        labels = [group_labels(p, g, need_natural) for p, g in zip(parts, groups, strict=True)]
        for combo in product(*labels):
            ranks = [r for r in combo if r is not None]
            if len(set(ranks)) == len(ranks):
                return True
    return False

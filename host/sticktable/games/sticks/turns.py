"""A player's turn: draw, lay down the stick, meld, lay off, steal a wild, discard.

Digital mode takes every card from the player's hand (refusing cards they do not hold);
referee mode cannot see hands, so it checks melds only and turns end with "done"/"out".
"""

from __future__ import annotations

from sticktable.engine import RuleError

from .cards import is_wild, rank_of
from .deals import end_deal, end_turn
from .laydown import lay_down
from .state import SEVEN, card_of, cards_of, digital, need_natural, require_turn, take
from .stick_lists import get_stick
from .table import MeldError, extend, extends_any, standard_meld

# ---- a turn ---------------------------------------------------------------------------


def on_draw(state, event):
    player = require_turn(state, event, ("draw",))
    source = event.get("from")
    if source == "stock":
        card = state["stock"].pop()
    elif source == "discard":
        if not state["discard"]:
            raise RuleError("the discard pile is empty")
        card = state["discard"].pop()
        state["took"] = card
    else:
        raise RuleError('draw from "stock" or "discard"')
    state["hands"][player].append(card)
    state["phase"] = "play"


def on_laydown(state, event):
    player = require_turn(state, event, ("play",))
    if state["down"][player]:
        raise RuleError(f"{player} has already laid down a stick this deal")
    number = state["stick"][player]
    if number is None:
        raise RuleError(f"{player} has no stick this deal")
    stick = get_stick(state["settings"]["preset"], number)
    if stick.kind == "no_discard":
        groups = event.get("melds")
        if isinstance(groups, str):  # typed: melds=3D,4D,5D/8S,8C,8D
            groups = groups.split("/")
        if not isinstance(groups, list) or not groups:
            raise RuleError('"No Discard": give the melds as "melds": [[cards], ...]')
        melds = []
        for group in groups:
            try:
                melds.append(standard_meld(cards_of({"g": group}, "g"), need_natural(state)))
            except MeldError as err:
                raise RuleError(str(err)) from None
        total = sum(len(m.cards) for m in melds)
        if total < stick.min_cards:
            raise RuleError(
                f'"No Discard" needs at least {stick.min_cards} cards in legal melds '
                f"at once, not {total}"
            )
    else:
        melds, why = lay_down(stick, cards_of(event), need_natural(state))
        if not melds:
            raise RuleError(f"not stick {number} ({stick.text}): {why}")
    take(state, player, [c for m in melds for c in m.cards])
    state["melds"] += [dict(m.to_json(), owner=player) for m in melds]
    state["completed"][player].append(number)
    state["stick"][player] = None
    state["down"][player] = True
    state["tries"][player] = 0
    if len(state["completed"][player]) >= SEVEN:
        if state["settings"]["win"] == "at_once":
            state["winners"] = [player]
            state["phase"] = "over"
            return
        state["sevens"].append(player)
    if stick.kind == "no_discard":
        _after_action(state, player)
        if state["phase"] == "play":
            end_turn(state)
        return
    _after_action(state, player)


def _require_down(state, player):
    if not state["down"][player]:
        raise RuleError(f"{player} must lay down their stick before any other meld")


def on_meld(state, event):
    player = require_turn(state, event, ("play",))
    _require_down(state, player)
    cards = cards_of(event)
    try:
        meld = standard_meld(cards, need_natural(state))
    except MeldError as err:
        raise RuleError(str(err)) from None
    take(state, player, cards)
    state["melds"].append(dict(meld.to_json(), owner=player))
    _after_action(state, player)


def on_layoff(state, event):
    player = require_turn(state, event, ("play",))
    _require_down(state, player)
    _lay_off(state, player, event.get("meld"), cards_of(event))
    _after_action(state, player)


def _lay_off(state, player, index, cards):
    _meld_index(state, index)
    meld = state["melds"][index]
    if cards and all(is_wild(c) for c in cards) and meld["owner"] != player:
        raise RuleError("a wild card alone may not be laid off on another player's meld")
    try:
        state["melds"][index] = extend(meld, cards)
    except MeldError as err:
        raise RuleError(str(err)) from None
    take(state, player, cards)


def _meld_index(state, index):
    if (
        not isinstance(index, int)
        or isinstance(index, bool)
        or not 0 <= index < len(state["melds"])
    ):
        raise RuleError(f"there is no meld {index!r} on the table")


def on_steal(state, event):
    """ "tries": give the natural card a set's wild stands for, take the wild, play it at once."""
    player = require_turn(state, event, ("play",))
    if not state["settings"]["steal_wilds"]:
        raise RuleError("wild stealing is not played in this preset")
    _require_down(state, player)
    index, give, wild = event.get("meld"), card_of(event.get("give")), card_of(event.get("wild"))
    _meld_index(state, index)
    meld = state["melds"][index]
    if meld["kind"] != "set":
        raise RuleError("wilds can be taken from sets only, never from runs")
    if not is_wild(wild) or wild not in meld["cards"]:
        raise RuleError(f"that set holds no {wild}")
    if is_wild(give) or rank_of(give) != meld["rank"]:
        raise RuleError(f"give a natural {meld['rank']} for the wild")
    take(state, player, [give])
    position = meld["cards"].index(wild)
    meld["cards"][position], meld["as"][position] = give, give
    then = event.get("then")
    if not isinstance(then, dict) or then.get("type") not in ("meld", "layoff"):
        raise RuleError('the wild must be played at once: "then" a meld or a layoff')
    cards = cards_of(then)
    if wild not in cards:
        raise RuleError(f"the stolen {wild} must be played in the same action")
    if digital(state):
        state["hands"][player].append(wild)
    if then["type"] == "meld":
        try:
            new = standard_meld(cards, need_natural(state))
        except MeldError as err:
            raise RuleError(str(err)) from None
        take(state, player, cards)
        state["melds"].append(dict(new.to_json(), owner=player))
    else:
        _lay_off(state, player, then.get("meld"), cards)
    _after_action(state, player)


def legal_discards(state, player) -> list[str]:
    """Cards `player` may discard now (ruling 5), each listed once."""
    hand = state["hands"][player]
    tame = sorted({c for c in hand if not is_wild(c)})
    limit = state["settings"]["discard_limit"] == "always" or not state["down"][player]
    legal = [
        c for c in tame if c != state["took"] and not (limit and extends_any(state["melds"], c))
    ]
    if legal:
        return legal
    # No legal card: any non-wild card may go; a hand of wilds only may shed a wild.
    return tame or sorted(set(hand))


def on_discard(state, event):
    player = require_turn(state, event, ("play",))
    card = card_of(event.get("card"))
    if card not in state["hands"][player]:
        raise RuleError(f"{player} does not hold {card}")
    if card not in legal_discards(state, player):
        raise RuleError(_why_not_discard(state, player, card))
    state["hands"][player].remove(card)
    state["discard"].append(card)
    _after_action(state, player)
    if state["phase"] == "play":
        end_turn(state)


def _why_not_discard(state, player, card) -> str:
    if is_wild(card):
        return "2s and jokers may not be discarded"
    if card == state["took"]:
        return f"{card} was just taken from the discard pile"
    return f"{card} could extend a meld on the table"


def on_done(state, event):
    """Referee mode: the player's turn is over (a seat button or a key)."""
    require_turn(state, event, ("play",))
    if digital(state):
        raise RuleError("in digital mode a turn ends with a discard")
    end_turn(state)


def on_out(state, event):
    """Referee mode: the player emptied their hand; the deal ends."""
    player = require_turn(state, event, ("play",))
    if digital(state):
        raise RuleError("in digital mode a player goes out by emptying their hand")
    end_deal(state, "went out", out=player)


def _after_action(state, player):
    if digital(state) and not state["hands"][player] and state["phase"] == "play":
        end_deal(state, "went out", out=player)

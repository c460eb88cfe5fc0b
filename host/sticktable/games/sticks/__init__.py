"""Sticks, the rummy card game: one rule set ("sticks") with the presets "classic" and "tries".

Header: {"game": "sticks", "players": [...], "preset": "classic"|"tries",
"mode": "digital"|"referee", house settings (see settings.py: hand_size, decks, max_turns...)}.

Events (lists may also be typed "3C,4C,5C" at the keyboard):
  {"type": "seat_draw", "cards": {player: card}}   seating cards (chance in digital mode)
  {"type": "seats", "order": [...], "dealer": P}  or: seats as they sit (ring order)
  {"type": "stick", "player": P, "stick": N}        a stick drawn from the bag (chance)
  {"type": "deal", "order": [every card]}           the shuffle (chance); referee: no order
  {"type": "restock", "order": [...]}               empty stock: discards but the top (chance)
  {"type": "draw", "player": P, "from": "stock"|"discard"}            digital mode only
  {"type": "laydown", "player": P, "cards": [...]}  the stick ("No Discard": "melds": [[...]])
  {"type": "meld", "player": P, "cards": [...]}     a new set or run once the stick is down
  {"type": "layoff", "player": P, "meld": i, "cards": [...]}
  {"type": "steal", "player": P, "meld": i, "give": card, "wild": card,
   "then": {"type": "meld"|"layoff", ...}}          "tries" only
  {"type": "discard", "player": P, "card": c}       digital mode; ends the turn
  {"type": "done", "player": P} / {"type": "out", "player": P}        referee mode only

Modules: cards (codes), stick_lists (the reviewed stick lists *.json), laydown (the checker),
table (melds and lay-offs), settings (presets), state/deals/turns/game (the fold), views
(what each party sees and may do, chance, exports), check (one checker request), keys and
screen (typed commands and the shared screen's text, for hot-seat play at a terminal).
"""

import json

from sticktable.engine import RuleSet, Turn, register

from . import check, game, keys, screen, settings, views


class SticksRules(RuleSet):
    name = "sticks"
    title = "Sticks"
    phases = ("seating", "sticks", "deal", "draw", "play", "restock", "over")
    handlers = game.HANDLERS
    keys_help = """\
Sticks (the player is whose turn it is; cards as 10H AS 2C JK, lists as 3C,4C,5C):
  Enter                          digital, at a shared screen: show the player whose turn it
                                 is their hand, stick, the checker's verdict and their moves
                                 (the others look away); Enter again hides it
  draw stock | draw discard      take a card (digital)
  laydown CARDS                  lay down your stick: exactly its cards ("No Discard":
                                 the melds split by /, e.g. 3D,4D,5D/8S,8C,8D)
  meld CARDS                     a new set or run of 3+, once your stick is down
  layoff MELD CARDS              add cards to meld number MELD on the table
  steal MELD GIVE WILD meld CARDS | ... layoff MELD2 CARDS
                                 "tries": give the natural card a set's wild stands for,
                                 play the wild at once in a meld or a lay-off
  discard CARD                   the turn ends (digital)
  done | out                     referee mode: the turn is over | the player went out
  seats A,B,C [DEALER]           referee mode: the seats as they sit, clockwise
  stick N | deal                 referee mode: the stick drawn | the cards are dealt
  any command also takes KEY=VALUE words, e.g. player=NAME (default: whose turn it is)"""
    house_rules = settings.house_rules()
    export_is_complete = False  # exports hide the shuffles and the other players' hands
    variants = (
        {"preset": "classic"},
        {"preset": "tries"},
        {"preset": "classic", "mode": "referee"},
        {"preset": "tries", "hand_size": 7, "max_turns": 40},
    )

    initial = staticmethod(game.initial)
    check_laydown = staticmethod(check.check_players_stick)  # the referee screen's checker
    admit = staticmethod(game.admit)
    check = staticmethod(views.check)
    legal_actions = staticmethod(views.legal_actions)
    view = staticmethod(views.view)
    display = staticmethod(views.display)
    chance = staticmethod(views.chance)
    interpret = staticmethod(views.interpret)
    standings = staticmethod(views.standings)
    public_lines = staticmethod(screen.public_lines)
    hot_seat = staticmethod(screen.hot_seat)
    private_lines = staticmethod(screen.private_lines)

    def parse_key(self, line: str, state=None) -> dict:
        return keys.parse_key(line, None if state is None else self.turn(state).player)

    def export(self, header: dict, events: list, player: str | None = None) -> list[str]:
        """`sticktable export`: the header, then the log as `player` may see it (JSON lines)."""
        return [json.dumps(header)] + [
            json.dumps(e) for e in views.export_log(header, events, player)
        ]

    def finished(self, state) -> bool:
        return state["phase"] == "over"

    def status(self, state) -> str:
        """The deal, the phase, whose turn and what kinds of move they have (never a card)."""
        turn = self.turn(state)
        line = f"deal {state['deal_no']}, {turn.phase}"
        if turn.player:
            kinds = sorted({a["type"] for a in views.legal_actions(state, turn.player)})
            line += f": {turn.player}'s turn" + (f" ({', '.join(kinds)})" if kinds else "")
        return line

    def turn(self, state) -> Turn:
        phase = state["phase"]
        if phase == "sticks":
            return Turn(phase, state["queue"][0][0])
        return Turn(phase, game.turn_player(state) if phase in ("draw", "play") else None)


RULES = register(SticksRules())

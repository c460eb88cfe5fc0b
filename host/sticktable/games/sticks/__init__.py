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
(what each party sees and may do, chance, exports), check (one checker request).
"""

import json

from sticktable.engine import RuleSet, Turn, register

from . import check, game, settings, views


class SticksRules(RuleSet):
    name = "sticks"
    title = "Sticks"
    phases = ("seating", "sticks", "deal", "draw", "play", "restock", "over")
    handlers = game.HANDLERS
    keys_help = """\
Sticks (NAME is whose turn it is; card lists as 3C,4C,5C):
  draw player=NAME from=stock|discard       digital: take a card
  laydown player=NAME cards=...             lay down your stick ("No Discard": melds as JSON)
  meld player=NAME cards=...                a new set or run, once your stick is down
  layoff player=NAME meld=I cards=...       add cards to meld I on the table
  discard player=NAME card=C                digital: the turn ends
  done player=NAME | out player=NAME        referee: the turn is over | NAME went out
  seats order=A,B,C dealer=A                referee: the seats as they sit
  stick player=NAME stick=N | deal          referee: a drawn stick | the cards are dealt
  {"type": "steal", ...}                    "tries": a wild for its natural (JSON)"""
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

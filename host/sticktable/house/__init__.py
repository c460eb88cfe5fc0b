"""The house: many tables on one MQTT broker, one journal and one league across them.

- `topics`: the topic layout and payloads (version 1), parsed and checked.
- `broker`: the broker's address, credentials (never on the command line) and a connection.
- `publisher`: a table publishes its journal from a cursor the broker's acknowledgements move.
- `store`: the house journal: every table's games stored by (table, game, index), repeats
  ignored, every event checked by the game's own rules before it is stored.
- `service`: the house subscribes to every table, asks for what it missed, feeds the store.
"""

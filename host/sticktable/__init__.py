"""Host side of the electronic stick-game table: rules, journal, link to the board, simulator."""

__version__ = "0.1.0"

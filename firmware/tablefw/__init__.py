# Firmware of the stick-game table: one application for the board, the unix port and the simulator.

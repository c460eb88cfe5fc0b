# Firmware of the stick-game table: the same application on the board, the unix port and the simulator.

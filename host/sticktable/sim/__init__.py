"""Virtual tower, simulated game, sensor traces and labelled scenarios."""

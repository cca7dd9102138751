"""Examples: the guide's game, extension files and an agent of your own; data read by engine.resources."""

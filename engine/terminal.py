"""Play one hand in a terminal against simple computer players: ``python -m engine play``."""

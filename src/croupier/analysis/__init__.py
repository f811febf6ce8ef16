"""Exact mathematics of the games: odds, house edges, PAR-sheet figures."""

"""croupier: the Macau statutory table games, rule for rule."""

__version__ = "0.1.0"

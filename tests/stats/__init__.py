"""Statistical tests of the chance sources (``pytest -m stats``)."""

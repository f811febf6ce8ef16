"""Shared test configuration: puts ``tests/`` on the import path so modules can use ``tests/support.py``."""

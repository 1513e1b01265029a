"""Helpers that several test modules share. Test modules import from here (or take a fixture from
a conftest.py), never from one another: a test module holds tests and what only it uses."""

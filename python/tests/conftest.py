"""Shared helpers for hlayout's Python tests: brute-force definitions and the
repository's reference data (tests/data at the repository root)."""

import json
import pathlib

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"


def load(name):
    """A reference-data file of the repository (see tests/data/README.md)."""
    with open(DATA / name) as f:
        return json.load(f)

"""The repository's reference data (tests/data at the repository root, see its
README.md), shared by the tests; every path stays inside the repository."""

import json
import pathlib

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"


def load(name):
    """A reference-data file of the repository."""
    with open(DATA / name) as f:
        return json.load(f)

"""Beggar-My-Neighbour games from Python: the exact engine, backward play and searches of the
ansatz library (the same engines as the ``ansatz`` command line, and the same answers).

>>> import ansatz
>>> ansatz.play(ansatz.PAPER_DEAL).period
62

See docs/python.md in the repository for the API and examples.
"""

# NumPy first: the arrays random_games and trace return are NumPy's, and importing it here keeps
# its one-time import out of the first call.
import numpy  # noqa: F401

from ._ansatz import (
    PAPER_DEAL,
    Family,
    Game,
    __version__,
    _running_calls,
    assemble,
    deal,
    discover,
    exhaustive,
    family,
    play,
    predecessors,
    random_games,
    read_library,
    trace,
)

__all__ = [
    "PAPER_DEAL",
    "Family",
    "Game",
    "assemble",
    "deal",
    "discover",
    "exhaustive",
    "family",
    "play",
    "predecessors",
    "random_games",
    "read_library",
    "trace",
]

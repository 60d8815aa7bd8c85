"""random_games: lengths, dtypes, the same games as `search random` (its golden answer), and the
same arrays for any thread count."""

import json

import numpy as np
import pytest

import ansatz
from conftest import DATA


def golden_search():
    """The answer of `ansatz search random --deck 6-2J2Q2K2A --games 30000` (seed 1), as
    tests/data/golden/search.txt records it."""
    lines = (DATA / "golden" / "search.txt").read_text().splitlines()
    at = lines.index("$ ansatz search random --deck 6-2J2Q2K2A --games 30000 --json -q --out random-single")
    return json.loads(lines[at + 2])


def test_lengths_and_dtypes():
    for n in [0, 1, 4095, 4096, 4097, 10000]:
        g = ansatz.random_games(n, seed=3)
        assert set(g) == {"cards", "tricks", "winner"}
        assert [len(g[k]) for k in ("cards", "tricks", "winner")] == [n, n, n]
        assert (g["cards"].dtype, g["tricks"].dtype, g["winner"].dtype) == (
            np.uint32,
            np.uint32,
            np.uint8,
        )
        assert set(np.unique(g["winner"])) <= {0, 1, 2}
        if n:
            assert g["cards"].min() > 0 and g["tricks"].min() > 0


def test_the_games_of_search_random():
    want = golden_search()
    g = ansatz.random_games(30000, seed=1, deck="6-2J2Q2K2A")
    cycles = np.flatnonzero(g["winner"] == 0)
    assert list(cycles) == [c["index"] for c in want["cycles"]]
    for i, c in zip(cycles, want["cycles"]):
        assert (g["cards"][i], g["tricks"][i]) == (c["cards"], c["tricks"])
    ends = g["winner"] > 0
    assert [int((g["winner"] == w).sum()) for w in (1, 2)] == want["wins"]
    assert list(np.bincount(g["cards"][ends])) == want["histogram_cards"]
    assert list(np.bincount(g["tricks"][ends])) == want["histogram_tricks"]
    assert g["cards"][ends].mean() == pytest.approx(want["mean_cards"])


def test_any_thread_count_gives_the_same_arrays():
    one = ansatz.random_games(50000, seed=11, threads=1)
    two = ansatz.random_games(50000, seed=11, threads=2)
    for k in one:
        assert np.array_equal(one[k], two[k])


def test_other_decks_and_seeds():
    g = ansatz.random_games(3000, seed=5, deck="camicia")
    assert len(g["cards"]) == 3000
    big = ansatz.random_games(200, seed=5, deck="40-4J4Q4K4A")  # 56 cards
    for i in (0, 99, 199):
        game = ansatz.play(ansatz.deal(i, seed=5, deck="40-4J4Q4K4A"))
        assert (game.cards, game.tricks) == (big["cards"][i], big["tricks"][i])
    huge = ansatz.random_games(50, seed=5, deck="60-4J4Q4K4A")  # 76 cards: no lanes
    game = ansatz.play(ansatz.deal(7, seed=5, deck="60-4J4Q4K4A"))
    assert (game.cards, game.winner or 0) == (huge["cards"][7], huge["winner"][7])


def test_bad_input():
    with pytest.raises(ValueError):
        ansatz.random_games(10, deck="nonsense")
    with pytest.raises(ValueError, match="--threads"):
        ansatz.random_games(10, threads=0)
    with pytest.raises(OverflowError):
        ansatz.random_games(-1)


def test_balanced_faces_deals():
    g = ansatz.random_games(5000, seed=2, balanced_faces=True)
    for i in (0, 1234, 4999):
        d = ansatz.deal(i, seed=2, balanced_faces=True)
        hands = d[: -len(" (1)")].split("/")
        for face in "JQKA":
            assert [h.count(face) for h in hands] == [2, 2], d
        game = ansatz.play(d)
        assert (game.cards, game.tricks, game.winner or 0) == (
            g["cards"][i],
            g["tricks"][i],
            g["winner"][i],
        )
    with pytest.raises(ValueError, match="--balanced-faces"):
        ansatz.random_games(10, deck="7-1J2Q2K2A", balanced_faces=True)

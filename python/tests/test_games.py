"""play, trace, predecessors and deal against known answers, and bad input."""

import numpy as np
import pytest

import ansatz
from conftest import cli_json, data_lines

PAPER = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA (1)"


def test_the_2024_deal_cycles_with_preperiod_4_and_period_62():
    # Source: arXiv:2403.13855 (2024), Appendix D (tests/data/known-answers.txt).
    g = ansatz.play(PAPER)
    assert g.outcome == "cycle"
    assert (g.preperiod, g.period, g.period_cards) == (4, 62, 440)
    assert (g.tricks, g.cards) == (66, 474)
    assert g.winner is None
    assert g.cycle_id == "--------Q----K---Q-KQAJ--K---A----AAJ--J-/-----Q-K-J- (2)"
    assert ansatz.PAPER_DEAL == PAPER
    assert ansatz.play().cycle_id == g.cycle_id, "the paper's deal is the default"


def test_the_turn_defaults_to_player_1():
    g = ansatz.play(PAPER[: -len(" (1)")])
    assert g.position == PAPER
    assert g.period == 62
    assert ansatz.play("J--/-J- (2)").position == "J--/-J- (2)"


def test_the_record_game_ends_after_1164_tricks():
    # Source: tests/data/record-game.txt (Nessler 2022, cited by arXiv:2403.13855).
    pos, tricks, cards = data_lines("record-game.txt")[0].split("\t")
    for reference in (False, True):
        g = ansatz.play(pos, reference=reference)
        assert g.outcome == "terminates"
        assert (g.tricks, g.cards) == (int(tricks), int(cards)) == (1164, 8344)
        assert g.winner == 2
        assert g.preperiod is None and g.period is None and g.cycle_id is None


def test_every_constructed_game_of_2024_never_ends():
    # Source: arXiv:2403.13855 (2024), Appendix C (tests/data/games-2024.txt).
    games = data_lines("games-2024.txt")
    assert len(games) >= 16
    for pos in games:
        assert ansatz.play(pos, deck="standard").outcome == "cycle", pos


def test_known_small_games():
    # Source: docs/rules.md worked by hand (tests/data/known-answers.txt).
    g = ansatz.play("2/3 (1)")  # playing cards
    assert (g.outcome, g.winner, g.tricks, g.cards) == ("terminates", 2, 1, 2)
    g = ansatz.play("K--A/-Q--- (1)")
    assert (g.winner, g.tricks, g.cards) == (2, 2, 10)
    g = ansatz.play("J--/-J-")
    assert (g.preperiod, g.period) == (1, 2)
    g = ansatz.play("0020/1000 (2)", notation="digits")
    assert g.position.endswith("(2)")


def test_trace_gives_hand_sizes_per_trick_as_a_list_or_an_array():
    t = ansatz.trace(PAPER)
    # Every boundary until the first repeat, the repeated position included.
    assert len(t) == 66 + 1
    assert t[0] == (26, 26)
    assert all(a + b == 52 for a, b in t)
    a = ansatz.trace(PAPER, numpy=True)
    assert a.dtype == np.uint32 and a.shape == (67, 2)
    assert [tuple(map(int, r)) for r in a] == t
    record = data_lines("record-game.txt")[0].split("\t")[0]
    t = ansatz.trace(record)
    # A game that ends: one boundary before each trick, the last (partial) one included.
    assert len(t) == 1164


def test_predecessors_each_lead_to_the_position():
    preds = ansatz.predecessors("J--/-J- (2)")
    assert preds
    target = ansatz.trace("J--/-J- (2)")[0]
    for p in preds:
        assert ansatz.trace(p)[1] == target
    assert ansatz.predecessors("JJJ/ (1)") == []


def test_deal_is_the_game_random_games_plays():
    g = ansatz.random_games(5000, seed=7)
    for i in range(0, 5000, 499):
        game = ansatz.play(ansatz.deal(i, seed=7))
        assert (game.cards, game.tricks) == (g["cards"][i], g["tricks"][i])
        assert game.winner == g["winner"][i]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: ansatz.play("XYZ/ (1)"), r'bad position "XYZ/ \(1\)"'),
        (lambda: ansatz.play(PAPER, notation="runes"), "unknown notation"),
        (lambda: ansatz.play("J--/-J-", deck="standard"), 'bad position "J--/-J-"'),
        (lambda: ansatz.play(PAPER, deck="7-2X"), "."),
        (lambda: ansatz.trace("J--/-J- (3)"), "bad position"),
        (lambda: ansatz.predecessors("nonsense"), "bad position"),
        (lambda: ansatz.deal(0, deck="no-such-deck"), "."),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_messages_are_the_clis(cli):
    for args, call in [
        (["play", "XYZ/ (1)"], lambda: ansatz.play("XYZ/ (1)")),
        (["play", "--deck", "standard", "J--/-J-"], lambda: ansatz.play("J--/-J-", deck="standard")),
        (["play", "--deck", "7-2X", PAPER], lambda: ansatz.play(PAPER, deck="7-2X")),
        (["predecessors", "nonsense"], lambda: ansatz.predecessors("nonsense")),
    ]:
        code, _, err = cli(*args)
        assert code == 2, err
        with pytest.raises(ValueError) as e:
            call()
        assert err.strip() == f"ansatz: {e.value}"


def test_answers_are_the_clis(cli):
    record = data_lines("record-game.txt")[0].split("\t")[0]
    for pos in [PAPER, record, "J--/-J-"]:
        v = cli_json(cli, "play", pos)
        g = ansatz.play(pos)
        assert v["outcome"] == g.outcome and v["position"] == g.position
        assert (v["tricks"], v["cards"]) == (g.tricks, g.cards)
        assert v.get("winner") == g.winner
        assert v.get("preperiod") == g.preperiod and v.get("period") == g.period
        assert v.get("cycle_cards") == g.period_cards and v.get("cycle_id") == g.cycle_id
    v = cli_json(cli, "play", "--trace", PAPER)
    sizes = [tuple(len(h) for h in l["position"][: -len(" (1)")].split("/")) for l in v["trace"]]
    assert sizes == ansatz.trace(PAPER)
    assert cli_json(cli, "predecessors", "J--/-J- (2)") == ansatz.predecessors("J--/-J- (2)")

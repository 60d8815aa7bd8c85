"""How calls behave: the GIL released, Ctrl-C (KeyboardInterrupt) stops a long search within a
second, and the docstrings' examples hold."""

import _thread
import doctest
import threading
import time

import pytest

import ansatz
from conftest import REPO


def interrupt_after(call, after):
    """Ctrl-C `after` seconds into `call`: returns the seconds from Ctrl-C to KeyboardInterrupt
    and to the moment the call's worker thread had stopped."""
    sent = []

    def ctrl_c():
        sent.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(after, ctrl_c)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
            time.sleep(10)  # reached only if the call ended before Ctrl-C
        raised = time.monotonic()
        while ansatz._running_calls() and time.monotonic() - raised < 5:
            time.sleep(0.01)
        stopped = time.monotonic()
        return raised - sent[0], stopped - sent[0]
    finally:
        timer.cancel()


def test_ctrl_c_stops_random_games_within_a_second():
    raised, stopped = interrupt_after(lambda: ansatz.random_games(30_000_000, threads=1), 0.3)
    assert raised < 1.0 and stopped < 1.0, (raised, stopped)


def test_ctrl_c_stops_exhaustive_within_a_second_and_resume_finishes_it(tmp_path):
    # Paulhus (1999), Table 1: n = 12 (317,444,400 deals, several seconds): no deal never ends.
    deck = "12-2J2Q2K2A"
    raised, stopped = interrupt_after(lambda: ansatz.exhaustive(deck, out=tmp_path), 1.5)
    assert raised < 1.0 and stopped < 1.0, (raised, stopped)
    if list(tmp_path.glob("**/*checkpoint*")):
        # As the CLI after Ctrl-C: a fresh run is refused, resume finishes the run.
        with pytest.raises(ValueError, match="--resume"):
            ansatz.exhaustive(deck, out=tmp_path)
        r = ansatz.exhaustive(deck, out=tmp_path, resume=True)
        assert (r["deals"], r["cycles"]) == (317444400, 0)


def test_ctrl_c_stops_assemble_within_a_second(tmp_path):
    raised, stopped = interrupt_after(
        lambda: ansatz.assemble(require="--------X---------X-XX---XXXX", rest="all", out=tmp_path),
        0.5,
    )
    assert raised < 1.0 and stopped < 1.0, (raised, stopped)


def test_long_calls_release_the_gil(tmp_path):
    counted = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            counted[0] += 1

    t = threading.Thread(target=count)
    t.start()
    try:
        start = time.monotonic()
        ansatz.random_games(2_000_000, threads=1)
        ansatz.exhaustive("6-2J2Q2K2A", out=tmp_path, threads=1)
        elapsed = time.monotonic() - start
    finally:
        done.set()
        t.join()
    # The counting thread ran alongside: far more than a few switch intervals' worth.
    assert elapsed > 0.2 and counted[0] > 100_000, (elapsed, counted[0])


@pytest.mark.parametrize(
    "name",
    ["play", "trace", "predecessors", "deal", "random_games", "family", "exhaustive", "assemble",
     "discover", "read_library"],
)
def test_every_function_has_a_docstring_whose_example_holds(name, tmp_path, monkeypatch):
    f = getattr(ansatz, name)
    assert f.__doc__ and ">>>" in f.__doc__, name
    monkeypatch.chdir(REPO)
    test = doctest.DocTestParser().get_doctest(
        f.__doc__, {"ansatz": ansatz, "tmp": tmp_path}, name, None, 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, name

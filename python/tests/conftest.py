"""Shared helpers: the repository's known-answer files, and the CLI binary when it is built (the
tests that compare the module's answers and messages with the CLI's skip without it)."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"


def data_lines(name):
    """The data lines of a known-answer file (its header comments left out)."""
    text = (DATA / name).read_text()
    return [l for l in text.splitlines() if l.strip() and not l.startswith("#")]


def cli_path():
    """The `ansatz` binary: $ANSATZ_BIN, else target/release/ansatz (built by `cargo test
    --release`, which .ci/run runs first), else None."""
    p = os.environ.get("ANSATZ_BIN") or str(REPO / "target" / "release" / "ansatz")
    return p if os.path.exists(p) else None


@pytest.fixture
def cli():
    """Runs the CLI: `cli(args)` gives (exit code, stdout, stderr); skips without the binary."""
    path = cli_path()
    if path is None:
        pytest.skip("no ansatz binary (cargo build --release)")

    def run(*args):
        o = subprocess.run([path, *args], capture_output=True, text=True, timeout=600)
        return o.returncode, o.stdout, o.stderr

    return run


def cli_json(cli, *args):
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)

"""family, exhaustive, assemble, discover and read_library against known answers and the CLI."""

import json

import pytest

import ansatz
from conftest import REPO, cli_json

PAPER = ansatz.PAPER_DEAL


def test_the_2024_family_has_2670_positions_and_30_balanced_deals():
    f = ansatz.family(PAPER)
    assert (f.size, len(f.balanced), f.reach) == (2670, 30, 26)
    assert f.complete
    assert PAPER in f.balanced
    assert f.balanced == sorted(f.balanced)
    assert (f.preperiod, f.period, f.period_cards) == (4, 62, 440)
    positions = f.positions
    assert len(positions) == len(set(positions)) == 2670
    assert set(f.balanced) <= set(positions)
    assert positions[0] == f.cycle_id, "the cycle first, from its id"
    facts = f.json
    assert facts["closure_size"] == 2670 and facts["balanced"] == f.balanced
    assert facts["max_depth"] == f.depth


def test_a_game_that_ends_has_no_family():
    with pytest.raises(ValueError, match="terminates|ends"):
        ansatz.family("Q-/--J-")


def test_family_options_are_checked():
    with pytest.raises(ValueError, match="--max-positions"):
        ansatz.family(PAPER, max_positions=0)
    with pytest.raises(ValueError, match="--threads"):
        ansatz.family(PAPER, threads=0)
    with pytest.raises(ValueError, match="shard"):
        ansatz.family(PAPER, shard="2/2")


def test_the_family_is_the_clis(cli):
    v = cli_json(cli, "family", PAPER)
    f = ansatz.family(PAPER).json
    for k in ["seconds", "positions_per_second", "threads", "duplicates"]:
        v.pop(k), f.pop(k)
    assert v == f


def test_paulhus_n8_has_11928_deals_that_never_end(tmp_path):
    # Source: Paulhus (1999), Table 1 (tests/data/paulhus-table1.txt): n = 8.
    r = ansatz.exhaustive("8-2J2Q2K2A", out=tmp_path)
    assert r["cycles"] == r["non_terminating"] == 11928
    assert r["deals"] == 32432400
    assert r["deals"] == r["cycles"] + sum(r["wins"])
    # The result file records the command it stands for: `ansatz reproduce` reruns it.
    (result,) = tmp_path.glob("exhaustive-8-2J2Q2K2A-2p.json")
    run = json.loads(result.read_text())["run"]
    assert run["command"].startswith("ansatz search exhaustive --deck 8-2J2Q2K2A --out ")


def test_an_exhaustive_shard_gives_its_summary(tmp_path):
    parts = [ansatz.exhaustive("6-2J2Q2K2A", f"{i}/2", out=tmp_path) for i in range(2)]
    assert [p["shard"] for p in parts] == ["0/2", "1/2"]
    assert sum(p["cycles"] for p in parts) == 1260
    assert sum(p["deals"] for p in parts) == 7567560


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(deck="nonsense"), "."),
        (dict(deck="6-2J2Q2K2A", shard="2/2"), "shard"),
        (dict(deck="6-2J2Q2K2A", shard="x"), "shard|I/N"),
        (dict(deck="6-2J2Q2K2A", extra_card=3), "--extra-card"),
        (dict(deck="7-2J2Q2K2A", players=1), "players"),
        (dict(deck="6-2J2Q2K2A", threads=0), "--threads"),
    ],
)
def test_exhaustive_bad_input(tmp_path, kwargs, message):
    with pytest.raises(ValueError, match=message):
        ansatz.exhaustive(out=tmp_path, **kwargs)


def test_exhaustive_is_the_clis(cli, tmp_path):
    v = cli_json(cli, "search", "exhaustive", "--deck", "6-2J2Q2K2A", "--out", str(tmp_path / "cli"))
    r = ansatz.exhaustive("6-2J2Q2K2A", out=tmp_path / "py")
    for k in ["seconds", "threads"]:
        v.pop(k), r.pop(k)
    assert v == r
    code, _, err = cli("search", "exhaustive", "--deck", "nonsense")
    with pytest.raises(ValueError) as e:
        ansatz.exhaustive("nonsense")
    assert (code, err.strip()) == (2, f"ansatz: {e.value}")


def test_assemble_finds_the_2024_deal(tmp_path):
    # Source: arXiv:2403.13855 (2024): the balanced deal is assembled from the published pieces.
    r = ansatz.assemble(balance=True, out=tmp_path)
    assert r["decks_tested"] == 2598750
    deals = [d for c in r["cycles"] for d in c["balanced"]]
    assert PAPER in deals
    assert len(deals) == r["balanced_total"] == 120


def test_assemble_options_are_checked(tmp_path):
    with pytest.raises(ValueError, match="--faces"):
        ansatz.assemble(faces="some", out=tmp_path)
    with pytest.raises(ValueError, match="--require"):
        ansatz.assemble(rest="all", out=tmp_path)
    with pytest.raises(ValueError, match="--name"):
        ansatz.assemble(name="../x", out=tmp_path)
    with pytest.raises(ValueError, match="not-there.bin"):
        ansatz.assemble(library="not-there.bin", out=tmp_path)


def test_assemble_is_the_clis(cli, tmp_path):
    args = ["--limit", "200000", "--balance"]
    v = cli_json(cli, "assemble", *args, "--out", str(tmp_path / "cli"))
    r = ansatz.assemble(limit=200000, balance=True, out=tmp_path / "py")
    assert json.dumps(r["cycles"], sort_keys=True) == json.dumps(v["cycles"], sort_keys=True)
    assert r["decks_tested"] == v["decks_tested"] == 200000


def test_discover_a_small_deck(tmp_path):
    r = ansatz.discover(deck="8-2J2Q2K2A", out=tmp_path)
    cycles = r["balanced_cycles"]
    assert cycles
    for c in cycles:
        for d in c["balanced"]:
            g = ansatz.play(d, deck="8-2J2Q2K2A")
            assert g.outcome == "cycle" and g.cycle_id == c["cycle_id"]
    assert r["files"]


def test_discover_whole_deck_limit_is_the_clis(cli, tmp_path):
    # 0: the routes, not the whole deck (which is small enough to be played whole by default).
    args = ["discover", "--deck", "8-2J2Q2K2A", "--whole-deck-limit", "0"]
    v = cli_json(cli, *args, "--out", str(tmp_path / "cli"))
    r = ansatz.discover(deck="8-2J2Q2K2A", whole_deck_limit=0, out=tmp_path / "py")
    stages = [s["name"] for s in r["stages"]]
    assert stages == [s["name"] for s in v["stages"]]
    assert "deck" not in stages and "insertion" in stages
    key = lambda c: c["cycle_id"]
    assert sorted(map(key, r["balanced_cycles"])) == sorted(map(key, v["balanced_cycles"]))


def test_discover_split_positions_is_the_clis(cli, tmp_path):
    # Played by the routes (not whole), with the split route's budget set by hand: the stages and
    # the cycles are the CLI's, and the run is named for the budget as the CLI names it.
    args = ["discover", "--deck", "8-2J2Q2K2A", "--whole-deck-limit", "0"]
    args += ["--split-positions", "100000"]
    v = cli_json(cli, *args, "--out", str(tmp_path / "cli"))
    r = ansatz.discover(
        deck="8-2J2Q2K2A", whole_deck_limit=0, split_positions=100000, out=tmp_path / "py"
    )
    stages = [s["name"] for s in r["stages"]]
    assert stages == [s["name"] for s in v["stages"]]
    assert "split" in stages
    key = lambda c: c["cycle_id"]
    assert sorted(map(key, r["balanced_cycles"])) == sorted(map(key, v["balanced_cycles"]))
    assert any("split100000" in f for f in r["files"]), r["files"]
    none = ansatz.discover(
        deck="8-2J2Q2K2A", whole_deck_limit=0, split_positions=0, out=tmp_path / "none"
    )
    assert "split" not in [s["name"] for s in none["stages"]]


def test_discover_options_are_checked(tmp_path):
    with pytest.raises(ValueError, match="--separator"):
        ansatz.discover(separator="X", out=tmp_path)
    with pytest.raises(ValueError, match="--route"):
        ansatz.discover(route="sideways", out=tmp_path)
    with pytest.raises(ValueError, match="--beam"):
        ansatz.discover(beam=0, out=tmp_path)
    with pytest.raises(ValueError, match="--lateral"):
        ansatz.discover(lateral=100001, out=tmp_path)
    with pytest.raises(ValueError, match="--frame"):
        ansatz.discover(frame="nonsense", out=tmp_path)


def test_read_library_gives_the_records_inspect_lists(cli):
    path = REPO / "pieces" / "paper-2024.bin"
    pieces = ansatz.read_library(path)
    v = cli_json(cli, "inspect", str(path))
    assert pieces == v["pieces"]


def test_read_library_of_the_2024_pieces():
    pieces = ansatz.read_library(str(REPO / "pieces" / "paper-2024.bin"))
    assert pieces
    assert set(pieces[0]) == {
        "sequence", "class", "length", "faces", "numbers", "preperiod", "period", "accumulation"
    }
    assert len(pieces) == 26
    # The long 2024 piece accumulates 22 cards (docs/ansatz.md); ordinary pieces stay near 12.
    assert sorted(p["accumulation"] for p in pieces) == [12] * 19 + [13] * 4 + [22] + [24] * 2
    with pytest.raises(ValueError, match="not an ansatz piece library"):
        ansatz.read_library(REPO / "README.md")
    with pytest.raises(ValueError, match="cannot read"):
        ansatz.read_library(REPO / "no-such-file.bin")

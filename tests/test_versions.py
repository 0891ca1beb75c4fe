"""Versions in saved data: game records and saved studies carry the package version and the
game's rules version; a record of other rules warns, a saved study of another definition or
version is played again, and a damaged study file is refused naming it."""

from __future__ import annotations

import dataclasses
import json
import warnings

import pandas as pd
import pytest

from tabletop_lab import GameRecord, PositionError, data, load_game, versions
from tabletop_lab.errors import DataError
from tabletop_lab.records import RulesVersionWarning
from tabletop_lab.sim import play_game, simulate, storable

CROSS = type(load_game("cross_endodoi"))


@pytest.fixture
def rules_version_2(monkeypatch):
    """Cross-endodoi as if its engine had changed: rules version 2."""
    monkeypatch.setattr(CROSS, "info", dataclasses.replace(CROSS.info, rules_version=2))


def record_dict(**changes):
    return {**play_game("cross_endodoi", ["random", "random"], seed=3).to_dict(), **changes}


# ----------------------------------------------------------------------------- records


def test_every_game_declares_a_rules_version():
    for name in ("cross_endodoi", "sygo", "sinoda", "sinomilia", "capitals"):
        assert load_game(name).info.rules_version == versions.rules_version(name) == 1


def test_a_record_carries_the_versions_it_was_made_under_and_reloads_silently():
    record = play_game("cross_endodoi", ["random", "random"], seed=3)
    assert record.versions == {"package": versions.package_version(), "rules": 1}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = GameRecord.from_json(record.to_json())
    assert again.versions == record.versions and again.replay() == record.replay()


def test_a_record_of_another_rules_version_warns_on_load(rules_version_2):
    with pytest.warns(RulesVersionWarning, match="made under cross_endodoi rules version 1; these are version 2"):
        GameRecord.from_dict(record_dict(versions={"package": "0.1.0", "rules": 1}))


def test_a_record_saved_before_versions_counts_as_rules_version_1(rules_version_2):
    legacy = record_dict()
    del legacy["versions"]
    with pytest.warns(RulesVersionWarning, match="rules version 1"):
        record = GameRecord.from_dict(legacy)
    assert record.rules_version == 1


def test_a_replay_that_differs_under_other_rules_names_both_versions(rules_version_2):
    data = record_dict(versions={"package": "0.1.0", "rules": 1})
    data["result"] = {**data["result"], "reason": "another ending"}
    with pytest.warns(RulesVersionWarning):
        record = GameRecord.from_dict(data)
    with pytest.raises(PositionError, match="these are version 2") as info:
        record.replay()
    assert len(str(info.value)) < 300
    data = record_dict(versions={"package": "0.1.0", "rules": 1}, actions=["1", "1"])
    with pytest.warns(RulesVersionWarning), pytest.raises(ValueError, match=r"these are version 2\): actions\[1\]"):
        GameRecord.from_dict(data).replay()


@pytest.mark.parametrize("bad", [3, {"rules": 1}, {"package": 1, "rules": 1}, {"package": "x", "rules": True},
                                 {"package": "x", "rules": 0}])  # fmt: skip
def test_malformed_versions_are_refused_naming_the_field(bad):
    with pytest.raises(PositionError, match="'versions' must be an object"):
        GameRecord.from_dict(record_dict(versions=bad))


# ----------------------------------------------------------------------------- saved studies


def study(n=6, seed=1):
    return simulate("cross_endodoi", ["random", "greedy"], n, seed=seed, progress=False)


def test_simulate_records_the_versions_and_a_saved_study_keeps_them(tmp_path):
    path = tmp_path / "study.parquet"
    first = data.load_or_run(path, study, study={"n": 6})
    assert first.attrs["package_version"] == versions.package_version() and first.attrs["rules_version"] == 1
    key = pd.read_parquet(path).attrs["study_key"]
    assert key == {"study": {"n": 6}, "package": versions.package_version(), "rules": {"cross_endodoi": 1}}


def runs_of(path, **kwargs):
    """How many times ``load_or_run`` called the study, and the rows it returned."""
    calls, n = [], kwargs.pop("n", 6)

    def run():
        calls.append(1)
        return study(n=n)

    frame = data.load_or_run(path, run, **kwargs)
    return len(calls), frame


def test_the_same_study_loads_without_running(tmp_path):
    path = tmp_path / "study.parquet"
    assert runs_of(path, study={"n": 6})[0] == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert runs_of(path, study={"n": 6})[0] == 0


def test_a_changed_study_runs_again_and_says_so(tmp_path):
    path = tmp_path / "study.parquet"
    runs_of(path, study={"n": 6})
    with pytest.warns(RuntimeWarning, match=r"study.parquet: saved for another study \(study \{'n': 6\} then"):
        calls, frame = runs_of(path, study={"n": 8}, n=8)
    assert calls == 1 and len(frame) == 8 and len(pd.read_parquet(path)) == 8


def test_a_frame_that_numbers_its_games_loads_without_running(tmp_path):
    """A frame of rounds whose ``game`` column holds game numbers (Sinomilia's study does) is
    keyed by its ``attrs["game"]``; it ran again on every load while the numbers were read as names."""

    def rounds():
        frame = pd.DataFrame({"game": [0, 0, 1], "round": [1, 2, 1]})
        frame.attrs["game"] = "cross_endodoi"
        return frame

    path = tmp_path / "rounds.parquet"
    data.load_or_run(path, rounds, study={"rounds": 3})
    assert pd.read_parquet(path).attrs["study_key"]["rules"] == {"cross_endodoi": 1}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(data.load_or_run(path, lambda: pytest.fail("ran again"), study={"rounds": 3})) == 3


def test_a_changed_rules_version_runs_again_and_says_so(tmp_path, monkeypatch):
    path = tmp_path / "study.parquet"
    runs_of(path, study={"n": 6})
    monkeypatch.setattr(CROSS, "info", dataclasses.replace(CROSS.info, rules_version=2))
    with pytest.warns(RuntimeWarning, match=r"another rules .*'cross_endodoi': 1\} then, \{'cross_endodoi': 2\} now"):
        assert runs_of(path, study={"n": 6})[0] == 1
    assert runs_of(path, study={"n": 6})[0] == 0  # saved again under version 2


def test_a_changed_package_version_runs_again(tmp_path, monkeypatch):
    path = tmp_path / "study.parquet"
    runs_of(path)
    monkeypatch.setattr(data, "package_version", lambda: "99.0")
    with pytest.warns(RuntimeWarning, match="another package"):
        assert runs_of(path)[0] == 1


def test_a_study_saved_before_keys_loads_while_its_rules_are_version_1(tmp_path, monkeypatch):
    path = tmp_path / "old.parquet"
    storable(study()).to_parquet(path)  # as studies were saved before: no key
    assert runs_of(path)[0] == 0
    with pytest.warns(RuntimeWarning, match="another study"):
        assert runs_of(path, study={"n": 6})[0] == 1  # a definition was never recorded
    storable(study()).to_parquet(path)
    monkeypatch.setattr(CROSS, "info", dataclasses.replace(CROSS.info, rules_version=2))
    with pytest.warns(RuntimeWarning, match="another rules"):
        assert runs_of(path)[0] == 1


def test_a_study_must_be_a_json_value(tmp_path):
    with pytest.raises(ValueError, match="study must be a JSON value"):
        data.load_or_run(tmp_path / "s.parquet", study, study={"n": object()})


# ----------------------------------------------------------------------------- damaged files


def test_a_byte_flipped_study_is_refused_naming_the_file_or_reads_the_same_rows(tmp_path):
    """Page checksums: a flipped byte anywhere gives ``DataError`` or, where it changes nothing
    that is read (padding, unused statistics), the very same frame; never other rows."""
    path = tmp_path / "study.parquet"
    saved = data.load_or_run(path, study)
    raw = path.read_bytes()
    damaged = tmp_path / "damaged.parquet"
    refused = 0
    for at in range(0, len(raw), max(1, len(raw) // 80)):
        flipped = bytearray(raw)
        flipped[at] ^= 0xFF
        damaged.write_bytes(bytes(flipped))
        try:
            frame = data.read_study(damaged)
        except DataError as error:
            message = str(error)
            assert "damaged.parquet' is damaged or not a Parquet file" in message and len(message) < 300
            refused += 1
        else:
            pd.testing.assert_frame_equal(frame, data.read_study(path))
            assert frame.attrs == saved.attrs | {"study_key": frame.attrs["study_key"]}
    assert refused > 40


def test_load_or_run_refuses_a_damaged_file_naming_it(tmp_path):
    path = tmp_path / "study.parquet"
    data.load_or_run(path, study)
    path.write_bytes(path.read_bytes()[:-100])  # cut short: the footer is gone
    with pytest.raises(
        DataError, match=r"study.parquet' is damaged .* delete it or run the study again \(rerun=True\)"
    ):
        data.load_or_run(path, study)
    path.write_text(json.dumps({"not": "parquet"}))
    with pytest.raises(DataError, match="study.parquet' is damaged or not a Parquet file"):
        data.load_or_run(path, study)
    assert len(data.load_or_run(path, study, rerun=True)) == 6  # and a rerun replaces it

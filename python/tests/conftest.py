"""Shared fixtures: where the repository's C++ programs and the silicon calibration data are."""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def repo() -> pathlib.Path:
    return REPO


@pytest.fixture
def calibration() -> pathlib.Path:
    d = pathlib.Path(os.environ.get("TENSIM_CALIBRATION_DIR", REPO.parent / "shared" / "calibration"))
    if not d.is_dir():
        pytest.skip(f"no calibration data at {d} (TENSIM_CALIBRATION_DIR)")
    return d

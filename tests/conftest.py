"""Shared fixtures. Slow tests (deep perft, long fuzz loops) run only with --slow."""

from __future__ import annotations

import os

import pytest

# Headless pygame everywhere: CI has no display and no sound card.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run tests marked slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def english_board():
    """Every test starts with the board speaking English (a test that switches
    the board to Polish must not leave the next one in Polish)."""
    from damka.controller import words
    words.set_language("en")
    yield
    words.set_language("en")

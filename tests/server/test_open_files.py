"""``serve`` raises its limit of open files (each player's socket is one) and never lowers it."""

from __future__ import annotations

import pytest

from damepique.server.run import raise_open_files

resource = pytest.importorskip("resource")


def test_the_soft_limit_goes_up_to_the_hard_one_and_never_down() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        pytest.skip("no hard limit of open files here")
    try:
        lower = min(soft, 512) if soft != resource.RLIM_INFINITY else 512
        resource.setrlimit(resource.RLIMIT_NOFILE, (lower, hard))
        assert raise_open_files() == hard == resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        assert raise_open_files() == hard  # already there: unchanged
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

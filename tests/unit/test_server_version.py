"""The server version gate names what argkb's Cypher really needs (no server needed)."""

from __future__ import annotations

import pytest

from argkb.db.schema import check_version
from argkb.errors import ServerVersionError


@pytest.mark.parametrize("version", ["5.26.0", "5.26.19", "2025.06.0", "2026.01.1"])
def test_versions_with_every_feature_pass(version: str) -> None:
    check_version(version)


@pytest.mark.parametrize("version", ["5.15.0", "5.20.1", "5.25.1"])
def test_versions_before_dynamic_labels_are_refused(version: str) -> None:
    # 5.15-5.25 have vector indexes, but the loaders' SET n:$(...) arrived in 5.26
    with pytest.raises(ServerVersionError, match=r"dynamic labels.*needs 5\.26\+"):
        check_version(version)


def test_old_versions_list_every_missing_feature() -> None:
    with pytest.raises(ServerVersionError) as err:
        check_version("5.11.0")
    message = str(err.value)
    assert "vector indexes" in message and "needs 5.15+" in message
    assert "vector.similarity.cosine" in message and "needs 5.18+" in message
    assert "needs 5.26+" in message and "\n" not in message


def test_unreadable_version_is_a_typed_error() -> None:
    with pytest.raises(ServerVersionError, match="cannot read"):
        check_version("dev")

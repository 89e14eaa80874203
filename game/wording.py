"""Words for messages built around numbers (no pygame)."""

from __future__ import annotations


def a_or_an(number: str) -> str:
    """The article for ``number`` as written in a message, by how it is read aloud: "an"
    before 8…, 11 and 18 (eight, eighty, eleven, eighteen), "a" before any other."""
    whole = number.split(".")[0]  # (a sign is read first: "a minus 8")
    return "an" if whole.startswith("8") or whole in ("11", "18") else "a"

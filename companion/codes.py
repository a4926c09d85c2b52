"""Join codes people can read aloud and type on a phone: Crockford base32, 40 random bits, 7K2M-QX4P."""
from __future__ import annotations

import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford: no I, L, O, U
CODE_BITS = 40
CODE_LENGTH = CODE_BITS // 5
_LOOKALIKES = str.maketrans({"I": "1", "L": "1", "O": "0"})


def new_code() -> str:
    """A fresh random code in its canonical form, e.g. '7K2MQX4P' (store and compare this form)."""
    value = secrets.randbits(CODE_BITS)
    return "".join(ALPHABET[(value >> shift) & 31] for shift in range(CODE_BITS - 5, -1, -5))


def display(code: str) -> str:
    """Canonical code -> the dashed form people see: 7K2M-QX4P."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def normalize(text: str) -> str | None:
    """Whatever someone typed -> the canonical code, or None if it cannot be one.

    Accepts lowercase, spaces and dashes anywhere, and the lookalikes I, L (for 1) and O (for 0).
    """
    cleaned = "".join(ch for ch in str(text).upper() if ch not in " -_").translate(_LOOKALIKES)
    if len(cleaned) != CODE_LENGTH or any(ch not in ALPHABET for ch in cleaned):
        return None
    return cleaned

"""Text people type (chat, notes, names) made safe to show to others.

Bidirectional control characters (the embeddings and overrides U+202A-U+202E, the
isolates U+2066-U+2069 and the marks U+200E/U+200F) let a message reorder what other
seats see: "‮txt.exe" reads "exe.txt" backwards. They are removed where text enters
the store, so every page shows the letters as they were typed.

>>> strip_bidi("ok\\u202eko")
'okko'
>>> strip_bidi("plain text")
'plain text'
"""

from __future__ import annotations

BIDI_CONTROLS = frozenset(
    [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\u200e", "\u200f"]
)
_TABLE = {ord(c): None for c in BIDI_CONTROLS}


def strip_bidi(text):
    """``text`` without bidirectional control characters (anything else as it is)."""
    return text.translate(_TABLE) if isinstance(text, str) else text


__all__ = ["BIDI_CONTROLS", "strip_bidi"]

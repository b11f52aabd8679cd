from . import cosmo as cosmo
from . import uo as uo
from . import wwd as wwd

class FormatError(ValueError):
    """Bytes the format does not allow. The message is the command line's sentence."""

    kind: str
    """The Rust error's variant ("MapLength", "Signature", "EntryNotFound" ...)."""
    file: str | None
    """The file's name when known."""
    numbers: dict[str, int]
    """The error's numbers (offsets, counts, found ...); each is also an attribute."""
    entry: str | None
    """Cosmo errors only: the group file entry, when known."""
    def __getattr__(self, name: str) -> int: ...

__all__ = ["FormatError", "cosmo", "uo", "wwd"]

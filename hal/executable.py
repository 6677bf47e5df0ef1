"""Executables: device code loaded from one variant of a module's executable.

An executable has a name (for error messages), the format it was loaded from
and an ordered list of entry point names; commands refer to entry points by
ordinal (position).  Loaders subclass it with the device-specific handles.
"""
from __future__ import annotations

from .errors import HalError


class Executable:
    """Loaded device code with ordered entry points."""

    def __init__(self, device, name: str, format: str, entry_points):
        self.device = device
        self.name = name
        self.format = format
        self.entry_points = list(entry_points)

    def entry_name(self, ordinal: int) -> str:
        """Name of entry point ``ordinal``; HalError when out of range."""
        if not isinstance(ordinal, int) or not 0 <= ordinal < len(self.entry_points):
            raise HalError(f"executable '{self.name}' has {len(self.entry_points)} entry points; "
                           f"entry ordinal {ordinal!r} is out of range")
        return self.entry_points[ordinal]

    def entry_ordinal(self, name: str) -> int:
        try:
            return self.entry_points.index(name)
        except ValueError:
            raise HalError(f"executable '{self.name}' has no entry point '{name}' "
                           f"(it has {self.entry_points})") from None

    def __repr__(self):
        return f"<Executable {self.name} {self.format} entries={self.entry_points}>"

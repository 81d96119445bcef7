"""A one-line progress bar for long commands (``blokus bench``, ``blokus selfplay``)."""

from __future__ import annotations

from typing import TextIO


class Progress:
    """A one-line progress bar on a stream, redrawn in place; nothing is written when
    ``enabled`` is false (use ``stream.isatty()`` so that pipes and logs stay clean)."""

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total, self.done, self.stream, self.enabled = total, 0, stream, enabled

    def step(self, label: str = "") -> None:
        """One more unit done."""
        self.update(self.done + 1, label)

    def update(self, done: int, label: str = "") -> None:
        """``done`` units of ``total`` done."""
        self.done = done
        if self.enabled:
            width = 30
            filled = width * min(self.done, self.total) // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {label:<40}")
            self.stream.flush()

    def close(self) -> None:
        """Erases the bar."""
        if self.enabled:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()

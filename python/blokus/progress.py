"""A one-line progress bar for long commands (``blokus bench``, ``blokus selfplay``).

>>> import io
>>> stream = io.StringIO()
>>> bar = Progress(4, stream, enabled=True)
>>> bar.update(2, "halfway")
>>> stream.getvalue().strip()
'[###############...............] 2/4 halfway'
"""

from __future__ import annotations

from typing import TextIO


class Progress:
    """A one-line progress bar on a stream, redrawn in place; nothing is written when
    ``enabled`` is false (use ``stream.isatty()`` so that pipes and logs stay clean).

    >>> import io
    >>> bar = Progress(10, io.StringIO(), enabled=False)
    >>> bar.step()
    >>> bar.done, bar.stream.getvalue()
    (1, '')
    """

    def __init__(self, total: int, stream: TextIO, enabled: bool) -> None:
        self.total, self.done, self.stream, self.enabled = total, 0, stream, enabled

    def step(self, label: str = "") -> None:
        """One more unit done.

        >>> import io
        >>> stream = io.StringIO()
        >>> bar = Progress(2, stream, enabled=True)
        >>> bar.step("one")
        >>> stream.getvalue().split()[:2]
        ['[###############...............]', '1/2']
        """
        self.update(self.done + 1, label)

    def update(self, done: int, label: str = "") -> None:
        """``done`` units of ``total`` done.

        >>> import io
        >>> stream = io.StringIO()
        >>> Progress(3, stream, enabled=True).update(3)
        >>> stream.getvalue().split()
        ['[##############################]', '3/3']
        """
        self.done = done
        if self.enabled:
            width = 30
            filled = width * min(self.done, self.total) // max(self.total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {label:<40}")
            self.stream.flush()

    def close(self) -> None:
        """Erases the bar.

        >>> import io
        >>> stream = io.StringIO()
        >>> bar = Progress(3, stream, enabled=True)
        >>> bar.update(1)
        >>> bar.close()
        >>> stream.getvalue().endswith("\\r")
        True
        """
        if self.enabled:
            self.stream.write("\r" + " " * 80 + "\r")
            self.stream.flush()

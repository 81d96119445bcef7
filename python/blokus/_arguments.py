"""How the API reads its arguments: integers (any integer type, numpy's too, but not ``bool``),
counts, seeds, thread counts, finite numbers and arrays of placement ids, each checked before
any work, with an error of :mod:`blokus.errors` that names the argument and what was wrong."""

from __future__ import annotations

import math
import operator
import os
from typing import TYPE_CHECKING

import numpy as np

from blokus import _blokus
from blokus.errors import InvalidArgumentError, InvalidTypeError

if TYPE_CHECKING:
    import numpy.typing as npt

    from blokus.variant import Variant

#: The most threads a call may use.
MAX_THREADS: int = _blokus.MAX_THREADS

#: The largest seed, and the largest count of games or steps: 64-bit numbers.
MAX_U64 = 2**64 - 1


def shown(value: object) -> str:
    """A value for a message, short however large (a 10,000-digit number is not printed)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {value.bit_length()}-bit number"
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:30]) + f"... ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def integer(value: object, name: str) -> int:
    """``value`` as an int: an int, a numpy integer or anything with ``__index__``; not a bool
    (``True`` is no count) and not a float."""
    if isinstance(value, (bool, np.bool_)):
        raise InvalidTypeError(f"{name} must be an integer, not a bool", name)
    try:
        return operator.index(value)  # type: ignore[arg-type]  # refused below if it is none
    except TypeError:
        raise InvalidTypeError(f"{name} must be an integer, not {type(value).__name__}", name) from None


def in_range(value: object, name: str, low: int, high: int | None = None) -> int:
    """``value`` as an int from ``low`` to ``high`` (no upper bound if ``None``)."""
    n = integer(value, name)
    if n < low or (high is not None and n > high):
        top = "2**64 - 1" if high == MAX_U64 else str(high)
        bounds = f"{low} to {top}" if high is not None else f">= {low}"
        raise InvalidArgumentError(f"{name} must be {bounds}, not {shown(n)}", name)
    return n


def seed(value: object, name: str = "seed") -> int:
    """A seed: 0 to 2**64 - 1."""
    return in_range(value, name, 0, MAX_U64)


def perft_depth(v: Variant, value: object, low: int = 0) -> int:
    """A perft depth: ``low`` to the most moves a game of ``v`` has (no deeper count is other
    than zero, and one past it could run for ever)."""
    most = v.max_plies
    depth = integer(value, "depth")
    if not low <= depth <= most:
        raise InvalidArgumentError(
            f"perft depth must be {low} to {most} (a game of {v.id} has at most {most} moves), not {shown(depth)}",
            "depth",
        )
    return depth


def threads(value: object, name: str = "threads") -> int:
    """A thread count: 1 to :data:`MAX_THREADS`; ``None`` for one per core (at most that)."""
    if value is None:
        return max(1, min(os.cpu_count() or 1, MAX_THREADS))
    return in_range(value, name, 1, MAX_THREADS)


def choice(value: object, name: str, options: tuple[str, ...]) -> str:
    """One of the strings ``options``."""
    if not isinstance(value, str) or value not in options:
        listed = (
            ", ".join(repr(o) for o in options[:-1]) + f" or {options[-1]!r}" if len(options) > 1 else repr(options[0])
        )
        raise InvalidArgumentError(f"{name} must be {listed}, not {shown(value)}", name)
    return value


def _float(value: object, name: str) -> float:
    """``value`` as a float: an int or a float (numpy's too), not a bool; a huge int is inf."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidTypeError(f"{name} must be a number, not {type(value).__name__}", name)
    return float(value) if not isinstance(value, int) or value.bit_length() < 1000 else math.inf


def number(value: object, name: str, low: float, high: float) -> float:
    """A finite real number (an int or a float, not a bool) in ``(low, high]`` (unbounded with
    infinite bounds)."""
    x = _float(value, name)
    if not (math.isfinite(x) and low < x <= high):
        bounds = "" if (low, high) == (-math.inf, math.inf) else f" above {low:g}, at most {high:g}"
        raise InvalidArgumentError(f"{name} must be a finite number{bounds}, not {shown(value)}", name)
    return x


def real(value: object, name: str, low: float, high: float) -> float:
    """A finite real number (an int or a float, not a bool) from ``low`` to ``high``."""
    x = _float(value, name)
    if not low <= x <= high:  # NaN too
        raise InvalidArgumentError(f"{name} must be a number from {low:g} to {high:g}, not {shown(value)}", name)
    return x


def flag(value: object, name: str) -> bool:
    """A bool (numpy's included; not a number standing for one)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidTypeError(f"{name} must be True or False, not {shown(value)}", name)
    return bool(value)


def ids(values: object, name: str, length: int) -> npt.NDArray[np.int64]:
    """One integer per game as a contiguous int64 array: any integer dtype (an unsigned value
    too large for int64 is no placement and is refused), not floats, bools or strings."""
    array = np.asarray(values)
    if array.dtype.kind not in "iu":
        raise InvalidTypeError(f"{name} must be integers (placement ids), not an array of {array.dtype}", name)
    _check_shape(array, name, length)
    if array.dtype.kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
        raise InvalidArgumentError(f"{name}: {shown(int(array.max()))} is no placement id", name)
    return np.ascontiguousarray(array, dtype=np.int64)


def flags(values: object, name: str, length: int) -> npt.NDArray[np.bool_]:
    """One flag per game as a contiguous bool array: bools, or integers that are 0 or 1."""
    array = np.asarray(values)
    if array.dtype.kind in "iu":
        if array.size and not np.isin(array, (0, 1)).all():
            raise InvalidArgumentError(f"{name} must be bools (or 0 and 1)", name)
    elif array.dtype.kind != "b":
        raise InvalidTypeError(f"{name} must be bools, not an array of {array.dtype}", name)
    _check_shape(array, name, length)
    return np.ascontiguousarray(array, dtype=np.bool_)


def _check_shape(array: npt.NDArray[np.generic], name: str, length: int) -> None:
    if array.shape != (length,):
        raise InvalidArgumentError(f"{name} must have shape ({length},), one per game, not {array.shape}", name)

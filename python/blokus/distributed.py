"""Selfplay and matches on a Ray cluster (``pip install 'blokus[ray]'``).

A run of :func:`blokus.selfplay` is split into chunks of consecutive games, each a Ray task
that plays its games with ``first`` set (game ``i`` depends only on the seed and ``i``), and
the chunks are joined in order, so the result is the local result, bit for bit, whatever
the cluster, the chunk size or the workers lost on the way (a task whose worker dies is run
again). A match plays its games on Ray actors, each hosting the engines for its games, with
the local match runner's loop, files, summary and SPRT.

``address=None`` starts a local Ray, bound to 127.0.0.1, or uses the one this process has
already started with ``ray.init`` (or joins the cluster named by ``RAY_ADDRESS``, as
``ray.init`` does); ``"auto"`` joins the cluster running on this machine and any other
address (``"ray://head:10001"``, ``"10.0.0.1:6379"``) that cluster. Every node needs blokus
installed (the same version) and, for a match, any GTP program it runs. A Ray started here
is left running for later calls; ``ray.shutdown()`` ends it.

The examples of this module start a local Ray; the test suite runs them in
``tests/test_distributed.py`` (in CI inside a network namespace with only the loopback
interface), not with the other modules' examples.

>>> import numpy as np
>>> import blokus
>>> from blokus import distributed
>>> there = distributed.selfplay("duo", games=40, seed=2, chunk=16)
>>> here = blokus.selfplay("duo", games=40, seed=2)
>>> np.array_equal(there.points, here.points) and np.array_equal(there.plies, here.plies)
True
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import itertools
import math
import os
import sys
import time
import warnings
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any, Callable, Literal, Union, overload

from blokus import _arguments
from blokus.errors import InvalidArgumentError, InvalidTypeError, MissingDependencyError
from blokus.match import TIMEOUT, MatchResult, Workers, _Engines, _Job, _play, _Played
from blokus.match import match as local_match
from blokus.selfplay import POLICIES, SelfplayResult, SelfplaySummary
from blokus.selfplay import selfplay as local_selfplay
from blokus.variant import Variant, VariantLike, variant

#: A chunk's result: all its games, or their summary.
_Chunk = Union[SelfplayResult, SelfplaySummary]

#: Games a chunk plays at most, by policy (for one thread): up to about a second of play on
#: one core (classic, trigon), so that tasks cost little to start (a few milliseconds) and a
#: lost worker little to replay.
CHUNK_GAMES = {"uniform": 20_000, "greedy": 5_000, "mcts": 4}


def _ray() -> ModuleType:
    """The ``ray`` module, or a clear error if it is not installed."""
    try:
        ray = importlib.import_module("ray")
    except ImportError:
        raise MissingDependencyError(
            "blokus.distributed runs on Ray, which is not installed: pip install 'blokus[ray]'"
        ) from None
    return ray


def connect(address: str | None = None, num_cpus: int | None = None) -> ModuleType:
    """Ray, connected to ``address`` (see the module's documentation); returns the module.

    A local Ray started here (``address=None``) has ``num_cpus`` CPUs (default: every core),
    no dashboard, and talks to this machine only: its node's address is 127.0.0.1, and its
    servers listen there. Ray resolves ``127.0.0.1`` to the machine's network address and
    listens on every interface unless ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` is ``0`` (Ray's
    single-machine mode) when it is first imported, so that is set here if Ray is not yet
    imported and the variable is unset.

    >>> ray = connect(num_cpus=2)
    >>> ray.is_initialized()
    True
    """
    if address is not None and (not isinstance(address, str) or not address.strip()):
        what = "an empty string" if isinstance(address, str) else type(address).__name__
        raise InvalidTypeError(f"address must be None, 'auto' or a Ray address, not {what}", "address")
    cpus = None if num_cpus is None else _arguments.in_range(num_cpus, "num_cpus", 1, 1_000_000)
    if address is None and os.environ.get(SINGLE_MACHINE) is None:
        loaded = sys.modules.get("ray")
        if loaded is None:
            os.environ[SINGLE_MACHINE] = "0"
        elif not loaded.is_initialized():
            warnings.warn(
                f"ray was imported before blokus started a local Ray: it may listen beyond 127.0.0.1 "
                f"(set {SINGLE_MACHINE}=0 before importing ray)",
                stacklevel=2,
            )
    ray = _ray()
    if not ray.is_initialized():
        if address is None:
            ray.init(num_cpus=cpus, _node_ip_address="127.0.0.1", include_dashboard=False, logging_level="warning")
        else:
            ray.init(address=address, logging_level="warning")
    return ray


#: The environment variable that keeps a local Ray on the loopback interface (on Linux too).
SINGLE_MACHINE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def cluster_cpus(address: str | None = None) -> int:
    """CPUs of the Ray cluster (connected to as :func:`connect` does).

    >>> cluster_cpus() >= 1
    True
    """
    ray = connect(address)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def chunks(games: int, slots: int, chunk: int | None, policy: str, threads: int) -> Iterator[tuple[int, int]]:
    """``(first, games)`` of each chunk of a run, in order: ``chunk`` games each (the last
    fewer), or by default about equal chunks, a multiple of ``slots`` of them, of at most
    :data:`CHUNK_GAMES` games a thread. Made as they are asked for: a run may have more chunks
    than memory holds.

    >>> list(chunks(10, 2, 4, "uniform", 1))
    [(0, 4), (4, 4), (8, 2)]
    >>> list(chunks(100_000, 2, None, "uniform", 1))
    [(0, 16667), (16667, 16667), (33334, 16667), (50001, 16667), (66668, 16666), (83334, 16666)]
    """
    if games == 0:
        return
    if chunk is None:
        most = CHUNK_GAMES[policy] * threads
        # Whole rounds of tasks, so that no slot idles at the end while another plays.
        n = min(games, slots * max(2, math.ceil(games / (slots * most))))
        base, extra = divmod(games, n)
        first = 0
        for k in range(n):
            size = base + (k < extra)
            yield first, size
            first += size
    else:
        for first in range(0, games, chunk):
            yield first, min(chunk, games - first)


def _play_chunk(
    v: Variant,
    first: int,
    games: int,
    seed: int,
    threads: int,
    policy: str,
    keep_moves: bool,
    simulations: int,
    summary_only: bool,
) -> _Chunk:
    """A Ray task: games ``first`` to ``first + games - 1`` of the run, or their summary."""
    r = local_selfplay(v, games, seed, threads, policy, keep_moves, simulations=simulations, first=first)
    return r.summary() if summary_only else r


@functools.cache
def _remote_chunk() -> Any:
    return _ray().remote(_play_chunk)


@overload
def selfplay(
    variant_: VariantLike = ...,
    games: int = ...,
    seed: int = ...,
    policy: str = ...,
    *,
    address: str | None = ...,
    chunk: int | None = ...,
    threads_per_task: int = ...,
    summary_only: Literal[False] = ...,
    keep_moves: bool = ...,
    progress: Callable[[int, int], object] | None = ...,
    simulations: int = ...,
    max_retries: int = ...,
) -> SelfplayResult: ...


@overload
def selfplay(
    variant_: VariantLike = ...,
    games: int = ...,
    seed: int = ...,
    policy: str = ...,
    *,
    address: str | None = ...,
    chunk: int | None = ...,
    threads_per_task: int = ...,
    summary_only: Literal[True],
    keep_moves: bool = ...,
    progress: Callable[[int, int], object] | None = ...,
    simulations: int = ...,
    max_retries: int = ...,
) -> SelfplaySummary: ...


@overload
def selfplay(
    variant_: VariantLike = ...,
    games: int = ...,
    seed: int = ...,
    policy: str = ...,
    *,
    address: str | None = ...,
    chunk: int | None = ...,
    threads_per_task: int = ...,
    summary_only: bool,
    keep_moves: bool = ...,
    progress: Callable[[int, int], object] | None = ...,
    simulations: int = ...,
    max_retries: int = ...,
) -> SelfplayResult | SelfplaySummary: ...


def selfplay(
    variant_: VariantLike = "classic",
    games: int = 1000,
    seed: int = 0,
    policy: str = "uniform",
    *,
    address: str | None = None,
    chunk: int | None = None,
    threads_per_task: int = 1,
    summary_only: bool = False,
    keep_moves: bool = False,
    progress: Callable[[int, int], object] | None = None,
    simulations: int = 200,
    max_retries: int = 3,
) -> SelfplayResult | SelfplaySummary:
    """:func:`blokus.selfplay` on a Ray cluster: the same games, in chunks of ``chunk`` games
    (default: see :func:`chunks`), each a task of ``threads_per_task`` threads and as many CPUs.

    Returns what ``blokus.selfplay(variant_, games, seed, policy=policy, ...)`` returns, equal
    but for ``seconds``, here the wall-clock time of the whole run; with ``summary_only=True``
    only its :class:`~blokus.selfplay.SelfplaySummary`, each task sending back the summary of
    its games (for runs too large to keep). ``progress(done, games)`` is called as chunks
    finish; a task whose worker dies is run again up to ``max_retries`` times; Ctrl-C cancels
    the tasks.

    >>> import blokus
    >>> r = selfplay("classic", games=20, seed=5, chunk=6)
    >>> here = blokus.selfplay("classic", games=20, seed=5).summary()
    >>> r.summary().points_sum == here.points_sum and r.summary().wins == here.wins
    True
    >>> s = selfplay("classic", games=20, seed=5, summary_only=True)  # no games kept
    >>> (s.games, s.points_squares == here.points_squares, s.plies == here.plies)
    (20, True, True)
    """
    v = variant(variant_)
    games = _arguments.in_range(games, "games", 0, _arguments.MAX_U64)
    seed = _arguments.seed(seed)
    policy = _arguments.choice(policy, "policy", POLICIES)
    threads = _arguments.threads(threads_per_task, "threads_per_task")
    size = None if chunk is None else _arguments.in_range(chunk, "chunk", 1, _arguments.MAX_U64)
    simulations = _arguments.in_range(simulations, "simulations", 1, 10**9)
    retries = _arguments.in_range(max_retries, "max_retries", 0, 1000)
    summary = bool(summary_only)
    keep = bool(keep_moves)
    if summary and keep:
        raise InvalidArgumentError(
            "summary_only keeps no games, so no moves either: leave out keep_moves", "keep_moves"
        )
    if progress is not None and not callable(progress):
        raise InvalidTypeError(f"progress must be callable, not {type(progress).__name__}", "progress")

    ray = connect(address)
    largest = max((int(n.get("Resources", {}).get("CPU", 0)) for n in ray.nodes() if n.get("Alive")), default=0)
    if threads > largest:
        # A task that asks for more CPUs than any node has would wait for ever.
        raise InvalidArgumentError(
            f"threads_per_task is {threads}, but the largest node of the cluster has {largest} CPUs", "threads_per_task"
        )
    slots = max(1, cluster_cpus(address) // threads)
    plan = enumerate(chunks(games, slots, size, policy, threads))
    task = _remote_chunk().options(num_cpus=threads, max_retries=retries, retry_exceptions=False)
    # Enough tasks in flight that no worker waits for the next, few enough that the results
    # waiting to be collected stay small.
    window = 2 * slots
    started = time.perf_counter()
    parts: dict[int, SelfplayResult] = {}
    merged: SelfplaySummary | None = None
    running: dict[Any, tuple[int, int]] = {}
    done = 0
    try:
        while True:
            for k, (first, n) in itertools.islice(plan, window - len(running)):
                running[task.remote(v, first, n, seed, threads, policy, keep, simulations, summary)] = (k, n)
            if not running:
                break
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                k, n = running.pop(ref)
                part = ray.get(ref)
                if isinstance(part, SelfplaySummary):
                    # Merged as they come (the sums do not depend on the order).
                    merged = part if merged is None else SelfplaySummary.merge([merged, part])
                else:
                    parts[k] = part
                done += n
            if progress is not None:
                progress(done, games)
    except BaseException:
        for ref in running:
            ray.cancel(ref, force=True)
        raise
    seconds = time.perf_counter() - started
    if summary:
        if merged is None:
            merged = local_selfplay(v, 0, seed, 1, policy).summary()
        return dataclasses.replace(merged, seconds=seconds)
    if not parts:
        return dataclasses.replace(local_selfplay(v, 0, seed, 1, policy, keep), seconds=seconds)
    joined = SelfplayResult.concat(parts[k] for k in range(len(parts)))
    return dataclasses.replace(joined, seconds=seconds)


# --- matches ---


class _EngineHost:
    """A Ray actor's state: the match's engines, started once, playing game after game."""

    def __init__(self, variant_spec: str | dict[str, Any], specs: list[str], timeout: float | None) -> None:
        self.variant = variant(variant_spec)
        self.engines = _Engines(specs, timeout)

    def play(self, job: _Job) -> _Played:
        """Plays one game of the match."""
        return _play(job, self.variant, self.engines)

    def close(self) -> None:
        """Stops the GTP engines."""
        self.engines.close()

    def kill(self) -> None:
        """Kills the GTP engines at once, while a game may be waiting on one (the actor runs
        this beside :meth:`play`): a killed actor would leave them running."""
        self.engines.kill()


class _ActorWorkers:
    """The workers of a match as Ray actors, one game at a time each."""

    def __init__(
        self, ray: ModuleType, slots: int, variant_spec: str | dict[str, Any], specs: list[str], timeout: float | None
    ) -> None:
        self.ray = ray
        self.slots = slots
        # An actor that dies is started again, and the game it was playing played again (its
        # bots are seeded from the game's number, so it is the same game).
        # Two calls at once: kill can stop the engines of a game under way (a match's games
        # are given to idle actors only, so plays never overlap).
        host = ray.remote(num_cpus=1, max_restarts=3, max_task_retries=3, max_concurrency=2)(_EngineHost)
        self.actors = [host.remote(variant_spec, specs, timeout) for _ in range(slots)]
        self.idle = list(self.actors)
        self.running: dict[Any, Any] = {}

    def submit(self, job: _Job) -> None:
        actor = self.idle.pop()
        self.running[actor.play.remote(job)] = actor

    def next(self, timeout: float) -> _Played | None:
        ready, _ = self.ray.wait(list(self.running), num_returns=1, timeout=timeout)
        if not ready:
            return None
        self.idle.append(self.running.pop(ready[0]))
        played: _Played = self.ray.get(ready[0])
        return played

    def close(self) -> None:
        self._stop(30.0)

    def terminate(self) -> None:
        killing = [a.kill.remote() for a in self.actors]
        self.ray.wait(killing, num_returns=len(killing), timeout=5.0)
        for ref in self.running:
            self.ray.cancel(ref)
        self._stop(5.0)

    def _stop(self, seconds: float) -> None:
        # The actors' GTP engines are closed before the actors go.
        closing = [a.close.remote() for a in self.actors]
        self.ray.wait(closing, num_returns=len(closing), timeout=seconds)
        for a in self.actors:
            self.ray.kill(a)


def match(
    engines: Sequence[str],
    variant_: VariantLike = "duo",
    games: int = 100,
    *,
    address: str | None = None,
    jobs: int | None = None,
    seed: int = 0,
    out: str | os.PathLike[str] | None = None,
    resume: bool = False,
    openings: str | os.PathLike[str] | None = None,
    opening_plies: int | None = None,
    sprt: tuple[float, float] | None = None,
    alpha: float = 0.05,
    beta: float = 0.05,
    equal_time: int | None = None,
    timeout: float | None = TIMEOUT,
    progress: Callable[[MatchResult], object] | None = None,
    stop_on_forfeit: bool = False,
) -> MatchResult:
    """:func:`blokus.match` with its games played on ``jobs`` Ray actors (default: one per CPU
    of the cluster), each starting the engines (specs: built-in bots or GTP command lines) once.

    The match is the local one: the same games for the same seed, the files written here (in
    ``out``), the summary, resuming and the SPRT stop. Games are played by actors only, even
    with one job.

    >>> r = match(["greedy", "random"], "duo", games=2, seed=3, jobs=1)
    >>> [g.seats for g in r.records], r.engines
    ([(0, 1), (1, 0)], ('greedy', 'random'))
    """
    if isinstance(engines, str) or not all(isinstance(e, str) for e in engines):
        raise InvalidTypeError("on Ray the engines are specs (strings), each started on the actors", "engines")
    n_jobs = None if jobs is None else _arguments.in_range(jobs, "jobs", 1, 100_000)
    ray = connect(address)
    slots = n_jobs if n_jobs is not None else cluster_cpus(address)

    def start(slots: int, variant_spec: str | dict[str, Any], specs: list[str], timeout: float | None) -> Workers:
        return _ActorWorkers(ray, slots, variant_spec, specs, timeout)

    return local_match(
        engines,
        variant_,
        games,
        seed=seed,
        jobs=slots,
        out=out,
        resume=resume,
        openings=openings,
        opening_plies=opening_plies,
        sprt=sprt,
        alpha=alpha,
        beta=beta,
        equal_time=equal_time,
        timeout=timeout,
        progress=progress,
        workers=start,
        stop_on_forfeit=stop_on_forfeit,
    )


__all__ = ["CHUNK_GAMES", "chunks", "cluster_cpus", "connect", "match", "selfplay"]

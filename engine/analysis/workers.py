"""Where a simulation's games are played: in this process, in a pool of processes, or on Ray.

Compiled rulesets cannot be pickled, so a worker process loads the ruleset itself, once, from
the run's path and extension files, and checks it is the same by its digest. It is sent chunks
of game numbers (a few milliseconds of play would otherwise cost as much to send as to play),
sized by how long the games so far took, so that long games go one or a few at a time (a
progress bar then counts what was played, not what was played a chunk ago), and returns their
records; records come back in the order chunks finish, which the caller
puts in game order, with what the bots' worlds were in that process (how many, how many the
rules failed in: players/worlds.py), which it adds to its own count. Every game depends on the
run and its number only, so the backend and the number of jobs never change a record.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterator

from ..core.errors import EngineError, RulesetError
from ..players import worlds
from ..rules.ruleset import Ruleset
from .run import RunSpec, play_game

CHUNK_MAX = 32  # games a chunk: big enough to hide the cost of a task, small enough to lose little on a kill
CHUNK_SECONDS = 0.5  # at most about this much play a chunk, once the games' pace is known
RAY_INSTALL = "pip install 'tabletop-rules-engine[ray]' (from a checkout: pip install -e '.[ray]')"

TRACKER_QUIET = "ignore::UserWarning:multiprocessing.resource_tracker"

_loaded: dict[tuple, Ruleset] = {}  # this process's rulesets, by path, extensions and digest


def ruleset_of(spec: RunSpec) -> Ruleset:
    """The run's ruleset, loaded once per process; an error if it changed since the run began."""
    key = (spec.ruleset, tuple(spec.extensions), spec.digest)
    if key not in _loaded:
        try:
            ruleset = spec.load()
        except RulesetError:
            ruleset = None  # (a RulesetError does not survive pickling: say it here in one line)
        if ruleset is None or ruleset.digest != spec.digest:
            raise EngineError(f"{spec.ruleset} (or a --with file) changed during the run, or cannot be "
                              f"read where the games are played")
        _loaded[key] = ruleset
    return _loaded[key]


def play_chunk(spec: RunSpec, games: list[int]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The records of `games`, and what the bots' worlds were in them (`Tally.since`)."""
    ruleset, before = ruleset_of(spec), worlds.tally.copy()
    records = [play_game(ruleset, spec, n) for n in games]
    return records, worlds.tally.since(before)


def chunk_size(games: int, jobs: int) -> int:
    """About 8 chunks a job, so that jobs finish together, of at most CHUNK_MAX games."""
    return max(1, min(CHUNK_MAX, games // (jobs * 8)))


def chunks(games: list[int], jobs: int) -> list[list[int]]:
    size = chunk_size(len(games), jobs)
    return [games[i:i + size] for i in range(0, len(games), size)]


def paced_chunks(games: list[list[int]], jobs: int, pace: Callable[[], float | None]) -> Iterator[tuple[int, list[int]]]:
    """Chunks of the games of every side (`games[side]`: its game numbers), game numbers in
    turn: a chunk of numbers for each side that has them, then the next, each of chunk_size
    games at most and of about CHUNK_SECONDS of play by `pace()`, the seconds a game takes a
    process (None: not known yet, a game a chunk). Made as they are sent, so that the pace is
    the latest."""
    # (One run: its own list, as it is; a million games need no set of their numbers.)
    owned = [set(numbers) for numbers in games] if len(games) > 1 else [None]
    every = sorted(set().union(*owned)) if len(games) > 1 else games[0]
    most, at = chunk_size(sum(map(len, games)), jobs), 0
    while at < len(every):
        per_game = pace()
        size = 1 if per_game is None else max(1, min(most, int(CHUNK_SECONDS / max(per_game, 1e-6))))
        numbers, at = every[at:at + size], at + size
        for side, own in enumerate(owned):
            part = numbers if own is None else [n for n in numbers if n in own]
            if part:
                yield side, part


def play_games(spec: RunSpec, games: list[int], jobs: int | None = 1, backend: str = "local",
               address: str | None = None, ruleset: Ruleset | None = None) -> Iterator[dict[str, Any]]:
    """The records of `games` (numbers from 1), as they are played: in this process when `jobs`
    is 1 (with `ruleset`, if given, instead of loading it), else by `jobs` processes (None: one
    a core), or by Ray (`backend` "ray", at `address` or on a local Ray; `jobs` None: one task
    a CPU of the cluster)."""
    for _, record in play_runs([spec], [games], jobs, backend, address, [ruleset]):
        yield record


def play_runs(specs: list[RunSpec], games: list[list[int]], jobs: int | None = 1, backend: str = "local",
              address: str | None = None, rulesets: list[Ruleset | None] | None = None
              ) -> Iterator[tuple[int, dict[str, Any]]]:
    """The games of several runs as (i, record), as `play_side_by_side` plays them, or on Ray."""
    if backend == "ray":
        yield from _ray(specs, games, jobs, address)
        return
    if backend != "local":
        raise EngineError(f"unknown backend '{backend}'; use local or ray")
    yield from play_side_by_side(specs, games, jobs, rulesets)


def play_side_by_side(specs: list[RunSpec], games: list[list[int]], jobs: int | None = 1,
                      rulesets: list[Ruleset | None] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """The games of several runs (`games[i]`: the game numbers of `specs[i]`), as (i, record),
    played in turns: game 1 of every run that has it, then game 2... (or chunk by chunk on
    `jobs` processes). So the runs advance together, and the time the first games took tells
    how long the rest will take: run one after the other, a run of slower games (other bots,
    another variant) would make that guess wrong while it went first."""
    jobs = jobs or os.cpu_count() or 1
    given = [r if r is not None and r.digest == s.digest else None
             for s, r in zip(specs, rulesets or [None] * len(specs))]
    if jobs <= 1 or sum(map(len, games)) <= 1:
        rules = [(r or ruleset_of(s)) if numbers else None for s, r, numbers in zip(specs, given, games)]
        for side, part in paced_chunks(games, 1, lambda: None):
            for n in part:
                yield side, play_game(rules[side], specs[side], n)
        return
    yield from _processes(specs, games, jobs, given)


def _context() -> multiprocessing.context.BaseContext:
    """How worker processes start. "fork" where it is safe, on Linux while no other thread runs
    (a thread holding a lock when the process is copied would leave the copy stuck): a worker
    then starts at once, with the ruleset already loaded. Else the fork server (started once,
    with the engine imported) or "spawn": fresh processes, which load the ruleset themselves."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["engine.workers"])
        return context
    return multiprocessing.get_context("spawn")


def _processes(specs: list[RunSpec], games: list[list[int]], jobs: int,
               rulesets: list[Ruleset | None]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The games of every spec in paced chunks on a pool of `jobs` processes, 2 a process in
    flight at a time (not all at once: a million games need not be queued up front)."""
    lent = []  # for workers copied from this process
    for spec, ruleset in zip(specs, rulesets):
        key = (spec.ruleset, tuple(spec.extensions), spec.digest)
        if ruleset is not None and key not in _loaded:
            _loaded[key] = ruleset
            lent.append(key)
    # If this process is killed, multiprocessing's resource tracker removes the pool's semaphores
    # and warns of "leaked semaphore objects": that is the cleaning up, not a leak; keep it quiet.
    if TRACKER_QUIET not in sys.warnoptions:
        sys.warnoptions.append(TRACKER_QUIET)
    jobs = min(jobs, sum(map(len, games)))
    executor = ProcessPoolExecutor(jobs, mp_context=_context(), initializer=_start_worker)
    started, played = time.perf_counter(), 0

    def pace() -> float | None:
        return (time.perf_counter() - started) * jobs / played if played else None

    waiting = paced_chunks(games, jobs, pace)
    finished = False

    def submit(count: int) -> dict[Any, int]:
        return {executor.submit(play_chunk, specs[i], part): i for i, part in _take(waiting, count)}

    try:
        running = submit(2 * jobs)
        for key in lent:  # forked workers were copied at the first submit: the cache keeps no ruleset longer
            del _loaded[key]
        lent = []
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            sides = {future: running.pop(future) for future in done}
            running |= submit(len(done))
            for future, side in sides.items():
                records, counted = future.result()
                worlds.tally.add(counted)
                played += len(records)
                for record in records:
                    yield side, record
        finished = True
    except BrokenProcessPool:
        raise EngineError("a process playing games stopped (out of memory? killed? or, from a script, its "
                          "code is not under if __name__ == '__main__':)") from None
    finally:
        for key in lent:
            del _loaded[key]
        if not finished:  # Ctrl-C, an error, or the caller stopped reading: stop the games at once
            stop = getattr(executor, "terminate_workers", None)  # Python 3.14
            if stop is not None:
                stop()
            else:
                for process in list((getattr(executor, "_processes", None) or {}).values()):
                    process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)


def _start_worker() -> None:
    """Ctrl-C is the parent's to handle (it stops the pool); and a worker whose parent is gone
    (killed) exits, and says nothing on the way (its pipes to the parent are broken)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):  # as the system has them, not as a forked parent may
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    parent = multiprocessing.parent_process()  # the simulation, even when forked by a fork server
    if parent is None:
        return
    sys.stderr = _Orphaned(sys.stderr, parent)

    def watch() -> None:
        parent.join()
        os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


class _Orphaned:
    """A worker's stderr, silent once its parent is gone."""

    def __init__(self, stream: Any, parent: Any):
        self.stream, self.parent = stream, parent

    def write(self, text: str) -> int:
        return self.stream.write(text) if self.parent.is_alive() else len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _ray(specs: list[RunSpec], games: list[list[int]], jobs: int | None,
         address: str | None) -> Iterator[tuple[int, dict[str, Any]]]:
    """The games of every run as Ray tasks of a chunk each, a few per CPU in flight at a time."""
    try:
        import ray
    except ImportError:
        raise EngineError(f"--backend ray needs Ray, which is not installed: {RAY_INSTALL}") from None
    started = not ray.is_initialized()
    if started:
        if address:
            _reachable(address)
        try:  # a Ray started here listens on this machine only
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="ERROR",
                     **({} if address else {"_node_ip_address": "127.0.0.1"}))
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise EngineError(f"cannot start or reach Ray{f' at {address}' if address else ''}: "
                              f"{(str(exc).splitlines() or [type(exc).__name__])[0]}") from None
    try:
        jobs = jobs or max(1, int(ray.cluster_resources().get("CPU", 1)))
        task = ray.remote(play_chunk)
        waiting = ((side, part) for side, numbers in enumerate(games) for part in chunks(numbers, jobs))
        sides: dict[Any, int] = {}  # each task's run

        def submit(count: int) -> list[Any]:
            refs = []
            for side, part in [item for _, item in zip(range(count), waiting)]:
                refs.append(task.remote(specs[side], part))
                sides[refs[-1]] = side
            return refs
        running = submit(2 * jobs)
        while running:
            done, running = ray.wait(running, num_returns=1)
            running += submit(len(done))
            for ref in done:
                try:
                    records, counted = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    if isinstance(getattr(exc, "cause", None), EngineError):
                        raise EngineError(str(exc.cause)) from None
                    raise
                worlds.tally.add(counted)
                side = sides.pop(ref)
                for record in records:
                    yield side, record
    finally:
        if started:
            ray.shutdown()


def _reachable(address: str) -> None:
    """A clear error now for an address nothing answers at (Ray itself would retry for minutes)."""
    host, _, port = address.rpartition("://")[2].rpartition(":")
    if not port.isdigit():
        return  # "auto", or an address Ray resolves itself
    try:
        socket.create_connection((host or "127.0.0.1", int(port)), timeout=5).close()
    except OSError as exc:
        raise EngineError(f"no Ray cluster answers at {address} ({exc.strerror or exc}); start one with "
                          f"'ray start --head', or leave out --address for a Ray on this machine") from None


def _take(items: Iterator[Any], n: int) -> list[Any]:
    return [part for _, part in zip(range(n), items)]

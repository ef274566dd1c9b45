"""Where shards are played: threads, local worker processes, or a Dask cluster.

Every backend runs the same task per shard and yields results as shards finish (in any order), so
the progress bar moves shard by shard and no backend changes a byte of the data. Local process
workers stop with the process that started them (:func:`stop_with_parent`); Dask workers run on
other machines and return each shard's files to this process, which writes them (no shared file
system is needed, and the run directory keeps one writer).
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import joblib
from joblib.parallel import LokyBackend

from simharness.errors import ConfigError

# How often a local worker process checks that the run that started it is still there.
_PARENT_POLL_S = 0.1
# How long to wait for a Dask scheduler before giving up.
_CONNECT_TIMEOUT = "20s"


class Backend(str, Enum):
    THREADING = "threading"  # threads of this process: the engine, polars and pyarrow release the GIL
    LOKY = "loky"  # joblib's reusable pool of worker processes
    MULTIPROCESSING = "multiprocessing"  # a standard-library pool of spawned worker processes
    DASK = "dask"  # a Dask cluster: a scheduler's address, or a LocalCluster of worker processes


def parse(name: str, *, file: Path | None = None, field: str = "backend") -> Backend:
    try:
        return Backend(name)
    except ValueError:
        known = ", ".join(b.value for b in Backend)
        raise ConfigError(
            f'unknown backend "{name}"; expected one of: {known}', file=file, field=field
        ) from None


def stop_with_parent(parent: int) -> None:
    """Starts a local worker process (the pools' initializer): it exits as soon as ``parent``, the
    run's process, is gone.

    A killed run must not leave workers playing (and writing) the shards already queued to them. The
    engine releases the GIL, so this thread runs even while a shard is being played; a shard cut
    short leaves only a temporary file, which the next run clears.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="simharness-stop-with-parent", daemon=True).start()


@dataclass(frozen=True)
class Pool:
    """Runs ``fn(*item)`` for every item and yields the results as they finish."""

    imap_unordered: Callable[[Callable[..., Any], Iterable[tuple[Any, ...]]], Iterator[Any]]
    # Whether tasks run where this process's files are (they write shards themselves).
    local: bool
    # Whether tasks run in this process's threads (they may call back into it, e.g. for progress).
    threads: bool = False


def _jobs(jobs: int) -> int:
    """joblib's convention: -1 is every core, -2 all but one, ..."""
    return jobs if jobs > 0 else max(1, (joblib.cpu_count() or 1) + 1 + jobs)


@contextlib.contextmanager
def pool(backend: Backend, jobs: int, scheduler: str | None = None) -> Iterator[Pool]:
    """A pool of ``jobs`` workers (-1: every core, -2 all but one, ...; not 0) of ``backend``;
    ``scheduler`` is a Dask address."""
    stop = {"initializer": stop_with_parent, "initargs": (os.getpid(),)}
    if backend is Backend.DASK:
        with _dask(jobs, scheduler) as p:
            yield p
    elif backend is Backend.MULTIPROCESSING:
        # spawn, not fork: a forked child of a process with polars' and the engine's threads can hang.
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(_jobs(jobs), mp_context=ctx, **stop) as ex:
            yield Pool(_executor_imap(ex, _jobs(jobs)), local=True)
    elif backend is Backend.THREADING:
        # Not joblib's thread pool: its daemon threads may still be inside the engine or a Parquet
        # write when a failed run's interpreter shuts down, which can abort the process instead of
        # exiting with the error's status. These threads are joined: a running shard ends first.
        with ThreadPoolExecutor(_jobs(jobs), thread_name_prefix="simharness-shard") as ex:
            yield Pool(_executor_imap(ex, _jobs(jobs)), local=True, threads=True)
    else:
        with joblib.parallel_config(backend=LokyBackend(**stop), n_jobs=jobs):

            def imap(fn: Callable[..., Any], items: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
                yield from joblib.Parallel(return_as="generator_unordered")(
                    joblib.delayed(fn)(*item) for item in items
                )

            yield Pool(imap, local=True)


def _executor_imap(
    ex: Executor, jobs: int
) -> Callable[[Callable[..., Any], Iterable[tuple[Any, ...]]], Iterator[Any]]:
    """Results as they finish, with at most two tasks per worker submitted at a time: the items are
    a lazy plan (a run of 10^12 games has 10^8 shards), never a list."""

    def imap(fn: Callable[..., Any], items: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
        todo = iter(items)
        running: set[Future[Any]] = set()
        try:
            while True:
                for item in itertools.islice(todo, 2 * jobs - len(running)):
                    running.add(ex.submit(fn, *item))
                if not running:
                    return
                done, running = wait(running, return_when=FIRST_COMPLETED)
                for f in done:
                    yield f.result()
        finally:  # an error or Ctrl-C: the queued shards are not played
            for f in running:
                f.cancel()

    return imap


@contextlib.contextmanager
def _dask(jobs: int, scheduler: str | None) -> Iterator[Pool]:
    try:
        from distributed import Client, LocalCluster
        from distributed import as_completed as dask_completed
    except ImportError:
        raise ConfigError(
            "the dask backend needs Dask's distributed scheduler: pip install 'simharness[dask]'",
            field="backend",
        ) from None
    address = scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    with contextlib.ExitStack() as stack:
        if address is None:
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=_jobs(jobs), threads_per_worker=1, processes=True, dashboard_address=None
                )
            )
            client = stack.enter_context(Client(cluster))
        else:
            try:
                client = stack.enter_context(Client(address, timeout=_CONNECT_TIMEOUT))
            except (OSError, TimeoutError) as e:
                field = "--scheduler" if scheduler else "DASK_SCHEDULER_ADDRESS"
                raise ConfigError(f"cannot reach the Dask scheduler at {address}: {e}", field=field) from None

        def imap(fn: Callable[..., Any], items: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
            # A bounded window over the lazy plan, refilled as shards finish (see _executor_imap);
            # wide enough to keep every worker of the cluster busy.
            todo = iter(items)
            window = 2 * max(len(client.scheduler_info().get("workers", {})), 1) + 2
            running = {client.submit(fn, *item, pure=False) for item in itertools.islice(todo, window)}
            ready = dask_completed(running)
            try:
                for f in ready:
                    running.discard(f)
                    yield f.result()
                    f.release()
                    for item in itertools.islice(todo, 1):
                        nxt = client.submit(fn, *item, pure=False)
                        running.add(nxt)
                        ready.add(nxt)
            finally:  # an error or Ctrl-C: the queued shards are not played
                client.cancel(list(running))

        yield Pool(imap, local=False)

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
import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
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

from simharness import _engine
from simharness.errors import ConfigError, UserError

# How often a local worker process checks that the run that started it is still there.
_PARENT_POLL_S = 0.1
# How long to wait for a TCP connection to a Dask scheduler's address, then for its handshake.
_PROBE_S = 5.0
_CONNECT_TIMEOUT = "20s"
# How long a stopped run waits for the shards in flight to notice: a sub-batch of the slowest game
# takes about a second on a loaded machine; a thread still running then is inside a Python
# strategy's decide() blocked in a C call, which nothing can interrupt (see _stop).
_STOP_S = 5.0
# How often the waiting main thread wakes: a Ctrl-C may be delivered to any thread, and only runs
# its KeyboardInterrupt in the main thread once that thread runs Python code.
_WAKE_S = 0.2
# The name of every thread that plays shards (abandoned() finds those a stop left running).
_SHARD_THREAD = "simharness-shard"


class Cancelled(Exception):
    """A shard in flight stopped because its run stopped (``Pool.cancel``); nothing of it is written."""


class ClusterLost(UserError):
    """The Dask scheduler went away (or cancelled the work) during a run; the shards written so far
    are kept."""


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
    # Set (threads only) when the run stops, by an interrupt or an error: a task should then stop
    # before its next sub-batch (and a Python strategy before its next decision) and write nothing.
    cancel: threading.Event | None = None


def workers(jobs: int) -> int:
    """The workers ``jobs`` asks for, in joblib's convention: -1 is every core, -2 all but one, ..."""
    return jobs if jobs > 0 else max(1, (joblib.cpu_count() or 1) + 1 + jobs)


@contextlib.contextmanager
def pool(backend: Backend, jobs: int, scheduler: str | None = None) -> Iterator[Pool]:
    """A pool of ``jobs`` workers (-1: every core, -2 all but one, ...; not 0) of ``backend``;
    ``scheduler`` is a Dask address."""
    stop: dict[str, Any] = {"initializer": stop_with_parent, "initargs": (os.getpid(),)}
    if backend is Backend.DASK:
        with _dask(jobs, scheduler) as p:
            yield p
    elif backend is Backend.MULTIPROCESSING:
        # spawn, not fork: a forked child of a process with polars' and the engine's threads can hang.
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(workers(jobs), mp_context=ctx, **stop) as ex:
            yield Pool(_executor_imap(ex, workers(jobs)), local=True)
    elif backend is Backend.THREADING:
        with _threads(workers(jobs)) as p:
            yield p
    else:
        with joblib.parallel_config(backend=LokyBackend(**stop), n_jobs=jobs):

            def imap(fn: Callable[..., Any], items: Iterable[tuple[Any, ...]]) -> Iterator[Any]:
                yield from joblib.Parallel(return_as="generator_unordered")(
                    joblib.delayed(fn)(*item) for item in items
                )

            yield Pool(imap, local=True)


@contextlib.contextmanager
def _threads(jobs: int) -> Iterator[Pool]:
    """Threads of this process. Not joblib's thread pool: its daemon threads may still be inside the
    engine or a Parquet write when a failed run's interpreter shuts down, which can abort the
    process instead of exiting with the error's status. These threads are joined, after a stop
    (:func:`_stop`) has made the shards in flight end within seconds, unfinished."""
    cancel = threading.Event()
    ex = ThreadPoolExecutor(jobs, thread_name_prefix=_SHARD_THREAD)
    try:
        yield Pool(_executor_imap(ex, jobs), local=True, threads=True, cancel=cancel)
    except BaseException:
        _stop(cancel, ex)
        raise
    ex.shutdown()


def _stop(cancel: threading.Event, ex: ThreadPoolExecutor) -> None:
    """Stops the shards in flight (an interrupt or an error ends the run): ``cancel`` stops each
    before its next sub-batch or Python decision, and a Python strategy inside ``decide`` gets a
    ``KeyboardInterrupt`` (which ends a pure-Python loop that never returns); the queued ones never
    start. Waits up to ``_STOP_S`` for the threads to end: one still running then is inside a
    ``decide`` blocked in a C call (a sleep, a lock, I/O), which no exception reaches until the call
    returns, and the process must end without joining it (:func:`abandoned`). A second Ctrl-C
    meanwhile is ignored, so that the stop stays bounded."""
    cancel.set()
    ex.shutdown(wait=False, cancel_futures=True)
    with _sigint_ignored():
        _engine.interrupt_python_strategies()
        deadline = time.monotonic() + _STOP_S
        for t in _shard_threads():
            t.join(max(0.0, deadline - time.monotonic()))


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _shard_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(_SHARD_THREAD) and t.is_alive()]


def abandoned() -> bool:
    """Whether a stopped run left shard threads running (see :func:`_stop`): the process cannot exit
    normally (the interpreter joins them), only through ``os._exit``; their shards are discarded."""
    return bool(_shard_threads())


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
                done, running = wait(running, timeout=_WAKE_S, return_when=FIRST_COMPLETED)
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
        from distributed.comm.core import CommClosedError
    except ImportError:
        raise ConfigError(
            "the dask backend needs Dask's distributed scheduler: pip install 'simharness[dask]'",
            field="backend",
        ) from None
    address = scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    field = "--scheduler" if scheduler else "DASK_SCHEDULER_ADDRESS" if address else "backend"
    where = f"the Dask scheduler at {address}" if address else "the local Dask cluster"
    with contextlib.ExitStack() as stack:
        # The client's own log (its reconnection attempts, with tracebacks, once the scheduler is
        # gone) would bury the run's one-paragraph error; a failure reaches the run as an exception.
        stack.enter_context(_quiet_loggers("distributed"))
        if address is None:
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=workers(jobs), threads_per_worker=1, processes=True, dashboard_address=None
                )
            )
            client = stack.enter_context(Client(cluster))
        else:
            _probe(address, field)
            try:
                client = stack.enter_context(Client(address, timeout=_CONNECT_TIMEOUT))
            except (OSError, TimeoutError) as e:
                raise ConfigError(f"cannot reach {where}: {e}", field=field) from None

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
            except CommClosedError:
                raise ClusterLost(f"lost the connection to {where} during the run", field=field) from None
            except CancelledError as e:
                # The run never cancels a shard it waits for: the cluster did, most often because it
                # lost the connection to the scheduler.
                reason = getattr(e, "reason", "unknown")
                if reason == "scheduler-connection-lost":
                    raise ClusterLost(f"lost the connection to {where} during the run", field=field) from None
                raise ClusterLost(f"{where} cancelled the run's shards ({reason})", field=field) from None
            finally:  # an error or Ctrl-C: the queued shards are not played (if the cluster is there)
                with contextlib.suppress(CommClosedError):
                    client.cancel(list(running))

        yield Pool(imap, local=False)


@contextlib.contextmanager
def _quiet_loggers(package: str) -> Iterator[None]:
    """Only critical records from ``package``'s loggers (Dask configures several with their own
    levels and handlers)."""
    names = [n for n in list(logging.root.manager.loggerDict) if n == package or n.startswith(f"{package}.")]
    loggers = [logging.getLogger(n) for n in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _probe(address: str, field: str) -> None:
    """Refuses an address that is not a Dask address, and one of TCP (tcp, tls, ws, wss) where
    nothing accepts a connection, at once: Dask's client would retry it until its timeout."""
    from distributed.comm.addressing import get_address_host_port, parse_address
    from distributed.comm.registry import get_backend

    try:
        scheme, _ = parse_address(address)
        get_backend(scheme)  # an unknown scheme is a ValueError that lists the known ones
        if scheme not in ("tcp", "tls", "ws", "wss"):
            return
        host, port = get_address_host_port(address)
        if not 0 < port < 65536:
            raise ValueError(f"port {port} is not between 1 and 65535")
    except (ValueError, TypeError) as e:
        raise ConfigError(
            f'"{address}" is not a Dask scheduler address ({e}); expected e.g. tcp://HOST:8786', field=field
        ) from None
    try:
        socket.create_connection((host, port), timeout=_PROBE_S).close()
    except OSError as e:
        refused = isinstance(e, ConnectionRefusedError)
        why = "connection refused: nothing listens there" if refused else str(e.strerror or e)
        raise ConfigError(f"cannot reach the Dask scheduler at {address}: {why}", field=field) from None

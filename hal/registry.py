"""The driver registry: drivers by name, devices by URI.

A URI is ``driver`` or ``driver://path`` (``local-task://4``).  Drivers are
registered by name with either a driver object or a ``"module:attribute"``
string that is imported on first use, so optional drivers (opencl, cuda) cost
nothing until asked for and their heavy packages are imported lazily.

A driver object has ``name``, ``availability() -> None | str`` (None when
usable, else the reason it is not), ``enumerate() -> list[dict]`` and
``create_device(path: str, **options) -> Device``.
"""
from __future__ import annotations

import importlib
import os
import threading

from .errors import DeviceUnavailableError, HalError

_BUILTIN = {
    "local-sync": "tensorvm.hal.drivers.local_sync:LocalSyncDriver",
    "local-task": "tensorvm.hal.drivers.local_task:LocalTaskDriver",
    "opencl": "tensorvm.hal.drivers.opencl:OpenCLDriver",
    "cuda": "tensorvm.hal.drivers.cuda:CudaDriver",
}
_registry = dict(_BUILTIN)
_lock = threading.Lock()


def _after_fork_in_child() -> None:
    global _lock
    _lock = threading.Lock()             # a parent thread may have held it at the fork


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def register_driver(name: str, driver) -> None:
    """Register ``driver`` (object, class or "module:attr") under ``name``."""
    with _lock:
        _registry[name] = driver


def registered_drivers() -> list:
    """Every registered driver name, usable here or not."""
    return list(_registry)


def get_driver(name: str):
    """The driver object for ``name``; DeviceUnavailableError if it cannot load."""
    with _lock:
        entry = _registry.get(name)
    if entry is None:
        raise DeviceUnavailableError(f"no HAL driver named '{name}'; registered drivers: "
                                     f"{registered_drivers()}")
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        try:
            entry = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise DeviceUnavailableError(f"HAL driver '{name}' is not installed: {e}") from None
    if isinstance(entry, type):
        entry = entry()
    with _lock:
        _registry[name] = entry
    return entry


def driver_availability(name: str):
    """None when driver ``name`` can create devices here, else the reason."""
    try:
        return get_driver(name).availability()
    except DeviceUnavailableError as e:
        return str(e)
    except Exception as e:  # noqa: BLE001 - a broken optional driver is just unavailable
        return f"HAL driver '{name}' failed to initialise: {type(e).__name__}: {e}"


def available_drivers() -> list:
    """Names of the drivers that can create a device on this machine."""
    return [n for n in registered_drivers() if driver_availability(n) is None]


def parse_uri(uri: str):
    """``"local-task://4"`` -> ``("local-task", "4")``."""
    if not isinstance(uri, str) or not uri:
        raise HalError(f"device URI must be a non-empty string, got {uri!r}")
    name, sep, path = uri.partition("://")
    return name, path


def create_device(uri: str, **options):
    """Create a device from a URI; DeviceUnavailableError says why it can't."""
    name, path = parse_uri(uri)
    reason = driver_availability(name)
    if reason is not None:
        raise DeviceUnavailableError(f"cannot create device '{uri}': {reason} "
                                     f"(available drivers: {available_drivers()})")
    return get_driver(name).create_device(path, **options)

"""``python -m tensorvm`` / ``tensorvm-devices``: every HAL driver, whether it
can run here, and why not when it cannot.

    $ python -m tensorvm
    local-task  available    local-task     CPU, 2 workers (local-task://N to choose)
    cuda        unavailable  the NVIDIA driver library libcuda.so.1 is not installed ...

``--json`` prints the same as a list of ``{"driver", "available", "reason",
"devices": [{"uri", "name", "description"}]}`` for tools.
"""
from __future__ import annotations

import argparse
import json
import sys


def survey() -> list:
    """One entry per registered driver: availability, reason, devices (URIs)."""
    from tensorvm.hal.registry import driver_availability, get_driver, registered_drivers
    out = []
    for name in registered_drivers():
        reason = driver_availability(name)
        devices = []
        if reason is None:
            try:
                found = get_driver(name).enumerate()
            except Exception as e:  # noqa: BLE001 - enumeration failing is a reason too
                reason = f"enumerating devices failed: {type(e).__name__}: {e}"
                found = []
            for d in found:
                path = d.get("path", "")
                devices.append({"uri": f"{name}://{path}" if path else name,
                                "name": d.get("name", name),
                                "description": d.get("description", "")})
            if reason is None and not devices:
                reason = "the driver loads but finds no device"
        out.append({"driver": name, "available": reason is None, "reason": reason,
                    "devices": devices})
    return out


def render(entries) -> str:
    """The survey as aligned text lines."""
    width = max((len(e["driver"]) for e in entries), default=6)
    uri_w = max((len(d["uri"]) for e in entries for d in e["devices"]), default=6)
    lines = []
    for e in entries:
        if not e["available"]:
            lines.append(f"{e['driver']:<{width}}  unavailable  {e['reason']}")
            continue
        for i, d in enumerate(e["devices"]):
            head = e["driver"] if i == 0 else ""
            lines.append(f"{head:<{width}}  available    {d['uri']:<{uri_w}}  {d['description']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tensorvm", description=__doc__.split("\n\n")[0])
    p.add_argument("--json", action="store_true", help="print the survey as JSON")
    args = p.parse_args(argv)
    entries = survey()
    if args.json:
        print(json.dumps(entries, indent=2))
    else:
        from importlib.metadata import PackageNotFoundError, version
        try:
            print(f"tensorvm {version('tensorvm')}: HAL drivers on this machine")
        except PackageNotFoundError:
            print("tensorvm (not installed as a package): HAL drivers on this machine")
        print(render(entries))
    return 0 if any(e["available"] for e in entries) else 1


if __name__ == "__main__":
    sys.exit(main())

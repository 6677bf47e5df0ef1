"""``python -m tensorvm``: the HAL drivers and devices on this machine, with
the reason for each one that is unavailable (runtime/cli/devices.py)."""
import sys

from tensorvm.runtime.cli.devices import main

sys.exit(main())

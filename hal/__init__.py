"""Hardware abstraction layer: drivers, devices, buffers, queues."""

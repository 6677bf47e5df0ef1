"""tensorvm runtime: VM, native modules, user API, CLIs."""

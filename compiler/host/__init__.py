"""compiler/host: the host program -- VM bytecode emitters (vm_host, host_program,
host_control, ...), native loops compiled to C, donation and the slab;
the kernel renderers live in compiler/codegen/."""

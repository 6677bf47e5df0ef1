"""Channel providers (transports): in-process threads and MPI ranks."""

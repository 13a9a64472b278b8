#ifndef MALLOC_STATISTICS_H
#define MALLOC_STATISTICS_H

/// Bytes the process currently has allocated through malloc, or -1 where the platform does not say.
long long malloc_statistics_allocated_bytes(void);

/// Asks the allocator to keep memory it was given back rather than return it to the system
/// (glibc: no trimming of the heap's top, no separate mappings for large blocks). Benchmarks
/// that allocate and free megabytes per timed run then measure their code, not the kernel's
/// page faults on fresh memory. Returns 1 where it applied, 0 where the platform has no such knob.
int malloc_statistics_keep_freed_memory(void);

#endif

#ifndef MALLOC_STATISTICS_H
#define MALLOC_STATISTICS_H

/// Bytes the process currently has allocated through malloc, or -1 where the platform does not say.
long long malloc_statistics_allocated_bytes(void);

#endif

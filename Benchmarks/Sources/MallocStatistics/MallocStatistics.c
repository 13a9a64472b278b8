#include "MallocStatistics.h"
#include <stdlib.h> /* defines __GLIBC__ where glibc is the C library */

#if defined(__APPLE__)
#include <malloc/malloc.h>

long long malloc_statistics_allocated_bytes(void) {
    malloc_statistics_t statistics;
    malloc_zone_statistics(NULL, &statistics);
    return (long long)statistics.size_in_use;
}

int malloc_statistics_keep_freed_memory(void) {
    return 0;
}

#elif defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

long long malloc_statistics_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    // Small blocks in the arenas, plus blocks malloc mapped on their own (a large table).
    return (long long)(info.uordblks + info.hblkhd);
}

int malloc_statistics_keep_freed_memory(void) {
    // Never give the top of the heap back; serve blocks up to 64 MiB from the heap, not from
    // mappings of their own that are unmapped when freed.
    int trim = mallopt(M_TRIM_THRESHOLD, 1 << 30);
    int mmap = mallopt(M_MMAP_THRESHOLD, 64 << 20);
    return trim == 1 && mmap == 1;
}

#else

long long malloc_statistics_allocated_bytes(void) {
    return -1;
}

int malloc_statistics_keep_freed_memory(void) {
    return 0;
}

#endif

#ifndef CPASSMINT_MALLOC_SHIM_H
#define CPASSMINT_MALLOC_SHIM_H
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif

/* Keeps glibc from mapping and unmapping fresh pages for every 100-300 KB buffer a pass allocates (zip fragments,
   archive copies): those page faults cost more than the copies. Process-wide. Returns 1 when both settings were
   applied, 0 otherwise (and where the C library has no mallopt). */
static inline int cpassmint_keep_pass_sized_buffers_off_mmap(void) {
#ifdef M_MMAP_THRESHOLD
    return mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024) == 1 && mallopt(M_TRIM_THRESHOLD, 32 * 1024 * 1024) == 1;
#else
    return 0;
#endif
}

#endif

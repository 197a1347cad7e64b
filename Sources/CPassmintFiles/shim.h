#ifndef CPASSMINT_FILES_SHIM_H
#define CPASSMINT_FILES_SHIM_H
#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>
#endif

/* Starts writing a file's dirty pages to disk, `length` bytes from `offset` (0: to the end of the file), and returns
   without waiting for them (Linux: sync_file_range with SYNC_FILE_RANGE_WRITE, called through syscall because glibc
   declares it only under _GNU_SOURCE), so that the sync ending a batch finds little left to write. Returns 0, or -1
   with errno set; where there is no such call, 0 and nothing done. */
static inline int cpassmint_start_writeback(int fd, long long offset, long long length) {
#if defined(__linux__) && defined(SYS_sync_file_range)
    return (int)syscall(SYS_sync_file_range, fd, offset, length, 2u /* SYNC_FILE_RANGE_WRITE */);
#else
    (void)fd;
    (void)offset;
    (void)length;
    return 0;
#endif
}

#endif

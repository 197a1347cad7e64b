#ifndef CPASSMINT_ZIP_SHIM_H
#define CPASSMINT_ZIP_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <zip.h>
#include <zlib.h>

/* Raw deflate (the data of a ZIP entry) of `input` at `level` with a window of 2^window_bits bytes and zlib's memory
   level `mem_level`. Returns the compressed length, or 0 when the output does not fit `capacity` or is not smaller
   than the input. *crc receives the input's CRC-32. */
static inline size_t cpassmint_deflate(const unsigned char *input, size_t length, unsigned char *output, size_t capacity,
                                       int level, int window_bits, int mem_level, unsigned long *crc) {
    *crc = crc32(crc32(0L, Z_NULL, 0), input, (uInt)length);
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, level, Z_DEFLATED, -window_bits, mem_level, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    size_t produced = stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END && produced < length ? produced : 0;
}

/* A small buffer (pass.json, manifest.json) with a 4 KB window: the same format any inflater reads, without the 256 KB
   of state a default zlib stream allocates (and the page faults that costs per archive). */
static inline size_t cpassmint_deflate_small(const unsigned char *input, size_t length, unsigned char *output, size_t capacity,
                                             int level, unsigned long *crc) {
    return cpassmint_deflate(input, length, output, capacity, level, 12, 4, crc);
}

/* The CRC-32 of a buffer, and of two buffers one after the other from their CRCs (the second's length given). */
static inline unsigned long cpassmint_crc32(const unsigned char *input, size_t length) {
    return crc32(crc32(0L, Z_NULL, 0), input, (uInt)length);
}
static inline unsigned long cpassmint_crc32_combine(unsigned long first, unsigned long second, size_t second_length) {
    return crc32_combine(first, second, (z_off_t)second_length);
}

#endif

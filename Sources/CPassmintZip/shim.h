#ifndef CPASSMINT_ZIP_SHIM_H
#define CPASSMINT_ZIP_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <zip.h>
#include <zlib.h>

/* Raw deflate of a small buffer (pass.json, manifest.json) at `level` with a 4 KB window: the same format any inflater
   reads, without the 256 KB of state a default zlib stream allocates (and the page faults that costs per archive).
   Returns the compressed length, or 0 when the output does not fit or is not smaller. *crc receives the CRC-32. */
static inline size_t cpassmint_deflate_small(const unsigned char *input, size_t length, unsigned char *output, size_t capacity,
                                             int level, unsigned long *crc) {
    *crc = crc32(crc32(0L, Z_NULL, 0), input, (uInt)length);
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, level, Z_DEFLATED, -12, 4, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    size_t produced = stream.total_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END && produced < length ? produced : 0;
}

/* The CRC-32 of a buffer, and of two buffers one after the other from their CRCs (the second's length given). */
static inline unsigned long cpassmint_crc32(const unsigned char *input, size_t length) {
    return crc32(crc32(0L, Z_NULL, 0), input, (uInt)length);
}
static inline unsigned long cpassmint_crc32_combine(unsigned long first, unsigned long second, size_t second_length) {
    return crc32_combine(first, second, (z_off_t)second_length);
}

/* A libzip source over data that is already compressed, with its CRC and sizes known. libzip copies such data into
   the archive as it is: no CRC pass and no recompression per archive. The data must stay valid until zip_close. */
typedef struct {
    const unsigned char *data;
    zip_uint64_t compressed_size;
    zip_uint64_t size;
    zip_uint32_t crc;
    zip_int32_t method;
    zip_uint64_t offset;
    zip_error_t error;
} cpassmint_precompressed_state;

static zip_int64_t cpassmint_precompressed_callback(void *userdata, void *buffer, zip_uint64_t length, zip_source_cmd_t command) {
    cpassmint_precompressed_state *state = (cpassmint_precompressed_state *)userdata;
    switch (command) {
    case ZIP_SOURCE_OPEN:
        state->offset = 0;
        return 0;
    case ZIP_SOURCE_READ: {
        zip_uint64_t left = state->compressed_size - state->offset;
        zip_uint64_t n = length < left ? length : left;
        memcpy(buffer, state->data + state->offset, (size_t)n);
        state->offset += n;
        return (zip_int64_t)n;
    }
    case ZIP_SOURCE_CLOSE:
        return 0;
    case ZIP_SOURCE_STAT: {
        zip_stat_t *st = (zip_stat_t *)buffer;
        zip_stat_init(st);
        st->size = state->size;
        st->comp_size = state->compressed_size;
        st->comp_method = (zip_uint16_t)state->method;
        st->crc = state->crc;
        st->encryption_method = ZIP_EM_NONE;
        st->valid = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD | ZIP_STAT_CRC | ZIP_STAT_ENCRYPTION_METHOD;
        return sizeof(*st);
    }
    case ZIP_SOURCE_ERROR:
        return zip_error_to_data(&state->error, buffer, length);
    case ZIP_SOURCE_FREE:
        zip_error_fini(&state->error);
        free(state);
        return 0;
    case ZIP_SOURCE_SUPPORTS:
        return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                                              ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, -1);
    default:
        zip_error_set(&state->error, ZIP_ER_INVAL, 0);
        return -1;
    }
}

static inline zip_source_t *cpassmint_precompressed_source(zip_t *archive, const unsigned char *data, zip_uint64_t compressed_size,
                                                           zip_uint64_t size, zip_uint32_t crc, zip_int32_t method) {
    cpassmint_precompressed_state *state = (cpassmint_precompressed_state *)malloc(sizeof(cpassmint_precompressed_state));
    if (state == NULL) return NULL;
    state->data = data;
    state->compressed_size = compressed_size;
    state->size = size;
    state->crc = crc;
    state->method = method;
    state->offset = 0;
    zip_error_init(&state->error);
    zip_source_t *source = zip_source_function(archive, cpassmint_precompressed_callback, state);
    if (source == NULL) {
        zip_error_fini(&state->error);
        free(state);
    }
    return source;
}

#endif

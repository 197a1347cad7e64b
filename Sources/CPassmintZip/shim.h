#ifndef CPASSMINT_ZIP_SHIM_H
#define CPASSMINT_ZIP_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <zip.h>

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

#ifndef KFEED_JPEG_SHIM_H
#define KFEED_JPEG_SHIM_H
// libjpeg-turbo's libjpeg API, for decoding a few rows at a time (TurboJPEG 2.x decodes only whole images).
//
// libjpeg reports errors by calling `error_exit`, which must not return: each call below sets a jump point,
// and the error manager jumps back to it, so a failure becomes a non-zero return with libjpeg's message. No
// Swift frame is ever between the jump point and the jump. Warnings (corrupt data libjpeg would paper over,
// a premature end of data) are failures too, as with TurboJPEG's TJFLAG_STOPONWARNING; more than 500 scans
// fail as with TJFLAG_LIMITSCANS. libjpeg.so.62 is opened with dlopen on first use, like libcurl. No other logic.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include "../CKFeedLazy/lazy.h"
#include <jpeglib.h>

static inline void *kfeed_jpeg_library(void) {
    static void *handle;
    return kfeed_lazy_library(&handle, "libjpeg.so.62");
}

#define KFEED_JPEG_SYMBOL(name) KFEED_LAZY_SYMBOL(kfeed_jpeg_library(), name)

/// One decompression: libjpeg's state, its error manager and the jump point of the call in progress.
typedef struct kfeed_jpeg_reader {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    int created;
    char message[JMSG_LENGTH_MAX];
} kfeed_jpeg_reader;

static inline void kfeed_jpeg_fail(j_common_ptr info) {
    kfeed_jpeg_reader *reader = (kfeed_jpeg_reader *)info->client_data;
    info->err->format_message(info, reader->message);
    longjmp(reader->jump, 1);
}

static inline void kfeed_jpeg_emit(j_common_ptr info, int level) {
    if (level < 0) kfeed_jpeg_fail(info);
}

static inline void kfeed_jpeg_progress(j_common_ptr info) {
    j_decompress_ptr decompress = (j_decompress_ptr)info;
    kfeed_jpeg_reader *reader = (kfeed_jpeg_reader *)info->client_data;
    if (decompress->is_decompressor && decompress->input_scan_number > 500) {
        snprintf(reader->message, sizeof reader->message, "Progressive JPEG image has more than 500 scans");
        longjmp(reader->jump, 1);
    }
}

/// A reader, or NULL when libjpeg.so.62 cannot be loaded or memory is short. Free with kfeed_jpeg_destroy.
static inline kfeed_jpeg_reader *kfeed_jpeg_create(void) {
    if (!kfeed_jpeg_library()) return NULL;
    kfeed_jpeg_reader *reader = (kfeed_jpeg_reader *)calloc(1, sizeof(kfeed_jpeg_reader));
    if (!reader) return NULL;
    reader->info.err = KFEED_JPEG_SYMBOL(jpeg_std_error)(&reader->errors);
    reader->errors.error_exit = kfeed_jpeg_fail;
    reader->errors.emit_message = kfeed_jpeg_emit;
    reader->info.client_data = reader;
    if (setjmp(reader->jump)) {
        free(reader);
        return NULL;
    }
    KFEED_JPEG_SYMBOL(jpeg_CreateDecompress)(&reader->info, JPEG_LIB_VERSION, sizeof(struct jpeg_decompress_struct));
    reader->created = 1;
    reader->progress.progress_monitor = kfeed_jpeg_progress;
    reader->info.progress = &reader->progress;
    return reader;
}

static inline void kfeed_jpeg_destroy(kfeed_jpeg_reader *reader) {
    if (!reader) return;
    if (reader->created) KFEED_JPEG_SYMBOL(jpeg_destroy_decompress)(&reader->info);
    free(reader);
}

/// Reads the headers of `size` bytes at `data` (which must outlive the reader) and starts decompressing to RGBX
/// at `eighths`/8 of the full size. Sets the output size. 0, or -1 with `message` set.
static inline int kfeed_jpeg_start(kfeed_jpeg_reader *reader, const unsigned char *data, unsigned long size,
                                   unsigned eighths, unsigned *width, unsigned *height) {
    if (setjmp(reader->jump)) return -1;
    KFEED_JPEG_SYMBOL(jpeg_mem_src)(&reader->info, data, size);
    KFEED_JPEG_SYMBOL(jpeg_read_header)(&reader->info, TRUE);
    reader->info.out_color_space = JCS_EXT_RGBX;
    reader->info.scale_num = eighths;
    reader->info.scale_denom = 8;
    KFEED_JPEG_SYMBOL(jpeg_start_decompress)(&reader->info);
    *width = reader->info.output_width;
    *height = reader->info.output_height;
    return 0;
}

/// Decodes only columns [*xoffset, *xoffset + *width), widened by libjpeg to whole iMCUs (both are updated).
static inline int kfeed_jpeg_crop(kfeed_jpeg_reader *reader, unsigned *xoffset, unsigned *width) {
    if (setjmp(reader->jump)) return -1;
    JDIMENSION offset = *xoffset, span = *width;
    KFEED_JPEG_SYMBOL(jpeg_crop_scanline)(&reader->info, &offset, &span);
    *xoffset = offset;
    *width = span;
    return 0;
}

/// Skips `lines` rows without producing them.
static inline int kfeed_jpeg_skip(kfeed_jpeg_reader *reader, unsigned lines) {
    if (setjmp(reader->jump)) return -1;
    KFEED_JPEG_SYMBOL(jpeg_skip_scanlines)(&reader->info, lines);
    return 0;
}

/// Reads up to `count` rows into `rows` (row pointers); sets how many were read (at least one before the end).
static inline int kfeed_jpeg_read(kfeed_jpeg_reader *reader, unsigned char **rows, unsigned count, unsigned *read) {
    if (setjmp(reader->jump)) return -1;
    *read = KFEED_JPEG_SYMBOL(jpeg_read_scanlines)(&reader->info, rows, count);
    return 0;
}

/// The next row `kfeed_jpeg_read` returns, and the most rows one call returns at once.
static inline unsigned kfeed_jpeg_next_row(const kfeed_jpeg_reader *reader) { return reader->info.output_scanline; }
static inline int kfeed_jpeg_rows_per_read(const kfeed_jpeg_reader *reader) { return reader->info.rec_outbuf_height; }
#endif

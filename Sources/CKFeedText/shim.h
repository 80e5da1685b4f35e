#ifndef KFEED_TEXT_SHIM_H
#define KFEED_TEXT_SHIM_H
// The font stack for Swift: fontconfig finds fonts, HarfBuzz shapes, FreeType rasterises. Every call is resolved
// on first use, like CKFeedCurl's shim.
//
// The three libraries are opened with dlopen when the first caption is drawn, not linked: a cron run that renders
// nothing never loads them (fontconfig alone pulls in expat and reads its configuration in constructors of its
// dependencies). Each wrapper caches its symbol in an atomic pointer. No other logic here.
//
// FreeType's headers are not included: they live in /usr/include/freetype2, off the default include path, and
// both ways of adding it to every module that imports KFeed are out (unsafeFlags keep other packages from
// depending on KFeed by version; `pkgConfig: "freetype2"` links libfreetype, a DT_NEEDED at every start). The
// few FreeType declarations kfeed uses are below instead, from FreeType 2's public headers (the ABI of
// libfreetype.so.6, stable since 2.0).
#include <fontconfig/fontconfig.h>
#include <harfbuzz/hb.h>
#include "../CKFeedLazy/lazy.h"

// FreeType (freetype.h, ftimage.h). Faces, slots and sizes are opaque: kfeed reads them only through the heads
// below, the leading fields of FT_FaceRec, FT_GlyphSlotRec and FT_SizeRec up to the last one it needs, and only
// through pointers FreeType allocated.
typedef int FT_Error;
typedef struct FT_LibraryRec_ *FT_Library;
typedef struct FT_FaceRec_ *FT_Face;
typedef struct FT_GlyphSlotRec_ *FT_GlyphSlot;
FT_Error FT_Init_FreeType(FT_Library *alibrary);
FT_Error FT_Done_FreeType(FT_Library library);
FT_Error FT_New_Face(FT_Library library, const char *filepathname, long face_index, FT_Face *aface);
FT_Error FT_Done_Face(FT_Face face);
FT_Error FT_Set_Pixel_Sizes(FT_Face face, unsigned int pixel_width, unsigned int pixel_height);
FT_Error FT_Select_Size(FT_Face face, int strike_index);
FT_Error FT_Load_Glyph(FT_Face face, unsigned int glyph_index, int load_flags);
FT_Error FT_Render_Glyph(FT_GlyphSlot slot, unsigned int render_mode);  // FT_Render_Mode: an enum of unsigned values

enum {
    KFEED_FT_LOAD_NO_HINTING = 1 << 1,
    KFEED_FT_LOAD_NO_BITMAP = 1 << 3,
    KFEED_FT_LOAD_COLOR = 1 << 20,
    KFEED_FT_FACE_FLAG_SCALABLE = 1 << 0,
    KFEED_FT_RENDER_MODE_NORMAL = 0,
};
/// FT_Pixel_Mode.
enum kfeed_ft_pixel_mode { KFEED_FT_PIXEL_MODE_GRAY = 2, KFEED_FT_PIXEL_MODE_BGRA = 7 };

/// FT_Generic.
struct kfeed_ft_generic { void *data; void (*finalizer)(void *); };
/// FT_Bitmap, whole.
struct kfeed_ft_bitmap {
    unsigned int rows;
    unsigned int width;
    int pitch;
    unsigned char *buffer;
    unsigned short num_grays;
    unsigned char pixel_mode;
    unsigned char palette_mode;
    void *palette;
};
/// FT_SizeRec up to metrics.y_ppem.
struct kfeed_ft_size_head {
    FT_Face face;
    struct kfeed_ft_generic generic;
    unsigned short x_ppem;
    unsigned short y_ppem;
};
/// FT_GlyphSlotRec up to bitmap_top.
struct kfeed_ft_glyph_slot_head {
    FT_Library library;
    FT_Face face;
    FT_GlyphSlot next;
    unsigned int glyph_index;
    struct kfeed_ft_generic generic;
    long metrics[8];             // FT_Glyph_Metrics: eight FT_Pos
    long linear_hori_advance;    // FT_Fixed
    long linear_vert_advance;    // FT_Fixed
    long advance[2];             // FT_Vector
    unsigned int format;         // FT_Glyph_Format, an enum of four-character tags
    struct kfeed_ft_bitmap bitmap;
    int bitmap_left;
    int bitmap_top;
};
/// FT_FaceRec up to size.
struct kfeed_ft_face_head {
    long num_faces;
    long face_index;
    long face_flags;
    long style_flags;
    long num_glyphs;
    char *family_name;
    char *style_name;
    int num_fixed_sizes;
    void *available_sizes;
    int num_charmaps;
    void *charmaps;
    struct kfeed_ft_generic generic;
    long bbox[4];                // FT_BBox: four FT_Pos
    unsigned short units_per_em;
    short ascender;
    short descender;
    short height;
    short max_advance_width;
    short max_advance_height;
    short underline_position;
    short underline_thickness;
    struct kfeed_ft_glyph_slot_head *glyph;
    struct kfeed_ft_size_head *size;
};

enum kfeed_text_library { KFEED_FONTCONFIG = 0, KFEED_FREETYPE = 1, KFEED_HARFBUZZ = 2 };

static inline void *kfeed_text_library(enum kfeed_text_library which) {
    static void *handles[3];
    static const char *const names[3] = {"libfontconfig.so.1", "libfreetype.so.6", "libharfbuzz.so.0"};
    return kfeed_lazy_library(&handles[which], names[which]);
}

/// 1 when the library can be loaded; call before any of its functions below.
static inline int kfeed_text_available(enum kfeed_text_library which) { return kfeed_text_library(which) != 0; }

#define KFEED_TEXT_SYMBOL(library, name) KFEED_LAZY_SYMBOL(kfeed_text_library(library), name)
#define KFEED_FC(name) KFEED_TEXT_SYMBOL(KFEED_FONTCONFIG, name)
#define KFEED_FT(name) KFEED_TEXT_SYMBOL(KFEED_FREETYPE, name)
#define KFEED_HB(name) KFEED_TEXT_SYMBOL(KFEED_HARFBUZZ, name)

// fontconfig
static inline FcConfig *kfeed_fc_init_load_config_and_fonts(void) { return KFEED_FC(FcInitLoadConfigAndFonts)(); }
static inline FcPattern *kfeed_fc_name_parse(const char *name) { return KFEED_FC(FcNameParse)((const FcChar8 *)name); }
static inline FcBool kfeed_fc_config_substitute(FcConfig *config, FcPattern *pattern) { return KFEED_FC(FcConfigSubstitute)(config, pattern, FcMatchPattern); }
static inline void kfeed_fc_default_substitute(FcPattern *pattern) { KFEED_FC(FcDefaultSubstitute)(pattern); }
static inline FcFontSet *kfeed_fc_font_sort(FcConfig *config, FcPattern *pattern, FcBool trim, FcResult *result) { return KFEED_FC(FcFontSort)(config, pattern, trim, 0, result); }
static inline void kfeed_fc_font_set_destroy(FcFontSet *set) { KFEED_FC(FcFontSetDestroy)(set); }
static inline void kfeed_fc_pattern_destroy(FcPattern *pattern) { KFEED_FC(FcPatternDestroy)(pattern); }
static inline FcResult kfeed_fc_pattern_get_file(const FcPattern *pattern, const char **file) { return KFEED_FC(FcPatternGetString)(pattern, FC_FILE, 0, (FcChar8 **)file); }
static inline FcResult kfeed_fc_pattern_get_charset(FcPattern *pattern, FcCharSet **charset) { return KFEED_FC(FcPatternGetCharSet)(pattern, FC_CHARSET, 0, charset); }
static inline FcBool kfeed_fc_charset_has_char(const FcCharSet *charset, FcChar32 character) { return KFEED_FC(FcCharSetHasChar)(charset, character); }
static inline FcResult kfeed_fc_pattern_get_index(const FcPattern *pattern, int *index) { return KFEED_FC(FcPatternGetInteger)(pattern, FC_INDEX, 0, index); }

// FreeType
static inline FT_Error kfeed_ft_init(FT_Library *library) { return KFEED_FT(FT_Init_FreeType)(library); }
static inline FT_Error kfeed_ft_done(FT_Library library) { return KFEED_FT(FT_Done_FreeType)(library); }
static inline FT_Error kfeed_ft_new_face(FT_Library library, const char *path, long index, FT_Face *face) { return KFEED_FT(FT_New_Face)(library, path, index, face); }
static inline FT_Error kfeed_ft_done_face(FT_Face face) { return KFEED_FT(FT_Done_Face)(face); }
static inline FT_Error kfeed_ft_set_pixel_sizes(FT_Face face, unsigned int width, unsigned int height) { return KFEED_FT(FT_Set_Pixel_Sizes)(face, width, height); }
static inline FT_Error kfeed_ft_select_size(FT_Face face, int strike) { return KFEED_FT(FT_Select_Size)(face, strike); }
static inline FT_Error kfeed_ft_load_glyph(FT_Face face, unsigned int glyph, int flags) { return KFEED_FT(FT_Load_Glyph)(face, glyph, flags); }
/// Renders the glyph in `face`'s slot (FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL)).
static inline FT_Error kfeed_ft_render_glyph(FT_Face face) { return KFEED_FT(FT_Render_Glyph)((FT_GlyphSlot)((struct kfeed_ft_face_head *)face)->glyph, KFEED_FT_RENDER_MODE_NORMAL); }
static inline int kfeed_ft_load_outline_flags(void) { return KFEED_FT_LOAD_NO_HINTING | KFEED_FT_LOAD_NO_BITMAP; }
static inline int kfeed_ft_load_color_flags(void) { return KFEED_FT_LOAD_COLOR; }
static inline int kfeed_ft_face_is_scalable(FT_Face face) { return (((const struct kfeed_ft_face_head *)face)->face_flags & KFEED_FT_FACE_FLAG_SCALABLE) ? 1 : 0; }
static inline int kfeed_ft_face_num_fixed_sizes(FT_Face face) { return ((const struct kfeed_ft_face_head *)face)->num_fixed_sizes; }
/// The slot of `face`: the glyph last loaded or rendered.
static inline const struct kfeed_ft_glyph_slot_head *kfeed_ft_face_glyph(FT_Face face) { return ((const struct kfeed_ft_face_head *)face)->glyph; }
/// The vertical pixels per em of `face`'s active size (the selected strike of a bitmap font); 0 without a size.
static inline unsigned short kfeed_ft_face_y_ppem(FT_Face face) {
    const struct kfeed_ft_size_head *size = ((const struct kfeed_ft_face_head *)face)->size;
    return size ? size->y_ppem : 0;
}

// HarfBuzz
static inline hb_blob_t *kfeed_hb_blob_create_from_file(const char *path) { return KFEED_HB(hb_blob_create_from_file_or_fail)(path); }
static inline void kfeed_hb_blob_destroy(hb_blob_t *blob) { KFEED_HB(hb_blob_destroy)(blob); }
static inline hb_face_t *kfeed_hb_face_create(hb_blob_t *blob, unsigned int index) { return KFEED_HB(hb_face_create)(blob, index); }
static inline void kfeed_hb_face_destroy(hb_face_t *face) { KFEED_HB(hb_face_destroy)(face); }
static inline unsigned int kfeed_hb_face_get_upem(const hb_face_t *face) { return KFEED_HB(hb_face_get_upem)(face); }
static inline hb_font_t *kfeed_hb_font_create(hb_face_t *face) { return KFEED_HB(hb_font_create)(face); }
static inline void kfeed_hb_font_destroy(hb_font_t *font) { KFEED_HB(hb_font_destroy)(font); }
static inline void kfeed_hb_font_set_scale(hb_font_t *font, int x, int y) { KFEED_HB(hb_font_set_scale)(font, x, y); }
static inline hb_buffer_t *kfeed_hb_buffer_create(void) { return KFEED_HB(hb_buffer_create)(); }
static inline void kfeed_hb_buffer_destroy(hb_buffer_t *buffer) { KFEED_HB(hb_buffer_destroy)(buffer); }
static inline hb_bool_t kfeed_hb_buffer_allocation_successful(hb_buffer_t *buffer) { return KFEED_HB(hb_buffer_allocation_successful)(buffer); }
static inline void kfeed_hb_buffer_add_utf8(hb_buffer_t *buffer, const char *text, int length) { KFEED_HB(hb_buffer_add_utf8)(buffer, text, length, 0, length); }
static inline void kfeed_hb_buffer_set_direction(hb_buffer_t *buffer, int isRightToLeft) { KFEED_HB(hb_buffer_set_direction)(buffer, isRightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR); }
static inline void kfeed_hb_buffer_guess_segment_properties(hb_buffer_t *buffer) { KFEED_HB(hb_buffer_guess_segment_properties)(buffer); }
static inline hb_direction_t kfeed_hb_buffer_get_direction(hb_buffer_t *buffer) { return KFEED_HB(hb_buffer_get_direction)(buffer); }
static inline void kfeed_hb_shape(hb_font_t *font, hb_buffer_t *buffer) { KFEED_HB(hb_shape)(font, buffer, 0, 0); }
static inline hb_glyph_info_t *kfeed_hb_buffer_get_glyph_infos(hb_buffer_t *buffer, unsigned int *length) { return KFEED_HB(hb_buffer_get_glyph_infos)(buffer, length); }
static inline hb_glyph_position_t *kfeed_hb_buffer_get_glyph_positions(hb_buffer_t *buffer, unsigned int *length) { return KFEED_HB(hb_buffer_get_glyph_positions)(buffer, length); }
#endif

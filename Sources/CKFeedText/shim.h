#ifndef KFEED_TEXT_SHIM_H
#define KFEED_TEXT_SHIM_H
// The font stack for Swift: fontconfig finds fonts, HarfBuzz shapes, FreeType rasterises. Every call is resolved
// on first use, like CKFeedCurl's shim.
//
// The three libraries are opened with dlopen when the first caption is drawn, not linked: a cron run that renders
// nothing never loads them (fontconfig alone pulls in expat and reads its configuration in constructors of its
// dependencies). Each wrapper caches its symbol in an atomic pointer. FreeType's headers live in
// /usr/include/freetype2, which the KFeed target adds to the C include path. No other logic here.
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <harfbuzz/hb.h>
#include <dlfcn.h>

enum kfeed_text_library { KFEED_FONTCONFIG = 0, KFEED_FREETYPE = 1, KFEED_HARFBUZZ = 2 };

static inline void *kfeed_text_library(enum kfeed_text_library which) {
    static void *handles[3];
    static const char *const names[3] = {"libfontconfig.so.1", "libfreetype.so.6", "libharfbuzz.so.0"};
    void *loaded = __atomic_load_n(&handles[which], __ATOMIC_ACQUIRE);
    if (!loaded) {
        loaded = dlopen(names[which], RTLD_NOW | RTLD_LOCAL);
        __atomic_store_n(&handles[which], loaded, __ATOMIC_RELEASE);
    }
    return loaded;
}

/// 1 when the library can be loaded; call before any of its functions below.
static inline int kfeed_text_available(enum kfeed_text_library which) { return kfeed_text_library(which) != 0; }

#define KFEED_TEXT_SYMBOL(library, name)                                                         \
    ({                                                                                           \
        static __typeof__(&name) cached;                                                         \
        __typeof__(&name) symbol = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);                   \
        if (!symbol) {                                                                           \
            symbol = (__typeof__(&name))dlsym(kfeed_text_library(library), #name);               \
            __atomic_store_n(&cached, symbol, __ATOMIC_RELEASE);                                 \
        }                                                                                        \
        symbol;                                                                                  \
    })
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
static inline FT_UInt kfeed_ft_get_char_index(FT_Face face, FT_ULong code) { return KFEED_FT(FT_Get_Char_Index)(face, code); }
static inline FT_Error kfeed_ft_load_glyph(FT_Face face, FT_UInt glyph, FT_Int32 flags) { return KFEED_FT(FT_Load_Glyph)(face, glyph, flags); }
static inline FT_Error kfeed_ft_render_glyph(FT_GlyphSlot slot) { return KFEED_FT(FT_Render_Glyph)(slot, FT_RENDER_MODE_NORMAL); }
/// FT_LOAD_* and FT_FACE_FLAG_* are function-like or long macros.
static inline FT_Int32 kfeed_ft_load_outline_flags(void) { return FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP; }
static inline FT_Int32 kfeed_ft_load_color_flags(void) { return FT_LOAD_COLOR; }
static inline int kfeed_ft_face_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }
static inline int kfeed_ft_face_has_fixed_sizes(FT_Face face) { return FT_HAS_FIXED_SIZES(face) ? 1 : 0; }
static inline int kfeed_ft_face_has_color(FT_Face face) { return FT_HAS_COLOR(face) ? 1 : 0; }

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

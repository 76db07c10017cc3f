// The vector base64 encoder of CBase64.h. The method is the one Wojciech Muła and Daniel Lemire
// describe ("Faster Base64 Encoding and Decoding Using AVX2 Instructions", ACM TOW 2018): each
// 3-byte group is spread over a 32-bit lane as bytes 1 0 2 1, the four 6-bit indices are moved
// to the bottom of each byte with two 16-bit multiplies, and an index becomes its character by
// adding an offset looked up by range. Written here for Archivist.
#include "CBase64.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#include <pthread.h>

// Whether the vector encoder runs here, and its table of escapes: set up once (`setup`).
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;
static int vector_available;
static uint8_t escape_patterns[256][16];
static void make_escape_patterns(void);

static int cpu_runs_avx2(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned int osxsave = 1u << 27, avx = 1u << 28;
    if ((c & (osxsave | avx)) != (osxsave | avx)) return 0;
    // The OS saves the SSE and AVX registers on a switch (XCR0 bits 1 and 2).
    unsigned int low, high;
    __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 6) != 6) return 0;
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 5)) != 0;  // AVX2
}

static void setup(void) {
    vector_available = cpu_runs_avx2();
    if (vector_available) make_escape_patterns();
}

int archivist_base64_vector_available(void) {
    pthread_once(&setup_once, setup);
    return vector_available;
}

// 32 characters of the 24 bytes at `source` (28 readable).
__attribute__((target("avx2"))) static inline __m256i encode_block(const uint8_t *source) {
    // Bytes 0-11 in the low lane, 12-23 in the high one (each load reads 16).
    __m256i in = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)source)),
                                         _mm_loadu_si128((const __m128i *)(source + 12)), 1);
    // Each group a b c as the lane b a c b (little-endian: the 24 bits, with overlap).
    const __m256i spread = _mm256_setr_epi8(1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10,
                                            1, 0, 2, 1, 4, 3, 5, 4, 7, 6, 8, 7, 10, 9, 11, 10);
    in = _mm256_shuffle_epi8(in, spread);
    // Indices 0 and 2 of each lane: shifted down by the high half of a multiply; 1 and 3 up by
    // the low half, into their bytes.
    const __m256i high = _mm256_mulhi_epu16(_mm256_and_si256(in, _mm256_set1_epi32(0x0FC0FC00)), _mm256_set1_epi32(0x04000040));
    const __m256i low = _mm256_mullo_epi16(_mm256_and_si256(in, _mm256_set1_epi32(0x003F03F0)), _mm256_set1_epi32(0x01000010));
    const __m256i indices = _mm256_or_si256(high, low);
    // The offset to add, by range: 0-25 'A', 26-51 'a' - 26, 52-61 '0' - 52, 62 '+' - 62,
    // 63 '/' - 63. Saturating index - 51 gives 0 for 0-51, 1-10 for 52-61, 11 and 12 for 62
    // and 63; 0-25 are then told apart from 26-51 by setting 13.
    __m256i range = _mm256_subs_epu8(indices, _mm256_set1_epi8(51));
    const __m256i below26 = _mm256_cmpgt_epi8(_mm256_set1_epi8(26), indices);
    range = _mm256_or_si256(range, _mm256_and_si256(below26, _mm256_set1_epi8(13)));
    const __m256i offsets = _mm256_setr_epi8(
        'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
        '+' - 62, '/' - 63, 'A', 0, 0,
        'a' - 26, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
        '+' - 62, '/' - 63, 'A', 0, 0);
    return _mm256_add_epi8(_mm256_shuffle_epi8(offsets, range), indices);
}

__attribute__((target("avx2"))) static size_t encode_avx2(const uint8_t *source, size_t count, uint8_t *destination) {
    size_t i = 0;
    uint8_t *d = destination;
    while (count >= 28 && i <= count - 28) {
        _mm256_storeu_si256((__m256i *)d, encode_block(source + i));
        d += 32;
        i += 24;
    }
    return i;
}

// For each set of slashes among 8 characters (bit j: character j is `/`), the shuffle that
// writes them with a `\\` before each slash, from a vector holding the 8 characters in lanes 0-7
// and `\\` in lanes 8-15; lanes past the 8 + slashes written are zero.
static void make_escape_patterns(void) {
    for (int mask = 0; mask < 256; mask++) {
        int out = 0;
        for (int j = 0; j < 8; j++) {
            if (mask & (1 << j)) escape_patterns[mask][out++] = 8;
            escape_patterns[mask][out++] = (uint8_t)j;
        }
        while (out < 16) escape_patterns[mask][out++] = 0x80;
    }
}

// Eight characters (lanes 0-7, `\\` in 8-15) written with their slashes escaped (`mask`);
// returns the end of what they take.
__attribute__((target("avx2"))) static inline uint8_t *escape_group(__m128i characters, unsigned int mask, uint8_t *d) {
    const __m128i pattern = _mm_loadu_si128((const __m128i *)escape_patterns[mask]);
    _mm_storeu_si128((__m128i *)d, _mm_shuffle_epi8(characters, pattern));
    return d + 8 + __builtin_popcount(mask);
}

__attribute__((target("avx2"))) static size_t encode_avx2_escaping(const uint8_t *source, size_t count, uint8_t *destination,
                                                                   size_t *written) {
    size_t i = 0;
    uint8_t *d = destination;
    const __m256i slash = _mm256_set1_epi8('/');
    while (count >= 28 && i <= count - 28) {
        const __m256i text = encode_block(source + i);
        const unsigned int slashes = (unsigned int)_mm256_movemask_epi8(_mm256_cmpeq_epi8(text, slash));
        // Eight characters at a time, each slash given its backslash by a shuffle, taken from the
        // registers (a store and narrower loads back would stall on forwarding). Every block
        // goes this way: two in five have a slash, and a branch on it mispredicts so often that
        // it costs more (6.0 ms against 2.2 for the bench's 17 MB of data). Each store writes 16
        // bytes, past the group's end when it has fewer than 8 slashes; the room for every
        // character escaped covers that, and the next group overwrites it.
        const __m128i backslashes = _mm_set1_epi8('\\');
        const __m128i low = _mm256_castsi256_si128(text), high = _mm256_extracti128_si256(text, 1);
        d = escape_group(_mm_unpacklo_epi64(low, backslashes), slashes & 0xFF, d);
        d = escape_group(_mm_unpackhi_epi64(low, backslashes), (slashes >> 8) & 0xFF, d);
        d = escape_group(_mm_unpacklo_epi64(high, backslashes), (slashes >> 16) & 0xFF, d);
        d = escape_group(_mm_unpackhi_epi64(high, backslashes), slashes >> 24, d);
        i += 24;
    }
    *written = (size_t)(d - destination);
    return i;
}

size_t archivist_base64_encode_blocks(const uint8_t *source, size_t count, uint8_t *destination) {
    if (!archivist_base64_vector_available()) return 0;
    return encode_avx2(source, count, destination);
}

size_t archivist_base64_encode_blocks_escaping_slashes(const uint8_t *source, size_t count, uint8_t *destination,
                                                       size_t *written) {
    *written = 0;
    if (!archivist_base64_vector_available()) return 0;
    return encode_avx2_escaping(source, count, destination, written);
}

#else

int archivist_base64_vector_available(void) { return 0; }

size_t archivist_base64_encode_blocks(const uint8_t *source, size_t count, uint8_t *destination) {
    (void)source; (void)count; (void)destination;
    return 0;
}

size_t archivist_base64_encode_blocks_escaping_slashes(const uint8_t *source, size_t count, uint8_t *destination,
                                                       size_t *written) {
    (void)source; (void)count; (void)destination;
    *written = 0;
    return 0;
}

#endif

// The vector base64 encoder of CBase64.h. The method is the one Wojciech Muła and Daniel Lemire
// describe ("Faster Base64 Encoding and Decoding Using AVX2 Instructions", ACM TOW 2018): each
// 3-byte group is spread over a 32-bit lane as bytes 1 0 2 1, the four 6-bit indices are moved
// to the bottom of each byte with two 16-bit multiplies, and an index becomes its character by
// adding an offset looked up by range. Written here for Archivist.
#include "CBase64.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

static int vector_state = -1;  // -1 not yet asked, 0 no, 1 yes

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

int archivist_base64_vector_available(void) {
    int state = __atomic_load_n(&vector_state, __ATOMIC_RELAXED);
    if (state < 0) {
        state = cpu_runs_avx2();
        __atomic_store_n(&vector_state, state, __ATOMIC_RELAXED);
    }
    return state;
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

__attribute__((target("avx2"))) static size_t encode_avx2_escaping(const uint8_t *source, size_t count, uint8_t *destination,
                                                                   size_t *written) {
    size_t i = 0;
    uint8_t *d = destination;
    const __m256i slash = _mm256_set1_epi8('/');
    while (count >= 28 && i <= count - 28) {
        const __m256i text = encode_block(source + i);
        unsigned int slashes = (unsigned int)_mm256_movemask_epi8(_mm256_cmpeq_epi8(text, slash));
        if (slashes == 0) {
            _mm256_storeu_si256((__m256i *)d, text);
            d += 32;
        } else {
            uint8_t block[32];
            _mm256_storeu_si256((__m256i *)block, text);
            unsigned int from = 0;
            while (slashes != 0) {
                const unsigned int at = (unsigned int)__builtin_ctz(slashes);
                memcpy(d, block + from, at - from);
                d += at - from;
                d[0] = '\\';
                d[1] = '/';
                d += 2;
                from = at + 1;
                slashes &= slashes - 1;
            }
            memcpy(d, block + from, 32 - from);
            d += 32 - from;
        }
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

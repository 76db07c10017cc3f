#ifndef ARCHIVIST_CBASE64_H
#define ARCHIVIST_CBASE64_H
// Base64 (standard alphabet) of whole 24-byte blocks with AVX2, for JSONEmitter: the data of an
// archive (images, notes, a typedstream's blobs) is most of its JSON, and the vector form writes
// it several times faster than the table of character pairs the Swift code uses for what is
// left. Elsewhere (another CPU, one without AVX2) every function encodes nothing and returns 0,
// and the Swift code writes it all.
#include <stddef.h>
#include <stdint.h>

/// Whether this CPU and system run the vector encoder (AVX2, with the OS saving its registers).
int archivist_base64_vector_available(void);

/// Encodes the first 24-byte blocks of `source` (`count` bytes) to `destination`, 32 characters
/// per block, as long as 28 bytes remain to be read; returns the number of bytes encoded (a
/// multiple of 24, 0 without the vector encoder). `destination` needs room for 4/3 of it.
size_t archivist_base64_encode_blocks(const uint8_t *source, size_t count, uint8_t *destination);

/// As `archivist_base64_encode_blocks`, with each `/` written as `\/` (JSON with slashes
/// escaped); `*written` is set to the characters written. `destination` needs room for 8/3 of
/// the bytes encoded.
size_t archivist_base64_encode_blocks_escaping_slashes(const uint8_t *source, size_t count, uint8_t *destination,
                                                       size_t *written);
#endif

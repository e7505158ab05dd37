/*
 * Well-known header names: a header pair whose name is exactly one of them
 * (as usually written, or in lower case) carries its index + 1 in the
 * pair's KNOWN_NAME slot, so that a caller can hand out a string made once
 * instead of cutting a new one per message (but for a repeating head's
 * pairs, which need no strings: lhn_contract.h).
 */
#ifndef LHN_KNOWN_H
#define LHN_KNOWN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Builds the table, once per process; thread-safe. lhn_parser_init() calls
 * it. */
void lhn_known_init(void);

/* The names tags refer to, in index order: each name as usually written,
 * then the same in lower case. At most 255. */
const char *const *lhn_known_names(size_t *count);

/* Index + 1 of the well-known name equal to bytes[0..len), byte for byte,
 * or 0. Only after lhn_known_init(). */
int32_t lhn_known_name(const uint8_t *bytes, size_t len);

/* The field bit (LHN_HC_HOST, LHN_HC_EXPECT, LHN_HC_BODY_FIELDS) of the
 * header name bytes[0..len), in any case, whose lhn_known_name() is `tag`;
 * 0 for any other name. Only after lhn_known_init(). */
int32_t lhn_known_field(const uint8_t *bytes, size_t len, int32_t tag);

#ifdef __cplusplus
}
#endif

#endif /* LHN_KNOWN_H */

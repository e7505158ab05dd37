/* Unit tests of the well-known header names (src/core/lhn_known.c). */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "check.h"
#include "../../src/core/lhn_contract.h"
#include "../../src/core/lhn_known.h"

/* The index + 1 of name among the well-known names, by a plain search, or 0. */
static int32_t index_of(const char *name, size_t len) {
  size_t n;
  const char *const *names = lhn_known_names(&n);
  for (size_t i = 0; i < n; i++) {
    if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0) return (int32_t)i + 1;
  }
  return 0;
}

/* Each name as usually written, then in lower case; at most 255, all found. */
static void test_table(void) {
  size_t n;
  const char *const *names = lhn_known_names(&n);
  CHECK(n > 100 && n <= 255 && n % 2 == 0);
  for (size_t i = 0; i < n; i += 2) {
    size_t len = strlen(names[i]);
    CHECK(strlen(names[i + 1]) == len);
    CHECK(strcmp(names[i], names[i + 1]) != 0); /* the usual spelling has capitals */
    for (size_t j = 0; j < len; j++) CHECK(names[i + 1][j] == tolower((unsigned char)names[i][j]));
    CHECK(lhn_known_name((const uint8_t *)names[i], len) == (int32_t)i + 1);
    CHECK(lhn_known_name((const uint8_t *)names[i + 1], len) == (int32_t)i + 2);
  }
  CHECK(strcmp(names[0], "TE") == 0 && strcmp(names[1], "te") == 0);
}

/* A name with any one letter's case changed, or one byte changed, or one
 * byte shorter or longer, is tagged as the name it then is (another
 * well-known spelling, or none): every byte takes part in the comparison. */
static void test_near_misses(void) {
  size_t n;
  const char *const *names = lhn_known_names(&n);
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(names[i]);
    char name[64];
    for (size_t j = 0; j < len; j++) {
      for (int how = 0; how < 2; how++) {
        memcpy(name, names[i], len + 1);
        if (how == 0) {
          if (!isalpha((unsigned char)name[j])) continue;
          name[j] ^= 0x20;
        } else {
          name[j] = name[j] == 'x' ? 'y' : 'x';
        }
        CHECK(lhn_known_name((const uint8_t *)name, len) == index_of(name, len));
      }
    }
    memcpy(name, names[i], len);
    name[len] = 's';
    CHECK(lhn_known_name((const uint8_t *)name, len + 1) == index_of(name, len + 1));
    CHECK(lhn_known_name((const uint8_t *)name, len - 1) == index_of(name, len - 1));
  }
  CHECK(lhn_known_name((const uint8_t *)"", 0) == 0);
  char longer[40];
  memset(longer, 'a', sizeof longer);
  CHECK(lhn_known_name((const uint8_t *)longer, sizeof longer) == 0);
}

/* The field bit of a name, as lhn_known_field() is given it (with its tag). */
static int32_t field_of(const char *name) {
  size_t len = strlen(name);
  return lhn_known_field((const uint8_t *)name, len, lhn_known_name((const uint8_t *)name, len));
}

/* Host, Expect and the body fields in any case (well-known spellings have a
 * tag, the others not), and names near them that are none. */
static void test_fields(void) {
  static const char *const hosts[] = {"Host", "host", "HOST", "hOsT"};
  for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) CHECK(field_of(hosts[i]) == LHN_HC_HOST);
  CHECK(field_of("Expect") == LHN_HC_EXPECT);
  CHECK(field_of("EXPECT") == LHN_HC_EXPECT);
  CHECK(field_of("content-length") == LHN_HC_BODY_FIELDS);
  CHECK(field_of("CONTENT-length") == LHN_HC_BODY_FIELDS);
  CHECK(field_of("Transfer-Encoding") == LHN_HC_BODY_FIELDS);
  CHECK(field_of("TRANSFER-ENCODING") == LHN_HC_BODY_FIELDS);
  static const char *const others[] = {"Hosts", "Hos", "X-Host", "Expects", "Accept", "Content-Type",
                                       "Content-Lengths", "Transfer-Encodin", "hosu", ""};
  for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) CHECK(field_of(others[i]) == 0);
}

int main(void) {
  lhn_known_init();
  test_table();
  test_near_misses();
  test_fields();
  return report("known names");
}

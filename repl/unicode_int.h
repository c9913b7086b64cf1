/*
 * unicode_int.h — str case mapping and character classes for all of Unicode
 * (repl/unicode.c, over utf8proc and the generated repl/unicode_tables.c).
 * Private to repl/.
 */
#ifndef REPL_UNICODE_INT_H
#define REPL_UNICODE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nn.h"

/* a code point's mapping to up to three code points (0: unused) */
typedef struct repl_uc_map {
    uint32_t cp;
    uint32_t to[3];
} repl_uc_map;
/* a closed range of code points */
typedef struct repl_uc_range {
    uint32_t lo, hi;
} repl_uc_range;

/* unicode_tables.c (generated from CPython 3.11 by tests/fixtures/gen_unicode_tables.py):
   the multi-character upper/lower/title mappings, casefold where it is not lower,
   digits that are not decimals, numerics that are not digits, the Lowercase and
   Uppercase properties, and where the category's guess at XID_Start/XID_Continue
   is wrong; sorted by code point */
extern const repl_uc_map repl_uc_upper[], repl_uc_lower[], repl_uc_title[], repl_uc_fold[];
extern const size_t repl_uc_upper_len, repl_uc_lower_len, repl_uc_title_len, repl_uc_fold_len;
extern const repl_uc_range repl_uc_digit[], repl_uc_numeric[], repl_uc_lowercase[], repl_uc_uppercase[],
    repl_uc_id_flip[], repl_uc_idc_flip[];
extern const size_t repl_uc_digit_len, repl_uc_numeric_len, repl_uc_lowercase_len, repl_uc_uppercase_len,
    repl_uc_id_flip_len, repl_uc_idc_flip_len;

enum { REPL_CASE_UPPER, REPL_CASE_LOWER, REPL_CASE_CAPITALIZE, REPL_CASE_TITLE, REPL_CASE_SWAPCASE,
       REPL_CASE_FOLD };
/* s.upper(), .lower(), ... (mode REPL_CASE_*) of UTF-8 text s[0..n) as CPython's:
   full mappings ('ß'.upper() == 'SS'), final sigma. A new str, or NULL with MemoryError. */
nn_object *repl_str_case(const char *s, size_t n, int mode);

enum { REPL_CLS_ALPHA, REPL_CLS_DECIMAL, REPL_CLS_DIGIT, REPL_CLS_NUMERIC, REPL_CLS_ALNUM, REPL_CLS_SPACE,
       REPL_CLS_UPPER, REPL_CLS_LOWER, REPL_CLS_TITLE, REPL_CLS_PRINTABLE, REPL_CLS_IDENTIFIER,
       REPL_CLS_ASCII };
/* s.isalpha(), ... (which REPL_CLS_*) of UTF-8 text s[0..n), as CPython's. */
bool repl_str_is(const char *s, size_t n, int which);

#endif

/*
 * unicode_names.c — the characters' names of the Unicode Character Database
 * 14.0.0 (CPython 3.11's) for unicodedata.name/lookup and the \N{...} escape:
 * GNU libunistring 1.0's name table, with the names Unicode makes by rule made
 * here.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uniname.h>
#include <unictype.h>

#include "unicode_int.h"

_Static_assert(REPL_UC_NAME_MAX >= UNINAME_MAX, "a name fits the callers' buffers");

static bool unassigned(ucs4_t cp) { return uc_is_general_category(cp, UC_CATEGORY_Cn); }

/* The names Unicode makes by rule, which libunistring 1.0 gets wrong or lacks
   (it names U+AC05 "HANGUL SYLLABLE GANI" for GANJ, and no CJK unified
   ideograph): the Hangul syllables from their jamo's short names, and the
   ideographs from their code point. */
enum { HANGUL_FIRST = 0xac00, HANGUL_COUNT = 11172, HANGUL_V = 21, HANGUL_T = 28 };

static bool rule_name(ucs4_t cp, char buf[UNINAME_MAX])
{
    static const char *const lead[] = {"G", "GG", "N", "D", "DD", "R", "M", "B", "BB", "S",
                                       "SS", "", "J", "JJ", "C", "K", "T", "P", "H"};
    static const char *const vowel[] = {"A",  "AE", "YA",  "YAE", "EO", "E",  "YEO", "YE", "O",  "WA", "WAE",
                                        "OE", "YO", "U",   "WEO", "WE", "WI", "YU",  "EU", "YI", "I"};
    static const char *const tail[] = {"",  "G",  "GG", "GS", "N",  "NJ", "NH", "D", "L", "LG",
                                       "LM", "LB", "LS", "LT", "LP", "LH", "M",  "B", "BS", "S",
                                       "SS", "NG", "J",  "C",  "K",  "T",  "P",  "H"};
    if (cp >= HANGUL_FIRST && cp < HANGUL_FIRST + HANGUL_COUNT) {
        unsigned s = cp - HANGUL_FIRST;
        snprintf(buf, UNINAME_MAX, "HANGUL SYLLABLE %s%s%s", lead[s / (HANGUL_V * HANGUL_T)],
                 vowel[s % (HANGUL_V * HANGUL_T) / HANGUL_T], tail[s % HANGUL_T]);
        return true;
    }
    if (uc_is_property_unified_ideograph(cp) && !unassigned(cp) && !unicode_character_name(cp, buf)) {
        snprintf(buf, UNINAME_MAX, "CJK UNIFIED IDEOGRAPH-%X", (unsigned)cp);
        return true;
    }
    return false;
}

/* the character whose rule-made name is name, or UNINAME_INVALID; as
   CPython's, these names match in upper case only, with 4 or 5 hex digits */
static ucs4_t rule_character(const char *name)
{
    char buf[UNINAME_MAX];
    if (!strncmp(name, "HANGUL SYLLABLE ", 16)) {
        for (ucs4_t cp = HANGUL_FIRST; cp < HANGUL_FIRST + HANGUL_COUNT; cp++)
            if (rule_name(cp, buf) && !strcmp(buf, name)) return cp;
    } else if (!strncmp(name, "CJK UNIFIED IDEOGRAPH-", 22)) {
        const char *hex = name + 22;
        size_t n = strspn(hex, "0123456789ABCDEF");
        unsigned long cp = strtoul(hex, NULL, 16);
        if ((n == 4 || n == 5) && !hex[n] && rule_name((ucs4_t)cp, buf) && !strncmp(buf, name, 22)) return (ucs4_t)cp;
    }
    return UNINAME_INVALID;
}

bool repl_uc_name(uint32_t cp, char buf[REPL_UC_NAME_MAX])
{
    return rule_name(cp, buf) || unicode_character_name(cp, buf);
}

int32_t repl_uc_lookup(const char *name, size_t n)
{
    /* as CPython's, the case of a name from the table does not matter */
    char upper[UNINAME_MAX];
    if (n >= sizeof upper || memchr(name, 0, n)) return -1;
    for (size_t i = 0; i < n; i++) upper[i] = (char)toupper((unsigned char)name[i]);
    upper[n] = 0;
    char exact[UNINAME_MAX];
    memcpy(exact, name, n);
    exact[n] = 0;
    ucs4_t cp = rule_character(exact);
    if (cp == UNINAME_INVALID && strncmp(upper, "HANGUL SYLLABLE ", 16) && strncmp(upper, "CJK UNIFIED IDEOGRAPH-", 22))
        cp = unicode_name_character(upper);
    return cp == UNINAME_INVALID ? -1 : (int32_t)cp;
}

/*
 * text.c — the one growable string core builds reprs and messages with, and
 * Python's repr of a float. A failed allocation marks the text failed
 * (MemoryError is set); later appends do nothing and finishing gives NULL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nn_int.h"

/* Room for extra more bytes and the terminator; false once failed. */
static bool reserve(nn_text *t, size_t extra)
{
    if (t->failed) return false;
    if (t->len + extra + 1 <= t->cap) return true;
    size_t cap = t->cap ? t->cap : 64;
    while (cap < t->len + extra + 1) cap *= 2;
    char *grown = nn_realloc(t->buf, cap);
    if (!grown) {
        t->failed = true;
        return false;
    }
    t->buf = grown;
    t->cap = cap;
    return true;
}

void nn_text_add(nn_text *t, const char *s, size_t n)
{
    if (!reserve(t, n)) return;
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

void nn_text_puts(nn_text *t, const char *s) { nn_text_add(t, s, strlen(s)); }

void nn_text_chars(nn_text *t, char c, int64_t n)
{
    if (n <= 0 || !reserve(t, (size_t)n)) return;
    memset(t->buf + t->len, c, (size_t)n);
    t->len += (size_t)n;
    t->buf[t->len] = '\0';
}

void nn_text_printf(nn_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        t->failed = true;
        return;
    }
    if (!reserve(t, (size_t)n)) return;
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void nn_text_take(nn_text *t, char *s)
{
    if (!s) {
        t->failed = true;
        return;
    }
    nn_text_puts(t, s);
    nn_free(s);
}

char *nn_text_finish(nn_text *t)
{
    if (t->failed) {
        nn_free(t->buf);
        t->buf = NULL;
        return NULL;
    }
    char *s = t->buf ? t->buf : nn_strdup("");
    t->buf = NULL;
    return s;
}

/* digits ("[-]d.ddde[+-]XX", printf's %e, rounded to nearest with ties to even)
   with its last mantissa digit one up or down, when that one reads back to v
   and the rounded one does not: an exact tie such as 2**-24 =
   5.9604644775390625e-08 prints ...062 at 16 digits, which is not v, where
   ...063 is (CPython prints 5.960464477539063e-08). Rewrites digits; true then. */
static bool last_digit_neighbour_reads_back(char *digits, double v)
{
    char *e = strchr(digits, 'e');
    if (!e) return false;
    for (int dir = 1; dir >= -1; dir -= 2) {
        char trial[40];
        snprintf(trial, sizeof trial, "%s", digits);
        char *p = trial + (e - digits) - 1; /* the last mantissa digit */
        bool carry = true;
        for (; carry && p >= trial && *p != '-'; p--) {
            if (*p == '.') continue;
            if (dir > 0 ? *p < '9' : *p > '0') {
                *p = (char)(*p + dir);
                carry = false;
            } else
                *p = dir > 0 ? '0' : '9';
        }
        if (carry) continue; /* 9.99 -> 10.00 changes the exponent: the next precision covers it */
        if (strtod(trial, NULL) == v) {
            memcpy(digits, trial, strlen(trial) + 1);
            return true;
        }
    }
    return false;
}

void nn_format_float(double v, char *out, size_t n)
{
    if (v != v) {
        snprintf(out, n, "nan");
        return;
    }
    if (v == 1.0 / 0.0 || v == -1.0 / 0.0) {
        snprintf(out, n, v < 0 ? "-inf" : "inf");
        return;
    }
    /* the shortest digits that read back to v (as CPython's repr) */
    char digits[40];
    for (int precision = 1; precision <= 17; precision++) {
        snprintf(digits, sizeof digits, "%.*e", precision - 1, v);
        if (strtod(digits, NULL) == v || last_digit_neighbour_reads_back(digits, v)) break;
    }
    /* digits is [-]d.ddde[+-]XX: split mantissa digits and exponent */
    char mant[40];
    size_t m = 0;
    const char *p = digits;
    bool negative = *p == '-';
    if (negative) p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') mant[m++] = *p;
    mant[m] = '\0';
    int exp = atoi(p + 1);
    while (m > 1 && mant[m - 1] == '0') mant[--m] = '\0';
    size_t len = 0;
    if (negative) out[len++] = '-';
    if (exp >= -4 && exp < 16) { /* positional */
        if (exp < 0) {
            len += (size_t)snprintf(out + len, n - len, "0.");
            for (int i = 0; i < -exp - 1; i++) out[len++] = '0';
            len += (size_t)snprintf(out + len, n - len, "%s", mant);
        } else {
            for (int i = 0; i <= exp || i < (int)m; i++) {
                if (i == exp + 1) out[len++] = '.';
                out[len++] = i < (int)m ? mant[i] : '0';
            }
            if ((int)m <= exp + 1) {
                out[len++] = '.';
                out[len++] = '0';
            }
        }
        out[len] = '\0';
    } else { /* scientific */
        out[len++] = mant[0];
        if (m > 1) {
            out[len++] = '.';
            memcpy(out + len, mant + 1, m - 1);
            len += m - 1;
        }
        snprintf(out + len, n - len, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    }
}

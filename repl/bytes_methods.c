/*
 * bytes_methods.c — the methods of bytes and bytearray, as CPython 3.11's:
 * decode, hex, searching (find, rfind, index, rindex, count, startswith,
 * endswith), splitting and joining (split, rsplit, partition, rpartition,
 * splitlines, join), strip/lstrip/rstrip, replace, case and class tests on
 * ASCII letters, padding (ljust, rjust, center, zfill), and bytearray's
 * mutators (append, extend, insert, pop, remove, clear, copy, reverse).
 * Results have the receiver's type (a bytearray's split gives bytearrays).
 */
#include <string.h>

#include "bind_int.h"
#include "bytes_int.h"

#define ARGS(n) nn_object *a[n] = {0}

static bool array_of(nn_object *self) { return self->type == &repl_bytearray_type; }
static nn_object *same(nn_object *self, const void *p, size_t n) { return repl_bytes_new(p, n, array_of(self)); }
static bool is_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/* A sub-sequence argument: a bytes-like object or an int in range(256) (one byte). */
static int sub_arg(nn_object *o, unsigned char *one, const unsigned char **p, size_t *n)
{
    if (nn_is_int(o) || nn_is_bool(o)) {
        int64_t v = nn_int_value(o);
        if (v < 0 || v > 255) return repl_raise_exc(EXC_ValueError, "byte must be in range(0, 256)");
        *one = (unsigned char)v;
        *p = one;
        *n = 1;
        return 0;
    }
    if (!repl_is_bytes(o))
        return repl_raise_exc(EXC_TypeError, "argument should be integer or bytes-like object, not '%s'", repl_value_type_name(o));
    return repl_bytes_buffer(o, p, n);
}

/* start/end arguments (None or int) clamped as slice bounds of n */
static int bounds(nn_object *s, nn_object *e, size_t n, size_t *lo, size_t *hi)
{
    int64_t v[2] = {0, (int64_t)n};
    nn_object *o[2] = {s, e};
    for (int k = 0; k < 2; k++) {
        if (!o[k] || nn_is_none(o[k])) continue;
        if (!nn_is_int(o[k]) && !nn_is_bool(o[k]))
            return repl_raise_exc(EXC_TypeError, "slice indices must be integers or None or have an __index__ method");
        int64_t x = nn_int_value(o[k]);
        if (x < 0) x += (int64_t)n;
        if (x < 0) x = 0;
        if (x > (int64_t)n) x = (int64_t)n;
        v[k] = x;
    }
    *lo = (size_t)v[0];
    *hi = (size_t)v[1];
    return 0;
}

/* find/rfind/index/rindex/count: the position (or count), -1 when absent. */
static int64_t search(const char *fname, nn_object *self, nn_object *args, nn_object *kwargs, bool reverse, bool count,
                      bool *failed)
{
    ARGS(3);
    *failed = true;
    if (repl_parse_args(fname, "self, sub, start=, end=", args, kwargs, a)) return -1;
    unsigned char one;
    const unsigned char *q;
    size_t m, lo, hi;
    if (sub_arg(a[0], &one, &q, &m) < 0 || bounds(a[1], a[2], repl_bytes_len(self), &lo, &hi) < 0) return -1;
    *failed = false;
    const unsigned char *p = repl_bytes_data(self);
    if (hi < lo || hi - lo < m) return count ? 0 : -1;
    if (count) {
        if (m == 0) return (int64_t)(hi - lo + 1);
        int64_t c = 0;
        for (size_t i = lo; i + m <= hi;)
            if (!memcmp(p + i, q, m)) c++, i += m;
            else i++;
        return c;
    }
    if (reverse) {
        for (size_t i = hi - m + 1; i-- > lo;)
            if (!memcmp(p + i, q, m)) return (int64_t)i;
        return -1;
    }
    for (size_t i = lo; i + m <= hi; i++)
        if (!memcmp(p + i, q, m)) return (int64_t)i;
    return -1;
}

static nn_object *m_find(nn_object *self, nn_object *args, nn_object *kwargs)
{
    bool f;
    int64_t r = search("find", self, args, kwargs, false, false, &f);
    return f ? NULL : nn_int_new(r);
}
static nn_object *m_rfind(nn_object *self, nn_object *args, nn_object *kwargs)
{
    bool f;
    int64_t r = search("rfind", self, args, kwargs, true, false, &f);
    return f ? NULL : nn_int_new(r);
}
static nn_object *m_count(nn_object *self, nn_object *args, nn_object *kwargs)
{
    bool f;
    int64_t r = search("count", self, args, kwargs, false, true, &f);
    return f ? NULL : nn_int_new(r);
}
static nn_object *index_of(const char *fname, nn_object *self, nn_object *args, nn_object *kwargs, bool reverse)
{
    bool f;
    int64_t r = search(fname, self, args, kwargs, reverse, false, &f);
    if (f) return NULL;
    if (r < 0) {
        repl_raise_exc(EXC_ValueError, "subsection not found");
        return NULL;
    }
    return nn_int_new(r);
}
static nn_object *m_index(nn_object *self, nn_object *args, nn_object *kwargs) { return index_of("index", self, args, kwargs, false); }
static nn_object *m_rindex(nn_object *self, nn_object *args, nn_object *kwargs) { return index_of("rindex", self, args, kwargs, true); }

static nn_object *affix(const char *fname, nn_object *self, nn_object *args, nn_object *kwargs, bool end)
{
    ARGS(3);
    if (repl_parse_args(fname, "self, prefix, start=, end=", args, kwargs, a)) return NULL;
    size_t lo, hi;
    if (bounds(a[1], a[2], repl_bytes_len(self), &lo, &hi) < 0) return NULL;
    bool tuple = a[0]->type == &nn_tuple_type;
    size_t k = tuple ? nn_tuple_len(a[0]) : 1;
    for (size_t i = 0; i < k; i++) {
        nn_object *x = tuple ? nn_tuple_get(a[0], i) : a[0];
        if (!repl_is_bytes(x)) {
            repl_raise_exc(EXC_TypeError, tuple ? "a bytes-like object is required, not '%s'"
                                                : "%s first arg must be bytes or a tuple of bytes, not %s",
                           tuple ? repl_value_type_name(x) : fname, repl_value_type_name(x));
            return NULL;
        }
        size_t m = repl_bytes_len(x);
        if (hi < lo || hi - lo < m) continue;
        const unsigned char *p = repl_bytes_data(self) + (end ? hi - m : lo);
        if (!memcmp(p, repl_bytes_data(x), m)) return nn_bool_new(true);
    }
    return nn_bool_new(false);
}
static nn_object *m_startswith(nn_object *self, nn_object *args, nn_object *kwargs) { return affix("startswith", self, args, kwargs, false); }
static nn_object *m_endswith(nn_object *self, nn_object *args, nn_object *kwargs) { return affix("endswith", self, args, kwargs, true); }

static nn_object *m_decode(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    if (repl_parse_args("decode", "self, encoding=, errors=", args, kwargs, a)) return NULL;
    for (int k = 0; k < 2; k++)
        if (a[k] && !nn_is_str(a[k])) {
            repl_raise_exc(EXC_TypeError, "decode() argument '%s' must be str, not %s", k ? "errors" : "encoding",
                           repl_value_type_name(a[k]));
            return NULL;
        }
    return repl_bytes_decode(repl_bytes_data(self), repl_bytes_len(self), a[0] ? nn_str_cstr(a[0]) : NULL,
                             a[1] ? nn_str_cstr(a[1]) : NULL);
}

/* hex(sep=, bytes_per_sep=1): groups of bytes_per_sep counted from the right
   (from the left when negative) */
static nn_object *m_hex(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    if (repl_parse_args("hex", "self, sep=, bytes_per_sep=", args, kwargs, a)) return NULL;
    const char *sep = NULL;
    int64_t per = 1;
    if (a[0]) {
        if (!nn_is_str(a[0]) && !repl_is_bytes(a[0])) {
            repl_raise_exc(EXC_TypeError, "sep must be str or bytes.");
            return NULL;
        }
        sep = nn_is_str(a[0]) ? nn_str_cstr(a[0]) : (const char *)repl_bytes_data(a[0]);
        size_t sl = nn_is_str(a[0]) ? nn_str_len(a[0]) : repl_bytes_len(a[0]);
        if (sl != 1 || (unsigned char)sep[0] >= 0x80) {
            repl_raise_exc(EXC_ValueError, "sep must be length 1.");
            return NULL;
        }
    }
    if (a[1] && (!nn_is_int(a[1]) || (per = nn_int_value(a[1])) == 0)) {
        if (!nn_is_int(a[1])) repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(a[1]));
        else per = 1;
        if (nn_error_current()) return NULL;
    }
    size_t n = repl_bytes_len(self), g = (size_t)(per < 0 ? -per : per);
    sbuf b = {0};
    for (size_t i = 0; i < n; i++) {
        if (sep && i > 0) {
            bool cut = per > 0 ? (n - i) % g == 0 : i % g == 0;
            if (cut) repl_sb_add(&b, sep, 1);
        }
        repl_sb_printf(&b, "%02x", repl_bytes_data(self)[i]);
    }
    size_t len = b.len;
    char *s = repl_sb_finish(&b);
    if (!s && !len && !b.failed) return nn_str_new("");
    nn_object *r = s ? nn_str_from(s, len) : NULL;
    nn_free(s);
    return r;
}

static nn_object *m_join(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("join", "self, iterable_of_bytes", args, kwargs, a)) return NULL;
    nn_object *items = repl_iterable_to_list(a[0]);
    if (!items) return NULL;
    nn_object *r = same(self, NULL, 0);
    for (size_t i = 0; r && i < nn_list_len(items); i++) {
        nn_object *x = repl_unwrap_value(nn_list_get(items, i)); /* a bytes subclass's value */
        if (!repl_is_bytes(x)) {
            repl_raise_exc(EXC_TypeError, "sequence item %zu: expected a bytes-like object, %s found", i, repl_value_type_name(x));
            NN_SET(r, NULL);
            break;
        }
        if ((i && repl_bytes_append(r, repl_bytes_data(self), repl_bytes_len(self)) < 0) ||
            repl_bytes_append(r, repl_bytes_data(x), repl_bytes_len(x)) < 0)
            NN_SET(r, NULL);
    }
    NN_RELEASE(items);
    return r;
}

static int push_piece(nn_object *list, nn_object *self, const unsigned char *p, size_t n)
{
    nn_object *x = same(self, p, n);
    int rc = x ? nn_list_append(list, x) : -1;
    NN_RELEASE(x);
    return rc;
}

/* split and rsplit: on runs of ASCII whitespace (sep None) or on sep */
static nn_object *splitter(const char *fname, nn_object *self, nn_object *args, nn_object *kwargs, bool reverse)
{
    ARGS(2);
    if (repl_parse_args(fname, "self, sep=, maxsplit=", args, kwargs, a)) return NULL;
    int64_t maxsplit = -1;
    if (a[1] && repl_arg_int(fname, "maxsplit", 2, a[1], &maxsplit) < 0) return NULL;
    const unsigned char *p = repl_bytes_data(self), *q = NULL;
    size_t n = repl_bytes_len(self), m = 0;
    if (a[0] && !nn_is_none(a[0])) {
        if (repl_bytes_buffer(a[0], &q, &m) < 0) return NULL;
        if (m == 0) {
            repl_raise_exc(EXC_ValueError, "empty separator");
            return NULL;
        }
    }
    nn_object *out = nn_list_new(0);
    if (!out) return NULL;
    int64_t splits = 0;
    if (!q) {
        if (!reverse) {
            size_t i = 0;
            while (i < n) {
                while (i < n && is_space(p[i])) i++;
                if (i >= n) break;
                size_t j = i;
                if (maxsplit >= 0 && splits >= maxsplit) {
                    size_t e = n;
                    while (e > i && is_space(p[e - 1])) e--;
                    j = e;
                } else
                    while (j < n && !is_space(p[j])) j++;
                if (push_piece(out, self, p + i, j - i) < 0) goto fail;
                splits++;
                i = j;
            }
        } else {
            size_t i = n;
            while (i > 0) {
                while (i > 0 && is_space(p[i - 1])) i--;
                if (i == 0) break;
                size_t j = i;
                if (maxsplit >= 0 && splits >= maxsplit) {
                    size_t s = 0;
                    while (s < i && is_space(p[s])) s++;
                    j = s;
                } else
                    while (j > 0 && !is_space(p[j - 1])) j--;
                if (push_piece(out, self, p + j, i - j) < 0) goto fail;
                splits++;
                i = j;
            }
        }
    } else if (!reverse) {
        size_t start = 0;
        for (size_t i = 0; i + m <= n && (maxsplit < 0 || splits < maxsplit);) {
            if (!memcmp(p + i, q, m)) {
                if (push_piece(out, self, p + start, i - start) < 0) goto fail;
                splits++;
                i += m;
                start = i;
            } else i++;
        }
        if (push_piece(out, self, p + start, n - start) < 0) goto fail;
    } else {
        size_t end = n;
        for (size_t i = n; i >= m && (maxsplit < 0 || splits < maxsplit);) {
            if (!memcmp(p + i - m, q, m)) {
                if (push_piece(out, self, p + i, end - i) < 0) goto fail;
                splits++;
                i -= m;
                end = i;
            } else i--;
        }
        if (push_piece(out, self, p, end) < 0) goto fail;
    }
    if (reverse) { /* pieces were found right to left */
        size_t k = nn_list_len(out);
        for (size_t i = 0; i < k / 2; i++) {
            nn_object *x = nn_retain(nn_list_get(out, i)), *y = nn_retain(nn_list_get(out, k - 1 - i));
            nn_list_set(out, i, y);
            nn_list_set(out, k - 1 - i, x);
        }
    }
    return out;
fail:
    NN_RELEASE(out);
    return NULL;
}
static nn_object *m_split(nn_object *self, nn_object *args, nn_object *kwargs) { return splitter("split", self, args, kwargs, false); }
static nn_object *m_rsplit(nn_object *self, nn_object *args, nn_object *kwargs) { return splitter("rsplit", self, args, kwargs, true); }

static nn_object *partition(const char *fname, nn_object *self, nn_object *args, bool reverse)
{
    ARGS(1);
    if (repl_parse_args(fname, "self, sep", args, NULL, a)) return NULL;
    const unsigned char *p = repl_bytes_data(self), *q;
    size_t n = repl_bytes_len(self), m;
    if (repl_bytes_buffer(a[0], &q, &m) < 0) return NULL;
    if (m == 0) {
        repl_raise_exc(EXC_ValueError, "empty separator");
        return NULL;
    }
    int64_t at = -1;
    if (n >= m) {
        if (reverse) {
            for (size_t i = n - m + 1; i-- > 0;)
                if (!memcmp(p + i, q, m)) { at = (int64_t)i; break; }
        } else
            for (size_t i = 0; i + m <= n; i++)
                if (!memcmp(p + i, q, m)) { at = (int64_t)i; break; }
    }
    nn_object *t = nn_tuple_new(3);
    if (!t) return NULL;
    nn_object *x, *y, *z;
    if (at < 0) {
        x = reverse ? same(self, NULL, 0) : same(self, p, n);
        y = same(self, NULL, 0);
        z = reverse ? same(self, p, n) : same(self, NULL, 0);
    } else {
        x = same(self, p, (size_t)at);
        y = same(self, q, m);
        z = same(self, p + at + m, n - (size_t)at - m);
    }
    nn_tuple_set(t, 0, x);
    nn_tuple_set(t, 1, y);
    nn_tuple_set(t, 2, z);
    if (!x || !y || !z) NN_SET(t, NULL);
    return t;
}
static nn_object *m_partition(nn_object *self, nn_object *args, nn_object *kwargs) { return partition("partition", self, args, false); }
static nn_object *m_rpartition(nn_object *self, nn_object *args, nn_object *kwargs) { return partition("rpartition", self, args, true); }

static nn_object *m_splitlines(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("splitlines", "self, keepends=", args, kwargs, a)) return NULL;
    bool keep = a[0] && repl_truth(a[0]) > 0;
    const unsigned char *p = repl_bytes_data(self);
    size_t n = repl_bytes_len(self), i = 0;
    nn_object *out = nn_list_new(0);
    while (out && i < n) {
        size_t j = i;
        while (j < n && p[j] != '\n' && p[j] != '\r') j++;
        size_t eol = j;
        if (j < n) j += p[j] == '\r' && j + 1 < n && p[j + 1] == '\n' ? 2 : 1;
        if (push_piece(out, self, p + i, (keep ? j : eol) - i) < 0) NN_SET(out, NULL);
        i = j;
    }
    return out;
}

static nn_object *stripper(const char *fname, nn_object *self, nn_object *args, bool left, bool right)
{
    ARGS(1);
    if (repl_parse_args(fname, "self, bytes=", args, NULL, a)) return NULL;
    const unsigned char *p = repl_bytes_data(self), *set = NULL;
    size_t n = repl_bytes_len(self), m = 0, lo = 0, hi = n;
    if (a[0] && !nn_is_none(a[0]) && repl_bytes_buffer(a[0], &set, &m) < 0) return NULL;
#define STRIPPED(c) (set ? memchr(set, (c), m) != NULL : is_space(c))
    if (left)
        while (lo < hi && STRIPPED(p[lo])) lo++;
    if (right)
        while (hi > lo && STRIPPED(p[hi - 1])) hi--;
#undef STRIPPED
    return same(self, p + lo, hi - lo);
}
static nn_object *m_strip(nn_object *self, nn_object *args, nn_object *kwargs) { return stripper("strip", self, args, true, true); }
static nn_object *m_lstrip(nn_object *self, nn_object *args, nn_object *kwargs) { return stripper("lstrip", self, args, true, false); }
static nn_object *m_rstrip(nn_object *self, nn_object *args, nn_object *kwargs) { return stripper("rstrip", self, args, false, true); }

static nn_object *m_replace(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    if (repl_parse_args("replace", "self, old, new, count=", args, kwargs, a)) return NULL;
    const unsigned char *p = repl_bytes_data(self), *o, *w;
    size_t n = repl_bytes_len(self), m, k;
    int64_t count = -1;
    if (repl_bytes_buffer(a[0], &o, &m) < 0 || repl_bytes_buffer(a[1], &w, &k) < 0 ||
        (a[2] && repl_arg_int("replace", "count", 3, a[2], &count) < 0))
        return NULL;
    nn_object *r = same(self, NULL, 0);
    size_t i = 0;
    int64_t done = 0;
    while (r && i <= n && (count < 0 || done < count)) {
        if (m == 0) { /* between every byte */
            if (repl_bytes_append(r, w, k) < 0 || (i < n && repl_bytes_append(r, p + i, 1) < 0)) NN_SET(r, NULL);
            i++;
            done++;
            continue;
        }
        const unsigned char *hit = i + m <= n ? memmem(p + i, n - i, o, m) : NULL;
        if (!hit) break;
        size_t at = (size_t)(hit - p);
        if (repl_bytes_append(r, p + i, at - i) < 0 || repl_bytes_append(r, w, k) < 0) NN_SET(r, NULL);
        i = at + m;
        done++;
    }
    if (r && i < n && repl_bytes_append(r, p + i, n - i) < 0) NN_SET(r, NULL);
    return r;
}

static nn_object *mapped(nn_object *self, nn_object *args, int how)
{
    if (nn_tuple_len(args)) {
        repl_raise_exc(EXC_TypeError, "%s() takes no arguments (%zu given)", how ? "upper" : "lower", nn_tuple_len(args));
        return NULL;
    }
    nn_object *r = same(self, repl_bytes_data(self), repl_bytes_len(self));
    if (!r) return NULL;
    unsigned char *d = ((bytes_obj *)r)->data;
    for (size_t i = 0; i < repl_bytes_len(r); i++) {
        bool up = d[i] >= 'A' && d[i] <= 'Z', lo = d[i] >= 'a' && d[i] <= 'z';
        if ((how == 1 && lo) || (how == 2 && (up || lo))) d[i] ^= 32;
        if (how == 0 && up) d[i] |= 32;
    }
    return r;
}
static nn_object *m_upper(nn_object *self, nn_object *args, nn_object *kwargs) { return mapped(self, args, 1); }
static nn_object *m_lower(nn_object *self, nn_object *args, nn_object *kwargs) { return mapped(self, args, 0); }
static nn_object *m_swapcase(nn_object *self, nn_object *args, nn_object *kwargs) { return mapped(self, args, 2); }

/* is*(): every byte in the class (and at least one byte) */
static nn_object *all_of(nn_object *self, int cls)
{
    const unsigned char *p = repl_bytes_data(self);
    size_t n = repl_bytes_len(self);
    bool any_cased = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        bool dig = c >= '0' && c <= '9', up = c >= 'A' && c <= 'Z', lo = c >= 'a' && c <= 'z';
        bool ok = cls == 0 ? dig : cls == 1 ? up || lo : cls == 2 ? dig || up || lo : cls == 3 ? is_space(c)
                  : cls == 4 ? !up : cls == 5 ? !lo : c < 0x80;
        if (!ok) return nn_bool_new(false);
        any_cased |= cls == 4 ? lo : cls == 5 ? up : true;
    }
    return nn_bool_new(cls == 6 ? true : n > 0 && any_cased);
}
static nn_object *m_isdigit(nn_object *self, nn_object *args, nn_object *kwargs) { return all_of(self, 0); }
static nn_object *m_isalpha(nn_object *self, nn_object *args, nn_object *kwargs) { return all_of(self, 1); }
static nn_object *m_isalnum(nn_object *self, nn_object *args, nn_object *kwargs) { return all_of(self, 2); }
static nn_object *m_isspace(nn_object *self, nn_object *args, nn_object *kwargs) { return all_of(self, 3); }
static nn_object *m_islower(nn_object *self, nn_object *args, nn_object *kwargs) { return all_of(self, 4); }
static nn_object *m_isupper(nn_object *self, nn_object *args, nn_object *kwargs) { return all_of(self, 5); }
static nn_object *m_isascii(nn_object *self, nn_object *args, nn_object *kwargs) { return all_of(self, 6); }

/* ljust/rjust/center/zfill */
static nn_object *pad(const char *fname, nn_object *self, nn_object *args, int where)
{
    ARGS(2);
    if (repl_parse_args(fname, where == 3 ? "self, width" : "self, width, fillchar=", args, NULL, a)) return NULL;
    int64_t w;
    if (repl_arg_int(fname, "width", 1, a[0], &w) < 0) return NULL;
    unsigned char fill = where == 3 ? '0' : ' ';
    if (a[1]) {
        if (!repl_is_bytes(a[1]) || repl_bytes_len(a[1]) != 1) {
            repl_raise_exc(EXC_TypeError, "%s() argument 2 must be a byte string of length 1, not %s", fname,
                           repl_value_type_name(a[1]));
            return NULL;
        }
        fill = repl_bytes_data(a[1])[0];
    }
    const unsigned char *p = repl_bytes_data(self);
    size_t n = repl_bytes_len(self);
    if (w <= (int64_t)n) return same(self, p, n);
    if ((uint64_t)w > REPL_STR_MAX) {
        repl_raise_exc(EXC_MemoryError, "%s", "");
        return NULL;
    }
    size_t extra = (size_t)w - n, left = where == 0 ? 0 : where == 1 ? extra : where == 3 ? extra
                                                          : extra / 2 + (extra & (size_t)w & 1); /* CPython's center */
    nn_object *r = same(self, NULL, (size_t)w);
    if (!r) return NULL;
    unsigned char *d = ((bytes_obj *)r)->data;
    memset(d, fill, (size_t)w);
    memcpy(d + left, p, n);
    if (where == 3 && n && (p[0] == '+' || p[0] == '-')) { /* the sign goes first */
        d[0] = p[0];
        d[left] = '0';
    }
    return r;
}
static nn_object *m_ljust(nn_object *self, nn_object *args, nn_object *kwargs) { return pad("ljust", self, args, 0); }
static nn_object *m_rjust(nn_object *self, nn_object *args, nn_object *kwargs) { return pad("rjust", self, args, 1); }
static nn_object *m_center(nn_object *self, nn_object *args, nn_object *kwargs) { return pad("center", self, args, 2); }
static nn_object *m_zfill(nn_object *self, nn_object *args, nn_object *kwargs) { return pad("zfill", self, args, 3); }

/* ------------------------------------------------------------------ bytearray's mutators */

static nn_object *m_append(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("append", "self, item", args, kwargs, a)) return NULL;
    unsigned char one;
    const unsigned char *p;
    size_t n;
    if (!nn_is_int(a[0]) && !nn_is_bool(a[0])) {
        repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(a[0]));
        return NULL;
    }
    if (sub_arg(a[0], &one, &p, &n) < 0 || repl_bytes_append(self, p, n) < 0) return NULL;
    return nn_retain(nn_none());
}

static nn_object *m_extend(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("extend", "self, iterable_of_ints", args, kwargs, a)) return NULL;
    if (nn_is_str(a[0])) {
        repl_raise_exc(EXC_TypeError, "expected iterable of integers; got: 'str'");
        return NULL;
    }
    nn_object *end = nn_int_new((int64_t)repl_bytes_len(self)); /* self[len:] = iterable */
    nn_object *sl = end ? repl_slice_new(end, NULL, NULL) : NULL;
    int rc = sl ? repl_bytes_setitem(self, sl, a[0]) : -1;
    NN_RELEASE(end);
    NN_RELEASE(sl);
    return rc < 0 ? NULL : nn_retain(nn_none());
}

static nn_object *m_insert(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    if (repl_parse_args("insert", "self, index, item", args, kwargs, a)) return NULL;
    int64_t i, n = (int64_t)repl_bytes_len(self);
    unsigned char one;
    const unsigned char *p;
    size_t m;
    if (repl_arg_int("insert", "index", 1, a[0], &i) < 0 || sub_arg(a[1], &one, &p, &m) < 0) return NULL;
    if (i < 0) i = i + n < 0 ? 0 : i + n;
    if (i > n) i = n;
    if (repl_bytes_append(self, &one, 1) < 0) return NULL;
    unsigned char *d = ((bytes_obj *)self)->data;
    memmove(d + i + 1, d + i, (size_t)(n - i));
    d[i] = one;
    return nn_retain(nn_none());
}

static nn_object *m_pop(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("pop", "self, index=", args, kwargs, a)) return NULL;
    bytes_obj *b = (bytes_obj *)self;
    int64_t i = -1, n = (int64_t)b->len;
    if (a[0] && repl_arg_int("pop", "index", 1, a[0], &i) < 0) return NULL;
    if (n == 0) {
        repl_raise_exc(EXC_IndexError, "pop from empty bytearray");
        return NULL;
    }
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
        repl_raise_exc(EXC_IndexError, "pop index out of range");
        return NULL;
    }
    unsigned char v = b->data[i];
    memmove(b->data + i, b->data + i + 1, (size_t)(n - i - 1));
    b->data[--b->len] = 0;
    return nn_int_new(v);
}

static nn_object *m_remove(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("remove", "self, value", args, kwargs, a)) return NULL;
    unsigned char one;
    const unsigned char *p;
    size_t m;
    if (!nn_is_int(a[0]) && !nn_is_bool(a[0])) {
        repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(a[0]));
        return NULL;
    }
    if (sub_arg(a[0], &one, &p, &m) < 0) return NULL;
    bytes_obj *b = (bytes_obj *)self;
    unsigned char *hit = memchr(b->data, one, b->len);
    if (!hit) {
        repl_raise_exc(EXC_ValueError, "value not found in bytearray");
        return NULL;
    }
    memmove(hit, hit + 1, b->len - (size_t)(hit - b->data) - 1);
    b->data[--b->len] = 0;
    return nn_retain(nn_none());
}

static nn_object *m_clear(nn_object *self, nn_object *args, nn_object *kwargs)
{
    bytes_obj *b = (bytes_obj *)self;
    b->len = 0;
    b->data[0] = 0;
    return nn_retain(nn_none());
}

static nn_object *m_copy(nn_object *self, nn_object *args, nn_object *kwargs) { return same(self, repl_bytes_data(self), repl_bytes_len(self)); }

static nn_object *m_reverse(nn_object *self, nn_object *args, nn_object *kwargs)
{
    bytes_obj *b = (bytes_obj *)self;
    for (size_t i = 0; i < b->len / 2; i++) {
        unsigned char t = b->data[i];
        b->data[i] = b->data[b->len - 1 - i];
        b->data[b->len - 1 - i] = t;
    }
    return nn_retain(nn_none());
}

/* ------------------------------------------------------------------ tables */

static const repl_method_def bytes_methods[] = {
    {"decode", m_decode, "decode(encoding='utf-8', errors='strict')\nDecode the bytes using the codec registered for encoding."},
    {"hex", m_hex, "hex(sep=<unrepresentable>, bytes_per_sep=1)\nCreate a string of hexadecimal numbers from a bytes object."},
    {"find", m_find, "find(sub[, start[, end]]) -> int\nReturn the lowest index where subsection sub is found, -1 on failure."},
    {"rfind", m_rfind, "rfind(sub[, start[, end]]) -> int\nReturn the highest index where subsection sub is found, -1 on failure."},
    {"index", m_index, "index(sub[, start[, end]]) -> int\nAs find(), raising ValueError when the subsection is not found."},
    {"rindex", m_rindex, "rindex(sub[, start[, end]]) -> int\nAs rfind(), raising ValueError when the subsection is not found."},
    {"count", m_count, "count(sub[, start[, end]]) -> int\nThe number of non-overlapping occurrences of subsection sub."},
    {"startswith", m_startswith, "startswith(prefix[, start[, end]]) -> bool\nReturn True if the bytes start with the specified prefix."},
    {"endswith", m_endswith, "endswith(suffix[, start[, end]]) -> bool\nReturn True if the bytes end with the specified suffix."},
    {"join", m_join, "join(iterable_of_bytes, /)\nConcatenate any number of bytes objects, with these bytes between them."},
    {"split", m_split, "split(sep=None, maxsplit=-1)\nReturn a list of the sections in the bytes, using sep as the delimiter."},
    {"rsplit", m_rsplit, "rsplit(sep=None, maxsplit=-1)\nReturn a list of the sections in the bytes, splitting from the right."},
    {"partition", m_partition, "partition(sep, /)\nPartition the bytes into three parts using the given separator."},
    {"rpartition", m_rpartition, "rpartition(sep, /)\nPartition the bytes into three parts, searching for sep from the end."},
    {"splitlines", m_splitlines, "splitlines(keepends=False)\nReturn a list of the lines in the bytes, breaking at line boundaries."},
    {"strip", m_strip, "strip(bytes=None, /)\nStrip leading and trailing bytes contained in the argument (ASCII whitespace by default)."},
    {"lstrip", m_lstrip, "lstrip(bytes=None, /)\nStrip leading bytes contained in the argument."},
    {"rstrip", m_rstrip, "rstrip(bytes=None, /)\nStrip trailing bytes contained in the argument."},
    {"replace", m_replace, "replace(old, new, count=-1, /)\nReturn a copy with all occurrences of substring old replaced by new."},
    {"upper", m_upper, "upper()\nA copy with all ASCII characters converted to uppercase."},
    {"lower", m_lower, "lower()\nA copy with all ASCII characters converted to lowercase."},
    {"swapcase", m_swapcase, "swapcase()\nA copy with uppercase ASCII characters converted to lowercase and vice versa."},
    {"isdigit", m_isdigit, "isdigit() -> bool\nTrue if all bytes are ASCII digits and there is at least one."},
    {"isalpha", m_isalpha, "isalpha() -> bool\nTrue if all bytes are ASCII letters and there is at least one."},
    {"isalnum", m_isalnum, "isalnum() -> bool\nTrue if all bytes are ASCII letters or digits and there is at least one."},
    {"isspace", m_isspace, "isspace() -> bool\nTrue if all bytes are ASCII whitespace and there is at least one."},
    {"islower", m_islower, "islower() -> bool\nTrue if there is a lowercase ASCII letter and no uppercase one."},
    {"isupper", m_isupper, "isupper() -> bool\nTrue if there is an uppercase ASCII letter and no lowercase one."},
    {"isascii", m_isascii, "isascii() -> bool\nTrue if every byte is ASCII (below 0x80)."},
    {"ljust", m_ljust, "ljust(width, fillchar=b' ', /)\nA left-justified copy of length width."},
    {"rjust", m_rjust, "rjust(width, fillchar=b' ', /)\nA right-justified copy of length width."},
    {"center", m_center, "center(width, fillchar=b' ', /)\nA centered copy of length width."},
    {"zfill", m_zfill, "zfill(width, /)\nPad with zeros on the left to width, after any sign."},
    {NULL, NULL, NULL},
};

static const repl_method_def bytearray_methods[] = {
    {"append", m_append, "append(item, /)\nAppend a single item (an int in range(256)) to the end of the bytearray."},
    {"extend", m_extend, "extend(iterable_of_ints, /)\nAppend all the items from the iterator or sequence to the end."},
    {"insert", m_insert, "insert(index, item, /)\nInsert a single item into the bytearray before the given index."},
    {"pop", m_pop, "pop(index=-1, /)\nRemove and return a single item (the last by default)."},
    {"remove", m_remove, "remove(value, /)\nRemove the first occurrence of a value."},
    {"clear", m_clear, "clear()\nRemove all items from the bytearray."},
    {"copy", m_copy, "copy()\nReturn a copy of the bytearray."},
    {"reverse", m_reverse, "reverse()\nReverse the order of the values in the bytearray in place."},
    {NULL, NULL, NULL},
};

nn_object *repl_bytes_method(nn_object *o, const char *name)
{
    nn_object *m = repl_method_lookup(bytes_methods, name, o);
    if (!m && !nn_error_current() && o->type == &repl_bytearray_type) m = repl_method_lookup(bytearray_methods, name, o);
    return m;
}

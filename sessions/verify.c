/*
 * verify.c — what `--replay --verify` compares: a cell's output with the lines
 * that change on every run left out (the timing lines of %time and %timeit,
 * marked volatile when the cell is recorded) and object addresses (0x563572812b30
 * in "<torch._C.Generator object at 0x...>") written as "0x?". Pure text: no
 * database here.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sess_int.h"

/* Whether line (n bytes) is a timing line of %time or %timeit (IPython's formats). */
static int timing_line(const char *line, size_t n)
{
    static const char *const starts[] = {"CPU times: ", "Wall time: "};
    for (int i = 0; i < 2; i++)
        if (n >= strlen(starts[i]) && !memcmp(line, starts[i], strlen(starts[i]))) return 1;
    static const char per_loop[] = " per loop (mean ";
    for (size_t i = 0; i + sizeof per_loop - 1 <= n; i++)
        if (!memcmp(line + i, per_loop, sizeof per_loop - 1)) return 1;
    return 0;
}

char *sess_volatile_lines(const char *source, const char *output)
{
    if (!source || !output || !strstr(source, "%time")) return NULL;
    sess_buf b = {0};
    long no = 1;
    for (const char *p = output; *p; no++) {
        size_t n = strcspn(p, "\n");
        if (timing_line(p, n)) sess_buf_printf(&b, "%s%ld", b.len ? " " : "", no);
        p += n + (p[n] == '\n');
    }
    if (b.failed) nn_error_set(NN_ERR_MEMORY, "out of memory marking volatile lines");
    return b.failed ? NULL : b.s;
}

/* Whether 1-based line number no is in the space-separated list. */
static int listed(const char *list, long no)
{
    while (list && *list) {
        char *end;
        long v = strtol(list, &end, 10);
        if (end == list) break;
        if (v == no) return 1;
        list = end;
    }
    return 0;
}

char *sess_output_normalise(const char *output, const char *volatile_lines)
{
    sess_buf b = {0};
    sess_buf_puts(&b, ""); /* "" rather than NULL for an empty output */
    long no = 1;
    for (const char *p = output ? output : ""; *p; no++) {
        size_t n = strcspn(p, "\n");
        int nl = p[n] == '\n';
        if (listed(volatile_lines, no)) {
            sess_buf_puts(&b, "<volatile>");
        } else {
            for (size_t i = 0; i < n; i++) {
                /* 0x and hex digits, not inside a word or a number */
                if (p[i] == '0' && i + 2 < n + 1 && p[i + 1] == 'x' && i + 2 < n && isxdigit((unsigned char)p[i + 2]) &&
                    (i == 0 || !(isalnum((unsigned char)p[i - 1]) || p[i - 1] == '_'))) {
                    sess_buf_puts(&b, "0x?");
                    i += 2;
                    while (i + 1 < n && isxdigit((unsigned char)p[i + 1])) i++;
                    continue;
                }
                sess_buf_append(&b, p + i, 1);
            }
        }
        if (nl) sess_buf_append(&b, "\n", 1);
        p += n + nl;
    }
    if (b.failed) {
        nn_free(b.s);
        nn_error_set(NN_ERR_MEMORY, "out of memory comparing outputs");
        return NULL;
    }
    return b.s;
}

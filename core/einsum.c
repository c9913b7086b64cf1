/*
 * einsum.c — torch.einsum as ATen composes it: per operand, repeated
 * subscripts become diagonals and subscripts no one else needs are summed
 * out; operands then combine left to right, a product over contracted
 * subscripts as one bmm of [batch, left, contracted] @ [batch, contracted,
 * right] (a broadcast mul when nothing is contracted); a final permute puts
 * the output's order. Every step is a differentiable op, so gradients (and
 * grad_fn names: ViewBackward0, MulBackward0, SumBackward1, PermuteBackward0)
 * come from them. Subscripts are letters; "..." stands for the leading dims
 * a subscript list does not name, broadcast across operands.
 */
#include <string.h>

#include "nn_int.h"
#include "nn_scratch.h"
#include "nn_select_more.h"

#define MAX_OPS 16
#define N_CODES 192 /* 'A'..'z' by value; 128.. the ellipsis dims */

typedef struct term {
    nn_tensor *t; /* borrowed from the scratch */
    int n;
    int code[NN_MAX_DIMS]; /* the subscript of each dim */
} term;

static int letter_ok(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Parses one operand's subscripts (text up to ',' or '-' or end) against its
   tensor's ndim: codes of the letters, the ellipsis dims as 128 + k counted
   so that the last ellipsis dim is 128 + n_ell_max - 1. */
static int parse_operand(const char **pp, int ndim, int ell_max, term *out, int index)
{
    const char *p = *pp;
    int letters = 0;
    bool ell = false;
    for (const char *q = p; *q && *q != ',' && *q != '-'; q++) {
        if (*q == '.') {
            if (strncmp(q, "...", 3) || ell)
                return nn_error_set(NN_ERR_RUNTIME, "einsum(): found '.' for operand %d that is not part of any ellipsis",
                                    index);
            ell = true;
            q += 2;
        } else if (letter_ok(*q)) {
            letters++;
        } else {
            return nn_error_set(NN_ERR_RUNTIME, "einsum(): invalid subscript given at index %d in the equation string, "
                                                "subscripts must be in [a-zA-Z]", (int)(q - p));
        }
    }
    int n_ell = ndim - letters;
    if (ell ? n_ell < 0 : n_ell != 0)
        return nn_error_set(NN_ERR_RUNTIME, "einsum(): the number of subscripts in the equation (%d) %s the number of "
                                            "dimensions (%d) for operand %d%s", letters,
                            ell ? "is more than" : "does not match", ndim, index, ell ? "" : " and no ellipsis was given");
    out->n = 0;
    for (; *p && *p != ',' && *p != '-'; p++) {
        if (*p == '.') {
            for (int k = 0; k < n_ell; k++) out->code[out->n++] = 128 + ell_max - n_ell + k;
            p += 2;
        } else {
            out->code[out->n++] = (unsigned char)*p;
        }
    }
    *pp = p;
    return 0;
}

static int find(const term *t, int code)
{
    for (int i = 0; i < t->n; i++)
        if (t->code[i] == code) return i;
    return -1;
}

/* Takes the diagonal of every repeated subscript (moved to the end, as
   diagonal does). */
static int take_diagonals(nn_scratch *s, term *t)
{
    for (int i = 0; i < t->n; i++)
        for (int j = i + 1; j < t->n; j++) {
            if (t->code[i] != t->code[j]) continue;
            if (t->t->sizes[i] != t->t->sizes[j])
                return nn_error_set(NN_ERR_RUNTIME, "einsum(): subscript %c is repeated for operand but the sizes "
                                                    "don't match, %lld != %lld", t->code[i], (long long)t->t->sizes[i],
                                    (long long)t->t->sizes[j]);
            nn_tensor *d = NN_KEEP(s, nn_diagonal(t->t, 0, i, j));
            if (!d) return -1;
            int c = t->code[i], k = 0;
            for (int m = 0; m < t->n; m++)
                if (m != i && m != j) t->code[k++] = t->code[m];
            t->code[k++] = c;
            t->n = k;
            t->t = d;
            i = -1; /* start again: positions moved */
            break;
        }
    return 0;
}

/* Sums the dims whose subscript `needed` does not mark. */
static int sum_unneeded(nn_scratch *s, term *t, const bool *needed)
{
    int dims[NN_MAX_DIMS], nd = 0, k = 0;
    for (int i = 0; i < t->n; i++)
        if (!needed[t->code[i]]) dims[nd++] = i;
    if (!nd) return 0;
    nn_tensor *r = NN_KEEP(s, nn_sum(t->t, nd, dims, false));
    if (!r) return -1;
    for (int i = 0; i < t->n; i++)
        if (needed[t->code[i]]) t->code[k++] = t->code[i];
    t->n = k;
    t->t = r;
    return 0;
}

/* t permuted to the codes in order (each present in t); no node when it
   already is, unless force (ATen permutes a lone operand even so). */
static nn_tensor *arrange(nn_scratch *s, const term *t, int n, const int *order, bool force)
{
    int perm[NN_MAX_DIMS];
    bool same = true;
    for (int i = 0; i < n; i++) {
        perm[i] = find(t, order[i]);
        same &= perm[i] == i;
    }
    return same && !force ? t->t : NN_KEEP(s, nn_permute(t->t, n, perm));
}

static int64_t size_of(const term *a, const term *b, int code)
{
    int i = find(a, code);
    return i >= 0 ? a->t->sizes[i] : b->t->sizes[find(b, code)];
}

/* codes[0..n) ordered by their place in the output (others after, as they were) */
static void by_output(int *codes, int n, const int *pos)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && pos[codes[j - 1]] > pos[codes[j]]; j--) {
            int c = codes[j];
            codes[j] = codes[j - 1];
            codes[j - 1] = c;
        }
}

/* a and b into one term: batch subscripts (in both, kept), contracted (in
   both, not kept), a's own and b's own, each group in the output's order,
   the operand whose own subscripts come first in the output on the left (so
   that the product needs no permute after it, as ATen's). */
static int combine(nn_scratch *s, const term *a, const term *b, const bool *keep, const int *pos, term *out)
{
    int first_a = N_CODES * 2, first_b = N_CODES * 2;
    for (int i = 0; i < a->n; i++)
        if (find(b, a->code[i]) < 0 && pos[a->code[i]] < first_a) first_a = pos[a->code[i]];
    for (int i = 0; i < b->n; i++)
        if (find(a, b->code[i]) < 0 && pos[b->code[i]] < first_b) first_b = pos[b->code[i]];
    if (first_b < first_a) {
        const term *t = a;
        a = b;
        b = t;
    }
    int batch[NN_MAX_DIMS], con[NN_MAX_DIMS], ao[NN_MAX_DIMS], bo[NN_MAX_DIMS], nb = 0, nc = 0, na = 0, nbo = 0;
    for (int i = 0; i < a->n; i++) {
        int c = a->code[i];
        if (find(b, c) < 0) ao[na++] = c;
        else if (keep[c]) batch[nb++] = c;
        else con[nc++] = c;
    }
    for (int i = 0; i < b->n; i++)
        if (find(a, b->code[i]) < 0) bo[nbo++] = b->code[i];
    by_output(batch, nb, pos);
    by_output(ao, na, pos);
    by_output(bo, nbo, pos);
    if (nb + na + nbo > NN_MAX_DIMS) return nn_error_set(NN_ERR_RUNTIME, "einsum(): too many dimensions");
    out->n = 0;
    for (int i = 0; i < nb; i++) out->code[out->n++] = batch[i];
    for (int i = 0; i < na; i++) out->code[out->n++] = ao[i];
    for (int i = 0; i < nbo; i++) out->code[out->n++] = bo[i];
    int64_t sizes[NN_MAX_DIMS];
    for (int i = 0; i < out->n; i++) sizes[i] = size_of(a, b, out->code[i]);
    if (nc == 0) {
        /* a broadcast product: a as [batch, a's, 1...], b as [batch, 1..., b's] */
        int oa[NN_MAX_DIMS], ob[NN_MAX_DIMS];
        int64_t sa[NN_MAX_DIMS], sb[NN_MAX_DIMS];
        memcpy(oa, batch, sizeof(int) * (size_t)nb);
        memcpy(oa + nb, ao, sizeof(int) * (size_t)na);
        memcpy(ob, batch, sizeof(int) * (size_t)nb);
        memcpy(ob + nb, bo, sizeof(int) * (size_t)nbo);
        for (int i = 0; i < out->n; i++) {
            bool in_a = i < nb + na, in_b = i < nb || i >= nb + na;
            sa[i] = in_a ? sizes[i] : 1;
            sb[i] = in_b ? sizes[i] : 1;
        }
        nn_tensor *pa = arrange(s, a, nb + na, oa, false), *pb = pa ? arrange(s, b, nb + nbo, ob, false) : NULL;
        nn_tensor *va = pa && out->n != nb + na ? NN_KEEP(s, nn_reshape(pa, out->n, sa)) : pa;
        nn_tensor *vb = pb && out->n != nb + nbo ? NN_KEEP(s, nn_reshape(pb, out->n, sb)) : pb;
        out->t = va && vb ? NN_KEEP(s, nn_mul(va, vb)) : NULL;
        return out->t ? 0 : -1;
    }
    int oa[NN_MAX_DIMS], ob[NN_MAX_DIMS];
    memcpy(oa, batch, sizeof(int) * (size_t)nb);
    memcpy(oa + nb, ao, sizeof(int) * (size_t)na);
    memcpy(oa + nb + na, con, sizeof(int) * (size_t)nc);
    memcpy(ob, batch, sizeof(int) * (size_t)nb);
    memcpy(ob + nb, con, sizeof(int) * (size_t)nc);
    memcpy(ob + nb + nc, bo, sizeof(int) * (size_t)nbo);
    int64_t B = 1, M = 1, K = 1, N = 1;
    for (int i = 0; i < nb; i++) B *= size_of(a, b, batch[i]);
    for (int i = 0; i < na; i++) M *= size_of(a, b, ao[i]);
    for (int i = 0; i < nc; i++) K *= size_of(a, b, con[i]);
    for (int i = 0; i < nbo; i++) N *= size_of(a, b, bo[i]);
    nn_tensor *pa = arrange(s, a, a->n, oa, false), *pb = pa ? arrange(s, b, b->n, ob, false) : NULL;
    nn_tensor *ra = pb ? NN_KEEP(s, nn_reshape(pa, 3, (int64_t[]){B, M, K})) : NULL;
    nn_tensor *rb = ra ? NN_KEEP(s, nn_reshape(pb, 3, (int64_t[]){B, K, N})) : NULL;
    nn_tensor *p = rb ? NN_KEEP(s, nn_bmm(ra, rb)) : NULL;
    out->t = p ? NN_KEEP(s, nn_view(p, out->n, sizes)) : NULL;
    return out->t ? 0 : -1;
}

nn_tensor *nn_einsum(const char *equation, int n, nn_tensor *const *operands)
{
    if (n < 1) {
        nn_error_set(NN_ERR_RUNTIME, "einsum(): must provide at least one operand");
        return NULL;
    }
    if (n > MAX_OPS) {
        nn_error_set(NN_ERR_RUNTIME, "einsum(): at most %d operands", MAX_OPS);
        return NULL;
    }
    /* the equation without spaces */
    char eq[512];
    size_t m = 0;
    for (const char *p = equation; *p && m + 1 < sizeof eq; p++)
        if (*p != ' ') eq[m++] = *p;
    eq[m] = 0;
    const char *arrow = strstr(eq, "->");
    int commas = 0;
    for (const char *p = eq; *p && (!arrow || p < arrow); p++) commas += *p == ',';
    if (commas + 1 != n) {
        nn_error_set(NN_ERR_RUNTIME, "einsum(): more operands were provided than specified in the equation");
        if (commas + 1 > n) nn_error_set(NN_ERR_RUNTIME, "einsum(): fewer operands were provided than specified in the equation");
        return NULL;
    }
    /* ellipsis width: the most dims an ellipsis stands for */
    int ell_max = 0;
    {
        const char *p = eq;
        for (int k = 0; k < n; k++) {
            int letters = 0;
            bool ell = false;
            for (; *p && *p != ',' && *p != '-'; p++) {
                if (letter_ok(*p)) letters++;
                if (*p == '.') ell = true;
            }
            if (ell && operands[k]->ndim - letters > ell_max) ell_max = operands[k]->ndim - letters;
            if (*p == ',') p++;
        }
    }
    nn_scratch s = {0};
    term t[MAX_OPS];
    int count[N_CODES] = {0};
    int64_t size[N_CODES];
    const char *p = eq;
    for (int k = 0; k < n; k++) {
        t[k].t = operands[k];
        if (parse_operand(&p, operands[k]->ndim, ell_max, &t[k], k) < 0) goto fail;
        if (*p == ',') p++;
        for (int i = 0; i < t[k].n; i++) count[t[k].code[i]]++;
    }
    /* the output's subscripts */
    int out_code[NN_MAX_DIMS], n_out = 0;
    bool in_out[N_CODES] = {0};
    if (arrow) {
        for (const char *q = arrow + 2; *q; q++) {
            if (*q == '.') {
                if (strncmp(q, "...", 3)) {
                    nn_error_set(NN_ERR_RUNTIME, "einsum(): found '.' for output that is not part of any ellipsis");
                    goto fail;
                }
                for (int k = 0; k < ell_max; k++) out_code[n_out++] = 128 + k, in_out[128 + k] = true;
                q += 2;
                continue;
            }
            int c = (unsigned char)*q;
            if (!letter_ok(*q)) {
                nn_error_set(NN_ERR_RUNTIME, "einsum(): invalid subscript given at index %d in the equation string, "
                                             "subscripts must be in [a-zA-Z]", (int)(q - eq));
                goto fail;
            }
            if (in_out[c]) {
                nn_error_set(NN_ERR_RUNTIME, "einsum(): output subscript %c appears more than once in the output", *q);
                goto fail;
            }
            if (!count[c]) {
                nn_error_set(NN_ERR_RUNTIME, "einsum(): output subscript %c does not appear in the equation for any "
                                             "input operand", *q);
                goto fail;
            }
            in_out[c] = true;
            out_code[n_out++] = c;
        }
    } else {
        for (int k = 0; k < ell_max; k++) out_code[n_out++] = 128 + k, in_out[128 + k] = true;
        for (int c = 'A'; c <= 'z'; c++)
            if (count[c] == 1 && letter_ok((char)c)) out_code[n_out++] = c, in_out[c] = true;
    }
    /* sizes agree across operands; a size-1 dim broadcasts */
    for (int c = 0; c < N_CODES; c++) size[c] = -1;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < t[k].n; i++) {
            int c = t[k].code[i];
            int64_t z = t[k].t->sizes[i];
            if (size[c] == -1 || size[c] == 1) {
                size[c] = z;
            } else if (z != 1 && z != size[c] && count[c] > 1) {
                if (c < 128)
                    nn_error_set(NN_ERR_RUNTIME, "einsum(): subscript %c has size %lld for operand %d which does not "
                                                 "broadcast with previously seen size %lld",
                                 c, (long long)z, k, (long long)size[c]);
                else
                    nn_error_set(NN_ERR_RUNTIME, "einsum(): operands do not broadcast with remapped shapes "
                                                 "(original->remapped)");
                goto fail;
            }
        }
    for (int k = 0; k < n; k++) {
        int64_t want[NN_MAX_DIMS];
        bool expand = false;
        for (int i = 0; i < t[k].n; i++) {
            want[i] = t[k].t->sizes[i];
            if (want[i] == 1 && size[t[k].code[i]] != 1 && count[t[k].code[i]] > 1) {
                /* a size-1 dim against a larger one: summed alone first when no one
                   else keeps it would be wrong; broadcast it */
                want[i] = size[t[k].code[i]];
                expand = true;
            }
        }
        if (expand && !(t[k].t = NN_KEEP(&s, nn_expand(t[k].t, t[k].n, want)))) goto fail;
        if (take_diagonals(&s, &t[k]) < 0) goto fail;
    }
    /* each subscript's place in the output (N_CODES + code for the others) */
    int pos[N_CODES];
    for (int c = 0; c < N_CODES; c++) pos[c] = N_CODES + c;
    for (int i = 0; i < n_out; i++) pos[out_code[i]] = i;
    /* fold left to right */
    term acc = t[0];
    bool summed = false;
    for (int k = 0; k <= n - 1; k++) {
        bool keep[N_CODES] = {0};
        for (int c = 0; c < N_CODES; c++) keep[c] = in_out[c];
        for (int j = k + 1; j < n; j++)
            for (int i = 0; i < t[j].n; i++) keep[t[j].code[i]] = true;
        if (k == 0) {
            nn_tensor *before = acc.t;
            if (sum_unneeded(&s, &acc, keep) < 0) goto fail;
            summed = acc.t != before;
            continue;
        }
        /* b's own subscripts nobody keeps are summed first */
        bool keep_b[N_CODES];
        memcpy(keep_b, keep, sizeof keep);
        for (int i = 0; i < acc.n; i++) keep_b[acc.code[i]] = true;
        term b = t[k], r;
        if (sum_unneeded(&s, &b, keep_b) < 0) goto fail;
        bool keep_a[N_CODES];
        memcpy(keep_a, keep, sizeof keep);
        for (int i = 0; i < b.n; i++) keep_a[b.code[i]] = true;
        if (sum_unneeded(&s, &acc, keep_a) < 0) goto fail;
        if (combine(&s, &acc, &b, keep, pos, &r) < 0) goto fail;
        acc = r;
    }
    nn_tensor *res = arrange(&s, &acc, n_out, out_code, n == 1 && !summed);
    if (!res) goto fail;
    NN_RETAIN(res);
    nn_scratch_free(&s);
    return res;
fail:
    nn_scratch_free(&s);
    return NULL;
}

/*
 * mod_random.c — the module random as CPython 3.11's: its Mersenne Twister
 * (core's mt19937 words, seeded by CPython's init_by_array of the 32-bit
 * chunks of abs(seed)), and the methods of random.Random written as CPython's
 * random.py writes them, so that the same seed gives the same numbers:
 * random, getrandbits, randrange / randint / choice / shuffle / sample through
 * _randbelow's getrandbits rejection, uniform, gauss (with its cached second
 * value), normalvariate, expovariate, choices, getstate/setstate. The module's
 * functions share one generator, as CPython's share one hidden Random();
 * random.Random(x) objects (written in the language, below) each own one.
 * Not here: str seeds (CPython hashes them with SHA-512), SystemRandom.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "bigint.h"
#include "bind_int.h"
#include "stdlib_int.h"

/* One generator's state: the module's, or a random.Random instance's. */
typedef struct py_rng {
    nn_object ob;
    nn_generator gen;
    bool seeded;         /* false: seeded from the OS on first use */
    bool has_gauss_next; /* gauss() made two values and returned one */
    double gauss_next;
} py_rng;

/* CPython's init_by_array (the reference mt19937ar's). */
static void init_by_array(py_rng *st, const uint32_t *key, size_t n)
{
    nn_generator_seed(&st->gen, 19650218u);
    uint32_t *mt = st->gen.state;
    size_t i = 1, j = 0;
    for (size_t k = 624 > n ? 624 : n; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++, j++;
        if (i >= 624) mt[0] = mt[623], i = 1;
        if (j >= n) j = 0;
    }
    for (size_t k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= 624) mt[0] = mt[623], i = 1;
    }
    mt[0] = 0x80000000u;
    st->gen.next = 624; /* the first draw twists */
    st->seeded = true;
    st->has_gauss_next = false;
}

/* seed(n) for an integer: its magnitude's 32-bit words, least significant first. */
static void seed_u64(py_rng *st, uint64_t v)
{
    uint32_t key[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
    init_by_array(st, key, key[1] ? 2 : 1);
}

/* The generator, st->seeded from the OS on first use as CPython's. */
static nn_generator *g(py_rng *st)
{
    if (!st->seeded) {
        uint32_t key[624];
        int fd = open("/dev/urandom", O_RDONLY);
        ssize_t got = fd >= 0 ? read(fd, key, sizeof key) : -1;
        if (fd >= 0) close(fd);
        if (got != (ssize_t)sizeof key) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            for (size_t i = 0; i < 624; i++) key[i] = (uint32_t)(ts.tv_nsec * 2654435761u + i * 40503u + getpid());
        }
        init_by_array(st, key, 624);
    }
    return &st->gen;
}

/* random(): 53 random bits as CPython's random_random. */
static double rnd(py_rng *st)
{
    uint32_t a = nn_generator_random(g(st)) >> 5, b = nn_generator_random(g(st)) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* getrandbits(k) for 0 <= k <= 64: the words little-endian, the last one's top bits. */
static uint64_t randbits(py_rng *st, int k)
{
    if (k == 0) return 0;
    if (k <= 32) return nn_generator_random(g(st)) >> (32 - k);
    uint64_t lo = nn_generator_random(g(st));
    uint64_t hi = nn_generator_random(g(st)) >> (64 - k);
    return hi << 32 | lo;
}

/* _randbelow(n), n > 0: getrandbits(n.bit_length()) until below n. */
static int64_t randbelow(py_rng *st, int64_t n)
{
    int k = 64 - __builtin_clzll((uint64_t)n);
    uint64_t r = randbits(st, k);
    while (r >= (uint64_t)n) r = randbits(st, k);
    return (int64_t)r;
}

/* Parses the arguments of Random.name against spec (bind_args.c's parser). */
static int parse(const char *name, const char *spec, nn_object *args, nn_object *kwargs, nn_object **out)
{
    char fname[48];
    snprintf(fname, sizeof fname, "Random.%s", name);
    return repl_parse_args(fname, spec, args, kwargs, out);
}

/* hash(x) of a float as CPython's (x mod 2**61 - 1, signed): what seed() uses. */
static int64_t float_hash(double v)
{
    const uint64_t modulus = ((uint64_t)1 << 61) - 1;
    if (isinf(v)) return v > 0 ? 314159 : -314159;
    if (isnan(v)) return 0;
    int e, sign = 1;
    double m = frexp(v, &e);
    if (m < 0) {
        sign = -1;
        m = -m;
    }
    uint64_t x = 0;
    while (m) { /* 28 bits of the mantissa at a time, x rotated left mod 2**61 - 1 */
        x = ((x << 28) & modulus) | x >> (61 - 28);
        m *= 268435456.0;
        e -= 28;
        uint64_t y = (uint64_t)m;
        m -= (double)y;
        x += y;
        if (x >= modulus) x -= modulus;
    }
    e = e >= 0 ? e % 61 : 60 - ((-1 - e) % 61);
    x = ((x << e) & modulus) | x >> (61 - e);
    int64_t h = (int64_t)x * sign;
    return h == -1 ? -2 : h;
}

/* seed(n) for a big int: all of its magnitude's 32-bit words. */
static int seed_big(py_rng *st, mpz_srcptr v)
{
    size_t n = (mpz_sizeinbase(v, 2) + 31) / 32;
    uint32_t *key = nn_malloc(n * sizeof *key);
    if (!key) return -1;
    mpz_export(key, &n, -1, sizeof *key, 0, 0, v); /* least significant word first; the sign is dropped */
    init_by_array(st, key, n);
    nn_free(key);
    return 0;
}

static nn_object *rng_seed(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2];
    if (parse("seed", "a=, version=", args, kwargs, a) < 0) return NULL;
    nn_object *s = a[0];
    if (!s || nn_is_none(s)) {
        st->seeded = false;
        g(st);
    } else if (nn_is_int(s) || nn_is_bool(s)) {
        int64_t v = nn_int_value(s);
        seed_u64(st, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    } else if (repl_is_bigint(s)) {
        if (seed_big(st, repl_bigint_mpz(s)) < 0) return NULL;
    } else if (nn_is_float(s)) {
        int64_t h = float_hash(nn_float_value(s)); /* CPython seeds a float by its hash */
        seed_u64(st, h < 0 ? 0 - (uint64_t)h : (uint64_t)h);
    } else if (nn_is_str(s)) {
        repl_raise_exc(EXC_NotImplementedError, "random.seed() of a str is not supported here: use an int");
        return NULL;
    } else {
        repl_raise_exc(EXC_TypeError, "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.");
        return NULL;
    }
    st->has_gauss_next = false;
    return nn_retain(nn_none());
}

static nn_object *rng_random(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1];
    if (nn_tuple_len(args)) {
        repl_raise_exc(EXC_TypeError, "Random.random() takes no arguments (%zu given)", nn_tuple_len(args));
        return NULL;
    }
    if (parse("random", "", args, kwargs, a) < 0) return NULL;
    return nn_float_new(rnd(st));
}

static nn_object *rng_getrandbits(py_rng *st, nn_object *args, nn_object *kwargs)
{
    int64_t k;
    if (repl_mod_nargs("Random.getrandbits", args, kwargs, 1, 1) < 0 || repl_mod_int(nn_tuple_get(args, 0), &k) < 0)
        return NULL;
    if (k < 0) {
        repl_raise_exc(EXC_ValueError, "number of bits must be non-negative");
        return NULL;
    }
    if (k <= 32) return nn_int_new((int64_t)randbits(st, (int)k));
    /* CPython's words, least significant first, the last one's top bits */
    if (repl_bigint_reserve((double)k) < 0) return NULL;
    size_t words = (size_t)((k - 1) / 32 + 1);
    uint32_t *w = nn_malloc(words * sizeof *w);
    if (!w) return NULL;
    for (size_t i = 0; i < words; i++, k -= 32) w[i] = nn_generator_random(g(st)) >> (k < 32 ? 32 - k : 0);
    mpz_t z;
    mpz_init(z);
    mpz_import(z, words, -1, sizeof *w, 0, 0, w);
    nn_free(w);
    return repl_int_from_mpz(z);
}

/* An integer argument of randrange: an int, or an integral float (deprecated in 3.11). */
static int range_arg(nn_object *o, const char *what, int64_t *out)
{
    if (nn_is_int(o) || nn_is_bool(o)) {
        *out = nn_int_value(o);
        return 0;
    }
    if (nn_is_float(o)) {
        double v = nn_float_value(o);
        if (v != floor(v) || !isfinite(v)) return repl_raise_exc(EXC_ValueError, "non-integer %s for randrange()", what);
        *out = (int64_t)v;
        return 0;
    }
    return repl_raise_exc(EXC_TypeError, "'%s' object cannot be interpreted as an integer", repl_value_type_name(o));
}

static nn_object *randrange(py_rng *st, nn_object *start, nn_object *stop, nn_object *step)
{
    int64_t istart = 0, istop = 0, istep = 1;
    if (range_arg(start, "arg 1", &istart) < 0) return NULL;
    if (!stop || nn_is_none(stop)) {
        if (step) {
            repl_raise_exc(EXC_TypeError, "Missing a non-None stop argument");
            return NULL;
        }
        if (istart > 0) return nn_int_new(randbelow(st, istart));
        repl_raise_exc(EXC_ValueError, "empty range for randrange()");
        return NULL;
    }
    if (range_arg(stop, "stop", &istop) < 0 || (step && range_arg(step, "step", &istep) < 0)) return NULL;
    int64_t width = istop - istart;
    if (istep == 1) {
        if (width > 0) return nn_int_new(istart + randbelow(st, width));
        repl_raise_exc(EXC_ValueError, "empty range for randrange() (%lld, %lld, %lld)", (long long)istart,
                       (long long)istop, (long long)width);
        return NULL;
    }
    int64_t n;
    if (istep == 0) {
        repl_raise_exc(EXC_ValueError, "zero step for randrange()");
        return NULL;
    }
    /* Python's floor division */
    int64_t num = istep > 0 ? width + istep - 1 : width + istep + 1;
    n = num / istep - ((num % istep != 0) && ((num < 0) != (istep < 0)));
    if (n <= 0) {
        repl_raise_exc(EXC_ValueError, "empty range for randrange()");
        return NULL;
    }
    return nn_int_new(istart + istep * randbelow(st, n));
}

static nn_object *rng_randrange(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3];
    if (parse("randrange", "start, stop=, step=", args, kwargs, a) < 0) return NULL;
    return randrange(st, a[0], a[1], a[2]);
}

static nn_object *rng_randint(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2];
    if (parse("randint", "a, b", args, kwargs, a) < 0) return NULL;
    nn_object *one = nn_int_new(1), *stop = one ? repl_binary_op(REPL_ADD, a[1], one) : NULL;
    NN_RELEASE(one);
    nn_object *r = stop ? randrange(st, a[0], stop, NULL) : NULL;
    NN_RELEASE(stop);
    return r;
}

/* len(seq), with CPython's TypeError for objects without one. */
static int seq_len(nn_object *seq, int64_t *n) { return repl_length(seq, n); }

static nn_object *item_at(nn_object *seq, int64_t i)
{
    nn_object *k = nn_int_new(i);
    nn_object *v = k ? repl_get_item(seq, k) : NULL;
    NN_RELEASE(k);
    return v;
}

static nn_object *rng_choice(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1];
    int64_t n;
    if (parse("choice", "seq", args, kwargs, a) < 0 || seq_len(a[0], &n) < 0) return NULL;
    if (!n) {
        repl_raise_exc(EXC_IndexError, "Cannot choose from an empty sequence");
        return NULL;
    }
    return item_at(a[0], randbelow(st, n));
}

static nn_object *rng_shuffle(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1];
    int64_t n;
    if (parse("shuffle", "x", args, kwargs, a) < 0 || seq_len(a[0], &n) < 0) return NULL;
    if (!nn_is_list(a[0])) {
        repl_raise_exc(EXC_TypeError, "'%s' object does not support item assignment", repl_value_type_name(a[0]));
        return NULL;
    }
    nn_object *l = a[0];
    for (int64_t i = n - 1; i >= 1; i--) {
        int64_t j = randbelow(st, i + 1);
        nn_object *x = nn_retain(nn_list_get(l, (size_t)i)), *y = nn_retain(nn_list_get(l, (size_t)j));
        nn_list_set(l, (size_t)i, y);
        nn_list_set(l, (size_t)j, x);
    }
    return nn_retain(nn_none());
}

/* Whether o is a sequence as collections.abc.Sequence says (not a set or dict). */
static bool is_sequence(nn_object *o)
{
    const nn_type *t = o->type;
    if (t == &nn_list_type || t == &nn_tuple_type || t == &nn_str_type || t == &repl_range_type || t->base == &nn_tuple_type)
        return true;
    return t == &repl_instance_type && repl_class_lookup(((instance_obj *)o)->cls, "__getitem__") &&
           repl_class_lookup(((instance_obj *)o)->cls, "__len__");
}

static nn_object *rng_sample(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3];
    int64_t n, k;
    if (parse("sample", "population, k, *, counts=", args, kwargs, a) < 0) return NULL;
    if (a[2] && !nn_is_none(a[2])) {
        repl_raise_exc(EXC_NotImplementedError, "sample(counts=...) is not supported here");
        return NULL;
    }
    if (!is_sequence(a[0])) {
        repl_raise_exc(EXC_TypeError, "Population must be a sequence.  For dicts or sets, use sorted(d).");
        return NULL;
    }
    if (seq_len(a[0], &n) < 0 || repl_mod_int(a[1], &k) < 0) return NULL;
    if (k < 0 || k > n) {
        repl_raise_exc(EXC_ValueError, "Sample larger than population or is negative");
        return NULL;
    }
    nn_object *result = nn_list_new((size_t)k);
    if (!result) return NULL;
    int64_t setsize = 21;
    if (k > 5) setsize += (int64_t)pow(4, ceil(log((double)(k * 3)) / log(4)));
    if (n <= setsize) {
        nn_object *pool = repl_to_list(a[0]);
        if (!pool) goto fail;
        for (int64_t i = 0; i < k; i++) {
            int64_t j = randbelow(st, n - i);
            if (nn_list_append(result, nn_list_get(pool, (size_t)j)) < 0) {
                NN_RELEASE(pool);
                goto fail;
            }
            nn_list_set(pool, (size_t)j, nn_retain(nn_list_get(pool, (size_t)(n - i - 1))));
        }
        NN_RELEASE(pool);
    } else {
        uint8_t *selected = nn_calloc((size_t)n, 1);
        if (!selected) goto fail;
        for (int64_t i = 0; i < k; i++) {
            int64_t j = randbelow(st, n);
            while (selected[j]) j = randbelow(st, n);
            selected[j] = 1;
            nn_object *v = item_at(a[0], j);
            int rc = v ? nn_list_append(result, v) : -1;
            NN_RELEASE(v);
            if (rc < 0) {
                nn_free(selected);
                goto fail;
            }
        }
        nn_free(selected);
    }
    return result;
fail:
    NN_RELEASE(result);
    return NULL;
}

/* A float parameter of the distributions (parsed object or default). */
static int real_or(nn_object *o, double dflt, double *out)
{
    *out = dflt;
    return o ? repl_mod_real(o, out) : 0;
}

static nn_object *rng_uniform(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2];
    double lo, hi;
    if (parse("uniform", "a, b", args, kwargs, a) < 0 || repl_mod_real(a[0], &lo) < 0 || repl_mod_real(a[1], &hi) < 0)
        return NULL;
    return nn_float_new(lo + (hi - lo) * rnd(st));
}

/* The (mu=0.0, sigma=1.0) parameters of gauss and normalvariate. 0 or -1. */
static int mu_sigma(const char *name, nn_object *args, nn_object *kwargs, double *mu, double *sigma)
{
    nn_object *a[2];
    if (parse(name, "mu=, sigma=", args, kwargs, a) < 0 || real_or(a[0], 0.0, mu) < 0 || real_or(a[1], 1.0, sigma) < 0)
        return -1;
    return 0;
}

static nn_object *rng_gauss(py_rng *st, nn_object *args, nn_object *kwargs)
{
    double mu, sigma;
    if (mu_sigma("gauss", args, kwargs, &mu, &sigma) < 0) return NULL;
    double z = st->gauss_next;
    bool have = st->has_gauss_next;
    st->has_gauss_next = false;
    if (!have) {
        double x2pi = rnd(st) * (2 * M_PI);
        double g2rad = sqrt(-2.0 * log(1.0 - rnd(st)));
        z = cos(x2pi) * g2rad;
        st->gauss_next = sin(x2pi) * g2rad;
        st->has_gauss_next = true;
    }
    return nn_float_new(mu + z * sigma);
}

static nn_object *rng_normalvariate(py_rng *st, nn_object *args, nn_object *kwargs)
{
    double mu, sigma;
    if (mu_sigma("normalvariate", args, kwargs, &mu, &sigma) < 0) return NULL;
    const double magic = 4 * exp(-0.5) / sqrt(2.0);
    double z;
    for (;;) {
        double u1 = rnd(st), u2 = 1.0 - rnd(st);
        z = magic * (u1 - 0.5) / u2;
        if (z * z / 4.0 <= -log(u2)) break;
    }
    return nn_float_new(mu + z * sigma);
}

static nn_object *rng_expovariate(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1];
    double lambd;
    if (parse("expovariate", "lambd", args, kwargs, a) < 0 || repl_mod_real(a[0], &lambd) < 0) return NULL;
    if (lambd == 0) {
        repl_raise_exc(EXC_ZeroDivisionError, "float division by zero");
        return NULL;
    }
    return nn_float_new(-log(1.0 - rnd(st)) / lambd);
}

/* choices(population, weights=None, *, cum_weights=None, k=1) */
static nn_object *rng_choices(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[4];
    int64_t n, k = 1;
    if (parse("choices", "population, weights=, *, cum_weights=, k=", args, kwargs, a) < 0 ||
        seq_len(a[0], &n) < 0 || (a[3] && repl_mod_int(a[3], &k) < 0))
        return NULL;
    nn_object *w = a[1] && !nn_is_none(a[1]) ? a[1] : NULL, *cw = a[2] && !nn_is_none(a[2]) ? a[2] : NULL;
    nn_object *result = nn_list_new(k > 0 ? (size_t)k : 0);
    if (!result) return NULL;
    double *cum = NULL;
    if (w && cw) {
        repl_raise_exc(EXC_TypeError, "Cannot specify both weights and cumulative weights");
        goto fail;
    }
    if (w || cw) {
        nn_object *l = repl_to_list(w ? w : cw);
        if (!l) goto fail;
        size_t m = nn_list_len(l);
        cum = nn_malloc((m ? m : 1) * sizeof *cum);
        double acc = 0;
        for (size_t i = 0; cum && i < m; i++) {
            double x;
            if (repl_mod_real(nn_list_get(l, i), &x) < 0) {
                NN_RELEASE(l);
                goto fail;
            }
            cum[i] = w ? (acc += x) : x;
        }
        NN_RELEASE(l);
        if (!cum) goto fail;
        if ((int64_t)m != n) {
            repl_raise_exc(EXC_ValueError, "The number of weights does not match the population");
            goto fail;
        }
        if (n == 0) {
            repl_raise_exc(EXC_IndexError, "list index out of range");
            goto fail;
        }
        double total = cum[n - 1];
        if (total <= 0.0) {
            repl_raise_exc(EXC_ValueError, "Total of weights must be greater than zero");
            goto fail;
        }
        if (!isfinite(total)) {
            repl_raise_exc(EXC_ValueError, "Total of weights must be finite");
            goto fail;
        }
        for (int64_t i = 0; i < k; i++) {
            double x = rnd(st) * total;
            int64_t lo = 0, hi = n - 1; /* bisect_right(cum, x, 0, n - 1) */
            while (lo < hi) {
                int64_t mid = (lo + hi) / 2;
                if (x < cum[mid]) hi = mid;
                else lo = mid + 1;
            }
            nn_object *v = item_at(a[0], lo);
            int rc = v ? nn_list_append(result, v) : -1;
            NN_RELEASE(v);
            if (rc < 0) goto fail;
        }
    } else {
        for (int64_t i = 0; i < k; i++) {
            nn_object *v = item_at(a[0], (int64_t)floor(rnd(st) * (double)n));
            int rc = v ? nn_list_append(result, v) : -1;
            NN_RELEASE(v);
            if (rc < 0) goto fail;
        }
    }
    nn_free(cum);
    return result;
fail:
    nn_free(cum);
    NN_RELEASE(result);
    return NULL;
}

/* getstate(): CPython's (3, (624 words..., index), gauss_next or None). */
static nn_object *rng_getstate(py_rng *st, nn_object *args, nn_object *kwargs)
{
    if (parse("getstate", "", args, kwargs, NULL) < 0) return NULL;
    g(st);
    nn_object *words = nn_tuple_new(625), *r = NULL;
    if (!words) return NULL;
    for (size_t i = 0; i < 625; i++) {
        nn_object *w = nn_int_new(i < 624 ? (int64_t)st->gen.state[i] : st->gen.next);
        if (!w) goto done;
        nn_tuple_set(words, i, w);
    }
    r = nn_tuple_new(3);
    nn_object *version = nn_int_new(3), *gauss = st->has_gauss_next ? nn_float_new(st->gauss_next) : nn_retain(nn_none());
    if (!r || !version || !gauss) {
        NN_RELEASE(version);
        NN_RELEASE(gauss);
        NN_SET(r, NULL);
        goto done;
    }
    nn_tuple_set(r, 0, version);
    nn_tuple_set(r, 1, nn_retain(words));
    nn_tuple_set(r, 2, gauss);
done:
    NN_RELEASE(words);
    return r;
}

/* setstate(state): what getstate() gave; the state is unchanged on error. */
static nn_object *rng_setstate(py_rng *st, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1];
    if (parse("setstate", "state", args, kwargs, a) < 0) return NULL;
    nn_object *state = a[0];
    if (state->type != &nn_tuple_type || nn_tuple_len(state) != 3) {
        repl_raise_exc(EXC_TypeError, "state vector must be a tuple");
        return NULL;
    }
    nn_object *version = nn_tuple_get(state, 0), *words = nn_tuple_get(state, 1), *gauss = nn_tuple_get(state, 2);
    /* version 2 (Python 2's) keeps its words modulo 2**32 */
    bool v2 = nn_is_int(version) && nn_int_value(version) == 2;
    if (!v2 && (!nn_is_int(version) || nn_int_value(version) != 3)) {
        char *v = nn_repr(version);
        repl_raise_exc(EXC_ValueError, "state with version %s passed to Random.setstate() of version 3", v ? v : "?");
        nn_free(v);
        return NULL;
    }
    if (words->type != &nn_tuple_type || nn_tuple_len(words) != 625) {
        repl_raise_exc(EXC_ValueError, "state vector is the wrong size");
        return NULL;
    }
    double gauss_next = 0;
    if (!nn_is_none(gauss) && repl_mod_real(gauss, &gauss_next) < 0) return NULL;
    nn_generator gen = st->gen;
    for (size_t i = 0; i < 625; i++) {
        nn_object *w = nn_tuple_get(words, i);
        int64_t v;
        if (v2 && nn_is_int(w)) v = (int64_t)(uint32_t)nn_int_value(w);
        else if (!nn_is_int(w) || (v = nn_int_value(w)) < 0 || v > UINT32_MAX) {
            repl_raise_exc(nn_is_int(w) || repl_is_bigint(w) ? EXC_OverflowError : EXC_TypeError,
                           nn_is_int(w) || repl_is_bigint(w) ? "Python int too large to convert to C unsigned long"
                                                             : "an integer is required");
            return NULL;
        }
        if (i < 624) gen.state[i] = (uint32_t)v;
        else if (v > 624) {
            repl_raise_exc(EXC_ValueError, "invalid state");
            return NULL;
        } else gen.next = (int)v;
    }
    st->gen = gen;
    st->seeded = true;
    st->has_gauss_next = !nn_is_none(gauss);
    st->gauss_next = gauss_next;
    return nn_retain(nn_none());
}

typedef nn_object *(*rng_fn)(py_rng *st, nn_object *args, nn_object *kwargs);

static void rng_dealloc(nn_object *self) { nn_free(self); }

static const nn_type rng_type = {.name = "random._state", .dealloc = rng_dealloc};

/* The module's generator: its functions are the methods of one hidden
   generator, as CPython's are bound methods of one Random(). Never freed. */
static py_rng module_rng = {.ob = {.refcount = 1, .type = &rng_type}};

/* _state_new(): an unseeded state for a random.Random (seeded from the OS on
   first use unless its __init__ seeds it). */
static nn_object *rng_state_new(void *ud, nn_object *args, nn_object *kwargs)
{
    if (repl_mod_nargs("_state_new", args, kwargs, 0, 0) < 0) return NULL;
    py_rng *st = nn_calloc(1, sizeof *st);
    if (st) nn_object_init(&st->ob, &rng_type);
    return st ? &st->ob : NULL;
}

/* A Random method's helper _NAME(state, *args, **kwargs): fn on that state. */
static nn_object *on_instance(rng_fn fn, nn_object *args, nn_object *kwargs)
{
    size_t n = nn_tuple_len(args);
    nn_object *st = n ? nn_tuple_get(args, 0) : NULL;
    if (!st || st->type != &rng_type) {
        repl_raise_exc(EXC_TypeError, "random.Random's helpers take its state first");
        return NULL;
    }
    nn_object *rest = nn_tuple_new(n - 1);
    if (!rest) return NULL;
    for (size_t i = 1; i < n; i++) nn_tuple_set(rest, i - 1, nn_retain(nn_tuple_get(args, i)));
    nn_object *r = fn((py_rng *)st, rest, kwargs);
    NN_RELEASE(rest);
    return r;
}

/* For each method: random.NAME on the module's generator, and the helper
   _NAME(state, ...) that random.Random.NAME calls. */
#define RNG_METHODS(X)                                                                                                 \
    X(seed, "seed(a=None, version=2)\nInitialize internal state from a seed (None: from the OS).")                   \
    X(random, "random()\nx in the interval [0, 1).")                                                                   \
    X(getrandbits, "getrandbits(k, /)\ngetrandbits(k) -> x.  Generates an int with k random bits.")                   \
    X(randrange, "randrange(start, stop=None, step=1)\nChoose a random item from range(start, stop[, step]).")          \
    X(randint, "randint(a, b)\nReturn random integer in range [a, b], including both end points.")                    \
    X(choice, "choice(seq)\nChoose a random element from a non-empty sequence.")                                       \
    X(choices, "choices(population, weights=None, *, cum_weights=None, k=1)\n"                                         \
               "Return a k sized list of population elements chosen with replacement.")                                \
    X(shuffle, "shuffle(x)\nShuffle list x in place, and return None.")                                                \
    X(sample, "sample(population, k, *, counts=None)\nChooses k unique random elements from a population sequence.")  \
    X(uniform, "uniform(a, b)\nGet a random number in the range [a, b) or [a, b] depending on rounding.")             \
    X(gauss, "gauss(mu=0.0, sigma=1.0)\nGaussian distribution (faster than normalvariate, not thread-safe).")        \
    X(normalvariate, "normalvariate(mu=0.0, sigma=1.0)\nNormal distribution.")                                        \
    X(expovariate, "expovariate(lambd)\nExponential distribution.")                                                    \
    X(getstate, "getstate()\nReturn internal state; can be passed to setstate() later.")                              \
    X(setstate, "setstate(state)\nRestore internal state from object returned by getstate().")

#define RNG_WRAPPERS(name, doc)                                                                                        \
    static nn_object *mod_##name(void *ud, nn_object *args, nn_object *kwargs)                                         \
    {                                                                                                                  \
        return rng_##name(&module_rng, args, kwargs);                                                                  \
    }                                                                                                                  \
    static nn_object *inst_##name(void *ud, nn_object *args, nn_object *kwargs)                                        \
    {                                                                                                                  \
        return on_instance(rng_##name, args, kwargs);                                                                  \
    }
RNG_METHODS(RNG_WRAPPERS)

#define RNG_MODULE_ENTRY(name, doc) {#name, mod_##name, doc},
#define RNG_HELPER_ENTRY(name, doc) {"_" #name, inst_##name, "_" doc},

static const repl_mod_fn helpers[] = {
    RNG_METHODS(RNG_MODULE_ENTRY) RNG_METHODS(RNG_HELPER_ENTRY)
    {"_state_new", rng_state_new, "_state_new()\nA new generator state for random.Random."},
};

/* source: begin */
static const char source[] =
    "# random.Random, written in the language over the C helpers _NAME(state, ...).\n"
    "\n"
    "\n"
    "class Random:\n"
    "    \"\"\"Random number generator base class used by bound module functions.\"\"\"\n"
    "\n"
    "    VERSION = 3\n"
    "\n"
    "    def __init__(self, x=None):\n"
    "        self._state = _state_new()\n"
    "        _seed(self._state, x)\n"
    "\n"
    "    def seed(self, *args, **kwargs):\n"
    "        return _seed(self._state, *args, **kwargs)\n"
    "\n"
    "    def random(self, *args, **kwargs):\n"
    "        return _random(self._state, *args, **kwargs)\n"
    "\n"
    "    def getrandbits(self, *args, **kwargs):\n"
    "        return _getrandbits(self._state, *args, **kwargs)\n"
    "\n"
    "    def randrange(self, *args, **kwargs):\n"
    "        return _randrange(self._state, *args, **kwargs)\n"
    "\n"
    "    def randint(self, *args, **kwargs):\n"
    "        return _randint(self._state, *args, **kwargs)\n"
    "\n"
    "    def choice(self, *args, **kwargs):\n"
    "        return _choice(self._state, *args, **kwargs)\n"
    "\n"
    "    def choices(self, *args, **kwargs):\n"
    "        return _choices(self._state, *args, **kwargs)\n"
    "\n"
    "    def shuffle(self, *args, **kwargs):\n"
    "        return _shuffle(self._state, *args, **kwargs)\n"
    "\n"
    "    def sample(self, *args, **kwargs):\n"
    "        return _sample(self._state, *args, **kwargs)\n"
    "\n"
    "    def uniform(self, *args, **kwargs):\n"
    "        return _uniform(self._state, *args, **kwargs)\n"
    "\n"
    "    def gauss(self, *args, **kwargs):\n"
    "        return _gauss(self._state, *args, **kwargs)\n"
    "\n"
    "    def normalvariate(self, *args, **kwargs):\n"
    "        return _normalvariate(self._state, *args, **kwargs)\n"
    "\n"
    "    def expovariate(self, *args, **kwargs):\n"
    "        return _expovariate(self._state, *args, **kwargs)\n"
    "\n"
    "    def getstate(self, *args, **kwargs):\n"
    "        return _getstate(self._state, *args, **kwargs)\n"
    "\n"
    "    def setstate(self, *args, **kwargs):\n"
    "        return _setstate(self._state, *args, **kwargs)\n";
/* source: end */

nn_object *repl_mod_random(void)
{
    return repl_mod_from_source("random", helpers, sizeof helpers / sizeof *helpers, source);
}

/*
 * mod_random.c — the module random as CPython 3.11's: its Mersenne Twister
 * (core's mt19937 words, seeded by CPython's init_by_array of the 32-bit
 * chunks of abs(seed)), and the methods of random.Random written as CPython's
 * random.py writes them, so that the same seed gives the same numbers:
 * random, getrandbits, randrange / randint / choice / shuffle / sample through
 * _randbelow's getrandbits rejection, uniform, gauss (with its cached second
 * value), normalvariate, expovariate, choices. One generator per process, as
 * CPython's module functions share one Random(). Not here: random.Random
 * instances, str seeds (CPython hashes them with SHA-512), getstate/setstate.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "bind_int.h"
#include "stdlib_int.h"

static nn_generator gen;
static bool seeded;
static bool has_gauss_next;
static double gauss_next;

/* CPython's init_by_array (the reference mt19937ar's). */
static void init_by_array(const uint32_t *key, size_t n)
{
    nn_generator_seed(&gen, 19650218u);
    uint32_t *mt = gen.state;
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
    gen.next = 624; /* the first draw twists */
    seeded = true;
    has_gauss_next = false;
}

/* seed(n) for an integer: its magnitude's 32-bit words, least significant first. */
static void seed_u64(uint64_t v)
{
    uint32_t key[2] = {(uint32_t)v, (uint32_t)(v >> 32)};
    init_by_array(key, key[1] ? 2 : 1);
}

/* The generator, seeded from the OS on first use as CPython's. */
static nn_generator *g(void)
{
    if (!seeded) {
        uint32_t key[624];
        int fd = open("/dev/urandom", O_RDONLY);
        ssize_t got = fd >= 0 ? read(fd, key, sizeof key) : -1;
        if (fd >= 0) close(fd);
        if (got != (ssize_t)sizeof key) {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            for (size_t i = 0; i < 624; i++) key[i] = (uint32_t)(ts.tv_nsec * 2654435761u + i * 40503u + getpid());
        }
        init_by_array(key, 624);
    }
    return &gen;
}

/* random(): 53 random bits as CPython's random_random. */
static double rnd(void)
{
    uint32_t a = nn_generator_random(g()) >> 5, b = nn_generator_random(g()) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* getrandbits(k) for 0 <= k <= 64: the words little-endian, the last one's top bits. */
static uint64_t randbits(int k)
{
    if (k == 0) return 0;
    if (k <= 32) return nn_generator_random(g()) >> (32 - k);
    uint64_t lo = nn_generator_random(g());
    uint64_t hi = nn_generator_random(g()) >> (64 - k);
    return hi << 32 | lo;
}

/* _randbelow(n), n > 0: getrandbits(n.bit_length()) until below n. */
static int64_t randbelow(int64_t n)
{
    int k = 64 - __builtin_clzll((uint64_t)n);
    uint64_t r = randbits(k);
    while (r >= (uint64_t)n) r = randbits(k);
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

static nn_object *r_seed(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2];
    if (parse("seed", "a=, version=", args, kwargs, a) < 0) return NULL;
    nn_object *s = a[0];
    if (!s || nn_is_none(s)) {
        seeded = false;
        g();
    } else if (nn_is_int(s) || nn_is_bool(s)) {
        int64_t v = nn_int_value(s);
        seed_u64(v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    } else if (nn_is_float(s)) {
        int64_t h = float_hash(nn_float_value(s)); /* CPython seeds a float by its hash */
        seed_u64(h < 0 ? 0 - (uint64_t)h : (uint64_t)h);
    } else if (nn_is_str(s)) {
        repl_raise_exc(EXC_NotImplementedError, "random.seed() of a str is not supported here: use an int");
        return NULL;
    } else {
        repl_raise_exc(EXC_TypeError, "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.");
        return NULL;
    }
    has_gauss_next = false;
    return nn_retain(nn_none());
}

static nn_object *r_random(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1];
    if (nn_tuple_len(args)) {
        repl_raise_exc(EXC_TypeError, "Random.random() takes no arguments (%zu given)", nn_tuple_len(args));
        return NULL;
    }
    if (parse("random", "", args, kwargs, a) < 0) return NULL;
    return nn_float_new(rnd());
}

static nn_object *r_getrandbits(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t k;
    if (repl_mod_nargs("Random.getrandbits", args, kwargs, 1, 1) < 0 || repl_mod_int(nn_tuple_get(args, 0), &k) < 0)
        return NULL;
    if (k < 0) {
        repl_raise_exc(EXC_ValueError, "number of bits must be non-negative");
        return NULL;
    }
    if (k > 63) {
        repl_raise_exc(EXC_OverflowError, "getrandbits(%lld): the language's ints hold 63 bits", (long long)k);
        return NULL;
    }
    return nn_int_new((int64_t)randbits((int)k));
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

static nn_object *randrange(nn_object *start, nn_object *stop, nn_object *step)
{
    int64_t istart = 0, istop = 0, istep = 1;
    if (range_arg(start, "arg 1", &istart) < 0) return NULL;
    if (!stop || nn_is_none(stop)) {
        if (step) {
            repl_raise_exc(EXC_TypeError, "Missing a non-None stop argument");
            return NULL;
        }
        if (istart > 0) return nn_int_new(randbelow(istart));
        repl_raise_exc(EXC_ValueError, "empty range for randrange()");
        return NULL;
    }
    if (range_arg(stop, "stop", &istop) < 0 || (step && range_arg(step, "step", &istep) < 0)) return NULL;
    int64_t width = istop - istart;
    if (istep == 1) {
        if (width > 0) return nn_int_new(istart + randbelow(width));
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
    return nn_int_new(istart + istep * randbelow(n));
}

static nn_object *r_randrange(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[3];
    if (parse("randrange", "start, stop=, step=", args, kwargs, a) < 0) return NULL;
    return randrange(a[0], a[1], a[2]);
}

static nn_object *r_randint(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2];
    if (parse("randint", "a, b", args, kwargs, a) < 0) return NULL;
    nn_object *one = nn_int_new(1), *stop = one ? repl_binary_op(REPL_ADD, a[1], one) : NULL;
    NN_RELEASE(one);
    nn_object *r = stop ? randrange(a[0], stop, NULL) : NULL;
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

static nn_object *r_choice(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1];
    int64_t n;
    if (parse("choice", "seq", args, kwargs, a) < 0 || seq_len(a[0], &n) < 0) return NULL;
    if (!n) {
        repl_raise_exc(EXC_IndexError, "Cannot choose from an empty sequence");
        return NULL;
    }
    return item_at(a[0], randbelow(n));
}

static nn_object *r_shuffle(void *ud, nn_object *args, nn_object *kwargs)
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
        int64_t j = randbelow(i + 1);
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

static nn_object *r_sample(void *ud, nn_object *args, nn_object *kwargs)
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
            int64_t j = randbelow(n - i);
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
            int64_t j = randbelow(n);
            while (selected[j]) j = randbelow(n);
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

static nn_object *r_uniform(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[2];
    double lo, hi;
    if (parse("uniform", "a, b", args, kwargs, a) < 0 || repl_mod_real(a[0], &lo) < 0 || repl_mod_real(a[1], &hi) < 0)
        return NULL;
    return nn_float_new(lo + (hi - lo) * rnd());
}

/* The (mu=0.0, sigma=1.0) parameters of gauss and normalvariate. 0 or -1. */
static int mu_sigma(const char *name, nn_object *args, nn_object *kwargs, double *mu, double *sigma)
{
    nn_object *a[2];
    if (parse(name, "mu=, sigma=", args, kwargs, a) < 0 || real_or(a[0], 0.0, mu) < 0 || real_or(a[1], 1.0, sigma) < 0)
        return -1;
    return 0;
}

static nn_object *r_gauss(void *ud, nn_object *args, nn_object *kwargs)
{
    double mu, sigma;
    if (mu_sigma("gauss", args, kwargs, &mu, &sigma) < 0) return NULL;
    double z = gauss_next;
    bool have = has_gauss_next;
    has_gauss_next = false;
    if (!have) {
        double x2pi = rnd() * (2 * M_PI);
        double g2rad = sqrt(-2.0 * log(1.0 - rnd()));
        z = cos(x2pi) * g2rad;
        gauss_next = sin(x2pi) * g2rad;
        has_gauss_next = true;
    }
    return nn_float_new(mu + z * sigma);
}

static nn_object *r_normalvariate(void *ud, nn_object *args, nn_object *kwargs)
{
    double mu, sigma;
    if (mu_sigma("normalvariate", args, kwargs, &mu, &sigma) < 0) return NULL;
    const double magic = 4 * exp(-0.5) / sqrt(2.0);
    double z;
    for (;;) {
        double u1 = rnd(), u2 = 1.0 - rnd();
        z = magic * (u1 - 0.5) / u2;
        if (z * z / 4.0 <= -log(u2)) break;
    }
    return nn_float_new(mu + z * sigma);
}

static nn_object *r_expovariate(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *a[1];
    double lambd;
    if (parse("expovariate", "lambd", args, kwargs, a) < 0 || repl_mod_real(a[0], &lambd) < 0) return NULL;
    if (lambd == 0) {
        repl_raise_exc(EXC_ZeroDivisionError, "float division by zero");
        return NULL;
    }
    return nn_float_new(-log(1.0 - rnd()) / lambd);
}

/* choices(population, weights=None, *, cum_weights=None, k=1) */
static nn_object *r_choices(void *ud, nn_object *args, nn_object *kwargs)
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
            double x = rnd() * total;
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
            nn_object *v = item_at(a[0], (int64_t)floor(rnd() * (double)n));
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

static const repl_mod_fn random_functions[] = {
    {"seed", r_seed, "seed(a=None, version=2)\nInitialize internal state from a seed (None: from the OS)."},
    {"random", r_random, "random()\nx in the interval [0, 1)."},
    {"getrandbits", r_getrandbits, "getrandbits(k, /)\ngetrandbits(k) -> x.  Generates an int with k random bits."},
    {"randrange", r_randrange, "randrange(start, stop=None, step=1)\nChoose a random item from range(start, stop[, step])."},
    {"randint", r_randint, "randint(a, b)\nReturn random integer in range [a, b], including both end points."},
    {"choice", r_choice, "choice(seq)\nChoose a random element from a non-empty sequence."},
    {"choices", r_choices, "choices(population, weights=None, *, cum_weights=None, k=1)\nReturn a k sized list of population elements chosen with replacement."},
    {"shuffle", r_shuffle, "shuffle(x)\nShuffle list x in place, and return None."},
    {"sample", r_sample, "sample(population, k, *, counts=None)\nChooses k unique random elements from a population sequence."},
    {"uniform", r_uniform, "uniform(a, b)\nGet a random number in the range [a, b) or [a, b] depending on rounding."},
    {"gauss", r_gauss, "gauss(mu=0.0, sigma=1.0)\nGaussian distribution (faster than normalvariate, not thread-safe)."},
    {"normalvariate", r_normalvariate, "normalvariate(mu=0.0, sigma=1.0)\nNormal distribution."},
    {"expovariate", r_expovariate, "expovariate(lambd)\nExponential distribution."},
};

nn_object *repl_mod_random(void)
{
    nn_object *m = repl_module_new("random");
    if (m && repl_mod_add_fns(m, random_functions, sizeof random_functions / sizeof *random_functions) < 0)
        NN_SET(m, NULL);
    return m;
}

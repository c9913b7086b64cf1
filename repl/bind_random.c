/*
 * bind_random.c — torch's randomness beyond the factories: torch.Generator
 * objects (manual_seed, seed, initial_seed, get_state, set_state, device),
 * torch.default_generator, torch.seed/get_rng_state/set_rng_state, the
 * generator= argument (repl_arg_generator + nn_generator_use around the draw),
 * torch.multinomial, normal, bernoulli, randint_like and the tensor methods
 * multinomial, bernoulli, bernoulli_, exponential_, random_. The samplers are
 * core/random.c's and core/sampling.c's.
 */
#include <stdio.h>
#include <string.h>

#include "bind_int.h"
#include "nn_sampling_more.h"

#define ARGS(n) nn_object *a[n] = {0}
static nn_object *T(nn_tensor *t) { return (nn_object *)t; }

/* PyTorch's default_rng_seed_val: the seed of a new torch.Generator() */
#define DEFAULT_RNG_SEED 67280421310721ull

/* ------------------------------------------------------------ Generator */

typedef struct generator_obj {
    nn_object ob;
    nn_generator *g; /* the default generator (borrowed) or own */
    bool owned;
} generator_obj;

static void generator_dealloc(nn_object *self)
{
    generator_obj *o = (generator_obj *)self;
    if (o->owned) nn_free(o->g);
    nn_free(self);
}

static char *generator_repr(nn_object *self)
{
    char buf[64];
    snprintf(buf, sizeof buf, "<torch._C.Generator object at %p>", (void *)self);
    return nn_strdup(buf);
}

const nn_type repl_generator_type = {.name = "Generator", .dealloc = generator_dealloc, .repr = generator_repr};

/* A Generator object over g (borrowed when !owned, taken when owned). */
static nn_object *generator_wrap(nn_generator *g, bool owned)
{
    generator_obj *o = nn_malloc(sizeof *o);
    if (!o) {
        if (owned) nn_free(g);
        return NULL;
    }
    nn_object_init(&o->ob, &repl_generator_type);
    o->g = g;
    o->owned = owned;
    return &o->ob;
}

nn_object *repl_default_generator_object(void) { return generator_wrap(nn_default_generator(), false); }

static nn_object *generator_ctor(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("Generator", "device=", args, kwargs, a) || repl_arg_device("Generator", a[0])) return NULL;
    nn_generator *g = nn_malloc(sizeof *g);
    if (!g) return NULL;
    nn_generator_seed(g, DEFAULT_RNG_SEED);
    return generator_wrap(g, true);
}

int repl_arg_generator(const char *fname, nn_object *o, nn_generator **out)
{
    *out = NULL;
    if (!o || nn_is_none(o)) return 0;
    if (o->type != &repl_generator_type)
        return nn_error_set(NN_ERR_TYPE, "%s(): argument 'generator' must be torch.Generator, not %s", fname,
                            repl_type_name(o));
    *out = ((generator_obj *)o)->g;
    return 0;
}

static int seed_arg(const char *f, nn_object *args, nn_object *kwargs, int64_t *seed)
{
    ARGS(1);
    if (repl_parse_args(f, "seed", args, kwargs, a)) return -1;
    if (nn_is_int(a[0]) || nn_is_bool(a[0])) return repl_arg_int(f, "seed", 1, a[0], seed);
    return nn_error_set(NN_ERR_TYPE, "manual_seed expected a long, but got %s", repl_type_name(a[0]));
}

#define GEN(self) (((generator_obj *)(self))->g)

static nn_object *gen_manual_seed(nn_object *self, nn_object *args, nn_object *kwargs)
{
    int64_t seed = 0;
    if (seed_arg("manual_seed", args, kwargs, &seed)) return NULL;
    nn_generator_seed(GEN(self), (uint64_t)seed);
    return nn_retain(self);
}

static nn_object *gen_initial_seed(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("initial_seed", "", args, kwargs, NULL)) return NULL;
    /* torch's seed is unsigned 64-bit; ints here are int64, so a seed past
       INT64_MAX reads as its two's complement */
    return nn_int_new((int64_t)nn_generator_initial_seed(GEN(self)));
}

static nn_object *gen_seed(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("seed", "", args, kwargs, NULL)) return NULL;
    nn_generator_seed(GEN(self), nn_nondeterministic_seed());
    return gen_initial_seed(self, args, kwargs);
}

/* The state as a 1-d uint8 tensor of its bytes, as PyTorch's ByteTensor. */
static nn_object *gen_get_state(nn_object *self, nn_object *args, nn_object *kwargs)
{
    if (repl_parse_args("get_state", "", args, kwargs, NULL)) return NULL;
    int64_t n = (int64_t)nn_generator_state_size();
    unsigned char *buf = nn_malloc((size_t)n);
    nn_tensor *t = NULL;
    if (buf) {
        nn_generator_get_state(GEN(self), buf);
        t = nn_from_data(buf, 1, &n, NN_UINT8);
    }
    nn_free(buf);
    return T(t);
}

static nn_object *gen_set_state(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(1);
    if (repl_parse_args("set_state", "new_state", args, kwargs, a)) return NULL;
    if (!nn_is_tensor(a[0]))
        return nn_error_set(NN_ERR_TYPE, "expected a torch.ByteTensor, but got %s", repl_type_name(a[0])), NULL;
    nn_tensor *t = NN_TENSOR(a[0]), *hold = NULL;
    if (t->dtype != NN_UINT8) return nn_error_set(NN_ERR_TYPE, "RNG state must be a torch.ByteTensor"), NULL;
    const void *bytes = nn_numel(t) ? nn_host_read(t, &hold) : "";
    int rc = bytes ? nn_generator_set_state(GEN(self), bytes, (size_t)nn_numel(t)) : -1;
    NN_RELEASE(hold);
    return rc ? NULL : nn_retain(self);
}

static const repl_method_def generator_methods[] = {
    {"manual_seed", gen_manual_seed,
     "manual_seed(seed) -> Generator\n"
     "Sets the seed for generating random numbers."},
    {"initial_seed", gen_initial_seed,
     "initial_seed() -> int\n"
     "Returns the initial seed for generating random numbers."},
    {"seed", gen_seed,
     "seed() -> int\n"
     "Gets a non-deterministic random number from std::random_device or the current time and uses it to seed a Generator."},
    {"get_state", gen_get_state,
     "get_state() -> Tensor\n"
     "Returns the Generator state (its bytes, as an int64 tensor here: nnscope has no uint8)."},
    {"set_state", gen_set_state,
     "set_state(new_state) -> Generator\n"
     "Sets the Generator state from a tensor of get_state()'s bytes."},
    {NULL, NULL, NULL},
};

static bool generator_method_at(const repl_class_def *cls, size_t i, repl_method_doc *out)
{
    static const repl_method_def *const tables[] = {generator_methods, NULL};
    return repl_tables_method_at(tables, i, out);
}

const repl_class_def repl_generator_class = {"Generator", "torch._C.Generator", generator_ctor, &repl_generator_type, NULL,
     "Generator(device='cpu') -> Generator\n"
     "Creates and returns a generator object that manages the state of the algorithm which produces pseudo random numbers.",
     generator_method_at};

nn_object *repl_generator_getattr(nn_object *o, const char *name, bool *handled)
{
    if (o->type != &repl_generator_type) return NULL;
    *handled = true;
    if (!strcmp(name, "device")) return repl_device_new("cpu", -1);
    nn_object *m = repl_method_lookup(generator_methods, name, o);
    if (!m && nn_error_current() == NN_OK)
        nn_error_set(NN_ERR_ATTRIBUTE, "'torch._C.Generator' object has no attribute '%s'", name);
    return m;
}

/* --------------------------------------------------- torch.* seed functions */

static nn_object *f_manual_seed(void *ud, nn_object *args, nn_object *kwargs)
{
    int64_t seed = 0;
    if (seed_arg("manual_seed", args, kwargs, &seed)) return NULL;
    nn_generator_seed(nn_default_generator(), (uint64_t)seed);
    return repl_default_generator_object();
}

static nn_object *f_initial_seed(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *g = repl_default_generator_object();
    nn_object *r = g ? gen_initial_seed(g, args, kwargs) : NULL;
    NN_RELEASE(g);
    return r;
}

static nn_object *f_seed(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *g = repl_default_generator_object();
    nn_object *r = g ? gen_seed(g, args, kwargs) : NULL;
    NN_RELEASE(g);
    return r;
}

static nn_object *f_get_rng_state(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *g = repl_default_generator_object();
    nn_object *r = g ? gen_get_state(g, args, kwargs) : NULL;
    NN_RELEASE(g);
    return r;
}

static nn_object *f_set_rng_state(void *ud, nn_object *args, nn_object *kwargs)
{
    nn_object *g = repl_default_generator_object();
    nn_object *r = g ? gen_set_state(g, args, kwargs) : NULL;
    NN_RELEASE(g);
    if (!r) return NULL;
    NN_RELEASE(r);
    return nn_none();
}

/* ------------------------------------------------------------ samplers */

static nn_object *f_multinomial(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL, *r = NULL;
    int64_t n = 0;
    bool repl = false;
    if (repl_parse_args("multinomial", "input, num_samples, replacement=, *, generator=", args, kwargs, a) ||
        repl_arg_tensor("multinomial", "input", 1, a[0], &x) ||
        repl_arg_int("multinomial", "num_samples", 2, a[1], &n) ||
        repl_arg_bool("multinomial", "replacement", 3, a[2], &repl))
        return NULL;
    REPL_WITH_GENERATOR("multinomial", a[3], r = nn_multinomial(x, n, repl));
    return T(r);
}

/* An empty tensor like x (its shape and, unless dtype >= 0, its dtype). */
static nn_tensor *empty_like(const nn_tensor *x, int dtype)
{
    return nn_empty(x->ndim, x->sizes, dtype < 0 ? x->dtype : (nn_dtype)dtype);
}

/* torch.normal's four forms: (Tensor mean, Tensor std), (Tensor mean, float
   std=1), (float mean, Tensor std): standard normals of the broadcast shape
   times std plus mean, as normal_out_impl; (float mean, float std, size). */
static nn_object *f_normal(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(8);
    if (repl_parse_args("normal", "mean, std=, size=, *, generator=, out=, dtype=, device=, requires_grad=", args, kwargs,
                        a) ||
        repl_arg_device("normal", a[6]))
        return NULL;
    bool mt = nn_is_tensor(a[0]), st = a[1] && nn_is_tensor(a[1]);
    nn_tensor *r = NULL;
    if (a[4] && !nn_is_none(a[4]))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "normal: out= is not supported"), NULL;
    if (!mt && !st) {
        double mean = 0, std = 1;
        int ndim = 0, dtype = -1;
        int64_t sizes[NN_MAX_DIMS];
        bool rg = false;
        if (!a[2])
            return nn_error_set(NN_ERR_TYPE, "normal() received an invalid combination of arguments - got (%s, %s), "
                                             "but expected a size with float mean and std",
                                repl_type_name(a[0]), a[1] ? repl_type_name(a[1]) : "NoneType"),
                   NULL;
        if (repl_arg_double("normal", "mean", 1, a[0], &mean) || repl_arg_double("normal", "std", 2, a[1], &std) ||
            repl_arg_shape("normal", "size", a[2], &ndim, sizes) || repl_arg_dtype("normal", "dtype", 0, a[5], &dtype) ||
            repl_arg_bool("normal", "requires_grad", 0, a[7], &rg))
            return NULL;
        r = nn_empty(ndim, sizes, dtype < 0 ? nn_default_dtype() : (nn_dtype)dtype);
        if (!r) return NULL;
        int rc = 0;
        REPL_WITH_GENERATOR("normal", a[3], rc = nn_normal_(r, mean, std));
        if (rc == 0) r->storage->version = 0;
        if (rc || (rg && nn_set_requires_grad(r, true))) NN_SET(r, NULL);
        return T(r);
    }
    if (a[2]) return nn_error_set(NN_ERR_TYPE, "normal(): size is only taken with a float mean and std"), NULL;
    nn_tensor *mean = NULL, *std = NULL;
    double mv = 0, sv = 1;
    if (mt) {
        mean = NN_TENSOR(a[0]);
        if (!st && repl_arg_double("normal", "std", 2, a[1], &sv)) return NULL;
    } else if (repl_arg_double("normal", "mean", 1, a[0], &mv)) {
        return NULL;
    }
    if (st) std = NN_TENSOR(a[1]);
    REPL_WITH_GENERATOR("normal", a[3], r = nn_normal_tensor(mean, mv, std, sv));
    return T(r);
}

static nn_object *bernoulli_common(const char *f, nn_tensor *x, nn_object *p_arg, nn_object *gen)
{
    nn_tensor *r = NULL;
    if (p_arg && !nn_is_none(p_arg)) {
        double p = 0;
        if (repl_arg_double(f, "p", 2, p_arg, &p)) return NULL;
        if (!(r = empty_like(x, -1))) return NULL;
        int rc = 0;
        REPL_WITH_GENERATOR(f, gen, rc = nn_bernoulli_(r, p));
        if (rc) NN_SET(r, NULL);
        return T(r);
    }
    REPL_WITH_GENERATOR(f, gen, r = nn_bernoulli_tensor(x));
    return T(r);
}

static nn_object *f_bernoulli(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(4);
    nn_tensor *x = NULL;
    if (repl_parse_args("bernoulli", "input, p=, *, generator=, out=", args, kwargs, a) ||
        repl_arg_tensor("bernoulli", "input", 1, a[0], &x))
        return NULL;
    if (a[3] && !nn_is_none(a[3])) return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "bernoulli: out= is not supported"), NULL;
    return bernoulli_common("bernoulli", x, a[1], a[2]);
}

static nn_object *f_randint_like(void *ud, nn_object *args, nn_object *kwargs)
{
    ARGS(7);
    nn_tensor *x = NULL;
    if (repl_parse_args("randint_like", "input, low, high=, *, dtype=, device=, requires_grad=, layout=", args, kwargs,
                        a) ||
        repl_arg_tensor("randint_like", "input", 1, a[0], &x) || repl_arg_device("randint_like", a[4]))
        return NULL;
    int64_t low = 0, high = 0;
    int dtype = -1;
    bool rg = false;
    if (a[2] ? (repl_arg_int("randint_like", "low", 2, a[1], &low) || repl_arg_int("randint_like", "high", 3, a[2], &high))
             : repl_arg_int("randint_like", "high", 2, a[1], &high))
        return NULL;
    if (repl_arg_dtype("randint_like", "dtype", 0, a[3], &dtype) || repl_arg_bool("randint_like", "requires_grad", 0, a[5], &rg))
        return NULL;
    nn_tensor *r = nn_randint(low, high, x->ndim, x->sizes, dtype < 0 ? x->dtype : (nn_dtype)dtype);
    if (r && rg && nn_set_requires_grad(r, true)) NN_SET(r, NULL);
    return T(r);
}

/* ------------------------------------------------------ tensor methods */

static nn_object *m_bernoulli_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    nn_tensor *t = NN_TENSOR(self);
    int rc = 0;
    if (repl_parse_args("bernoulli_", "p=, *, generator=", args, kwargs, a)) return NULL;
    if (a[0] && nn_is_tensor(a[0])) {
        REPL_WITH_GENERATOR("bernoulli_", a[1], rc = nn_bernoulli_tensor_(t, NN_TENSOR(a[0])));
        return rc ? NULL : nn_retain(self);
    }
    double p = 0.5;
    if (repl_arg_double("bernoulli_", "p", 1, a[0], &p)) return NULL;
    REPL_WITH_GENERATOR("bernoulli_", a[1], rc = nn_bernoulli_(t, p));
    return rc ? NULL : nn_retain(self);
}

static nn_object *m_exponential_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    double l = 1;
    int rc = 0;
    if (repl_parse_args("exponential_", "lambd=, *, generator=", args, kwargs, a) ||
        repl_arg_float("exponential_", "lambd", 1, args, a[0], &l))
        return NULL;
    REPL_WITH_GENERATOR("exponential_", a[1], rc = nn_exponential_(NN_TENSOR(self), l));
    return rc ? NULL : nn_retain(self);
}

/* cauchy_(median=0, sigma=1), geometric_(p), log_normal_(mean=1, std=2); each *, generator=None */
static nn_object *m_sample_more(const char *f, const char *spec, double d0, double d1, nn_object *self,
                                nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    double v[2] = {d0, d1};
    int rc = 0, n = spec[1] == ',' ? 1 : 2; /* "p, *, generator=" has one number */
    if (repl_parse_args(f, spec, args, kwargs, a)) return NULL;
    for (int i = 0; i < n; i++)
        if (a[i] && repl_arg_float(f, f[0] == 'c' ? (i ? "sigma" : "median") : f[0] == 'g' ? "p" : i ? "std" : "mean",
                                   i + 1, args, a[i], &v[i]))
            return NULL;
    nn_tensor *t = NN_TENSOR(self);
    REPL_WITH_GENERATOR(f, a[n], rc = f[0] == 'c'   ? nn_cauchy_(t, v[0], v[1])
                                      : f[0] == 'g' ? nn_geometric_(t, v[0])
                                                    : nn_log_normal_(t, v[0], v[1]));
    return rc ? NULL : nn_retain(self);
}

static nn_object *m_cauchy_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return m_sample_more("cauchy_", "median=, sigma=, *, generator=", 0, 1, self, args, kwargs);
}

static nn_object *m_geometric_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return m_sample_more("geometric_", "p, *, generator=", 0, 0, self, args, kwargs);
}

static nn_object *m_log_normal_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    return m_sample_more("log_normal_", "mean=, std=, *, generator=", 1, 2, self, args, kwargs);
}

static nn_object *m_random_(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(3);
    int64_t from = 0, to = 0;
    int rc = 0;
    if (repl_parse_args("random_", "from=, to=, *, generator=", args, kwargs, a)) return NULL;
    if (!a[0] || (!a[1] && nn_is_none(a[0])))
        return nn_error_set(NN_ERR_NOT_IMPLEMENTED, "random_() without bounds is not supported: give random_(to) or "
                                                    "random_(from, to)"),
               NULL;
    if (a[1] && !nn_is_none(a[1]) ? (repl_arg_int("random_", "from", 1, a[0], &from) || repl_arg_int("random_", "to", 2, a[1], &to))
                                 : repl_arg_int("random_", "to", 1, a[0], &to))
        return NULL;
    REPL_WITH_GENERATOR("random_", a[2], rc = nn_random_(NN_TENSOR(self), from, to));
    return rc ? NULL : nn_retain(self);
}

static nn_object *m_bernoulli(nn_object *self, nn_object *args, nn_object *kwargs)
{
    ARGS(2);
    if (repl_parse_args("bernoulli", "p=, *, generator=", args, kwargs, a)) return NULL;
    return bernoulli_common("bernoulli", NN_TENSOR(self), a[0], a[1]);
}

static const repl_method_def random_methods[] = {
    {"bernoulli", m_bernoulli,
     "bernoulli(p=None, *, generator=None) -> Tensor\n"
     "Draws binary random numbers (0 or 1) from a Bernoulli distribution with probabilities self (or p)."},
    {"bernoulli_", m_bernoulli_,
     "bernoulli_(p=0.5, *, generator=None) -> Tensor\n"
     "Fills each location of self with an independent sample from Bernoulli(p)."},
    {"exponential_", m_exponential_,
     "exponential_(lambd=1, *, generator=None) -> Tensor\n"
     "Fills self tensor with elements drawn from the exponential distribution."},
    {"cauchy_", m_cauchy_,
     "cauchy_(median=0, sigma=1, *, generator=None) -> Tensor\n"
     "Fills the tensor with numbers drawn from the Cauchy distribution."},
    {"geometric_", m_geometric_,
     "geometric_(p, *, generator=None) -> Tensor\n"
     "Fills self tensor with elements drawn from the geometric distribution."},
    {"log_normal_", m_log_normal_,
     "log_normal_(mean=1, std=2, *, generator=None) -> Tensor\n"
     "Fills self tensor with numbers samples from the log-normal distribution parameterized by the given mean and "
     "standard deviation (of the underlying normal)."},
    {"random_", m_random_,
     "random_(from=0, to=None, *, generator=None) -> Tensor\n"
     "Fills self tensor with numbers sampled from the discrete uniform distribution over [from, to - 1]."},
    {NULL, NULL, NULL},
};

static const repl_function_def random_functions[] = {
    {"manual_seed", f_manual_seed,
     "manual_seed(seed) -> Generator\n"
     "Sets the seed for generating random numbers. Returns a torch.Generator object."},
    {"initial_seed", f_initial_seed,
     "initial_seed() -> int\n"
     "Returns the initial seed for generating random numbers as a Python long."},
    {"seed", f_seed,
     "seed() -> int\n"
     "Sets the seed for generating random numbers to a non-deterministic random number."},
    {"get_rng_state", f_get_rng_state,
     "get_rng_state() -> Tensor\n"
     "Returns the random number generator state (its bytes, as an int64 tensor here)."},
    {"set_rng_state", f_set_rng_state,
     "set_rng_state(new_state) -> None\n"
     "Sets the random number generator state."},
    {"multinomial", f_multinomial,
     "multinomial(input, num_samples, replacement=False, *, generator=None, out=None) -> LongTensor\n"
     "Returns a tensor where each row contains num_samples indices sampled from the multinomial distribution of the rows of input."},
    {"normal", f_normal,
     "normal(mean, std, size=None, *, generator=None, out=None) -> Tensor\n"
     "Returns a tensor of random numbers drawn from separate normal distributions whose mean and standard deviation are given."},
    {"bernoulli", f_bernoulli,
     "bernoulli(input, p=None, *, generator=None, out=None) -> Tensor\n"
     "Draws binary random numbers (0 or 1) from a Bernoulli distribution."},
    {"randint_like", f_randint_like,
     "randint_like(input, low=0, high, *, dtype=None, layout=torch.strided, device=None, requires_grad=False) -> Tensor\n"
     "Returns a tensor with the same shape as input filled with random integers generated uniformly between low (inclusive) and high (exclusive)."},
};

int repl_random_add_functions(nn_object *torch)
{
    nn_object *g = repl_default_generator_object();
    int rc = g ? repl_namespace_set(torch, "default_generator", g) : -1;
    NN_RELEASE(g);
    if (rc) return -1;
    return repl_namespace_add_fns(torch, random_functions, sizeof random_functions / sizeof random_functions[0]);
}

nn_object *repl_random_method(nn_tensor *t, const char *name)
{
    if (!strcmp(name, "multinomial")) return repl_bound_function(&random_functions[5], &t->ob);
    return repl_method_lookup(random_methods, name, &t->ob);
}

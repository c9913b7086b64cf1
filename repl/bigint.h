/*
 * bigint.h — the language's integers beyond 64 bits (bigint.c), through GMP.
 * An int is core's nn_int (int64) while it fits; a result that does not fit
 * becomes a big int (its type is also named "int"), and a big result that fits
 * again becomes an nn_int: a big int's value is always outside int64.
 * Not here: the int64 fast paths (eval.c), format specs (builtins.c).
 */
#ifndef REPL_BIGINT_H
#define REPL_BIGINT_H

#include <stdbool.h>
#include <stdint.h>

#include <gmp.h>

#include "nn.h"
#include "native.h"

extern const nn_type repl_bigint_type;
static inline bool repl_is_bigint(const nn_object *o) { return o && o->type == &repl_bigint_type; }
/* int, bool or big int */
static inline bool repl_is_integer(const nn_object *o)
{
    return o && (o->type == &nn_int_type || o->type == &nn_bool_type || o->type == &repl_bigint_type);
}

/* A new int from z (taken: z is cleared): an nn_int when it fits int64, else a
   big int. NULL with MemoryError (z is cleared then too). */
nn_object *repl_int_from_mpz(mpz_t z);
/* Sets z (initialised by the caller) to the value of an int, bool or big int. */
void repl_int_get_mpz(const nn_object *o, mpz_t z);
/* The big int's own value (borrowed; o must be a big int). */
mpz_srcptr repl_bigint_mpz(const nn_object *o);

/* a OP b where one of a, b is a big int, or both are ints whose int64 result
   overflowed; the other may be an int, bool, big int or float. *handled is
   false (and NULL returned, no error) for other operand types. */
nn_object *repl_bigint_binary(repl_binop op, nn_object *a, nn_object *b, bool *handled);
/* a << b, a >> b for ints (either may be big): Python's errors. */
nn_object *repl_int_shift(bool left, nn_object *a, nn_object *b);
/* -a, +a, ~a for an int or big int. */
nn_object *repl_int_unary(repl_unop op, nn_object *a);
/* float(a) correctly rounded (half to even), as CPython: -1 with
   OverflowError ("int too large to convert to float") when it does not fit. */
int repl_int_to_double(const nn_object *a, double *out);
/* int(x) of a finite float, any size (OverflowError/ValueError for inf/nan). */
nn_object *repl_int_from_double(double x);
/* int(text, base): Python's syntax (spaces around, a sign, a 0x/0o/0b prefix
   with base 0 or its own base, single underscores between digits). NULL with
   ValueError ("invalid literal for int() with base 10: 'x'", orig's repr) or
   CPython 3.11's 4300-digit limit for bases other than powers of two. */
nn_object *repl_int_from_text(const char *text, size_t len, int base, nn_object *orig);
/* A source literal's digits (decimal, or with a 0x/0o/0b prefix), no digit limit. */
nn_object *repl_int_from_literal(const char *digits, size_t len);
/* Digits of an int in base 2, 8, 10 or 16 (lower case, '-' when negative, no
   prefix) as a new nn_malloc'd string; base 10 beyond 4300 digits is CPython
   3.11's ValueError. NULL with the error. */
char *repl_int_digits(const nn_object *a, int base);
/* Python's hash of a big int: equal to the float's hash when a float holds it. */
int64_t repl_bigint_hash(nn_object *o);
/* Compares an int or big int with another: -1, 0, 1. */
int repl_int_cmp(const nn_object *a, const nn_object *b);
/* RuntimeError("Overflow when unpacking long"), PyTorch's error for a big int
   handed to torch; returns NULL. */
nn_object *repl_bigint_torch_overflow(void);
/* MemoryError unless a result of about bits bits may be made: 0 or -1. */
int repl_bigint_reserve(double bits);

/* round(x, ndigits) for an int (ndigits < 0 rounds half to even at 10**-ndigits). */
nn_object *repl_int_round(nn_object *x, int64_t ndigits);
/* pow(b, e, m) for ints of any size: a negative e takes b's inverse mod m
   (ValueError when there is none); the result has m's sign, as Python's. */
nn_object *repl_int_powmod(nn_object *b, nn_object *e, nn_object *m);
/* int.bit_length() and abs() of an int of any size. */
int64_t repl_int_bit_length(const nn_object *x);
nn_object *repl_int_abs(nn_object *x);
/* a == m * 2**e with 0.5 <= |m| <= 1 (m rounded half to even; 0 gives 0, 0). */
double repl_int_frexp(const nn_object *a, long *e);

/* math's integer functions (mod_math_int.c), on ints of any size */
nn_object *repl_math_factorial(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_math_gcd(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_math_lcm(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_math_comb(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_math_perm(void *ud, nn_object *args, nn_object *kwargs);
nn_object *repl_math_isqrt(void *ud, nn_object *args, nn_object *kwargs);
/* fn(o) for an int o of any size (fn: log, log2 or log10): ValueError "math
   domain error" for o <= 0; beyond a float's range through repl_int_frexp. */
int repl_math_int_log(nn_object *o, double (*fn)(double), double *out);

#endif

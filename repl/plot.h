/*
 * plot.h — plot(f, lo, hi, grad): curves of functions on tensors drawn with
 * Unicode braille in the terminal (repl/plot.c). Builds the text only; the
 * language's plot() built-in prints it.
 */
#ifndef REPL_PLOT_H
#define REPL_PLOT_H

#include "nn.h"

/* A C function on tensors: x [n] float32 (borrowed) -> a new reference to a
   tensor of n values, or NULL with an error. */
typedef nn_tensor *(*repl_plot_cfn)(void *ud, nn_tensor *x);

/* One function to draw: a module (called through nn_module_call1, so hooks
   run) or, when module is NULL, fn(ud, x). name labels it in the legend;
   NULL means the first line of the module's repr ("ReLU()"), or "f". */
typedef struct repl_plot_func {
    nn_module *module; /* borrowed */
    repl_plot_cfn fn;
    void *ud;
    const char *name; /* borrowed */
} repl_plot_func;

typedef struct repl_plot_options {
    double lo, hi;     /* -3, 3 */
    bool grad;         /* false: also draw d/dx by autograd */
    int width, height; /* 72, 20: characters of each line / plot rows */
    bool color;        /* false: ANSI colors when true */
} repl_plot_options;
void repl_plot_options_default(repl_plot_options *o);

/* Samples f at n points linspace(lo, hi, n): y[i] = f(x[i]) and, when dy is
   not NULL, dy[i] = d sum(f(x)) / dx[i] by autograd (x requires grad, the sum
   of the outputs is backpropagated, x.grad read). Grad mode is on during the
   call and restored after. 0, or -1 with f's error, ValueError "plot: f must
   return one value per sample" or MemoryError. */
int repl_plot_sample(const repl_plot_func *f, double lo, double hi, int n, double *y, double *dy);

/* The plot of funcs[0..n) (borrowed) with o (NULL: the defaults): labelled y
   ticks (max, min and 0 when in range), x ticks (lo, hi, 0 in range), a
   legend, derivatives in a second color when o->grad. NaN and infinite samples
   are skipped; a constant function is a flat line in the middle. Returns a new
   nn_malloc'd string of lines (each ending in "\n", at most o->width
   characters), or NULL with ValueError "plot: lo must be less than hi",
   "plot: width must be between 20 and 500" / "plot: height must be between
   4 and 200",
   "plot: no functions", or an error of a function, or MemoryError. */
char *repl_plot(const repl_plot_func *funcs, size_t n, const repl_plot_options *o);

/* A braille canvas of cols x rows characters (2 x 4 dots each) that remembers, per
   character, the series that set a dot last: repl_plot draws on one, and so does
   matplotlib's terminal drawing (repl/mod_matplotlib.c). */
typedef struct repl_braille repl_braille;
repl_braille *repl_braille_new(int cols, int rows); /* NULL: ValueError or MemoryError */
void repl_braille_free(repl_braille *c);
void repl_braille_dot(repl_braille *c, int x, int y, int series); /* dots outside are ignored */
/* Row r as text (nn_malloc'd): ANSI colours by series when color, else no trailing blanks. */
char *repl_braille_row(const repl_braille *c, int r, bool color);
const char *repl_braille_color(int series); /* the ANSI colour code of a series ("34") */

/* The language's built-in plot(f, lo=-3, hi=3, grad=False, width=72,
   height=20, color=None): f a module, a callable on tensors, or a list or
   tuple of them; color None means "when stdout is a terminal and NO_COLOR is
   unset". Prints the plot where print() writes and returns None (new
   reference), or NULL with TypeError for bad arguments or repl_plot's error. */
nn_object *repl_builtin_plot(void *ud, nn_object *args, nn_object *kwargs);

#endif

/*
 * nn_complex.h — complex tensors (core/complex.c): complex64 / complex128 hold
 * interleaved (real, imag) pairs. Every function returns a new reference, or
 * NULL with PyTorch's error.
 */
#ifndef NN_COMPLEX_H
#define NN_COMPLEX_H

/* torch.view_as_real: a real view [..., 2] of a complex tensor; view_as_complex
   the reverse (last dim of size 2 and stride 1, even strides and offset). */
nn_tensor *nn_view_as_real(nn_tensor *z);
nn_tensor *nn_view_as_complex(nn_tensor *t);
/* Tensor.real (a view; a real tensor itself) and Tensor.imag (a view; RuntimeError
   for a real tensor). */
nn_tensor *nn_real(nn_tensor *t);
nn_tensor *nn_imag(nn_tensor *t);
/* torch.complex(real, imag): two float tensors of one dtype, broadcast. */
nn_tensor *nn_complex(nn_tensor *re, nn_tensor *im);
/* torch.polar(abs, angle): abs * (cos(angle), sin(angle)), the checks of torch.complex */
nn_tensor *nn_polar(nn_tensor *abs, nn_tensor *angle);
/* torch.angle (of a real tensor too: 0 or pi) and torch.conj (a copy here, not
   PyTorch's lazy conjugate view; a real tensor itself). */
nn_tensor *nn_angle(nn_tensor *t);
nn_tensor *nn_conj(nn_tensor *t);
/* torch.conj_physical: nn_conj recorded as ConjPhysicalBackward0 */
nn_tensor *nn_conj_physical(nn_tensor *t);
/* the complex forms that nn_abs, nn_neg, nn_sum / nn_mean and nn_matmul
   call for a complex operand */
nn_tensor *nn_complex_abs(nn_tensor *z);
/* the elementwise functions of a complex tensor as PyTorch 1.13's AVX2 CPU kernels
   compute them: the C library's complex functions (csqrt, clog, csin ...) where ATen
   maps std:: ones, Sleef's exp and sincos for exp (and sigmoid's vectorized body),
   its vectorized formulas over the body of a contiguous operand and its scalar
   ones elsewhere (reciprocal, rsqrt, sgn, sigmoid); log2 / log10 are log / ln 2
   and log / ln 10. The unary ops of nn.h call it for a complex operand; pow goes
   through nn_complex_binary. */
typedef enum {
    NN_CX_EXP, NN_CX_LOG, NN_CX_LOG2, NN_CX_LOG10, NN_CX_SQRT, NN_CX_RSQRT, NN_CX_RECIPROCAL, NN_CX_SIN, NN_CX_COS,
    NN_CX_TAN, NN_CX_SINH, NN_CX_COSH, NN_CX_TANH, NN_CX_SIGMOID, NN_CX_SGN, NN_CX_COUNT
} nn_complex_fn;
nn_tensor *nn_complex_math(nn_complex_fn f, nn_tensor *z);
nn_tensor *nn_complex_neg(nn_tensor *z);
nn_tensor *nn_complex_sum(nn_tensor *z, int n_dims, const int *dims, bool keepdim, bool mean);
nn_tensor *nn_complex_matmul(nn_tensor *a, nn_tensor *b);
/* the one element of a complex tensor: 0, or -1 with RuntimeError */
int nn_complex_item(const nn_tensor *z, double *re, double *im);
/* a Python complex wrapped for type promotion (a 0-dim complex128 CPU tensor) */
nn_tensor *nn_wrapped_complex(double re, double im);
/* t.fill_(re + im j) (torch.full's fill): a real t takes re, and refuses a nonzero
   im with PyTorch's "value cannot be converted to type float without overflow" */
int nn_fill_complex_(nn_tensor *t, double re, double im);
/* 0 when a complex value with imaginary part im may be stored in dt (a complex
   dtype, or im == 0), else -1 with that RuntimeError */
int nn_check_real_value(nn_dtype dt, double im);

/* torch.fft (core/fft.c): the transform of x along dim over n points (-1: x's
   size; irfft: 2 (size - 1)), norm "backward" (NULL), "ortho" or "forward".
   fft/ifft give complex, rfft half the spectrum of a real x, irfft a real result.
   A direct O(n²) sum in double per row, rounded once. fftfreq / rfftfreq (rfft):
   the sample frequencies of n points spaced d. */
nn_tensor *nn_fft(nn_tensor *x, int64_t n, int dim, const char *norm);
nn_tensor *nn_ifft(nn_tensor *x, int64_t n, int dim, const char *norm);
nn_tensor *nn_rfft(nn_tensor *x, int64_t n, int dim, const char *norm);
nn_tensor *nn_irfft(nn_tensor *x, int64_t n, int dim, const char *norm);
/* hfft: the real spectrum of a Hermitian signal given by its first half x; ihfft:
   that half of a real x's inverse transform */
nn_tensor *nn_hfft(nn_tensor *x, int64_t n, int dim, const char *norm);
nn_tensor *nn_ihfft(nn_tensor *x, int64_t n, int dim, const char *norm);
nn_tensor *nn_fftfreq(int64_t n, double d, bool rfft, nn_dtype dt);
/* fftn / ifftn (C2C), rfftn (R2C: rfft over the last of dims, fft over the others)
   and irfftn (C2R: ifft over the others, irfft over the last) over n_dims dims
   (n_dims -1: s and dim were given with different lengths), s the points per dim
   (NULL, or -1 entries: the sizes, irfft's default on the last); fname for the
   messages ("fft_fftn"). HERMITIAN: hfftn (ihfftn with inverse), hfft / ihfft over
   several dims. Each 1-d pass in double, one rounding at the end. */
typedef enum { NN_FFT_C2C, NN_FFT_R2C, NN_FFT_C2R, NN_FFT_HERMITIAN } nn_fft_kind;
nn_tensor *nn_fftn(const char *fname, nn_tensor *x, int n_dims, const int *dims, const int64_t *s, const char *norm,
                   nn_fft_kind kind, bool inverse);
/* fftshift / ifftshift (inverse): x rolled by size / 2 ((size + 1) / 2) along dims
   (n_dims -1: every dim) */
nn_tensor *nn_fftshift(nn_tensor *x, int n_dims, const int *dims, bool inverse);

#endif

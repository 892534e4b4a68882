/*
 * lt_fft.h -- the one-dimensional discrete Fourier transform along one dim of a tensor, batched
 * over every other dim: the engine under lt.fft (the binding's n-d transforms, norms, padding
 * and Hermitian forms are built from it in lt_fft_api.c). Lua-free.
 *
 * X[j] = scale * sum_{k<n} x[k] * exp(s * 2 pi i j k / n), s = -1 forward, +1 inverse. Any
 * n >= 1. Three kinds:
 *   LT_FFT_C2C: complex64/complex128 in (n along dim), the same dtype out (n along dim);
 *   LT_FFT_R2C: float32/float64 in (n along dim), complex64/complex128 out (n / 2 + 1: the half
 *               spectrum, the rest being its conjugate mirror);
 *   LT_FFT_C2R: complex64/complex128 in (n / 2 + 1 along dim, read as the half spectrum of a
 *               Hermitian-symmetric signal: the imaginary parts of X[0] and, for even n, X[n/2]
 *               are ignored, as numpy's irfft and torch's do), float32/float64 out (n along dim).
 * The input may be any view (strides, offsets, read-only, mapped); the caller has padded or
 * trimmed it to the size the kind reads. The result is a new contiguous tensor of the input's
 * shape but for dim.
 *
 * Calls lt_fft_plan.c (plans, cached), lt_fft_kern.c (the butterflies per vector path),
 * lt_copy.c, lt_tensor.c, lt_pool.c. Called by lt_fft_api.c.
 */
#ifndef LT_FFT_H
#define LT_FFT_H

#include "lt_tensor.h"

typedef enum { LT_FFT_C2C, LT_FFT_R2C, LT_FFT_C2R } lt_fft_kind;

/* *out = the transform of `in` along dim (0-based, checked) of n points, times scale. LT_EARG
   ("fft: ...") for n < 1, a size along dim other than the kind reads, or a dtype the kind does
   not take; LT_ENOMEM as any allocation. */
int lt_fft(const lt_tensor *in, int dim, int64_t n, lt_fft_kind kind, int inverse, double scale,
           lt_tensor **out, lt_error *err);

#endif

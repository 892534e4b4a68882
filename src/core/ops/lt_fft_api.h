/*
 * lt_fft_api.h -- torch.fft's functions built from the one-dimensional engine (lt_fft.h): the
 * dtype rules (real and integer inputs, complex results), the signal sizes (n / s: zeros padded,
 * or the input trimmed), the dims of an n-dimensional transform, the norm modes and the Hermitian
 * forms (rfft, irfft, hfft, ihfft and their n-d kin), fftfreq / rfftfreq and fftshift /
 * ifftshift. Lua-free: the binding (lua_fft.c) reads the arguments, makes dims 0-based and
 * checks that explicit sizes are positive; messages here name no function (the binding adds it).
 *
 * Calls lt_fft.c, lt_copy.c (casts, copies), lt_shape.c (lt_roll), lt_tensor.c. Called by
 * lua_fft.c.
 */
#ifndef LT_FFT_API_H
#define LT_FFT_API_H

#include "lt_fft.h"

/* torch's norm modes: which direction carries 1/n ("backward": the inverse; "forward": the
   forward one) or 1/sqrt(n) both ways ("ortho"). */
typedef enum { LT_FFT_BACKWARD, LT_FFT_ORTHO, LT_FFT_FORWARD } lt_fft_norm;

/* The transform families: fft/fft2/fftn (complex to complex, forward), ifft/.. (inverse), rfft
   (real to half spectrum), irfft (half spectrum to real), hfft (half of a Hermitian signal to
   its real spectrum: a forward transform) and ihfft (real to half, inverse), each over one or
   more dims (hfft2, hfftn, ...). */
typedef enum {
  LT_FFTF_FFT,
  LT_FFTF_IFFT,
  LT_FFTF_RFFT,
  LT_FFTF_IRFFT,
  LT_FFTF_HFFT,
  LT_FFTF_IHFFT
} lt_fft_func;

/*
 * *out = the transform f of `in` over the ndims dims (0-based; NULL: the last ndims dims when s
 * is given, else every dim, as torch.fft.fftn), of signal sizes s (NULL: the input's sizes; an
 * entry -1 keeps that dim's; for irfft and hfft the last dim's default is 2 (m - 1)), scaled by
 * norm. The input along each dim is trimmed or padded with zeros to the size the transform
 * reads. dtypes as torch 1.13: bool and integers compute as float32, float32 / float64 as
 * complex64 / complex128 (rfft and ihfft: real inputs only); irfft and hfft give real results;
 * float16 and bfloat16 are refused, as torch refuses them on the CPU. No dims (ndims 0): fft and
 * ifft give the input as complex, the others refuse. LT_EARG for a 0-d input, a dim out of range or
 * given twice, a signal size below 1 ("invalid number of data points (0) specified"), a refused
 * dtype; LT_ENOMEM as any allocation. A new tensor.
 */
int lt_fft_nd(const lt_tensor *in, lt_fft_func f, int ndims, const int *dims, const int64_t *s,
              lt_fft_norm norm, lt_tensor **out, lt_error *err);

/* torch.fft.fftfreq(n, d) (onesided 0: 0, 1, ..., -1 over n d) and rfftfreq (onesided 1: the n /
   2 + 1 non-negative ones), in dt (a floating-point or complex dtype, else LT_EARG). n < 0:
   LT_EARG. */
int lt_fftfreq(int64_t n, double d, lt_dtype dt, int onesided, lt_tensor **out, lt_error *err);

/* torch.fft.fftshift (inverse 0: each dim rolled by size / 2, so frequency 0 comes to the
   middle) and ifftshift (inverse 1: back), over the ndims dims (0-based, in range; a dim given
   twice rolls twice, as torch) or every dim when dims is NULL. A 0-d input: LT_EARG. */
int lt_fftshift(const lt_tensor *in, int ndims, const int *dims, int inverse, lt_tensor **out,
                lt_error *err);

#endif

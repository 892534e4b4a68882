/*
 * lt_fft_kern.h -- the kernels of lt_fft for one precision and one vector path: included by
 * lt_fft_kern.c once per (T, W, SUF, KATTR, LT_FFT_VEC), which it defines before and this file
 * undefines after. T is float or double, W the lanes (lines transformed at once), KATTR the
 * functions' target attribute; LT_FFT_VEC 1 makes a lane vector a GNU vector of W T (one
 * register of the path), 0 a plain array (the scalar path, any C11 compiler). Lua-free.
 *
 * Every butterfly is written once on "complex vectors" (W real parts, W imaginary parts): the
 * passes are Stockham's (FFTPACK's order: pass f of radix p reads CC(i, m, k) and writes
 * CH(i, k, j) twiddled, ping-ponging between two buffers), radix 4, 2 and an odd radix (3, 5 and
 * 7 unrolled, larger primes up to LT_FFT_RADIX_MAX in a loop). Bluestein's chirp-z, the
 * four-step's column and row passes, and the ways in and out of a tensor's lines (with the
 * split pass of the even real transforms) are here too, so that they run in the plan's
 * precision on the path's registers.
 *
 * Calls nothing. Included by lt_fft_kern.c only.
 */
#define KN_(a, b) a##_##b
#define KN(a, b) KN_(a, b)
#define FN(name) KN(name, SUF)
#define V FN(v)
#define C FN(c)

#if LT_FFT_VEC
#define KINL static inline __attribute__((always_inline)) KATTR
typedef T V __attribute__((vector_size(W * sizeof(T))));
#define LANE(x, l) ((x)[l])
KINL V FN(vset)(T s) {
  V r = {0};
  return r + s;
}
KINL V FN(vadd)(V a, V b) { return a + b; }
KINL V FN(vsub)(V a, V b) { return a - b; }
KINL V FN(vmul)(V a, V b) { return a * b; }
KINL V FN(vload)(const T *p) {
  V r;
  memcpy(&r, p, sizeof r);
  return r;
}
#else
#define KINL static inline KATTR
typedef struct {
  T v[W];
} V;
#define LANE(x, l) ((x).v[l])
KINL V FN(vset)(T s) {
  V r;
  for (int l = 0; l < W; l++) r.v[l] = s;
  return r;
}
KINL V FN(vadd)(V a, V b) {
  for (int l = 0; l < W; l++) a.v[l] += b.v[l];
  return a;
}
KINL V FN(vsub)(V a, V b) {
  for (int l = 0; l < W; l++) a.v[l] -= b.v[l];
  return a;
}
KINL V FN(vmul)(V a, V b) {
  for (int l = 0; l < W; l++) a.v[l] *= b.v[l];
  return a;
}
KINL V FN(vload)(const T *p) {
  V r;
  memcpy(&r, p, sizeof r);
  return r;
}
#endif

typedef struct {
  V r, i;
} C;

KINL C FN(cadd)(C a, C b) { return (C){FN(vadd)(a.r, b.r), FN(vadd)(a.i, b.i)}; }
KINL C FN(csub)(C a, C b) { return (C){FN(vsub)(a.r, b.r), FN(vsub)(a.i, b.i)}; }
/* a x (-i) */
KINL C FN(cmni)(C a) { return (C){a.i, FN(vsub)(FN(vset)(0), a.r)}; }
KINL C FN(cconj)(C a) { return (C){a.r, FN(vsub)(FN(vset)(0), a.i)}; }
KINL C FN(cmul)(C a, C b) {
  return (C){FN(vsub)(FN(vmul)(a.r, b.r), FN(vmul)(a.i, b.i)),
             FN(vadd)(FN(vmul)(a.r, b.i), FN(vmul)(a.i, b.r))};
}
/* a x (wr + i wi), w one complex number (every lane) */
KINL C FN(cmulw)(C a, const T *w) {
  V wr = FN(vset)(w[0]), wi = FN(vset)(w[1]);
  return (C){FN(vsub)(FN(vmul)(a.r, wr), FN(vmul)(a.i, wi)),
             FN(vadd)(FN(vmul)(a.r, wi), FN(vmul)(a.i, wr))};
}
KINL C FN(cscal)(C a, V s) { return (C){FN(vmul)(a.r, s), FN(vmul)(a.i, s)}; }

#define CC(i, m, k) cc[(i) + ido * ((m) + ip * (k))]
#define CH(i, k, j) ch[(i) + ido * ((k) + l1 * (j))]
#define WA(j, i) (wa + 2 * (((j)-1) * (ido - 1) + (i)-1))

static KATTR void FN(pass2)(int64_t ido, int64_t l1, const C *cc, C *ch, const T *wa) {
  const int64_t ip = 2;
  for (int64_t k = 0; k < l1; k++) {
    CH(0, k, 0) = FN(cadd)(CC(0, 0, k), CC(0, 1, k));
    CH(0, k, 1) = FN(csub)(CC(0, 0, k), CC(0, 1, k));
    for (int64_t i = 1; i < ido; i++) {
      C t0 = CC(i, 0, k), t1 = CC(i, 1, k);
      CH(i, k, 0) = FN(cadd)(t0, t1);
      CH(i, k, 1) = FN(cmulw)(FN(csub)(t0, t1), WA(1, i));
    }
  }
}

KINL void FN(bfly4)(const C *cc, int64_t i, int64_t k, int64_t ido, C *y) {
  const int64_t ip = 4;
  C t0 = CC(i, 0, k), t1 = CC(i, 1, k), t2 = CC(i, 2, k), t3 = CC(i, 3, k);
  C a = FN(cadd)(t0, t2), b = FN(csub)(t0, t2), c = FN(cadd)(t1, t3);
  C d = FN(cmni)(FN(csub)(t1, t3));
  y[0] = FN(cadd)(a, c), y[1] = FN(cadd)(b, d), y[2] = FN(csub)(a, c), y[3] = FN(csub)(b, d);
}

static KATTR void FN(pass4)(int64_t ido, int64_t l1, const C *cc, C *ch, const T *wa) {
  C y[4];
  for (int64_t k = 0; k < l1; k++) {
    FN(bfly4)(cc, 0, k, ido, y);
    for (int j = 0; j < 4; j++) CH(0, k, j) = y[j];
    for (int64_t i = 1; i < ido; i++) {
      FN(bfly4)(cc, i, k, ido, y);
      CH(i, k, 0) = y[0];
      for (int j = 1; j < 4; j++) CH(i, k, j) = FN(cmulw)(y[j], WA(j, i));
    }
  }
}

/* y_j = sum_m t_m exp(-2 pi i j m / p), p odd, from the pairs t_m +- t_{p-m}; rt[2q], rt[2q+1]
   = cos, sin of 2 pi q / p */
KINL void FN(bflyodd)(int p, const C *t, C *y, const T *rt) {
  C s[LT_FFT_RADIX_MAX / 2 + 1], d[LT_FFT_RADIX_MAX / 2 + 1], y0 = t[0];
  int h = (p - 1) / 2;
  for (int m = 1; m <= h; m++) {
    s[m] = FN(cadd)(t[m], t[p - m]), d[m] = FN(csub)(t[m], t[p - m]);
    y0 = FN(cadd)(y0, s[m]);
  }
  y[0] = y0;
  for (int j = 1; j <= h; j++) {
    C a = t[0], b = {FN(vset)(0), FN(vset)(0)};
    for (int m = 1, q = j; m <= h; m++, q = q + j >= p ? q + j - p : q + j) {
      a = FN(cadd)(a, FN(cscal)(s[m], FN(vset)(rt[2 * q])));
      b = FN(cadd)(b, FN(cscal)(d[m], FN(vset)(rt[2 * q + 1])));
    }
    y[j] = (C){FN(vadd)(a.r, b.i), FN(vsub)(a.i, b.r)};
    y[p - j] = (C){FN(vsub)(a.r, b.i), FN(vadd)(a.i, b.r)};
  }
}

KINL void FN(passodd_p)(int p, int64_t ido, int64_t l1, const C *cc, C *ch, const T *wa,
                        const T *rt) {
  const int64_t ip = p;
  C t[LT_FFT_RADIX_MAX], y[LT_FFT_RADIX_MAX];
  for (int64_t k = 0; k < l1; k++)
    for (int64_t i = 0; i < ido; i++) {
      for (int m = 0; m < p; m++) t[m] = CC(i, m, k);
      FN(bflyodd)(p, t, y, rt);
      CH(i, k, 0) = y[0];
      if (i == 0)
        for (int j = 1; j < p; j++) CH(i, k, j) = y[j];
      else
        for (int j = 1; j < p; j++) CH(i, k, j) = FN(cmulw)(y[j], WA(j, i));
    }
}

static KATTR void FN(passodd)(int p, int64_t ido, int64_t l1, const C *cc, C *ch, const T *wa,
                              const T *rt) {
  switch (p) {
    case 3: FN(passodd_p)(3, ido, l1, cc, ch, wa, rt); break;
    case 5: FN(passodd_p)(5, ido, l1, cc, ch, wa, rt); break;
    case 7: FN(passodd_p)(7, ido, l1, cc, ch, wa, rt); break;
    default: FN(passodd_p)(p, ido, l1, cc, ch, wa, rt);
  }
}
#undef CC
#undef CH
#undef WA

static KATTR C *FN(direct)(const lt_fft_plan *p, C *a, C *b) {
  const T *tw = p->tw;
  int64_t l1 = 1;
  for (int f = 0; f < p->nfac; f++) {
    int ip = p->fac[f];
    int64_t ido = p->n / (l1 * ip);
    const T *wa = tw + 2 * p->twoff[f];
    if (ip == 4)
      FN(pass4)(ido, l1, a, b, wa);
    else if (ip == 2)
      FN(pass2)(ido, l1, a, b, wa);
    else
      FN(passodd)(ip, ido, l1, a, b, wa, tw + 2 * p->rootoff[f]);
    C *s = a;
    a = b, b = s, l1 *= ip;
  }
  return a;
}

static KATTR void *FN(exec)(const lt_fft_plan *p, void *va, void *vb) {
  C *a = va, *b = vb;
  if (p->kind == LT_FFTP_DIRECT) return FN(direct)(p, a, b);
  /* BLUE: X[j] = c[j] sum_k (x[k] c[k]) conj(c[j - k]), the sum a cyclic convolution of m */
  const T *c = p->chirp, *bf = p->bfft;
  int64_t n = p->n, m = p->m;
  for (int64_t k = 0; k < n; k++) b[k] = FN(cmulw)(a[k], c + 2 * k);
  for (int64_t k = n; k < m; k++) b[k] = (C){FN(vset)(0), FN(vset)(0)};
  C *r = FN(direct)(p->sub, b, a), *o = r == b ? a : b;
  for (int64_t k = 0; k < m; k++) r[k] = FN(cconj)(FN(cmulw)(r[k], bf + 2 * k));
  C *r2 = FN(direct)(p->sub, r, o);
  for (int64_t k = 0; k < n; k++) a[k] = FN(cmulw)(FN(cconj)(r2[k]), c + 2 * k);
  return a;
}

/* input element k of the line at base, as the transform reads it */
KINL void FN(gin)(const lt_fft_io *io, int kind, int odd, int64_t base, int64_t k, T *d,
                  int64_t imoff) {
  const T *x = io->x, *w = io->rtw;
  int64_t inner = io->inner, n = io->n, N = io->N, nin = io->nin;
  T sg = io->cin ? -1 : 1, re, im;
  if (kind == LT_FFT_C2C) {
    int64_t e = base + k * inner;
    re = x[2 * e], im = sg * x[2 * e + 1];
  } else if (kind == LT_FFT_R2C) {
    if (odd)
      re = x[base + k * inner], im = 0;
    else
      re = x[base + 2 * k * inner], im = x[base + (2 * k + 1) * inner];
  } else if (odd) { /* odd C2R: the Hermitian mirror */
    int64_t kk = k < nin ? k : n - k, e = base + kk * inner;
    re = x[2 * e], im = kk == 0 ? 0 : (k < nin ? sg : -sg) * x[2 * e + 1];
  } else { /* even C2R: Z = (A + B) + i w (A - B), A = X[k], B = conj(X[N - k]) */
    int64_t ea = base + k * inner, eb = base + (N - k) * inner;
    T ar = x[2 * ea], ai = k == 0 ? 0 : sg * x[2 * ea + 1];
    T br = x[2 * eb], bi = k == 0 ? 0 : -sg * x[2 * eb + 1];
    T dr = ar - br, di = ai - bi, wr = w[2 * k], wi = w[2 * k + 1];
    T tr = wr * dr - wi * di, ti = wr * di + wi * dr;
    re = ar + br - ti, im = ai + bi + tr;
  }
  d[0] = re, d[imoff] = im;
}

/* output element k of the line at base, from the transform z (element stride es) */
KINL void FN(gout)(const lt_fft_io *io, int kind, int odd, int64_t base, int64_t k, const T *z,
                   int64_t es, int64_t imoff) {
  const T *w = io->rtw;
  T *y = io->y;
  int64_t inner = io->inner, N = io->N;
  T sg = io->cout ? -1 : 1, s = (T)io->scale;
  if (kind == LT_FFT_C2R) {
    if (odd)
      y[base + k * inner] = s * z[k * es];
    else
      y[base + 2 * k * inner] = s * z[k * es],
                       y[base + (2 * k + 1) * inner] = s * z[k * es + imoff];
    return;
  }
  T re = z[k * es], im = z[k * es + imoff];
  if (kind == LT_FFT_R2C && !odd) { /* X = E + w O from Z[k] and conj(Z[N - k]) */
    int64_t ka = k == N ? 0 : k, kb = k == 0 ? 0 : N - k;
    T ar = z[ka * es], ai = z[ka * es + imoff], br = z[kb * es], bi = -z[kb * es + imoff];
    T er = (ar + br) / 2, ei = (ai + bi) / 2, or_ = (ai - bi) / 2, oi = -(ar - br) / 2;
    T wr = w[2 * k], wi = w[2 * k + 1];
    re = er + wr * or_ - wi * oi, im = ei + wr * oi + wi * or_;
  }
  int64_t e = base + k * inner;
  y[2 * e] = s * re, y[2 * e + 1] = s * sg * im;
}

/* gather's (out 0) and scatter's (out 1) loops for one kind (constants where inlined): line by
   line when lines are rows (inner 1), else element by element across the lines (neighbouring
   columns are contiguous) */
KINL void FN(loops)(const lt_fft_io *io, int out, int kind, int odd, int nl, const int64_t *base,
                    int64_t k0, int64_t k1, T *buf, int64_t es, int64_t imoff) {
  int rows = io->inner == 1;
  for (int a = 0; a < (rows ? nl : 1); a++)
    for (int64_t k = k0; k < k1; k++)
      for (int l = rows ? a : 0; l < (rows ? a + 1 : nl); l++) {
        if (out)
          FN(gout)(io, kind, odd, base[l], k, buf + l, es, imoff);
        else
          FN(gin)(io, kind, odd, base[l], k, buf + k * es + l, imoff);
      }
}

KINL void FN(kinds)(const lt_fft_io *io, int out, int nl, const int64_t *base, int64_t k0,
                    int64_t k1, T *buf, int64_t es, int64_t imoff) {
  int odd = io->N == io->n;
  if (io->kind == LT_FFT_C2C || (out && io->kind == LT_FFT_R2C && odd))
    FN(loops)(io, out, LT_FFT_C2C, 1, nl, base, k0, k1, buf, es, imoff);
  else if (io->kind == LT_FFT_R2C && odd)
    FN(loops)(io, out, LT_FFT_R2C, 1, nl, base, k0, k1, buf, es, imoff);
  else if (io->kind == LT_FFT_R2C)
    FN(loops)(io, out, LT_FFT_R2C, 0, nl, base, k0, k1, buf, es, imoff);
  else if (odd)
    FN(loops)(io, out, LT_FFT_C2R, 1, nl, base, k0, k1, buf, es, imoff);
  else
    FN(loops)(io, out, LT_FFT_C2R, 0, nl, base, k0, k1, buf, es, imoff);
}

/* where lines [l0, l0 + nl) of len elements start */
KINL void FN(bases)(const lt_fft_io *io, int64_t l0, int nl, int64_t len, int64_t *base) {
  for (int l = 0; l < nl; l++)
    base[l] = (l0 + l) / io->inner * len * io->inner + (l0 + l) % io->inner;
}

/* The common layouts without a per-element test: complex pairs (C2C, or the real pairs of an
   even R2C) of whole rows, or of W neighbouring columns; 0 when the lines are not one of them. */
KINL int FN(gfast)(const lt_fft_io *io, int nl, const int64_t *base, int64_t k0, int64_t k1, T *dst,
                   int64_t es, int64_t imoff) {
  int pairs = io->kind == LT_FFT_C2C ? 2 : io->kind == LT_FFT_R2C && io->N != io->n ? 1 : 0;
  if (!pairs || io->cin) return 0;
  const T *x = io->x;
  if (io->inner == 1) {
    for (int l = 0; l < nl; l++) {
      const T *s = x + pairs * base[l];
      for (int64_t k = k0; k < k1; k++)
        dst[k * es + l] = s[2 * k], dst[k * es + imoff + l] = s[2 * k + 1];
    }
    return 1;
  }
  if (pairs != 2 || nl != W || es != 2 * W || base[W - 1] != base[0] + W - 1) return 0;
  for (int64_t k = k0; k < k1; k++) {
    const T *s = x + 2 * (base[0] + k * io->inner);
    T *d = dst + k * es;
    for (int l = 0; l < W; l++) d[l] = s[2 * l], d[imoff + l] = s[2 * l + 1];
  }
  return 1;
}

KINL int FN(sfast)(const lt_fft_io *io, int nl, const int64_t *base, int64_t k0, int64_t k1,
                   const T *src, int64_t es, int64_t imoff) {
  if (io->kind != LT_FFT_C2C) return 0;
  T *y = io->y, sc = (T)io->scale, si = io->cout ? -sc : sc;
  if (io->inner == 1) {
    for (int l = 0; l < nl; l++) {
      T *d = y + 2 * base[l];
      for (int64_t k = k0; k < k1; k++)
        d[2 * k] = sc * src[k * es + l], d[2 * k + 1] = si * src[k * es + imoff + l];
    }
    return 1;
  }
  if (nl != W || es != 2 * W || base[W - 1] != base[0] + W - 1) return 0;
  for (int64_t k = k0; k < k1; k++) {
    T *d = y + 2 * (base[0] + k * io->inner);
    const T *s = src + k * es;
    for (int l = 0; l < W; l++) d[2 * l] = sc * s[l], d[2 * l + 1] = si * s[imoff + l];
  }
  return 1;
}

/* An even R2C's split pass on a lane buffer, in place: the N points of Z (the transform of the
   even and odd samples as one complex line) into the N + 1 of X; X[k] = E + w^k O, E = (Z[k] +
   conj(Z[N - k])) / 2, O = -i (Z[k] - conj(Z[N - k])) / 2, computed for k and N - k together. */
static KATTR void FN(rsplit)(const lt_fft_io *io, C *z) {
  int64_t N = io->N;
  const T *w = io->rtw;
  V half = FN(vset)((T)0.5);
  for (int64_t k = 0; 2 * k <= N; k++) {
    int64_t j = N - k;
    C a = z[k], b = z[j == N ? 0 : j], ca = FN(cconj)(a), cb = FN(cconj)(b);
    C e1 = FN(cscal)(FN(cadd)(a, cb), half), o1 = FN(cscal)(FN(cmni)(FN(csub)(a, cb)), half);
    C e2 = FN(cscal)(FN(cadd)(b, ca), half), o2 = FN(cscal)(FN(cmni)(FN(csub)(b, ca)), half);
    z[k] = FN(cadd)(e1, FN(cmulw)(o1, w + 2 * k));
    z[j] = FN(cadd)(e2, FN(cmulw)(o2, w + 2 * j));
  }
}

/* An even C2R's merge on a lane buffer, in place: X[0..N] (the half spectrum) into the N points
   Z[k] = (A + B) + i w^k (A - B), A = X[k], B = conj(X[N - k]) (the imaginary parts of X[0] and
   X[N] ignored), for k and N - k together */
static KATTR void FN(rmerge)(const lt_fft_io *io, C *z) {
  int64_t N = io->N;
  const T *w = io->rtw;
  V zero = FN(vset)(0);
  z[0].i = zero, z[N].i = zero;
  for (int64_t k = 0; 2 * k <= N; k++) {
    int64_t j = N - k;
    C a = z[k], b = z[j], ca = FN(cconj)(a), cb = FN(cconj)(b);
    C d1 = FN(cmulw)(FN(csub)(a, cb), w + 2 * k), d2 = FN(cmulw)(FN(csub)(b, ca), w + 2 * j);
    z[k] = FN(cadd)(FN(cadd)(a, cb), (C){FN(vsub)(zero, d1.i), d1.r});
    if (j < N) z[j] = FN(cadd)(FN(cadd)(b, ca), (C){FN(vsub)(zero, d2.i), d2.r});
  }
}

/* the complex input of lines [l0, l0 + nl), elements [k0, k1) (see lt_fft_kern): an even C2R's
   lane buffer has room for N + 1 points (the merge runs there) */
static KATTR void FN(gather)(const lt_fft_io *io, int64_t l0, int nl, int64_t k0, int64_t k1,
                             void *vdst, int64_t es, int64_t imoff) {
  T *dst = vdst;
  int64_t base[W];
  lt_fft_io merge;
  int em = io->kind == LT_FFT_C2R && io->N != io->n && es == 2 * W;
  if (em) /* read X[0..N] as complex points, merged below */
    merge = *io, merge.kind = LT_FFT_C2C, io = &merge, k1 = io->N + 1;
  FN(bases)(io, l0, nl, io->nin, base);
  if (!FN(gfast)(io, nl, base, k0, k1, dst, es, imoff))
    FN(kinds)(io, 0, nl, base, k0, k1, dst, es, imoff);
  for (int l = nl; l < es / 2; l++)
    for (int64_t k = k0; k < k1; k++) dst[k * es + l] = 0, dst[k * es + imoff + l] = 0;
  if (em) FN(rmerge)(io, vdst);
}

/* the output elements [k0, k1) of lines [l0, l0 + nl) from the transform in src (a lane buffer
   of an even R2C has room for N + 1 points: the split pass runs there, in place) */
static KATTR void FN(scatter)(const lt_fft_io *io, int64_t l0, int nl, int64_t k0, int64_t k1,
                              const void *vsrc, int64_t es, int64_t imoff) {
  int64_t base[W];
  lt_fft_io split;
  if (io->kind == LT_FFT_R2C && io->N != io->n && es == 2 * W) {
    FN(rsplit)(io, (C *)(uintptr_t)vsrc);
    split = *io, split.kind = LT_FFT_C2C, io = &split;
  }
  FN(bases)(io, l0, nl, io->nout, base);
  if (!FN(sfast)(io, nl, base, k0, k1, vsrc, es, imoff))
    FN(kinds)(io, 1, nl, base, k0, k1, (T *)(uintptr_t)vsrc, es, imoff);
}

/* FOUR: columns [c0, c1) of src (n1 x n2 complex) transformed over n1, twiddled, into x (src
   may be x) */
static KATTR void FN(cols)(const lt_fft_plan *p, const void *vsrc, void *vx, int64_t c0, int64_t c1,
                           void *va, void *vb) {
  const T *src = vsrc;
  T *x = vx;
  const T *tb = p->tw4b, *ts = p->tw4s;
  int64_t n1 = p->n1, n2 = p->n2, nb = (n2 + LT_FFT_G - 1) / LT_FFT_G;
  for (int64_t cb = c0; cb < c1; cb += W) {
    int nl = (int)(n2 - cb < W ? n2 - cb : W);
    C *a = va;
    for (int64_t k1 = 0; k1 < n1; k1++) {
      const T *row = src + 2 * (n2 * k1 + cb);
      for (int l = 0; l < W; l++)
        LANE(a[k1].r, l) = l < nl ? row[2 * l] : 0, LANE(a[k1].i, l) = l < nl ? row[2 * l + 1] : 0;
    }
    C *r = FN(exec)(p->p1, va, vb);
    for (int64_t k1 = 0; k1 < n1; k1++) {
      const T *st = ts + k1 * 2 * LT_FFT_G + cb % LT_FFT_G;
      C tw = FN(cmulw)((C){FN(vload)(st), FN(vload)(st + LT_FFT_G)},
                       tb + 2 * (k1 * nb + cb / LT_FFT_G));
      C v = FN(cmul)(r[k1], tw);
      T *row = x + 2 * (n2 * k1 + cb);
      for (int l = 0; l < nl; l++) row[2 * l] = LANE(v.r, l), row[2 * l + 1] = LANE(v.i, l);
    }
  }
}

/* FOUR: rows [r0, r1) of x transformed over n2 into y[k1 + n1 k2] */
static KATTR void FN(rows)(const lt_fft_plan *p, const void *vx, void *vy, int64_t r0, int64_t r1,
                           void *va, void *vb) {
  const T *x = vx;
  T *y = vy;
  int64_t n1 = p->n1, n2 = p->n2;
  for (int64_t rb = r0; rb < r1; rb += W) {
    int nl = (int)(r1 - rb < W ? r1 - rb : W);
    C *a = va;
    for (int l = 0; l < W; l++) /* row by row: rows n2 apart would alias in the cache */
      for (int64_t t = 0; t < n2; t++) {
        int64_t e = 2 * (n2 * (rb + l) + t);
        LANE(a[t].r, l) = l < nl ? x[e] : 0, LANE(a[t].i, l) = l < nl ? x[e + 1] : 0;
      }
    C *r = FN(exec)(p->p2, va, vb);
    for (int64_t k = 0; k < n2; k++)
      for (int l = 0; l < nl; l++)
        y[2 * (rb + l + n1 * k)] = LANE(r[k].r, l), y[2 * (rb + l + n1 * k) + 1] = LANE(r[k].i, l);
  }
}

static KATTR void FN(cmula)(void *vy, const void *vx, const void *vc, int64_t k0, int64_t k1,
                            int cin, int cout) {
  T *y = vy;
  const T *x = vx, *c = vc;
  T si = cin ? -1 : 1, so = cout ? -1 : 1;
  for (int64_t k = k0; k < k1; k++) {
    T xr = x[2 * k], xi = si * x[2 * k + 1];
    if (c) {
      T r = xr * c[2 * k] - xi * c[2 * k + 1];
      xi = xr * c[2 * k + 1] + xi * c[2 * k], xr = r;
    }
    y[2 * k] = xr, y[2 * k + 1] = so * xi;
  }
}

/* An even R2C's split pass on a plain complex array, in place, for the pairs k, N - k with k in
   [k0, k1) (k <= N / 2; z has room for N + 1 points) */
static KATTR void FN(psplit)(const lt_fft_io *io, void *vz, int64_t k0, int64_t k1) {
  T *z = vz;
  const T *w = io->rtw;
  int64_t N = io->N;
  for (int64_t k = k0; k < k1; k++) {
    int64_t j = N - k, jj = j == N ? 0 : j;
    T ar = z[2 * k], ai = z[2 * k + 1], br = z[2 * jj], bi = z[2 * jj + 1];
    T er = (ar + br) / 2, e1 = (ai - bi) / 2, orr = (ai + bi) / 2, o1 = (br - ar) / 2;
    /* X[k] = (er, e1) + w^k (orr, o1); X[j] = (er, -e1) + w^j (orr, -o1) */
    T wr = w[2 * k], wi = w[2 * k + 1], vr = w[2 * j], vi = w[2 * j + 1];
    z[2 * k] = er + wr * orr - wi * o1, z[2 * k + 1] = e1 + wr * o1 + wi * orr;
    z[2 * j] = er + vr * orr + vi * o1, z[2 * j + 1] = -e1 - vr * o1 + vi * orr;
  }
}

static const lt_fft_kern FN(kern) = {W,        sizeof(C), FN(exec),  FN(gather), FN(scatter),
                                     FN(cols), FN(rows),  FN(cmula), FN(psplit)};

#undef KN_
#undef KN
#undef FN
#undef V
#undef C
#undef KINL
#undef LANE
#undef T
#undef W
#undef SUF
#undef KATTR
#undef LT_FFT_VEC

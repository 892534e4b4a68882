/*
 * lt_linalg_small_impl.h -- the kernels of lt_linalg_small.c for one dtype: included once per
 * dtype by lt_linalg_small.c (alone), with T the element type, S(x) the name x suffixed by the
 * dtype and MI the signed integer of its width. Not a header of its own.
 *
 * A block holds LANES matrices in structure-of-arrays form: element (i, j) of the matrices is
 * the vector a[i * 4 + j] (lane l: matrix l), whatever n, so that every step below is one vector
 * operation (GNU C's vector types; one lane, plain T, for other compilers). The loops over i, j
 * and k have constant bounds where the kernels are inlined into the switch on n, and unroll.
 */

#if SMALL_VECTORS /* LANES matrices' element, one vector; a lane mask of the same width */
typedef T S(vec) __attribute__((vector_size(LANES * sizeof(T))));
typedef MI S(mask) __attribute__((vector_size(LANES * sizeof(T))));
#else
typedef T S(vec);
typedef int S(mask);
#endif

typedef struct {
  S(vec) a[16];  /* the matrices, then their LU factors (L unit lower, U upper) */
  S(vec) piv[4]; /* the row swapped with row k at step k (0-based, as T) */
  S(vec) info;   /* the first zero pivot, 1-based; 0 when none */
  S(vec) det;    /* the determinant, once factored */
} S(block);

/* LAPACK's getf2 on the block: partial pivoting (the first row of largest magnitude, as
   i?amax), full-row swaps, multipliers scaled by the pivot's reciprocal. A zero pivot leaves
   its column as it is (its multipliers are 0: the column below it is 0) and sets info. */
static SMALL_INLINE void S(lu)(S(block) * b, int n) {
  S(vec) zero = SPLAT(0), one = SPLAT(1);
  b->info = zero, b->det = one;
  for (int k = 0; k < n; k++) {
    S(vec) x = b->a[k * 4 + k], best = SEL(x < zero, -x, x), p = SPLAT((T)k);
    for (int r = k + 1; r < n; r++) {
      S(vec) y = b->a[r * 4 + k], v = SEL(y < zero, -y, y);
      S(mask) gt = v > best;
      best = SEL(gt, v, best);
      p = SEL(gt, SPLAT((T)r), p);
    }
    for (int r = k + 1; r < n; r++) {
      S(mask) s = p == SPLAT((T)r);
      for (int c = 0; c < n; c++) {
        S(vec) u = b->a[k * 4 + c], w = b->a[r * 4 + c];
        b->a[k * 4 + c] = SEL(s, w, u);
        b->a[r * 4 + c] = SEL(s, u, w);
      }
    }
    S(vec) d = b->a[k * 4 + k];
    S(mask) z = d == zero;
    b->piv[k] = p;
    b->det = SEL(p != SPLAT((T)k), -b->det, b->det) * d;
    b->info = SEL(z & (b->info == zero), SPLAT((T)(k + 1)), b->info);
    S(vec) rd = one / SEL(z, one, d);
    for (int r = k + 1; r < n; r++) {
      S(vec) m = b->a[r * 4 + k] * rd;
      b->a[r * 4 + k] = m;
      for (int c = k + 1; c < n; c++) b->a[r * 4 + c] -= m * b->a[k * 4 + c];
    }
  }
}

/* getrs on one right-hand column x of every lane: the row swaps, L y = x, U x = y (a zero pivot
   divides as 1). */
static SMALL_INLINE void S(subst)(const S(block) * b, S(vec) x[4], int n) {
  S(vec) zero = SPLAT(0), one = SPLAT(1);
  for (int k = 0; k < n; k++)
    for (int r = k + 1; r < n; r++) {
      S(mask) s = b->piv[k] == SPLAT((T)r);
      S(vec) u = x[k], v = x[r];
      x[k] = SEL(s, v, u);
      x[r] = SEL(s, u, v);
    }
  for (int k = 0; k < n; k++)
    for (int r = k + 1; r < n; r++) x[r] -= b->a[r * 4 + k] * x[k];
  for (int k = n - 1; k >= 0; k--) {
    S(vec) s = x[k], d = b->a[k * 4 + k];
    for (int c = k + 1; c < n; c++) s -= b->a[k * 4 + c] * x[c];
    x[k] = s / SEL(d == zero, one, d);
  }
}

/* The vector part, cloned for AVX2: factor the block (n constant in each case, so the loops
   unroll) and, when x is not NULL, substitute its column. */
SMALL_CLONES static void S(factor)(S(block) * b, int n) {
  switch (n) {
    case 1: S(lu)(b, 1); break;
    case 2: S(lu)(b, 2); break;
    case 3: S(lu)(b, 3); break;
    default: S(lu)(b, 4); break;
  }
}
SMALL_CLONES static void S(solve_column)(const S(block) * b, S(vec) x[4], int n) {
  switch (n) {
    case 1: S(subst)(b, x, 1); break;
    case 2: S(subst)(b, x, 2); break;
    case 3: S(subst)(b, x, 3); break;
    default: S(subst)(b, x, 4); break;
  }
}

/* Loads the next `cnt` matrices of the walk into b (the lanes after them: identities). */
static void S(load)(S(block) * b, walk *w, const T *data, int n, int cnt) {
  int64_t si = w->t->strides[w->nb], sj = w->t->strides[w->nb + 1];
  for (int l = 0; l < LANES; l++) {
    const T *m = data + w->off;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        VLANE(b->a[i * 4 + j], l) = l < cnt ? m[i * si + j * sj] : (T)(i == j);
    if (l < cnt) walk_next(w);
  }
}

/* Column j of the next `cnt` right-hand sides of the walk into x (0 in the lanes after). */
static void S(load_column)(S(vec) x[4], const walk *w0, const T *data, int n, int64_t j, int cnt) {
  walk w = *w0;
  int64_t si = w.t->strides[w.nb], sj = w.t->strides[w.nb + 1];
  for (int l = 0; l < LANES; l++) {
    for (int i = 0; i < n; i++) VLANE(x[i], l) = l < cnt ? data[w.off + i * si + j * sj] : 0;
    if (l < cnt) walk_next(&w);
  }
}

/* The whole batch: op SMALL_DET writes det[m] (and nothing else), SMALL_INV and SMALL_SOLVE
   write out (contiguous, n x k per matrix: k = n for the inverse, whose right-hand sides are the
   identity's columns) and info[m]. rhs is NULL for SMALL_INV and SMALL_DET. */
static void S(run)(const lt_tensor *a, const lt_tensor *rhs, int op, int64_t count, T *out,
                   int32_t *info) {
  int n = (int)a->shape[a->ndim - 1];
  int64_t k = op == SMALL_SOLVE ? rhs->shape[rhs->ndim - 1] : n;
  const T *ad = (const T *)lt_data(a), *bd = NULL;
  S(block) b;
  S(vec) x[4];
  walk wa, wb;
  walk_init(&wa, a);
  if (rhs) walk_init(&wb, rhs), bd = (const T *)lt_data(rhs);
  for (int64_t m0 = 0; m0 < count; m0 += LANES) {
    int cnt = count - m0 < LANES ? (int)(count - m0) : LANES;
    S(load)(&b, &wa, ad, n, cnt);
    S(factor)(&b, n);
    if (op == SMALL_DET) {
      for (int l = 0; l < cnt; l++) out[m0 + l] = VLANE(b.det, l);
      continue;
    }
    for (int l = 0; l < cnt; l++) info[m0 + l] = (int32_t)VLANE(b.info, l);
    for (int64_t j = 0; j < k; j++) {
      if (rhs)
        S(load_column)(x, &wb, bd, n, j, cnt);
      else
        for (int i = 0; i < n; i++) x[i] = SPLAT((T)(i == j));
      S(solve_column)(&b, x, n);
      for (int l = 0; l < cnt; l++)
        for (int i = 0; i < n; i++) out[(m0 + l) * n * k + i * k + j] = VLANE(x[i], l);
    }
    if (rhs)
      for (int l = 0; l < cnt; l++) walk_next(&wb);
  }
}

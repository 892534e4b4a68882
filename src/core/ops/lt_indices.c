/*
 * lt_indices.c -- cartesian_prod, combinations, tril/triu_indices, unravel_index and vander
 * (lt_indices.h). Lua-free. Called by the binding (lua_layout.c) only.
 */
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_indices.h"

/* {====== cartesian_prod and combinations ====== */

int lt_cartesian_prod(const lt_tensor *const *ts, int n, lt_tensor **out, lt_error *err) {
  if (n < 1) return lt_fail(err, LT_EARG, "expected at least one tensor");
  if (n > LT_MAX_NDIM) return lt_fail(err, LT_EARG, "too many tensors (at most %d)", LT_MAX_NDIM);
  int64_t sizes[LT_MAX_NDIM], total;
  int rc;
  for (int i = 0; i < n; i++) {
    if ((rc = lt_check_readable(ts[i], err))) return rc;
    if (ts[i]->ndim != 1)
      return lt_fail(err, LT_EARG, "tensor %d must be 1-d, got %d dims", i + 1, ts[i]->ndim);
    if (ts[i]->dtype != ts[0]->dtype)
      return lt_fail(err, LT_EARG, "tensor %d is %s, tensor 1 is %s (all must have one dtype)",
                     i + 1, lt_dtypes[ts[i]->dtype].name, lt_dtypes[ts[0]->dtype].name);
    sizes[i] = ts[i]->shape[0];
  }
  if (n == 1) return lt_tensor_alias(ts[0], out, err);
  lt_tensor *res = NULL;
  if ((rc = lt_shape_numel(n, sizes, &total, err)) ||
      (rc = lt_tensor_new(ts[0]->dtype, 2, (const int64_t[]){total, n}, 0, &res, err)))
    return rc;
  for (int i = 0; i < n && rc == LT_OK; i++) {
    /* column i of res seen with the n sizes (row-major strides times n), and tensor i expanded
       along its own dim */
    lt_frame fd, fs;
    lt_tensor *d = lt_frame_of(&fd, res), *s = lt_frame_of(&fs, ts[i]);
    d->ndim = s->ndim = n;
    d->offset += i;
    int64_t st = n;
    for (int j = n - 1; j >= 0; j--) {
      d->shape[j] = s->shape[j] = sizes[j];
      d->strides[j] = st;
      s->strides[j] = j == i ? ts[i]->strides[0] : 0;
      st *= sizes[j] ? sizes[j] : 1;
    }
    rc = lt_copy(d, s, err);
  }
  return lt_give(rc, res, out);
}

/* C(m, k) into *c; LT_ERANGE when it does not fit int64. */
static int binomial(int64_t m, int64_t k, int64_t *c, lt_error *err) {
  if (k > m - k) k = m - k;
  *c = 1;
  for (int64_t i = 0; i < k; i++) {
    int64_t p;
    if (lt_size_mul(*c, m - i, &p, NULL))
      return lt_fail(err, LT_ERANGE, "too many combinations (more than an int64 holds)");
    *c = p / (i + 1); /* exact: a product of i + 1 consecutive integers */
  }
  return LT_OK;
}

/* The next combination after pos (r positions below n), lexicographically; 0 after the last. */
static int next_combination(int64_t *pos, int64_t r, int64_t n, int rep) {
  for (int64_t i = r - 1; i >= 0; i--) {
    if (pos[i] < (rep ? n - 1 : n - r + i)) {
      pos[i]++;
      for (int64_t j = i + 1; j < r; j++) pos[j] = rep ? pos[i] : pos[j - 1] + 1;
      return 1;
    }
  }
  return 0;
}

int lt_combinations(const lt_tensor *t, int64_t r, int with_replacement, lt_tensor **out,
                    lt_error *err) {
  int rc;
  if ((rc = lt_check_readable(t, err))) return rc;
  if (t->ndim != 1) return lt_fail(err, LT_EARG, "expected a 1-d tensor, got %d dims", t->ndim);
  if (r < 0) return lt_fail(err, LT_EARG, "r must be non-negative, got %lld", (long long)r);
  if (r == 0) return lt_tensor_new(t->dtype, 1, (const int64_t[]){0}, 0, out, err);
  int64_t n = t->shape[0], count = 0;
  if (with_replacement && n > 0) {
    if (r > INT64_MAX - n) return lt_fail(err, LT_ERANGE, "r %lld is too large", (long long)r);
    rc = binomial(n + r - 1, r, &count, err);
  } else if (!with_replacement && r <= n) {
    rc = binomial(n, r, &count, err);
  }
  lt_tensor *res = NULL;
  if (rc || (rc = lt_tensor_new(t->dtype, 2, (const int64_t[]){count, r}, 0, &res, err))) return rc;
  if (count == 0) return lt_give(rc, res, out);
  int64_t *pos = malloc((size_t)r * sizeof *pos); /* r fits: res holds count x r elements */
  if (!pos) return lt_give(lt_fail(err, LT_ENOMEM, "not enough memory"), res, out);
  for (int64_t j = 0; j < r; j++) pos[j] = with_replacement ? 0 : j;
  size_t es = lt_esize(t);
  const char *src = lt_data(t);
  char *dst = lt_data(res);
  do {
    for (int64_t j = 0; j < r; j++, dst += es)
      memcpy(dst, src + pos[j] * t->strides[0] * (int64_t)es, es);
  } while (next_combination(pos, r, n, with_replacement));
  free(pos);
  return lt_give(rc, res, out);
}

/* }====== */

/* {====== tril_indices, triu_indices, unravel_index ====== */

/* The sum over rows i < row of clamp(i + c, 0, col): the elements with j < i + c. No overflow:
   the caller checked that 2 row col fits. */
static int64_t count_below(int64_t row, int64_t col, int64_t c) {
  int64_t lo = -c < 0 ? 0 : -c > row ? row : -c;
  int64_t hi = col - c < 0 ? 0 : col - c > row ? row : col - c;
  int64_t m = hi > lo ? hi - lo : 0;
  return m * ((lo + c) + (hi - 1 + c)) / 2 + (row - (hi > lo ? hi : lo)) * col;
}

int lt_tri_indices(int64_t row, int64_t col, int64_t offset, int upper, lt_dtype dt, int base,
                   lt_tensor **out, lt_error *err) {
  int64_t twice, total;
  if (row < 0) return lt_fail(err, LT_EARG, "row must be non-negative, got %lld", (long long)row);
  if (col < 0) return lt_fail(err, LT_EARG, "col must be non-negative, got %lld", (long long)col);
  if (dt >= LT_NDTYPES || !lt_dtypes[dt].is_int)
    return lt_fail(err, LT_EARG, "dtype must be an integer dtype, got %s", lt_dtype_name(dt));
  int rc = lt_size_mul(row, col, &total, err);
  if (rc || (rc = lt_size_mul(total, 2, &twice, err))) return rc;
  if (offset < -row - 1) offset = -row - 1; /* beyond these, every row is empty or full */
  if (offset > col + 1) offset = col + 1;
  /* tril: j < i + offset + 1; triu: the rest of j < i + offset */
  int64_t count = upper ? total - count_below(row, col, offset) : count_below(row, col, offset + 1);
  lt_tensor *res = NULL;
  if ((rc = lt_tensor_new(LT_INT64, 2, (const int64_t[]){2, count}, 0, &res, err))) return rc;
  int64_t *ri = (int64_t *)lt_data(res), *ci = ri + count, k = 0;
  /* only the rows with elements: each gives at least one, so the loop is bounded by count */
  int64_t first = upper ? 0 : (-offset > 0 ? -offset : 0), last = row;
  if (upper && col - offset < last) last = col - offset;
  for (int64_t i = first; i < last && k < count; i++) {
    int64_t j0 = upper ? (i + offset > 0 ? i + offset : 0) : 0;
    int64_t j1 = upper ? col : (i + offset + 1 < col ? i + offset + 1 : col);
    for (int64_t j = j0; j < j1; j++, k++) {
      ri[k] = i + base;
      ci[k] = j + base;
    }
  }
  if (dt != LT_INT64) rc = lt_cast_over(&res, dt, err);
  return lt_give(rc, res, out);
}

int lt_unravel_index(const lt_tensor *idx, int nd, const int64_t *shape, int base, lt_tensor **outs,
                     lt_error *err) {
  int rc;
  int64_t total;
  if ((rc = lt_check_readable(idx, err))) return rc;
  if (!lt_dtypes[idx->dtype].is_int)
    return lt_fail(err, LT_EARG, "indices must be an integer tensor, got %s",
                   lt_dtype_name(idx->dtype));
  if ((rc = lt_shape_numel(nd, shape, &total, err))) return rc;
  const lt_tensor *c = NULL;
  lt_tensor *owned = NULL;
  if ((rc = lt_contiguous_as(idx, LT_INT64, &c, &owned, err))) return rc;
  const int64_t *v = (const int64_t *)lt_data(c);
  int64_t n = lt_numel(c);
  for (int64_t k = 0; k < n && rc == LT_OK; k++) {
    int64_t q = v[k] < 0 ? v[k] + total : v[k] - base;
    if (q < 0 || q >= total)
      rc = lt_fail(err, LT_ERANGE, "index %lld is out of range for a tensor of %lld elements%s",
                   (long long)v[k], (long long)total,
                   base == 1 && v[k] == 0 ? " (indices are 1-based)" : "");
  }
  for (int d = 0; d < nd; d++) outs[d] = NULL;
  for (int d = 0; d < nd && rc == LT_OK; d++)
    rc = lt_tensor_new(LT_INT64, idx->ndim, idx->shape, 0, &outs[d], err);
  for (int64_t k = 0; k < n && rc == LT_OK; k++) {
    int64_t q = v[k] < 0 ? v[k] + total : v[k] - base;
    for (int d = nd - 1; d >= 0; d--) {
      ((int64_t *)lt_data(outs[d]))[k] = q % shape[d] + base;
      q /= shape[d];
    }
  }
  if (rc)
    for (int d = 0; d < nd; d++) {
      lt_tensor_free(outs[d]);
      outs[d] = NULL;
    }
  lt_tensor_free(owned);
  return rc;
}

/* }====== */

/* {====== vander ====== */

/* Row i of the powers: out[i * N + col(k)] = x^k, k from 0, as successive products (torch's
   cumprod). */
static void vander_rows(lt_dtype ct, const char *x, int64_t len, int64_t N, int increasing,
                        char *o) {
  for (int64_t i = 0; i < len; i++) {
    for (int64_t k = 0; k < N; k++) {
      int64_t at = i * N + (increasing ? k : N - 1 - k), prev = at + (increasing ? -1 : 1);
      int one = k == 0;
      switch (ct) {
        case LT_INT64: {
          uint64_t *p = (uint64_t *)o;
          p[at] = one ? 1 : p[prev] * ((const uint64_t *)x)[i];
          break;
        }
        case LT_FLOAT32: {
          float *p = (float *)o;
          p[at] = one ? 1 : p[prev] * ((const float *)x)[i];
          break;
        }
        case LT_FLOAT64: {
          double *p = (double *)o;
          p[at] = one ? 1 : p[prev] * ((const double *)x)[i];
          break;
        }
        case LT_COMPLEX64: {
          lt_c64 *p = (lt_c64 *)o, a = one ? (lt_c64){1, 0} : p[prev], b = ((const lt_c64 *)x)[i];
          p[at] = one ? a : (lt_c64){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
          break;
        }
        default: { /* complex128 */
          lt_c128 *p = (lt_c128 *)o, a = one ? (lt_c128){1, 0} : p[prev];
          lt_c128 b = ((const lt_c128 *)x)[i];
          p[at] = one ? a : (lt_c128){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
          break;
        }
      }
    }
  }
}

int lt_vander(const lt_tensor *x, int64_t N, int increasing, lt_tensor **out, lt_error *err) {
  int rc;
  if ((rc = lt_check_readable(x, err))) return rc;
  if (x->ndim != 1) return lt_fail(err, LT_EARG, "x must be a 1-d tensor, got %d dims", x->ndim);
  int64_t len = x->shape[0];
  if (N < 0) N = len;
  const lt_dtype_info *di = &lt_dtypes[x->dtype];
  lt_dtype rt = di->is_float || di->is_complex ? x->dtype : LT_INT64;
  lt_dtype ct = rt == LT_FLOAT16 || rt == LT_BFLOAT16 ? LT_FLOAT32 : rt;
  const lt_tensor *xc = NULL;
  lt_tensor *owned = NULL, *res = NULL;
  if ((rc = lt_tensor_new(ct, 2, (const int64_t[]){len, N}, 0, &res, err)) == LT_OK &&
      (rc = lt_contiguous_as(x, ct, &xc, &owned, err)) == LT_OK) {
    vander_rows(ct, lt_data(xc), len, N, increasing, lt_data(res));
    if (ct != rt) rc = lt_cast_over(&res, rt, err);
  }
  lt_tensor_free(owned);
  return lt_give(rc, res, out);
}

/* }====== */

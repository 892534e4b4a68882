/*
 * lt_promote.c -- torch's type promotion and computation dtypes (see lt_promote.h).
 */
#include "lt_promote.h"

lt_category lt_category_of(lt_dtype d) {
  if (d == LT_BOOL) return LT_CAT_BOOL;
  if (lt_dtypes[d].is_complex) return LT_CAT_COMPLEX;
  if (lt_dtypes[d].is_float) return LT_CAT_FLOAT;
  return LT_CAT_INT;
}

static int bits(lt_dtype d) { return lt_dtypes[d].dl.bits; }

/* The integer dtype of nbits (8 to 64) bits and that signedness. */
static lt_dtype int_of(int nbits, int is_signed) {
  for (int d = 0; d < LT_NDTYPES; d++)
    if (lt_dtypes[d].is_int && lt_dtypes[d].is_signed == is_signed && bits((lt_dtype)d) == nbits)
      return (lt_dtype)d;
  return is_signed ? LT_INT64 : LT_UINT64;
}

/* The complex dtype with at least the precision of float dtype f. */
static lt_dtype complex_of(lt_dtype f) { return f == LT_FLOAT64 ? LT_COMPLEX128 : LT_COMPLEX64; }

lt_dtype lt_promote(lt_dtype a, lt_dtype b) {
  if (a == b || a == LT_OPAQUE) return a;
  if (b == LT_OPAQUE) return b;
  int ca = lt_category_of(a), cb = lt_category_of(b);
  if (ca < cb) {
    lt_dtype t = a;
    a = b;
    b = t;
    int c = ca;
    ca = cb;
    cb = c;
  }
  /* now ca >= cb */
  if (ca != cb) {
    if (ca == LT_CAT_COMPLEX && cb == LT_CAT_FLOAT)
      return bits(b) == 64 && a == LT_COMPLEX64 ? LT_COMPLEX128 : a;
    return a; /* bool < int < float: the higher kind, at its own precision */
  }
  switch (ca) {
    case LT_CAT_INT: {
      int sa = lt_dtypes[a].is_signed, sb = lt_dtypes[b].is_signed;
      if (sa == sb) return bits(a) >= bits(b) ? a : b;
      lt_dtype s = sa ? a : b, u = sa ? b : a;
      if (bits(u) < bits(s)) return s;
      if (bits(u) == 64) return LT_FLOAT64; /* no integer holds both (NumPy's choice) */
      return int_of(2 * bits(u), 1);
    }
    case LT_CAT_FLOAT:
      if ((a == LT_FLOAT16 && b == LT_BFLOAT16) || (a == LT_BFLOAT16 && b == LT_FLOAT16))
        return LT_FLOAT32;
      return bits(a) >= bits(b) ? a : b;
    default: return bits(a) >= bits(b) ? a : b;
  }
}

/* The dtype an operand brings to promotion: a tensor's, or a scalar's default. */
static lt_dtype operand_dtype(const lt_operand *o) {
  if (o->t) return o->t->dtype;
  if (o->is_bool) return LT_BOOL;
  switch (o->s.kind) {
    case LT_SK_INT:
    case LT_SK_UINT: return LT_INT64;
    case LT_SK_FLOAT: return LT_FLOAT32; /* torch's default dtype */
    default: return LT_COMPLEX64;
  }
}

/* 0: tensors with dims, 1: 0-d tensors, 2: scalars. */
static int priority(const lt_operand *o) { return o->t ? (o->t->ndim > 0 ? 0 : 1) : 2; }

/* A higher-priority result keeps its dtype unless the other is of a higher category. */
static lt_dtype combine(lt_dtype hi, lt_dtype lo) {
  if (lt_category_of(hi) >= lt_category_of(lo)) return hi;
  if (lt_category_of(lo) == LT_CAT_COMPLEX && lt_category_of(hi) == LT_CAT_FLOAT)
    return complex_of(hi);
  return lt_promote(hi, lo);
}

lt_dtype lt_result_type(int n, const lt_operand *const *ops) {
  int have[3] = {0, 0, 0};
  lt_dtype r[3] = {LT_BOOL, LT_BOOL, LT_BOOL};
  for (int i = 0; i < n; i++)
    if (ops[i]->t && ops[i]->t->dtype == LT_OPAQUE) return LT_OPAQUE;
  for (int i = 0; i < n; i++) {
    int p = priority(ops[i]);
    lt_dtype d = operand_dtype(ops[i]);
    r[p] = have[p] ? lt_promote(r[p], d) : d;
    have[p] = 1;
  }
  lt_dtype out = LT_BOOL;
  int any = 0;
  for (int p = 0; p < 3; p++) {
    if (!have[p]) continue;
    out = any ? combine(out, r[p]) : r[p];
    any = 1;
  }
  return out;
}

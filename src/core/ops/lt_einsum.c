/*
 * lt_einsum.c -- torch.einsum (see lt_einsum.h).
 *
 * Every dim of every operand gets a label: a letter (0-25 for A-Z, 26-51 for a-z, so label
 * order is ASCII order) or a dim of the ellipsis (52 + its position in the broadcast
 * ellipsis, right-aligned). The equation is checked against every operand before anything is
 * computed. Each operand is then a strided view with each label once (a repeated label is the
 * diagonal: one dim whose stride is the sum of the repeated ones), and the operands are folded
 * from the left: a label of size 1 meeting a larger one is dropped from its side (it only
 * broadcasts), labels of one side only that nothing later needs are summed out, and the pair
 * becomes one batched product -- the shared labels still needed are the batch, the shared ones
 * not needed are contracted (k), the others are the rows (m) and the columns (n) of a
 * batch x m x k by batch x k x n lt_matmul; without a contracted label it is an elementwise
 * product instead. The last result loses the labels the output lacks and is permuted into the
 * output's order.
 */
#include "lt_einsum.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lt_copy.h"
#include "lt_linalg.h"
#include "lt_math.h"
#include "lt_promote.h"
#include "lt_reduce.h"

#define NLET 52
#define NLAB (NLET + LT_MAX_NDIM)

/* {====== the equation ====== */

/* One operand's (or the output's) subscripts. */
typedef struct {
  int nlab;                       /* letters */
  int ell;                        /* letters before the ellipsis, -1 without one */
  unsigned char lab[LT_MAX_NDIM]; /* the first LT_MAX_NDIM letters, as labels */
} term;

static int is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int letter_label(char c) { return c >= 'a' ? c - 'a' + 26 : c - 'A'; }
static char label_char(int l) { return (char)(l < 26 ? 'A' + l : 'a' + l - 26); }

static int bad_char(const char *eq, size_t p, lt_error *err) {
  unsigned char c = (unsigned char)eq[p];
  if (c >= 32 && c < 127)
    return lt_fail(err, LT_EARG,
                   "invalid character '%c' at position %zu of the equation (indices are the "
                   "letters a-z and A-Z)",
                   c, p + 1);
  return lt_fail(err, LT_EARG, "invalid byte %d at position %zu of the equation", c, p + 1);
}

/* Parses eq into terms[0..n) (the operands; *nterms counts every one, the ones past n are not
   kept) and *o, the output, when eq has "->" (*has_out). */
static int parse(const char *eq, size_t len, term *terms, int n, int *nterms, term *o, int *has_out,
                 lt_error *err) {
  term spare, *cur = &terms[0];
  int t = 0;
  for (int i = 0; i < n; i++) terms[i] = (term){0, -1, {0}};
  *o = (term){0, -1, {0}};
  *has_out = 0;
  for (size_t p = 0; p < len; p++) {
    char c = eq[p];
    if (c == ' ') continue;
    if (is_letter(c)) {
      if (cur->nlab < LT_MAX_NDIM) cur->lab[cur->nlab] = (unsigned char)letter_label(c);
      if (cur->nlab < INT_MAX) cur->nlab++;
    } else if (c == '.') {
      if (p + 2 >= len || eq[p + 1] != '.' || eq[p + 2] != '.')
        return lt_fail(err, LT_EARG, "'.' at position %zu is not part of an ellipsis '...'", p + 1);
      if (cur->ell >= 0 && *has_out)
        return lt_fail(err, LT_EARG, "the output has more than one ellipsis");
      if (cur->ell >= 0)
        return lt_fail(err, LT_EARG, "operand %d has more than one ellipsis", t + 1);
      cur->ell = cur->nlab;
      p += 2;
    } else if (c == ',' && !*has_out) {
      t++;
      cur = t < n ? &terms[t] : &spare;
      *cur = (term){0, -1, {0}};
    } else if (c == ',') {
      return lt_fail(err, LT_EARG, "',' at position %zu is in the output (it names one term)",
                     p + 1);
    } else if (c == '-' && p + 1 < len && eq[p + 1] == '>') {
      if (*has_out) return lt_fail(err, LT_EARG, "the equation has more than one '->'");
      *has_out = 1;
      cur = o;
      p++;
    } else {
      return bad_char(eq, p, err);
    }
  }
  *nterms = t + 1;
  return LT_OK;
}

/* The labels of the dims of operand i (t, subscripts tm) into lab; *ne receives the number of
   dims its ellipsis covers. E < 0: only checks the counts. */
static int dim_labels(const term *tm, const lt_tensor *t, int i, int E, int *lab, int *ne,
                      lt_error *err) {
  if (tm->ell < 0 && tm->nlab != t->ndim)
    return lt_fail(err, LT_EARG,
                   "the number of subscripts in the equation (%d) does not match the number of "
                   "dimensions (%d) for operand %d",
                   tm->nlab, t->ndim, i + 1);
  if (tm->ell >= 0 && tm->nlab > t->ndim)
    return lt_fail(err, LT_EARG,
                   "the number of subscripts in the equation (%d) is more than the number of "
                   "dimensions (%d) for operand %d",
                   tm->nlab, t->ndim, i + 1);
  *ne = t->ndim - tm->nlab;
  if (E < 0) return LT_OK;
  int ell = tm->ell < 0 ? tm->nlab : tm->ell, d = 0;
  for (int q = 0; q < ell; q++) lab[d++] = tm->lab[q];
  for (int j = 0; j < *ne; j++) lab[d++] = NLET + E - *ne + j;
  for (int q = ell; q < tm->nlab; q++) lab[d++] = tm->lab[q];
  return LT_OK;
}

/* }====== */

/* {====== operands as labelled views ====== */

/* A view with each label once: fr->t borrows an operand (own NULL) or own. */
typedef struct {
  lt_frame *fr; /* the view, fr->t (the caller's frame) */
  lt_tensor *own;
  int lab[LT_MAX_NDIM];
} side;

static void side_drop(side *s, int d) {
  lt_drop_dim_(&s->fr->t, d);
  memmove(s->lab + d, s->lab + d + 1, (size_t)(s->fr->t.ndim - d) * sizeof s->lab[0]);
}

/* s becomes t (a new tensor computed from s's view) with labels lab (n of them). */
static void side_set(side *s, lt_tensor *t, const int *lab, int n) {
  int keep[LT_MAX_NDIM];
  memcpy(keep, lab, (size_t)n * sizeof keep[0]);
  lt_tensor_free(s->own);
  s->own = t;
  lt_frame_of(s->fr, t);
  memcpy(s->lab, keep, (size_t)n * sizeof keep[0]);
}

/* Where each label is among s's dims (-1: not there). */
static void positions(const side *s, int *pos) {
  for (int l = 0; l < NLAB; l++) pos[l] = -1;
  for (int d = 0; d < s->fr->t.ndim; d++) pos[s->lab[d]] = d;
}

/* Operand i (t, dim labels lab) as a side: a repeated label becomes its diagonal. */
static int side_init(side *s, const lt_tensor *t, const int *lab, int i, lt_error *err) {
  lt_tensor *v = lt_frame_of(s->fr, t);
  s->own = NULL;
  memcpy(s->lab, lab, (size_t)t->ndim * sizeof s->lab[0]);
  for (int d = 0; d < v->ndim; d++)
    for (int e = v->ndim - 1; e > d; e--) {
      if (s->lab[e] != s->lab[d]) continue;
      if (v->shape[e] != v->shape[d])
        return lt_fail(
            err, LT_EARG, "index '%c' is repeated in operand %d with sizes %lld and %lld",
            label_char(s->lab[d]), i + 1, (long long)v->shape[d], (long long)v->shape[e]);
      v->strides[d] += v->strides[e];
      side_drop(s, e);
    }
  return LT_OK;
}

/* Sums out of s the dims whose label is marked in drop. */
static int sum_out(side *s, const unsigned char *drop, lt_error *err) {
  int dims[LT_MAX_NDIM], keep[LT_MAX_NDIM], nd = 0, nk = 0;
  for (int d = 0; d < s->fr->t.ndim; d++) {
    if (drop[s->lab[d]])
      dims[nd++] = d;
    else
      keep[nk++] = s->lab[d];
  }
  if (nd == 0) return LT_OK;
  lt_tensor *r;
  int rc = lt_reduce_dims(LT_SUM, &s->fr->t, dims, nd, 0, 0, &r, err);
  if (rc) return rc;
  side_set(s, r, keep, nk);
  return LT_OK;
}

/* A label of size 1 on one side and another size on the other only broadcasts: dropped. */
static void drop_broadcast(side *a, side *b) {
  int pb[NLAB];
  positions(b, pb);
  for (int d = a->fr->t.ndim - 1; d >= 0; d--) {
    int e = pb[a->lab[d]];
    if (e < 0 || a->fr->t.shape[d] == b->fr->t.shape[e]) continue;
    if (a->fr->t.shape[d] == 1)
      side_drop(a, d);
    else if (b->fr->t.shape[e] == 1) {
      side_drop(b, e);
      positions(b, pb);
    }
  }
}

/* s's dims reordered as perm (n of them, a permutation of its dims), in place. */
static void side_permute(side *s, const int *perm) {
  lt_tensor *v = &s->fr->t;
  int64_t sh[LT_MAX_NDIM], st[LT_MAX_NDIM];
  int lab[LT_MAX_NDIM];
  for (int d = 0; d < v->ndim; d++) {
    sh[d] = v->shape[perm[d]];
    st[d] = v->strides[perm[d]];
    lab[d] = s->lab[perm[d]];
  }
  memcpy(v->shape, sh, (size_t)v->ndim * sizeof sh[0]);
  memcpy(v->strides, st, (size_t)v->ndim * sizeof st[0]);
  memcpy(s->lab, lab, (size_t)v->ndim * sizeof lab[0]);
}

/* The product of the sizes of dims [from, to) of v into *out. */
static int span(const lt_tensor *v, int from, int to, int64_t *out, lt_error *err) {
  return lt_shape_numel(to - from, v->shape + from, out, err);
}

/* a becomes the product of a and b, summed over the shared labels keep does not mark. */
static int contract(side *a, side *b, const unsigned char *keep, lt_error *err) {
  int pa[NLAB], pb[NLAB], permA[LT_MAX_NDIM], permB[LT_MAX_NDIM];
  int na = a->fr->t.ndim, nb = b->fr->t.ndim, nbt = 0, nm = 0, nk = 0, nn = 0;
  positions(a, pa);
  positions(b, pb);
  for (int d = 0; d < na; d++) /* batch first, in a's order */
    if (pb[a->lab[d]] >= 0 && keep[a->lab[d]]) {
      permA[nbt] = d;
      permB[nbt++] = pb[a->lab[d]];
    }
  for (int d = 0; d < na; d++)
    if (pb[a->lab[d]] < 0) permA[nbt + nm++] = d;
  for (int d = 0; d < na; d++)
    if (pb[a->lab[d]] >= 0 && !keep[a->lab[d]]) {
      permA[nbt + nm + nk] = d;
      permB[nbt + nk++] = pb[a->lab[d]];
    }
  for (int d = 0; d < nb; d++)
    if (pa[b->lab[d]] < 0) permB[nbt + nk + nn++] = d;
  if (nbt + nm + nn > LT_MAX_NDIM)
    return lt_fail(err, LT_ERANGE, "a product would have more than %d dims", LT_MAX_NDIM);
  side_permute(a, permA);
  side_permute(b, permB);
  int lab[LT_MAX_NDIM];
  int64_t shape[LT_MAX_NDIM];
  memcpy(lab, a->lab, (size_t)(nbt + nm) * sizeof lab[0]);
  memcpy(lab + nbt + nm, b->lab + nbt + nk, (size_t)nn * sizeof lab[0]);
  memcpy(shape, a->fr->t.shape, (size_t)(nbt + nm) * sizeof shape[0]);
  memcpy(shape + nbt + nm, b->fr->t.shape + nbt + nk, (size_t)nn * sizeof shape[0]);
  lt_tensor *c = NULL, *r = NULL;
  int rc;
  if (nk == 0) { /* no sum: an elementwise product, a as [batch, m, 1...], b as [batch, 1..., n] */
    lt_frame fa, fb;
    lt_tensor *va = lt_frame_of(&fa, &a->fr->t), *vb = lt_frame_of(&fb, &b->fr->t);
    for (int j = 0; j < nn; j++) {
      va->shape[nbt + nm + j] = 1;
      va->strides[nbt + nm + j] = 0;
    }
    va->ndim = nbt + nm + nn;
    memmove(vb->shape + nbt + nm, vb->shape + nbt, (size_t)nn * sizeof vb->shape[0]);
    memmove(vb->strides + nbt + nm, vb->strides + nbt, (size_t)nn * sizeof vb->strides[0]);
    for (int j = 0; j < nm; j++) {
      vb->shape[nbt + j] = 1;
      vb->strides[nbt + j] = 0;
    }
    vb->ndim = nbt + nm + nn;
    lt_operand oa = {.t = va}, ob = {.t = vb};
    rc = lt_binary(LT_MUL, &oa, &ob, NULL, &r, err);
  } else {
    /* batch x m x k by batch x k x n; the batch dims merged into one when they leave no room
       for the two matrix dims (the shared labels have one size on both sides) */
    int64_t sa[LT_MAX_NDIM], sb[LT_MAX_NDIM], M, K, N;
    int nbm = nbt + 2 <= LT_MAX_NDIM ? nbt : 1;
    lt_tensor *a2 = NULL, *b2 = NULL;
    if ((rc = span(&a->fr->t, nbt, nbt + nm, &M, err)) ||
        (rc = span(&a->fr->t, nbt + nm, na, &K, err)) ||
        (rc = span(&b->fr->t, nbt + nk, nb, &N, err)) ||
        (nbm != nbt && (rc = span(&a->fr->t, 0, nbt, &sa[0], err))))
      return rc;
    if (nbm == nbt) memcpy(sa, a->fr->t.shape, (size_t)nbt * sizeof sa[0]);
    memcpy(sb, sa, (size_t)nbm * sizeof sa[0]);
    sa[nbm] = M;
    sa[nbm + 1] = K;
    sb[nbm] = K;
    sb[nbm + 1] = N;
    if ((rc = lt_reshape(&a->fr->t, nbm + 2, sa, &a2, NULL, err)) == LT_OK &&
        (rc = lt_reshape(&b->fr->t, nbm + 2, sb, &b2, NULL, err)) == LT_OK &&
        (rc = lt_matmul(a2, b2, &c, err)) == LT_OK)
      rc = lt_view(c, nbt + nm + nn, shape, &r, err);
    lt_tensor_free(a2);
    lt_tensor_free(b2);
    lt_tensor_free(c);
  }
  if (rc) return rc;
  side_set(a, r, lab, nbt + nm + nn);
  return LT_OK;
}

/* }====== */

/* {====== einsum ====== */

/* The equation checked against the operands: every operand's dim labels (lab[i]), each
   label's size, the last operand that has it, the output's labels in order (*nout of them). */
typedef struct {
  int E; /* dims of the broadcast ellipsis */
  int64_t size[NLAB];
  int first[NLAB], last[NLAB];
  unsigned char out[NLAB];
  int order[NLAB], nout;
} plan;

static int size_error(const plan *P, int l, int i, int64_t s, lt_error *err) {
  if (l < NLET)
    return lt_fail(err, LT_EARG,
                   "operand %d has size %lld for index '%c', operand %d has size %lld", i + 1,
                   (long long)s, label_char(l), P->first[l] + 1, (long long)P->size[l]);
  return lt_fail(err, LT_EARG,
                 "operand %d has size %lld for dim %d of the ellipsis, operand %d has size %lld",
                 i + 1, (long long)s, l - NLET + 1, P->first[l] + 1, (long long)P->size[l]);
}

/* Checks the operands against the terms and fills P and labs (n rows of LT_MAX_NDIM). */
static int check(const term *terms, const term *o, int has_out, const lt_tensor *const *ops, int n,
                 plan *P, int *labs, lt_error *err) {
  int ne, rc, count[NLAB] = {0};
  P->E = 0;
  for (int i = 0; i < n; i++) {
    if ((rc = dim_labels(&terms[i], ops[i], i, -1, NULL, &ne, err))) return rc;
    if (ne > P->E) P->E = ne;
  }
  for (int l = 0; l < NLAB; l++) {
    P->size[l] = -1;
    P->last[l] = -1;
    P->out[l] = 0;
  }
  for (int i = 0; i < n; i++) {
    int *lab = labs + (size_t)i * LT_MAX_NDIM;
    lt_frame f;
    side s = {&f, NULL, {0}};
    dim_labels(&terms[i], ops[i], i, P->E, lab, &ne, err);
    for (int q = 0; q < terms[i].nlab; q++) count[terms[i].lab[q]]++;
    if ((rc = side_init(&s, ops[i], lab, i, err))) return rc;
    for (int d = 0; d < s.fr->t.ndim; d++) {
      int l = s.lab[d];
      int64_t sz = s.fr->t.shape[d];
      if (P->size[l] < 0 || (P->size[l] == 1 && sz != 1)) {
        P->size[l] = sz;
        P->first[l] = i;
      } else if (sz != 1 && sz != P->size[l]) {
        return size_error(P, l, i, sz, err);
      }
      P->last[l] = i;
    }
  }
  P->nout = 0;
  if (!has_out) { /* the ellipsis, then the letters that appear once */
    for (int j = 0; j < P->E; j++) P->order[P->nout++] = NLET + j;
    for (int l = 0; l < NLET; l++)
      if (count[l] == 1) P->order[P->nout++] = l;
  } else {
    int ell = o->ell < 0 ? o->nlab : o->ell;
    for (int q = 0; q <= o->nlab && q < LT_MAX_NDIM; q++) {
      if (q == ell && o->ell >= 0)
        for (int j = 0; j < P->E; j++) P->order[P->nout++] = NLET + j;
      if (q == o->nlab) break;
      int l = o->lab[q];
      if (P->last[l] < 0)
        return lt_fail(err, LT_EARG, "output index '%c' does not appear in any operand",
                       label_char(l));
      for (int k = 0; k < P->nout; k++)
        if (P->order[k] == l)
          return lt_fail(err, LT_EARG, "output index '%c' appears more than once", label_char(l));
      P->order[P->nout++] = l;
    }
  }
  if (P->nout > LT_MAX_NDIM)
    return lt_fail(err, LT_ERANGE, "the output would have %d dims, more than %d", P->nout,
                   LT_MAX_NDIM);
  for (int k = 0; k < P->nout; k++) P->out[P->order[k]] = 1;
  return LT_OK;
}

/* Runs the plan: the operands folded from the left into r. */
static int run(const plan *P, const lt_tensor *const *ops, int n, const int *labs, side *r, side *b,
               lt_error *err) {
  unsigned char drop_r[NLAB], drop_b[NLAB], keep[NLAB];
  int pr[NLAB], pb[NLAB], rc;
  if ((rc = side_init(r, ops[0], labs, 0, err))) return rc;
  for (int i = 1; i < n; i++) {
    if ((rc = side_init(b, ops[i], labs + (size_t)i * LT_MAX_NDIM, i, err))) return rc;
    drop_broadcast(r, b);
    positions(r, pr);
    positions(b, pb);
    for (int l = 0; l < NLAB; l++) {
      int later = P->out[l] || P->last[l] > i;
      drop_r[l] = !later && pb[l] < 0;
      drop_b[l] = !later && pr[l] < 0;
      keep[l] = (unsigned char)later;
    }
    if ((rc = sum_out(r, drop_r, err)) || (rc = sum_out(b, drop_b, err)) ||
        (rc = contract(r, b, keep, err)))
      return rc;
    lt_tensor_free(b->own);
    b->own = NULL;
  }
  for (int l = 0; l < NLAB; l++) drop_r[l] = !P->out[l];
  if ((rc = sum_out(r, drop_r, err))) return rc;
  /* into the output's order; a label no dim kept (only sizes of 1) comes back as size 1 */
  lt_tensor *v = &r->fr->t;
  positions(r, pr);
  int64_t sh[LT_MAX_NDIM], st[LT_MAX_NDIM];
  for (int k = 0; k < P->nout; k++) {
    int d = pr[P->order[k]];
    sh[k] = d < 0 ? 1 : v->shape[d];
    st[k] = d < 0 ? 0 : v->strides[d];
  }
  v->ndim = P->nout;
  memcpy(v->shape, sh, (size_t)P->nout * sizeof sh[0]);
  memcpy(v->strides, st, (size_t)P->nout * sizeof st[0]);
  return LT_OK;
}

int lt_einsum(const char *eq, size_t len, const lt_tensor *const *ops, int n, lt_tensor **out,
              lt_error *err) {
  if (n < 1) return lt_fail(err, LT_EARG, "expected at least one operand");
  size_t need = 2 * sizeof(lt_frame) + sizeof(plan) + 2 * sizeof(side) +
                (size_t)n * (LT_MAX_NDIM * sizeof(int) + sizeof(term));
  void *block = malloc(need); /* per call: nothing shared between threads */
  if (!block) return lt_fail(err, LT_ENOMEM, "out of memory");
  lt_frame *frames = block;
  plan *P = (plan *)(void *)(frames + 2);
  side *r = (side *)(void *)(P + 1), *b = r + 1;
  int *labs = (int *)(void *)(b + 1);
  term *terms = (term *)(void *)(labs + (size_t)n * LT_MAX_NDIM), o;
  int nterms = 0, has_out, rc;
  r->own = b->own = NULL;
  r->fr = &frames[0];
  b->fr = &frames[1];
  if ((rc = parse(eq, len, terms, n, &nterms, &o, &has_out, err)) == LT_OK && nterms != n)
    rc = lt_fail(err, LT_EARG, "the equation has %d operand%s but %d %s given", nterms,
                 nterms == 1 ? "" : "s", n, n == 1 ? "was" : "were");
  if (rc == LT_OK && (rc = check(terms, &o, has_out, ops, n, P, labs, err)) == LT_OK &&
      (rc = run(P, ops, n, labs, r, b, err)) == LT_OK)
    rc = r->own ? lt_tensor_alias(&r->fr->t, out, err) : lt_clone(&r->fr->t, out, err);
  lt_tensor_free(r->own);
  lt_tensor_free(b->own);
  free(block);
  return rc;
}

/* }====== */

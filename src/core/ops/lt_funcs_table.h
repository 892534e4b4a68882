/*
 * lt_funcs_table.h -- the table of elementwise functions: every function f(x) and f(x, y) of
 * ltensor, one entry each, read by whoever includes it with the entry macros defined (lt_funcs.h
 * makes the enum lt_func of it, lt_funcs.c the kernels and the rows of lt_funcs[], the C test
 * spec/c/test_math.c the references). No include guard: it is meant to be read several times.
 * A macro a reader leaves undefined reads as nothing; each is undefined again at the end.
 *
 * An entry is its LT_FN line, then lines that give its kernels and its reference:
 *
 *   LT_FN(E, name, nin, rule, forms, opt, hint, fail)
 *       the function LT_E, torch's `name`, of nin operands (1: f(x), 2: f(x, y)); its result
 *       dtype (lt_rule: SAME, FLOAT, POW, REAL, BOOL, LOGICAL); its forms in Lua (M: the method
 *       t:name(...), I: the in-place t:name_(...), L: the module's lt.name(t, ...), as torch has
 *       them; none: reached through another row's option); the key of its one options-table
 *       option ("alpha", or NULL); the hint a refused dtype's message ends with (or NULL); the
 *       message of a kernel that fails (a zero integer divisor; or NULL).
 *   LT_K1(E, CAT, expr)  LT_K1B (a bool result)  LT_K1R (the real part type, for complex abs)
 *   LT_K2(E, CAT, expr)  LT_K2B (a bool result)
 *       the kernel of LT_E (unary: K1, binary: K2) for every dtype of category CAT (FLT: float32
 *       and float64; F32, F64; INT: the signed and unsigned integers; SINT; UINT; BOOL; REAL:
 *       bool, integers and floats; CPX: complex64 and complex128), computing expr of x (and y),
 *       of the computation type T, into the result. In expr, U is the unsigned type integers
 *       wrap in, R a complex's part type, LM(fn, v) libm's fn for v's type (floorf or floor),
 *       LT_BITS(T) the bits of T; an expression that sets `bad` fails the operation (`fail`).
 *       float16 and bfloat16 compute in float32: they take the float32 kernel.
 *   LT_V1(E, DT, vfn)  LT_V2(E, DT, vfn)
 *       the kernel of dtype DT is a vectorized kernel of lt_vmath.h, vfn(y, x[, x2], n): its
 *       contiguous runs straight, others through a buffer (a result never depends on layout).
 *   LT_S1(E, sop)  LT_S2(E, sop)
 *       the float32 and float64 kernels have streaming twins (lt_stream.h's operation sop),
 *       which operations too large for the cache run instead.
 *   LT_REF(E, dx, dy, expr)  LT_REFC(E, expr)
 *       for the test only: the value expected, expr of double x and y (LT_REFC: of double
 *       _Complex x and y, for the complex dtypes), on operands drawn from the domains dx and dy
 *       (ANY, POS: > 0, UNIT: |v| < 1, GE1: >= 1, SMALL: 0 to 4, NZ: nonzero, SPEC: with NaN and
 *       infinities, NONE: no y); B is 1 when the dtype is bool.
 *
 * LT_VMATH_F32(E, name, D) is the whole entry of a floating function with a vectorized float32
 * kernel, libm's function for float64 and as the reference (tan, asin, ..., erfc), LT_VMATH
 * with a vectorized float64 kernel too (sqrt, exp, log);
 * LT_ROUNDING(E, name, fn) that of floor, ceil and round.
 *
 * Every (function, dtype) has at most one kernel (a second one does not compile: -Woverride-init);
 * a dtype without one is refused ("<name>: not supported for <dtype> (<hint>)"). A new function
 * is a new entry here (docs/CONTRIBUTING.md); the binding, the tests and the module forms follow.
 */
#ifndef LT_FN
#define LT_FN(E, name, nin, rule, forms, opt, hint, fail)
#endif
#ifndef LT_K1
#define LT_K1(E, CAT, expr)
#endif
#ifndef LT_K1B
#define LT_K1B(E, CAT, expr)
#endif
#ifndef LT_K1R
#define LT_K1R(E, CAT, expr)
#endif
#ifndef LT_K2
#define LT_K2(E, CAT, expr)
#endif
#ifndef LT_K2B
#define LT_K2B(E, CAT, expr)
#endif
#ifndef LT_V1
#define LT_V1(E, DT, vfn)
#endif
#ifndef LT_V2
#define LT_V2(E, DT, vfn)
#endif
#ifndef LT_S1
#define LT_S1(E, sop)
#endif
#ifndef LT_S2
#define LT_S2(E, sop)
#endif
#ifndef LT_REF
#define LT_REF(E, dx, dy, expr)
#endif
#ifndef LT_REFC
#define LT_REFC(E, expr)
#endif

/* clang-format off */

/* A floating function of one operand with a vectorized float32 kernel (lt_vmath_NAME_f32) and
   libm's NAME for float64 and as its reference, on the domain D: one line for the entry. */
#define LT_VMATH_F32(E, name, D)                    \
  LT_FN(E, name, 1, FLOAT, MIL, NULL, NULL, NULL) \
  LT_V1(E, FLOAT32, lt_vmath_##name##_f32)        \
  LT_K1(E, F64, name(x))                          \
  LT_REF(E, D, NONE, name(x))
/* The same with a vectorized float64 kernel too (lt_vmath_NAME_f64). */
#define LT_VMATH(E, name, D)                     \
  LT_FN(E, name, 1, FLOAT, MIL, NULL, NULL, NULL) \
  LT_V1(E, FLOAT32, lt_vmath_##name##_f32)        \
  LT_V1(E, FLOAT64, lt_vmath_##name##_f64)        \
  LT_REF(E, D, NONE, name(x))
/* A rounding function: libm's fn for floats (with a streaming twin), integers and bool kept. */
#define LT_ROUNDING(E, name, fn)                \
  LT_FN(E, name, 1, SAME, MIL, NULL, NULL, NULL) \
  LT_K1(E, FLT, LM(fn, x))                       \
  LT_K1(E, INT, x)                               \
  LT_K1(E, BOOL, x)                              \
  LT_S1(E, LT_SU_##E)                            \
  LT_REF(E, ANY, NONE, fn(x))

/* {====== arithmetic ====== */

LT_FN(ADD, add, 2, SAME, MIL, "alpha", NULL, NULL)
LT_K2(ADD, INT, (T)((U)x + (U)y))
LT_K2(ADD, FLT, x + y)
LT_K2(ADD, BOOL, (T)(x || y))
LT_K2(ADD, CPX, ((T){x.re + y.re, x.im + y.im}))
LT_S2(ADD, LT_SB_ADD)
LT_REF(ADD, ANY, ANY, x + y)
LT_REFC(ADD, x + y)

LT_FN(SUB, sub, 2, SAME, MIL, "alpha", "a:ne(b) gives the exclusive or of bools", NULL)
LT_K2(SUB, INT, (T)((U)x - (U)y))
LT_K2(SUB, FLT, x - y)
LT_K2(SUB, CPX, ((T){x.re - y.re, x.im - y.im}))
LT_S2(SUB, LT_SB_SUB)
LT_REF(SUB, ANY, ANY, x - y)
LT_REFC(SUB, x - y)

LT_FN(MUL, mul, 2, SAME, MIL, NULL, NULL, NULL)
LT_K2(MUL, INT, (T)((U)x * (U)y))
LT_K2(MUL, FLT, x * y)
LT_K2(MUL, BOOL, (T)(x && y))
LT_K2(MUL, CPX, ((T){x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re}))
LT_S2(MUL, LT_SB_MUL)
LT_REF(MUL, ANY, ANY, x * y)
LT_REFC(MUL, x * y)

LT_FN(DIV, div, 2, FLOAT, MIL, "rounding_mode", NULL, NULL)
LT_K2(DIV, FLT, x / y)
LT_K2(DIV, CPX, CPX_DIV(x, y))
LT_S2(DIV, LT_SB_DIV)
LT_REF(DIV, ANY, NZ, x / y)
LT_REFC(DIV, x / y)

LT_FN(FLOORDIV, floor_divide, 2, SAME, MIL, NULL, NULL, "integer division by zero")
LT_K2(FLOORDIV, SINT, IDIV_S(x, y))
LT_K2(FLOORDIV, UINT, IDIV_U(x, y))
LT_K2(FLOORDIV, FLT, (T)fl_floordiv(x, y))
LT_REF(FLOORDIV, ANY, NZ, floor(x / y))

LT_FN(REM, remainder, 2, SAME, MIL, NULL, NULL, "integer division by zero")
LT_K2(REM, SINT, IREM_S(x, y))
LT_K2(REM, UINT, IREM_U(x, y))
LT_V2(REM, FLOAT32, lt_vmath_remainder_f32)
LT_K2(REM, F64, fl_rem(x, y))
LT_REF(REM, ANY, NZ, x - y * floor(x / y))

LT_FN(POW, pow, 2, POW, MIL, NULL, NULL, "integers to negative integer powers are not allowed")
LT_K2(POW, SINT, y < 0 ? (bad = 1, (T)0) : (T)ipow((uint64_t)x, (uint64_t)y))
LT_K2(POW, UINT, (T)ipow((uint64_t)x, (uint64_t)y))
LT_K2(POW, FLT, (T)pow(x, y))
LT_REF(POW, SMALL, SMALL, pow(x, y))

LT_FN(MAXIMUM, maximum, 2, SAME, MIL, NULL, NULL, NULL)
LT_K2(MAXIMUM, INT, x > y ? x : y)
LT_K2(MAXIMUM, FLT, (x != x || x > y) ? x : y)
LT_K2(MAXIMUM, BOOL, (T)(x || y))
LT_S2(MAXIMUM, LT_SB_MAX)
LT_REF(MAXIMUM, ANY, ANY, x > y ? x : y)

LT_FN(MINIMUM, minimum, 2, SAME, MIL, NULL, NULL, NULL)
LT_K2(MINIMUM, INT, x < y ? x : y)
LT_K2(MINIMUM, FLT, (x != x || x < y) ? x : y)
LT_K2(MINIMUM, BOOL, (T)(x && y))
LT_S2(MINIMUM, LT_SB_MIN)
LT_REF(MINIMUM, ANY, ANY, x < y ? x : y)

LT_FN(ATAN2, atan2, 2, FLOAT, MIL, NULL, NULL, NULL)
LT_V2(ATAN2, FLOAT32, lt_vmath_atan2_f32)
LT_K2(ATAN2, F64, atan2(x, y))
LT_REF(ATAN2, ANY, ANY, atan2(x, y))

LT_FN(FMOD, fmod, 2, SAME, MIL, NULL, NULL, "integer division by zero")
LT_V2(FMOD, FLOAT32, lt_vmath_fmod_f32)
LT_K2(FMOD, F64, fmod(x, y))
LT_K2(FMOD, SINT, y == 0 ? (bad = 1, (T)0) : y == (T)-1 ? (T)0 : (T)(x % y))
LT_K2(FMOD, UINT, y == 0 ? (bad = 1, (T)0) : (T)(x % y))
LT_REF(FMOD, ANY, NZ, fmod(x, y))

LT_FN(HYPOT, hypot, 2, SAME, MIL, NULL, NULL, NULL)
LT_V2(HYPOT, FLOAT32, lt_vmath_hypot_f32)
LT_K2(HYPOT, F64, hypot(x, y))
LT_REF(HYPOT, ANY, ANY, hypot(x, y))

/* log(exp(x) + exp(y)) without overflow: the larger plus log1p of exp of the difference; equal
   infinities give themselves (the difference would be NaN). Floating dtypes only, as torch. */
LT_FN(LOGADDEXP, logaddexp, 2, SAME, ML, NULL, "floating point expected", NULL)
LT_K2(LOGADDEXP, FLT, x == y && x - x != 0 ? x
                      : x > y ? x + LM(log1p, LM(exp, y - x)) : y + LM(log1p, LM(exp, x - y)))
LT_REF(LOGADDEXP, ANY, ANY, log(exp(x) + exp(y)))

/* log2(2^x + 2^y), the same way in base 2 */
LT_FN(LOGADDEXP2, logaddexp2, 2, SAME, ML, NULL, "floating point expected", NULL)
LT_K2(LOGADDEXP2, FLT, x == y && x - x != 0 ? x
                       : x > y ? x + LM(log1p, LM(exp2, y - x)) * (T)LOG2_E
                               : y + LM(log1p, LM(exp2, x - y)) * (T)LOG2_E)
LT_REF(LOGADDEXP2, ANY, ANY, log2(exp2(x) + exp2(y)))

/* x * log(y), 0 where x is 0 unless y is NaN; integers and bool give float32 */
LT_FN(XLOGY, xlogy, 2, FLOAT, MIL, NULL, NULL, NULL)
LT_K2(XLOGY, FLT, y != y ? y : x == 0 ? (T)0 : x * LM(log, y))
LT_REF(XLOGY, ANY, POS, x == 0 ? 0 : x * log(y))

/* }====== */

/* {====== comparisons and logic ====== */

LT_FN(EQ, eq, 2, BOOL, MIL, NULL, NULL, NULL)
LT_K2B(EQ, REAL, x == y)
LT_K2B(EQ, CPX, x.re == y.re && x.im == y.im)
LT_REF(EQ, SMALL, SMALL, x == y)
LT_REFC(EQ, x == y)

LT_FN(NE, ne, 2, BOOL, MIL, NULL, NULL, NULL)
LT_K2B(NE, REAL, x != y)
LT_K2B(NE, CPX, x.re != y.re || x.im != y.im)
LT_REF(NE, SMALL, SMALL, x != y)
LT_REFC(NE, x != y)

LT_FN(LT, lt, 2, BOOL, MIL, NULL, NULL, NULL)
LT_K2B(LT, REAL, x < y)
LT_REF(LT, SMALL, SMALL, x < y)

LT_FN(LE, le, 2, BOOL, MIL, NULL, NULL, NULL)
LT_K2B(LE, REAL, x <= y)
LT_REF(LE, SMALL, SMALL, x <= y)

LT_FN(GT, gt, 2, BOOL, MIL, NULL, NULL, NULL)
LT_K2B(GT, REAL, x > y)
LT_REF(GT, SMALL, SMALL, x > y)

LT_FN(GE, ge, 2, BOOL, MIL, NULL, NULL, NULL)
LT_K2B(GE, REAL, x >= y)
LT_REF(GE, SMALL, SMALL, x >= y)

LT_FN(AND, logical_and, 2, LOGICAL, MIL, NULL, NULL, NULL)
LT_K2B(AND, BOOL, x && y)
LT_REF(AND, SMALL, SMALL, x != 0 && y != 0)
LT_REFC(AND, x != 0 && y != 0)

LT_FN(OR, logical_or, 2, LOGICAL, MIL, NULL, NULL, NULL)
LT_K2B(OR, BOOL, x || y)
LT_REF(OR, SMALL, SMALL, x != 0 || y != 0)
LT_REFC(OR, x != 0 || y != 0)

LT_FN(NOT, logical_not, 1, LOGICAL, MIL, NULL, NULL, NULL)
LT_K1B(NOT, BOOL, !x)
LT_REF(NOT, SMALL, NONE, x == 0)
LT_REFC(NOT, x == 0)

/* }====== */

/* {====== bits ====== */

LT_FN(BAND, bitwise_and, 2, SAME, MIL, NULL, "integer or bool expected", NULL)
LT_K2(BAND, INT, (T)(x & y))
LT_K2(BAND, BOOL, (T)(x && y))
LT_REF(BAND, SMALL, SMALL, (double)((int64_t)x & (int64_t)y))

LT_FN(BOR, bitwise_or, 2, SAME, MIL, NULL, "integer or bool expected", NULL)
LT_K2(BOR, INT, (T)(x | y))
LT_K2(BOR, BOOL, (T)(x || y))
LT_REF(BOR, SMALL, SMALL, (double)((int64_t)x | (int64_t)y))

LT_FN(BXOR, bitwise_xor, 2, SAME, MIL, NULL, "integer or bool expected", NULL)
LT_K2(BXOR, INT, (T)(x ^ y))
LT_K2(BXOR, BOOL, (T)(!x != !y))
LT_REF(BXOR, SMALL, SMALL, (double)((int64_t)x ^ (int64_t)y))

LT_FN(BNOT, bitwise_not, 1, SAME, MIL, NULL, "integer or bool expected", NULL)
LT_K1(BNOT, INT, (T)~x)
LT_K1(BNOT, BOOL, (T)!x)
LT_REF(BNOT, SMALL, NONE, B ? 1 - x : -x - 1)

/* Shifts by any amount, as torch 2.x: a left shift by a negative amount or by the width or more
   gives 0, a right shift so gives the sign (0 or -1). A right shift of a negative x is
   ~(~x >> y), arithmetic without C's implementation-defined >> of negatives. */
LT_FN(SHL, bitwise_left_shift, 2, SAME, MIL, NULL, "integer expected", NULL)
LT_K2(SHL, SINT, (y < 0 || y >= LT_BITS(T)) ? (T)0 : (T)((U)x << y))
LT_K2(SHL, UINT, y >= LT_BITS(T) ? (T)0 : (T)((U)x << y))
LT_REF(SHL, SMALL, SMALL, ldexp(x, (int)y))

LT_FN(SHR, bitwise_right_shift, 2, SAME, MIL, NULL, "integer expected", NULL)
LT_K2(SHR, SINT, (y < 0 || y >= LT_BITS(T)) ? (T)(x < 0 ? -1 : 0) : (T)(x < 0 ? ~(~x >> y) : x >> y))
LT_K2(SHR, UINT, y >= LT_BITS(T) ? (T)0 : (T)(x >> y))
LT_REF(SHR, SMALL, SMALL, floor(ldexp(x, -(int)y)))

/* }====== */

/* {====== unary: signs and rounding ====== */

LT_FN(NEG, neg, 1, SAME, MIL, NULL, "use logical_not", NULL)
LT_K1(NEG, INT, (T)(0 - (U)x))
LT_K1(NEG, FLT, -x)
LT_K1(NEG, CPX, ((T){-x.re, -x.im}))
LT_S1(NEG, LT_SU_NEG)
LT_REF(NEG, ANY, NONE, -x)
LT_REFC(NEG, -x)

LT_FN(ABS, abs, 1, REAL, MIL, NULL, NULL, NULL)
LT_K1(ABS, SINT, x < 0 ? (T)(0 - (U)x) : x)
LT_K1(ABS, UINT, x)
LT_K1(ABS, BOOL, x)
LT_K1(ABS, FLT, LM(fabs, x))
LT_K1R(ABS, CPX, LM2(hypot, x.re, x.im))
LT_S1(ABS, LT_SU_ABS)
LT_REF(ABS, ANY, NONE, fabs(x))
LT_REFC(ABS, cabs(x))

/* x * x: bool gives int64 (torch's pow(x, 2)), integers wrap */
LT_FN(SQUARE, square, 1, POW, MIL, NULL, NULL, NULL)
LT_K1(SQUARE, INT, (T)((U)x * (U)x))
LT_K1(SQUARE, FLT, x * x)
LT_K1(SQUARE, CPX, ((T){x.re * x.re - x.im * x.im, 2 * x.re * x.im}))
LT_REF(SQUARE, ANY, NONE, x * x)
LT_REFC(SQUARE, x * x)

LT_FN(SIGN, sign, 1, SAME, MIL, NULL, NULL, NULL)
LT_K1(SIGN, SINT, (T)((x > 0) - (x < 0)))
LT_K1(SIGN, UINT, (T)(x > 0))
LT_K1(SIGN, BOOL, x)
LT_K1(SIGN, FLT, x > 0 ? (T)1 : x < 0 ? (T)-1 : x)
LT_REF(SIGN, ANY, NONE, (x > 0) - (x < 0))

LT_ROUNDING(FLOOR, floor, floor)
LT_ROUNDING(CEIL, ceil, ceil)
LT_ROUNDING(ROUND, round, nearbyint) /* half to even, as torch */

LT_FN(TRUNC, trunc, 1, SAME, MIL, NULL, NULL, NULL)
LT_K1(TRUNC, FLT, LM(trunc, x))
LT_K1(TRUNC, INT, x)
LT_S1(TRUNC, LT_SU_TRUNC)
LT_REF(TRUNC, ANY, NONE, trunc(x))

LT_FN(FRAC, frac, 1, SAME, MIL, NULL, NULL, NULL)
LT_K1(FRAC, FLT, x - LM(trunc, x))
LT_S1(FRAC, LT_SU_FRAC)
LT_REF(FRAC, ANY, NONE, x - trunc(x))

/* relu keeps NaN and gives +0 for -0 */
LT_FN(RELU, relu, 1, SAME, MIL, NULL, NULL, NULL)
LT_K1(RELU, FLT, x > 0 || x != x ? x : (T)0)
LT_K1(RELU, SINT, x < 0 ? (T)0 : x)
LT_K1(RELU, UINT, x)
LT_S1(RELU, LT_SU_RELU)
LT_REF(RELU, ANY, NONE, x > 0 ? x : 0)

/* }====== */

/* {====== unary: floating functions (integers and bool give float32) ====== */

LT_VMATH(SQRT, sqrt, POS)

/* 1 / x; integers and bool give float32 (1 / 0 is inf) */
LT_FN(RECIPROCAL, reciprocal, 1, FLOAT, MIL, NULL, NULL, NULL)
LT_K1(RECIPROCAL, FLT, (T)1 / x)
LT_K1(RECIPROCAL, CPX, CPX_DIV(((T){1, 0}), x))
LT_REF(RECIPROCAL, NZ, NONE, 1 / x)
LT_REFC(RECIPROCAL, 1 / x)

LT_FN(RSQRT, rsqrt, 1, FLOAT, MIL, NULL, NULL, NULL)
LT_K1(RSQRT, FLT, (T)1 / LM(sqrt, x))
LT_REF(RSQRT, POS, NONE, 1 / sqrt(x))

LT_VMATH(EXP, exp, ANY)

LT_VMATH_F32(EXP2, exp2, ANY)
LT_VMATH_F32(EXPM1, expm1, ANY)

LT_VMATH(LOG, log, POS)

LT_VMATH_F32(LOG2, log2, POS)
LT_VMATH_F32(LOG10, log10, POS)
LT_VMATH_F32(LOG1P, log1p, POS)
LT_VMATH_F32(SIN, sin, ANY)
LT_VMATH_F32(COS, cos, ANY)
LT_VMATH_F32(TAN, tan, UNIT)
LT_VMATH_F32(ASIN, asin, UNIT)
LT_VMATH_F32(ACOS, acos, UNIT)
LT_VMATH_F32(ATAN, atan, ANY)
LT_VMATH_F32(SINH, sinh, ANY)
LT_VMATH_F32(COSH, cosh, ANY)
LT_VMATH_F32(TANH, tanh, ANY)
LT_VMATH_F32(ASINH, asinh, ANY)
LT_VMATH_F32(ACOSH, acosh, GE1)
LT_VMATH_F32(ATANH, atanh, UNIT)
LT_VMATH_F32(ERF, erf, ANY)
LT_VMATH_F32(ERFC, erfc, ANY)

LT_FN(SIGMOID, sigmoid, 1, FLOAT, MIL, NULL, NULL, NULL)
LT_V1(SIGMOID, FLOAT32, lt_vmath_sigmoid_f32)
LT_K1(SIGMOID, F64, 1.0 / (1.0 + exp(-x)))
LT_REF(SIGMOID, ANY, NONE, 1 / (1 + exp(-x)))

/* gelu, silu: floating dtypes only (torch has them in torch.nn.functional, not as torch.f);
   gelu(x, {approximate = "tanh"}) is the row GELU_TANH */
LT_FN(GELU, gelu, 1, SAME, M, "approximate", NULL, NULL)
LT_V1(GELU, FLOAT32, lt_vmath_gelu_f32)
LT_K1(GELU, F64, 0.5 * x * erfc(-x * SQRT1_2))
LT_REF(GELU, ANY, NONE, 0.5 * x * erfc(-x / sqrt(2)))

LT_FN(GELU_TANH, gelu, 1, SAME, , NULL, NULL, NULL)
LT_K1(GELU_TANH, FLT, (T)gelu_tanh_d((double)x))
LT_REF(GELU_TANH, ANY, NONE, 0.5 * x * (1 + tanh(sqrt(2 / acos(-1)) * (x + 0.044715 * x * x * x))))

LT_FN(SILU, silu, 1, SAME, M, NULL, NULL, NULL)
LT_V1(SILU, FLOAT32, lt_vmath_silu_f32)
LT_K1(SILU, F64, x / (1.0 + exp(-x)))
LT_REF(SILU, ANY, NONE, x / (1 + exp(-x)))

/* }====== */

/* {====== classification: bool results (integers are never NaN nor inf) ====== */

LT_FN(ISNAN, isnan, 1, BOOL, ML, NULL, NULL, NULL)
LT_K1B(ISNAN, FLT, x != x)
LT_K1B(ISNAN, INT, 0)
LT_K1B(ISNAN, BOOL, 0)
LT_K1B(ISNAN, CPX, x.re != x.re || x.im != x.im)
LT_REF(ISNAN, SPEC, NONE, isnan(x))
LT_REFC(ISNAN, isnan(creal(x)) || isnan(cimag(x)))

LT_FN(ISINF, isinf, 1, BOOL, ML, NULL, NULL, NULL)
LT_K1B(ISINF, FLT, x == (T)INFINITY || x == -(T)INFINITY)
LT_K1B(ISINF, INT, 0)
LT_K1B(ISINF, BOOL, 0)
LT_K1B(ISINF, CPX, isinf(x.re) || isinf(x.im))
LT_REF(ISINF, SPEC, NONE, isinf(x))
LT_REFC(ISINF, isinf(creal(x)) || isinf(cimag(x)))

LT_FN(ISFINITE, isfinite, 1, BOOL, ML, NULL, NULL, NULL)
LT_K1B(ISFINITE, FLT, x - x == 0)
LT_K1B(ISFINITE, INT, 1)
LT_K1B(ISFINITE, BOOL, 1)
LT_K1B(ISFINITE, CPX, x.re - x.re == 0 && x.im - x.im == 0)
LT_REF(ISFINITE, SPEC, NONE, isfinite(x))
LT_REFC(ISFINITE, isfinite(creal(x)) && isfinite(cimag(x)))

/* }====== */

/* clang-format on */

#undef LT_VMATH_F32
#undef LT_VMATH
#undef LT_ROUNDING
#undef LT_FN
#undef LT_K1
#undef LT_K1B
#undef LT_K1R
#undef LT_K2
#undef LT_K2B
#undef LT_V1
#undef LT_V2
#undef LT_S1
#undef LT_S2
#undef LT_REF
#undef LT_REFC

-- Bugs the fuzzers of spec/fuzz found, reproduced through the Lua API (their fuzzer inputs are
-- in spec/fuzz/corpus/ as regress-*; core-level ones are in spec/c/test_fuzz_regressions.c).
local lt = require "ltensor"

describe("fuzz regressions", function()
  -- fuzz_bytes, regress-bf16-int-double-rounding: an integer written to a bfloat16 element went
  -- through a double first and was rounded twice. 0x7EBFFFFFFFFFFEC3 is 253.4987... * 2^55: its
  -- nearest bfloat16 is 253 * 2^55; its double is exactly 253.5 * 2^55, which rounds to 254.
  it("rounds an integer written to bfloat16 once", function()
    local v = 0x7EBFFFFFFFFFFEC3
    local want = 253 * 2 ^ 55
    local t = lt.zeros(3, "bfloat16")
    t[1] = v
    t[{ { 2, 3 } }] = -v
    assert.equal(want, t[1])
    assert.same({ want, -want, -want }, t:tolist())
    assert.equal(want, lt.tensor(v, "bfloat16"):item())
    assert.equal(want, lt.tensor({ v }, "bfloat16")[1])
    assert.same({ want, want }, lt.full({ 2 }, v, "bfloat16"):tolist())
    t:fill_(v)
    assert.equal(want, t[3])
    t:set(2, v)
    assert.equal(want, t:get(2))
    -- float16 of an integer: exact below 2048, ties to even; a write beyond 65504 raises (as
    -- torch's), a cast rounds: 65519 to 65504, inf from 65520 on
    local h = lt.zeros(3, "float16")
    h[1], h[2], h[3] = 2049, 2051, 65504
    assert.same({ 2048.0, 2052.0, 65504.0 }, h:tolist())
    assert.has_error(function() h[3] = 65519 end)
    assert.same({ 65504.0, math.huge }, lt.tensor({ 65519, 65520 }):to("float16"):tolist())
  end)

  -- fuzz_bytes, regress-tolist-empty-huge-stride: tolist() computed each dim's byte stride up
  -- front; an empty tensor of shape {0, 2^63-1} has a first stride of 2^63-1 elements, whose
  -- bytes overflowed (for any element size above 1), though it addresses nothing.
  it("lists an empty tensor with a huge dim", function()
    local t = lt.from_bytes("", "bool", { -1, math.maxinteger })
    assert.same({ 0, math.maxinteger }, t.shape)
    assert.same({}, t:to("float16"):tolist())
    assert.same({}, lt.zeros({ 0, math.maxinteger }, "float64"):tolist())
  end)
end)

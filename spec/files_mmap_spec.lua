-- lt.load(path, {mmap = true}): tensors on a read-only mapping of the file (SPEC.md "Files"),
-- zero copy or a refusal that says why, and the mapping guard that keeps a process alive when
-- the file is truncated under its mapping (docs/FILES.md).
local lt = require "ltensor"
local dlpack = require "ltensor.dlpack"
local helpers = require "helpers"
local fx = require "file_fixtures"

local raises = helpers.raises
local tmp, write, read, lit, npy, st_file = fx.tmp, fx.write, fx.read, fx.lit, fx.npy, fx.st_file
teardown(fx.cleanup)

describe("mmap = true", function()
  it("maps read-only tensors that say so, and clone() gives a writable copy", function()
    local p = tmp(".npy")
    lt.save(p, lt.arange(6, lt.float32):reshape(2, 3))
    local m = lt.load(p, { mmap = true })
    assert.is_true(m:is_read_only())
    assert.same({ { 0, 1, 2 }, { 3, 4, 5 } }, m:tolist())
    raises("mapped read%-only from " .. lit(p), function() m[1][1] = 9 end)
    raises("mapped read%-only from " .. lit(p), function() m:fill_(1) end)
    raises("mapped read%-only from " .. lit(p), function() m:add_(1) end)
    local c = m:clone()
    assert.is_false(c:is_read_only())
    c[1][1] = 9
    assert.equal(9, c[1][1])
    assert.equal(0, m[1][1])
  end)

  it("shares the mapping with zero copy: views read it, exports are versioned READ_ONLY", function()
    local p = tmp(".npy")
    lt.save(p, lt.arange(1000, lt.int64))
    local m = lt.load(p, { mmap = true })
    local v = m:narrow(1, 11, 5)
    assert.equal(m:data_ptr() + 10 * 8, v:data_ptr())
    assert.is_true(v:is_read_only())
    raises("read%-only", function() m:__dlpack() end)
    local back = dlpack.from_dlpack(m:__dlpack({ max_version = { 1, 3 } }))
    assert.is_true(back:is_read_only())
    assert.equal(m:data_ptr(), back:data_ptr())
  end)

  it("keeps the mapping until the last view and export are gone", function()
    local p = tmp(".npy")
    lt.save(p, lt.arange(100, lt.float64))
    local v, cap
    do
      local m = lt.load(p, { mmap = true })
      v = m:narrow(1, 91, 10)
      cap = m:__dlpack({ max_version = { 1, 3 } })
    end
    collectgarbage()
    collectgarbage()
    assert.same({ 90, 91, 92, 93, 94, 95, 96, 97, 98, 99 }, v:tolist())
    local t = { lt.load(p, { mmap = true }) }
    local only = t[1]:select(1, 50)
    t = nil
    collectgarbage()
    assert.equal(49, only:item())
    v = nil
    collectgarbage()
    assert.equal(42, dlpack.from_dlpack(cap)[43])
  end)

  it("saving over a mapped file writes a new file: mapped tensors keep their values", function()
    local p = tmp(".npy")
    lt.save(p, lt.full({ 4 }, 1.5))
    local m = lt.load(p, { mmap = true })
    lt.save(p, lt.full({ 4 }, -3))
    assert.same({ 1.5, 1.5, 1.5, 1.5 }, m:tolist())
    assert.same({ -3, -3, -3, -3 }, lt.load(p):tolist())
    lt.save(p, m) -- a mapped tensor saved over its own file
    assert.same({ 1.5, 1.5, 1.5, 1.5 }, lt.load(p):tolist())
  end)

  it("refuses an .npz and misaligned data, saying to load without mmap", function()
    local p = tmp(".npz")
    lt.save(p, { a = lt.ones(2) })
    raises(lit(p) .. ": an %.npz cannot be mapped.*load it without mmap", lt.load, p, { mmap = true })
    local q = tmp(".npy")
    -- a header that ends at an odd byte: float64 data there
    local dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), } \n"
    assert.equal(1, (10 + #dict) % 2)
    write(q, "\x93NUMPY\1\0" .. string.pack("<I2", #dict) .. dict .. string.pack("<d", 2.5))
    assert.same({ 2.5 }, lt.load(q):tolist())
    raises("not aligned for float64.*load it without mmap", lt.load, q, { mmap = true })
  end)

  it("stays bounded in address space when a loop maps and drops a file", function()
    local p = tmp(".npy")
    lt.save(p, lt.zeros(16 * 1024 * 1024, lt.uint8)) -- 16 MiB
    local before = helpers.status_kb("VmSize")
    local peak = before
    for i = 1, 300 do -- 4.7 GiB mapped in all
      local m = lt.load(p, { mmap = true })
      assert.equal(0, m[i])
      peak = math.max(peak, helpers.status_kb("VmSize"))
    end
    assert.is_true(peak - before < 2 * 1024 * 1024,
      ("address space grew by %d MiB"):format((peak - before) // 1024))
  end)
end)

describe("mmap = true gives zero copy or refuses, saying why", function()
  local c64 = string.pack("<ffffff", 1, -2, 0.5, 3, -0.25, 7)
  local dict = "{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }"

  it("refuses complex64 data at an offset of 4 mod 8, which reads as its plain load", function()
    local p = tmp(".npy")
    write(p, fx.npy_at(132, dict, c64))
    local t = lt.load(p)
    assert.same({ { 1, -2 }, { 0.5, 3 }, { -0.25, 7 } }, t:tolist())
    raises(lit(p) .. ": data offset 132 is not a multiple of the element size 8: mmap cannot give "
      .. "zero copy; load it without mmap", lt.load, p, { mmap = true })
    write(p, fx.npy_at(128, dict, c64)) -- at a multiple of 8: mapped, and the same elements
    local m = lt.load(p, { mmap = true })
    assert.is_true(m:is_read_only())
    assert.is_true(m:equal(t))
    assert.same(t:tolist(), m:tolist())
  end)

  it("refuses a C64 safetensors tensor at an offset of 4 mod 8, naming it", function()
    local p = tmp(".safetensors")
    local h = '{"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},'
      .. '"z":{"dtype":"C64","shape":[3],"data_offsets":[4,28]}}'
    h = h .. (" "):rep(-#h % 8) -- the data starts at a multiple of 8, z 4 bytes after
    write(p, st_file(h, "\1\2\3\4" .. c64))
    assert.same({ { 1, -2 }, { 0.5, 3 }, { -0.25, 7 } }, lt.load(p).z:tolist())
    raises(lit(p) .. ": tensor 'z': data offset %d+ is not a multiple of the element size 8: mmap "
      .. "cannot give zero copy", lt.load, p, { mmap = true })
  end)

  it("refuses bool data holding bytes other than 0 and 1, which a plain load normalizes", function()
    local bools = "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }"
    local p = tmp(".npy")
    write(p, npy(1, bools, "\0\2\255\1"))
    local t = lt.load(p)
    assert.same({ false, true, true, true }, t:tolist())
    assert.equal(3, t:eq(true):sum())
    raises(lit(p) .. ": bool data holds byte 2 at element 2 %(not 0 or 1%), which a mapping "
      .. "cannot normalize; load it without mmap", lt.load, p, { mmap = true })
    write(p, npy(1, bools, "\0\1\1\0")) -- 0 and 1 only: mapped, and equal to the plain load
    local m, plain = lt.load(p, { mmap = true }), lt.load(p)
    assert.is_true(m:equal(plain))
    assert.is_true(m:eq(true):equal(plain:eq(true)))
    local q = tmp(".safetensors")
    write(q, st_file('{"b":{"dtype":"BOOL","shape":[3],"data_offsets":[0,3]}}       ', "\1\0\255"))
    assert.same({ true, false, true }, lt.load(q).b:tolist())
    raises(lit(q) .. ": tensor 'b' holds bool byte 255 at element 3 %(not 0 or 1%)", lt.load, q,
      { mmap = true })
  end)
end)

-- {====== the mapping guard ======

-- Runs a Lua script in a child lua5.4 (so that a crash cannot take busted with it): its output,
-- and whether it exited cleanly.
local function child(script, ...)
  local f = tmp(".lua")
  write(f, script)
  local args = { f }
  for _, a in ipairs({ ... }) do args[#args + 1] = ("%q"):format(a) end
  local h = assert(io.popen("lua5.4 " .. table.concat(args, " ") .. " 2>&1"))
  local out = h:read("a")
  return out, h:close()
end

describe("the mapping guard (lt.config{guard_mappings = true})", function()
  it("is off until the host or a script asks for it, and can be turned off again", function()
    local out, ok = child([[
      local lt = require "ltensor"
      print(lt.config().guard_mappings, lt.config{ guard_mappings = true }.guard_mappings,
        lt.config{ guard_mappings = false }.guard_mappings)
    ]])
    assert.is_true(ok, out)
    assert.equal("false\ttrue\tfalse\n", out)
  end)

  it("turns a read of a file truncated under its mapping into an error, not a crash", function()
    -- the file is truncated in place, as io.open(path, "wb") or np.save over it does; the read
    -- that meets the truncation completes; every later use of the mapping's tensors raises
    local out, ok = child([[
      local lt = require "ltensor"
      local p = arg[1]
      lt.config{ guard_mappings = true }
      local function try(what, f, ...) print(what, pcall(f, ...)) end
      lt.save(p, lt.arange(1, 4097, lt.float32))
      local m = lt.load(p, { mmap = true })
      local v = m:narrow(1, 4001, 10)
      assert(m[4096] == 4096)
      io.open(p, "wb"):close()
      try("element", function() return m[4096] end)
      try("view", v.sum, v)
      try("tolist", m.tolist, m)
      try("clone", m.clone, m)
      try("export", m.__dlpack, m, { max_version = { 1, 3 } })
      try("save", lt.save, p .. ".npy", v)
      -- on the pool's workers: a sum over 64 MiB, split across threads
      lt.set_num_threads(4)
      lt.save(p, lt.ones(16 * 1024 * 1024, lt.float32))
      local big = lt.load(p, { mmap = true })
      io.open(p, "wb"):close()
      print("sum", (pcall(big.sum, big)))
      try("sum again", big.sum, big)
      lt.save(p, lt.arange(3)) -- a new file at the path maps as usual
      print("fresh", lt.load(p, { mmap = true })[3])
      os.remove(p .. ".npy")
      print("alive")
    ]], tmp(".npy"))
    assert.is_true(ok, out)
    local why = "file was truncated while mapped; its tensors cannot be read any more %(load it "
      .. "again%)"
    for _, what in ipairs({ "element", "view", "tolist", "clone", "export", "save", "sum again" }) do
      assert.truthy(out:find(what .. "\tfalse\t[^\n]*" .. why), what .. ": " .. out)
    end
    assert.truthy(out:find("sum\ttrue\n", 1, true), out) -- the read that met it completed
    assert.truthy(out:find("fresh\t2\nalive\n", 1, true), out)
  end)
end)

-- }======

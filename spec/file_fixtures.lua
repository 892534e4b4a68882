-- file_fixtures.lua -- what the file specs share (files_spec.lua, files_mmap_spec.lua): temporary
-- paths, raw reads and writes, and hand-made .npy, .safetensors and zip bytes, for files that
-- ltensor's own writer would never make. `local fx = require "file_fixtures"`; a spec calls
-- `teardown(fx.cleanup)` to remove what fx.tmp made.
local M = {}

-- A fresh path in the temporary folder with the given extension (removed by cleanup).
local made = {}
function M.tmp(ext)
  local p = os.tmpname()
  os.remove(p)
  p = p .. ext
  made[#made + 1] = p
  return p
end
function M.cleanup()
  for _, p in ipairs(made) do os.remove(p) end
  made = {}
end

function M.write(path, bytes)
  local f = assert(io.open(path, "wb"))
  f:write(bytes)
  f:close()
end
function M.read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end
-- Lua patterns need their magic characters escaped to match a path literally.
function M.lit(s) return (s:gsub("%p", "%%%0")) end

-- A .npy of the given version with a header dict text and raw data (data 64-byte aligned).
function M.npy(version, dict, data)
  local pre = version == 1 and 10 or 12
  local len = #dict + 1
  len = len + (64 - (pre + len) % 64) % 64
  local header = dict .. (" "):rep(len - #dict - 1) .. "\n"
  local size = version == 1 and string.pack("<I2", #header) or string.pack("<I4", #header)
  return "\x93NUMPY" .. string.char(version, 0) .. size .. header .. (data or "")
end

-- A .npy 1.0 whose data starts at byte `at` exactly (the header padded with spaces to reach it).
function M.npy_at(at, dict, data)
  local len = at - 10
  assert(len >= #dict + 1, "header too short for the dict")
  return "\x93NUMPY\1\0" .. string.pack("<I2", len) .. dict .. (" "):rep(len - #dict - 1) .. "\n"
    .. data
end

-- A .safetensors of a header (JSON text, as it is) and data.
function M.st_file(header, data)
  return string.pack("<I8", #header) .. header .. (data or "")
end

-- The JSON of a safetensors header in the common layout: one entry per row of tensors
-- ({ name, dtype, shape, first byte, end byte }, in order), then "__metadata__" when meta (the
-- JSON inside its braces) is given.
function M.st_header(tensors, meta)
  local parts = {}
  for i, t in ipairs(tensors) do
    parts[i] = ('"%s":{"dtype":"%s","shape":[%s],"data_offsets":[%d,%d]}'):format(t[1], t[2],
      table.concat(t[3], ","), t[4], t[5])
  end
  if meta then parts[#parts + 1] = '"__metadata__":{' .. meta .. "}" end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- A new temporary .safetensors file holding st_file(header, data); its path.
function M.st_tmp(header, data)
  local p = M.tmp(".safetensors")
  M.write(p, M.st_file(header, data))
  return p
end

local crc_table = {}
for i = 0, 255 do
  local c = i
  for _ = 1, 8 do c = (c & 1 == 1) and (0xEDB88320 ~ (c >> 1)) or (c >> 1) end
  crc_table[i] = c
end
function M.crc32(s)
  local c = 0xFFFFFFFF
  for i = 1, #s do c = crc_table[(c ~ s:byte(i)) & 0xff] ~ (c >> 8) end
  return c ~ 0xFFFFFFFF
end

-- A zip of stored members {name, bytes}; zip64 = true writes zip64 records for every size and
-- offset (as writers do for large archives).
function M.zip(members, zip64, bad_crc)
  local out, cd, off = {}, {}, 0
  for _, m in ipairs(members) do
    local name, data = m[1], m[2]
    local crc = M.crc32(data) ~ (bad_crc and 1 or 0)
    local lx = zip64 and string.pack("<I2I2I8I8", 1, 16, #data, #data) or ""
    local sz = zip64 and 0xFFFFFFFF or #data
    local local_h = string.pack("<I4I2I2I2I2I2I4I4I4I2I2", 0x04034b50, zip64 and 45 or 20, 0, 0,
      0, 0x21, crc, sz, sz, #name, #lx) .. name .. lx
    local cx = zip64 and string.pack("<I2I2I8I8I8", 1, 24, #data, #data, off) or ""
    cd[#cd + 1] = string.pack("<I4I2I2I2I2I2I2I4I4I4I2I2I2I2I2I4I4", 0x02014b50, 45, 20, 0, 0, 0,
      0x21, crc, sz, sz, #name, #cx, 0, 0, 0, 0, zip64 and 0xFFFFFFFF or off) .. name .. cx
    out[#out + 1] = local_h .. data
    off = off + #local_h + #data
  end
  local cds = table.concat(cd)
  local tail
  if zip64 then
    local e64 = string.pack("<I4I8I2I2I4I4I8I8I8I8", 0x06064b50, 44, 45, 45, 0, 0, #members,
      #members, #cds, off)
    local loc = string.pack("<I4I4I8I4", 0x07064b50, 0, off + #cds, 1)
    tail = e64 .. loc .. string.pack("<I4I2I2I2I2I4I4I2", 0x06054b50, 0, 0, 0xFFFF, 0xFFFF,
      0xFFFFFFFF, 0xFFFFFFFF, 0)
  else
    tail = string.pack("<I4I2I2I2I2I4I4I2", 0x06054b50, 0, 0, #members, #members, #cds, off, 0)
  end
  return table.concat(out) .. cds .. tail
end

-- The central directory of a classic zip (as M.zip or lt.save write it): the bytes before it,
-- and its entries {fields..., name = ...} with the fields in string.unpack order.
local CENTRAL = "<I4I2I2I2I2I2I2I4I4I4I2I2I2I2I2I4I4"
function M.unzip(z)
  local e = #z - 21
  assert(string.unpack("<I4", z, e) == 0x06054b50, "no end record")
  local n, size, at = string.unpack("<I2I4I4", z, e + 10)
  local entries, p = {}, at + 1
  for _ = 1, n do
    local f = table.pack(string.unpack(CENTRAL, z, p))
    local nlen, xlen, clen = f[11], f[12], f[13]
    f.name = z:sub(p + 46, p + 45 + nlen)
    entries[#entries + 1] = f
    p = p + 46 + nlen + xlen + clen
  end
  assert(p == at + size + 1)
  return z:sub(1, at), entries
end
-- The inverse: members' bytes and central entries (each given a name of its own) into a zip.
function M.rezip(body, entries)
  local cd = {}
  for _, f in ipairs(entries) do
    f[11], f[12], f[13] = #f.name, 0, 0
    cd[#cd + 1] = string.pack(CENTRAL, table.unpack(f, 1, 17)) .. f.name
  end
  local cds = table.concat(cd)
  return body .. cds .. string.pack("<I4I2I2I2I2I4I4I2", 0x06054b50, 0, 0, #entries, #entries,
    #cds, #body, 0)
end

-- Whether ltensor was built with zlib (deflate): without it compress raises, saying so.
function M.has_zlib(lt)
  local ok, err = pcall(lt.save, M.tmp(".npz"), {}, { compress = true })
  if not ok then assert(tostring(err):find("compress needs zlib, which this ltensor was "
    .. "built without %(install zlib1g%-dev and rebuild%)"), err) end
  return ok
end

return M

-- frame.lua -- the script of examples/host/host.c, a small game host.
--
-- Each frame the host calls draw(frame, verts, n) with
--   frame  its own RGBA8 frame buffer, uint8 of shape {height, width, 4}, lent for this frame;
--   verts  the host's vertex array, lent read-only: float32 {N, 2}, the (x, y) pixel coordinates
--          (0-based, as C counts) of triangle corners, three per triangle;
--   n      the frame number, from 1.
-- The script draws into the host's memory in place: nothing is copied back. Tensors have no
-- arithmetic yet, so drawing is fills, slice assignments (which broadcast a {r, g, b, a} table
-- over a region) and copy_, with Lua loops only where shapes need them (triangle spans).
--
-- The frame buffer is the host's only for this frame: after draw returns the host revokes it,
-- and a tensor the script kept (last_frame, last_row) raises "tensor has been released". The
-- script checks that on the next frame and reports what it saw in the global `report`.
local lt = require "ltensor"

local BACKGROUND = { 16, 24, 48, 255 }
local PLAYER = { 200, 40, 40, 255 }
local POINT = { 255, 255, 0, 255 }
local TRIANGLE = { { 40, 200, 80, 255 }, { 240, 160, 32, 255 } }

report = { stale_checks = 0 }

-- Fills the triangle (a, b, c) (0-based pixel coordinates) one row span at a time.
local function fill_triangle(frame, a, b, c, color)
  local h, w = frame:size(1), frame:size(2)
  local edges = { { a, b }, { b, c }, { c, a } }
  local y0 = math.max(0, math.ceil(math.min(a[2], b[2], c[2])))
  local y1 = math.min(h - 1, math.floor(math.max(a[2], b[2], c[2])))
  for y = y0, y1 do
    local xl, xr = math.huge, -math.huge
    for _, e in ipairs(edges) do
      local p, q = e[1], e[2]
      if p[2] == q[2] then -- a horizontal edge counts on its own row only
        if p[2] == y then xl, xr = math.min(xl, p[1], q[1]), math.max(xr, p[1], q[1]) end
      elseif math.min(p[2], q[2]) <= y and y <= math.max(p[2], q[2]) then
        local x = p[1] + (y - p[2]) * (q[1] - p[1]) / (q[2] - p[2])
        xl, xr = math.min(xl, x), math.max(xr, x)
      end
    end
    xl, xr = math.max(0, math.ceil(xl)), math.min(w - 1, math.floor(xr))
    if xl <= xr then frame[{ y + 1, { xl + 1, xr + 1 } }] = color end -- one row span
  end
end

-- A 3 x 3 point centred on pixel (x, y) (0-based), clipped to the frame.
local function point(frame, x, y, color)
  local h, w = frame:size(1), frame:size(2)
  x, y = math.floor(x + 0.5) + 1, math.floor(y + 0.5) + 1
  local ya, yb, xa, xb = math.max(1, y - 1), math.min(h, y + 1), math.max(1, x - 1), math.min(w, x + 1)
  if ya <= yb and xa <= xb then frame[{ { ya, yb }, { xa, xb } }] = color end
end

-- Tensors from the previous frame: revoked by the host since, so every access must raise.
local function check_stale()
  for _, t in ipairs { last_frame, last_row } do
    local ok, err = pcall(function() return t[{ 1, 1 }] end)
    if ok then error("a tensor of the previous frame is still readable", 0) end
    report.stale_error = tostring(err)
    ok, err = pcall(function() t:fill_(0) end)
    if ok then error("a tensor of the previous frame is still writable", 0) end
    if not tostring(err):find("tensor has been released", 1, true) then error(err, 0) end
  end
  report.stale_checks = report.stale_checks + 1
end

function draw(frame, verts, n)
  assert(frame.dtype == "uint8" and frame.ndim == 3 and frame:size(3) == 4, "RGBA8 frame expected")
  assert(verts.dtype == "float32" and verts:size(2) == 2 and verts:is_read_only())
  if last_frame then check_stale() end
  local h, w = frame:size(1), frame:size(2)

  -- clear: everything black and opaque (the status bar, rows h-3..h, stays so), then the
  -- background colour between the sky band and the status bar
  frame:fill_(0)
  frame:select(3, 4):fill_(255)
  frame[{ { 9, h - 4 } }] = BACKGROUND -- {r, g, b, a} broadcast over rows 9..h-4

  -- the sky: one gradient row (red rising, blue falling along x), copied into rows 1..8
  local row = lt.zeros({ w, 4 }, "uint8")
  row[{ {}, 1 }]:copy_(lt.arange(0, 4 * w, 4))
  row[{ {}, 3 }]:copy_(lt.arange(4 * w - 4, -1, -4))
  row[{ {}, 4 }] = 255
  frame[{ { 1, 8 } }]:copy_(row) -- broadcast: {w, 4} into {8, w, 4}

  -- the player: a 10 x 8 rectangle moving right 8 pixels a frame
  local x0 = 4 + 8 * (n - 1)
  frame[{ { 30, 37 }, { x0, x0 + 9 } }] = PLAYER

  -- the triangles of the vertex array, then a point at each corner
  local v = {}
  for i = 1, verts:size(1) do v[i] = { verts:get(i, 1), verts:get(i, 2) } end
  for k = 1, #v // 3 do
    fill_triangle(frame, v[3 * k - 2], v[3 * k - 1], v[3 * k], TRIANGLE[(k - 1) % #TRIANGLE + 1])
  end
  for i = 1, #v do point(frame, v[i][1], v[i][2], POINT) end

  -- the vertex array is the host's, lent read-only: a write raises and changes nothing
  local ok, err = pcall(function() verts[{ 1, 1 }] = -1 end)
  report.readonly_error = not ok and tostring(err) or "no error"

  -- keep references past the frame (a mistake a script can make): checked next frame
  last_frame, last_row = frame, frame[h]
end

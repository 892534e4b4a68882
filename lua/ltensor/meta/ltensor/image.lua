---@meta ltensor.image
-- LuaLS definitions of `lt.image`: PNG and JPEG images read and written as H x W x C tensors
-- (torchvision's read_image gives C x H x W: `t:permute(3, 1, 2)` is that layout). Decoding
-- gives uint8 (uint16 for 16-bit PNG, in the machine's byte order); the format is told by the
-- bytes' signature, never by the file name. Encoding takes H x W or H x W x C tensors of any
-- layout (views, transposes, DLPack imports, read-only tensors): uint8, uint16 (PNG only), or
-- floating point taken as [0, 1] (scaled by 255, rounded, clamped; NaN gives 0). PNG through
-- libpng, JPEG through libjpeg-turbo (`lt.config().png` / `.jpeg` name them); a build without
-- one raises "ltensor was built without PNG support" (or JPEG). A corrupt, truncated or lying
-- file raises naming the file and the problem ("image.read: photo.png: truncated PNG (...)");
-- declared sizes over 65535 a side or past the memory budget raise before anything is
-- allocated.

---@class ltensor.image
local image = {}

--- The options of `lt.image.read` and `lt.image.decode`.
---@class ltensor.ImageReadOptions
---@field mode? "unchanged"|"gray"|"rgb"|"rgba" the channels: the file's own ("unchanged", the default: 1 gray, 2 gray + alpha, 3 rgb, 4 rgba; a palette expands to rgb, or rgba when it has transparency; a CMYK JPEG gives its 4 channels), or converted to 1, 3 or 4 (alpha added as opaque, or dropped)

--- The options of `lt.image.write` and `lt.image.encode`.
---@class ltensor.ImageWriteOptions
---@field quality? integer JPEG quality, 1 to 100 (90 by default); JPEG only
---@field compression? integer PNG zlib level, 0 (none, fastest) to 9 (smallest); 6 by default, as Pillow's (each row Sub- or Paeth-filtered); PNG only

--- The image in the file at path, as an H x W x C uint8 tensor (uint16 for 16-bit PNG), as
--- torchvision.io.read_image but channels last. PNG or JPEG, told by the file's first bytes.
--- A file that does not exist, or is not a PNG or JPEG, raises naming it.
---@param path string
---@param opts? ltensor.ImageReadOptions
---@return ltensor.Tensor
function image.read(path, opts) end

--- The image held in a string (a file's bytes), as `lt.image.read` gives it; messages name
--- it "bytes".
---@param bytes string
---@param opts? ltensor.ImageReadOptions
---@return ltensor.Tensor
function image.decode(bytes, opts) end

--- Writes t as an image file, the format chosen by path's extension (.png, .jpg or .jpeg, any
--- case; another raises naming it): H x W or H x W x C with C 1 to 4 for PNG (gray, gray +
--- alpha, rgb, rgba), 1 or 3 for JPEG. The file is written under a temporary name and renamed
--- over path.
---@param path string
---@param t ltensor.Tensor
---@param opts? ltensor.ImageWriteOptions
function image.write(path, t, opts) end

--- t encoded as "png" or "jpeg" ("jpg" too), as a string of the file's bytes (as
--- torchvision.io.encode_png / encode_jpeg, channels last).
---@param t ltensor.Tensor
---@param format "png"|"jpeg"|"jpg"
---@param opts? ltensor.ImageWriteOptions
---@return string
function image.encode(t, format, opts) end

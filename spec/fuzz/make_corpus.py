#!/usr/bin/env python3
"""Writes the hand-made seed inputs of the three fuzz targets into spec/fuzz/corpus/<target>/.

Each seed is a few dozen bytes in the layout its harness reads (see the comment at the top of
each fuzz_*.c); the helpers below mirror those readers. Run it again after changing a layout:
    python3 spec/fuzz/make_corpus.py
Files named regress-* are inputs the fuzzers found (this script leaves them alone); (formerly known-*)
reproduce bugs not fixed yet (see README.md).
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data, most=200):
    """corpus/<target>/<name> holds data (fewer than `most` bytes: seeds stay small)."""
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    assert len(data) < most, (target, name, len(data))
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes(data))


# {====== fuzz_dlpack_import ======
DT = {"bool": 0, "uint8": 1, "int8": 2, "int16": 3, "int32": 4, "int64": 5, "float16": 9,
      "bfloat16": 10, "float32": 11, "float64": 12, "complex64": 13, "complex128": 14,
      "float32x4": 15, "fp8": 16, "fp4": 17, "fp6": 18}
DEV = {"cpu": 0, "cuda": 3, "cuda_host": 4, "rocm_host": 5, "bad5": 7, "zero": 10}


def managed(versioned=True, version=0, shape=(), strides=None, dtype="float32", device="cpu",
            flags=0, byte_offset=0, bufsize=256, bufoff=0, data="buffer", shape_null=False,
            deleter=True, ops=b""):
    which = {"buffer": 0, "null": 1, "misaligned": 2, "wild": 3}[data]
    mode = (1 if versioned else 0) | (2 if shape_null else 0) | (4 if strides is None else 0)
    mode |= (0 if deleter else 8) | which << 4
    out = [mode]
    out += [version] if version < 0xE0 else [0xE0] + list(struct.pack("<II", version - 0xE0, 0))
    out.append(len(shape) % 7 if len(shape) < 7 else 0xF8)
    if len(shape) >= 7:
        out += list(struct.pack("<i", len(shape)))
    room = min(len(shape), 72)
    st = strides if strides is not None else [None] * room
    for i in reversed(range(room)):  # the harness reads the last dim first
        out.append(shape[i] % 6)
        s = st[i]
        out.append(0 if s is None else s + 4)  # 0 -> -4: row-major
    out.append(DT[dtype])
    out += [DEV[device], 0]
    out.append(flags & 7)
    out.append(byte_offset % 40)
    out += list(struct.pack("<H", bufsize))
    out.append(bufoff)
    if data == "wild":
        out.append(3)
    return out + list(ops)


def dlpack_seeds():
    # exercise(): nops, then per op a code and its arguments (dims are b % (ndim + 3) - 1,
    # integers b % 11 - 3); each view made is visited: one byte, bit 0 = look deeper
    views = bytes([7, 0, 1, 2, 0,   1, 1, 4, 0,   2, 1, 3, 5, 0,   3, 2, 4, 5, 2, 0,
                   4, 1, 0,   5, 1, 0,   6, 1, 0])
    write("fuzz_dlpack_import", "f32-2x3-views", managed(shape=(2, 3), strides=(3, 1), ops=views))
    export = bytes([3, 11, 1, 1, 0, 11, 0, 0, 11, 9, 0])
    write("fuzz_dlpack_import", "i64-rowmajor-export",
          managed(shape=(4,), dtype="int64", ops=export))
    write("fuzz_dlpack_import", "legacy-f64-2x2-reshape",
          managed(versioned=False, shape=(2, 2), strides=(1, 2), dtype="float64",
                  ops=bytes([3, 7, 1, 0x80, 0, 0, 8, 2, 0x80, 0x80, 1, 0, 9, 1, 2, 0])))
    write("fuzz_dlpack_import", "bad-version-2", managed(version=0xE2, shape=(2,)))
    write("fuzz_dlpack_import", "ndim-65", managed(shape=(1,) * 65, strides=[1] * 65))
    write("fuzz_dlpack_import", "null-data-nonempty", managed(shape=(3,), data="null"))
    write("fuzz_dlpack_import", "null-data-empty", managed(shape=(0, 3), data="null",
                                                             ops=bytes([2, 10, 1, 3, 0, 0])))
    write("fuzz_dlpack_import", "misaligned-f64", managed(shape=(2,), dtype="float64",
                                                          data="misaligned"))
    write("fuzz_dlpack_import", "cuda-wild-views",
          managed(shape=(2, 3), dtype="float16", device="cuda", data="wild",
                  ops=bytes([4, 0, 1, 2, 0, 11, 1, 0, 12, 1, 0, 7, 1, 0x80, 1, 0])))
    write("fuzz_dlpack_import", "fp4-packed", managed(shape=(4,), dtype="fp4",
                                                      ops=bytes([2, 1, 1, 4, 0, 11, 1])))
    write("fuzz_dlpack_import", "read-only-fill",
          managed(shape=(3,), dtype="int32", flags=1, ops=bytes([2, 12, 0, 5, 11, 0, 0])))
    write("fuzz_dlpack_import", "no-deleter", managed(shape=(2,), deleter=False,
                                                      ops=bytes([1, 12, 1, 0])))
    write("fuzz_dlpack_import", "bad-byte-offset", managed(shape=(2,), byte_offset=3))
    write("fuzz_dlpack_import", "negative-strides",
          managed(shape=(3, 2), strides=(-2, -1), dtype="int16", bufoff=32,
                  ops=bytes([2, 12, 1, 0, 3, 0, 4, 3, 0xA, 0])))
    write("fuzz_dlpack_import", "bad-device", managed(shape=(1,), device="bad5"))
    write("fuzz_dlpack_import", "vector-lanes", managed(shape=(2,), dtype="float32x4",
                                                        ops=bytes([1, 7, 1, 0x80, 0, 0])))
# }======


# {====== fuzz_index ======
DTN = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
       "float16", "bfloat16", "float32", "float64", "complex64", "complex128"]
VARIANT = {"plain": 0, "transposed": 1, "clone": 2, "readonly": 3, "expanded": 4, "stepped": 5,
           "dlpack": 6, "host": 7, "host-ro": 0x87}


def base(dtype, shape, variant="plain"):
    return [DTN.index(dtype), len(shape), VARIANT[variant]] + [s % 5 for s in shape]


def idx(v):  # push_index / push_dim of -6..6
    assert -6 <= v <= 6
    return [v + 6]


def k_int(v):
    return [0] + idx(v)


def k_range(a=None, b=None, step=None):
    present = (a is not None) | (b is not None) << 1 | (step is not None) << 2
    out = [present]
    for v in (a, b, step):
        if v is not None:
            out += [0] + idx(v)
    return out


def k_table(*entries):
    """Entries: an int (select), a tuple (range), None (a hole), "all" ({})."""
    out = [8, len(entries)]
    for e in entries:
        if e is None:
            out.append(0)
        elif e == "all":
            out.append(7)
        elif isinstance(e, tuple):
            out += [4] + k_range(*e)
        else:
            out += [1] + idx(e)
    return out


def v_int(v):
    return [0] + list(struct.pack("<H", v + 300))


def v_rows(*vals):
    out = [6, len(vals)]
    for v in vals:
        out += v_int(v)
    return out


def op(code, src=0, dst=0, args=()):
    return [code, src, dst] + list(args)


def sizes(*vals):  # push_sizes as one table
    out = [len(vals)]
    for v in vals:
        out.append(0 if v == -1 else 35 + v)
    return out


def index_seeds():
    w = lambda name, data: write("fuzz_index", name, data)
    w("read-select-range", base("float32", (2, 3)) + op(0, 0, 1, k_table(2, (1, 3)))
      + op(0, 1, 2, k_int(-1)) + op(13, 1, 0, [9]))
    w("write-range-fill", base("int64", (4,)) + op(1, 0, 0, k_table((1, 2)) + v_int(-1))
      + op(13, 0, 0, [0]) + op(0, 0, 0, k_int(-4)))
    w("write-rows-broadcast", base("float64", (2, 3)) + op(1, 0, 0, k_table("all", (1, 3, 2))
      + v_rows(7, 8)) + op(1, 0, 0, k_int(1) + [8, 2]))
    w("negative-step", base("int32", (4, 3)) + op(0, 0, 1, k_table((-1, 1, -1), (3, 1, -2)))
      + op(13, 1, 0, [0]) + op(1, 1, 0, k_int(1) + v_int(5)))
    w("holes-and-floats", base("uint8", (3, 3)) + op(0, 0, 0, k_table(None, 2)) +
      op(0, 0, 0, [5, 0]) + op(0, 0, 0, [5, 2]) + op(0, 0, 0, [7, 0]) + op(0, 0, 0, [6]))
    w("out-of-range", base("int16", (3,)) + op(0, 0, 0, k_int(4)) + op(0, 0, 0, k_int(-4)) +
      op(0, 0, 0, [4]) + op(0, 0, 0, [3, 0]) + op(1, 0, 0, k_int(0) + v_int(1)))
    w("read-only-write", base("float32", (2, 2), "readonly") + op(1, 0, 0, k_int(1) + v_int(3))
      + op(14, 0, 0, v_int(1) + [0]) + op(12, 0, 0, [0] + idx(1) + idx(1) + v_int(2)))
    w("host-revoke", base("float64", (2, 3), "host") + op(0, 0, 1, k_int(1)) + [16, 0]
      + op(0, 1, 0, k_int(1)) + op(13, 0, 0, [0]))
    w("views-chain", base("float32", (2, 3, 4))
      + op(2, 0, 1, [0] + sizes(-1, 4)) + op(3, 1, 2, idx(1) + idx(-1))
      + op(4, 0, 3, [0x40]) + op(5, 3, 4, idx(1) + idx(2) + idx(2))
      + op(6, 4, 5, idx(-1) + idx(1)) + op(7, 5, 6, idx(1)) + op(8, 6, 7, [0])
      + op(9, 0, 1, [2] + idx(1) + idx(2)) + op(10, 6, 2, sizes(3, -1, -1)) + op(13, 2, 0, [9]))
    w("get-set", base("int8", (2, 2)) + op(11, 0, 0, [0] + idx(2) + idx(-1))
      + op(12, 0, 0, [0] + idx(1) + idx(2) + v_int(130)) + op(11, 0, 0, [3] + idx(1) * 3))
    w("clone-cow-write", base("bfloat16", (3,), "clone") + op(1, 0, 0, k_int(2) + v_int(9))
      + op(13, 1, 0, [0]) + op(13, 0, 0, [0]))
    w("expanded-copy", base("complex64", (2,), "expanded") + op(1, 0, 0, k_int(1) + v_int(1))
      + op(14, 0, 0, [8, 1, 1]) + op(13, 0, 0, [3]))
    w("zero-dim", base("uint64", ()) + op(0, 0, 0, k_int(1)) + op(13, 0, 0, [1])
      + op(7, 0, 1, idx(1)) + op(13, 1, 0, [10]) + op(15, 0, 0))
# }======


# {====== fuzz_bytes ======
NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
         "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "float",
         "double", "half", "int", "long", "short", "cfloat", "cdouble", "float8", "",
         "Float32", "int128"]


def from_bytes(dtype, data, shape=None, table=True):
    """dtype: a name of NAMES; shape None (no argument), or a list of -1 and 0..8."""
    if shape is None:
        how = 0
    else:
        how = (2 if table else 3) | len(shape) << 2
    out = [0, NAMES.index(dtype), how]
    for s in shape or []:
        out.append(0 if s == -1 else 0x20 + (s - 0x20) % 9)
    return out + list(data)


def bytes_seeds():
    w = lambda name, data: write("fuzz_bytes", name, data)
    w("f32-2", from_bytes("float32", struct.pack("<ff", 1.5, -2.0)))
    w("f16-specials", from_bytes("float16", struct.pack("<6H", 0x3c00, 0x7c00, 0xfc00, 0x7e01,
                                                        0x0001, 0x8000)))
    w("bf16-2x2", from_bytes("bfloat16", struct.pack("<4H", 0x3f80, 0x7f80, 0x0001, 0xffc1),
                             [2, -1]))
    w("i64-shape-args", from_bytes("int64", struct.pack("<3q", -1, 2**62, -2**63), [3, 1],
                                   table=False))
    w("bool-bytes", from_bytes("bool", bytes([0, 1, 2, 255])))
    w("u8-bad-shape", from_bytes("uint8", bytes([1, 2, 3]), [2, 2]))
    w("c64-alias", from_bytes("cfloat", struct.pack("<4f", 1, 0, float("nan"), -0.0)))
    w("bad-dtype", from_bytes("float8", b"ab"))
    w("odd-length-f64", [0, NAMES.index("float64") + 2 * len(NAMES), 0] + list(b"12345"))
    w("empty-shape-0", from_bytes("int32", b"", [0, 3]))
    w("u64-to-halves", from_bytes("uint64", struct.pack("<3Q", 65519, 2**64 - 1, 2**53 + 3)))
    # a fixed bug: int64 -> bfloat16 rounded twice
    w("regress-bf16-int64-double-rounding",
      from_bytes("int64", struct.pack("<q", 0x7EBFFFFFFFFFFEC3)))
    # the core half: 8-byte words as doubles, integers and 16-bit patterns
    core = [1] + list(struct.pack("<4d", 65519.99, 1e-8, -0.0, float("inf")))
    core += list(struct.pack("<2Q", 0x7FF8000000000001, 0x7EBFFFFFFFFFFEC3))
    w("core-words", core)
    w("core-f16-ties", [1] + list(struct.pack("<3d", 2049.0, 2051.0, 0.5 * 2**-24)))
# }======


# {====== the file parsers: fuzz_npy_header, fuzz_zip_dir, fuzz_safetensors_header ======
# Their inputs are whole files, written here with the standard library as NumPy, Python's
# zipfile and the safetensors writers lay them out.
def npy(descr, shape, data, fortran=False, version=1):
    d = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, fortran, "(%s)" % "".join("%d, " % s for s in shape).rstrip(" ") if len(shape) != 1
        else "(%d,)" % shape[0])
    pre = 10 if version == 1 else 12
    hlen = len(d) + 1
    hlen += (64 - (pre + hlen) % 64) % 64
    head = (d + " " * (hlen - len(d) - 1) + "\n").encode()
    size = struct.pack("<H", hlen) if version == 1 else struct.pack("<I", hlen)
    return b"\x93NUMPY" + bytes([version, 0]) + size + head + data


def file_seeds():
    import io
    import zipfile
    w = lambda name, data: write_file("fuzz_npy_header", name, data)
    w("f4-2x3", npy("<f4", (2, 3), struct.pack("<6f", *range(6))))
    w("i8-v2", npy("<i8", (2,), struct.pack("<2q", -1, 2**62), version=2))
    w("u2-v3-fortran", npy("<u2", (2, 2), struct.pack("<4H", 1, 2, 3, 4), True, version=3))
    w("big-f8", npy(">f8", (1,), struct.pack(">d", 2.5)))
    w("b1-0d", npy("|b1", (), b"\x02"))
    w("c16-empty", npy("<c16", (0, 4), b""))
    w("lying-shape", npy("<f8", (2**62,), b"\0" * 16))
    w("bad-descr", npy("|O", (1,), b"\0" * 8))
    member = npy("<i4", (3,), struct.pack("<3i", 5, 6, 7))
    for name, method, force64 in (("stored", zipfile.ZIP_STORED, False),
                                  ("deflated", zipfile.ZIP_DEFLATED, False),
                                  ("zip64-local", zipfile.ZIP_STORED, True)):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", method) as z:
            info = zipfile.ZipInfo("a.npy", (1980, 1, 1, 0, 0, 0))
            info.compress_type = method
            with z.open(info, "w", force_zip64=force64) as f:
                f.write(member)
            z.writestr(zipfile.ZipInfo("b.txt", (1980, 1, 1, 0, 0, 0)), b"hi")
        write_file("fuzz_zip_dir", name, buf.getvalue())
    write_file("fuzz_zip_dir", "empty", b"PK\5\6" + b"\0" * 18)
    # lying directories: two entries pointing at one member (a zip bomb made of references),
    # and a local header whose extra length runs its member into the next
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        z.writestr(zipfile.ZipInfo("a.npy", (1980, 1, 1, 0, 0, 0)), member)
        z.writestr(zipfile.ZipInfo("b.npy", (1980, 1, 1, 0, 0, 0)), member)
    arc = buf.getvalue()
    cd = arc.index(b"PK\1\2")
    second = arc.index(b"PK\1\2", cd + 4)
    first_entry = arc[cd:second]
    twin = first_entry[:46].replace(b"a.npy", b"b.npy") + b"b.npy" + first_entry[51:]
    end = arc[arc.index(b"PK\5\6"):]
    refs = arc[:cd] + first_entry + twin
    write_file("fuzz_zip_dir", "overlap-refs", refs + end[:12] + struct.pack("<I", len(refs) - cd)
               + end[16:])
    write_file("fuzz_zip_dir", "overlap-local-extra", arc[:28] + struct.pack("<H", 40) + arc[30:])

    def st(header, data):
        h = header.encode()
        h += b" " * ((8 - len(h) % 8) % 8)
        return struct.pack("<Q", len(h)) + h + data
    w = lambda name, data: write_file("fuzz_safetensors_header", name, data)
    w("two", st('{"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2],'
                '"data_offsets":[0,8]},"b":{"dtype":"U8","shape":[1,2],"data_offsets":[8,10]}}',
                b"\0" * 10))
    w("f8-escapes", st('{"\\u00e9\\ud83d\\ude00":{"dtype":"F8_E4M3","shape":[],'
                       '"data_offsets":[0,1]}}', b"\x7f"))
    w("hole", st('{"a":{"dtype":"I16","shape":[1],"data_offsets":[2,4]}}', b"\0" * 4))
    w("empty", st("{}", b""))
    w("c64-fnuz-f4-f6", st('{"z":{"dtype":"C64","shape":[1],"data_offsets":[0,8]},'
                           '"u":{"dtype":"F8_E4M3FNUZ","shape":[2],"data_offsets":[8,10]},'
                           '"f":{"dtype":"F4","shape":[2,2],"data_offsets":[10,12]},'
                           '"s":{"dtype":"F6_E3M2","shape":[4],"data_offsets":[12,15]}}',
                           b"\0" * 15))
    # an odd length: the harness parses leniently, and the unknown dtype is left out
    w("unknown-dtype-lenient", st('{"q":{"dtype":"Q4_K","shape":[3],"data_offsets":[0,5]},'
                                  '"a":{"dtype":"U8","shape":[2],"data_offsets":[5,7]}}',
                                  b"\0" * 7))
    w("f4-odd-count", st('{"f":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}', b"\0\0"))


def write_file(target, name, data):
    """A seed of the file formats' targets, which need more room."""
    write(target, name, data, 1024)
# }======


if __name__ == "__main__":
    dlpack_seeds()
    index_seeds()
    bytes_seeds()
    file_seeds()

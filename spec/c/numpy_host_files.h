/*
 * numpy_host_files.h -- section 11 of numpy_host.c: lt.save / lt.load against NumPy's own file
 * functions, and safetensors against a reference reader and writer written here in Python from
 * the published format (the safetensors package is not installed). Included once, by
 * numpy_host.c only, after its other sections; main() calls test_files_np().
 *
 * .npy: for every dtype both sides have, C and Fortran order, both byte orders and format
 * versions 1.0, 2.0 and 3.0 (np.lib.format.write_array(f, a, version=(v, 0))), NumPy writes and
 * ltensor reads (values, dtype, the Fortran layout as strides; mapped too where the byte order is
 * native), then ltensor writes what it read and np.load reads it back (values, dtype in native
 * order, Fortran order kept). .npz: np.savez and np.savez_compressed read by lt.load, lt.save
 * (stored and compressed) read by np.load, and an archive written with zip64 records for every
 * member (lt_npz_save_ex) read by Python's zipfile and np.load. .safetensors: ltensor writes
 * every dtype with metadata (complex64 as C64) and the reference reader checks the format
 * (8-byte size, header padded to 8 with spaces, offsets that tile the data, every tensor aligned)
 * and the values; the reference writer writes them all and ltensor reads them back, mapped too.
 * Bools NumPy saved with bytes other than 0 and 1 load as NumPy reads them, and refuse mapping.
 */

#include "lt_zip.h"

static const char py_files[] =
    "import tempfile, os, json, struct, zipfile\n"
    "TD = tempfile.mkdtemp(prefix='ltensor-files-')\n"
    "def npy_write(path, a, version):\n"
    "    with open(path, 'wb') as f: np.lib.format.write_array(f, a, version=(version, 0))\n"
    "def fstrides(a): return [s // a.itemsize for s in a.strides]\n"
    "ST_NP = {'BOOL': 'bool', 'U8': 'uint8', 'I8': 'int8', 'I16': 'int16', 'I32': 'int32',\n"
    "         'I64': 'int64', 'U16': 'uint16', 'U32': 'uint32', 'U64': 'uint64',\n"
    "         'F16': 'float16', 'BF16': 'uint16', 'F32': 'float32', 'F64': 'float64',\n"
    "         'C64': 'complex64', 'F8_E4M3': 'uint8', 'F8_E5M2': 'uint8'}\n"
    "# (bfloat16 and float8 as their bits)\n"
    "def st_read(path):  # the published format, checked strictly\n"
    "    data = open(path, 'rb').read()\n"
    "    n = struct.unpack('<Q', data[:8])[0]\n"
    "    assert n % 8 == 0 and 8 + n <= len(data), n\n"
    "    raw = data[8:8 + n]\n"
    "    h = json.loads(raw.decode('utf-8'))\n"
    "    assert raw.rstrip(b' ').endswith(b'}'), raw  # padded with spaces only\n"
    "    meta = h.pop('__metadata__', None)\n"
    "    base, out, spans = 8 + n, {}, []\n"
    "    for name, info in h.items():\n"
    "        b, e = info['data_offsets']\n"
    "        dt = np.dtype(ST_NP[info['dtype']]).newbyteorder('<')\n"
    "        assert (base + b) % dt.itemsize == 0, (name, b)  # aligned for mapping\n"
    "        a = np.frombuffer(data[base + b:base + e], dt).reshape(info['shape'])\n"
    "        out[name] = (info['dtype'], a)\n"
    "        spans.append((b, e))\n"
    "    at = 0\n"
    "    for b, e in sorted(spans): assert b == at, (b, at); at = e\n"
    "    assert at == len(data) - base\n"
    "    return out, meta\n"
    "def st_write(path, tensors, meta=None):  # {name: (code, array)}, as the format's writers\n"
    "    h, blobs, off = {}, [], 0\n"
    "    if meta is not None: h['__metadata__'] = meta\n"
    "    for name, (code, a) in sorted(tensors.items(),\n"
    "                                  key=lambda kv: (-kv[1][1].itemsize, kv[0])):\n"
    "        b = np.ascontiguousarray(a, a.dtype.newbyteorder('<')).tobytes()\n"
    "        h[name] = {'dtype': code, 'shape': list(a.shape), 'data_offsets': [off, off + "
    "len(b)]}\n"
    "        blobs.append(b); off += len(b)\n"
    "    raw = json.dumps(h, separators=(',', ':')).encode()\n"
    "    raw += b' ' * (-len(raw) % 8)\n"
    "    with open(path, 'wb') as f: f.write(struct.pack('<Q', len(raw)) + raw + "
    "b''.join(blobs))\n";

/* One dtype, order and byte order, every format version, both ways. */
static void npy_case(const char *dt, int fortran, char order) {
  set_context("npy %s %s %c", dt, fortran ? "F" : "C", order);
  CHECK(
      py_ok("a = np.array(SAMPLES['%s'], '%s').reshape(2, 3)\n"
            "a = a.astype(a.dtype.newbyteorder('%c'))\n"
            "a = np.asfortranarray(a) if %d else np.ascontiguousarray(a)",
            dt, dt, order, fortran));
  for (int v = 1; v <= 3; v++) {
    CHECK(
        py_ok("p = os.path.join(TD, 'a.npy'); q = os.path.join(TD, 'b.npy')\n"
              "npy_write(p, a, %d)",
              v));
    CHECK(py_to_lua("P", "p") && py_to_lua("Q", "q"));
    CHECK(lua_ok("t = lt.load(P)"));
    CHECK(lua_true("t.dtype == '%s'", dt));
    CHECK(lua_to_py("lv", "t:tolist()") && py_eq("strict(lv)", "np_vals(a)"));
    CHECK(lua_to_py("ls", "t:stride()") && py_eq("ls", "fstrides(a)"));
    if (order == '<' || strcmp(dt, "bool") == 0 || strcmp(dt, "int8") == 0 ||
        strcmp(dt, "uint8") == 0) {
      CHECK(lua_ok("m = lt.load(P, {mmap = true})"));
      CHECK(lua_to_py("mv", "m:tolist()") && py_eq("strict(mv)", "np_vals(a)"));
      CHECK(lua_true("m:is_read_only()"));
      CHECK(lua_ok("m = nil"));
    } else {
      CHECK(lua_raises("load it without mmap", "lt.load(P, {mmap = true})"));
    }
    CHECK(lua_ok("lt.save(Q, t); t = nil"));
    CHECK(py_ok("b = np.load(q)"));
    CHECK(py_true("b.dtype == a.dtype.newbyteorder('=') and b.shape == a.shape"));
    CHECK(py_true("np_vals(b) == np_vals(a)"));
    CHECK(py_true("b.flags.f_contiguous == a.flags.f_contiguous"));
  }
}

static void files_npz(void) {
  set_context("npz from numpy");
  CHECK(
      py_ok("arrs = {dt: np.array(SAMPLES[dt], dt).reshape(3, 2) for dt in SAMPLES\n"
            "        if dt != 'bfloat16'}\n"
            "arrs['fortran'] = np.asfortranarray(np.arange(12.0).reshape(3, 4))\n"
            "arrs['big'] = np.arange(6, dtype='>i4')\n"
            "p = os.path.join(TD, 'a.npz'); q = os.path.join(TD, 'b.npz')\n"
            "np.savez(p, **arrs); np.savez_compressed(q, **arrs)"));
  CHECK(py_to_lua("P", "p") && py_to_lua("Q", "q"));
  CHECK(py_to_lua("names", "sorted(arrs)"));
  for (int k = 0; k < 2; k++) {
    CHECK(lua_ok("z = lt.load(%s); n = 0; for _ in pairs(z) do n = n + 1 end", k ? "Q" : "P"));
    CHECK(lua_true("n == #names"));
    CHECK(lua_to_py("lz",
                    "(function() local r = {} for _, k in ipairs(names) do "
                    "r[#r + 1] = z[k]:tolist() end return r end)()"));
    CHECK(py_true("[strict(v) for v in lz] == [np_vals(arrs[k]) for k in sorted(arrs)]"));
  }
  set_context("npz to numpy");
  for (int k = 0; k < 2; k++) {
    CHECK(lua_ok("lt.save(P, z, {compress = %s})", k ? "true" : "false"));
    CHECK(
        py_ok("back = np.load(p)\n"
              "zi = zipfile.ZipFile(p).infolist()"));
    CHECK(py_true("sorted(back.files) == sorted(arrs)"));
    CHECK(py_true("all(np_vals(back[k]) == np_vals(arrs[k]) for k in arrs)"));
    CHECK(py_true("all(i.compress_type == %s for i in zi)",
                  k ? "zipfile.ZIP_DEFLATED" : "zipfile.ZIP_STORED"));
    CHECK(py_true("zipfile.ZipFile(p).testzip() is None"));
  }
}

static void files_zip64(void) {
  set_context("npz with zip64 records");
  {
    const char *names[2] = {"a", "b"};
    const int64_t na = 5, nb[2] = {2, 2};
    lt_tensor *a = NULL, *b = NULL;
    lt_error err;
    CHECK(lt_tensor_new(LT_INT16, 1, &na, 0, &a, &err) == LT_OK);
    CHECK(lt_tensor_new(LT_FLOAT64, 2, nb, 0, &b, &err) == LT_OK);
    if (a && b) {
      for (int i = 0; i < 5; i++) ((int16_t *)lt_data(a))[i] = (int16_t)i;
      const double bv[4] = {1.5, 2, 3, 4};
      memcpy(lt_data(b), bv, sizeof bv);
      const lt_tensor *ts[2] = {a, b};
      CHECK(py_ok("r = os.path.join(TD, 'z64.npz')"));
      PyObject *r = PyDict_GetItemString(G, "r");
      const char *path = r ? PyUnicode_AsUTF8(r) : NULL;
      /* zip64 records from 1 byte on: every size, offset and count */
      CHECK(path && lt_npz_save_ex(path, 2, names, ts, 0, 1, &err) == LT_OK);
    }
    lt_tensor_free(a);
    lt_tensor_free(b);
  }
  CHECK(py_ok("raw = open(r, 'rb').read(); back = np.load(r)"));
  CHECK(py_true("b'PK\\x06\\x06' in raw and b'PK\\x06\\x07' in raw"));
  CHECK(py_true("back['a'].tolist() == [0, 1, 2, 3, 4] and back['a'].dtype == np.int16"));
  CHECK(py_true("back['b'].tolist() == [[1.5, 2], [3, 4]]"));
  CHECK(py_to_lua("R", "r"));
  CHECK(lua_true("lt.load(R).b:tolist()[2][1] == 3"));
}

static void files_safetensors_out(void) {
  set_context("safetensors to the reference reader");
  CHECK(
      lua_ok("st = {}\n"
             "for _, dt in ipairs({'bool', 'uint8', 'int8', 'int16', 'int32', 'int64', "
             "'uint16', 'uint32', 'uint64', 'float16', 'bfloat16', 'float32', 'float64', "
             "'complex64'}) do\n"
             "  st[dt] = lt.arange(6):reshape(2, 3):to(dt) end\n"
             "st.view = lt.arange(12.0):reshape(3, 4):t()\n"
             "st.empty = lt.zeros(0, 3, lt.int16)"));
  CHECK(py_ok("s = os.path.join(TD, 'a.safetensors')"));
  CHECK(py_to_lua("S", "s"));
  CHECK(lua_ok("lt.save(S, st, {metadata = {format = 'pt', ['k\\u{e9}'] = 'v\"'}})"));
  CHECK(py_ok("got, meta = st_read(s)"));
  CHECK(py_true("meta == {'format': 'pt', 'k\\u00e9': 'v\"'}"));
  CHECK(lua_to_py("lb",
                  "(function() local r = {} for k, t in pairs(st) do r[#r + 1] = {k, "
                  "t:bytes()} end return r end)()") &&
        py_ok("lb = {k.decode(): v for k, v in lb}"));
  CHECK(py_true("sorted(got) == sorted(lb)"));
  CHECK(py_true("all(got[k][1].tobytes() == lb[k] for k in got)"));
  CHECK(py_true("got['view'][1].tolist() == np.arange(12.0).reshape(3, 4).T.tolist()"));
  CHECK(py_true("got['bfloat16'][0] == 'BF16' and got['float64'][0] == 'F64'"));
  CHECK(
      py_true("got['complex64'][0] == 'C64' and got['complex64'][1].tolist() == "
              "[[0, 1, 2], [3, 4, 5]]"));
}

static void files_safetensors_in(void) {
  set_context("safetensors from the reference writer");
  CHECK(
      py_ok("ref = {dt: (code, np.array(SAMPLES[dt], dt).reshape(3, 2)) for code, dt in\n"
            "       [('BOOL', 'bool'), ('U8', 'uint8'), ('I8', 'int8'), ('I16', 'int16'),\n"
            "        ('I32', 'int32'), ('I64', 'int64'), ('U16', 'uint16'), ('U32', 'uint32'),\n"
            "        ('U64', 'uint64'), ('F16', 'float16'), ('F32', 'float32'),\n"
            "        ('F64', 'float64'), ('C64', 'complex64')]}\n"
            "ref['bf'] = ('BF16', np.array([0x3f80, 0xc020, 0x7f80], np.uint16))\n"
            "ref['f8'] = ('F8_E4M3', np.array([[1, 2], [3, 0x7e]], np.uint8))\n"
            "st_write(s, ref, {'a': 'b'})"));
  CHECK(lua_ok("r, meta, order = lt.load(S); rm = lt.load(S, {mmap = true})"));
  CHECK(lua_true("meta.a == 'b' and r.bf.dtype == 'bfloat16' and r.f8.dtype == 'float8_e4m3fn'"));
  CHECK(lua_to_py("bf", "r.bf:tolist()") && py_true("bf == [1.0, -2.5, float('inf')]"));
  CHECK(lua_to_py("lv",
                  "(function() local v = {} for k, t in pairs(r) do if k ~= 'bf' and "
                  "k ~= 'f8' then v[#v + 1] = {k, t:tolist()} end end return v end)()") &&
        py_ok("lv = {k.decode(): v for k, v in lv}"));
  CHECK(py_true("all(strict(lv[k]) == np_vals(ref[k][1]) for k in lv) and len(lv) == 13"));
  CHECK(lua_true("r.complex64.dtype == 'complex64' and rm.complex64:equal(r.complex64)"));
  CHECK(lua_to_py("lo", "order") && py_ok("lo = [n.decode() for n in lo]"));
  CHECK(
      py_true("lo == [n for n, _ in sorted(((n, json.loads(open(s, 'rb').read()[8:8 + "
              "struct.unpack('<Q', open(s, 'rb').read()[:8])[0]])[n]['data_offsets'][0]) "
              "for n in ref), key=lambda x: x[1])]"));
  /* ltensor writes back what it read, float8 included: the reference reads the same bits */
  CHECK(lua_ok("lt.save(S, rm, {metadata = meta}); r = nil; rm = nil"));
  CHECK(py_ok("got, meta = st_read(s)"));
  CHECK(py_true("meta == {'a': 'b'} and got['f8'][0] == 'F8_E4M3'"));
  CHECK(py_true("all(got[k][1].tobytes() == ref[k][1].tobytes() for k in ref)"));
}

static void test_files_np(void) {
  section("11: files against NumPy and a reference safetensors");
  CHECK(py_ok("%s", py_files));
  for (size_t i = 0; i < sizeof dtypes / sizeof *dtypes; i++)
    for (int f = 0; f < 2; f++)
      for (int o = 0; o < 2; o++) npy_case(dtypes[i], f, o ? '>' : '<');
  files_npz();
  files_zip64();
  files_safetensors_out();
  files_safetensors_in();
  /* bools as NumPy keeps them: any byte (a uint8 array viewed as bool); the plain load reads
     nonzero as true, as NumPy's comparisons do; a mapping cannot, and refuses */
  set_context("npy bools with bytes other than 0 and 1");
  CHECK(
      py_ok("p = os.path.join(TD, 'b.npy'); a = np.array([0, 2, 255, 1], np.uint8).view(np.bool_)\n"
            "np.save(p, a)"));
  CHECK(py_to_lua("P", "p"));
  CHECK(lua_to_py("lb", "lt.load(P):tolist()") && py_true("lb == (a != 0).tolist()"));
  CHECK(lua_raises("bool data holds byte 2 at element 2", "lt.load(P, {mmap = true})"));
  CHECK(py_ok("np.save(p, np.array([True, False, True]))"));
  CHECK(lua_true("lt.load(P, {mmap = true}):equal(lt.load(P))"));
  CHECK(py_ok("import shutil; shutil.rmtree(TD)"));
  lua_gc_full();
}

# SPDX-License-Identifier: ISC
"""gguf_write.py - GGUF v3 files written byte by byte (ggml docs/gguf.md)
for the suites that read them (rope.sh, masks.sh): metadata entries and
1-D f32 tensors, every tensor padded to 32 bytes."""
import struct


def st(x):
    b = x.encode()
    return struct.pack("<Q", len(b)) + b


def kv_str(k, v): return st(k) + struct.pack("<I", 8) + st(v)
def kv_u32(k, v): return st(k) + struct.pack("<II", 4, v)
def kv_f32(k, v): return st(k) + struct.pack("<If", 6, v)
def kv_f64(k, v): return st(k) + struct.pack("<Id", 12, v)
def kv_bool(k, v): return st(k) + struct.pack("<IB", 7, 1 if v else 0)


def kv_bools(k, v):
    """An array of bools."""
    return st(k) + struct.pack("<IIQ", 9, 7, len(v)) + bytes(int(x) for x in v)


def gguf(kvs, tensors=()):
    """The file: the entries kvs, then tensors [(name, [f32 values])]."""
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs)
    infos, datas, off = b"", [], 0
    for name, vals in tensors:
        infos += st(name) + struct.pack("<IQIQ", 1, len(vals), 0, off)
        data = struct.pack("<%df" % len(vals), *vals)
        data += b"\0" * ((-len(data)) % 32)
        datas.append(data)
        off += len(data)
    body = head + infos
    return body + b"\0" * ((-len(body)) % 32) + b"".join(datas)

"""Read the weights (initializers) of an ONNX file without the onnx package (not in Debian's Python).

Only what a float32 model exported by torch needs: ModelProto.graph (7) -> GraphProto.initializer (5)
-> TensorProto dims (1), data_type (2), name (8), raw_data (9) / float_data (4). Protobuf wire format.
"""
import numpy as np


def _varint(b, i):
    shift = result = 0
    while True:
        c = b[i]
        i += 1
        result |= (c & 0x7F) << shift
        if c < 0x80:
            return result, i
        shift += 7


def _fields(b):
    i, n = 0, len(b)
    while i < n:
        key, i = _varint(b, i)
        num, wt = key >> 3, key & 7
        if wt == 0:
            v, i = _varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 2:
            ln, i = _varint(b, i)
            v, i = b[i:i + ln], i + ln
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError(f"wire type {wt}")
        yield num, wt, v


def _tensor(b):
    dims, name, raw, floats, dtype = [], "", None, [], 1
    for num, wt, v in _fields(b):
        if num == 1:
            if wt == 0:
                dims.append(v)
            else:  # packed
                j = 0
                while j < len(v):
                    d, j = _varint(v, j)
                    dims.append(d)
        elif num == 2:
            dtype = v
        elif num == 8:
            name = bytes(v).decode()
        elif num == 9:
            raw = bytes(v)
        elif num == 4:
            floats.append(np.frombuffer(bytes(v), "<f4"))
    if dtype == 1:
        a = np.frombuffer(raw, "<f4") if raw is not None else np.concatenate(floats) if floats else np.zeros(0, np.float32)
    elif dtype == 7:
        a = np.frombuffer(raw, "<i8")
    else:
        return name, None
    return name, a.reshape(dims).copy()


def initializers(path):
    """{name: numpy array} of the float32 / int64 initializers of an ONNX model."""
    b = memoryview(open(path, "rb").read())
    out = {}
    for num, _, v in _fields(b):
        if num == 7:
            for gnum, _, gv in _fields(v):
                if gnum == 5:
                    name, a = _tensor(gv)
                    if a is not None:
                        out[name] = a
    return out

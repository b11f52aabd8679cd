#!/usr/bin/env python3
"""An independent REZ archive writer, for timing `gamedata rez ls` on an archive of real
size and for checking the reader against a layout other than wap-core's writer.

From a list of file paths (one a line, `\\`-separated; a `.DIP` extension as the GRUNTZ.REZ
list prints it is stored as `DIP\\0`, the reversed form of `.PID`), with the Python standard
library only and the format facts of `docs/formats/wap32.md` ("REZ archives"): the header,
then every directory's entries (the root's first, breadth first), then the files' bytes,
each file `--bytes` long (its index in the list, repeated). Directories keep the list's
order, not sorted.

    python3 tools/reference/rez_build.py PATHS.txt OUT.REZ --bytes 4400
"""

import argparse
import struct


def build(paths, size):
    root = {}
    order = []
    for i, path in enumerate(paths):
        parts = path.split("\\")
        node = root
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        # Several entries may share a name: keep each (a list of files per name).
        node.setdefault(("file", parts[-1]), []).append(i)
        order.append(i)
    # Directory tables, breadth first.
    queue = [root]
    tables = []
    while queue:
        node = queue.pop(0)
        tables.append(node)
        for key, child in node.items():
            if isinstance(child, dict):
                queue.append(child)

    def entry_len(key, child):
        if isinstance(child, dict):
            return 16 + len(key) + 1
        stem = key[1].rsplit(".", 1)[0]
        return len(child) * (16 + 12 + len(stem) + 2)

    lengths = [sum(entry_len(k, c) for k, c in t.items()) for t in tables]
    offsets = {}
    at = 168
    for t, n in zip(tables, lengths):
        offsets[id(t)] = at
        at += n
    data_at = at
    file_at = {i: data_at + k * size for k, i in enumerate(order)}
    out = bytearray()
    text = bytearray(b" " * 127)
    text[0:2] = b"\r\n"
    text[124:127] = b"\r\n\x1a"
    out += text
    total = data_at + len(order) * size
    out += struct.pack("<10I", 1, 168, lengths[0], 0, total, 0, 0, 0, 0, 0)
    out += b"\x00"
    for t in tables:
        for key, child in t.items():
            if isinstance(child, dict):
                out += struct.pack("<4I", 1, offsets[id(child)], lengths[tables.index(child)], 0)
                out += key.encode("latin-1") + b"\x00"
            else:
                stem, _, ext = key[1].rpartition(".")
                stored = ext.encode("latin-1")[:4].ljust(4, b"\x00")
                for i in child:
                    out += struct.pack("<5I", 0, file_at[i], size, 0, i)
                    out += stored + struct.pack("<I", 0)
                    out += stem.encode("latin-1") + b"\x00\x00"
    assert len(out) == data_at, (len(out), data_at)
    for i in order:
        out += (struct.pack("<I", i) * (size // 4 + 1))[:size]
    return bytes(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths")
    parser.add_argument("out")
    parser.add_argument("--bytes", type=int, default=4400)
    args = parser.parse_args()
    with open(args.paths, encoding="latin-1") as f:
        paths = [line.rstrip("\n") for line in f if line.strip()]
    data = build(paths, args.bytes)
    with open(args.out, "wb") as f:
        f.write(data)
    print(f"{args.out}: {len(paths)} files, {len(data)} bytes")


if __name__ == "__main__":
    main()

"""The judged sets, kept in git: every session so far lost the Blender cache (data/ is git-ignored and does
not survive), and render3's sets take hours of Blender to rebuild. A set directory under data/ (the photos,
masks and truth.json that render3/build.py, render2/build_set.py or data.py eval wrote) is packed into
sets/NAME.tar.gz, NAME being its path under data/ with "/" as "-" (data/render3/heldout ->
sets/render3-heldout.tar.gz), and its digest kept in sets/MANIFEST.json. The benches unpack a set that the
data folder lacks (tests/bench/families.bench.ts), so a judged set is read exactly as it was first developed.

    /usr/bin/python3 models/head-contour/sets.py pack data/render3/heldout    (a complete set only)
    /usr/bin/python3 models/head-contour/sets.py unpack data/render3/heldout  (no-op when truth.json is there)
    /usr/bin/python3 models/head-contour/sets.py check                        (every archive against the manifest)
"""
import gzip
import hashlib
import json
import os
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
SETS = os.path.join(HERE, "sets")
MANIFEST = os.path.join(SETS, "MANIFEST.json")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def name_of(set_dir, data=DATA):
    """The archive's name for a set directory under data/ (data/render3/heldout -> render3-heldout)."""
    rel = os.path.relpath(os.path.abspath(set_dir), os.path.abspath(data))
    if rel.startswith("..") or os.path.isabs(rel) or rel == ".":
        raise SystemExit(f"sets: {set_dir} is not a set directory under {data}")
    return rel, rel.replace(os.sep, "-")


def read_manifest(sets=SETS):
    path = os.path.join(sets, "MANIFEST.json")
    return json.load(open(path)) if os.path.exists(path) else {}


def pack(set_dir, data=DATA, sets=SETS):
    """A reproducible archive of a complete set: members sorted, owner and times zeroed, so the same set
    always packs to the same bytes."""
    rel, name = name_of(set_dir, data)
    truth_path = os.path.join(set_dir, "truth.json")
    if not os.path.exists(truth_path):
        raise SystemExit(f"sets: {set_dir} has no truth.json (an incomplete set is never packed)")
    truth = json.load(open(truth_path))
    files = sorted(os.listdir(set_dir))
    missing = [it["image"] for it in truth["items"] if it["image"] not in files]
    if missing:
        raise SystemExit(f"sets: {set_dir} lacks {len(missing)} of its photos, e.g. {missing[0]}")
    os.makedirs(sets, exist_ok=True)
    out = os.path.join(sets, f"{name}.tar.gz")
    tmp = out + ".tmp"
    with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for f in files:
            p = os.path.join(set_dir, f)
            if not os.path.isfile(p):
                continue
            info = tarfile.TarInfo(f"{rel}/{f}".replace(os.sep, "/"))
            info.size, info.mtime, info.mode = os.path.getsize(p), 0, 0o644
            with open(p, "rb") as fh:
                tar.addfile(info, fh)
    os.replace(tmp, out)
    manifest = read_manifest(sets)
    manifest[name] = {"path": rel.replace(os.sep, "/"), "seed": truth.get("seed"), "photos": len(truth["items"]),
                      "good": sum(1 for it in truth["items"] if not it["reasons"]),
                      "truth_sha256": sha256(truth_path), "archive_sha256": sha256(out), "bytes": os.path.getsize(out)}
    with open(os.path.join(sets, "MANIFEST.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")
    return out, manifest[name]


def unpack(set_dir, data=DATA, sets=SETS):
    """Unpacks the set's archive into data/ when the set directory has no truth.json; checks both digests.
    Returns True if it unpacked, False if the set was already there; exits if there is no archive for it."""
    if os.path.exists(os.path.join(set_dir, "truth.json")):
        return False
    rel, name = name_of(set_dir, data)
    entry = read_manifest(sets).get(name)
    archive = os.path.join(sets, f"{name}.tar.gz")
    if entry is None or not os.path.exists(archive):
        raise SystemExit(f"sets: {set_dir} has no truth.json and there is no archive {archive} for it")
    if sha256(archive) != entry["archive_sha256"]:
        raise SystemExit(f"sets: {archive} does not match its digest in the manifest")
    with tarfile.open(archive, "r:gz") as tar:
        members = tar.getmembers()
        prefix = entry["path"] + "/"
        for m in members:  # only plain files inside the set's own directory
            if not m.isfile() or not m.name.startswith(prefix) or ".." in m.name.split("/"):
                raise SystemExit(f"sets: {archive} holds {m.name}, outside {prefix}")
        tmp = os.path.join(data, f".unpack-{name}")
        os.makedirs(tmp, exist_ok=True)
        tar.extractall(tmp, members=members)
    os.makedirs(os.path.dirname(os.path.abspath(set_dir)), exist_ok=True)
    src = os.path.join(tmp, *entry["path"].split("/"))
    os.makedirs(set_dir, exist_ok=True)
    for f in os.listdir(src):  # truth.json last, so a set is never seen half unpacked
        if f != "truth.json":
            os.replace(os.path.join(src, f), os.path.join(set_dir, f))
    os.replace(os.path.join(src, "truth.json"), os.path.join(set_dir, "truth.json"))
    if sha256(os.path.join(set_dir, "truth.json")) != entry["truth_sha256"]:
        raise SystemExit(f"sets: {set_dir}/truth.json does not match the manifest")
    import shutil
    shutil.rmtree(tmp, ignore_errors=True)
    return True


def check(sets=SETS):
    bad = []
    for name, entry in sorted(read_manifest(sets).items()):
        archive = os.path.join(sets, f"{name}.tar.gz")
        ok = os.path.exists(archive) and sha256(archive) == entry["archive_sha256"]
        print(f"{name}: {entry['photos']} photos ({entry['good']} good), seed {entry['seed']}, {entry['bytes'] / 1e6:.1f} MB: {'ok' if ok else 'MISMATCH'}")
        if not ok:
            bad.append(name)
    return bad


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("pack", "unpack", "check"):
        sys.exit(__doc__)
    if sys.argv[1] == "check":
        sys.exit(1 if check() else 0)
    for d in sys.argv[2:]:
        if sys.argv[1] == "pack":
            out, e = pack(d)
            print(f"sets: {out}: {e['photos']} photos, {e['bytes'] / 1e6:.2f} MB")
        else:
            print(f"sets: {d}: {'unpacked' if unpack(d) else 'already there'}")

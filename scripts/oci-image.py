"""Writes healthetl's container image as an OCI archive (what `docker load` and `podman load` read), reproducibly.

    oci-image.py <root> <archive> --version V --revision R --epoch SECONDS --architecture amd64

<root> is a folder staged by scripts/package-image: the binary, its libraries and /etc. It becomes the image's one
layer. Nothing of the building machine leaks into the bytes: entries are sorted, every time is --epoch (the
commit's), owners are numbers (root, except /data: the image's user), modes are normalised (0755 for folders and
executables, 0644 for the rest, 1777 for /tmp). Two runs on the same files therefore write the same archive, byte
for byte, and the image's digest (its manifest's) is printed to stdout.

The layer is stored uncompressed (an OCI layer may be): scripts/package-image compresses the whole archive
instead, with xz, whose 64 MiB window finds what the binary's ICU data and libxml2's libicudata share, which
gzip's 32 KiB (a compressed layer's) cannot: 26 MB instead of 47.

The archive holds both the OCI layout (oci-layout, index.json, blobs/sha256/…: podman, Docker 25 and later) and
Docker's manifest.json pointing at the same blobs (older Docker), like `docker save` writes since Docker 25.
"""

import argparse
import datetime
import hashlib
import io
import json
import os
import stat
import sys
import tarfile

USER_ID = 1000  # the image's one user, `healthetl` (etc/passwd, written by scripts/package-image)
OWNED_BY_USER = {"data"}  # the working volume: the user writes the database there
WORLD_WRITABLE = {"tmp"}  # 1777, as on any Linux system: temporary files of whoever runs


def canonical_json(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def tar_entry(path, kind, mode, mtime, uid=0, size=0, linkname=""):
    info = tarfile.TarInfo(path)
    info.type = kind
    info.mode = mode
    info.mtime = mtime
    info.uid = info.gid = uid
    info.uname = info.gname = ""
    info.size = size
    info.linkname = linkname
    return info


def layer_tar(root, mtime):
    """The root folder as an uncompressed tar, entries sorted, parents before children."""
    paths = []
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            paths.append(os.path.relpath(os.path.join(folder, name), root))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path in sorted(paths):
            full = os.path.join(root, path)
            uid = USER_ID if path in OWNED_BY_USER else 0
            status = os.lstat(full)
            if stat.S_ISLNK(status.st_mode):
                tar.addfile(tar_entry(path, tarfile.SYMTYPE, 0o777, mtime, linkname=os.readlink(full)))
            elif stat.S_ISDIR(status.st_mode):
                mode = 0o1777 if path in WORLD_WRITABLE else 0o700 if path in OWNED_BY_USER else 0o755
                tar.addfile(tar_entry(path + "/", tarfile.DIRTYPE, mode, mtime, uid=uid))
            elif stat.S_ISREG(status.st_mode):
                mode = 0o755 if status.st_mode & 0o100 else 0o644
                with open(full, "rb") as file:
                    tar.addfile(tar_entry(path, tarfile.REGTYPE, mode, mtime, uid=uid, size=status.st_size), file)
            else:
                sys.exit(f"oci-image.py: {full}: neither a file, a folder nor a symbolic link")
    return buffer.getvalue()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("root")
    parser.add_argument("archive")
    parser.add_argument("--version", required=True)
    parser.add_argument("--revision", required=True)
    parser.add_argument("--epoch", type=int, required=True)
    parser.add_argument("--architecture", required=True)
    parser.add_argument("--source", default="", help="the repository's public URL, when it has one")
    options = parser.parse_args()

    created = datetime.datetime.fromtimestamp(options.epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    labels = {
        "org.opencontainers.image.title": "healthetl",
        "org.opencontainers.image.description": "Health app export.zip to SQLite, CSV, a report and an MCP server",
        "org.opencontainers.image.version": options.version,
        "org.opencontainers.image.revision": options.revision,
        "org.opencontainers.image.created": created,
        # The project declares no licence yet; SPDX's word for "none stated" rather than a guess.
        "org.opencontainers.image.licenses": "NOASSERTION",
    }
    if options.source:
        labels["org.opencontainers.image.source"] = options.source
    layer = layer_tar(options.root, options.epoch)
    config = canonical_json({
        "created": created,
        "architecture": options.architecture,
        "os": "linux",
        "config": {
            "User": f"{USER_ID}:{USER_ID}",
            "Entrypoint": ["/usr/bin/healthetl"],
            "Cmd": ["--help"],
            "WorkingDir": "/data",
            "Env": ["PATH=/usr/bin", "HOME=/data"],
            "Volumes": {"/data": {}},
            "Labels": labels,
        },
        "rootfs": {"type": "layers", "diff_ids": ["sha256:" + sha256(layer)]},
        "history": [{"created": created, "created_by": "scripts/package-image"}],
    })
    manifest = canonical_json({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                   "digest": "sha256:" + sha256(config), "size": len(config)},
        "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar",
                    "digest": "sha256:" + sha256(layer), "size": len(layer)}],
        "annotations": labels,
    })
    tags = [options.version, "latest"]
    index = canonical_json({
        "schemaVersion": 2,
        "mediaType": "application/vnd.oci.image.index.v1+json",
        # One entry per tag: podman names the image from ref.name, Docker's containerd store from its annotation.
        "manifests": [{
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "digest": "sha256:" + sha256(manifest), "size": len(manifest),
            "annotations": {"org.opencontainers.image.ref.name": "localhost/healthetl:" + tag,
                            "io.containerd.image.name": "docker.io/library/healthetl:" + tag},
        } for tag in tags],
    })
    docker_manifest = canonical_json([{
        "Config": "blobs/sha256/" + sha256(config),
        "RepoTags": ["healthetl:" + tag for tag in tags],
        "Layers": ["blobs/sha256/" + sha256(layer)],
    }])

    members = {
        "oci-layout": canonical_json({"imageLayoutVersion": "1.0.0"}),
        "index.json": index,
        "manifest.json": docker_manifest,
    }
    for blob in (layer, config, manifest):
        members["blobs/sha256/" + sha256(blob)] = blob
    temporary = options.archive + ".partial"
    with tarfile.open(temporary, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for folder in ("blobs", "blobs/sha256"):
            tar.addfile(tar_entry(folder + "/", tarfile.DIRTYPE, 0o755, options.epoch))
        for path in sorted(members):
            data = members[path]
            tar.addfile(tar_entry(path, tarfile.REGTYPE, 0o644, options.epoch, size=len(data)), io.BytesIO(data))
    os.chmod(temporary, 0o644)
    os.replace(temporary, options.archive)
    print("sha256:" + sha256(manifest))


main()

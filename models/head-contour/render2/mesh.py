"""Triangle meshes and a z-buffered rasteriser with per-pixel (smooth) shading, numpy only.

Second renderer family (see README.md here): written apart from ../render.py, which splats points.
Every object is a closed triangle mesh; the rasteriser interpolates, perspective-correct, the
vertex normals, colours and surface coordinates into G-buffers, and shading happens per pixel
(look.py), so curved surfaces shade smoothly however coarse the mesh.
"""
import math

import cv2
import numpy as np


def rotation(axis, angle):
    """Rodrigues rotation matrix about `axis` by `angle` radians."""
    a = np.asarray(axis, dtype=np.float64)
    a = a / np.linalg.norm(a)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)


class Mesh:
    """Vertices (n,3), triangles (m,3), per-vertex colour (n,3), per-vertex uv (n,2), one label."""

    def __init__(self, verts, tris, colour, uv, label):
        self.verts = np.asarray(verts, dtype=np.float64)
        self.tris = np.asarray(tris, dtype=np.int64)
        n = len(self.verts)
        colour = np.asarray(colour, dtype=np.float64)
        self.colour = np.broadcast_to(colour, (n, 3)).copy() if colour.ndim == 1 else colour
        self.uv = np.zeros((n, 2)) if uv is None else np.asarray(uv, dtype=np.float64)
        self.label = label
        self.normals = vertex_normals(self.verts, self.tris)

    def transformed(self, rot, shift):
        m = Mesh.__new__(Mesh)
        m.verts = self.verts @ rot.T + shift
        m.tris, m.colour, m.uv, m.label = self.tris, self.colour, self.uv, self.label
        m.normals = self.normals @ rot.T
        return m


def vertex_normals(verts, tris):
    """Area-weighted face normals summed at the vertices, turned away from the mesh's centroid."""
    a, b, c = verts[tris[:, 0]], verts[tris[:, 1]], verts[tris[:, 2]]
    fn = np.cross(b - a, c - a)
    n = np.zeros_like(verts)
    for k in range(3):
        np.add.at(n, tris[:, k], fn)
    out = verts - verts.mean(axis=0)
    flip = (n * out).sum(1) < 0
    n[flip] *= -1
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)


def grid_mesh(points, uv, colour, label, close_u=True):
    """A mesh from a (nu, nv, 3) grid of points; u wraps around when close_u; the v ends are capped."""
    nu, nv = points.shape[:2]
    idx = np.arange(nu * nv).reshape(nu, nv)
    tris = []
    for i in range(nu if close_u else nu - 1):
        j = (i + 1) % nu
        for k in range(nv - 1):
            tris.append((idx[i, k], idx[j, k], idx[j, k + 1]))
            tris.append((idx[i, k], idx[j, k + 1], idx[i, k + 1]))
    verts = points.reshape(-1, 3)
    uvs = uv.reshape(-1, 2)
    cols = colour.reshape(-1, 3) if np.ndim(colour) == 3 else colour
    return Mesh(verts, np.array(tris), cols, uvs, label)


def ellipsoid(centre, axes, colour, label, rot=None, nu=28, nv=14):
    u = np.linspace(0, 2 * math.pi, nu, endpoint=False)
    v = np.linspace(1e-3, math.pi - 1e-3, nv)
    uu, vv = np.meshgrid(u, v, indexing="ij")
    p = np.stack([np.cos(uu) * np.sin(vv) * axes[0], np.sin(uu) * np.sin(vv) * axes[1], np.cos(vv) * axes[2]], -1)
    if rot is not None:
        p = p @ rot.T
    uv = np.stack([uu / (2 * math.pi), vv / math.pi], -1)
    return grid_mesh(p + np.asarray(centre), uv, colour, label)


def disc(centre, normal, radius, colour, label, n=40, rings=4):
    """A flat disc (with a second, slightly lower face so that it is closed), uv = (radius share, angle)."""
    nrm = np.asarray(normal, dtype=np.float64)
    nrm = nrm / np.linalg.norm(nrm)
    t1 = np.cross(nrm, [1.0, 0, 0] if abs(nrm[0]) < 0.9 else [0, 1.0, 0])
    t1 /= np.linalg.norm(t1)
    t2 = np.cross(nrm, t1)
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    rr = np.linspace(1e-3, 1, rings)
    aa, rg = np.meshgrid(a, rr, indexing="ij")
    p = np.asarray(centre) + radius * (rg[..., None] * (np.cos(aa)[..., None] * t1 + np.sin(aa)[..., None] * t2))
    m = grid_mesh(p, np.stack([rg, aa / (2 * math.pi)], -1), colour, label)
    m.normals[:] = nrm  # a flat disc: one normal, not the centroid-based guess
    return m


class Camera:
    """Pinhole at `centre` looking along -z of the rotation `rot` (world-from-camera), focal `f` in pixels."""

    def __init__(self, centre, rot, f, width, height, cx=None, cy=None):
        self.centre, self.rot, self.f = np.asarray(centre, dtype=np.float64), rot, f
        self.width, self.height = width, height
        self.cx = width / 2 if cx is None else cx
        self.cy = height / 2 if cy is None else cy

    def project(self, x):
        pc = (np.asarray(x) - self.centre) @ self.rot
        depth = -pc[..., 2]
        return np.stack([self.cx + self.f * pc[..., 0] / depth, self.cy - self.f * pc[..., 1] / depth], -1), depth


def rasterise(meshes, cam):
    """Rasterise into G-buffers. Returns depth, label (-1 = nothing), normal, colour, uv, world position.

    Visibility: every triangle facing the camera is drawn, far to near, into a triangle-ID buffer
    (OpenCV's polygon fill, 1/16-pixel vertices); each pixel then interpolates its triangle's vertex
    attributes, perspective-correct (1/depth weighted barycentrics).
    """
    h, w = cam.height, cam.width
    xys, deps, attrs, tris, labels = [], [], [], [], []
    base = 0
    for m in meshes:
        xy, dep = cam.project(m.verts)
        t = m.tris
        ok = (dep[t] > 1e-3).all(1)
        # cull faces turned away from the camera (with slack: smooth normals at the silhouette)
        view = cam.centre - m.verts[t].mean(1)
        facing = (m.normals[t].mean(1) * view).sum(1) / np.linalg.norm(view, axis=1) > -0.25
        t = t[ok & facing]
        xys.append(xy)
        deps.append(dep)
        attrs.append(np.concatenate([m.normals, m.colour, m.uv, m.verts], 1))
        tris.append(t + base)
        labels.append(np.full(len(t), m.label, dtype=np.int16))
        base += len(m.verts)
    xy, dep, attr = np.concatenate(xys), np.concatenate(deps), np.concatenate(attrs)
    tri, tlab = np.concatenate(tris), np.concatenate(labels)
    order = np.argsort(-dep[tri].mean(1), kind="stable")
    fixed = np.round(xy * 16 - 8).astype(np.int64)  # pixel centres at +0.5
    ids = np.full((h, w), -1, dtype=np.int32)
    pts = fixed[tri]
    inside = ((pts[..., 0] > -16 * w) & (pts[..., 0] < 32 * w) & (pts[..., 1] > -16 * h) & (pts[..., 1] < 32 * h)).all(1)
    for k in order:
        if inside[k]:
            cv2.fillConvexPoly(ids, pts[k].astype(np.int32), int(k), cv2.LINE_8, 4)
    zbuf = np.full((h, w), np.inf)
    lab = np.full((h, w), -1, dtype=np.int16)
    gbuf = np.zeros((h, w, attr.shape[1]))
    ys, xs = np.nonzero(ids >= 0)
    k = ids[ys, xs]
    v = tri[k]
    a, b, c = xy[v[:, 0]], xy[v[:, 1]], xy[v[:, 2]]
    gx, gy = xs + 0.5, ys + 0.5
    area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    area = np.where(np.abs(area) < 1e-9, 1e-9, area)
    w0 = ((b[:, 0] - gx) * (c[:, 1] - gy) - (b[:, 1] - gy) * (c[:, 0] - gx)) / area
    w1 = ((c[:, 0] - gx) * (a[:, 1] - gy) - (c[:, 1] - gy) * (a[:, 0] - gx)) / area
    bary = np.clip(np.stack([w0, w1, 1 - w0 - w1], 1), 0, None)  # edge pixels may fall just outside
    bary /= np.maximum(bary.sum(1, keepdims=True), 1e-12)
    iz = bary / dep[v]
    z = 1 / iz.sum(1)
    wts = iz * z[:, None]
    gbuf[ys, xs] = np.einsum("nk,nkd->nd", wts, attr[v])
    zbuf[ys, xs] = z
    lab[ys, xs] = tlab[k]
    nbuf = gbuf[..., 0:3]
    nbuf /= np.maximum(np.linalg.norm(nbuf, axis=-1, keepdims=True), 1e-9)
    return zbuf, lab, nbuf, gbuf[..., 3:6], gbuf[..., 6:8], gbuf[..., 8:11]

"""Where a tensor's elements live, as ``tensim layout`` computes it: tt-mlir's ``tt.metal_layout``
(:func:`metal`), TTNN tensor specs (:func:`ttnn`) and tt-metal's N-D buffer distributions (:func:`pages`).
Each returns a :class:`Layout`: the ``--json`` document as a dict, which draws itself in a notebook."""

from __future__ import annotations

import json
from typing import Any, Sequence

from ._cli import Scratch, build_argv, invoke

#: Options whose values are shapes written ``AxBxC`` on the command line; a tuple of ints is joined so.
_X_JOINED = {"shape", "grid", "tile", "tensor", "shard", "page", "padded_shape", "physical_shard", "grid_size",
             "virtual_grid"}


class Layout(dict):
    """A layout's JSON document (``dict``), with its picture: ``svg`` (text) and ``_repr_svg_`` for
    Jupyter. ``argv`` is the equivalent command line."""

    svg: str
    argv: list[str]

    def _repr_svg_(self) -> str:
        return self.svg

    def save_svg(self, path: str) -> str:
        """Write the picture to ``path``; returns the path."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.svg)
        return path


def _layout(kind: str, options: dict[str, Any]) -> Layout:
    opts: dict[str, Any] = {}
    for k, v in options.items():
        if k in _X_JOINED and isinstance(v, (list, tuple)) and all(isinstance(x, int) for x in v):
            v = "x".join(str(x) for x in v)
        opts[k] = v
    with Scratch() as s:
        opts.update(json=True, svg=s.path("layout.svg"))
        argv = build_argv(f"layout {kind}", [], opts, where=f"tensim.layout.{kind}()")
        r = invoke(argv)
        svg = s.read("layout.svg") or ""
    out = Layout(json.loads(r["stdout"]))
    out.svg = svg
    out.argv = [a for a in argv if not a.startswith(s.path(""))]
    return out


def metal(shape: str | Sequence[int], grid: str | Sequence[int], **options: Any) -> Layout:
    """tt-mlir's tensor layout attribute: collapse a tensor onto ``grid``, shard, tile, pad. Options:
    ``collapse`` (list of ``"START,END"``), ``map`` (an affine map), ``tile`` (``"32x32"``), ``dtype``,
    ``memspace``, ``oob``, ``index`` (``"1,1,6,100"``: where one element lands)."""
    return _layout("metal", dict(options, shape=shape, grid=grid))


def ttnn(shape: str | Sequence[int], **options: Any) -> Layout:
    """A TTNN tensor spec: padded and physical shapes, pages, shards and which core holds which page.
    Options: ``dtype``, ``layout`` (row_major, tile), ``tile``, ``memory`` (interleaved, height, width, block,
    nd), ``buffer`` (l1, dram), ``shard``, ``cores``, ``orientation``, ``pages=True`` …"""
    return _layout("ttnn", dict(options, shape=shape))


def pages(tensor: str | Sequence[int], shard: str | Sequence[int], page: str | Sequence[int], cores: str,
          **options: Any) -> Layout:
    """tt-metal's N-D buffer distribution: shards of pages dealt round-robin to ``cores``
    (``"(0,0)-(3,1)"``). Options: ``orientation``, ``strategy``, ``bytes_per_element``, ``page_bytes``,
    ``alignment``."""
    return _layout("pages", dict(options, tensor=tensor, shard=shard, page=page, cores=cores))

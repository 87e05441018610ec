"""`v8atlas inspect | verify | prune | pin`: look after bundles without the compiler or server."""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import click

from .catalog import Catalog
from .errors import BundleError
from .publish import list_bundles, pin, prune, read_newest_name, resolve_bundle_path
from .reader import Bundle


def _open(path: str) -> Bundle:
    try:
        return Bundle.open(path)
    except BundleError as e:
        raise click.ClickException(str(e)) from None


def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def summary(bundle: Bundle) -> dict:
    m = bundle.manifest
    out = {
        "bundle": bundle.id, "path": str(bundle.path), "format_version": m.get("format_version"),
        "compiler_version": m.get("compiler_version"), "content_hash": m.get("content_hash"),
        "created_at": m.get("created_at"), "size_bytes": bundle.size_bytes,
        "sources": m.get("sources", []), "counts": m.get("counts", {}), "info": m.get("info", {}),
        "segments": {k: {"size": v.get("size"), "kind": v.get("kind"), "dtype": v.get("dtype"),
                         "shape": v.get("shape")} for k, v in m["segments"].items()},
    }
    if bundle.has("docs.meta"):
        cat = Catalog(bundle)
        by_class: dict[str, Counter] = {}
        for d in range(len(cat)):
            key = cat.config_name(d) or cat.domain_name(d)
            by_class.setdefault(key, Counter())[cat.kind_name(d)] += 1
        out["documents_by_kind"] = {k: dict(sorted(v.items())) for k, v in sorted(by_class.items())}
    return out


@click.command("inspect")
@click.argument("bundle", type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.option("--report", is_flag=True, help="Print the full compile report.")
def inspect_cmd(bundle: str, as_json: bool, report: bool) -> None:
    """Manifest summary, segment sizes, counts by configuration and class."""
    b = _open(bundle)
    if report:
        click.echo(json.dumps(b.report(), ensure_ascii=False, indent=1))
        return
    s = summary(b)
    if as_json:
        click.echo(json.dumps(s, ensure_ascii=False, indent=1))
        return
    click.echo(f"bundle   {s['bundle']}")
    click.echo(f"format   {s['format_version']}  compiler {s['compiler_version']}  created {s['created_at']}")
    click.echo(f"hash     {s['content_hash']}")
    click.echo(f"size     {_human(s['size_bytes'])} in {len(s['segments'])} segments")
    click.echo("sources")
    for src in s["sources"]:
        click.echo(f"  {src['kind']:<14} {str(src.get('format', '')):<14} {_human(src['size']):>10}  "
                   f"{src['name']}")
    for group, kinds in s.get("documents_by_kind", {}).items():
        click.echo(f"{group}: {sum(kinds.values())} documents")
        for k, n in kinds.items():
            click.echo(f"  {k:<32} {n}")
    click.echo("segments")
    for name, seg in s["segments"].items():
        shape = "x".join(map(str, seg["shape"])) if seg.get("shape") is not None else ""
        click.echo(f"  {name:<28} {_human(seg['size']):>10}  {seg['kind']:<6} {seg.get('dtype') or ''} {shape}")
    rep = b.report()
    if rep:
        click.echo(f"report   {len(rep.get('errors', []))} error(s), {len(rep.get('warnings', []))} "
                   f"warning(s), {len(rep.get('unknown', []))} kind(s) of unknown element "
                   f"(--report for all)")


@click.command("verify")
@click.argument("bundle", type=click.Path(exists=True))
def verify_cmd(bundle: str) -> None:
    """Recompute every segment hash; exit 0 when intact, 1 naming the bad segment."""
    b = _open(bundle)
    problems = b.verify()
    if problems:
        for p in problems:
            click.echo(f"{b.id}: {p}", err=True)
        sys.exit(1)
    click.echo(f"{b.id}: ok ({len(b.manifest['segments'])} segments, {_human(b.size_bytes)})")


@click.command("prune")
@click.option("--bundles", "bundles_dir", required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--keep", default=5, show_default=True, type=click.IntRange(1))
def prune_cmd(bundles_dir: str, keep: int) -> None:
    """Delete old bundles, keeping the newest N, the one NEWEST names and pinned ones."""
    for p in prune(Path(bundles_dir), keep):
        click.echo(f"removed {p.name}")
    newest = read_newest_name(Path(bundles_dir))
    for e in list_bundles(Path(bundles_dir)):
        flags = " ".join(f for f, on in (("NEWEST", e.path.name == newest), ("pinned", e.pinned)) if on)
        click.echo(f"kept    {e.path.name} {flags}".rstrip())


@click.command("pin")
@click.argument("bundle", type=click.Path(exists=True))
@click.option("--unpin", is_flag=True)
def pin_cmd(bundle: str, unpin: bool) -> None:
    """Keep a bundle through retention (or release it with --unpin)."""
    try:
        path = resolve_bundle_path(bundle)
    except BundleError as e:
        raise click.ClickException(str(e)) from None
    pin(path, not unpin)
    click.echo(f"{'unpinned' if unpin else 'pinned'} {path.name}")


@click.command("publish")
@click.argument("bundle", type=click.Path(exists=True))
@click.option("--to", "url", required=True,
              help="The origin: file:///path/ (a folder) or http(s)://host/path/ (HTTP PUT, e.g. WebDAV).")
@click.option("--timeout", default=60.0, show_default=True, type=float, help="Seconds per HTTP request.")
def publish_cmd(bundle: str, url: str, timeout: float) -> None:
    """Verify BUNDLE and upload it to an origin (its files, the manifest, then NEWEST); prints
    the content hash. Servers started with `--bundles URL` pick it up on their next poll.

    A private origin's token comes from the environment: V8ATLAS_ORIGIN_TOKEN (sent as
    Authorization: Bearer)."""
    from .origin import publish

    try:
        path = resolve_bundle_path(bundle)
        digest = publish(path, url, timeout=timeout)
    except BundleError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"published {path.name} to {url} (content hash {digest})")

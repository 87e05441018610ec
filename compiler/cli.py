"""`v8atlas compile SOURCES... --out DIR`."""
from __future__ import annotations

import os
import sys

# The compile runs its work in processes, one per core; BLAS threads on top of them (the corpus
# associations' SVD) only spin against the pool: measured 2.6 s CPU with one thread, 5.9–6.1 s
# and twice the wall with OpenBLAS's default two on this 2-core machine. Set before numpy loads.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import click  # noqa: E402

from .sources import SourceError  # noqa: E402


@click.command("compile")
@click.argument("sources", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--out", "out", default="bundles", show_default=True, type=click.Path(file_okay=False),
              help="Bundles directory: the bundle is published there and NEWEST points at it.")
@click.option("--name", default=None, help="Bundle name (default: from v8atlas.toml or the sources).")
@click.option("--no-cache", is_flag=True, help="Parse every source again (ignore OUT/.cache).")
@click.option("--keep", default=5, show_default=True, type=click.IntRange(1),
              help="Retention: keep this many newest bundles (pinned ones are always kept).")
@click.option("--quiet", "-q", is_flag=True, help="No progress lines on stderr.")
@click.option("--strict", is_flag=True, help="Exit 2 when any source had errors (still publishes the rest).")
@click.option("--timings", is_flag=True, help="Print each stage's wall and CPU seconds on stderr.")
@click.option("--skip", "skip", multiple=True, metavar="DOMAIN",
              help="Leave a domain out of this compile (repeatable): code, forms, form_handlers, corpus, help, dictionary.")
def compile_cmd(sources: tuple[str, ...], out: str, name: str | None, no_cache: bool, keep: int,
                quiet: bool, strict: bool, timings: bool, skip: tuple[str, ...]) -> None:
    """Compile configuration dumps, EDT projects, help books and dictionaries into a bundle.

    The last line on stdout is the published bundle's path; progress and the report summary
    go to stderr; the full report is in the bundle (v8atlas inspect BUNDLE --report).
    """
    from .pipeline import CompileError, compile_bundle

    ends = _process_ends()
    try:
        result = compile_bundle(list(sources), out, name=name, cache=not no_cache, keep=keep, quiet=quiet,
                                skip=skip, exiting=ends)
    except SourceError as e:
        raise click.ClickException(str(e)) from None
    except CompileError as e:
        if e.report is not None:
            e.report.summarize(sys.stderr)
        raise click.ClickException(str(e)) from None
    except OSError as e:
        where = f" ({e.filename})" if e.filename else ""
        raise click.ClickException(f"cannot write the bundle{where}: {e.strerror or e}") from None
    result.report.summarize(sys.stderr)
    if timings:
        result.report.print_timings(sys.stderr)
    click.echo(str(result.bundle_path))
    status = 2 if strict and result.report.errors else 0
    if ends:
        # Every file is published and every child joined: the model the compile held is left
        # to the process's end (freeing its millions of objects one by one only costs time).
        # A closed stream is None (click.echo skips it) or fails to flush: the status stands.
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)
    if status:
        sys.exit(status)


def _process_ends() -> bool:
    """Whether this command runs as the process's entry (``v8atlas.cli.PROCESS_ENDS`` in the
    click context's ``obj``), so that the process ends when it returns — not called in-process
    by a test's or a tool's ``CliRunner``."""
    from v8atlas.cli import PROCESS_ENDS
    obj = click.get_current_context().obj
    # a profiler or a coverage tracer writes its data at the interpreter's exit: let it end
    traced = sys.getprofile() is not None or sys.gettrace() is not None
    return isinstance(obj, dict) and bool(obj.get(PROCESS_ENDS)) and not traced

"""``mrclens cache info|clear``: where the caches are, what they hold, and removing them.

``info`` lists each cache file of the cache directory (``--cache-dir``, else ``$MRCLENS_CACHE_DIR``,
``$XDG_CACHE_HOME/mrclens`` or ``~/.cache/mrclens``) with its size and entries, and the parse cache's cap
(:func:`mrclens.parsing.parse_cache_limit`); ``clear`` removes them: the caches named
(``mrclens cache clear parses``), or every one with ``--yes`` (:func:`mrclens.diskcache.clear_caches`).
Nothing else in the directory is touched; every cache is rebuilt as commands need it.
"""

from __future__ import annotations

from pathlib import Path

import click

from mrclens.cli.options import JSON_HELP, example, verbosity_options
from mrclens.io_utils import json_text


@click.command(epilog=example("mrclens cache info", "mrclens cache clear parses", "mrclens cache clear --yes"))
@click.argument("action", type=click.Choice(["info", "clear"]))
@click.argument("names", nargs=-1, metavar="[NAME]...")
@click.option("--cache-dir", type=click.Path(file_okay=False),
              help="The cache directory (default: $MRCLENS_CACHE_DIR, else $XDG_CACHE_HOME/mrclens or ~/.cache/mrclens).")
@click.option("--yes", is_flag=True, help="clear: remove every cache (without NAME, clear asks for this flag).")
@click.option("--json", "as_json", is_flag=True,
              help=JSON_HELP + " Fields: directory, caches (each: name, file, bytes, entries per table, files), "
                               "bytes; info also parse_cache_max (bytes, null: no cap); clear: removed.")
@verbosity_options
def cache(action: str, names: tuple[str, ...], cache_dir: str | None, yes: bool, as_json: bool) -> None:
    """Show (info) or remove (clear) the parse, statistics and language caches.

    \b
    mrclens cache info
        The cache directory, each cache file with its size and entries, the parse cache's cap
        ($MRCLENS_PARSE_CACHE_MAX, default 2 GiB: past it the oldest parses are removed).
    mrclens cache clear NAME... | --yes
        Remove the caches named (parses, stats, languages), or every cache with --yes. Only
        MRCLens's cache files are removed; run it when no mrclens command is running.
    """
    from mrclens.diskcache import cache_files, clear_caches, default_cache_dir, format_size
    from mrclens.parsing import PARSE_CACHE_MAX_ENV, parse_cache_limit

    directory = Path(cache_dir) if cache_dir else default_cache_dir()
    if action == "info":
        if names or yes:
            raise click.UsageError("info takes no NAME and no --yes (they are for clear)")
        caches = cache_files(directory)
        limit = parse_cache_limit()
        if as_json:
            click.echo(json_text({"directory": str(directory), "caches": [c.to_json() for c in caches],
                                  "bytes": sum(c.size for c in caches), "parse_cache_max": limit}))
            return
        click.echo(f"cache directory: {directory}" + ("" if directory.is_dir() else " (absent: nothing cached yet)"))
        for c in caches:
            entries = ("unreadable (damaged)" if c.entries is None
                       else ", ".join(f"{n:,} {table}" for table, n in c.entries.items()) or "empty")
            click.echo(f"  {c.name:<10} {c.path.name:<22} {format_size(c.size):>10}  {entries}")
        cap = "no cap" if limit is None else f"cap {format_size(limit)}"
        click.echo(f"total {format_size(sum(c.size for c in caches))} in {len(caches):,} cache file(s); "
                   f"parse cache {cap} (${PARSE_CACHE_MAX_ENV})")
        return
    if not names and not yes:
        there = sorted({c.name for c in cache_files(directory, count=False)})
        raise click.UsageError(
            f"clear removes every cache in {directory} only with --yes; or name the caches to remove "
            f"(there: {', '.join(there) or 'none'}), e.g. `mrclens cache clear parses`")
    removed = clear_caches(directory, names or None)
    freed = sum(c.size for c in removed)
    if as_json:
        click.echo(json_text({"directory": str(directory), "removed": [c.to_json() for c in removed], "bytes": freed}))
        return
    for c in removed:
        click.echo(f"removed {c.path} ({format_size(c.size)})")
    click.echo(f"cleared {len(removed):,} cache file(s), {format_size(freed)}, in {directory}")

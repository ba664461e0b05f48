"""Validate one PGN archive as Dask tasks, one task per part, and merge the parts.

    python examples/dask_validate.py ARCHIVE [PARTS] [--scheduler ADDRESS]

Without --scheduler, the run is on a local cluster of two worker processes
(`distributed.LocalCluster`); with it, on the Dask cluster at ADDRESS (for example
`tcp://scheduler:8786`), whose workers must see ARCHIVE at the same path (a shared
file system) or open it themselves (an fsspec URL: see `open_archive`). The merged
records are checked against one run over the whole file, unless --no-check is given,
and printed as JSON Lines: what `pocketfen validate --json` writes.

Each task reads its part of the archive on its own (a plain file by byte range, a pzstd,
pbzip2 or BGZF file by frame), so the work spreads over as many workers as there are
parts; only the records (the games with problems, then a summary per part) travel back.
"""

import argparse
import json
import sys

import pocketfen


def open_archive(name):
    """A path stays a path; a URL (s3://, gs://, http://...) is opened with fsspec, whose
    file objects can seek, which is all a part needs."""
    if "://" in name:
        import fsspec

        return fsspec.open(name, "rb").open()
    return name


def validate_part(name, split, all_games=False):
    """One task: the records of one part (a list of dicts)."""
    return list(pocketfen.validate(open_archive(name), split=split, jobs=1, all=all_games))


def untimed(records):
    """The records without the summary's time, which differs from run to run."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def run(name, parts, scheduler=None, all_games=False):
    """The merged records of a validation of `name` in `parts` parts on Dask."""
    from dask.distributed import Client, LocalCluster

    if scheduler is None:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(scheduler)
    try:
        splits = pocketfen.splits(open_archive(name), parts)
        futures = [client.submit(validate_part, name, s["split"], all_games, pure=False)
                   for s in splits]
        return pocketfen.merge(client.gather(futures))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("archive")
    parser.add_argument("parts", nargs="?", type=int, default=8)
    parser.add_argument("--scheduler", help="a Dask scheduler's address")
    parser.add_argument("--all", action="store_true", help="a record for every game")
    parser.add_argument("--no-check", action="store_true",
                        help="do not compare with one run over the whole file")
    args = parser.parse_args(argv)
    merged = run(args.archive, args.parts, args.scheduler, args.all)
    if not args.no_check:
        single = list(pocketfen.validate(open_archive(args.archive), all=args.all))
        if untimed(merged) != untimed(single):
            print("the merged records differ from one run over the whole file", file=sys.stderr)
            return 1
    for record in merged:
        print(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    summary = merged[-1]
    print(f"{summary['file']}: {summary['games']} games, {summary['illegal_games']} illegal, "
          f"{summary['error_games']} unreadable, in {args.parts} parts", file=sys.stderr)
    return 0 if summary["complete"] else 2


if __name__ == "__main__":
    sys.exit(main())

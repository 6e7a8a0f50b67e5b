"""argkb's benchmarks: one module per benchmark, run from the repository root.

    python -m bench                  # list them, with what each measures
    python -m bench NAME [ARGS ...]  # run one (the same as python -m bench.NAME ARGS ...)
    make bench [NAME=query ARGS="--arguments 1000"]

Each prints a markdown table with its baseline measured in the same run. Shared helpers (a
throw-away Neo4j, tables, timing) are in :mod:`bench.common`; the pipeline steps a benchmark
sets up are :mod:`argkb.pipeline`'s, the functions the CLI runs.
"""

"""Evaluation: the benchmark harnesses behind ``argkb eval``.

:mod:`~argkb.eval.harness` holds the Ranker protocol, the registry of rankers and the scoring of
runs; :mod:`~argkb.eval.adapters` wraps the query engine as rankers; one module per benchmark
(ArgKP, ArgQuality, SIGIR-19, microtexts, a judged JSONL corpus) plus the stance, side-accuracy
and sentence-pair evaluations, and ``argkb eval argrank`` (:mod:`argkb.eval.argrank`). The
metrics themselves (nDCG variants, Kendall tau, clustering agreement) are in
:mod:`argkb.eval.metrics`.
"""

"""Retrieval pieces that the query engine (:mod:`argkb.query`) and the harness build on.

The engine that answers a query is :mod:`argkb.query`. Here: claim retrieval with P(c|q)
(:mod:`~argkb.retrieve.claims`), the pf-icf and biased coreset arithmetic, rank and linear
fusion, the learned relevance filter and argumentativeness prior, Lucene escaping, search routes
that survive a missing index (:mod:`~argkb.retrieve.routes`) and the BM25/cosine baselines of
the evaluation (:mod:`~argkb.retrieve.baselines`). ``claims``, ``routes`` and ``baselines`` run
Cypher; the rest is pure.
"""

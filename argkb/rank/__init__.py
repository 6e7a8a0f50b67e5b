"""Argument relevance: the adapted PageRank of EACL 2017 and premise aggregation.

The numeric core (``pagerank``, ``transition``, ``graph_arrays``, ``aggregate``) is pure
NumPy/SciPy; :mod:`~argkb.rank.store` is the Neo4j round trip (export, compute, write back) and
:mod:`~argkb.rank.spark` the same iteration on Apache Spark, for graphs that outgrow one machine.
"""

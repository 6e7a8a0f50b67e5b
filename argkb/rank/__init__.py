"""Argument relevance: the adapted PageRank of EACL 2017 and premise aggregation (pure SciPy)."""

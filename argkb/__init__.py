"""argkb: an argument knowledge base on Neo4j.

Build the argument graph from corpora, compute argument PageRank, and answer a query claim with
ranked, deduplicated clusters of pro and con premises. See README.md and docs/.
"""

__version__ = "0.1.0"

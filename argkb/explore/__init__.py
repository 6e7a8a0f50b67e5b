"""Browse and explore the argument graph: the Cypher browsing library (``cypher/browse/``), the
Neo4j Browser style, the Bloom perspective and the GDS analytics they display."""

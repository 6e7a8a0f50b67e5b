"""``argkb serve``: the query engine and the graph behind an HTTP API (docs/serve.md).

:func:`argkb.serve.app.create_app` builds the ASGI application around one shared driver and one
embedding model loaded once; :mod:`argkb.serve.store` holds its Neo4j reads, each with a timeout.
"""

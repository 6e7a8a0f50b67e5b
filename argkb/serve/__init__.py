"""``argkb serve``: the query engine and the graph behind an HTTP API (docs/serve.md).

:func:`argkb.serve.app.create_app` builds the ASGI application around one shared driver and one
embedding model loaded once, with the token middleware and the error handlers;
:mod:`argkb.serve.routes` holds the endpoints; :mod:`argkb.serve.store` holds their Neo4j reads,
each with a timeout; :mod:`argkb.serve.protocol` the HTTP layer beneath (security headers, JSON
for the errors the HTTP server answers itself).
"""

"""Query answering: similar claims, their clustered premises, ranked pro and con."""

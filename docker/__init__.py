"""Recipes for a Neo4j server: Maven poms and neo4j.conf template (no Docker), compose.yml (Docker)."""

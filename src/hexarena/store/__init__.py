"""Persistence: SQLAlchemy 2 models and repositories; SQLite by default, PostgreSQL by URL."""

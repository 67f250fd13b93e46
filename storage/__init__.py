"""Persistence for the Dragonball judge (sqlmodel on SQLite or PostgreSQL)."""

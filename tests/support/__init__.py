"""Test support code shared by several test folders (servers, builders)."""

"""Orders: who may order what, filing them, telling the team of changes, the acknowledgement and its receipt."""

"""Orders: who may order what, reading and filing them, the order sheet, telling the team of changes, the acknowledgement."""

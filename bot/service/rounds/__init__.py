"""Rounds: opening and resolving them, provably fair dice, reports and the replay."""

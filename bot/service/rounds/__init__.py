"""Rounds: opening and resolving them, what stored rounds hold, provably fair dice, receipts, /verify, reports, the replay and the ordering-page links."""

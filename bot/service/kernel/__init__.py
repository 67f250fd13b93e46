"""The small shared core: data exchanged with channels, ports, the transaction context, outcomes, who may see what, addressing and queueing messages, texts, settings."""

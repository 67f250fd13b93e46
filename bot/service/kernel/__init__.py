"""The small shared core: the data channels exchange, ports, the transaction context, texts, settings and who may see what."""

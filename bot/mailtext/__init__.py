"""A mail's text without any I/O: decoding its charsets and HTML, and masking pass phrases in it.

Below the service and the mail channel alike: the service masks what it stores
with it (bot.masking), the mail channel reads with it (bot.mail.reading).
"""

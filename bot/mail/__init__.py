"""The e-mail channel: IMAP in (:mod:`bot.mail.imap`), SMTP out (:mod:`bot.mail.smtp`).

:mod:`bot.mail.reading` reads received mail, :mod:`bot.mail.compose` builds
the judge's mail, :mod:`bot.mail.adapter` connects both to the game service.
"""

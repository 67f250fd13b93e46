"""Messages out: queueing them for their readers, delivering them, members the bot cannot reach, ordering-page links."""

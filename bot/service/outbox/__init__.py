"""Messages out: the worker that delivers them, claiming and marking, pictures drawn on delivery, members the bot cannot reach."""

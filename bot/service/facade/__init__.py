"""The parts of :class:`~bot.service.GameService`, the one object every channel calls."""

"""Sub-commands of ``dragonball``, one module each.

Each module exposes one click command (or group) named like the command,
e.g. ``bot.commands.check_orders.check_orders``; ``bot.cli`` only imports and
registers them. Commands get the shared :class:`bot.context.AppContext` with
``@pass_app``; only those that need the configuration read ``app.config``.
"""

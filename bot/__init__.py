"""The Dragonball judge service: channels (Telegram, e-mail), game service, CLI."""

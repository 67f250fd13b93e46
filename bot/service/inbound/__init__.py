"""The way a message comes in: storing it, telling a command from orders, and carrying it out."""

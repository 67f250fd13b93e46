"""``python -m bot.i18n update|check`` (see bot/i18n/tool.py)."""

from bot.i18n.tool import main

raise SystemExit(main())

"""The service's own texts, Russian first, English second.

``t(key, lang, **params)`` fills a template; a parameter may be a callable of
the language (e.g. a deadline printed the local way), so one announcement can
be rendered for readers of either language.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

__all__ = ["LANGS", "TEXTS", "format_time", "lang_or_default", "t"]

LANGS = ("ru", "en")

# key: (Russian, English)
TEXTS: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------ general
    "raw": ("{text}", "{text}"),
    "duplicate": ("Это сообщение уже получено.", "This message was already received."),
    "internal_error": (
        "Внутренняя ошибка судьи: сообщение сохранено, судьи извещены. Попробуйте позже.",
        "The judge failed internally: your message is kept and the game masters are told. Try again later.",
    ),
    "unknown_sender": (
        "Я вас не знаю. Попросите у судьи код приглашения и пришлите: /start КОД",
        "I do not know you yet. Ask a game master for an invitation code and send: /start CODE",
    ),
    # A mail refused for its pass phrase: what was wrong, and where the phrase goes.
    "unauthenticated": (
        "Письмо не принято: нет пароля игрока. Напишите его в любой строке письма "
        "(«пароль: …») или в конце темы («… pw: …»). Если это писали не вы, сообщите судье.",
        "Message refused: it carries no player pass phrase. Put it on any line of the message "
        "(“passphrase: …”) or at the end of the subject (“… pw: …”). "
        "If you did not write it, tell a game master.",
    ),
    "unauthenticated_wrong": (
        "Письмо не принято: пароль игрока в нём неверный. Проверьте фразу (строка «пароль: …» "
        "или «pw: …» в конце темы); если забыли её, обратитесь к судье. "
        "Если это писали не вы, сообщите судье.",
        "Message refused: the player pass phrase in it is wrong. Check the phrase (a line "
        "“passphrase: …” or “pw: …” at the end of the subject); if you forgot it, ask a game "
        "master. If you did not write it, tell a game master.",
    ),
    "unauthenticated_unset": (
        "Письмо не принято: для этого адреса ещё не задан пароль игрока. Задайте его в личном "
        "чате с судьёй в Telegram командой /passphrase ФРАЗА или попросите у судьи новый код "
        "приглашения.",
        "Message refused: no player pass phrase is set for this address yet. Set one in your "
        "private Telegram chat with the judge (/passphrase PHRASE) or ask a game master for a "
        "new invitation code.",
    ),
    "gm_alert_mail_failures": (
        "Почта: писем с адреса {sender} без верного пароля за {minutes} мин: {failures} "
        "(последнее: {last}). Следующие письма с этого адреса сохраняются без ответа.",
        "E-mail: {failures} messages from {sender} without the right pass phrase within "
        "{minutes} min (last: {last}). Further ones from this address are stored unanswered.",
    ),
    "mail_too_large": (
        "Письмо слишком большое (предел {limit} байт) и не прочитано. "
        "Пришлите приказы коротким письмом, без вложений.",
        "Your message is too large (the limit is {limit} bytes) and was not read. "
        "Send your orders in a short message without attachments.",
    ),
    "unknown_command": (
        "Неизвестная команда /{command}. Список команд: /help",
        "Unknown command /{command}. Commands: /help",
    ),
    "usage": ("Как пользоваться: {usage}", "Usage: {usage}"),
    "media_text_only": (
        "Я читаю только текст. Пришлите приказы обычным сообщением (подпись к фото тоже подойдёт).",
        "I read text only. Send your orders as an ordinary message (a photo caption works too).",
    ),
    "orders_in_foreign_chat": (
        "Приказы и лист приказов — тайна команды: здесь их не принимаю и не показываю. "
        "Пишите их в чат своей команды или мне в личные сообщения.",
        "Orders and order sheets are a team's secret: I neither take nor show them here. "
        "Write them in your team's chat or to me privately.",
    ),
    "no_game": (
        "Не понятно, о какой игре речь. Ваши игры: {games}. Выберите: /game DB-N "
        "(в письме — [DB-N] в теме).",
        "Which game? Your games: {games}. Choose one: /game DB-N (by e-mail: [DB-N] in the subject).",
    ),
    "no_games": ("Вы не участвуете ни в одной игре.", "You take part in no game."),
    "game_selected": ("Текущая игра: {game}.", "Current game: {game}."),
    "unknown_game": ("Игры {game} нет.", "There is no game {game}."),
    "not_member": ("Вы не участвуете в игре {game}.", "You do not take part in game {game}."),
    "not_gm": ("Это может только судья.", "Only a game master can do that."),
    "bad_status": (
        "Игра {game} сейчас в состоянии «{status_now}», это действие невозможно.",
        "Game {game} is {status_now}: this cannot be done now.",
    ),
    "lang_set": ("Язык: русский.", "Language: English."),
    "lang_usage": ("Как пользоваться: /lang ru или /lang en", "Usage: /lang ru or /lang en"),
    "passphrase_set": (
        "Пароль для писем сохранён. Пишите его в каждом письме: в любой строке («пароль: …») "
        "или в конце темы («… pw: …»).",
        "E-mail pass phrase saved. Put it in every message: on any line (“passphrase: …”) "
        "or at the end of the subject (“… pw: …”).",
    ),
    "passphrase_usage": (
        "Как пользоваться: /passphrase ФРАЗА (не короче 8 знаков)",
        "Usage: /passphrase PHRASE (8 characters or more)",
    ),
    "rules": (
        "Правила: книга правил «Драконбол» (классические), как их читает судья — docs/rules.md. "
        "Раунд — {ticks} такта, срок приказов — {deadlines} ({timezone}).",
        "Rules: the Dragonball rule book (classic ruleset), as the judge reads it — docs/rules.md. "
        "A round is {ticks} ticks; orders are due at {deadlines} ({timezone}).",
    ),
    "help_commands": (
        "Команды: /orders — мои приказы, /clear — стереть приказы, /ready и /wait — приказы готовы "
        "или ещё нет, /status — положение игры, /verify N — проверить кости раунда N, "
        "/lang ru|en — язык, /game DB-N — выбрать игру, /rules — правила.",
        "Commands: /orders — my orders, /clear — forget my orders, /ready and /wait — my orders are "
        "final or not yet, /status — the state of the game, /verify N — check the dice of round N, "
        "/lang ru|en — language, /game DB-N — choose a game, /rules — the rules.",
    ),
    "help_gm": (
        "Команды судьи: /newgame, /addteam, /addplayer, /invite, /invitations, /revoke, /deadline, /startgame, /pause, "
        "/resume, /extend, /resolve, /rollback, /warn, /penalty, /substitute, /endgame, /announce, "
        "/linkchat, /setchannel, /as — см. docs/game-master.md.",
        "Game-master commands: /newgame, /addteam, /addplayer, /invite, /invitations, /revoke, /deadline, /startgame, "
        "/pause, /resume, /extend, /resolve, /rollback, /warn, /penalty, /substitute, /endgame, "
        "/announce, /linkchat, /setchannel, /as — see docs/game-master.md.",
    ),
    # ------------------------------------------------------------ invitations
    "bad_code": ("Код приглашения не подходит.", "That invitation code is not valid."),
    "code_used": ("Этот код уже использован.", "That invitation code has been used."),
    "code_expired": ("Срок кода приглашения истёк.", "That invitation code has expired."),
    "code_other_address": (
        "Этот код выдан для другого адреса.",
        "That invitation code was issued for another address.",
    ),
    "code_revoked": ("Это приглашение отозвано судьёй.", "That invitation was revoked."),
    "code_telegram_only": (
        "Это приглашение — для определённого пользователя Telegram: пришлите код там.",
        "That invitation is for a particular Telegram user: send the code there.",
    ),
    "code_other_user": (
        "Это приглашение выдано другому пользователю Telegram.",
        "That invitation was made for another Telegram user.",
    ),
    "code_confirm_sent": (
        "Это приглашение выдано для адреса {address}. Я отправил туда письмо с кодом "
        "подтверждения: пришлите /start КОД_ПРИГЛАШЕНИЯ КОД_ИЗ_ПИСЬМА.",
        "That invitation was made for the address {address}. I have mailed a confirmation "
        "code there: send /start INVITATION_CODE CODE_FROM_THE_LETTER.",
    ),
    "code_confirm_wrong": (
        "Код подтверждения не подходит (осталось попыток: {left}).",
        "That confirmation code is wrong ({left} tries left).",
    ),
    "code_confirm_locked": (
        "Слишком много неверных кодов подтверждения: попробуйте через час.",
        "Too many wrong confirmation codes: try again in an hour.",
    ),
    "code_confirm_busy": (
        "Это приглашение сейчас подтверждает другой пользователь.",
        "Someone else is confirming that invitation right now.",
    ),
    "invite_one_binding": (
        "Приглашение привязывается либо к адресу почты, либо к имени в Telegram, не к обоим.",
        "An invitation is bound to an e-mail address or to a Telegram username, not both.",
    ),
    "invite_bound_email": ("только для {address}", "only for {address}"),
    "invite_bound_telegram": (
        "только для @{username} в Telegram",
        "only for @{username} on Telegram",
    ),
    "invite_bound_none": ("для любого, у кого код", "for whoever has the code"),
    "invitation_confirm_mail": (
        "В Telegram {name} хочет войти в игру {game} ({role}) по приглашению, выданному "
        "для этого адреса. Если это вы, пришлите боту в Telegram до {until}:\n\n"
        "/start {code} {confirmation}\n\n"
        "Если это не вы, ничего не делайте и сообщите судье.",
        "On Telegram, {name} wants to join game {game} ({role}) with the invitation made "
        "for this address. If that is you, send the bot on Telegram before {until}:\n\n"
        "/start {code} {confirmation}\n\n"
        "If it is not you, do nothing and tell the game master.",
    ),
    "subject_invitation_confirm": (
        "Код подтверждения приглашения в игру {game}",
        "Confirmation code of your invitation to game {game}",
    ),
    "invitation_redeemed_gm": (
        "{game}: приглашение {code} ({role}{team}) использовал {who}.",
        "{game}: invitation {code} ({role}{team}) was redeemed by {who}.",
    ),
    "subject_invitation_redeemed": (
        "{game}: приглашение использовано",
        "{game}: invitation redeemed",
    ),
    "invitation_revoked": (
        "{game}: приглашение {code} отозвано. Участие прекращено: {ended}.",
        "{game}: invitation {code} revoked. Membership ended: {ended}.",
    ),
    "membership_ended": (
        "Судья отозвал ваше приглашение: вы больше не участвуете в игре {game}.",
        "The game master revoked your invitation: you no longer take part in game {game}.",
    ),
    "invitations_header": ("{game}: приглашения ({count})", "{game}: invitations ({count})"),
    "invitation_state_open": ("действует до {when}", "valid until {when}"),
    "invitation_state_used": ("использовал {who}, {when}", "redeemed by {who}, {when}"),
    "invitation_state_revoked": ("отозвано {when}", "revoked {when}"),
    "invitation_state_expired": ("истекло {when}", "expired {when}"),
    "welcome": (
        "Добро пожаловать в игру {game}! Вы — {role}{team}. Приказы пишите сюда; помощь: /help",
        "Welcome to game {game}! You are {role}{team}. Send your orders here; help: /help",
    ),
    "role_captain": ("капитан", "captain"),
    "role_player": ("игрок", "player"),
    "role_game_master": ("судья", "game master"),
    # ------------------------------------------------------------ orders
    "game_not_started": ("Игра {game} ещё не началась.", "Game {game} has not started yet."),
    "game_over": ("Игра {game} окончена.", "Game {game} is over."),
    "gm_use_as": (
        "Судья отдаёт приказы за команду так: /as left|right ПРИКАЗЫ",
        "A game master gives orders for a team like this: /as left|right ORDERS",
    ),
    "wrong_round": (
        "Эти приказы на раунд {given}, а сейчас идёт раунд {current}. Ничего не записано.",
        "These orders are for round {given}, but round {current} is being played. Nothing saved.",
    ),
    "too_late": (
        "Срок приказов на раунд {round} истёк; итоги вот-вот придут. Приказы на следующий "
        "раунд — после них.",
        "The deadline of round {round} has passed; the results are on their way. Orders for "
        "the next round after them, please.",
    ),
    "orders_none_found": (
        "В сообщении нет приказов. Как их писать: /help",
        "There are no orders in this message. How to write them: /help",
    ),
    "orders_cleared": ("Стёрто приказов: {count}.", "Orders forgotten: {count}."),
    # The answer to an order message (bot/service/acknowledge.py): its first line
    "ack_all": (
        "Раунд {round}: приказы приняты (строк: {taken}). Срок — {deadline}.",
        "Round {round}: orders taken ({taken} lines). Due {deadline}.",
    ),
    "ack_partly": (
        "Раунд {round}: приняты не все строки. Не приняты (почему — ниже): {bad}; "
        "остальные приняты (строк: {taken}). Срок — {deadline}.",
        "Round {round}: not every line was taken. Not taken (why: below): {bad}; "
        "the others were ({taken} lines). Due {deadline}.",
    ),
    "ack_nothing": (
        "Раунд {round}: ничего не принято — ошибки в строках: {bad} (почему — ниже). "
        "Лист приказов команды не изменился.",
        "Round {round}: nothing taken — errors on lines: {bad} (why: below). "
        "The team's order sheet is unchanged.",
    ),
    "ack_refused": (
        "Раунд {round}: сообщение не принято целиком (почему — ниже). "
        "Лист приказов команды не изменился.",
        "Round {round}: the message was not taken at all (why: below). "
        "The team's order sheet is unchanged.",
    ),
    "ack_edit_only": (
        "Раунд {round}: в изменённом сообщении приказов больше нет — прежние сняты (ниже).",
        "Round {round}: the edited message holds no orders any more — "
        "the earlier ones are withdrawn (below).",
    ),
    "ack_edit_errors": (
        "Раунд {round}: сообщение изменено — прежние его приказы сняты (ниже); новых не "
        "принято — ошибки в строках: {bad}.",
        "Round {round}: the message was edited — its earlier orders are withdrawn (below); "
        "no new ones taken — errors on lines: {bad}.",
    ),
    "ack_withdrawn": (
        "Сообщение изменено — сняты приказы, которые оно давало раньше:",
        "The message was edited — the orders it gave before are withdrawn:",
    ),
    "ack_cleared": ("Отменены (сняты с листа):", "Cleared (taken off the sheet):"),
    "ack_sheet": (
        "Лист приказов команды «{team}» на раунд {round}:",
        "Team “{team}”'s order sheet for round {round}:",
    ),
    "ack_sheets": ("Листы приказов на раунд {round}:", "The order sheets for round {round}:"),
    "ack_marked": (
        "✎ — строки, которые дало или изменило это сообщение.",
        "✎ — the lines this message gave or changed.",
    ),
    "not_yours": (
        "Игрок {number}: вы не можете отдавать ему приказы.",
        "Player {number}: you may not give him orders.",
    ),
    "not_your_dragon": (
        "Драконом командует капитан.",
        "Only the captain gives the dragon its orders.",
    ),
    "penalty_gm_only": (
        "Штрафной вброс назначает только судья.",
        "Only a game master orders a penalty throw-in.",
    ),
    "sheet_header": (
        "Игра {game}, раунд {round}, срок {deadline}. Приказы команды «{team}»:",
        "Game {game}, round {round}, due {deadline}. Orders of team “{team}”:",
    ),
    "sheet_empty": ("(приказов нет)", "(no orders)"),
    "missing_tick": ("{name} (такт {ticks})", "{name} (tick {ticks})"),
    "missing_ticks": ("{name} (такты {ticks})", "{name} (ticks {ticks})"),
    "ready": (
        "Команда «{team}» готова к раунду {round}. Когда обе команды готовы, раунд разыгрывается сразу.",
        "Team “{team}” is ready for round {round}. When both teams are ready the round is resolved at once.",
    ),
    "ready_member": (
        "Ваши приказы на раунд {round} окончательные; команда «{team}» ждёт остальных.",
        "Your orders for round {round} are final; team “{team}” waits for the others.",
    ),
    "waiting": ("Команда «{team}» ещё не готова.", "Team “{team}” is not ready yet."),
    "no_open_round": ("Сейчас нет открытого раунда.", "No round is open now."),
    "penalty_no_warning": (
        "Штраф команде «{team}» назначить нельзя: штраф (§10) даётся в раунде, следующем за "
        "предупреждением, а в раунде {round} её не предупреждали. Сначала /warn.",
        "No penalty for “{team}”: a penalty (§10) comes in the round after a warning, and the "
        "team was not warned in round {round}. Use /warn first.",
    ),
    "status": (
        "Игра {game} ({left} — {right}), {status_text}. Счёт {score}. Раунд {round}, срок {deadline}. "
        "Отпечаток костей раунда: {commitment}.",
        "Game {game} ({left} — {right}), {status_text}. Score {score}. Round {round}, due {deadline}. "
        "Dice commitment of the round: {commitment}.",
    ),
    "status_missing": (
        "Без приказов — «{team}»: {players}.",
        "Without orders — “{team}”: {players}.",
    ),
    "status_all_ordered": (
        "«{team}»: приказы есть у всех.",
        "“{team}”: everybody has orders.",
    ),
    "status_setup": ("подготовка", "being set up"),
    "status_running": ("идёт", "running"),
    "status_paused": ("пауза", "paused"),
    "status_ended": ("окончена", "over"),
    "reminder": (
        "Напоминание: игра {game}, раунд {round} — срок {deadline}. Нет приказов для: {players}.",
        "Reminder: game {game}, round {round} is due {deadline}. No orders yet for: {players}.",
    ),
    "subject_reminder": ("Напоминание: раунд {round}", "Reminder: round {round}"),
    # ------------------------------------------------------------ rounds
    "round_open": (
        "Игра {game}: начался раунд {round}. Срок приказов — {deadline}.\n"
        "Отпечаток костей (SHA-256 зерна): {commitment}",
        "Game {game}: round {round} has begun. Orders are due {deadline}.\n"
        "Dice commitment (SHA-256 of the seed): {commitment}",
    ),
    "subject_round_open": ("Раунд {round} начался", "Round {round} has begun"),
    "results_footer": (
        "Зерно костей: {seed}\nОтпечаток итога: {digest}\nПроверка: /verify {round}",
        "Dice seed: {seed}\nResult digest: {digest}\nCheck it: /verify {round}",
    ),
    "subject_results": ("Итоги раунда {round}", "Results of round {round}"),
    "match_end": (
        "Игра {game} окончена: {reason}. {left} — {right} {score}.",
        "Game {game} is over: {reason}. {left} — {right} {score}.",
    ),
    "subject_match_end": ("Игра окончена", "The game is over"),
    "end_reason_all_balls": ("все мячи проглочены", "every ball is swallowed"),
    "end_reason_team_swallowed": ("команда проглочена целиком", "a whole team is swallowed"),
    "end_reason_decided": ("исход уже не изменить", "the result can no longer change"),
    "end_reason_max_rounds": ("сыграны все раунды", "the last round is played"),
    "end_reason_game_master": ("решение судьи", "the game master's decision"),
    "no_snapshot": (
        "Нет сохранённой позиции раунда {round}.",
        "No stored position of round {round}.",
    ),
    "verify_no_round": ("Раунд {round} ещё не разыгран.", "Round {round} has not been resolved."),
    "verify_ok": (
        "Раунд {round} проверен: зерно {seed} даёт опубликованный отпечаток {commitment} "
        "и тот же итог ({digest}).",
        "Round {round} checks out: seed {seed} matches the published commitment {commitment} "
        "and gives the same result ({digest}).",
    ),
    "verify_failed": (
        "Раунд {round} НЕ сходится: отпечаток зерна {commitment_ok}, итог {result_ok}, позиции {state_ok}.",
        "Round {round} does NOT check out: seed commitment {commitment_ok}, result {result_ok}, "
        "positions {state_ok}.",
    ),
    "yes": ("верен", "correct"),
    "no": ("НЕВЕРЕН", "WRONG"),
    # ------------------------------------------------------------ game master
    "subject_announce": ("Сообщение судьи", "From the game master"),
    "bad_side": (
        "Команда должна быть left или right, а не «{side}».",
        "The team must be left or right, not “{side}”.",
    ),
    "bad_ruleset": ("Правил «{ruleset}» нет: {error}", "No ruleset “{ruleset}”: {error}"),
    "bad_schedule": ("Срок не понят: {error}", "Deadline not understood: {error}"),
    "bad_players_per_team": ("Игроков в команде: от 1 до {max}.", "Players per team: 1 to {max}."),
    "bad_role": (
        "Роль: captain, player или game_master, а не «{role}».",
        "Role: captain, player or game_master, not “{role}”.",
    ),
    "bad_tick": ("Такт — от 1 до {ticks}, а не {tick}.", "The tick is 1 to {ticks}, not {tick}."),
    "bad_number": ("Не число: «{value}».", "Not a number: “{value}”."),
    "bad_duration": (
        "Не понял срок «{value}»: пишите 2h, 30m, 1d или ЧЧ:ММ.",
        "Cannot read “{value}”: write 2h, 30m, 1d or HH:MM.",
    ),
    "game_created": (
        "Игра {game} создана: срок {deadlines} ({timezone}). Дальше: /addteam, /addplayer, /invite, /startgame.",
        "Game {game} created: due {deadlines} ({timezone}). Next: /addteam, /addplayer, /invite, /startgame.",
    ),
    "team_added": ("{game}: команда {side} — «{name}».", "{game}: team {side} is “{name}”."),
    "player_added": (
        "{game}: игрок {number} команды {side} — {name}.",
        "{game}: player {number} of team {side} is {name}.",
    ),
    "invited": (
        "{game}: код приглашения ({role}, {side}; {bound}; действует до {expires}): {code}\n"
        "Пусть пришлёт боту: /start {code}",
        "{game}: invitation code ({role}, {side}; {bound}; valid until {expires}): {code}\n"
        "The invitee sends the judge: /start {code}",
    ),
    "invited_link": (
        "{game}: код приглашения ({role}, {side}; {bound}; действует до {expires}): {code}\n"
        "Ссылка для приглашённого: {link}\n"
        "Или пусть пришлёт боту: /start {code}",
        "{game}: invitation code ({role}, {side}; {bound}; valid until {expires}): {code}\n"
        "Link for the invitee: {link}\n"
        "Or the invitee sends the judge: /start {code}",
    ),
    "invite_button": ("Приглашение: открыть бота", "Invitation: open the bot"),
    "deadline_set": (
        "Игра {game}: срок приказов теперь {deadlines} ({timezone}); срок этого раунда — {deadline}.",
        "Game {game}: orders are now due at {deadlines} ({timezone}); this round is due {deadline}.",
    ),
    "need_two_teams": (
        "Сначала нужны обе команды: /addteam left … и /addteam right …",
        "Both teams are needed first: /addteam left … and /addteam right …",
    ),
    "need_players": (
        "В команде {side} {count} игроков, нужно не меньше {needed}.",
        "Team {side} has {count} players, {needed} are needed.",
    ),
    "game_started": (
        "Игра {game} началась: {left} против {right}! Зерно начальной расстановки: {setup_seed}",
        "Game {game} has started: {left} against {right}! Seed of the opening position: {setup_seed}",
    ),
    "game_started_gm": (
        "Игра {game} запущена, первый срок — {deadline}.",
        "Game {game} is on; the first deadline is {deadline}.",
    ),
    "paused": (
        "Судья приостановил игру {game}: {reason}.",
        "The game master paused game {game}: {reason}.",
    ),
    "resumed": (
        "Судья возобновил игру {game}. Срок раунда — {deadline}.",
        "The game master resumed game {game}. The round is due {deadline}.",
    ),
    "deadline_in_past": ("Срок {deadline} уже прошёл.", "The time {deadline} is already past."),
    "extended": (
        "Судья продлил раунд {round} игры {game} до {deadline}.",
        "The game master extended round {round} of game {game} to {deadline}.",
    ),
    "resolved_by_gm": (
        "Судья разыгрывает раунд {round} игры {game} досрочно.",
        "The game master resolves round {round} of game {game} now.",
    ),
    "resolved": ("{game}: раунд {round} разыгран.", "{game}: round {round} resolved."),
    "nothing_to_roll_back": (
        "Откатывать нечего: ни один раунд не разыгран.",
        "Nothing to roll back: no round has been resolved.",
    ),
    "rolled_back": (
        "Судья отменил итоги раунда {round} игры {game}: раунд будет разыгран заново с новым зерном; "
        "приказы на него остаются в силе.",
        "The game master rolled back round {round} of game {game}: it will be played again with a new "
        "seed; the orders for it still stand.",
    ),
    "warned": (
        "Судья предупреждает команду «{team}» (§10, предупреждение {count}): {reason}.",
        "The game master warns team “{team}” (§10, warning {count}): {reason}.",
    ),
    "penalty_ordered": (
        "Судья назначил команде «{team}» штрафной вброс в такте {tick} раунда {round} (§10).",
        "The game master ordered a penalty throw-in against team “{team}” at tick {tick} of round {round} (§10).",
    ),
    "bad_substitution": (
        "Замена {out} → {inn} невозможна: выходит игрок не проглоченный, входит запасной.",
        "Substitution {out} → {inn} is impossible: the one going off must not be swallowed, the one coming on must be a reserve.",
    ),
    "substituted": (
        "Судья назначил замену в раунде {round}: {out} → {inn}.",
        "The game master substitutes in round {round}: {out} → {inn}.",
    ),
    "ended_by_gm": (
        "Судья завершил игру {game}. Счёт {score}. {reason}",
        "The game master ended game {game}. Score {score}. {reason}",
    ),
    "gm_announcement": ("Судья: {text}", "Game master: {text}"),
    "announced": ("{game}: объявление разослано.", "{game}: announcement sent."),
    "team_chat_linked": (
        "Чат команды «{team}» подключён к игре {game}.",
        "The chat of team “{team}” is linked to game {game}.",
    ),
    "channel_set": (
        "Канал отчётов игры {game} задан.",
        "The report channel of game {game} is set.",
    ),
    "gm_alert_dead": (
        "Не удаётся доставить сообщения: {channel} {destination} ({reason}), попыток: {attempts}.",
        "Messages cannot be delivered: {channel} {destination} ({reason}), attempts: {attempts}.",
    ),
    "subject_gm_alert": ("Судье: сбой доставки", "To the game master: delivery failure"),
    "gm_alert_resolution": (
        "Раунд игры {game} не удаётся разыграть: {error}. Раунд остаётся открытым, судья "
        "пробует снова каждую минуту; можно поставить игру на паузу (/pause).",
        "The round of game {game} cannot be resolved: {error}. It stays open and the judge "
        "tries again every minute; you may pause the game (/pause).",
    ),
    "gm_alert_error": (
        "Сбой при обработке сообщения {external_id} ({channel}, от {sender}): {error}",
        "Processing message {external_id} ({channel}, from {sender}) failed: {error}",
    ),
    # ------------------------------------------------------------ audiences (audience.py)
    "audience_rest_private": (
        "(Здесь — только то, что могут видеть все читатели этого чата; полностью — в личном "
        "чате со мной.)",
        "(Shown here: only what every reader of this chat may see; the whole of it in a "
        "private chat with me.)",
    ),
    "audience_rest_withheld": (
        "(Здесь — только то, что могут видеть все читатели этого чата.)",
        "(Shown here: only what every reader of this chat may see.)",
    ),
    "audience_sent_private": (
        "Ответил в личные сообщения: здесь это видно не всем, кому можно.",
        "Answered privately: not everyone here may see it.",
    ),
    "audience_not_here": (
        "Здесь этого не показываю: это видно не всем читателям чата.",
        "Not shown here: not every reader of this chat may see it.",
    ),
    "private_input_only": (
        "Это пишут только мне в личные сообщения или письмом. Если это был пароль — "
        "он больше не тайна: придумайте новый.",
        "Send this only in a private chat with me or by e-mail. If it was a pass phrase, "
        "it is no longer secret: choose a new one.",
    ),
    "team_chat_public": (
        "Это публичный канал игры: чат команды должен быть своим, только для неё.",
        "That is the game's public channel: a team's chat must be its own.",
    ),
    "team_chat_other_team": (
        "Этот чат уже подключён к команде «{team}»: у каждой команды свой чат.",
        "That chat is already linked to team “{team}”: each team has its own.",
    ),
    # ------------------------------------------------------------ sheet changes (changes.py)
    "sheet_changed": (
        "{game}, раунд {round}: приказы вашей команды изменил(а) {who}.",
        "{game}, round {round}: your team's orders were changed by {who}.",
    ),
    "sheet_changed_cleared": ("Стёрты приказы: {pieces}.", "Orders cleared: {pieces}."),
    "sheet_changed_footer": ("Весь лист: /orders", "The whole sheet: /orders"),
    "sheet_piece_dragon": ("дракон", "the dragon"),
    "sheet_piece_substitution": ("замена {name}", "substitution of {name}"),
    "subject_sheet_changed": (
        "{game}: приказы команды изменены (раунд {round})",
        "{game}: your team's orders changed (round {round})",
    ),
    "group_lang_set": ("Язык этого чата: русский.", "This chat's language: English."),
    "group_lang_unlinked": (
        "Язык задаётся только в чате команды; свой язык ответов выберите в личном чате: /lang.",
        "Only a team's chat has a language of its own; choose yours in a private chat: /lang.",
    ),
    "group_lang_captain": (
        "Язык чата команды меняет её капитан или судья.",
        "A team chat's language is changed by its captain or a game master.",
    ),
}


def lang_or_default(lang: str | None, default: str = "ru") -> str:
    return lang if lang in LANGS else default


class _Params(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(key: str, lang: str, **params: object) -> str:
    """The text ``key`` in ``lang`` (Russian for anything else), filled in."""
    ru, en = TEXTS[key]
    template = en if lang == "en" else ru
    values = _Params({k: v(lang) if callable(v) else v for k, v in params.items()})
    return template.format_map(values)


def format_time(when: datetime, zone: str, lang: str) -> str:
    """A deadline as its readers expect it: local time and the zone's name."""
    local = when.astimezone(ZoneInfo(zone))
    day = local.strftime("%d.%m.%Y") if lang == "ru" else local.strftime("%Y-%m-%d")
    return f"{day} {local:%H:%M} ({zone})"

// The ordering page: the field from the judge's own drawing (SVG), taps turned
// into orders in the order language, every change checked by the judge.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const tg = window.Telegram && window.Telegram.WebApp ? window.Telegram.WebApp : null;
  let auth = "";
  let lang = null;
  let data = null;
  let orders = { players: [], dragons: [], substitutions: [], penalties: [] };
  // Orders on file the player takes off ({number, tick}; number null: the dragon).
  let clears = [];
  let sel = { number: null, tick: null, actTick: null, ball: null, mode: "move", dragon: false };
  let options = null;
  let targets = null;
  let odds = [];
  let dragonViews = {};
  let paths = {};
  let T = {};

  // A personal link comes in the address's fragment (#link=…), which the
  // browser sends to no server. It is kept in this tab's sessionStorage and
  // taken out of the address, so that neither the history nor a copied
  // address holds it; a reload finds it there.
  function credentials() {
    const query = new URLSearchParams(location.search);
    const hash = new URLSearchParams(location.hash.slice(1));
    lang = query.get("lang");
    if (tg && tg.initData) return "tma " + tg.initData;
    if (hash.get("tgWebAppData")) return "tma " + hash.get("tgWebAppData");
    let link = hash.get("link");
    try {
      if (link) {
        sessionStorage.setItem("dragonball-link", link);
        history.replaceState(null, "", location.pathname + location.search);
      } else {
        link = sessionStorage.getItem("dragonball-link");
      }
    } catch (e) { /* storage off: the link lives as long as the address */ }
    return link ? "link " + link : "";
  }

  // Calls under way: while any is, taps wait (the legal cells may be changing).
  let pending = 0;
  function working(delta) {
    pending += delta;
    document.body.dataset.busy = String(pending);
  }

  async function call(path, body) {
    working(1);
    try {
      let res, json;
      try {
        res = await fetch(path, {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: auth },
          body: JSON.stringify(Object.assign({ lang: lang }, body)),
        });
        json = await res.json();
      } catch (err) {  // no answer, or not the judge's (a proxy's error page)
        throw new Error(T.network || "Нет связи с судьёй. / No connection to the judge.");
      }
      if (!res.ok) throw new Error(json.message || json.why || json.error || String(res.status));
      if (data && json.round && json.round !== data.round) moved();
      return json;
    } finally {
      working(-1);
    }
  }

  // One user action at a time: a tap while the judge is still answering the
  // last one is taken up after it, against the new legal cells.
  let queue = Promise.resolve();
  function serial(fn) {
    return (...args) => {
      working(1);
      queue = queue.then(() => fn(...args)).catch((err) => status(String(err.message || err), true)).finally(() => working(-1));
      return queue;
    };
  }

  // The round the page was opened for has been played: its field and orders
  // are out of date. Say so, offer a reload, and take no more taps.
  let stale = false;
  function moved() {
    stale = true;
    $("controls").classList.add("stale");
    $("submit").disabled = true;
    const reload = button(T.reload, false, () => location.reload(), { id: "reload" });
    reload.className = "primary";
    $("hint").replaceChildren(reload);
    throw new Error(T.round_moved.replace("{round}", data.round));
  }

  function status(text, refused) {
    const el = $("status");
    el.textContent = text || "";
    el.className = refused ? "refused" : "";
  }

  function button(label, on, click, attrs) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (on) b.className = "on";
    b.addEventListener("click", click);
    for (const [k, v] of Object.entries(attrs || {})) b.setAttribute(k, v);
    return b;
  }

  function cellGroups(cell) {
    return document.querySelectorAll('#field g[data-role="cell"][data-cell="' + cell + '"]');
  }

  function mark(cells, cls) {
    document.querySelectorAll("#field g." + cls).forEach((g) => g.classList.remove(cls));
    for (const c of cells) cellGroups(c).forEach((g) => g.classList.add(cls));
  }

  function me(number) {
    return data.state.players.find((p) => p.side === data.side && p.number === number);
  }

  function orderOf(number, tick) {
    return orders.players.find((o) => o.number === number && o.tick === tick) || null;
  }

  function dragonOrder(tick) {
    return orders.dragons.find((o) => o.tick === tick) || null;
  }

  // ------------------------------------------------------------ drawing
  function renderControls() {
    const players = $("players");
    players.replaceChildren();
    for (const n of data.numbers) {
      const p = me(n);
      players.append(button(p ? p.name : String(n), sel.number === n && !sel.dragon, () => pickPlayer(n), { "data-number": n }));
    }
    if (data.dragon) players.append(button(T.dragon, sel.dragon, pickDragon, { "data-dragon": "1" }));
    const ticks = $("ticks");
    ticks.replaceChildren();
    for (const tick of data.ticks) {
      const done = sel.dragon ? dragonOrder(tick) : orderOf(sel.number, tick);
      const label = T.tick.replace("{tick}", tick) + (done ? " ✓" : "");
      ticks.append(button(label, sel.tick === tick, () => pickTick(tick), { "data-tick": tick }));
    }
    const route = sel.dragon ? {} : paths[String(sel.number)] || {};
    mark(Object.values(route).map((at) => at[0]), "path");
    renderHeights();
    renderActions();
    renderDragon();
  }

  function renderHeights() {
    const box = $("heights");
    box.replaceChildren();
    const o = sel.dragon ? null : orderOf(sel.number, sel.actTick);
    if (!o || !options) return;
    const label = document.createElement("span");
    label.id = "editing";
    label.textContent = T.editing.replace("{tick}", o.tick) + ":";
    box.append(label);
    // The heights he may fly at to that cell on that tick (not the next
    // tick's, which the lit cells are for).
    const move = targets && targets.move;
    for (const h of data.heights) {
      const legal = move && move.heights.includes(h);
      const b = button(T.height.replace("{height}", h), o.height === h, () => setHeight(h), { "data-height": h });
      b.disabled = !legal;
      box.append(b);
    }
    box.append(clearButton(o.number, o.tick));
  }

  function nameOf(word) {
    return (data.names && data.names[word]) || word;
  }

  function clearButton(number, tick) {
    return button(T.clear_player, false, () => clearOrder(number, tick), { "data-clear": number === null ? "dragon" : number });
  }

  function chancesOf(number, tick) {
    const found = odds.find((x) => x.number === number && x.tick === tick);
    return found ? found.chances : [];
  }

  function renderActions() {
    const box = $("actions");
    const balls = $("balls");
    const spells = $("spells");
    box.replaceChildren();
    balls.replaceChildren();
    spells.replaceChildren();
    const o = sel.dragon ? null : orderOf(sel.number, sel.actTick);
    if (!o || !targets) return;
    const kind = o.action ? o.action.type : "none";
    box.append(button(T.action_none, kind === "none", () => setAction(null), { "data-action": "none" }));
    const c = button(T.action_catch, kind === "catch", () => setAction({ type: "catch", ball: null, counter: null }), { "data-action": "catch" });
    c.disabled = !targets.catch;
    box.append(c);
    const p = button(T.action_pass, kind === "pass" || sel.mode === "pass", () => passMode(), { "data-action": "pass" });
    p.disabled = Object.keys(targets.passes).length === 0;
    box.append(p);
    const s = button(T.action_steal, kind === "steal" || sel.mode === "steal", () => stealMode(), { "data-action": "steal" });
    s.disabled = targets.steals.length === 0;
    box.append(s);
    if (sel.mode === "pass") {
      for (const ball of Object.keys(targets.passes)) {
        balls.append(button(nameOf(ball), sel.ball === ball, () => { sel.ball = ball; showPassTargets(); renderActions(); }, { "data-ball": ball }));
      }
    }
    if (kind === "pass" || kind === "catch") {
      const words = kind === "pass" ? data.spells : data.counters;
      const current = kind === "pass" ? o.action.spell : o.action.counter;
      spells.append(button(T.no_spell, !current, () => setSpell(null)));
      for (const w of words) spells.append(button(nameOf(w), current === w, () => setSpell(w), { "data-spell": w }));
    }
    const lines = chancesOf(sel.number, sel.actTick);
    if (lines.length) {
      const note = document.createElement("div");
      note.id = "action-odds";
      note.textContent = T.odds + ": " + lines.join("; ");
      box.append(note);
    }
  }

  function renderDragon() {
    const box = $("dragon");
    box.replaceChildren();
    if (!sel.dragon || !sel.tick) return;
    const o = dragonOrder(sel.tick) || { side: data.side, tick: sel.tick, move: "stay", height_step: 0, fire: null };
    const set = (patch) => setDragon(Object.assign({}, o, patch));
    for (const [move, key] of [["forward", "dragon_forward"], ["left", "dragon_left"], ["right", "dragon_right"], ["stay", "dragon_stay"]]) {
      box.append(button(T[key], o.move === move, () => set({ move: move }), { "data-move": move }));
    }
    box.append(button(T.dragon_up, o.height_step === 1, () => set({ height_step: o.height_step === 1 ? 0 : 1 })));
    box.append(button(T.dragon_down, o.height_step === -1, () => set({ height_step: o.height_step === -1 ? 0 : -1 })));
    // This edition's flames (classic: flame, volley; the second edition: jet,
    // wall) and strikes (tail, wings): one of them a tick.
    const strikes = data.strikes || [];
    const none = strikes.length ? T.action_none : T.fire_none;
    box.append(button(none, !o.fire && !o.strike, () => set({ fire: null, strike: null }), { "data-fire": "null" }));
    for (const fire of data.fires) {
      box.append(button(T["fire_" + fire], o.fire === fire, () => set({ fire: fire, strike: null }), { "data-fire": fire }));
    }
    for (const strike of strikes) {
      box.append(button(T["strike_" + strike], o.strike === strike, () => set({ strike: strike, fire: null }), { "data-strike": strike }));
    }
    if (dragonOrder(sel.tick)) box.append(clearButton(null, sel.tick));
    // Its cells and fire at that tick (none foreseen: nothing lit, not the
    // marks of the player chosen before).
    const view = dragonViews[sel.tick];
    mark(view ? view.fire : [], "target");
    mark(view ? [view.head, view.body, view.tail] : [], "path");
  }

  // ------------------------------------------------------------ choosing
  function pickPlayer(n) {
    sel = { number: n, tick: data.ticks[0], actTick: null, ball: null, mode: "move", dragon: false };
    const first = data.ticks.find((tick) => !orderOf(n, tick));
    sel.tick = first || data.ticks[0];
    loadOptions();
  }

  function pickDragon() {
    sel = { number: null, tick: data.ticks[0], actTick: null, ball: null, mode: "move", dragon: true };
    mark([], "legal");
    mark([], "dim");
    $("hint").textContent = T.dragon_hint;
    renderControls();
  }

  function pickTick(tick) {
    sel.tick = tick;
    sel.mode = "move";
    if (sel.dragon) { mark([], "target"); mark([], "path"); renderControls(); return; }
    sel.actTick = orderOf(sel.number, tick) ? tick : null;
    loadOptions();
  }

  async function loadOptions() {
    options = null;
    renderControls();
    $("hint").textContent = T.pick_cell;
    options = await call("/api/options", { text: $("text").value, number: sel.number, tick: sel.tick });
    mark(options.moves.map((m) => m.cell), "legal");
    mark([], "target");
    mark([], "dim");
    if (sel.actTick) await loadTargets();
    renderControls();
  }

  async function loadTargets() {
    const o = orderOf(sel.number, sel.actTick);
    targets = null;
    if (!o) return;
    const found = await call("/api/targets", { text: $("text").value, number: sel.number, tick: o.tick, cell: o.cell, height: o.height });
    const there = await call("/api/options", { text: $("text").value, number: sel.number, tick: o.tick });
    found.move = there.moves.find((m) => m.cell === o.cell) || null;
    targets = found;
  }

  function passMode() {
    sel.mode = "pass";
    sel.ball = sel.ball && targets.passes[sel.ball] ? sel.ball : Object.keys(targets.passes)[0];
    showPassTargets();
    renderActions();
  }

  function showPassTargets() {
    const cells = targets.passes[sel.ball].map((x) => x.cell);
    mark(cells, "target");
    const all = Array.from(document.querySelectorAll('#field g[data-role="cell"]')).map((g) => Number(g.dataset.cell));
    mark(all.filter((c) => !cells.includes(c)), "dim");
    $("hint").textContent = T.pick_target;
  }

  function stealMode() {
    sel.mode = "steal";
    const cells = data.state.players.filter((p) => p.side !== data.side && targets.steals.includes(p.number)).map((p) => p.cell);
    mark(cells, "target");
    $("hint").textContent = T.pick_target;
    renderActions();
  }

  function refuse(cell) {
    cellGroups(cell).forEach((g) => { g.classList.add("refused"); setTimeout(() => g.classList.remove("refused"), 600); });
    status(T.refused_cell.replace("{cell}", cell), true);
  }

  async function tap(cell) {
    if (stale) return moved();
    if (sel.dragon || sel.number === null) return;
    if (sel.mode === "pass") {
      const spot = targets.passes[sel.ball].find((x) => x.cell === cell);
      if (!spot) return refuse(cell);
      const o = orderOf(sel.number, sel.actTick);
      const height = spot.heights.includes(o.height) ? o.height : spot.heights[0];
      sel.mode = "move";
      return setAction({ type: "pass", ball: sel.ball, cell: cell, height: height, spell: null });
    }
    if (sel.mode === "steal") {
      const foe = data.state.players.find((p) => p.side !== data.side && p.cell === cell && targets.steals.includes(p.number));
      if (!foe) return refuse(cell);
      sel.mode = "move";
      return setAction({ type: "steal", target: foe.number });
    }
    const move = options && options.moves.find((m) => m.cell === cell);
    if (!move) return refuse(cell);
    const before = orderOf(sel.number, sel.tick);
    const from = options.from;
    const height = from && move.heights.includes(from[1]) ? from[1] : move.heights[0];
    putOrder({ side: data.side, number: sel.number, tick: sel.tick, cell: cell, height: height, action: before ? before.action : null });
    sel.actTick = sel.tick;
    const next = data.ticks.find((tick) => tick > sel.tick);
    await sync();
    await loadTargets();
    if (next) sel.tick = next;
    await loadOptions();
  }

  function putOrder(o) {
    clears = clears.filter((c) => !(c.number === o.number && c.tick === o.tick));
    orders.players = orders.players.filter((x) => !(x.number === o.number && x.tick === o.tick));
    orders.players.push(o);
  }

  async function setHeight(h) {
    const o = orderOf(sel.number, sel.actTick);
    putOrder(Object.assign({}, o, { height: h }));
    await sync();
    await loadTargets();
    await loadOptions();
  }

  async function setAction(action) {
    const o = orderOf(sel.number, sel.actTick);
    putOrder(Object.assign({}, o, { action: action }));
    sel.mode = "move";
    mark([], "dim");
    await sync();
    await loadOptions();
  }

  async function setSpell(word) {
    const o = orderOf(sel.number, sel.actTick);
    const action = Object.assign({}, o.action);
    if (action.type === "pass") action.spell = word; else action.counter = word;
    await setAction(action);
  }

  async function setDragon(o) {
    clears = clears.filter((c) => !(c.number === null && c.tick === o.tick));
    orders.dragons = orders.dragons.filter((x) => x.tick !== o.tick);
    orders.dragons.push(o);
    await sync();
    renderControls();
  }

  // Takes the order off the draft; one on file is taken off the sheet too (a
  // clear line, «Иванов т2: отмена», goes first in the text sent).
  async function clearOrder(number, tick) {
    if (number === null) orders.dragons = orders.dragons.filter((x) => x.tick !== tick);
    else orders.players = orders.players.filter((x) => !(x.number === number && x.tick === tick));
    if (!clears.some((c) => c.number === number && c.tick === tick)) clears.push({ number: number, tick: tick });
    await sync();
    if (number === null) { renderControls(); return; }
    sel.actTick = null;
    sel.tick = tick;
    sel.mode = "move";
    targets = null;
    await loadOptions();
  }

  // ------------------------------------------------------------ the judge's reading
  function showCheck(res) {
    $("errors").textContent = res.errors;
    odds = res.order_odds;
    dragonViews = res.dragon || {};
    paths = res.paths || {};
    const list = $("odds");
    list.textContent = res.odds.length ? T.odds + ":\n" + res.odds.join("\n") : res.odds_note || "";
    if (res.ok) status(T.check_ok, false);
  }

  async function sync() {
    const res = await call("/api/check", { orders: orders, clears: clears });
    $("text").value = res.text;
    orders = res.orders;
    showCheck(res);
    keep();
  }

  // The draft not yet sent survives a reload (Telegram reloads a Mini App
  // pulled down): kept for this game, round and team in the tab's storage.
  // Only what the player changed on the page is kept — each order he set or
  // took off (per player and tick, the dragon per tick, a substitution), with
  // the order on file it replaced — never his team-mates' orders as they
  // stood when the page was opened: after a reload his changes are put over
  // the sheet on file now.
  let base = { players: [], dragons: [], substitutions: [], penalties: [] };  // the sheet on file
  function draftKey() {
    return "dragonball-edits:" + data.game + ":" + data.round + ":" + data.side;
  }
  const same = (a, b) => JSON.stringify(a || null) === JSON.stringify(b || null);
  const playerKey = (o) => "p" + o.number + ":" + o.tick;
  const dragonKey = (o) => "d" + o.tick;
  const subKey = (o) => "s" + o.out;
  function keyed(sheet) {
    const m = new Map();
    for (const o of sheet.players || []) m.set(playerKey(o), o);
    for (const o of sheet.dragons || []) m.set(dragonKey(o), o);
    for (const o of sheet.substitutions || []) m.set(subKey(o), o);
    return m;
  }
  // What the draft changes on the sheet: {key, was, order} (order null: taken off).
  function edits() {
    const now = keyed(orders);
    const was = keyed(base);
    const out = [];
    for (const key of new Set([...was.keys(), ...now.keys()])) {
      if (key[0] === "s" && !now.has(key)) continue;  // (the merge rule keeps a substitution on file)
      if (!same(was.get(key), now.get(key))) out.push({ key: key, was: was.get(key) || null, order: now.get(key) || null });
    }
    return out;
  }
  function keep() {
    try {
      const changed = edits();
      if (changed.length) sessionStorage.setItem(draftKey(), JSON.stringify({ edits: changed }));
      else sessionStorage.removeItem(draftKey());
    } catch (e) { /* storage off */ }
  }
  function kept() {
    try {
      const draft = JSON.parse(sessionStorage.getItem(draftKey()) || "null");
      return draft && Array.isArray(draft.edits) ? draft.edits : [];
    } catch (e) { return []; }
  }
  function forget() {
    try { sessionStorage.removeItem(draftKey()); } catch (e) { /* storage off */ }
  }
  function editLabel(e) {
    const o = e.order || e.was;
    if (e.key[0] === "s") return T.draft_substitution;
    const who = e.key[0] === "d" ? T.dragon : (me(o.number) ? me(o.number).name : String(o.number));
    return T.draft_item.replace("{name}", who).replace("{tick}", o.tick);
  }
  // The kept changes put over the sheet on file now. One whose order on file
  // has changed since (a team-mate sent a new one) is not put back: the new
  // one stays, and the player is told.
  function restore(changed) {
    const now = keyed(base);
    const put = [];
    const dropped = [];
    for (const e of changed) {
      if (!e || typeof e.key !== "string" || !(e.order || e.was)) continue;
      if (!same(now.get(e.key), e.was)) { if (!same(now.get(e.key), e.order)) dropped.push(e); continue; }
      if (e.order) now.set(e.key, e.order); else now.delete(e.key);
      put.push(e);
    }
    const values = [...now.entries()];
    orders = {
      players: values.filter(([k]) => k[0] === "p").map(([, o]) => o),
      dragons: values.filter(([k]) => k[0] === "d").map(([, o]) => o),
      substitutions: values.filter(([k]) => k[0] === "s").map(([, o]) => o),
      penalties: [],
    };
    clears = put.filter((e) => !e.order && e.key[0] !== "s").map((e) => ({ number: e.key[0] === "d" ? null : e.was.number, tick: e.was.tick }));
    const lines = [];
    if (put.length) lines.push(T.draft_restored.replace("{orders}", put.map(editLabel).join("; ")));
    if (dropped.length) lines.push(T.draft_dropped.replace("{orders}", dropped.map(editLabel).join("; ")));
    return lines;
  }

  // Typing is read by the judge once the player pauses.
  let typing = null;
  async function recheck() {
    typing = null;
    const res = await call("/api/check", { text: $("text").value });
    orders = res.orders;
    showCheck(res);
    renderControls();
    keep();
  }
  function edited() {
    clearTimeout(typing);
    typing = setTimeout(serial(recheck), 400);
  }

  // After every tap and edit before it has been read (a slow network): what
  // is sent is the text shown.
  // The text sent is the whole sheet shown: had the sheet on file changed
  // since the page read it (a team-mate sent orders meanwhile), sending it
  // would put his old orders back.  Then the page is brought up to date —
  // the sheet on file now with this player's own changes over it, as after a
  // reload — and nothing is sent until he has seen it and sends again.
  async function overtaken() {
    const fresh = (await call("/api/check", { text: "" })).orders;
    const now = keyed(fresh);
    const was = keyed(base);
    if (now.size === was.size && [...now].every(([k, o]) => same(o, was.get(k)))) return false;
    const changed = edits();
    base = JSON.parse(JSON.stringify(fresh));
    const lines = restore(changed);
    const res = await call("/api/check", { orders: orders, clears: clears });
    $("text").value = res.text;
    orders = res.orders;
    showCheck(res);
    keep();
    renderControls();
    status([T.sheet_changed, ...lines].join(" "), true);
    return true;
  }

  async function submit() {
    if (stale) return moved();
    if (typing) { clearTimeout(typing); await recheck(); }
    if (await overtaken()) return;
    const res = await call("/api/submit", { text: $("text").value });
    const taken = res.status === "ok" || res.status === "partial";
    if (taken) {  // on file now: later changes are counted from the sheet as it is
      clears = [];
      forget();
      base = (await call("/api/check", { text: "" })).orders;
    }
    status((taken ? T.sent + " " : "") + res.text, !taken);
    if (tg && tg.HapticFeedback) tg.HapticFeedback.notificationOccurred("success");
  }

  const tapped = serial(tap);

  async function start() {
    if (tg) tg.ready();
    auth = credentials();
    try {
      data = await call("/api/page", {});
    } catch (err) {
      status(String(err.message || err), true);
      return;
    }
    T = data.texts;
    lang = data.lang;
    document.documentElement.lang = data.lang;
    document.title = T.title;
    $("title").textContent = T.title;
    $("round").textContent = data.game + " · " + T.deadline.replace("{round}", data.round).replace("{deadline}", data.deadline_text);
    $("field").innerHTML = data.svg;
    const zoom = $("zoom");
    zoom.textContent = T.zoom_in;
    zoom.hidden = false;
    zoom.addEventListener("click", () => {
      const on = $("board").classList.toggle("zoomed");
      zoom.textContent = on ? T.zoom_out : T.zoom_in;
      zoom.className = on ? "on" : "";
    });
    $("text-label").textContent = T.orders_text;
    $("submit").textContent = T.submit;
    $("text").value = data.sheet;
    $("hint").textContent = T.pick_player;
    $("field").addEventListener("click", (ev) => {
      const g = ev.target.closest("[data-cell]");
      if (g) tapped(Number(g.dataset.cell));
    });
    $("text").addEventListener("input", edited);
    $("submit").addEventListener("click", serial(submit));
    let res = await call("/api/check", { text: $("text").value });
    orders = res.orders;
    base = JSON.parse(JSON.stringify(res.orders));  // (the taps change orders in place)
    const changed = kept();
    const restored = changed.length ? restore(changed) : [];
    if (changed.length) {
      try {
        res = await call("/api/check", { orders: orders, clears: clears });
        $("text").value = res.text;
        orders = res.orders;
      } catch (err) {  // a kept draft the judge cannot read: the sheet on file
        forget();
        restored.length = 0;
        orders = JSON.parse(JSON.stringify(base));
        clears = [];
      }
    }
    showCheck(res);
    keep();
    if (restored.length) status(restored.join(" "), false);
    renderControls();
  }

  start();
})();

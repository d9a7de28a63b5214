/* The set-up of a new game on the tablet, in the page (never a browser pop-up):
 *   1. the game and its options (asking first, in the page, before ending a running game);
 *   2. the players: the table's players are named (kept in this page's set-up state and
 *      remembered by the tablet for the next game; nothing is sent);
 *   3. the characters: a new sheet (the game's own form, below; its "player" field, where
 *      the game has one, offers the players named) or a sheet brought back from an
 *      earlier game of the same kind in this table's log ("played by": a choice);
 *   4. the first roll.
 * Only Péripéties records who plays a character (``player`` in its character events);
 * Wuxia, Shayo and ESPRI sheets have no such field, and the step says so.
 * Opened by the core page's "New game" buttons (event "companion:setup"). The step the
 * tablet is at is kept in sessionStorage, so a reload stays in the set-up. */
"use strict";
(() => {
  const C = window.Companion;
  const KEY = "companion-setup";
  const PLAYERS_KEY = "companion-players";  // the last table's players, on this tablet
  const MAX_NAME = 80;  // as the server's check (web/validate.py)
  /* The games whose character events name their player, and the field. */
  const PLAYER_FIELD = { peripeties: "player" };
  const TITLES = { peripeties: "Péripéties", wuxia: "Wuxia", shayo: "Shayo", espri: "ESPRI" };
  let ui = load() || { step: null };
  let info = null;  // GET /api/setup/<game>
  let loading = false;

  function load() { try { return JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (e) { return null; } }
  function save() { try { sessionStorage.setItem(KEY, JSON.stringify(ui)); } catch (e) { /* private mode */ } }
  const t = (fr, en) => C.t(fr, en);

  async function fetchInfo(game) {
    if (loading) return;
    loading = true;
    info = null;
    try {
      const r = await fetch("/api/setup/" + encodeURIComponent(game), { credentials: "same-origin" });
      if (r.ok) info = await r.json();
    } catch (e) { /* offline: the core page says so */ }
    loading = false;
    if (!info) info = { options: [], defaults: {}, sheets: [] };
    draw();
  }

  function rememberedPlayers() {
    try {
      const v = JSON.parse(localStorage.getItem(PLAYERS_KEY) || "[]");
      return Array.isArray(v) ? v.filter((x) => typeof x === "string" && x).slice(0, 12) : [];
    } catch (e) { return []; }
  }

  /* The names as typed: trimmed, no empty one, no repeat, at most MAX_NAME characters. */
  function cleanPlayers(list) {
    const out = [];
    for (const raw of list) {
      const n = String(raw || "").replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, "").trim().slice(0, MAX_NAME);
      if (n && !out.some((x) => x.toLocaleLowerCase() === n.toLocaleLowerCase())) out.push(n);
    }
    return out;
  }

  function open(game) {
    ui = { step: "options", game, options: {}, demo: document.body.dataset.demo === "yes", players: rememberedPlayers() };
    save();
    fetchInfo(game);
    const box = document.getElementById("setup");
    if (box) { box.hidden = false; box.scrollIntoView({ block: "start" }); }
  }

  function close() { ui = { step: null }; save(); draw(); }

  function steps(current) {
    const names = [["options", t("1. Jeu et options", "1. Game and options")],
      ["players", t("2. Joueurs", "2. Players")],
      ["characters", t("3. Personnages", "3. Characters")],
      ["roll", t("4. Premier lancer", "4. First roll")]];
    return C.h("ol", { class: "steps", "data-test": "setup-steps" },
      names.map(([k, label]) => C.h("li", { class: k === current ? "current" : "", "data-step": k }, label)));
  }

  function optionInput(o) {
    const h = C.h;
    const cur = o.name in ui.options ? ui.options[o.name] : o.default;
    const set = (v) => { if (JSON.stringify(v) === JSON.stringify(o.default)) delete ui.options[o.name]; else ui.options[o.name] = v; save(); };
    const label = C.tr(o.label);
    if (o.kind === "bool") {
      return h("label", { class: "check touch" }, h("input", { type: "checkbox", checked: !!cur, "data-test": "setup-opt-" + o.name,
        onchange: (ev) => set(ev.target.checked) }), label);
    }
    if (o.kind === "int" || o.kind === "float") {
      const whole = o.kind === "int";
      const attrs = { type: "number", value: cur, step: whole ? 1 : "any", "data-test": "setup-opt-" + o.name,
        onchange: (ev) => { const n = whole ? parseInt(ev.target.value, 10) : parseFloat(ev.target.value); if (!isNaN(n)) set(n); } };
      if (o.lo !== null && o.lo !== undefined) attrs.min = o.lo;
      if (o.hi !== null && o.hi !== undefined) attrs.max = o.hi;
      return h("label", {}, label, h("input", attrs));
    }
    const sel = h("select", { "data-test": "setup-opt-" + o.name, onchange: (ev) => set(o.choices[ev.target.selectedIndex]) },
      (o.choices || []).map((c, i) => h("option", { value: String(i), selected: JSON.stringify(c) === JSON.stringify(cur) },
        choiceLabel(o, c))));
    return h("label", {}, label, sel);
  }

  /* A choice's words, as the server gives them (companion.games.options.choice_words:
   * the option's own words for each choice); the value itself only if it gave none. */
  function choiceLabel(o, c) {
    const i = (o.choices || []).findIndex((x) => JSON.stringify(x) === JSON.stringify(c));
    const words = o.choice_labels && o.choice_labels[i];
    return words ? C.tr(words) : String(c);
  }

  function drawOptions(box) {
    const h = C.h;
    const running = C.table && C.table.game;
    box.append(h("h2", {}, t("Nouvelle partie : ", "New game: ") + (TITLES[ui.game] || ui.game)), steps("options"));
    if (running) {
      box.append(h("div", { class: "confirm", "data-test": "setup-confirm" },
        h("strong", {}, t("La partie en cours (", "The game in progress (") + (C.tr(C.table.title) || running) +
          t(") s'arrête ici.", ") ends here.")), " ",
        t("Elle reste dans le journal, et « Annuler » la ramène tant que rien n'a été joué depuis.",
          "It stays in the journal, and “Undo” brings it back as long as nothing was played since.")));
    }
    if (!info) { box.append(h("p", { class: "muted" }, t("Chargement…", "Loading…"))); }
    else {
      if (info.options.length) {
        const det = h("details", { "data-test": "setup-options" }, h("summary", {}, t("Règles de la table (options)", "Table rules (options)")),
          h("div", { class: "opts" }, info.options.map(optionInput)));
        box.append(det);
      }
      const adv = h("details", { "data-test": "setup-advanced" },
        h("summary", {}, t("Options avancées (texte JSON, voir la documentation du jeu)", "Advanced options (JSON text, see the game's documentation)")));
      const area = h("textarea", { "data-test": "setup-advanced-text", spellcheck: "false" });
      area.value = JSON.stringify(Object.assign({}, info.defaults, ui.options), null, 1);
      area.addEventListener("change", () => {
        try {
          const obj = JSON.parse(area.value);
          for (const [k, v] of Object.entries(obj)) {
            if (JSON.stringify(v) !== JSON.stringify(info.defaults[k])) ui.options[k] = v; else delete ui.options[k];
          }
          save();
          area.classList.remove("error");
        } catch (e) { area.classList.add("error"); C.toast(t("Ce texte n'est pas du JSON valide.", "This text is not valid JSON.")); }
      });
      adv.append(area);
      box.append(adv);
    }
    if (document.body.dataset.demo === "yes") {
      box.append(h("label", { class: "touch" }, h("input", { type: "checkbox", checked: ui.demo, "data-test": "setup-demo-cast",
        onchange: (ev) => { ui.demo = ev.target.checked; save(); } }),
      t("Avec les personnages de la démo", "With the demo's characters")));
    }
    box.append(h("div", { class: "row" },
      h("button", { class: "big primary", "data-test": "setup-start", onclick: start },
        running ? t("Arrêter la partie en cours et commencer", "End the game in progress and start") : t("Commencer la partie", "Start the game")),
      h("button", { class: "big ghost", "data-test": "setup-cancel", onclick: close }, t("Ne rien changer", "Change nothing"))));
  }

  async function start() {
    let res;
    if (ui.demo && document.body.dataset.demo === "yes") res = await C.api("/api/demo/game", { game: ui.game });
    else {
      const data = { game: ui.game, seed: Math.floor(Math.random() * 2 ** 31) };
      if (Object.keys(ui.options).length) data.options = ui.options;
      res = await C.send("table.new_game", data);
    }
    if (!res) return;
    ui.step = "players";
    // the demo's cast comes with its players: they are the table's
    const st = C.table && C.table.state;
    if (st && Array.isArray(st.players) && st.players.length) ui.players = cleanPlayers(st.players.concat(ui.players));
    save();
    fetchInfo(ui.game);
  }

  function drawPlayerNames(box) {
    const h = C.h;
    box.append(h("h2", {}, (TITLES[ui.game] || ui.game) + t("\u202f: les joueurs", ": the players")), steps("players"));
    box.append(h("p", {}, t("Qui est à la table\u202f? Nommez chaque joueur\u202f: les fiches de personnage les proposeront ensuite.",
      "Who is at the table? Name each player: the character sheets will offer them next.")));
    if (!(ui.game in PLAYER_FIELD)) {
      box.append(h("p", { class: "muted", "data-test": "setup-players-note" }, t(
        "Les fiches de ce jeu ne notent pas qui joue quel personnage\u202f: les noms restent sur cette tablette, pour la mise en place.",
        "This game's sheets do not record who plays which character: the names stay on this tablet, for the set-up.")));
    }
    const list = h("ol", { class: "players", "data-test": "setup-players" });
    const rows = ui.players.length ? ui.players.slice() : [""];
    const sync = () => {
      const typed = Array.from(list.querySelectorAll("input")).map((i) => i.value);
      ui.players = cleanPlayers(typed);
      save();
      return typed;
    };
    const row = (name, i) => {
      const input = h("input", { value: name, maxlength: MAX_NAME, autocomplete: "off", "data-test": "setup-player-name",
        placeholder: t("Joueur ", "Player ") + (i + 1), "aria-label": t("Joueur ", "Player ") + (i + 1), onchange: sync });
      input.value = name;
      list.append(h("li", {}, input, h("button", { class: "ghost", "data-test": "setup-player-remove",
        "aria-label": t("Retirer ce joueur", "Remove this player"),
        onclick: () => { input.value = ""; sync(); draw(); } }, "✕")));
      return input;
    };
    rows.forEach(row);
    box.append(list);
    box.append(h("div", { class: "row" },
      h("button", { class: "big", "data-test": "setup-player-add", onclick: () => {
        const typed = sync();
        ui.players = cleanPlayers(typed);
        ui.addRow = true;
        save();
        draw();
      } }, t("+ Ajouter un joueur", "+ Add a player")),
      h("button", { class: "big primary", "data-test": "setup-players-next", onclick: () => {
        sync();
        try { localStorage.setItem(PLAYERS_KEY, JSON.stringify(ui.players)); } catch (e) { /* private mode */ }
        ui.step = "characters";
        save();
        draw();
      } }, t("Suivant\u202f: les personnages →", "Next: the characters →"))));
    if (ui.addRow) {  // a new empty row, focused
      ui.addRow = false;
      row("", rows.length).focus();
    }
  }

  function sheetRow(s) {
    const h = C.h;
    const data = Object.assign({}, s.data);
    const row = h("div", { class: "sheet", "data-test": "setup-sheet" }, h("strong", {}, sheetName(s)));
    let player = null;
    const field = PLAYER_FIELD[ui.game];
    if (field) {
      const names = cleanPlayers(ui.players.concat(data[field] ? [data[field]] : []));
      const pick = freePlayer() || data[field] || names[0] || "";
      player = h("select", { "aria-label": t("Joueur", "Player"), "data-test": "setup-sheet-player" },
        names.map((n) => h("option", { value: n, selected: n === pick }, n)));
      row.append(h("label", { class: "touch" }, t("jouée par ", "played by "), player));
    }
    row.append(h("button", { class: "big", "data-test": "setup-sheet-use", onclick: async () => {
      if (player && field) data[field] = player.value || data[field];
      const r = await C.send(s.type, data);
      if (r) C.toast(t("Fiche reprise : ", "Sheet brought back: ") + sheetName(s), true);
    } }, t("Reprendre cette fiche", "Bring this sheet back")));
    return row;
  }

  function sheetName(s) {
    const st = C.table && C.table.state;
    const cards = st && st.deck && st.deck.cards;
    const card = Array.isArray(cards) ? cards.find((c) => c.id === s.name) : null;
    return card ? card.name : (s.data.name || s.name);
  }

  function inGame(s) {
    const st = (C.table && C.table.state) || {};
    const chars = st.characters || [];
    return chars.some((c) => c.id === s.name || c.name === s.name || (c.card && c.card.id === s.name));
  }

  /* Who plays whom, as the game records it (games with a player field), else null. */
  function castOf(name) {
    const field = PLAYER_FIELD[ui.game];
    if (!field) return null;
    const chars = (C.table && C.table.state && C.table.state.characters) || [];
    return chars.filter((c) => c[field] === name).map((c) => (c.card && c.card.name) || c.name || c.id);
  }

  /* The first player named here who has no character yet (games with a player field). */
  function freePlayer() {
    return ui.players.find((n) => { const c = castOf(n); return c !== null && c.length === 0; }) || null;
  }

  function drawCast(box) {
    const h = C.h;
    if (!ui.players.length) return;
    box.append(h("ul", { class: "cast", "data-test": "setup-cast" }, ui.players.map((n) => {
      const chars = castOf(n);
      return h("li", { "data-player": n }, h("strong", {}, n), chars === null ? null
        : " — " + (chars.length ? chars.join(", ") : t("pas encore de personnage", "no character yet")));
    })));
  }

  function drawPlayers(box) {
    const h = C.h;
    box.append(h("h2", {}, (TITLES[ui.game] || ui.game) + t("\u202f: les personnages", ": the characters")), steps("characters"));
    drawCast(box);
    box.append(h("p", {}, t("Chaque joueur crée sa fiche avec le formulaire du jeu ci-dessous (« Ajouter un personnage », « Nouveau personnage »), ou reprend une fiche d'une partie précédente :",
      "Each player makes a sheet with the game's form below (“Add a character”, “New character”), or brings back a sheet from an earlier game:")));
    const sheets = ((info && info.sheets) || []).filter((s) => !inGame(s));
    if (sheets.length) box.append(h("div", { "data-test": "setup-sheets" }, sheets.map(sheetRow)));
    else box.append(h("p", { class: "muted", "data-test": "setup-no-sheets" }, t("Aucune fiche d'une partie précédente de ce jeu.", "No sheet from an earlier game of this one.")));
    const chars = ((C.table && C.table.state && C.table.state.characters) || []).length;
    box.append(h("p", { "data-test": "setup-count" }, chars
      ? t(chars + (chars > 1 ? " personnages à la table." : " personnage à la table."), chars + (chars > 1 ? " characters at the table." : " character at the table."))
      : t("Pas encore de personnage.", "No character yet.")));
    box.append(h("div", { class: "row" },
      h("button", { class: "big ghost", "data-test": "setup-back-players", onclick: () => { ui.step = "players"; save(); draw(); } },
        t("← Les joueurs", "← The players")),
      h("button", { class: "big primary", "data-test": "setup-done", disabled: !chars && ui.game !== "espri", onclick: done },
        t("Passer au premier lancer →", "On to the first roll →"))));
  }

  async function done() {
    const st = C.table && C.table.state;
    // Péripéties waits for "start turn 1" before its first roll: the set-up gives it
    if (ui.game === "peripeties" && st && st.expects && st.expects.step === "setup") {
      if (!(await C.send("peripeties.next_turn", {}))) return;
    }
    ui.step = null;
    save();
    draw();
    const g = document.getElementById("game");
    if (g) g.scrollIntoView({ block: "start" });
  }

  function draw() {
    const box = document.getElementById("setup");
    if (!box) return;
    box.replaceChildren();
    const started = ui.step === "players" || ui.step === "characters";
    if (started && C.table && C.table.game !== ui.game) { ui = { step: null }; save(); }
    if (started && C.table && C.table.state) {
      // the game moved on by itself (its own "start" button, a first roll): the set-up is over
      const e = C.table.state.expects;
      const hist = C.table.history || [];
      let since = hist.length;
      while (since > 0 && hist[since - 1].type !== "table.new_game") since--;
      const rolled = hist.slice(since).some((x) => /\.(roll|dice|draw|appel|test)$/.test(x.type));
      if ((ui.game === "peripeties" && e && e.step && e.step !== "setup") || (ui.game !== "peripeties" && rolled)) { ui = { step: null }; save(); }
    }
    if (!ui.step) { box.hidden = true; return; }
    box.hidden = false;
    if (!info && ui.game) { fetchInfo(ui.game); }
    if (ui.step === "options") drawOptions(box);
    else if (ui.step === "players") drawPlayerNames(box);
    else drawPlayers(box);
    offerPlayers();
  }

  /* The game's own character form: its player field offers the players named here
   * (a list to pick from) and starts with the first one who has no character yet. */
  function offerPlayers() {
    let list = document.getElementById("setup-player-list");
    if (!list) { list = C.h("datalist", { id: "setup-player-list" }); document.body.append(list); }
    list.replaceChildren(...ui.players.map((n) => C.h("option", { value: n })));
    const field = PLAYER_FIELD[ui.game];
    if (!field || !ui.step) return;
    for (const input of document.querySelectorAll(`#game input[data-test$="form-${field}"]`)) {
      if (input.dataset.setupOffered) continue;
      input.dataset.setupOffered = "yes";
      input.setAttribute("list", "setup-player-list");
      const free = freePlayer();
      const taken = input.value && castOf(input.value) && castOf(input.value).length;
      if (free && (!input.value || taken)) input.value = free;
    }
  }

  window.addEventListener("companion:setup", (ev) => open((ev.detail || {}).game));
  window.addEventListener("companion:render", () => { if (ui.step === "characters" || !ui.step) draw(); else offerPlayers(); });
  const game = document.getElementById("game");
  if (game && window.MutationObserver) new MutationObserver(() => { if (ui.step) offerPlayers(); }).observe(game, { childList: true, subtree: true });
  window.addEventListener("companion:hello", () => { if (ui.step) fetchInfo(ui.game); });
})();

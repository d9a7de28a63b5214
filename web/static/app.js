/* The tablet page's core: live state, PIN, history, undo, language; games draw themselves.
 * A game registers a renderer: Companion.registerGame(name, {render(root, table, ctx)}).
 * No framework, no build step, nothing fetched from outside the Pi. */
"use strict";
const Companion = (() => {
  const games = {};
  let table = null;           // last /api/state
  let lang = document.body.dataset.lang || "fr";
  let canEdit = document.body.dataset.canEdit === "yes";
  let csrf = document.querySelector('meta[name="csrf-token"]').content;
  let es = null;
  let toastTimer = null;

  const t = (fr, en) => (lang === "en" ? en : fr);
  const tr = (obj) => (obj ? (obj[lang] || obj.fr || obj.en || "") : "");

  const { h, bars } = Dom;

  function toast(message, ok) {
    const el = document.getElementById("toast");
    el.textContent = message;
    el.className = "toast" + (ok ? " ok" : "");
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, ok ? 2500 : 6000);
  }

  /* An action refused for want of the PIN waits here; the PIN dialog carries it out once
   * the PIN is accepted (no second tap), and its promise then resolves with its answer. */
  let pending = null;
  function afterPin(action) {
    return new Promise((resolve) => {
      if (pending) pending.resolve(null);
      pending = { action, resolve };
      openPin();
    });
  }

  /* A client event id (32 hex digits). crypto.getRandomValues works on plain http://
   * too, where crypto.randomUUID does not. */
  function newEventId() {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  async function postOnce(body, timeoutMs) {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), timeoutMs);
    try {
      return await fetch("/api/events", {
        method: "POST", credentials: "same-origin", signal: ctl.signal,
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, "X-Client": "tablet" },
        body,
      });
    } finally { clearTimeout(timer); }
  }

  /* Post one event. It carries an id, so a retry (after a timeout or a lost connection)
   * never enters it twice: the server answers "duplicate" for an id it already holds.
   * After the last try the page asks the server what became of it. */
  async function send(type, data, opts) {
    opts = opts || {};
    if (!canEdit) return afterPin(() => send(type, data, opts));
    const id = newEventId();
    const body = JSON.stringify({ id, type, data: data || {}, source: opts.source || "manual" });
    let resp = null;
    for (let attempt = 0; attempt < 3 && !resp; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 1000 * attempt));
      try { resp = await postOnce(body, 10000); } catch (e) { resp = null; }
    }
    if (!resp) {
      let fate = null;
      try { fate = await fetch("/api/events/" + id, { credentials: "same-origin" }); } catch (e) { /* offline */ }
      if (fate && fate.ok) { toast(t("Enregistré.", "Recorded."), true); return fate.json().catch(() => ({})); }
      toast(fate && fate.status === 404
        ? t("Pas enregistré : la connexion a été perdue. Réessayez.", "Not recorded: the connection was lost. Try again.")
        : t("Pas de connexion avec le compagnon.", "No connection to the companion."));
      return null;
    }
    let out = {};
    try { out = await resp.json(); } catch (e) { /* empty */ }
    if (resp.status === 401) { canEdit = false; return afterPin(() => send(type, data, opts)); }
    if (!resp.ok) {
      toast(tr(out.message) || out.error || ("HTTP " + resp.status));
      return null;
    }
    return out;
  }

  function emit(name, detail) {
    window.dispatchEvent(new CustomEvent("companion:" + name, { detail }));
  }

  /* POST JSON to one of the companion's own endpoints with the PIN session and CSRF token;
   * shows the refusal itself and returns the JSON answer, or null. */
  async function api(url, body) {
    if (!canEdit) return afterPin(() => api(url, body));
    let resp;
    try {
      resp = await fetch(url, { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf, "X-Client": "tablet" },
        body: JSON.stringify(body || {}) });
    } catch (e) {
      toast(t("Pas de connexion avec le compagnon.", "No connection to the companion."));
      return null;
    }
    let out = {};
    try { out = await resp.json(); } catch (e) { /* empty */ }
    if (resp.status === 401) { canEdit = false; return afterPin(() => api(url, body)); }
    if (!resp.ok) { toast(tr(out.message) || out.error || ("HTTP " + resp.status)); return null; }
    return out;
  }

  function ctx() {
    return { lang, t, tr, h, bars, send, toast, canEdit, table };
  }

  function applyI18n(root) {
    (root || document).querySelectorAll("[data-fr]").forEach((el) => {
      el.textContent = lang === "en" ? el.dataset.en : el.dataset.fr;
    });
    document.documentElement.lang = lang;
    document.getElementById("lang-btn").textContent = lang === "en" ? "FR" : "EN";
    const narrow = window.matchMedia("(max-width: 500px)").matches;
    document.getElementById("pin-btn").textContent = canEdit ? (narrow ? "✓" : t("✓ Code saisi", "✓ PIN")) : t("Code", "PIN");
    document.getElementById("pin-btn").dataset.state = canEdit ? "unlocked" : "locked";
    document.getElementById("pin-btn").title = canEdit ? t("Code saisi", "PIN entered") : t("Entrer le code", "Enter the PIN");
  }

  function render() {
    applyI18n();
    const page = document.body.dataset.page;
    if (page && page !== "table") { renderDevices(); emit("render", {}); return; }  // another page (calibration)
    const root = document.getElementById("game");
    root.replaceChildren();
    document.getElementById("title").textContent = table && table.title ? tr(table.title) : t("Compagnon de table", "Table companion");
    if (!table || !table.game) {
      root.append(h("div", { class: "card" }, h("h2", {}, t("Aucune partie en cours", "No game running")),
        h("p", {}, t("Touchez « Nouvelle partie » pour choisir un jeu, ses joueurs et ses options.",
          "Tap “New game” to pick a game, its players and its options."))));
    } else if (games[table.game]) {
      try { games[table.game].render(root, table, ctx()); }
      catch (e) { console.error(e); root.append(h("p", { class: "error" }, String(e))); }
    } else {
      root.append(h("pre", {}, JSON.stringify(table.state, null, 2)));
    }
    renderHistory();
    renderActionBar();
    renderNewGame();
    renderDevices();
    emit("render", {});
  }

  /* "20:14" in the tablet's own time zone (the log keeps UTC). */
  function clock(at) {
    if (!at) return "";
    const d = new Date(at);
    if (isNaN(d.getTime())) return "";
    return d.toLocaleTimeString(lang === "en" ? "en-GB" : "fr-FR", { hour: "2-digit", minute: "2-digit" });
  }

  function entryText(entry) {
    const texts = (entry.outcomes || []).map((o) => tr(o.text)).filter(Boolean);
    return texts.join(" · ") || t("(sans effet affiché)", "(no visible effect)");
  }

  /* Older history, paged from the log (GET /api/log?before=SEQ&limit=N): kept while the
   * recent history (in the state) starts at the same event. */
  let older = { from: null, entries: [], more: true, loading: false };

  function historyItem(entry, old) {
    const text = entry.refused ? t("Événement refusé à la relecture", "Event refused on replay") : entryText(entry);
    const li = h("li", { "data-test": old ? "history-older-item" : "history-item", "data-seq": entry.seq,
      class: entry.undone ? "undone" : entry.refused ? "refused" : "" },
      h("time", { class: "when", datetime: entry.at || "" }, clock(entry.at)), " ",
      text, h("span", { class: "src " + entry.source }, sourceLabel(entry.source)));
    if (entry.undone) li.append(h("span", { class: "src undone" }, t("annulé", "undone")));
    return li;
  }

  async function loadOlder(from) {
    if (older.loading) return;
    older.loading = true;
    const before = older.entries.length ? older.entries[older.entries.length - 1].seq : from;
    try {
      const r = await fetch("/api/log?before=" + before + "&limit=30", { credentials: "same-origin" });
      const page = await r.json();
      if (!r.ok) throw new Error(tr(page.message) || page.error);
      if (older.from === from) { older.entries = older.entries.concat(page.events || []); older.more = !!page.more; }
    } catch (e) {
      toast(t("Historique plus ancien indisponible.", "Older history unavailable."));
    } finally {
      older.loading = false;
      renderHistory();
    }
  }

  function renderHistory() {
    const ul = document.getElementById("history");
    if (!ul) return;
    ul.replaceChildren();
    const hist = (table && table.history) || [];
    for (const entry of hist.slice().reverse()) ul.append(historyItem(entry, false));
    const from = hist.length ? hist[0].seq : null;
    if (older.from !== from) older = { from, entries: [], more: true, loading: false };
    for (const entry of older.entries) ul.append(historyItem(entry, true));
    if (from !== null && from > 1 && older.more) {
      ul.append(h("li", { class: "more" }, h("button", { class: "ghost", "data-test": "history-older",
        disabled: older.loading, onclick: () => loadOlder(from) },
        older.loading ? t("Chargement…", "Loading…") : t("Plus ancien…", "Older…"))));
    }
  }

  /* The bar at the bottom of the screen: what the last event did, and undo, always in view. */
  function renderActionBar() {
    const box = document.getElementById("last-result");
    const undo = document.getElementById("undo-btn");
    if (!box || !undo) return;
    const hist = (table && table.history) || [];
    const last = hist[hist.length - 1];
    box.replaceChildren();
    if (last) {
      box.dataset.seq = last.seq;
      box.append(h("span", { class: "last-text", "data-test": "last-result-text" }, entryText(last)),
        h("span", { class: "src " + last.source }, sourceLabel(last.source)));
    } else {
      delete box.dataset.seq;
      box.append(h("span", { class: "muted" }, t("Rien encore à la table.", "Nothing at the table yet.")));
    }
    undo.disabled = !last;
    undo.title = last ? t("Annuler : ", "Undo: ") + entryText(last) : "";
    undo.onclick = async () => {
      if (!last) return;
      const res = await send("undo", { seq: last.seq });
      if (res) toast(t("Annulé : ", "Undone: ") + entryText(last), true);
    };
  }

  function sourceLabel(src) {
    return ({ manual: t("saisi", "typed"), camera: t("lu", "read"), correction: t("corrigé", "corrected"),
      tray: t("plateau", "tray"), system: t("logiciel", "software") })[src] || src;
  }

  const TITLES = { peripeties: "Péripéties", wuxia: "Wuxia", shayo: "Shayo", espri: "ESPRI" };

  /* One button per game: it opens the set-up (setup.js), which asks before ending the
   * game in progress, in the page (never a browser pop-up). */
  function renderNewGame() {
    const box = document.getElementById("new-game");
    if (!box) return;
    box.replaceChildren();
    const names = (document.body.dataset.games || "").split(",").filter(Boolean);
    for (const name of names) {
      box.append(h("button", {
        class: "big" + (table && table.game === name ? " selected" : ""), "data-test": "new-game-" + name,
        onclick: () => emit("setup", { game: name }),
      }, TITLES[name] || name));
    }
  }

  function renderDevices() {
    const box = document.getElementById("banners");
    box.querySelectorAll(".device").forEach((el) => el.remove());
    const devs = (table && table.devices) || {};
    for (const [name, st] of Object.entries(devs)) {
      if (st.connected === false) {
        const what = name === "tray" ? t("Plateau déconnecté", "Tray disconnected") : name === "camera" ? t("Caméra déconnectée", "Camera disconnected") : name;
        box.append(h("div", { class: "banner bad device", "data-test": "device-" + name },
          what + " — " + t("la saisie manuelle reste possible ; reconnexion automatique…", "manual entry still works; reconnecting by itself…")));
      }
    }
  }

  function setLive(ok) {
    const el = document.getElementById("live");
    el.className = "pill " + (ok ? "ok" : "bad");
    el.textContent = ok ? t("en direct", "live") : t("hors ligne", "offline");
    el.dataset.state = ok ? "live" : "offline";
  }

  async function refresh() {
    try {
      const r = await fetch("/api/state", { credentials: "same-origin" });
      table = await r.json();
      render();
    } catch (e) { setLive(false); }
  }

  function connect() {
    if (es) es.close();
    es = new EventSource("/events");
    es.addEventListener("hello", (ev) => { setLive(true); table = JSON.parse(ev.data).state; render(); emit("hello", {}); });
    es.addEventListener("roll", (ev) => emit("roll", JSON.parse(ev.data)));
    es.addEventListener("table", (ev) => { table = JSON.parse(ev.data).state; render(); emit("table", {}); });
    es.addEventListener("devices", (ev) => { if (table) { table.devices = JSON.parse(ev.data).devices; renderDevices(); } });
    es.addEventListener("resync", () => { refresh(); });
    es.onopen = () => setLive(true);
    es.onerror = () => {
      setLive(false);
      // The browser retries a dropped stream by itself, but not one the server refused
      // (too many pages open on this device, 429): try again a little later.
      if (es.readyState === EventSource.CLOSED) setTimeout(connect, 5000 + Math.random() * 5000);
    };
  }

  function openPin() {
    const dlg = document.getElementById("pin-dialog");
    document.getElementById("pin-error").textContent = "";
    if (!dlg.open) dlg.showModal();
    document.getElementById("pin-input").focus();
  }

  function setupPin() {
    document.getElementById("pin-btn").onclick = () => {
      if (canEdit) {
        fetch("/logout", { method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrf } })
          .then(() => { canEdit = false; render(); });
      } else openPin();
    };
    document.getElementById("pin-cancel").onclick = () => document.getElementById("pin-dialog").close();
    document.getElementById("pin-dialog").addEventListener("close", () => {
      // closed without the PIN: the waiting action is dropped (never carried out later)
      if (!canEdit && pending) { const p = pending; pending = null; p.resolve(null); }
    });
    document.getElementById("pin-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const pin = document.getElementById("pin-input").value;
      const r = await fetch("/login", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify({ pin }) });
      const out = await r.json().catch(() => ({}));
      if (r.ok && out.ok) {
        canEdit = true; if (out.csrf) csrf = out.csrf;
        document.getElementById("pin-dialog").close();
        document.getElementById("pin-input").value = "";
        render();
        if (pending) {  // the action that asked for the PIN, carried out now
          const p = pending; pending = null;
          p.resolve(await p.action());
        }
      } else {
        document.getElementById("pin-error").textContent = tr(out.message) || t("Code incorrect.", "Wrong PIN.");
      }
    });
  }

  function start() {
    document.getElementById("lang-btn").onclick = () => {
      lang = lang === "en" ? "fr" : "en";
      document.cookie = "lang=" + lang + ";path=/;max-age=31536000;SameSite=Strict";
      render();
    };
    setupPin();
    applyI18n();
    connect();
  }

  return {
    registerGame(name, renderer) { games[name] = renderer; if (table && table.game === name) render(); },
    start, send, api, t, tr, h, bars, toast, refresh, openPin, sourceLabel, clock, entryText,
    get table() { return table; }, get lang() { return lang; }, get canEdit() { return canEdit; },
  };
})();
window.Companion = Companion;

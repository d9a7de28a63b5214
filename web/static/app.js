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
    if (!canEdit) { openPin(); return null; }
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
    if (resp.status === 401) { canEdit = false; openPin(); return null; }
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
    if (!canEdit) { openPin(); return null; }
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
    if (resp.status === 401) { canEdit = false; openPin(); return null; }
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
    document.getElementById("pin-btn").textContent = canEdit ? t("✓ Code saisi", "✓ PIN") : t("Code", "PIN");
    document.getElementById("pin-btn").dataset.state = canEdit ? "unlocked" : "locked";
    document.getElementById("pin-btn").title = canEdit ? t("Code saisi", "PIN entered") : t("Entrer le code", "Enter the PIN");
  }

  function render() {
    applyI18n();
    if (document.body.dataset.page) { renderDevices(); emit("render", {}); return; }  // another page (calibration)
    const root = document.getElementById("game");
    root.replaceChildren();
    document.getElementById("title").textContent = table && table.title ? tr(table.title) : t("Compagnon de table", "Table companion");
    if (!table || !table.game) {
      root.append(h("div", { class: "card" }, h("h2", {}, t("Aucune partie en cours", "No game running")),
        h("p", {}, t("Choisissez un jeu à droite pour commencer.", "Pick a game on the right to start."))));
    } else if (games[table.game]) {
      try { games[table.game].render(root, table, ctx()); }
      catch (e) { console.error(e); root.append(h("p", { class: "error" }, String(e))); }
    } else {
      root.append(h("pre", {}, JSON.stringify(table.state, null, 2)));
    }
    renderHistory();
    renderNewGame();
    renderDevices();
    emit("render", {});
  }

  function renderHistory() {
    const ol = document.getElementById("history");
    ol.replaceChildren();
    const hist = (table && table.history) || [];
    for (const entry of hist.slice().reverse()) {
      const texts = (entry.outcomes || []).map((o) => tr(o.text)).filter(Boolean);
      ol.append(h("li", { "data-test": "history-item", "data-seq": entry.seq },
        h("strong", {}, "#" + entry.seq + " "), texts.join(" · ") || entry.type,
        h("span", { class: "src " + entry.source }, sourceLabel(entry.source))));
    }
    const undo = document.getElementById("undo-btn");
    undo.disabled = !hist.length;
    undo.onclick = async () => {
      const last = hist[hist.length - 1];
      if (!last) return;
      const res = await send("undo", { seq: last.seq });
      if (res) toast(res.outcomes && res.outcomes[0] ? tr(res.outcomes[0].text) : t("Annulé.", "Undone."), true);
    };
  }

  function sourceLabel(src) {
    return ({ manual: t("saisi", "typed"), camera: t("lu", "read"), correction: t("corrigé", "corrected"),
      tray: t("plateau", "tray"), system: t("logiciel", "software") })[src] || src;
  }

  function renderNewGame() {
    const box = document.getElementById("new-game");
    box.replaceChildren();
    const names = (document.body.dataset.games || "").split(",").filter(Boolean);
    const titles = { peripeties: "Péripéties", wuxia: "Wuxia", shayo: "Shayo", espri: "ESPRI" };
    for (const name of names) {
      box.append(h("button", {
        class: "big" + (table && table.game === name ? " selected" : ""), "data-test": "new-game-" + name,
        onclick: async () => {
          if (table && table.game && !confirm(t("Commencer une nouvelle partie ? L'ancienne reste dans l'historique (annulable).",
            "Start a new game? The old one stays in the history (can be undone)."))) return;
          if (document.body.dataset.demo === "yes") await api("/api/demo/game", { game: name });  // with example set-up
          else await send("table.new_game", { game: name });
        },
      }, titles[name] || name));
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
    es.addEventListener("table", (ev) => { table = JSON.parse(ev.data).state; render(); });
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
    start, send, api, t, tr, h, bars, toast, refresh, openPin,
    get table() { return table; }, get lang() { return lang; }, get canEdit() { return canEdit; },
  };
})();
window.Companion = Companion;

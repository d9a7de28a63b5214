/* The camera panel: the last tray photo with a box on every die, its state (read,
 * pending, corrected, unexpected), tap a die to pick its face; the demo roll button.
 * Listens to the core page's "companion:roll" events (Server-Sent Events "roll"). */
"use strict";
(() => {
  const C = window.Companion;
  const FACES = {
    d6: [1, 2, 3, 4, 5, 6], d4: [1, 2, 3, 4], d10: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], d12: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    lieu: ["montagne", "ville", "temple", "auberge", "foret", "etang"],
    adversaire: ["mandarin", "soldats", "bandits", "animal", "paysans", "nature"],
    epreuve: ["combat", "esprit", "magie"], recompense: ["banquet", "gourde", "taels", "frere"],
    sentence: ["voyage", "taels", "bagne", "blessure"], gem: ["printemps", "ete", "automne", "hiver", "temps", "rupture"],
  };
  const STATUS = {
    read: ["lu", "read"], pending: ["à vérifier", "pending"], corrected: ["corrigé", "corrected"],
    unexpected: ["inattendu", "unexpected"], ignored: ["ignoré", "ignored"], typed: ["saisi", "typed"],
  };
  const RECORD = {
    pending: ["En attente : touchez les dés orange", "Pending: tap the orange dice"], applied: ["Appliqué", "Applied"],
    refused: ["Refusé", "Refused"], shown: ["Affiché seulement", "Shown only"], discarded: ["Écarté", "Discarded"],
    error: ["Erreur", "Error"], superseded: ["Dépassée", "Set aside"], undone: ["Annulé", "Undone"],
  };
  // Words for kinds and faces (GET /api/labels: the same words as the rules'); keys until loaded.
  let LABELS = { kinds: {}, faces: {} };
  fetch("/api/labels", { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : null))
    .then((j) => { if (j) { LABELS = j; draw(); } }).catch(() => {});
  function kindName(kind) { const p = LABELS.kinds[kind]; return p ? t(p[0], p[1]) : kind; }
  function faceName(kind, face) {
    const p = (LABELS.faces[kind] || {})[String(face)];
    return p ? t(p[0], p[1]) : String(face);
  }
  /* "D10 7", "Dé de lieu : Forêt", "gemme Été". */
  function dieName(kind, face) {
    if (face === null || face === undefined) return kindName(kind) + " ?";
    if (LABELS.faces[kind]) return kind === "gem" ? kindName(kind) + " " + faceName(kind, face) : kindName(kind) + t(" : ", ": ") + faceName(kind, face);
    return kindName(kind) + " " + face;
  }
  let st = { camera: { connected: null }, reads: [], demo: false, rolling: false };
  let picking = null; // index of the die whose face is being chosen
  let listOpen = window.matchMedia("(min-width: 901px) and (orientation: landscape)").matches;

  function t(fr, en) { return C.t(fr, en); }
  function last() { return st.reads.length ? st.reads[st.reads.length - 1] : null; }

  async function load() {
    try {
      const r = await fetch("/api/roll?n=5", { credentials: "same-origin" });
      if (r.ok) { st = Object.assign(st, await r.json()); }
    } catch (e) { /* offline: the core shows it */ }
    draw();
  }

  function label(o) {
    if (o.value === null || o.value === undefined) return "?";
    return faceName(o.kind, o.value);
  }

  function drawPhoto(rec) {
    const h = C.h;
    const size = rec.size || [1, 1];
    const wrap = h("div", { class: "photo " + (rec.status || ""), "data-test": "photo", "data-read": rec.id, "data-status": rec.status });
    wrap.style.setProperty("--ar", String(size[0] / Math.max(1, size[1])));
    if (rec.photo) wrap.append(h("img", { src: "/photos/" + rec.photo + ".jpg", alt: t("Photo du plateau", "Tray photo") }));
    else wrap.append(h("div", { class: "photo-missing", style: { paddingTop: (100 * size[1] / size[0]).toFixed(2) + "%" } }));
    (rec.objects || []).forEach((o, i) => {
      const [x, y, w, hh] = o.box || [0, 0, 0, 0];
      // placed by its centre: a box kept at least 48 px wide (a finger) grows evenly
      // around the die instead of sliding off it to the right on a small screen
      wrap.append(h("button", {
        class: "die-box " + (o.status || "read") + (picking === i ? " picking" : ""), "data-test": "die-box",
        "data-index": i, "data-status": o.status || "read", "data-kind": o.kind,
        title: dieName(o.kind, o.value), "aria-label": dieName(o.kind, o.value),
        style: { left: (100 * (x + w / 2) / size[0]).toFixed(2) + "%", top: (100 * (y + hh / 2) / size[1]).toFixed(2) + "%",
          width: (100 * w / size[0]).toFixed(2) + "%", height: (100 * hh / size[1]).toFixed(2) + "%" },
        onclick: () => { picking = picking === i ? null : i; draw(); },
      }, h("span", {}, label(o))));
    });
    return wrap;
  }

  function drawPicker(rec, i) {
    const h = C.h;
    const o = rec.objects[i];
    const kinds = Object.keys(FACES);
    const isGem = o.kind === "gem";
    const box = h("div", { class: "face-picker", "data-test": "face-picker" },
      h("p", {}, isGem ? t("De quelle couleur est cette gemme ?", "What colour is this gem?")
        : t("Quelle face montre ce dé (", "Which face does this die show (") + kindName(o.kind) + t(") ?", ")?")));
    const faces = h("div", { class: "choices" });
    for (const f of FACES[o.kind] || []) {
      faces.append(h("button", { class: "big choice" + (o.value === f ? " selected" : ""), "data-test": "face-" + f,
        onclick: () => correct(rec, i, f, o.kind) }, faceName(o.kind, f)));
    }
    box.append(faces);
    const other = h("select", { "data-test": "kind-select", onchange: (ev) => { o.kind = ev.target.value; draw(); } },
      kinds.map((k) => h("option", { value: k, selected: k === o.kind }, kindName(k))));
    box.append(h("div", { class: "row" }, h("label", { class: "touch" }, t("C'est : ", "It is: "), other),
      h("button", { class: "big ghost", "data-test": "face-ignore", onclick: () => correct(rec, i, null, "ignore") },
        isGem ? t("Pas une gemme", "Not a gem") : t("Pas un dé", "Not a die"))));
    return box;
  }

  async function correct(rec, i, value, kind) {
    const out = await C.api("/api/roll/correct", { read: rec.id, index: i, value, kind });
    if (out && out.read) { picking = null; upsert(out.read); draw(); }
  }

  function upsert(rec) {
    const i = st.reads.findIndex((r) => r.id === rec.id);
    if (i >= 0) st.reads[i] = rec; else st.reads.push(rec);
    st.reads.sort((a, b) => a.id - b.id);
    if (st.reads.length > 5) st.reads = st.reads.slice(-5);
  }

  const DICE_EVENTS = ["peripeties.dice", "wuxia.roll", "shayo.roll", "espri.draw", "espri.setup_draw"];

  /* The dice of the last dice event typed by hand (after the last read), as chips. */
  function typedDice() {
    const hist = (C.table && C.table.history) || [];
    let e = null;
    for (const x of hist.slice().reverse()) {
      if (x.type === "table.new_game") break;  // a new game: the previous game's dice are gone
      if (DICE_EVENTS.includes(x.type)) { e = x; break; }
    }
    if (!e || e.source !== "manual") return null;
    const d = e.data || {};
    const out = [];
    if (Array.isArray(d.dice)) d.dice.forEach((x) => out.push(typeof x === "object" && x ? [x.kind, x.value] : ["d10", x]));
    const ALIAS = { difficulty: null, detail: "d6", trial: null, taels: "d6", prison: "d4" };
    if (Array.isArray(d.gems)) d.gems.forEach((g) => out.push(["gem", g]));
    for (const k of ["lieu", "adversaire", "epreuve", "recompense", "sentence"]) if (d[k]) out.push([k, d[k]]);
    for (const k of ["difficulty", "detail", "trial", "taels", "prison"]) {
      if (d[k] === undefined || d[k] === null) continue;
      (Array.isArray(d[k]) ? d[k] : [d[k]]).forEach((v) => out.push([ALIAS[k] || k, v]));
    }
    return { seq: e.seq, dice: out, gems: Array.isArray(d.gems) };
  }

  function draw() {
    const root = document.getElementById("camera");
    if (!root) return;
    const h = C.h;
    root.replaceChildren();
    const cam = st.camera || {};
    if (cam.connected === null && !st.demo && !st.reads.length) { root.hidden = true; return; }
    root.hidden = false;
    const head = h("div", { class: "row" }, h("h2", {}, t("Caméra", "Camera")),
      h("span", { class: "pill " + (cam.connected ? "ok" : "bad"), "data-test": "camera-status" },
        cam.connected ? t("prête", "ready") : cam.connected === false ? t("déconnectée", "disconnected") : t("aucune", "none")));
    const actions = h("div", { class: "row" });
    if (st.demo) {
      const gems = C.table && C.table.game === "espri";
      actions.append(h("button", { class: "big primary", "data-test": "demo-roll", disabled: st.rolling,
        onclick: async () => { st.rolling = true; draw(); const r = await C.api("/api/roll/shake", {}); if (!r) { st.rolling = false; draw(); } } },
        st.rolling ? (gems ? t("Tirage…", "Drawing…") : t("Les dés roulent…", "Rolling…"))
          : (gems ? t("Tirer les gemmes", "Draw the gems") : t("Lancer les dés", "Roll the dice"))));
    }
    if (cam.connected) {
      actions.append(h("button", { class: "big ghost", "data-test": "read-now", onclick: () => C.api("/api/roll/read", {}),
        title: t("Lire le plateau maintenant", "Read the tray now") }, t("Lire le plateau", "Read the tray")));
    }
    head.classList.add("camera-head");
    head.append(actions);
    root.append(head);
    const typed = typedDice();
    if (typed && typed.dice.length) {
      const s = STATUS.typed;
      root.append(C.h("div", { class: "chips", "data-test": "typed-dice", "data-seq": typed.seq },
        C.h("span", {}, typed.gems ? t("Dernières gemmes saisies à la main :", "Last gems typed by hand:")
          : t("Derniers dés saisis à la main :", "Last dice typed by hand:")),
        typed.dice.map(([k, v]) => C.h("span", { class: "chip typed", "data-test": "die-chip", "data-status": "typed" },
          dieName(k, v) + " · " + t(s[0], s[1])))));
    }
    let rec = last();
    if (rec && rec.game && C.table && C.table.game && rec.game !== C.table.game) rec = null;  // another game's photo
    if (!rec) {
      const gems = C.table && C.table.game === "espri";
      root.append(h("p", { class: "muted" }, gems ? t("Tirez les gemmes dans le plateau : la lecture s'affiche ici.",
        "Draw the gems into the tray: the read shows here.") : t("Lancez les dés dans le plateau : la lecture s'affiche ici.",
        "Roll the dice in the tray: the read shows here.")));
      return;
    }
    const status = RECORD[rec.status] || [rec.status, rec.status];
    root.append(h("p", { class: "read-status " + rec.status, "data-test": "read-status", "data-status": rec.status },
      t(status[0], status[1]) + (rec.message && (rec.message.fr || rec.message.en) ? " — " + C.tr(rec.message) : "")));
    root.append(drawPhoto(rec));
    if (picking !== null && rec.objects[picking]) root.append(drawPicker(rec, picking));
    const chips = h("div", { class: "chips" });
    const list = h("details", { class: "dice-list", "data-test": "dice-list", open: listOpen },
      h("summary", {}, t("Liste des objets lus (", "List of what was read (") + (rec.objects || []).length + ")"), chips);
    list.addEventListener("toggle", () => { listOpen = list.open; });
    (rec.objects || []).forEach((o, i) => {
      const s = STATUS[o.status || "read"] || [o.status, o.status];
      chips.append(h("button", { class: "chip " + (o.status || "read"), "data-test": "die-chip", "data-index": i,
        "data-status": o.status || "read", onclick: () => { picking = i; draw(); } }, dieName(o.kind, o.value) + " · " + t(s[0], s[1])));
    });
    root.append(list);
    if (rec.status === "pending" || rec.status === "refused") {
      root.append(h("button", { class: "big ghost", "data-test": "discard-read",
        onclick: async () => { const r = await C.api("/api/roll/discard", { read: rec.id }); if (r) { upsert(r.read); draw(); } } },
        t("Écarter cette lecture (saisir à la main)", "Discard this read (enter by hand)")));
    }
  }

  window.addEventListener("companion:roll", (ev) => {
    const d = ev.detail || {};
    if (d.camera) st.camera = d.camera;
    if (d.cleared) { st.reads = []; picking = null; }  // a new game: the old photos go
    if (d.read) { upsert(d.read); st.rolling = false; if (picking !== null && d.read.id !== (last() || {}).id) picking = null; }
    else if ("rolling" in d) st.rolling = d.rolling;
    draw();
  });
  window.addEventListener("companion:hello", load);
  window.addEventListener("companion:render", () => {
    const devs = (C.table && C.table.devices) || {};
    if (devs.camera) st.camera = Object.assign({}, st.camera, devs.camera);
    draw();
  });
})();

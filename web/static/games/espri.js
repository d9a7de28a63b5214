/* ESPRI on the tablet: the board of four paths (SVG) with each cell's gem and the Nymphs,
 * the Weather of each quadrant, the pool, the characters (Prayers, Harmony, Rupture,
 * Essence/Anathema), the last Appel highlighted, the four Seasons' odds side by side with
 * their intentions and examples, and the input of the current step: announcing an Appel,
 * tapping the drawn gems' colours, choosing a selection, placing extra gems...
 * Plain JS, no build step, nothing fetched from outside. State: /api/state's `state` is
 * companion.games.espri.view.state_json. */
"use strict";
(() => {
  const GEMS = ["printemps", "ete", "automne", "hiver", "temps", "rupture"];
  const SEASONS = ["hiver", "printemps", "ete", "automne"];
  const COLOURS = { printemps: "#3fa34d", ete: "#f2c230", automne: "#d1432b", hiver: "#2f6fd6", temps: "#f4f6f8", rupture: "#8e3fb8" };
  const OPPOSITE = { hiver: "ete", ete: "hiver", printemps: "automne", automne: "printemps" };
  const NAMES = {
    printemps: ["Printemps", "Spring"], ete: ["Été", "Summer"], automne: ["Automne", "Autumn"],
    hiver: ["Hiver", "Winter"], temps: ["Temps", "Time"], rupture: ["Rupture", "Rupture"],
  };
  const RESULTS = {
    critical_failure: ["Échec Critique", "Critical Failure"], failure: ["Échec", "Failure"],
    bitter_success: ["Réussite Amère", "Bitter Success"], success: ["Réussite", "Success"],
    critical_success: ["Réussite Critique", "Critical Success"],
  };
  const RESULT_ORDER = ["critical_failure", "failure", "bitter_success", "success", "critical_success"];
  const SVGNS = "http://www.w3.org/2000/svg";

  // What the user is composing between renders (the page re-renders on every change).
  const ui = { entry: [], entryFor: "", keep: [], season: null, leader: null, helpers: {}, talent: true, oddsFor: null,
    correctOpen: false };

  function injectCss() {
    // the page links games/<game>.css (strict CSP: no inline style); a bare test page gets it inline
    if (document.getElementById("espri-css") || document.querySelector('link[data-game-css="espri"]')) return;
    const css = `
.espri { display:grid; gap:1rem; }
.espri .row { display:flex; flex-wrap:wrap; gap:.75rem; align-items:flex-start; }
.espri .panel { background:#fff; border:1px solid #ddd; border-radius:.8rem; padding:.75rem; }
.espri svg.board { width:100%; max-width:640px; height:auto; touch-action:manipulation; }
.espri .gem { display:inline-flex; align-items:center; justify-content:center; gap:.3rem; }
.espri .dot { display:inline-block; width:1.1rem; height:1.1rem; border-radius:50%; border:2px solid #555; vertical-align:middle; }
.espri .pool .gem { margin-right:.6rem; font-weight:600; }
.espri .gembtn { min-width:64px; min-height:56px; }
.espri .entry-line { min-height:1.6rem; margin:.4rem 0; }
.espri .seasons { display:grid; grid-template-columns:repeat(auto-fit, minmax(220px, 1fr)); gap:.75rem; }
.espri .season h4 { margin:.2rem 0; }
.espri .season.called { outline:3px solid #c0562a; }
.espri .small { font-size:.85rem; color:#555; }
.espri .expects { font-weight:600; padding:.5rem .75rem; border-radius:.6rem; background:#f8efe6; }
.espri .chars { display:grid; grid-template-columns:repeat(auto-fit, minmax(240px, 1fr)); gap:.75rem; }
.espri .fallen { opacity:.6; border-color:#8e3fb8; }
.espri .sel-result { font-weight:700; margin-left:.4rem; }
.espri .last { border-left:4px solid #c0562a; }
.espri button[disabled] { opacity:.5; }
`;
    document.head.append(Object.assign(document.createElement("style"), { id: "espri-css", textContent: css }));
  }

  function svg(tag, attrs, ...children) {
    const el = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
    for (const c of children) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return el;
  }

  // Cell i (0 = start, 1..L) of a path, in the quadrant's local square (0,0 corner, 1,1 centre).
  function local(i, length) {
    if (i === 0) return [0.07, 0.07];
    if (i === length) return [0.93, 0.93];
    const perRow = Math.ceil((length - 1) / 3);
    const row = Math.floor((i - 1) / perRow), k = (i - 1) % perRow;
    const t = perRow > 1 ? k / (perRow - 1) : 0;
    const x = row % 2 === 0 ? 0.2 + 0.72 * t : 0.92 - 0.72 * t;
    return [x, 0.2 + row * 0.27];
  }

  function place(season, i, length) {
    const [u, v] = local(i, length);
    const S = 300;
    switch (season) {
      case "automne": return [u * S, v * S];            // top-left
      case "hiver": return [600 - u * S, v * S];        // top-right
      case "printemps": return [600 - u * S, 600 - v * S]; // bottom-right
      default: return [u * S, 600 - v * S];             // été: bottom-left
    }
  }

  function gemDot(gem, ctx) {
    return ctx.h("span", { class: "dot", style: { background: COLOURS[gem] }, title: name(gem, ctx) });
  }
  const name = (gem, ctx) => ctx.t(NAMES[gem][0], NAMES[gem][1]);
  const resName = (r, ctx) => (RESULTS[r] ? ctx.t(RESULTS[r][0], RESULTS[r][1]) : r);

  function drawBoard(state, ctx) {
    const last = state.appel ? state.appel.record : state.last_appel;
    const placed = new Set(), removed = new Set();
    if (last) {
      for (const p of last.placements || []) if (p.cell) placed.add(p.quadrant + ":" + p.cell);
      for (const r of last.removals || []) removed.add(r.quadrant + ":" + r.cell);
    }
    const root = svg("svg", { class: "board", viewBox: "0 0 600 600", "data-test": "espri-board", role: "img" });
    for (const q of state.board) {
      const x0 = q.season === "automne" || q.season === "ete" ? 0 : 300;
      const y0 = q.season === "automne" || q.season === "hiver" ? 0 : 300;
      root.append(svg("rect", { x: x0 + 2, y: y0 + 2, width: 296, height: 296, rx: 14,
        fill: COLOURS[OPPOSITE[q.season]], "fill-opacity": 0.12, stroke: COLOURS[q.season], "stroke-width": 2 }));
      // the star path
      const pts = [];
      for (let i = 0; i <= q.length; i++) pts.push(place(q.season, i, q.length).join(","));
      root.append(svg("polyline", { points: pts.join(" "), fill: "none", stroke: "#b9a66a", "stroke-width": 2, "stroke-dasharray": "2 5" }));
      const [sx, sy] = place(q.season, 0, q.length);
      root.append(svg("rect", { x: sx - 18, y: sy - 18, width: 36, height: 36, rx: 6, fill: "#e9dcf2", stroke: "#8e3fb8",
        "stroke-width": 2, "data-test": `espri-start-${q.season}` }));
      const halo = new Set(q.halo || []);
      for (let i = 1; i <= q.length; i++) {
        const [x, y] = place(q.season, i, q.length);
        const gem = q.cells[i - 1];
        const key = q.season + ":" + i;
        const g = svg("g", { "data-test": `espri-cell-${q.season}-${i}`, "data-gem": gem || "" });
        if (halo.has(i)) g.append(svg("circle", { cx: x, cy: y, r: 19, fill: "#fff6c8", stroke: "#e6c84a", "stroke-width": 1 }));
        g.append(svg("circle", { cx: x, cy: y, r: 14, fill: gem ? COLOURS[gem] : "#fff",
          stroke: i === q.length ? "#222" : COLOURS[q.season], "stroke-width": i === q.length ? 3 : 2 }));
        if (placed.has(key)) g.append(svg("circle", { cx: x, cy: y, r: 17, fill: "none", stroke: "#c0562a", "stroke-width": 3 }));
        if (removed.has(key) && !gem) g.append(svg("circle", { cx: x, cy: y, r: 17, fill: "none", stroke: "#555", "stroke-width": 2, "stroke-dasharray": "3 3" }));
        g.append(svg("text", { x, y: y + 4, "text-anchor": "middle", "font-size": 10, fill: gem && gem !== "temps" && gem !== "ete" ? "#fff" : "#333" }, String(i)));
        g.append(svg("title", {}, `${name(q.season, ctx)} ${i}${gem ? " : " + name(gem, ctx) : ""}`));
        root.append(g);
      }
      // the Nymph
      const [nx, ny] = place(q.season, q.nymph, q.length);
      root.append(svg("g", { "data-test": `espri-nymph-${q.season}`, "data-cell": q.nymph },
        svg("polygon", { points: star(nx, ny - 2, 12, 6), fill: COLOURS[q.season], stroke: "#111", "stroke-width": 1.5 }),
        svg("title", {}, `${q.nymph_name} : ${ctx.t("case", "cell")} ${q.nymph}`)));
      // Weather and climate, between the start cell and the first row
      const top = q.season === "automne" || q.season === "hiver";
      const wy = top ? y0 + 22 : y0 + 300 - 28;
      root.append(svg("text", { x: x0 + 150, y: wy, "text-anchor": "middle", "font-size": 13, "font-weight": 700,
        "data-test": `espri-weather-${q.season}` },
        `${q.nymph_name} · ${ctx.t("Météo", "Weather")} ${q.weather}`));
      root.append(svg("text", { x: x0 + 150, y: wy + 14, "text-anchor": "middle", "font-size": 10, fill: "#444" },
        ctx.tr(q.climate)));
    }
    return root;
  }

  function star(cx, cy, r1, r2) {
    const pts = [];
    for (let k = 0; k < 10; k++) {
      const r = k % 2 ? r2 : r1, a = Math.PI / 5 * k - Math.PI / 2;
      pts.push((cx + r * Math.cos(a)).toFixed(1) + "," + (cy + r * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }

  function poolView(state, ctx) {
    return ctx.h("div", { class: "panel pool", "data-test": "espri-pool" },
      ctx.h("strong", {}, ctx.t("Pioche", "Pool") + ` (${state.pool_total}) : `),
      GEMS.map((g) => ctx.h("span", { class: "gem", "data-test": `espri-pool-${g}` }, gemDot(g, ctx), `${name(g, ctx)} ${state.pool[g]}`)));
  }

  function lastAppelView(state, ctx) {
    const last = state.appel ? state.appel.record : state.last_appel;
    if (!last) return null;
    const where = (r) => `${name(r.gem, ctx)} → ${name(r.quadrant, ctx)} ${r.cell ? ctx.t("case ", "cell ") + r.cell : ctx.t("pioche", "pool")}`;
    const lines = [];
    if (last.drawn) lines.push(ctx.t("Tirées : ", "Drawn: ") + last.drawn.map((g) => name(g, ctx)).join(", "));
    if ((last.placements || []).length) lines.push(ctx.t("Posées : ", "Placed: ") + last.placements.map(where).join(" ; "));
    if ((last.removals || []).length) lines.push(ctx.t("Retirées : ", "Removed: ") + last.removals.map(where).join(" ; "));
    for (const m of last.moves || []) if (m.nymph) lines.push(`${m.nymph} : ${m.from} → ${m.to}`);
    return ctx.h("div", { class: "panel last", "data-test": "espri-last-appel" },
      ctx.h("strong", {}, (state.appel ? ctx.t("Appel en cours", "Appel in progress") : ctx.t("Dernier Appel", "Last Appel"))
        + ` — ${name(last.season, ctx)}, N ${last.N}` + (last.result ? ` : ${resName(last.result, ctx)}` : "")),
      lines.map((l) => ctx.h("div", { class: "small" }, l)));
  }

  function charsView(state, ctx) {
    return ctx.h("div", { class: "chars" }, state.characters.map((c) => ctx.h("div", {
      class: "panel" + (c.fallen ? " fallen" : ""), "data-test": `espri-char-${c.id}` },
      ctx.h("strong", {}, c.name + " — " + (c.season ? ctx.t("Gardien·ne ", "Guardian ") + name(c.season, ctx) : ctx.t("Prêtresse", "Priestess"))),
      c.fallen ? ctx.h("div", { class: "error" }, ctx.t("Chute : plus de lien avec les Nymphes", "Fallen: no more link with the Nymphs")) : null,
      ctx.h("div", { class: "small" }, SEASONS.map((s) => `${name(s, ctx)} ${c.effective[s]}${c.effective[s] !== c.scores[s] ? "*" : ""}`).join(" · ")),
      ctx.h("div", {}, `${ctx.t("Dévotion", "Devotion")} ${c.devotion} · ${ctx.t("Harmonie", "Harmony")} `,
        ctx.h("b", { "data-test": `espri-harmony-${c.id}` }, c.harmony), " · Rupture ", ctx.h("b", { "data-test": `espri-rupture-${c.id}` }, c.rupture)),
      ctx.h("div", { "data-test": `espri-prayers-${c.id}` }, ctx.t("Prières : ", "Prayers: "),
        c.prayers.length ? c.prayers.map((g) => gemDot(g, ctx)) : "—"),
      c.resonance.length ? ctx.h("div", { class: "small" }, ctx.t("Résonance : ", "Resonance: ")
        + c.resonance.map((r) => `${r.with} ${r.current}/${r.max}${r.nature ? " (" + r.nature + ")" : ""}`).join(", ")) : null,
      ctx.h("div", { class: "small" }, ctx.t("Essence : ", "Essence: ") + ctx.tr(c.essence)),
      ctx.h("div", { class: "small" }, ctx.t("Anathème : ", "Anathema: ") + ctx.tr(c.anathema)),
      ctx.canEdit ? ctx.h("div", { class: "choices" },
        ctx.h("button", { class: "big", "data-test": `espri-harmony-plus-${c.id}`, title: ctx.t("Agit selon son Essence", "Acts by the Essence"),
          onclick: () => ctx.send("espri.harmony", { character: c.id, delta: 1 }) }, ctx.t("+1 Harmonie", "+1 Harmony")),
        ctx.h("button", { class: "big", "data-test": `espri-rupture-plus-${c.id}`, title: ctx.t("Agit selon son Anathème", "Acts by the Anathema"),
          onclick: () => ctx.send("espri.rupture", { character: c.id }) }, ctx.t("+1 Rupture", "+1 Rupture"))) : null)));
  }

  function oddsView(state, ctx) {
    const odds = state.odds || {};
    let seasons = odds.seasons, who = odds.leader;
    const pickers = [];
    if (!seasons && odds.by_character) {
      const ids = Object.keys(odds.by_character);
      if (!ids.length) return null;
      if (!ui.oddsFor || !ids.includes(ui.oddsFor)) ui.oddsFor = ids[0];
      who = ui.oddsFor;
      seasons = odds.by_character[who];
      for (const id of ids) {
        const c = state.characters.find((x) => x.id === id);
        pickers.push(ctx.h("button", { class: "choice" + (id === who ? " selected" : ""), "data-test": `espri-odds-for-${id}`,
          onclick: () => { ui.oddsFor = id; rerender(); } }, c ? c.name : id));
      }
    }
    const called = state.appel ? state.appel.season : null;
    return ctx.h("div", { class: "panel", "data-test": "espri-odds" },
      ctx.h("h3", {}, ctx.t("Chances par Saison", "Odds per Season") + (who ? " — " + who : "")),
      pickers.length ? ctx.h("div", { class: "choices" }, pickers) : null,
      ctx.h("div", { class: "seasons" }, SEASONS.map((s) => {
        const info = state.seasons[s];
        const o = seasons ? seasons[s] : null;
        return ctx.h("div", { class: "season panel" + (s === called ? " called" : ""), "data-test": `espri-odds-${s}` },
          ctx.h("h4", {}, gemDot(s, ctx), " ", ctx.tr(info.name)),
          o ? ctx.h("div", { class: "small" }, `N ${o.N} = ${o.score} − ${o.difficulty} · ${ctx.t("tirer", "draw")} ${o.draw} · `
            + (o.chooser === "gm" ? ctx.t("le MJ choisit", "GM chooses") : ctx.t("le leader choisit", "leader chooses"))) : null,
          o ? ctx.bars(RESULT_ORDER.map((r) => [resName(r, ctx), o.results[r]])) : ctx.h("div", { class: "small" }, "—"),
          ctx.h("div", { class: "small" }, ctx.tr(info.covers)),
          ctx.h("div", { class: "small" }, ctx.h("b", {}, ctx.t("Intentions : ", "Intentions: ")), info.intentions.join(", ")),
          ctx.h("div", { class: "small" }, ctx.h("b", {}, ctx.t("Exemples : ", "Examples: ")), ctx.tr(info.examples)),
          ctx.h("div", { class: "small" }, ctx.h("b", {}, "Essence : "), ctx.tr(info.essence)),
          ctx.h("div", { class: "small" }, ctx.h("b", {}, ctx.t("Anathème : ", "Anathema: ")), ctx.tr(info.anathema)));
      })));
  }

  let rerender = () => {};

  // Tapping colours: builds ui.entry, then sends it.
  function gemEntry(ctx, target, label, onSend, extra) {
    return ctx.h("div", { class: "panel", "data-test": "espri-entry" },
      ctx.h("div", {}, ctx.h("strong", {}, label)),
      ctx.h("div", { class: "choices" }, GEMS.map((g) => ctx.h("button", { class: "big gembtn choice", "data-test": `espri-gem-${g}`,
        disabled: ui.entry.length >= target, onclick: () => { ui.entry.push(g); rerender(); } }, gemDot(g, ctx), name(g, ctx)))),
      ctx.h("div", { class: "entry-line", "data-test": "espri-entry-list" },
        `${ui.entry.length}/${target} : `, ui.entry.map((g) => gemDot(g, ctx))),
      ctx.h("div", { class: "choices" },
        ctx.h("button", { class: "big", "data-test": "espri-entry-undo", disabled: !ui.entry.length,
          onclick: () => { ui.entry.pop(); rerender(); } }, ctx.t("⌫ Retirer", "⌫ Remove")),
        ctx.h("button", { class: "big", "data-test": "espri-entry-clear", disabled: !ui.entry.length,
          onclick: () => { ui.entry = []; rerender(); } }, ctx.t("Effacer", "Clear")),
        ctx.h("button", { class: "big selected", "data-test": "espri-entry-send", disabled: ui.entry.length !== target,
          onclick: async () => { const gems = ui.entry.slice(); if (await onSend(gems)) { ui.entry = []; rerender(); } } },
          ctx.t("Valider", "Confirm")),
        extra || null));
  }

  function stepView(state, ctx) {
    const ex = state.expects || {};
    const key = ex.step + ":" + (state.appel ? state.appel.leader + state.appel.season + (state.appel.hand || []).join() : ex.character || "");
    if (ui.entryFor !== key) { ui.entry = []; ui.keep = []; ui.entryFor = key; ui.correctOpen = false; }
    if (!ctx.canEdit) return ctx.h("div", { class: "small" }, ctx.t("Entrez le code pour saisir.", "Enter the PIN to make entries."));
    const send = async (type, data, opts) => { const r = await ctx.send(type, data, opts); return !!r; };
    const orAnnounce = (panel) => ctx.h("div", {}, panel, ctx.h("details", { "data-test": "espri-skip-setup" },
      ctx.h("summary", {}, ctx.t("Annoncer un Appel sans finir la mise en place", "Announce an Appel without finishing the set-up")),
      announceView(state, ctx, send)));
    switch (ex.step) {
      case "setup_draw":
        return orAnnounce(gemEntry(ctx, ex.gems, ctx.t(`Mise en place : ${ex.character} pioche ${ex.gems} gemmes`, `Set-up: ${ex.character} draws ${ex.gems} gems`),
          (gems) => send("espri.setup_draw", { character: ex.character, gems })));
      case "setup_keep":
        return pickFrom(ctx, ex.hand.filter((g) => g !== "rupture"), ex.keep,
          ctx.t(`Garder ${ex.keep} Prière(s)`, `Keep ${ex.keep} Prayer(s)`), (keep) => send("espri.setup_keep", { character: ex.character, keep }));
      case "setup_gm":
        return orAnnounce(ctx.h("button", { class: "big", "data-test": "espri-setup-gm", onclick: () => send("espri.setup_gm", {}) },
          ctx.t(`Le MJ pose ${ex.ruptures} Rupture(s)`, `GM places ${ex.ruptures} Rupture gem(s)`)));
      case "appel": return announceView(state, ctx, send);
      case "draw": {
        const extra = [
          ex.temptation ? ctx.h("button", { class: "big", "data-test": "espri-temptation",
            onclick: () => send("espri.temptation", { count: 1 }) }, ctx.t("Tentation (+2)", "Temptation (+2)")) : null,
          ctx.h("button", { class: "big", "data-test": "espri-cancel", onclick: () => send("espri.cancel", {}) }, ctx.t("Annuler l'Appel", "Cancel Appel")),
        ];
        return gemEntry(ctx, ex.gems, ctx.t(`Tirer ${ex.gems} gemme(s) (N = ${ex.N})`, `Draw ${ex.gems} gem(s) (N = ${ex.N})`),
          (gems) => send("espri.draw", { gems }), extra);
      }
      case "choose": return chooseView(state, ctx, ex, send);
      case "extras":
        return pickFrom(ctx, ex.gems, ex.count, ctx.t(`Poser ${ex.count} gemme(s) de plus`, `Place ${ex.count} more gem(s)`),
          (gems) => send("espri.extras", { gems }));
      case "keep_prayer":
        return ctx.h("div", { class: "panel" }, ctx.h("strong", {}, ctx.t("Garder une gemme retirée comme Prière ?", "Keep a removed gem as a Prayer?")),
          ctx.h("div", { class: "choices" }, ex.gems.map((g) => ctx.h("button", { class: "big choice", "data-test": `espri-keep-${g}`,
            onclick: () => send("espri.keep_prayer", { gem: g }) }, gemDot(g, ctx), name(g, ctx))),
          ctx.h("button", { class: "big", "data-test": "espri-keep-none", onclick: () => send("espri.keep_prayer", { gem: null }) }, ctx.t("Aucune", "None"))));
      case "rupture_removal":
        return ctx.h("div", { class: "panel" }, ctx.h("strong", {}, ctx.t("Retirer 1 Rupture du plateau ?", "Remove 1 Rupture gem from the board?")),
          ctx.h("div", { class: "choices" }, ex.cells.map((c) => ctx.h("button", { class: "big choice", "data-test": `espri-rupture-${c.quadrant}-${c.cell}`,
            onclick: () => send("espri.remove_rupture", c) }, `${name(c.quadrant, ctx)} ${c.cell}`)),
          ctx.h("button", { class: "big", "data-test": "espri-rupture-skip", onclick: () => send("espri.remove_rupture", { skip: true }) }, ctx.t("Non", "No"))));
      default: return null;
    }
  }

  function pickFrom(ctx, gems, count, label, onSend) {
    return ctx.h("div", { class: "panel", "data-test": "espri-pick" }, ctx.h("strong", {}, label),
      ctx.h("div", { class: "choices" }, gems.map((g, i) => ctx.h("button", {
        class: "big choice" + (ui.keep.includes(i) ? " selected" : ""), "data-test": `espri-pick-${i}`, "data-gem": g,
        onclick: () => { ui.keep = ui.keep.includes(i) ? ui.keep.filter((x) => x !== i) : ui.keep.concat([i]); rerender(); } },
        gemDot(g, ctx), name(g, ctx)))),
      ctx.h("button", { class: "big selected", "data-test": "espri-pick-send", disabled: ui.keep.length !== count,
        onclick: async () => { if (await onSend(ui.keep.map((i) => gems[i]))) { ui.keep = []; rerender(); } } }, ctx.t("Valider", "Confirm")));
  }

  function chooseView(state, ctx, ex, send) {
    const who = ex.chooser === "gm" ? ctx.t("Le MJ choisit", "The GM chooses") : ctx.t("Le leader choisit", "The leader chooses");
    const sels = ctx.h("div", { class: "choices" }, ex.selections.map((s) => ctx.h("button", {
      class: "big choice", "data-test": `espri-selection-${s.key}`, onclick: () => send("espri.choose", { selection: s.key }) },
      s.gems.map((g) => gemDot(g, ctx)), " ", s.gems.map((g) => name(g, ctx)).join(" + "),
      s.direction === "up" ? " ↑" : s.direction === "down" ? " ↓" : s.rupture_point ? ctx.t(" (+1 Rupture)", " (+1 Rupture)") : "",
      ctx.h("span", { class: "sel-result" }, "→ " + resName(s.result, ctx)),
      ctx.h("div", { class: "small" }, s.placements.map((p) => `${name(p.gem, ctx)} → ${name(p.quadrant, ctx)} ${p.cell || "—"}`).join(" ; ")))));
    const prayers = ex.prayers.length ? ctx.h("div", {}, ctx.t("Ajouter une Prière : ", "Add a Prayer: "),
      ex.prayers.map((g) => ctx.h("button", { class: "big choice", "data-test": `espri-prayer-${g}`,
        onclick: () => send("espri.prayer", { gem: g }) }, gemDot(g, ctx), name(g, ctx)))) : null;
    const redraw = ex.redraw ? gemEntry(ctx, 1, ex.redraw === "gm" ? ctx.t("Le MJ fait retirer : nouvelle gemme", "The GM has it redrawn: new gem")
      : ctx.t("Retirer une fois : nouvelle gemme", "Redraw once: new gem"), (gems) => send("espri.redraw", { gems })) : null;
    const correct = ctx.h("details", { "data-test": "espri-correct", open: ui.correctOpen,
      ontoggle: (ev) => { ui.correctOpen = ev.target.open; } }, ctx.h("summary", {}, ctx.t("Corriger le tirage", "Correct the draw")),
      redraw ? ctx.h("div", { class: "small" }, ctx.t("(après la saisie du nouveau tirage)", "(after the redraw entry)")) :
        gemEntry(ctx, ex.candidates.length - (state.appel && state.appel.prayer ? 1 : 0), ctx.t("Les bonnes couleurs", "The right colours"),
          (gems) => send("espri.draw", { gems, correction: true }, { source: "correction" })));
    return ctx.h("div", { class: "panel", "data-test": "espri-choose" }, ctx.h("strong", {}, who), sels, prayers, redraw, correct);
  }

  // R28: the default leader first (best Called Season score, then Dévotion); those who cannot lead last.
  function leaders(state) {
    const alive = state.characters.filter((c) => !c.fallen);
    if (!ui.season || !state.leader_order) return alive;
    const order = state.leader_order[ui.season] || [];
    return order.map((id) => alive.find((c) => c.id === id)).filter(Boolean)
      .concat(alive.filter((c) => !order.includes(c.id)));
  }

  function announceView(state, ctx, send) {
    if (!state.characters.length) return ctx.h("div", { class: "small" }, ctx.t("Aucun personnage.", "No character yet."));
    const helpers = Object.entries(ui.helpers).filter(([, f]) => f).map(([character, form]) => ({ character, form }));
    return ctx.h("div", { class: "panel", "data-test": "espri-announce" },
      ctx.h("strong", {}, ctx.t("Le MJ annonce l'Appel", "The GM announces the Appel")),
      ctx.h("div", { class: "choices" }, SEASONS.map((s) => ctx.h("button", { class: "big choice" + (ui.season === s ? " selected" : ""),
        "data-test": `espri-season-${s}`, onclick: () => { ui.season = s; rerender(); } }, gemDot(s, ctx), name(s, ctx)))),
      ctx.h("div", { class: "choices" }, ctx.t("Leader : ", "Leader: "), leaders(state).map((c, i) => ctx.h("button", {
        class: "big choice" + (ui.leader === c.id ? " selected" : ""), "data-test": `espri-leader-${c.id}`,
        title: i === 0 && ui.season ? ctx.t("meilleur score, puis Dévotion", "best score, then Devotion") : null,
        onclick: () => { ui.leader = c.id; delete ui.helpers[c.id]; rerender(); } }, (i === 0 && ui.season ? "★ " : "") + c.name))),
      ctx.h("div", { class: "choices" }, ctx.t("Aide : ", "Help: "), state.characters.filter((c) => c.id !== ui.leader && !c.fallen).map((c) => {
        const f = ui.helpers[c.id] || null;
        const next = f === null ? "direct" : f === "direct" ? "resonance" : null;
        return ctx.h("button", { class: "big choice" + (f ? " selected" : ""), "data-test": `espri-helper-${c.id}`,
          onclick: () => { ui.helpers[c.id] = next; rerender(); } },
          c.name + (f === "direct" ? ctx.t(" (aide directe)", " (direct aid)") : f === "resonance" ? ctx.t(" (résonance)", " (resonance)") : ""));
      })),
      ctx.h("div", { class: "choices" },
        ctx.h("button", { class: "big choice" + (ui.talent ? " selected" : ""), "data-test": "espri-talent",
          onclick: () => { ui.talent = !ui.talent; rerender(); } }, ui.talent ? ctx.t("Talent utile", "Useful Talent") : ctx.t("Sans Talent (−1 niveau)", "No Talent (−1 level)")),
        ctx.h("button", { class: "big selected", "data-test": "espri-appel-send", disabled: !ui.season || !ui.leader,
          onclick: async () => {
            if (await send("espri.appel", { season: ui.season, leader: ui.leader, helpers, talent: ui.talent })) { ui.helpers = {}; ui.talent = true; }
          } }, ctx.t("Annoncer", "Announce"))));
  }

  function expectsText(state, ctx) {
    const ex = state.expects || {};
    const msgs = {
      appel: ctx.t("En attente : le MJ annonce un Appel (Saison Appelée, leader).", "Waiting: the GM announces an Appel (Called Season, leader)."),
      draw: ctx.t(`Tirer ${ex.gems} gemme(s) de la pioche.`, `Draw ${ex.gems} gem(s) from the pool.`),
      choose: ex.chooser === "gm" ? ctx.t("Le MJ choisit les gemmes posées.", "The GM chooses the placed gems.") : ctx.t("Le leader choisit les gemmes posées.", "The leader chooses the placed gems."),
      extras: ctx.t(`Le leader pose ${ex.count} gemme(s) de plus.`, `The leader places ${ex.count} more gem(s).`),
      keep_prayer: ctx.t("Le leader peut garder une gemme retirée.", "The leader may keep a removed gem."),
      rupture_removal: ctx.t("Le leader peut retirer une Rupture.", "The leader may remove a Rupture gem."),
      setup_draw: ctx.t("Mise en place : pioche.", "Set-up: draw."), setup_keep: ctx.t("Mise en place : Prières.", "Set-up: Prayers."),
      setup_gm: ctx.t("Mise en place : Ruptures du MJ.", "Set-up: the GM's Ruptures."),
    };
    return ctx.h("div", { class: "expects", "data-test": "espri-expects", "data-step": ex.step }, msgs[ex.step] || ex.step);
  }

  Companion.registerGame("espri", {
    render(root, table, ctx) {
      injectCss();
      const state = table.state;
      rerender = () => { root.replaceChildren(); this.render(root, table, ctx); };
      if (!state) return;
      root.append(ctx.h("div", { class: "espri" },
        expectsText(state, ctx),
        ctx.h("div", { class: "row" },
          ctx.h("div", { class: "panel", style: { flex: "1 1 420px" } }, drawBoard(state, ctx)),
          ctx.h("div", { style: { flex: "1 1 320px", display: "grid", gap: ".75rem" } },
            stepView(state, ctx), lastAppelView(state, ctx), poolView(state, ctx))),
        oddsView(state, ctx),
        charsView(state, ctx),
        state.world_events.length ? ctx.h("div", { class: "panel", "data-test": "espri-world" },
          ctx.t("Case de monde atteinte : ", "World cell reached: ") + state.world_events.map((s) => name(s, ctx)).join(", ")) : null));
    },
  });
})();

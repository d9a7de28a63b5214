/* The dice statistics page: for every die the camera tells apart, its histogram (an SVG
 * drawn by the companion), the χ² verdict in words for camera reads, hand entries and
 * both, and the faces the camera keeps misreading (GET /api/stats). */
"use strict";
(() => {
  const C = window.Companion;
  let dice = null;
  const GROUPS = [["all", "Tous les jets", "All rolls"], ["camera", "Lus par la caméra", "Read by the camera"],
    ["hand", "Saisis à la main", "Typed by hand"]];

  async function load() {
    const r = await fetch("/api/stats", { credentials: "same-origin" });
    if (r.ok) { dice = (await r.json()).dice; draw(); }
  }

  function draw() {
    const h = C.h;
    const box = document.getElementById("stats");
    box.replaceChildren();
    if (!dice) return;
    if (!dice.length) {
      box.append(h("section", { class: "card" }, h("p", { class: "muted", "data-test": "stats-empty" },
        C.t("Aucun dé encore lancé à cette table.", "No die rolled at this table yet."))));
      return;
    }
    for (const d of dice) {
      const card = h("section", { class: "card die-stats", "data-test": "die-stats", "data-die": d.die });
      card.append(h("h2", {}, C.tr(d.label)));
      card.append(h("img", { class: "hist", src: "/stats/" + encodeURIComponent(d.die) + ".svg?group=all&lang=" + C.lang,
        alt: C.t("Histogramme des faces : ", "Histogram of the faces: ") + C.tr(d.label), "data-test": "die-hist" }));
      const ul = h("ul", { class: "verdicts" });
      for (const [g, fr, en] of GROUPS) {
        const v = d.verdicts[g];
        const f = d.fits[g];
        const n = f ? f.n : Object.values(d.counts[g] || {}).reduce((a, b) => a + b, 0);
        if (!n && g !== "all") continue;
        ul.append(h("li", { class: "verdict " + v.level, "data-test": "verdict-" + g, "data-level": v.level },
          h("strong", {}, C.t(fr, en) + C.t(" : ", ": ")), C.tr(v)));
      }
      card.append(ul);
      const table = h("table", { class: "counts", "data-test": "die-counts" },
        h("tr", {}, h("th", {}, C.t("Face", "Face")), GROUPS.map(([, fr, en]) => h("th", {}, C.t(fr, en)))),
        d.faces.map((f) => h("tr", {}, h("td", {}, C.tr(d.face_labels[String(f)])),
          GROUPS.map(([g]) => h("td", {}, String((d.counts[g] || {})[String(f)] || 0))))));
      card.append(table);
      if (d.misreads.length) {
        card.append(h("h3", {}, C.t("Ce que la caméra a mal lu (corrigé à la main)", "What the camera misread (corrected by hand)")),
          h("ul", { "data-test": "misreads" }, d.misreads.map((m) => h("li", {},
            C.tr(d.face_labels[String(m.face)] || { fr: String(m.face), en: String(m.face) }) + C.t(" lu comme ", " read as ") +
            C.tr(d.face_labels[String(m.read_as)] || { fr: String(m.read_as), en: String(m.read_as) }) + C.t(" : ", ": ") +
            m.times + C.t(" fois", m.times > 1 ? " times" : " time")))));
      }
      box.append(card);
    }
  }
  window.addEventListener("companion:render", draw);
  window.addEventListener("companion:hello", load);
  window.addEventListener("companion:table", load);
})();

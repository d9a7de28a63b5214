/* The journal page: every event of the table with its time, who, what, its dice and how
 * each was known; filter by player or character; older entries page by page
 * (GET /api/journal?before=&limit=); exports as CSV, JSON or a printable page. */
"use strict";
(() => {
  const C = window.Companion;
  const PAGE = 50;
  let entries = [];
  let people = [];
  let next = null;
  let who = new URLSearchParams(location.search).get("who") || "";

  async function fetchPage(before) {
    const q = new URLSearchParams({ limit: String(PAGE) });
    if (before) q.set("before", String(before));
    if (who) q.set("who", who);
    const r = await fetch("/api/journal?" + q, { credentials: "same-origin" });
    if (!r.ok) { C.toast(C.t("Journal indisponible.", "Journal unavailable.")); return; }
    const j = await r.json();
    entries = before ? entries.concat(j.entries) : j.entries;
    people = j.people || [];
    next = j.next_before;
    draw();
  }

  function exports() {
    const q = who ? "?who=" + encodeURIComponent(who) : "";
    document.getElementById("export-csv").href = "/journal.csv" + q;
    document.getElementById("export-json").href = "/journal.json" + q;
    document.getElementById("export-print").href = "/journal/print" + q;
  }

  function draw() {
    const h = C.h;
    const sel = document.getElementById("who");
    sel.replaceChildren(h("option", { value: "" }, C.t("Tout le monde", "Everyone")),
      ...people.map((p) => h("option", { value: p, selected: p === who }, p)));
    exports();
    const box = document.getElementById("journal");
    box.replaceChildren();
    if (!entries.length) { box.append(h("p", { class: "muted" }, C.t("Rien dans le journal.", "Nothing in the journal."))); }
    const list = h("ol", { class: "journal-list" });
    for (const e of entries) {
      const state = e.undone_by ? C.t("annulé par #", "undone by #") + e.undone_by : e.refused ? C.t("refusé", "refused") : "";
      list.append(h("li", { class: "jentry" + (e.undone_by ? " undone" : ""), "data-test": "journal-entry", "data-seq": e.seq,
        "data-undone": e.undone_by ? "yes" : "no" },
        h("div", { class: "jhead" },
          h("span", { class: "jseq" }, "#" + e.seq),
          h("time", { class: "when", datetime: e.at || "" }, C.clock(e.at)),
          e.who.length ? h("span", { class: "jwho", "data-test": "journal-who-names" }, e.who.join(", ")) : null,
          state ? h("span", { class: "jstate" }, state) : null),
        h("div", { class: "jtext" }, C.tr(e.text)),
        e.dice.length ? h("div", { class: "chips" }, e.dice.map((d) =>
          h("span", { class: "chip " + ({ "lu": "read", "corrigé": "corrected", "saisi": "typed" }[d.how] || ""), "data-test": "journal-die",
            "data-how": d.how }, C.tr(d.label) + " · " + C.sourceLabel(e.source)))) : null));
    }
    box.append(list);
    const more = document.getElementById("more");
    more.hidden = !next;
  }

  function start() {
    document.getElementById("who").addEventListener("change", (ev) => {
      who = ev.target.value;
      history.replaceState(null, "", who ? "?who=" + encodeURIComponent(who) : location.pathname);
      fetchPage(null);
    });
    document.getElementById("more").addEventListener("click", () => { if (next) fetchPage(next); });
    fetchPage(null);
  }
  window.addEventListener("companion:render", () => { if (entries.length || people.length) draw(); });
  window.addEventListener("companion:hello", () => fetchPage(null));
  window.addEventListener("companion:table", () => fetchPage(null));
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();

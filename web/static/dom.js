/* The page's element helpers, shared by the core page, the camera panel, the games'
 * renderers and their tests: h(tag, attrs, ...children) builds an element; bars(entries)
 * draws [[label, probability], ...] as horizontal bars (the exact probability is kept in
 * each value's data-p). */
"use strict";
const Dom = (() => {
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v;
      else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
      else if (k === "html") el.innerHTML = v;
      else if (v === true) el.setAttribute(k, "");
      else el.setAttribute(k, String(v));
    }
    for (const c of children.flat(Infinity)) {
      if (c === null || c === undefined || c === false) continue;
      el.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return el;
  }

  /* A percentage for people: "96,9 %" in French (decimal comma, narrow no-break space
   * before %), "96.9%" in English; the page's language is the document's. */
  function pct(p, digits) {
    const x = 100 * (Number(p) || 0);
    const d = digits === undefined ? (x > 0 && x < 1 ? 1 : (Number.isInteger(Math.round(x * 10) / 10) ? 0 : 1)) : digits;
    const s = x.toFixed(d);
    return document.documentElement.lang === "en" ? s + "%" : s.replace(".", ",") + "\u202f%";
  }

  function bars(entries) {
    const box = h("div", { class: "bars", "data-test": "odds-bars" });
    for (const [label, p] of entries) {
      const pct = Math.max(0, Math.min(1, Number(p) || 0)) * 100;
      box.append(h("span", {}, label),
        h("div", { class: "bar" }, h("span", { style: { width: pct.toFixed(1) + "%" } })),
        h("span", { "data-p": String(p), "data-label": label }, Dom.pct(p, pct > 0 && pct < 1 ? 1 : 0)));
    }
    return box;
  }
  return { h, bars, pct };
})();
window.Dom = Dom;

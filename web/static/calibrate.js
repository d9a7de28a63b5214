/* The calibration and enrollment wizard: markers, focus and light; the empty tray; each
 * symbol die, numbered die face by face and each gem colour; then a practice roll.
 * Uses the core page's Companion (PIN, language, toasts) and the /api/camera endpoints. */
"use strict";
const Calibrate = (() => {
  const C = window.Companion;
  const t = (fr, en) => C.t(fr, en);
  const STEPS = ["check", "background", "enroll", "practice"];
  let step = "check";
  let checks = null;
  let progress = null;
  let kind = "lieu";
  let faceIndex = 0;
  let practice = null;
  let timer = null;
  let tap = null; // [x, y] fractions of the photo: the die to learn when there are several

  // Words for kinds and faces (GET /api/labels, the rules' own); the keys until loaded.
  let labels = { kinds: {}, faces: {} };
  function kindName(k) { const p = labels.kinds[k]; return p ? t(p[0], p[1]) : k; }
  function faceName(k, f) { const p = (labels.faces[k] || {})[String(f)]; return p ? t(p[0], p[1]) : String(f); }
  async function loadLabels() {
    try { labels = await getJSON("/api/labels"); } catch (e) { return; }
    draw();
  }

  async function getJSON(url) {
    const r = await fetch(url, { credentials: "same-origin" });
    const out = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(C.tr(out.message) || out.error || ("HTTP " + r.status));
    return out;
  }

  function bar(p) {
    const pct = Math.round(100 * Math.max(0, Math.min(1, p)));
    return C.h("div", { class: "progress", "data-test": "progress", "data-value": pct },
      C.h("div", { class: "bar" }, C.h("span", { style: { width: pct + "%" } })), C.h("span", {}, pct + " %"));
  }

  function nav() {
    const h = C.h;
    const i = STEPS.indexOf(step);
    return h("div", { class: "row" },
      h("button", { class: "big ghost", "data-test": "wizard-prev", disabled: i === 0, onclick: () => go(STEPS[i - 1]) }, t("← Précédent", "← Back")),
      h("span", { "data-test": "wizard-step", "data-step": step }, t("Étape ", "Step ") + (i + 1) + " / " + STEPS.length),
      h("button", { class: "big primary", "data-test": "wizard-next", disabled: i === STEPS.length - 1, onclick: () => go(STEPS[i + 1]) }, t("Suivant →", "Next →")));
  }

  function go(s) { step = s; draw(); if (s === "enroll") loadProgress(); }

  async function loadChecks() {
    try { checks = await getJSON("/api/camera/check"); } catch (e) { checks = { error: String(e.message || e) }; }
    if (step === "check") draw();
  }

  async function loadProgress() {
    try { progress = await getJSON("/api/camera/enrollment"); } catch (e) { progress = null; }
    draw();
  }

  function drawCheck(root) {
    const h = C.h;
    root.append(h("h2", {}, t("1. Repères, netteté, lumière", "1. Markers, focus, light")));
    if (!checks) { root.append(h("p", {}, t("Vérification…", "Checking…"))); return; }
    if (checks.error) { root.append(h("p", { class: "error", "data-test": "check-error" }, checks.error)); return; }
    for (const name of ["markers", "focus", "light"]) {
      const c = checks[name];
      root.append(h("p", { class: c.ok ? "ok" : "error", "data-test": "check-" + name, "data-ok": c.ok ? "yes" : "no" },
        (c.ok ? "✔ " : "✘ ") + C.tr(c)));
    }
  }

  function drawBackground(root) {
    const h = C.h;
    root.append(h("h2", {}, t("2. Plateau vide", "2. Empty tray")),
      h("p", {}, t("Retirez tous les dés et gemmes, puis photographiez le plateau vide.", "Take every die and gem out, then photograph the empty tray.")),
      h("button", { class: "big primary", "data-test": "capture-background", onclick: async () => {
        const out = await C.api("/api/camera/background", {});
        if (out) { C.toast(t("Plateau vide enregistré.", "Empty tray saved."), true); go("enroll"); }
      } }, t("Photographier le plateau vide", "Photograph the empty tray")));
  }

  function drawEnroll(root) {
    const h = C.h;
    root.append(h("h2", {}, t("3. Apprendre les dés et les gemmes", "3. Teach the dice and gems")));
    if (!progress) { root.append(h("p", {}, "…")); return; }
    root.append(bar(progress.progress));
    const kinds = progress.kinds.map((k) => k.kind);
    root.append(h("div", { class: "choices" }, kinds.map((k) => h("button", {
      class: "big choice" + (k === kind ? " selected" : ""), "data-test": "enroll-kind-" + k,
      onclick: () => { kind = k; faceIndex = 0; draw(); } }, kindName(k)))));
    const entry = progress.kinds.find((k) => k.kind === kind);
    const face = entry.faces[Math.min(faceIndex, entry.faces.length - 1)];
    root.append(h("p", { "data-test": "enroll-face", "data-face": face.face },
      t("Posez un ", "Put one ") + kindName(kind) + t(" montrant ", " showing "), h("strong", {}, faceName(kind, face.face)),
      t(" dans le plateau, à un endroit différent à chaque vue. Vues : ", " in the tray, somewhere else each view. Views: ") +
      face.views + " / " + progress.target));
    root.append(h("div", { class: "faces" }, entry.faces.map((f, i) => h("button", {
      class: "choice" + (i === faceIndex ? " selected" : "") + (f.views >= progress.target ? " done" : ""), "data-test": "enroll-face-" + f.face,
      onclick: () => { faceIndex = i; draw(); } }, faceName(kind, f.face) + (f.views >= progress.target ? " ✔" : "")))));
    if (face.views > 0) {
      root.append(h("p", {}, t("Vues apprises :", "Views learnt:")),
        h("img", { class: "views", "data-test": "enroll-views", alt: t("vues apprises", "learnt views"),
          src: "/api/camera/enrollment/views.png?kind=" + encodeURIComponent(kind) + "&face=" +
            encodeURIComponent(face.face) + "&n=" + face.views }));
    }
    root.append(h("p", { class: "hint", "data-test": "enroll-tap" }, tap
      ? t("Dé choisi sur l'aperçu : ", "Die chosen on the preview: ") + Math.round(100 * tap[0]) + " %, " + Math.round(100 * tap[1]) + " %"
      : t("Plusieurs objets dans le plateau ? Touchez sur l'aperçu celui à apprendre.",
          "Several objects in the tray? Tap the one to learn on the preview.")));
    root.append(h("button", { class: "big primary", "data-test": "enroll-capture", onclick: async () => {
      const out = await C.api("/api/camera/enroll", tap ? { kind, face: face.face, at: tap } : { kind, face: face.face });
      if (!out) return;
      tap = null;
      if (out.warning) C.toast(C.tr({ fr: out.warning.split(" / ")[0], en: out.warning.split(" / ")[1] || out.warning }), false);
      progress = out;
      const e2 = progress.kinds.find((k) => k.kind === kind);
      if (e2.faces[faceIndex].views >= progress.target && faceIndex < e2.faces.length - 1) faceIndex += 1;
      draw();
    } }, t("Apprendre cette vue", "Learn this view")));
  }

  function drawPractice(root) {
    const h = C.h;
    root.append(h("h2", {}, t("4. Lancer d'essai", "4. Practice roll")),
      h("p", {}, t("Lancez quelques dés dans le plateau et vérifiez la lecture.", "Roll a few dice in the tray and check the read.")),
      h("button", { class: "big primary", "data-test": "practice-read", onclick: async () => {
        const out = await C.api("/api/roll/read", {});
        if (!out) return;
        setTimeout(async () => { try { practice = (await getJSON("/api/roll?n=1")).reads.slice(-1)[0] || null; } catch (e) { practice = null; } draw(); }, 1200);
      } }, t("Lire le plateau", "Read the tray")));
    if (practice) {
      root.append(h("ul", { "data-test": "practice-result" }, (practice.objects || []).map((o) =>
        h("li", { "data-status": o.status }, o.kind + " " + (o.value === null ? "?" : o.value) + " (" + Math.round(100 * (o.confidence || 0)) + " %)"))));
    }
  }

  function draw() {
    const root = document.getElementById("wizard");
    root.replaceChildren();
    ({ check: drawCheck, background: drawBackground, enroll: drawEnroll, practice: drawPractice })[step](root);
    root.append(nav());
  }

  function start() {
    draw();
    loadLabels();
    loadChecks();
    const img = document.getElementById("preview");
    // a tap on the preview during enrollment says which object to learn
    img.addEventListener("click", (ev) => {
      if (step !== "enroll") return;
      const r = img.getBoundingClientRect();
      if (!r.width || !r.height) return;
      tap = [Math.min(1, Math.max(0, (ev.clientX - r.left) / r.width)), Math.min(1, Math.max(0, (ev.clientY - r.top) / r.height))];
      draw();
    });
    const refresh = () => { img.src = "/api/camera/preview.jpg?t=" + Date.now(); };
    refresh();
    timer = setInterval(() => { refresh(); if (step === "check") loadChecks(); }, 1500);
  }

  return { start, get step() { return step; } };
})();
window.Calibrate = Calibrate;

/* Wuxia on the tablet: character sheets, tests with their exact odds, tapping d10 faces,
 * re-rolls, Destiny Dice, competitions and the combat round. Every change is an event
 * (ctx.send); this file only draws the state the companion computed.
 * Contract: Companion.registerGame("wuxia", {render(root, table, ctx)}). */
"use strict";
(() => {
  const ATTRS = [["metal", "Métal", "Metal"], ["feu", "Feu", "Fire"], ["terre", "Terre", "Earth"],
    ["eau", "Eau", "Water"], ["bois", "Bois", "Wood"]];
  const CHARS = [["attributs", "Attributs", "Attributes"], ["competences", "Compétences", "Skills"],
    ["pouvoirs", "Pouvoirs", "Powers"], ["traits", "Traits et Drames", "Traits & Dramas"],
    ["experience", "Expérience", "Experience"]];
  const TYPES = ["", "guerrier", "moine", "chevalier", "assassin", "sorcier"];
  const ROLES = { metier: ["Métier", "Trade"], profession: ["Profession", "Profession"], specialisation: ["spécialisation", "specialisation"],
    hobby: ["hobby", "hobby"], narrow: ["domaine restreint", "narrow skill"] };
  const role = (ctx, r) => (ROLES[r] ? ctx.t(ROLES[r][0], ROLES[r][1]) : r);
  // UI-only drafts that survive re-renders (nothing here is game state).
  const ui = { draft: [], correcting: false, selected: [], form: null, test: { who: "", attribute: "feu", skill: "", competence: "", sr: "10", dice: "5" },
    contest: { a: "", b: "", attribute: "feu", sr: "10" }, fight: {}, alloc: {}, attack: {}, defend: {}, invest: {} };

  function injectStyle() {
    // the page links games/<game>.css (strict CSP: no inline style); a bare test page gets it inline
    if (document.getElementById("wuxia-style") || document.querySelector('link[data-game-css="wuxia"]')) return;
    const css = `
.wx-section{margin:.8em 0;padding:.6em;border:1px solid #ccc;border-radius:8px}
.wx-dice{display:flex;flex-wrap:wrap;gap:6px;margin:.4em 0}
.wx-die{min-width:48px;min-height:48px;font-size:1.3em;border-radius:8px;border:2px solid #888;background:#fff}
.wx-die.success{background:#cfe9cf;border-color:#2e7d32}.wx-die.one{background:#f6cccc;border-color:#c62828}
.wx-die.failure{background:#eee}.wx-die.selected{outline:4px solid #1565c0}
.wx-faces{display:grid;grid-template-columns:repeat(5,minmax(48px,1fr));gap:6px;max-width:420px}
.wx-faces button{min-height:48px;font-size:1.3em}
.wx-result{font-size:1.15em;font-weight:bold;margin:.3em 0}.wx-result.critical{color:#c62828}.wx-result.success{color:#2e7d32}
.wx-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:6px;align-items:end}
.wx-grid label{display:flex;flex-direction:column;font-size:.9em}
.wx-grid input,.wx-grid select,.wx-form textarea{min-height:40px;font-size:1em}
.wx-card{border:1px solid #bbb;border-radius:8px;padding:.5em;margin:.4em 0}
.wx-row{display:flex;flex-wrap:wrap;gap:6px;align-items:center}
.wx-muted{color:#666;font-size:.9em}.wx-dead{text-decoration:line-through}
.wx-form textarea{width:100%;min-height:5em}`;
    const s = document.createElement("style");
    s.id = "wuxia-style";
    s.textContent = css;
    document.head.append(s);
  }

  function field(ctx, label, obj, key, attrs) {
    const el = ctx.h("input", Object.assign({ value: obj[key] == null ? "" : obj[key] }, attrs || {}));
    el.addEventListener("input", () => { obj[key] = el.value; });
    return ctx.h("label", {}, label, el);
  }

  function select(ctx, label, obj, key, options, attrs, redraw) {
    const el = ctx.h("select", attrs || {}, options.map(([v, text]) =>
      ctx.h("option", { value: v, selected: String(obj[key]) === String(v) }, text)));
    el.addEventListener("change", () => { obj[key] = el.value; if (redraw) rerender(); });
    return ctx.h("label", {}, label, el);
  }

  const num = (v) => (v === "" || v == null ? null : Number(v));
  const pct = (p) => window.Dom.pct(p, 1);

  async function send(ctx, type, data, source) {
    const r = await ctx.send(type, data, source ? { source } : undefined);
    return r;
  }

  // -- the pool: odds, face entry, result, re-rolls --------------------------------------
  function oddsBlock(ctx, odds) {
    const entries = [[ctx.t("réussite", "success"), odds.success], [ctx.t("échec critique", "critical failure"), odds.critical_failure],
      [ctx.t("échec", "failure"), odds.failure]];
    const dist = Object.entries(odds.successes).map(([k, p]) => [k + " " + ctx.t("succès", "succ."), p]);
    return ctx.h("div", { "data-test": "wuxia-odds" },
      ctx.h("div", { class: "wx-muted" }, ctx.t("Chances exactes", "Exact odds") +
        (odds.rerolls ? ctx.t(` (avec ${odds.rerolls} relance(s))`, ` (with ${odds.rerolls} re-roll(s))`) : "")),
      ctx.bars(entries), ctx.h("details", {}, ctx.h("summary", {}, ctx.t("Nombre de succès", "Number of successes")), ctx.bars(dist)));
  }

  function faceEntry(ctx, count, onSubmit, label) {
    const draft = ctx.h("div", { class: "wx-dice", "data-test": "wuxia-draft" },
      ui.draft.map((f, i) => ctx.h("button", { class: "wx-die big", "data-test": `wuxia-draft-${i}`, title: ctx.t("retirer", "remove"),
        onclick: () => { ui.draft.splice(i, 1); rerender(); } }, String(f))));
    const faces = ctx.h("div", { class: "wx-faces" }, Array.from({ length: 10 }, (_, i) => i + 1).map((f) =>
      ctx.h("button", { class: "choice big", "data-test": `wuxia-face-${f}`, disabled: !ctx.canEdit || ui.draft.length >= count,
        onclick: () => { ui.draft.push(f); rerender(); } }, String(f))));
    const ok = ctx.h("button", { class: "big", "data-test": "wuxia-submit-dice", disabled: !ctx.canEdit || ui.draft.length !== count,
      onclick: async () => { const dice = ui.draft.slice(); if (await onSubmit(dice)) { ui.draft = []; ui.correcting = false; rerender(); } } },
    label || ctx.t(`Valider ${count} d10`, `Enter ${count} d10`));
    const clear = ctx.h("button", { class: "big", "data-test": "wuxia-clear-dice", onclick: () => { ui.draft = []; rerender(); } },
      ctx.t("Effacer", "Clear"));
    return ctx.h("div", {}, ctx.h("div", { class: "wx-muted" }, ctx.t(`Touchez les faces des ${count} dés (${ui.draft.length}/${count})`,
      `Tap the faces of the ${count} dice (${ui.draft.length}/${count})`)), faces, draft, ctx.h("div", { class: "wx-row" }, ok, clear));
  }

  let rerender = () => {};

  function testCard(ctx, t, i, state) {
    const exp = state.expects || {};
    const attr = t.attribute_label ? ctx.tr(t.attribute_label) : "";
    const labels = { initiative: "Initiative", attack: ctx.t("attaque", "attack"), defence: ctx.t("défense", "defence") };
    const lab = labels[t.label] || t.label;
    const head = `${t.who || ctx.t("Test", "Test")}${lab ? " — " + lab : ""} : ${t.dice} d10 ${attr}, SR ${t.sr} − ${t.competence} = ${ctx.t("seuil", "threshold")} ${t.threshold}`;
    const how = { specialisation: ctx.t("spécialisation", "specialisation"), hobby: ctx.t("hobby", "hobby"), skill: ctx.t("compétence", "skill"),
      untrained: ctx.t("sans compétence", "untrained"), given: "" }[t.how] || "";
    const card = ctx.h("div", { class: "wx-card", "data-test": `wuxia-test-${i}` }, ctx.h("div", {}, ctx.h("strong", {}, head)),
      ctx.h("div", { class: "wx-muted" }, [how, t.skill, t.rerolls ? ctx.t(`${t.rerolls_left}/${t.rerolls} relance(s)`, `${t.rerolls_left}/${t.rerolls} re-roll(s)`) : ""].filter(Boolean).join(" · ")));
    const mine = exp.test === i;
    if (t.faces === null || (mine && ["roll", "reroll_dice", "extra_dice"].includes(exp.step))) {
      if (mine && exp.odds) card.append(oddsBlock(ctx, exp.odds));
      if (mine && exp.contest_odds) {
        card.append(ctx.h("div", { "data-test": "wuxia-contest-odds" }, ctx.h("div", { class: "wx-muted" }, ctx.t("Compétition", "Competition")),
          ctx.bars(Object.entries(exp.contest_odds.wins).map(([w, p]) => [w, p]).concat([[ctx.t("égalité", "tie"), exp.contest_odds.tie]]))));
      }
      if (mine && exp.attack_odds) {
        card.append(ctx.h("div", { "data-test": "wuxia-attack-odds" }, ctx.h("div", { class: "wx-muted" },
          ctx.t(`Attaque (le défenseur dépense ${exp.attack_odds.defence_dice} Dé(s) de Défense)`, `Attack (the defender spends ${exp.attack_odds.defence_dice} Defence Dice)`)),
        ctx.bars([[ctx.t("touche", "hits"), exp.attack_odds.attacker_wins], [ctx.t("paré", "parried"), exp.attack_odds.defender_holds]])));
      }
      if (mine && ctx.canEdit) {
        const count = exp.dice[0].count;
        const what = exp.step === "reroll_dice" ? ctx.t(`Relance des dés ${exp.indices.map((x) => x + 1).join(", ")}`, `Re-roll of dice ${exp.indices.map((x) => x + 1).join(", ")}`)
          : exp.step === "extra_dice" ? ctx.t("Dés supplémentaires", "Extra dice") : "";
        if (what) card.append(ctx.h("div", {}, what));
        card.append(faceEntry(ctx, count, (dice) => send(ctx, "wuxia.roll", { who: t.who || undefined, dice })));
      }
      if (t.faces === null) return card;
    }
    const res = t.result;
    const dice = ctx.h("div", { class: "wx-dice", "data-test": `wuxia-dice-${i}` }, t.faces.map((f, j) => {
      const cls = res ? res.classes[j] : "";
      const sel = ui.selected.includes(`${i}:${j}`);
      return ctx.h("button", { class: `choice wx-die big ${cls}${sel ? " selected" : ""}`, "data-test": `wuxia-die-${i}-${j}`,
        title: t.rerolled.includes(j) ? ctx.t("relancé", "re-rolled") : "",
        onclick: () => { const k = `${i}:${j}`; ui.selected = sel ? ui.selected.filter((x) => x !== k) : ui.selected.concat([k]); rerender(); } },
      String(f) + (t.rerolled.includes(j) ? "↻" : ""));
    }));
    card.append(dice);
    if (res) {
      card.append(ctx.h("div", { class: `wx-result ${res.outcome}`, "data-test": `wuxia-result-${i}` }, ctx.tr(res.text)),
        ctx.h("div", { class: "wx-muted" }, ctx.t(`${res.successes} succès · ${res.ones} « 1 » · qualité ${res.quality}`,
          `${res.successes} successes · ${res.ones} ones · quality ${res.quality}`) + (res.critical_failure ? ctx.t(" · échec critique", " · critical failure") : "")));
    }
    if (!ctx.canEdit || t.closed) return card;
    const picked = ui.selected.filter((k) => k.startsWith(`${i}:`)).map((k) => Number(k.split(":")[1]));
    const row = ctx.h("div", { class: "wx-row" });
    if (res && t.rerolls_left > 0) {
      row.append(ctx.h("button", { class: "big", "data-test": `wuxia-reroll-${i}`, disabled: picked.length === 0 || picked.length > t.rerolls_left,
        onclick: async () => { if (await send(ctx, "wuxia.reroll", { who: t.who || undefined, indices: picked })) { ui.selected = []; ui.draft = []; rerender(); } } },
      ctx.t(`Relancer ${picked.length} dé(s) (max ${t.rerolls_left})`, `Re-roll ${picked.length} die/dice (max ${t.rerolls_left})`)));
    }
    if (res) {
      row.append(ctx.h("button", { class: "big", "data-test": `wuxia-accept-${i}`, onclick: () => send(ctx, "wuxia.accept", {}) }, ctx.t("Garder", "Keep")));
      row.append(ctx.h("button", { class: "big", "data-test": `wuxia-correct-${i}`, onclick: () => { ui.correcting = i; ui.draft = []; rerender(); } },
        ctx.t("Corriger", "Correct")));
    }
    const who = (state.characters || []).find((c) => c.name === t.who);
    if (who && who.destiny > 0) {
      row.append(ctx.h("button", { class: "big", "data-test": `wuxia-destiny-${i}`, onclick: () => send(ctx, "wuxia.destiny_spend", { who: t.who, count: 1 }) },
        ctx.t(`Dé de Destinée (${who.destiny})`, `Destiny Die (${who.destiny})`)));
    }
    card.append(row);
    if (ui.correcting === i && res) {
      card.append(faceEntry(ctx, t.faces.length, (d) => send(ctx, "wuxia.correct", { who: t.who || undefined, dice: d }, "correction"),
        ctx.t("Enregistrer la correction", "Save the correction")));
    }
    return card;
  }

  // -- starting tests and competitions ----------------------------------------------------
  function startTest(ctx, state) {
    const chars = state.characters || [];
    const who = chars.find((c) => c.name === ui.test.who);
    const skills = who ? who.skills.map((s) => [s.name, `${s.name} (${role(ctx, s.role)}${s.level ? " " + s.level : ""})`]) : [];
    const grid = ctx.h("div", { class: "wx-grid" },
      select(ctx, ctx.t("Qui", "Who"), ui.test, "who", [["", "—"]].concat(chars.map((c) => [c.name, c.name])), { "data-test": "wuxia-test-who" }, true),
      select(ctx, ctx.t("Attribut", "Attribute"), ui.test, "attribute", ATTRS.map(([k, fr, en]) => [k, ctx.t(fr, en) + (who ? ` ${who.attributes[k]}` : "")]), { "data-test": "wuxia-test-attribute" }),
      who ? select(ctx, ctx.t("Compétence", "Skill"), ui.test, "skill", [["", ctx.t("— niveau libre —", "— free level —")]].concat(skills), { "data-test": "wuxia-test-skill" }, true) : null,
      (!who || !ui.test.skill) ? field(ctx, ctx.t("Niveau de compétence", "Skill level"), ui.test, "competence", { type: "number", min: 0, max: 10, "data-test": "wuxia-test-competence" }) : null,
      !who ? field(ctx, ctx.t("Nombre de dés", "Dice"), ui.test, "dice", { type: "number", min: 0, max: 60, "data-test": "wuxia-test-dice" }) : null,
      select(ctx, "SR", ui.test, "sr", [8, 9, 10, 11, 12, 13].map((v) => [v, `${v}${v === 8 ? ctx.t(" routinier", " routine") : v === 10 ? " standard" : v === 13 ? ctx.t(" extrême", " extreme") : ""}`]), { "data-test": "wuxia-test-sr" }),
      field(ctx, ctx.t("Action", "Action"), ui.test, "label", { "data-test": "wuxia-test-label" }));
    const go = ctx.h("button", { class: "big", "data-test": "wuxia-start-test", disabled: !ctx.canEdit, onclick: async () => {
      const d = { attribute: ui.test.attribute, sr: Number(ui.test.sr) };
      if (who) d.who = who.name; else d.dice = num(ui.test.dice) || 0;
      if (who && ui.test.skill) d.skill = ui.test.skill; else d.competence = num(ui.test.competence) || 0;
      if (ui.test.label) d.label = ui.test.label;
      if (await send(ctx, "wuxia.test", d)) { ui.draft = []; ui.selected = []; rerender(); }
    } }, ctx.t("Lancer le test", "Start the test"));
    const sec = ctx.h("div", { class: "wx-section", "data-test": "wuxia-new-test" }, ctx.h("h3", {}, ctx.t("Nouveau test", "New test")), grid, go);
    if (chars.length >= 2) {
      const c = ui.contest;
      sec.append(ctx.h("h4", {}, ctx.t("Compétition", "Competition")), ctx.h("div", { class: "wx-grid" },
        select(ctx, "A", c, "a", [["", "—"]].concat(chars.map((x) => [x.name, x.name])), { "data-test": "wuxia-contest-a" }),
        select(ctx, "B", c, "b", [["", "—"]].concat(chars.map((x) => [x.name, x.name])), { "data-test": "wuxia-contest-b" }),
        select(ctx, ctx.t("Attribut", "Attribute"), c, "attribute", ATTRS.map(([k, fr, en]) => [k, ctx.t(fr, en)])),
        field(ctx, ctx.t("Compétence A", "Skill A"), c, "ca", { type: "number", min: 0, max: 10, "data-test": "wuxia-contest-ca" }),
        field(ctx, ctx.t("Compétence B", "Skill B"), c, "cb", { type: "number", min: 0, max: 10, "data-test": "wuxia-contest-cb" }),
        select(ctx, "SR", c, "sr", [8, 9, 10, 11, 12, 13].map((v) => [v, String(v)]))),
      ctx.h("button", { class: "big", "data-test": "wuxia-start-contest", disabled: !ctx.canEdit || !c.a || !c.b || c.a === c.b,
        onclick: () => send(ctx, "wuxia.contest", { sr: Number(c.sr), participants: [{ who: c.a, attribute: c.attribute, competence: num(c.ca) || 0 }, { who: c.b, attribute: c.attribute, competence: num(c.cb) || 0 }] }) },
      ctx.t("Lancer la compétition", "Start the competition")));
    }
    return sec;
  }

  // -- combat ------------------------------------------------------------------------------
  function combatBlock(ctx, state) {
    const cb = state.combat;
    const exp = state.expects || {};
    const chars = state.characters || [];
    if (!cb) {
      const f = ui.fight;
      const rows = chars.map((c) => {
        f[c.name] = f[c.name] || { on: false, side: "heroes", skill: "", nd: "0", armour: "0", soul: "" };
        const o = f[c.name];
        const box = ctx.h("input", { type: "checkbox", checked: o.on, "data-test": `wuxia-fight-on-${c.name}` });
        box.addEventListener("change", () => { o.on = box.checked; });
        return ctx.h("div", { class: "wx-grid" }, ctx.h("label", {}, c.name, box),
          field(ctx, ctx.t("Camp", "Side"), o, "side"),
          select(ctx, ctx.t("Compétence martiale", "Martial skill"), o, "skill", [["", "—"]].concat(c.skills.map((s) => [s.name, s.name]))),
          field(ctx, ctx.t("ND de l'arme", "Weapon ND"), o, "nd", { type: "number", min: 0 }),
          field(ctx, ctx.t("Âme de l'arme", "Weapon soul"), o, "soul"),
          field(ctx, ctx.t("Armure (AR)", "Armour (AR)"), o, "armour", { type: "number", min: 0 }));
      });
      return ctx.h("details", { class: "wx-section", "data-test": "wuxia-combat-setup" }, ctx.h("summary", {}, ctx.t("Combat", "Fight")), rows,
        ctx.h("button", { class: "big", "data-test": "wuxia-combat-start", disabled: !ctx.canEdit, onclick: () => {
          const fighters = Object.entries(f).filter(([, o]) => o.on).map(([who, o]) => {
            const x = { who, side: o.side || "heroes", weapon: { nd: num(o.nd) || 0 }, armour: num(o.armour) || 0 };
            if (o.skill) x.skill = o.skill; else x.competence = 0;
            if (o.soul) x.weapon.soul = o.soul;
            return x;
          });
          send(ctx, "wuxia.combat_start", { fighters });
        } }, ctx.t("Commencer le combat", "Start the fight")));
    }
    const sec = ctx.h("div", { class: "wx-section", "data-test": "wuxia-combat" },
      ctx.h("h3", {}, ctx.t(`Combat — round ${cb.round}`, `Fight — round ${cb.round}`)),
      ctx.h("table", {}, ctx.h("tr", {}, [ctx.t("Ordre", "Order"), "Init.", ctx.t("Actions", "Actions"), ctx.t("Dés de Défense", "Defence Dice"), ctx.t("Camp", "Side")].map((x) => ctx.h("th", {}, x))),
        cb.order.map((name) => { const f = cb.fighters.find((x) => x.name === name);
          return ctx.h("tr", { class: f.alive ? "" : "wx-dead", "data-test": `wuxia-fighter-${name}` }, ctx.h("td", {}, name + (f.stun ? ctx.t(` (Terre −${f.stun})`, ` (Earth −${f.stun})`) : "")), ctx.h("td", {}, String(f.initiative)),
            ctx.h("td", {}, `${f.actions_left}/${f.actions}`), ctx.h("td", {}, String(f.defence_dice)), ctx.h("td", {}, f.side)); })),
      ctx.h("div", { class: "wx-muted" }, ctx.t(`Réserve de groupe : ${cb.group_reserve.length} dé(s)`, `Group reserve: ${cb.group_reserve.length} dice`)));
    if (!ctx.canEdit) return sec;
    if (exp.step === "initiative") {
      for (const name of exp.who) {
        const o = ui.alloc[name] = ui.alloc[name] || { initiative: String(exp.successes[name]), actions: "0", defence: "0" };
        sec.append(ctx.h("div", { class: "wx-grid", "data-test": `wuxia-alloc-${name}` }, ctx.h("strong", {}, ctx.t(`${name} : ${exp.successes[name]} succès`, `${name}: ${exp.successes[name]} successes`)),
          field(ctx, "Initiative", o, "initiative", { type: "number", min: 0 }), field(ctx, ctx.t("Actions +", "Actions +"), o, "actions", { type: "number", min: 0 }),
          field(ctx, ctx.t("Dés de Défense", "Defence Dice"), o, "defence", { type: "number", min: 0 }),
          ctx.h("button", { class: "big", "data-test": `wuxia-alloc-send-${name}`, onclick: () => send(ctx, "wuxia.initiative", { who: name, initiative: num(o.initiative) || 0, actions: num(o.actions) || 0, defence: num(o.defence) || 0 }) }, "OK")));
      }
    } else if (exp.step === "defend") {
      const o = ui.defend;
      sec.append(ctx.h("div", { class: "wx-grid", "data-test": "wuxia-defend" }, ctx.h("strong", {}, ctx.t(`${exp.who} se défend`, `${exp.who} defends`)),
        field(ctx, ctx.t(`Dés de Défense (max ${exp.max_defence})`, `Defence Dice (max ${exp.max_defence})`), o, "defence", { type: "number", min: 0, max: exp.max_defence }),
        field(ctx, ctx.t(`Réserve de groupe (max ${exp.max_group})`, `Group reserve (max ${exp.max_group})`), o, "group", { type: "number", min: 0, max: exp.max_group }),
        ctx.h("button", { class: "big", "data-test": "wuxia-defend-send", onclick: async () => { if (await send(ctx, "wuxia.defend", { defence: num(o.defence) || 0, group: num(o.group) || 0 })) ui.defend = {}; } }, ctx.t("Valider la défense", "Confirm the defence"))));
    } else if (exp.step === "invest") {
      const o = ui.invest;
      const labels = { defence: ctx.t("Dés de Défense", "Defence Dice"), group: ctx.t("Réserve de groupe", "Group reserve"), soul: ctx.t("Âme de l'arme", "Weapon soul") };
      sec.append(ctx.h("div", { class: "wx-grid", "data-test": "wuxia-invest" }, ctx.h("strong", {}, ctx.t(`${exp.who} : ${exp.extra} succès à investir`, `${exp.who}: ${exp.extra} extra successes`)),
        exp.choices.map((k) => field(ctx, labels[k] || ctx.tr(state.manoeuvres[k]), o, k, { type: "number", min: 0, max: exp.extra, "data-test": `wuxia-invest-${k}` })),
        ctx.h("button", { class: "big", "data-test": "wuxia-invest-send", onclick: async () => {
          const d = { defence: num(o.defence) || 0, group: num(o.group) || 0, soul: num(o.soul) || 0, manoeuvres: {} };
          for (const k of Object.keys(state.manoeuvres)) if (num(o[k])) d.manoeuvres[k] = num(o[k]);
          if (await send(ctx, "wuxia.invest", d)) ui.invest = {};
        } }, ctx.t("Appliquer", "Apply"))));
    } else if (exp.step === "action" || (cb.phase === "actions" && !cb.attack)) {
      const a = ui.attack;
      a.attacker = a.attacker || exp.who || "";
      const names = cb.fighters.filter((f) => f.alive).map((f) => [f.name, f.name]);
      sec.append(ctx.h("div", { class: "wx-grid", "data-test": "wuxia-attack" },
        select(ctx, ctx.t("Attaquant", "Attacker"), a, "attacker", [["", "—"]].concat(names), { "data-test": "wuxia-attacker" }),
        select(ctx, ctx.t("Défenseur", "Defender"), a, "defender", [["", "—"]].concat(names), { "data-test": "wuxia-defender" }),
        field(ctx, ctx.t("Dés de la réserve de groupe", "Group reserve dice"), a, "group", { type: "number", min: 0 }),
        ctx.h("button", { class: "big", "data-test": "wuxia-attack-send", onclick: () => send(ctx, "wuxia.attack", { attacker: a.attacker, defender: a.defender, group_dice: num(a.group) || 0 }) }, ctx.t("Attaquer", "Attack")),
        ctx.h("button", { class: "big", "data-test": "wuxia-action-send", onclick: () => send(ctx, "wuxia.action", { who: a.attacker }) }, ctx.t("Autre action", "Other action"))));
    }
    sec.append(ctx.h("div", { class: "wx-row" },
      ctx.h("button", { class: "big", "data-test": "wuxia-next-round", onclick: () => send(ctx, "wuxia.next_round", {}) }, ctx.t("Round suivant", "Next round")),
      ctx.h("button", { class: "big", "data-test": "wuxia-combat-end", onclick: () => send(ctx, "wuxia.combat_end", {}) }, ctx.t("Fin du combat", "End the fight"))));
    return sec;
  }

  // -- character sheets ---------------------------------------------------------------------
  function sheetToForm(c) {
    return { orig: c ? c.name : null, name: c ? c.name : "", hero_type: c && c.hero_type ? c.hero_type : "", check: c ? c.check : true,
      attributes: Object.fromEntries(ATTRS.map(([k]) => [k, c ? String(c.attributes[k]) : "3"])),
      priorities: Object.fromEntries(CHARS.map(([k], i) => [k, c && c.priorities[k] ? String(c.priorities[k]) : String(5 - i)])),
      skills: c ? c.skills.map((s) => [s.name, s.kind, s.level || "", s.parent || ""].join("; ")).join("\n") : "",
      powers: c ? c.powers.map((p) => `${p.name}; ${p.level}`).join("\n") : "",
      dramas: c ? c.dramas.join("\n") : "", traits: c ? c.traits.join("\n") : "" };
  }

  function formToData(f) {
    const lines = (s) => s.split("\n").map((x) => x.trim()).filter(Boolean);
    const skills = lines(f.skills).map((l) => { const [name, kind, level, parent] = l.split(";").map((x) => x.trim());
      const s = { name, kind: kind || (parent ? "narrow" : "metier") }; if (level) s.level = Number(level); if (parent) s.parent = parent; return s; });
    const powers = lines(f.powers).map((l) => { const [name, level] = l.split(";").map((x) => x.trim()); return { name, level: Number(level || 1) }; });
    const d = { name: f.name, attributes: Object.fromEntries(Object.entries(f.attributes).map(([k, v]) => [k, Number(v)])), skills, powers,
      traits: lines(f.traits), dramas: lines(f.dramas), check: !!f.check };
    if (f.check) d.priorities = Object.fromEntries(Object.entries(f.priorities).map(([k, v]) => [k, Number(v)]));
    if (f.hero_type) d.hero_type = f.hero_type;
    return d;
  }

  function sheetForm(ctx) {
    const f = ui.form;
    const check = ctx.h("input", { type: "checkbox", checked: f.check, "data-test": "wuxia-char-check" });
    check.addEventListener("change", () => { f.check = check.checked; rerender(); });
    const area = (label, key, hint) => { const el = ctx.h("textarea", { "data-test": `wuxia-char-${key}`, placeholder: hint }); el.value = f[key];
      el.addEventListener("input", () => { f[key] = el.value; }); return ctx.h("label", {}, label, el); };
    return ctx.h("div", { class: "wx-card wx-form", "data-test": "wuxia-char-form" },
      ctx.h("div", { class: "wx-grid" }, field(ctx, ctx.t("Nom", "Name"), f, "name", { "data-test": "wuxia-char-name" }),
        ATTRS.map(([k, fr, en]) => field(ctx, ctx.t(fr, en), f.attributes, k, { type: "number", min: 1, max: 10, "data-test": `wuxia-char-attr-${k}` })),
        select(ctx, ctx.t("Type de héros", "Hero type"), f, "hero_type", TYPES.map((x) => [x, x || ctx.t("— selon la priorité —", "— from priority —")])),
        ctx.h("label", {}, ctx.t("Règles de création", "Creation rules"), check)),
      f.check ? ctx.h("div", { class: "wx-grid" }, ctx.h("strong", {}, ctx.t("Priorités (1 à 5, chacune une fois)", "Priorities (1 to 5, each once)")),
        CHARS.map(([k, fr, en]) => select(ctx, ctx.t(fr, en), f.priorities, k, [1, 2, 3, 4, 5].map((v) => [v, String(v)]), { "data-test": `wuxia-char-prio-${k}` }))) : null,
      area(ctx.t("Compétences (une par ligne : nom; metier|profession|narrow; niveau; parent)", "Skills (one per line: name; metier|profession|narrow; level; parent)"), "skills", "Chasseur; metier; 5\nTir à l'arc; narrow; ; Chasseur"),
      area(ctx.t("Pouvoirs (nom; niveau)", "Powers (name; level)"), "powers", "Kiai; 2"),
      area(ctx.t("Traits", "Traits"), "traits", ""), area(ctx.t("Drames", "Dramas"), "dramas", ""),
      ctx.h("div", { class: "wx-row" },
        ctx.h("button", { class: "big", "data-test": "wuxia-char-save", onclick: async () => {
          const d = formToData(f);
          let ok;
          if (f.orig) { d.rename = d.name; d.name = f.orig; ok = await send(ctx, "wuxia.character_edit", d); }
          else ok = await send(ctx, "wuxia.character_new", d);
          if (ok) { ui.form = null; rerender(); }
        } }, ctx.t("Enregistrer", "Save")),
        ctx.h("button", { class: "big", "data-test": "wuxia-char-cancel", onclick: () => { ui.form = null; rerender(); } }, ctx.t("Annuler", "Cancel"))));
  }

  function sheets(ctx, state) {
    const sec = ctx.h("div", { class: "wx-section", "data-test": "wuxia-sheets" }, ctx.h("h3", {}, ctx.t("Personnages", "Characters")));
    for (const c of state.characters || []) {
      const s = c.secondary;
      const counter = (label, type, key, value) => ctx.h("span", { class: "wx-row" }, `${label} ${value}`,
        ctx.canEdit ? ctx.h("button", { class: "big", "data-test": `wuxia-${type}-minus-${c.name}`, onclick: () => send(ctx, `wuxia.${type}`, { who: c.name, [key]: -1 }) }, "−") : null,
        ctx.canEdit ? ctx.h("button", { class: "big", "data-test": `wuxia-${type}-plus-${c.name}`, onclick: () => send(ctx, `wuxia.${type}`, { who: c.name, [key]: 1 }) }, "+") : null);
      sec.append(ctx.h("div", { class: "wx-card" + (s.dead ? " wx-dead" : ""), "data-test": `wuxia-char-${c.name}` },
        ctx.h("strong", {}, c.name), c.hero_type ? ` (${c.hero_type})` : "",
        ctx.h("div", {}, ATTRS.map(([k, fr, en]) => `${ctx.t(fr, en)} ${c.attributes[k]}`).join(" · ")),
        ctx.h("div", { class: "wx-muted" }, c.skills.map((k) => `${k.name}${k.level ? " " + k.level : ""} (${role(ctx, k.role)})`).join(", ")),
        ctx.h("div", { class: "wx-muted" }, ctx.t(`Seuil de Mort ${s.death_threshold} · Chi ${s.chi_left}/${s.chi} · Initiative de base ${s.initiative_base}`,
          `Death threshold ${s.death_threshold} · Chi ${s.chi_left}/${s.chi} · base Initiative ${s.initiative_base}`) +
          (c.creation.attributes.budget ? ctx.t(` · attributs ${c.creation.attributes.points}/${c.creation.attributes.budget} pts`, ` · attributes ${c.creation.attributes.points}/${c.creation.attributes.budget} pts`) : "")),
        ctx.h("div", { class: "wx-row" }, counter(ctx.t("Blessures", "Wounds"), "wound", "amount", `${c.wounds}/${s.death_threshold}`),
          counter(ctx.t("Panique", "Panic"), "panic", "amount", c.panic), counter(ctx.t("Chi dépensé", "Chi spent"), "chi", "amount", c.chi_spent),
          counter(ctx.t("Dés de Destinée", "Destiny Dice"), "destiny", "award", c.destiny),
          ctx.canEdit ? ctx.h("button", { class: "big", "data-test": `wuxia-char-edit-${c.name}`, onclick: () => { ui.form = sheetToForm(c); rerender(); } }, ctx.t("Modifier", "Edit")) : null)));
    }
    if (ui.form) sec.append(sheetForm(ctx));
    else if (ctx.canEdit) sec.append(ctx.h("button", { class: "big", "data-test": "wuxia-new-char", onclick: () => { ui.form = sheetToForm(null); rerender(); } }, ctx.t("Nouveau personnage", "New character")));
    return sec;
  }

  function render(root, table, ctx) {
    injectStyle();
    rerender = () => { root.replaceChildren(); render(root, table, ctx); };
    const state = table.state || {};
    const exp = state.expects || {};
    const step = { roll: ctx.t("Lancer les dés", "Roll the dice"), reroll_dice: ctx.t("Relancer les dés choisis", "Roll the chosen dice again"),
      extra_dice: ctx.t("Lancer les dés supplémentaires", "Roll the extra dice"), reroll: ctx.t("Relances possibles (facultatif)", "Re-rolls available (optional)"),
      initiative: ctx.t("Répartir les succès d'Initiative", "Share the Initiative successes"), defend: ctx.t("Défense", "Defence"),
      invest: ctx.t("Investir les succès", "Invest the successes"), action: ctx.t("Action suivante", "Next action"), test: ctx.t("Nouveau test", "New test") }[exp.step] || exp.step;
    const whoTxt = Array.isArray(exp.who) ? exp.who.join(", ") : exp.who;
    root.append(ctx.h("div", { class: "wx-section", "data-test": "wuxia-expects" }, ctx.h("strong", {}, step), whoTxt ? ` — ${whoTxt}` : ""));
    if (state.last) root.append(ctx.h("div", { class: "wx-section", "data-test": "wuxia-last" }, ctx.tr(state.last.text)));
    if (!(state.tests || []).length && state.result) {
      const r = state.result;
      root.append(ctx.h("div", { class: "wx-section", "data-test": "wuxia-last-result" },
        ctx.h("div", { class: "wx-dice" }, r.dice.map((f, j) => ctx.h("span", { class: `wx-die ${r.classes[j]}` }, String(f)))),
        ctx.h("div", { class: `wx-result ${r.outcome}` }, ctx.tr(r.text))));
    }
    if ((state.tests || []).length) {
      root.append(ctx.h("div", { class: "wx-section", "data-test": "wuxia-tests" }, (state.tests || []).map((t, i) => testCard(ctx, t, i, state))));
    }
    if (!["initiative", "attack"].includes(state.mode)) root.append(startTest(ctx, state));
    root.append(combatBlock(ctx, state));
    root.append(sheets(ctx, state));
  }

  Companion.registerGame("wuxia", { render });
})();

/* Péripéties: the tablet's part of the page.
 *
 * Draws from /api/state (table.state is the game's state_json):
 *   whose turn, the current episode (dice as symbols and words), the roll needed and the
 *   odds of each choice, the outcome and the narration, the character cards with all
 *   their tokens; and the inputs: every die face the current step expects (tap, then
 *   confirm), the choices (gourd, sworn brother, bribe, heal, convict's cell, drawn card),
 *   corrections of the episode dice, and the add/edit character forms.
 * Contract: Companion.registerGame("peripeties", {render(root, table, ctx)}) — see
 * BRIEF/DESIGN. No framework, no build step, no external URL.
 * Every interactive element has a data-test attribute starting with "pp-".
 */
(function () {
  "use strict";

  var CSS = [
    ".pp{display:flex;flex-direction:column;gap:12px;font-size:16px}",
    ".pp-panel{border:1px solid #c9b9a0;border-radius:10px;padding:10px;background:#fffaf2}",
    ".pp-panel h3{margin:0 0 6px 0;font-size:18px}",
    ".pp-turn{font-size:20px;font-weight:bold}",
    ".pp-sub{color:#6b5a44;font-size:14px}",
    ".pp-chips{display:flex;flex-wrap:wrap;gap:6px;margin:4px 0}",
    ".pp-chip{display:inline-flex;align-items:center;gap:4px;padding:4px 10px;border-radius:16px;background:#eee;font-size:15px}",
    ".pp-chip.blue{background:#dbe8ff}.pp-chip.yellow{background:#fff1b8}.pp-chip.red{background:#ffd6d1}",
    ".pp-row{margin:8px 0}",
    ".pp-row-label{font-weight:bold;margin-bottom:4px}",
    ".pp-faces{display:flex;flex-wrap:wrap;gap:6px}",
    ".pp .choice{min-width:48px;min-height:48px;padding:6px 10px;border-radius:8px;border:2px solid #b9a98f;background:#fff;font-size:16px;cursor:pointer}",
    ".pp .choice.selected{border-color:#b3261e;background:#ffe3d6;font-weight:bold}",
    ".pp .big{min-height:48px;min-width:48px;padding:8px 16px;font-size:17px;border-radius:8px;cursor:pointer}",
    ".pp .primary{background:#b3261e;color:#fff;border:none}",
    ".pp button:disabled{opacity:.45;cursor:default}",
    ".pp .pp-icon{font-size:22px}",
    ".pp-narration{font-style:italic;margin:6px 0;line-height:1.4}",
    ".pp-result.ok{color:#1b6e20;font-weight:bold}.pp-result.ko{color:#b3261e;font-weight:bold}",
    ".pp-cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:10px}",
    ".pp-card{border:2px solid #c9b9a0;border-radius:10px;padding:8px;background:#fff}",
    ".pp-card.current{border-color:#b3261e;box-shadow:0 0 0 2px #ffd6d1}",
    ".pp-card.dead{opacity:.55}",
    ".pp-stats{display:grid;grid-template-columns:auto auto auto;gap:2px 10px;margin:4px 0}",
    ".pp-tokens{display:flex;flex-wrap:wrap;gap:4px}",
    ".pp-form{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:8px;align-items:end}",
    ".pp-form label{display:flex;flex-direction:column;font-size:14px;gap:2px}",
    ".pp-form input,.pp-form select{min-height:44px;font-size:16px;padding:4px}",
    ".pp-actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}",
    ".pp-muted{color:#7d6f5c}",
    ".pp-list{margin:4px 0;padding-left:20px}"
  ].join("\n");

  function injectCss() {
    // the page links games/<game>.css (strict CSP: no inline style); a bare test page gets it inline
    if (document.getElementById("pp-style") || document.querySelector('link[data-game-css="peripeties"]')) return;
    var s = document.createElement("style");
    s.id = "pp-style";
    s.textContent = CSS;
    document.head.appendChild(s);
  }

  // -- words --------------------------------------------------------------------------
  var KIND = {
    lieu: ["Lieu", "Location"], adversaire: ["Adversaire", "Adversary"], epreuve: ["Épreuve", "Trial"],
    recompense: ["Récompense", "Reward"], sentence: ["Sentence", "Sentence"],
    d4: ["D4", "d4"], d6: ["D6", "d6"], d10: ["D10", "d10"], d12: ["D12", "d12"]
  };
  var COLOUR = { lieu: "blue", adversaire: "blue", epreuve: "blue", recompense: "yellow", sentence: "red" };
  var ROLE = {
    lieu: ["Dé de lieu", "Location die"], adversaire: ["Dé d'adversaire", "Adversary die"],
    epreuve: ["Dé d'épreuve", "Trial die"], recompense: ["Dé de récompense (jaune)", "Reward die (yellow)"],
    sentence: ["Dé de sentence (rouge)", "Sentence die (red)"], difficulty: ["Difficulté", "Difficulty"],
    detail: ["D6 de détail (facultatif)", "Detail d6 (optional)"], trial: ["Jet d'épreuve", "Trial roll"],
    taels: ["D10 de taels", "Taels d10"], prison: ["D4 du bagne", "Prison d4"]
  };
  var STEP = {
    setup: ["Mise en place", "Setup"], episode: ["Dés de péripétie", "Episode dice"],
    trial: ["Jet d'épreuve", "Trial roll"], gourd: ["Boire la gourde ?", "Drink the gourd?"],
    reward_taels: ["Taels gagnés : lancez un D10", "Taels won: roll a d10"],
    reward_reroll: ["Relancez le dé de récompense", "Re-roll the reward die"],
    brother_card: ["Frère juré : carte piochée", "Sworn brother: drawn card"],
    fine: ["Amende : lancez un D10", "Fine: roll a d10"],
    sentence_reroll: ["Relancez le dé de sentence", "Re-roll the sentence die"],
    prison: ["Bagne : lancez le D4", "Prison: roll the d4"], bribe: ["Corruption ?", "Bribe?"],
    travel: ["Phase de voyage", "Travel phase"]
  };
  var TRIAL = { combat: ["combat", "combat"], esprit: ["esprit", "mind"], magie: ["magie", "magic"] };
  var SIDES = { d4: 4, d6: 6, d10: 10, d12: 12 };
  var LOCATIONS = ["montagne", "ville", "temple", "auberge", "foret", "etang"];

  function w(ctx, pair) { return ctx.t(pair[0], pair[1]); }

  // Local picks survive re-renders while the step is the same.
  var draft = { key: null, picks: {}, correcting: false, form: null, formKey: null };

  function stepKey(st) {
    var e = st.expects || {};
    return [st.turn, e.step, e.character || "", JSON.stringify(e.have || {})].join("|");
  }

  function faceInfo(st, kind, key) {
    var faces = (st.dice_faces || {})[kind] || [];
    for (var i = 0; i < faces.length; i++) if (faces[i].key === key) return faces[i];
    return null;
  }

  function faceLabel(ctx, st, kind, value) {
    var f = faceInfo(st, kind, value);
    if (f) return (f.icon ? f.icon + " " : "") + ctx.t(f.fr, f.en);
    return String(value);
  }

  function chip(ctx, st, kind, value, extra) {
    var h = ctx.h;
    return h("span", { class: "pp-chip " + (COLOUR[kind] || ""), "data-test": "pp-have-" + kind },
      (KIND[kind] ? w(ctx, KIND[kind]) + ctx.t(" : ", ": ") : "") + faceLabel(ctx, st, kind, value) + (extra || ""));
  }

  function nameOf(st, cid) {
    var all = (st.characters || []).concat(st.dead || []);
    for (var i = 0; i < all.length; i++) if (all[i].id === cid) return all[i].card.name;
    return cid || "";
  }

  function send(ctx, type, data, opts) {
    var p = opts ? ctx.send(type, data, opts) : ctx.send(type, data);
    return Promise.resolve(p).then(function (res) {
      if (res) { draft.picks = {}; draft.correcting = false; }
      return res;
    });
  }

  // -- the die buttons ----------------------------------------------------------------
  function faceValues(st, kind) {
    if (SIDES[kind]) {
      var out = [];
      for (var v = 1; v <= SIDES[kind]; v++) out.push(v);
      return out;
    }
    return ((st.dice_faces || {})[kind] || []).map(function (f) { return f.key; });
  }

  function dieRow(ctx, st, entry, index, onPick) {
    var h = ctx.h;
    var slot = entry.role + "#" + index;
    var label = w(ctx, ROLE[entry.role] || [entry.role, entry.role]);
    if (entry.count > 1 || index > 0) label += " " + (index + 1);
    if (entry.kind && SIDES[entry.kind]) {
      var kindWord = w(ctx, KIND[entry.kind]);
      // "Détail (D6)" already names its die: never "(D6) (D6)"
      if (label.toLowerCase().indexOf(kindWord.toLowerCase()) < 0) label += " (" + kindWord + ")";
    }
    if (entry.reroll) label += ctx.t(" — relance", " — re-roll");
    if (entry.by) label += " · " + entry.by;
    var buttons = faceValues(st, entry.kind).map(function (value) {
      var picked = draft.picks[slot] && draft.picks[slot].value === value;
      var f = SIDES[entry.kind] ? null : faceInfo(st, entry.kind, value);
      var content = f
        ? [h("span", { class: "pp-icon" }, f.icon || ""), " ", ctx.t(f.fr, f.en)]
        : [String(value)];
      var attrs = {
        class: "choice" + (picked ? " selected" : ""),
        "data-test": "pp-die-" + entry.role + "-" + index + "-" + value,
        onclick: function () {
          if (picked) delete draft.picks[slot];
          else draft.picks[slot] = { kind: entry.kind, value: value, role: entry.role };
          onPick();
        }
      };
      if (!ctx.canEdit) attrs.disabled = "disabled";
      return h("button", attrs, content);
    });
    return h("div", { class: "pp-row", "data-test": "pp-row-" + entry.role + "-" + index },
      h("div", { class: "pp-row-label" }, label),
      h("div", { class: "pp-faces" }, buttons));
  }

  function currentTrial(st) {
    for (var k in draft.picks) if (draft.picks[k].role === "epreuve") return draft.picks[k].value;
    return ((st.expects || {}).have || {}).epreuve || null;
  }

  function diceInputs(ctx, st, entries, rerender) {
    var h = ctx.h;
    var rows = [];
    var epreuve = currentTrial(st);
    var hidden = false;
    entries.forEach(function (e) {
      if (e["if"]) {
        if (!epreuve) { hidden = true; return; }
        if (e["if"].epreuve.indexOf(epreuve) < 0) return;
      }
      for (var i = 0; i < (e.count || 1); i++) rows.push(dieRow(ctx, st, e, i, rerender));
    });
    if (hidden) rows.push(h("div", { class: "pp-muted", "data-test": "pp-difficulty-hint" },
      ctx.t("Difficulté : choisissez d'abord l'épreuve (2D10 combat/esprit, 2D6 magie).",
            "Difficulty: pick the trial first (2D10 combat/mind, 2D6 magic).")));
    return rows;
  }

  function pickedDice() {
    var out = [];
    Object.keys(draft.picks).sort().forEach(function (k) { out.push(draft.picks[k]); });
    return out;
  }

  function confirmButton(ctx, label, onclick, test) {
    var n = pickedDice().length;
    var attrs = { class: "big primary", "data-test": test || "pp-confirm", onclick: onclick };
    if (!ctx.canEdit || n === 0) attrs.disabled = "disabled";
    return ctx.h("button", attrs, label + (n ? " (" + n + ")" : ""));
  }

  // -- panels -------------------------------------------------------------------------
  function header(ctx, st) {
    var h = ctx.h;
    var e = st.expects || {};
    var who = e.character
      ? nameOf(st, e.character) + " (" + e.player + ")"
      : "";
    var sub = [];
    if (e.next_player && e.step === "episode") {
      sub.push(ctx.t("Dés bleus : ", "Blue dice: ") + e.player + " — " +
        ctx.t("difficulté, récompense, sentence : ", "difficulty, reward, sentence: ") + e.next_player);
    }
    return h("div", { class: "pp-panel", "data-test": "pp-header" },
      h("div", { class: "pp-turn", "data-test": "pp-turn" },
        ctx.t("Tour ", "Turn ") + st.turn + " — " + w(ctx, STEP[e.step] || [e.step, e.step]) + (who ? " — " + who : "")),
      sub.length ? h("div", { class: "pp-sub" }, sub.join(" · ")) : "");
  }

  function episodePanel(ctx, st) {
    var h = ctx.h;
    var ep = st.episode;
    if (!ep) return null;
    var have = ep.dice || {};
    var chips = [];
    ["lieu", "adversaire", "epreuve", "recompense", "sentence"].forEach(function (k) {
      if (have[k] !== undefined) chips.push(chip(ctx, st, k, have[k]));
    });
    if (have.difficulty) {
      var scale = have.epreuve === "magie" ? 12 : 20;
      chips.push(h("span", { class: "pp-chip", "data-test": "pp-have-difficulty" },
        w(ctx, ROLE.difficulty) + ctx.t(" : ", ": ") + have.difficulty.join(" + ") +
        (have.difficulty_total !== undefined ? " = " + have.difficulty_total + "/" + scale : "")));
    }
    if (have.detail) chips.push(h("span", { class: "pp-chip", "data-test": "pp-have-detail" }, "D6" + ctx.t(" : ", ": ") + have.detail.join(", ")));
    var story = ep.narration;
    var details = [];
    if (story && story.lieu_detail) details.push(ctx.tr(story.lieu_detail));
    if (story && story.adversaire_detail) details.push(ctx.tr(story.adversaire_detail));
    return h("div", { class: "pp-panel", "data-test": "pp-episode" },
      h("h3", {}, ctx.t("Péripétie de ", "Episode of ") + nameOf(st, ep.character) + (ep.corrected ? ctx.t(" (corrigée)", " (corrected)") : "")),
      chips.length ? h("div", { class: "pp-chips" }, chips)
        : h("div", { class: "pp-muted" }, ctx.t("Lancez les trois dés bleus, le jaune, le rouge et la difficulté.", "Roll the three blue dice, the yellow, the red and the difficulty.")),
      details.length ? h("div", { class: "pp-sub" }, ctx.t("Détails : ", "Details: ") + details.join(" · ")) : "",
      story ? h("div", { class: "pp-narration", "data-test": "pp-narration" }, "« " + ctx.tr(story) + " »") : "",
      (ep.results || []).length ? h("ul", { class: "pp-list" }, ep.results.map(function (r) { return h("li", {}, ctx.tr(r.text)); })) : "");
  }

  function oddsPanel(ctx, st) {
    var h = ctx.h;
    var e = st.expects;
    var bars = (e.odds || []).map(function (row) {
      return [ctx.tr(row.label) + " — " + ctx.t("jet ≥ ", "roll ≥ ") + row.needed, row.probability];
    });
    var mods = (e.modifiers || []).map(function (m) {
      return h("li", {}, ctx.tr(m.text) + ctx.t(" : ", ": ") + (m.value >= 0 ? "+" : "") + m.value);
    });
    var die = (e.dice && e.dice[0] && e.dice[0].kind) || "d10";
    var need = null;
    (e.odds || []).forEach(function (row) {
      var sameBrother = row.brother === ((st.episode || {}).brother || null);
      if (sameBrother && row.gourd === ((st.episode || {}).gourd || 0)) need = row;
    });
    return h("div", { class: "pp-panel", "data-test": "pp-odds" },
      h("h3", {}, ctx.t("Difficulté ", "Difficulty ") + e.difficulty + " — " + w(ctx, KIND[die]) +
        " + " + e.modifier),
      need ? h("div", { class: "pp-turn", "data-test": "pp-needed" },
        need.needed > SIDES[die]
          ? ctx.t("Aucun jet ne réussit", "No roll succeeds")
          : ctx.t("Il faut " + need.needed + " ou plus", "Roll " + need.needed + " or more") +
            " (" + window.Dom.pct(need.probability, 0) + ")") : "",
      h("ul", { class: "pp-list", "data-test": "pp-modifiers" }, mods),
      bars.length ? ctx.bars(bars) : "");
  }

  function choiceButtons(ctx, st, choice) {
    var h = ctx.h;
    var labels = choice.labels || [];
    return h("div", { class: "pp-row", "data-test": "pp-choice-" + choice.name },
      h("div", { class: "pp-row-label" }, choiceTitle(ctx, choice)),
      h("div", { class: "pp-faces" }, choice.values.map(function (v, i) {
        var label = labels[i] !== undefined && labels[i] !== null ? labels[i] : choiceValueLabel(ctx, choice, v);
        var attrs = {
          class: "choice" + (choice.selected === v ? " selected" : ""),
          "data-test": "pp-choice-" + choice.name + "-" + (v === null ? "none" : v),
          onclick: function () {
            var data = {};
            if (choice.name === "bribe") data = { character: st.expects.character, turns: v };
            else data[choice.field] = v;
            send(ctx, choice.event, data);
          }
        };
        if (!ctx.canEdit) attrs.disabled = "disabled";
        return h("button", attrs, label);
      })));
  }

  function choiceTitle(ctx, c) {
    var t = {
      gourd: ["Gourde d'arak (+5 au combat)", "Gourd of arak (+5 in combat)"],
      brother: ["Frère juré", "Sworn brother"], character: ["Qui joue maintenant ?", "Who plays now?"],
      card: ["Carte bandit piochée", "Bandit card drawn"],
      bribe: ["Corrompre les gardiens (tours en moins)", "Bribe the guards (turns off)"]
    }[c.name];
    return t ? w(ctx, t) + (c.by ? " · " + c.by : "") : c.name;
  }

  function choiceValueLabel(ctx, c, v) {
    if (v === null) return c.name === "card" ? ctx.t("Pioche vide", "Pile empty") : ctx.t("Aucun", "None");
    if (c.name === "gourd") return v ? "🍶 ×" + v : ctx.t("Sans", "None");
    if (c.name === "bribe") return v ? "−" + v + " (" + v * (c.cost_per_turn || 10) + " taels)" : ctx.t("Non", "No");
    return String(v);
  }

  function cellInput(ctx, st) {
    var h = ctx.h;
    var input = h("input", { type: "text", maxlength: "40", placeholder: ctx.t("case", "cell"), "data-test": "pp-cell-input" });
    var attrs = {
      class: "big", "data-test": "pp-cell-send",
      onclick: function () {
        if (input.value.trim()) send(ctx, "peripeties.cell", { character: st.expects.character, cell: input.value.trim() });
      }
    };
    if (!ctx.canEdit) { attrs.disabled = "disabled"; }
    return h("div", { class: "pp-row" },
      h("div", { class: "pp-row-label" }, ctx.t("Case choisie par ", "Cell chosen by ") + (st.expects.next_player || "") + ctx.t(" (facultatif)", " (optional)")),
      h("div", { class: "pp-actions" }, input, h("button", attrs, ctx.t("Placer", "Place"))));
  }

  function correctionPanel(ctx, st, rerender) {
    // Every episode die, pre-selected with what was entered; sends a correction.
    var h = ctx.h;
    var have = (st.expects || {}).have || {};
    if (!draft.correcting) return null;
    if (!draft.prefilled) {
      draft.picks = {};
      ["lieu", "adversaire", "epreuve", "recompense", "sentence"].forEach(function (k) {
        if (have[k] !== undefined) draft.picks[k + "#0"] = { kind: k, value: have[k], role: k };
      });
      (have.difficulty || []).forEach(function (v, i) {
        draft.picks["difficulty#" + i] = { kind: have.difficulty_kind || "d10", value: v, role: "difficulty" };
      });
      (have.detail || []).forEach(function (v, i) { draft.picks["detail#" + i] = { kind: "d6", value: v, role: "detail" }; });
      draft.prefilled = true;
    }
    var epreuve = currentTrial(st);
    var entries = ["lieu", "adversaire", "epreuve", "recompense", "sentence"].map(function (k) {
      return { kind: k, role: k, count: 1 };
    });
    entries.push({ kind: epreuve === "magie" ? "d6" : "d10", role: "difficulty", count: 2 });
    var nDetail = (st.expects.dice || []).filter(function (d) { return d.role === "detail"; }).length ? 1 : (have.detail || []).length;
    if (nDetail) entries.push({ kind: "d6", role: "detail", count: nDetail, optional: true });
    var rows = [];
    entries.forEach(function (e) { for (var i = 0; i < e.count; i++) rows.push(dieRow(ctx, st, e, i, rerender)); });
    return h("div", { class: "pp-panel", "data-test": "pp-correction" },
      h("h3", {}, ctx.t("Corriger les dés de la péripétie", "Correct the episode dice")),
      rows,
      h("div", { class: "pp-actions" },
        confirmButton(ctx, ctx.t("Enregistrer la correction", "Save the correction"), function () {
          var dice = pickedDice().map(function (d) {
            if (d.role === "difficulty") return { kind: epreuve === "magie" ? "d6" : "d10", value: d.value, role: "difficulty" };
            return d;
          });
          send(ctx, "peripeties.dice", { dice: dice, replace: true, character: st.expects.character }, { source: "correction" });
        }, "pp-correction-confirm"),
        h("button", { class: "big", "data-test": "pp-correction-cancel", onclick: function () {
          draft.correcting = false; draft.prefilled = false; draft.picks = {}; rerender();
        } }, ctx.t("Annuler", "Cancel"))));
  }

  function inputPanel(ctx, st, rerender) {
    var h = ctx.h;
    var e = st.expects || {};
    var step = e.step;
    var parts = [];
    if (step === "setup" || step === "travel") return travelPanel(ctx, st);
    if (draft.correcting && (step === "episode" || step === "trial")) return correctionPanel(ctx, st, rerender);
    (e.choices || []).forEach(function (c) {
      if (c.name === "cell") parts.push(cellInput(ctx, st));
      else if (c.values) parts.push(choiceButtons(ctx, st, c));
    });
    if ((e.dice || []).length) {
      parts = parts.concat(diceInputs(ctx, st, e.dice, rerender));
      var label = step === "trial" ? ctx.t("Valider le jet", "Confirm the roll") : ctx.t("Valider les dés", "Confirm the dice");
      parts.push(h("div", { class: "pp-actions" },
        confirmButton(ctx, label, function () { send(ctx, "peripeties.dice", { dice: pickedDice(), character: e.character }); }),
        pickedDice().length ? h("button", { class: "big", "data-test": "pp-clear", onclick: function () { draft.picks = {}; rerender(); } },
          ctx.t("Effacer", "Clear")) : ""));
    }
    var haveAny = Object.keys(e.have || {}).length > 0;
    if (e.correctable && haveAny && ctx.canEdit) {
      parts.push(h("div", { class: "pp-actions" }, h("button", {
        class: "big", "data-test": "pp-correct",
        onclick: function () { draft.correcting = true; draft.prefilled = false; rerender(); }
      }, ctx.t("Corriger un dé", "Correct a die"))));
    }
    return h("div", { class: "pp-panel", "data-test": "pp-input-" + step },
      h("h3", {}, w(ctx, STEP[step] || [step, step])), parts);
  }

  function travelPanel(ctx, st) {
    var h = ctx.h;
    var e = st.expects || {};
    var rows = (e.travel || []).map(function (t) {
      var txt = t.may_travel
        ? ctx.t("peut voyager : " + t.moves + " case(s)", "may travel: " + t.moves + " cell(s)")
        : ctx.t("ne voyage pas ce tour", "does not travel this turn");
      return h("li", { "data-test": "pp-travel-" + t.character }, nameOf(st, t.character) + " — " + txt);
    });
    var next = (e.choices || []).filter(function (c) { return c.name === "next_turn"; })[0];
    var attrs = { class: "big primary", "data-test": "pp-next-turn", onclick: function () { send(ctx, "peripeties.next_turn", {}); } };
    if (!ctx.canEdit || (next && next.enabled === false)) attrs.disabled = "disabled";
    return h("div", { class: "pp-panel", "data-test": "pp-input-" + e.step },
      h("h3", {}, w(ctx, STEP[e.step] || [e.step, e.step])),
      rows.length ? h("ul", { class: "pp-list" }, rows) : "",
      e.step === "setup" ? h("div", { class: "pp-muted" }, ctx.t("Ajoutez les personnages, puis commencez.", "Add the characters, then start.")) : "",
      h("div", { class: "pp-actions" },
        h("button", attrs, e.step === "setup" ? ctx.t("Commencer le tour 1", "Start turn 1") : ctx.t("Tour suivant", "Next turn"))));
  }

  function lastPanel(ctx, st) {
    var h = ctx.h;
    var last = st.last;
    if (!last) return null;
    var ok = last.success;
    var head = last.name + " — " + (ok ? ctx.t("réussite", "success") : ctx.t("échec", "failure"));
    if (last.roll !== null && last.roll !== undefined) {
      head += ctx.t(" : ", ": ") + last.roll + " → " + last.total + ctx.t(" contre ", " against ") + last.difficulty;
      if (last.natural === "max") head += ctx.t(" (maximum naturel)", " (natural maximum)");
      if (last.natural === "one") head += ctx.t(" (1 naturel)", " (natural 1)");
    }
    return h("div", { class: "pp-panel", "data-test": "pp-last" },
      h("h3", {}, ctx.t("Dernière péripétie (tour ", "Last episode (turn ") + last.turn + ")"),
      h("div", { class: "pp-result " + (ok ? "ok" : "ko"), "data-test": "pp-last-result" }, head),
      last.narration ? h("div", { class: "pp-narration" }, "« " + ctx.tr(last.narration) + " »") : "",
      h("ul", { class: "pp-list" }, (last.results || []).map(function (r) { return h("li", {}, ctx.tr(r.text)); })));
  }

  function recentPanel(ctx, st) {
    var h = ctx.h;
    var items = (st.recent || []).slice(-5).map(function (r) { return h("li", {}, ctx.tr(r.text)); });
    if (!items.length) return null;
    return h("div", { class: "pp-panel", "data-test": "pp-recent" }, h("h3", {}, ctx.t("Derniers résultats", "Recent outcomes")),
      h("ul", { class: "pp-list" }, items));
  }

  // -- character cards ------------------------------------------------------------------
  function token(ctx, test, text) { return ctx.h("span", { class: "pp-chip", "data-test": test }, text); }

  function card(ctx, st, c, dead) {
    var h = ctx.h;
    var k = c.card;
    var tok = c.tokens || {};
    var xp = tok.xp || {};
    var eff = c.effective || {};
    var lieu = faceInfo(st, "lieu", k.lieu);
    var stats = ["combat", "esprit", "magie"].map(function (t) {
      return [h("span", {}, w(ctx, TRIAL[t])), h("span", {}, String(k[t])),
        h("span", { class: "pp-muted", "data-test": "pp-stat-" + c.id + "-" + t },
          (xp[t] ? "+" + xp[t] + " " : "") + (t === "combat" && tok.wounds ? "−" + 2 * tok.wounds + " " : "") +
          (eff[t] !== undefined ? "= " + eff[t] : ""))];
    });
    var tokens = [];
    if (!dead) {
      if (tok.banquets) tokens.push(token(ctx, "pp-tok-" + c.id + "-banquets", "🍗 " + tok.banquets + ctx.t(" banquet(s)", " banquet(s)")));
      if (tok.gourds) tokens.push(token(ctx, "pp-tok-" + c.id + "-gourds", "🍶 " + tok.gourds + ctx.t(" gourde(s)", " gourd(s)")));
      tokens.push(token(ctx, "pp-tok-" + c.id + "-taels", "💰 " + (tok.taels || 0) + " taels"));
      if (tok.wounds) tokens.push(token(ctx, "pp-tok-" + c.id + "-wounds", "🩸 " + tok.wounds + " × −2"));
      if (tok.immobilised) tokens.push(token(ctx, "pp-tok-" + c.id + "-immobilised", "⛔ " + ctx.t("Immobilisé", "Immobilised") + (tok.immobilised > 1 ? " ×" + tok.immobilised : "")));
      if (tok.prison) tokens.push(token(ctx, "pp-tok-" + c.id + "-prison", "⛓️ " + ctx.t("Bagne : D4 = ", "Prison: d4 = ") + tok.prison + (c.cell ? " (" + c.cell + ")" : "")));
    }
    var brothers = (c.brothers || []).map(function (b) {
      return h("li", { "data-test": "pp-brother-" + c.id + "-" + b.id },
        b.name + " (" + ctx.t("rang ", "rank ") + b.rank + " · " + b.combat + "/" + b.esprit + "/" + b.magie +
        " · " + faceLabel(ctx, st, "lieu", b.lieu) + ")");
    });
    var actions = [];
    if (!dead && ctx.canEdit) {
      if (tok.wounds && tok.banquets) {
        actions.push(h("button", { class: "big", "data-test": "pp-heal-" + c.id,
          onclick: function () { send(ctx, "peripeties.heal", { character: c.id }); } },
          ctx.t("Soigner (−1 banquet)", "Heal (−1 banquet)")));
      }
      if (tok.prison > 1 && (tok.taels || 0) >= 10) {
        actions.push(h("button", { class: "big", "data-test": "pp-bribe-" + c.id,
          onclick: function () { send(ctx, "peripeties.bribe", { character: c.id, turns: 1 }); } },
          ctx.t("Corrompre (10 taels, −1 tour)", "Bribe (10 taels, −1 turn)")));
      }
      actions.push(h("button", { class: "big", "data-test": "pp-edit-" + c.id,
        onclick: function () { draft.form = { mode: "edit", id: c.id }; draft.formKey = null; rerenderHook(); } },
        ctx.t("Modifier", "Edit")));
    }
    var cls = "pp-card" + (c.current ? " current" : "") + (dead ? " dead" : "");
    return h("div", { class: cls, "data-test": "pp-card-" + c.id },
      h("div", { class: "pp-row-label" }, (dead ? "† " : "") + k.name + (k.nickname ? " « " + ctx.tr(k.nickname) + " »" : "")),
      h("div", { class: "pp-sub" }, c.player + " · " + ctx.t("rang ", "rank ") + k.rank + " · " +
        (k.star === "celeste" ? ctx.t("astre céleste (D12)", "celestial star (d12)") : ctx.t("astre terrestre (D10)", "terrestrial star (d10)")) +
        " · " + (lieu ? (lieu.icon || "") + " " + ctx.t(lieu.fr, lieu.en) : k.lieu)),
      h("div", { class: "pp-stats" }, [].concat.apply([], stats)),
      tokens.length ? h("div", { class: "pp-tokens" }, tokens) : "",
      brothers.length ? h("div", {}, h("div", { class: "pp-sub" }, ctx.t("Frères jurés ", "Sworn brothers ") + brothers.length + "/6"), h("ul", { class: "pp-list" }, brothers)) : "",
      actions.length ? h("div", { class: "pp-actions" }, actions) : "");
  }

  // -- add / edit form ----------------------------------------------------------------
  var rerenderHook = function () {};

  function field(ctx, name, label, input) {
    return ctx.h("label", {}, label, input);
  }

  function formPanel(ctx, st) {
    var h = ctx.h;
    if (!ctx.canEdit) return null;
    var f = draft.form;
    if (!f) {
      return h("div", { class: "pp-actions" }, h("button", { class: "big", "data-test": "pp-add-character",
        onclick: function () { draft.form = { mode: "add" }; rerenderHook(); } }, ctx.t("Ajouter un personnage", "Add a character")));
    }
    var editing = f.mode === "edit";
    var ch = null;
    (st.characters || []).forEach(function (c) { if (c.id === f.id) ch = c; });
    if (editing && !ch) { draft.form = null; return null; }
    var k = ch ? ch.card : { name: "", rank: "", star: "terrestre", combat: "", esprit: "", magie: "", lieu: "foret" };
    var tok = ch ? ch.tokens : { xp: {}, taels: 0, gourds: 0, banquets: 0, wounds: 0, immobilised: 0, prison: 0 };
    var els = {};
    function inp(name, value, type) {
      var a = { type: type || "text", "data-test": "pp-form-" + name, value: value === undefined || value === null ? "" : String(value) };
      if (type === "number") a.inputmode = "numeric";
      els[name] = h("input", a);
      els[name].value = a.value;
      return els[name];
    }
    function sel(name, options, value) {
      els[name] = h("select", { "data-test": "pp-form-" + name }, options.map(function (o) {
        var a = { value: o[0] };
        if (o[0] === value) a.selected = "selected";
        return h("option", a, o[1]);
      }));
      els[name].value = value;
      return els[name];
    }
    var cards = (st.deck && st.deck.cards) || [];
    var avail = (st.deck && st.deck.available) || [];
    var deckOptions = [["", ctx.t("— valeurs personnalisées —", "— custom values —")]].concat(
      cards.filter(function (c) { return avail.indexOf(c.id) >= 0; }).map(function (c) {
        return [c.id, c.name + " (" + ctx.t("rang ", "rank ") + c.rank + ")"];
      }));
    var players = (st.players || []).slice();
    var fields = [];
    if (!editing) fields.push(field(ctx, "card", ctx.t("Carte du paquet", "Deck card"), sel("card", deckOptions, "")));
    fields.push(field(ctx, "player", ctx.t("Joueur", "Player"), inp("player", ch ? ch.player : (players[0] || ""))));
    fields.push(field(ctx, "name", ctx.t("Nom", "Name"), inp("name", k.name)));
    fields.push(field(ctx, "rank", ctx.t("Rang", "Rank"), inp("rank", k.rank, "number")));
    fields.push(field(ctx, "star", ctx.t("Astre", "Star"), sel("star", [["celeste", ctx.t("céleste (D12)", "celestial (d12)")], ["terrestre", ctx.t("terrestre (D10)", "terrestrial (d10)")]], k.star)));
    ["combat", "esprit", "magie"].forEach(function (t) { fields.push(field(ctx, t, w(ctx, TRIAL[t]), inp(t, k[t], "number"))); });
    fields.push(field(ctx, "lieu", ctx.t("Lieu de prédilection", "Favoured location"), sel("lieu", LOCATIONS.map(function (l) { return [l, faceLabel(ctx, st, "lieu", l)]; }), k.lieu)));
    var tokenFields = [["taels", "💰 taels"], ["gourds", ctx.t("🍶 gourdes", "🍶 gourds")], ["banquets", "🍗 banquets"],
      ["wounds", ctx.t("🩸 blessures (−2)", "🩸 wounds (−2)")], ["immobilised", ctx.t("⛔ Immobilisé", "⛔ Immobilised")], ["prison", ctx.t("⛓️ bagne (D4)", "⛓️ prison (d4)")]];
    tokenFields.forEach(function (t) { fields.push(field(ctx, t[0], t[1], inp(t[0], tok[t[0]] || 0, "number"))); });
    ["combat", "esprit", "magie"].forEach(function (t) { fields.push(field(ctx, "xp_" + t, "+1 " + w(ctx, TRIAL[t]), inp("xp_" + t, (tok.xp || {})[t] || 0, "number"))); });

    function num(name) { var v = els[name].value.trim(); return v === "" ? null : parseInt(v, 10); }
    function submit() {
      var data = {};
      var fromDeck = !editing && els.card.value;
      if (editing) data.character = ch.id;
      data.player = els.player.value.trim();
      if (fromDeck) data.card = els.card.value;
      else {
        data.name = els.name.value.trim();
        data.rank = num("rank"); data.star = els.star.value;
        data.combat = num("combat"); data.esprit = num("esprit"); data.magie = num("magie");
        data.lieu = els.lieu.value;
      }
      ["taels", "gourds", "banquets", "wounds", "immobilised", "prison"].forEach(function (t) { data[t] = num(t) || 0; });
      data.xp = { combat: num("xp_combat") || 0, esprit: num("xp_esprit") || 0, magie: num("xp_magie") || 0 };
      Promise.resolve(ctx.send(editing ? "peripeties.edit_character" : "peripeties.add_character", data)).then(function (res) {
        if (res) { draft.form = null; rerenderHook(); }
      });
    }
    var buttons = [h("button", { class: "big primary", "data-test": "pp-form-submit", onclick: submit },
      editing ? ctx.t("Enregistrer", "Save") : ctx.t("Ajouter", "Add")),
      h("button", { class: "big", "data-test": "pp-form-cancel", onclick: function () { draft.form = null; rerenderHook(); } }, ctx.t("Annuler", "Cancel"))];
    if (editing && draft.confirmRemove !== ch.id) {
      buttons.push(h("button", { class: "big", "data-test": "pp-form-remove", onclick: function () {
        draft.confirmRemove = ch.id; rerenderHook();  // asked in the page, never a browser pop-up
      } }, ctx.t("Retirer du jeu", "Remove from play")));
    } else if (editing) {
      buttons.push(h("span", { "data-test": "pp-form-remove-ask" }, ctx.t("Retirer " + ch.card.name + " du jeu ?", "Remove " + ch.card.name + " from play?")),
        h("button", { class: "big primary", "data-test": "pp-form-remove-yes", onclick: function () {
          Promise.resolve(ctx.send("peripeties.remove_character", { character: ch.id })).then(function (res) {
            draft.confirmRemove = null;
            if (res) draft.form = null;
            rerenderHook();
          });
        } }, ctx.t("Oui, retirer", "Yes, remove")),
        h("button", { class: "big", "data-test": "pp-form-remove-no", onclick: function () { draft.confirmRemove = null; rerenderHook(); } },
          ctx.t("Non", "No")));
    }
    return h("div", { class: "pp-panel", "data-test": editing ? "pp-form-edit" : "pp-form-add" },
      h("h3", {}, editing ? ctx.t("Modifier ", "Edit ") + ch.card.name : ctx.t("Nouveau personnage", "New character")),
      !editing ? h("div", { class: "pp-muted" }, ctx.t("Choisissez une carte du paquet, ou laissez vide et saisissez les valeurs.", "Pick a deck card, or leave it empty and type the values.")) : "",
      h("div", { class: "pp-form" }, fields),
      h("div", { class: "pp-actions" }, buttons));
  }

  // -- render -------------------------------------------------------------------------
  // ctx.h with arrays flattened, empty children (null, "", false) and null attributes
  // dropped, whatever the core's h does with them.
  function withH(ctx) {
    if (ctx.__pp) return ctx;
    var base = ctx.h;
    var c = Object.create(ctx);
    c.__pp = true;
    c.h = function (tag, attrs) {
      var clean = {};
      var a = attrs || {};
      Object.keys(a).forEach(function (k) { if (a[k] !== null && a[k] !== undefined) clean[k] = a[k]; });
      var kids = [];
      (function flat(list) {
        for (var i = 0; i < list.length; i++) {
          var x = list[i];
          if (Array.isArray(x)) flat(x);
          else if (x !== null && x !== undefined && x !== false && x !== "") kids.push(typeof x === "number" ? String(x) : x);
        }
      })(Array.prototype.slice.call(arguments, 2));
      return base.apply(ctx, [tag, clean].concat(kids));
    };
    return c;
  }

  function render(root, table, ctx) {
    injectCss();
    ctx = withH(ctx);
    var st = table && table.state;
    var h = ctx.h;
    while (root.firstChild) root.removeChild(root.firstChild);
    if (!st) { root.appendChild(h("div", { class: "pp-muted" }, ctx.t("Pas de partie.", "No game."))); return; }
    var key = stepKey(st);
    if (key !== draft.key) { draft.key = key; draft.picks = {}; draft.correcting = false; draft.prefilled = false; }
    var rerender = function () { render(root, table, ctx); };
    rerenderHook = rerender;
    var e = st.expects || {};
    var cards = (st.characters || []).map(function (c) { return card(ctx, st, c, false); })
      .concat((st.dead || []).map(function (c) { return card(ctx, st, c, true); }));
    var children = [
      header(ctx, st),
      episodePanel(ctx, st),
      e.step === "trial" ? oddsPanel(ctx, st) : null,
      inputPanel(ctx, st, rerender),
      lastPanel(ctx, st),
      h("div", { class: "pp-panel", "data-test": "pp-characters" },
        h("h3", {}, ctx.t("Personnages", "Characters")),
        cards.length ? h("div", { class: "pp-cards" }, cards) : h("div", { class: "pp-muted" }, ctx.t("Aucun personnage.", "No character yet.")),
        formPanel(ctx, st)),
      recentPanel(ctx, st)
    ].filter(function (x) { return x; });
    root.appendChild(h("div", { class: "pp", "data-test": "pp-root" }, children));
  }

  if (window.Companion && window.Companion.registerGame) {
    window.Companion.registerGame("peripeties", { render: render });
  }
})();

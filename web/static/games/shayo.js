/* Shayo on the tablet: character sheets, exact odds before the roll, tap the d10 pool,
 * signatures (a re-roll's dice rolled in the tray for the camera, or typed), kept dice,
 * successes, cancelled successes, outcome and meaning, Ki choices.
 * Plain JS, no framework, no external URL. Contract: web core's Companion.registerGame. */
(function () {
  "use strict";

  var STYLE_ID = "shayo-style";
  var CSS = [
    ".shayo{display:flex;flex-direction:column;gap:12px}",
    ".shayo .card{border:1px solid #ccc;border-radius:8px;padding:10px;background:#fff}",
    ".shayo h3{margin:0 0 6px 0;font-size:1.1em}",
    ".shayo .row{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:4px 0}",
    ".shayo .die{display:inline-flex;align-items:center;justify-content:center;min-width:48px;min-height:48px;",
    "border:2px solid #777;border-radius:8px;font-size:1.3em;font-weight:bold;background:#fafafa;box-sizing:border-box}",
    ".shayo .die.kept{border-color:#1b6e2b;background:#e4f6e7}",
    ".shayo .die.success{color:#1b6e2b}",
    ".shayo .die.one{color:#b3261e;border-color:#b3261e}",
    ".shayo .die.cancelled{text-decoration:line-through;opacity:.55}",
    ".shayo .die.empty{color:#aaa;border-style:dashed}",
    ".shayo .die.target{outline:3px solid #e0a100}",
    ".shayo button.big,.shayo .choice{min-height:48px;min-width:48px;font-size:1.05em;border-radius:8px}",
    ".shayo .choice.selected{background:#1b4f9c;color:#fff}",
    ".shayo .badge{display:inline-block;padding:4px 10px;border-radius:12px;font-weight:bold}",
    ".shayo .badge.ok{background:#d7f2dc;color:#135a21}.shayo .badge.ko{background:#f9dcda;color:#8c1d18}",
    ".shayo .muted{color:#666;font-size:.9em}",
    ".shayo .boxes span{display:inline-block;width:14px;height:14px;border:1px solid #555;margin:1px}",
    ".shayo .boxes span.on{background:#b3261e}",
    ".shayo .line{margin-right:8px}",
    ".shayo input,.shayo select{min-height:40px;font-size:1em}",
    ".shayo .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:10px}"
  ].join("\n");

  // Local (not yet sent) choices: the dice being tapped, the signature being applied...
  var ui = { key: null, dice: [], sig: null, sigDice: [], sigValues: [], keep: null, surpass: false,
             form: null, last: null, fixOpen: false, fixIndex: null, charForm: null, kiForms: null };

  function injectStyle() {
    // the page links games/<game>.css (strict CSP: no inline style); a bare test page gets it inline
    if (document.getElementById(STYLE_ID) || document.querySelector('link[data-game-css="shayo"]')) return;
    var s = document.createElement("style");
    s.id = STYLE_ID;
    s.textContent = CSS;
    document.head.appendChild(s);
  }

  function flat(list, out) {
    out = out || [];
    for (var i = 0; i < list.length; i++) {
      var c = list[i];
      if (c === null || c === undefined || c === false) continue;
      if (Array.isArray(c)) flat(c, out);
      else out.push(typeof c === "number" ? String(c) : c);
    }
    return out;
  }

  function pct(p) { return window.Dom.pct(p); }

  function render(root, table, ctx) {
    injectStyle();
    ui.last = { root: root, table: table, ctx: ctx };
    var h = function (tag, attrs) {
      var kids = flat(Array.prototype.slice.call(arguments, 2));
      return ctx.h.apply(null, [tag, attrs || {}].concat(kids));
    };
    var t = ctx.t;
    var st = table.state || {};
    var exp = st.expects || { step: "idle" };
    var key = exp.step + ":" + table.last_seq;
    if (ui.key !== key) {
      ui.key = key; ui.dice = []; ui.sig = null; ui.sigDice = []; ui.sigValues = []; ui.keep = null;
    }
    var editable = !!ctx.canEdit;
    function again() {
      var L = ui.last;
      while (L.root.firstChild) L.root.removeChild(L.root.firstChild);
      render(L.root, L.table, L.ctx);
    }
    function plural(n, one, many) { return n + " " + (n > 1 ? many : one); }
    function send(type, data) {
      return ctx.send(type, data || {});
    }
    function btn(label, testId, onclick, opts) {
      opts = opts || {};
      var a = { "class": (opts.cls || "big"), "data-test": testId, onclick: onclick };
      if (!editable || opts.disabled) a.disabled = "disabled";
      return h("button", a, label);
    }
    function charByName(name) {
      var cs = st.characters || [];
      for (var i = 0; i < cs.length; i++) if (cs[i].name === name) return cs[i];
      return null;
    }
    // The 1-10 face buttons ("<prefix>N"); ``full``: no more faces to pick.
    function keypad(prefix, full, pick) {
      var faces = [];
      for (var f = 1; f <= 10; f++) {
        (function (f) {
          var a = { "class": "choice", "data-test": prefix + f, onclick: function () { pick(f); } };
          if (!editable || full) a.disabled = "disabled";
          faces.push(h("button", a, String(f)));
        })(f);
      }
      return faces;
    }

    // -- the current step ----------------------------------------------------------------
    function stepRoll() {
      var n = exp.dice[0].count;
      var who = exp.who ? exp.who + " — " : "";
      var test = st.test || {};
      var odds = exp.odds || { net_successes: {} };
      var entries = [];
      Object.keys(odds.net_successes).forEach(function (k) {
        entries.push([t(k + " succès net" + (k === "1" || k === "0" ? "" : "s"), k + " net"), odds.net_successes[k]]);
      });
      var kindLabel = { test: t("Test", "Test"), attack: t("Attaque", "Attack"), defence: t("Défense", "Defence"),
                        damage: t("Dégâts", "Damage"), craft: t("Fabrication", "Crafting"),
                        improve: t("Amélioration", "Improvement") }[exp.kind] || exp.kind;
      var slots = [];
      for (var i = 0; i < n; i++) {
        (function (i) {
          var v = ui.dice[i];
          slots.push(h("button", { "class": "die" + (v ? "" : " empty"), "data-test": "shayo-slot-" + i,
            onclick: function () { if (v) { ui.dice.splice(i, 1); again(); } } }, v ? String(v) : "?"));
        })(i);
      }
      var faces = keypad("shayo-face-", ui.dice.length >= n, function (f) {
        if (ui.dice.length < n) { ui.dice.push(f); again(); }
      });
      var kiRow = null;
      if (exp.ki) {
        var ki = exp.ki;
        var used = ki.rolled + ki.kept;
        var setKi = function (r, k) {
          send("shayo.ki", { rolled: r, kept: k, surpass: ui.surpass });
        };
        kiRow = h("div", { "class": "row", "data-test": "shayo-ki" },
          h("span", {}, t("Ki (max INS " + ki.cap + ") : ", "Ki (max INS " + ki.cap + "): ")),
          btn(t("+1 dé lancé", "+1 die rolled"), "shayo-ki-rolled-plus", function () { setKi(ki.rolled + 1, ki.kept); },
              { disabled: used >= ki.cap }),
          btn(t("+1 dé gardé", "+1 die kept"), "shayo-ki-kept-plus", function () { setKi(ki.rolled, ki.kept + 1); },
              { disabled: used >= ki.cap }),
          btn(t("Annuler le Ki", "Clear Ki"), "shayo-ki-clear", function () { setKi(0, 0); }, { disabled: used === 0 }),
          h("label", { "class": "touch", "data-test": "shayo-surpass-label" },
            (function () {
              var cb = h("input", { type: "checkbox", "data-test": "shayo-surpass" });
              cb.checked = ui.surpass;
              cb.addEventListener("change", function () { ui.surpass = cb.checked; });
              if (!editable) cb.disabled = true;
              return cb;
            })(),
            t("Se dépasser : payer le Ki manquant en cases de santé", "Surpass oneself: pay missing Ki with health boxes")),
          h("span", { "class": "muted", "data-test": "shayo-ki-summary" },
            t("Ki dépensé : " + plural(ki.rolled, "dé lancé", "dés lancés") + " en plus, " + plural(ki.kept, "dé gardé", "dés gardés") +
              " en plus · Ki restant : " + ki.personal_left + " personnel, " + ki.group_left + " dans la réserve du groupe",
              "Ki spent: " + plural(ki.rolled, "extra die rolled", "extra dice rolled") + ", " + plural(ki.kept, "extra die kept", "extra dice kept") +
              " · Ki left: " + ki.personal_left + " personal, " + ki.group_left + " in the group pool")));
      }
      return h("div", { "class": "card", "data-test": "shayo-step-roll" },
        h("h3", {}, kindLabel + " : " + who + (test.labels ? ctx.tr(test.labels) : "")),
        h("div", { "class": "row" },
          h("strong", {}, t("Lancez " + n + "d10, gardez " + exp.keep + ", difficulté " + exp.difficulty,
                            "Roll " + n + "d10, keep " + exp.keep + ", difficulty " + exp.difficulty)),
          (test.difficulty_notes || []).length ? h("span", { "class": "muted" }, "(" + test.difficulty_notes.join(", ") + ")") : null),
        exp.odds ? h("div", { "data-test": "shayo-odds" },
          h("div", {}, t("Chances de réussite : ", "Chance of success: "), h("strong", {}, pct(odds.success || 0))),
          ctx.bars(entries)) : null,
        kiRow,
        h("div", { "class": "row", "data-test": "shayo-pool" }, slots),
        h("div", { "class": "row" }, faces),
        h("div", { "class": "row" },
          btn(t("Valider les dés", "Enter the dice"), "shayo-roll-submit", function () {
            send("shayo.roll", { dice: ui.dice.slice() });
          }, { disabled: ui.dice.length !== n }),
          btn(t("Effacer", "Clear"), "shayo-roll-clear", function () { ui.dice = []; again(); }, { disabled: !ui.dice.length }),
          btn(t("Abandonner", "Cancel"), "shayo-cancel", function () { send("shayo.cancel", {}); }, { cls: "big muted" })));
    }

    function diceRow(dice, opts) {
      opts = opts || {};
      var kept = opts.kept || [];
      var cancelled = opts.cancelled || [];
      var out = [];
      dice.forEach(function (v, i) {
        var cls = "die";
        if (kept.indexOf(i) >= 0) cls += " kept";
        if (v === 1) cls += " one";
        else if (v >= opts.difficulty) cls += " success";
        if (cancelled.indexOf(i) >= 0) cls += " cancelled";
        if (opts.targets && opts.targets.indexOf(i) >= 0) cls += " target";
        var a = { "class": cls, "data-test": (opts.prefix || "shayo-die-") + i };
        if (opts.onclick) {
          a.onclick = function () { opts.onclick(i); };
          if (!editable) a.disabled = "disabled";
          out.push(h("button", a, String(v)));
        } else {
          out.push(h("span", a, String(v)));
        }
      });
      return h("div", { "class": "row" }, out);
    }

    function stepSignatures() {
      var test = st.test || {};
      var sigs = exp.signatures || [];
      if (ui.keep === null) ui.keep = (exp.suggested_keep || []).slice();
      var active = null;
      sigs.forEach(function (s) { if (s.id === ui.sig) active = s; });
      var sigButtons = sigs.map(function (s) {
        var a = { "class": "choice" + (ui.sig === s.id ? " selected" : ""), "data-test": "shayo-sig-" + s.id,
          onclick: function () { ui.sig = ui.sig === s.id ? null : s.id; ui.sigDice = []; ui.sigValues = []; again(); } };
        if (!editable) a.disabled = "disabled";
        return h("button", a, t(s.fr, s.en));
      });
      var panel = null;
      if (active) {
        var isReroll = active.kind === "reroll";
        var maxDice = active.count === null ? 99 : active.count;
        var faces = isReroll ? keypad("shayo-sig-face-", ui.sigValues.length >= ui.sigDice.length, function (f) {
          if (ui.sigValues.length < ui.sigDice.length) { ui.sigValues.push(f); again(); }
        }) : [];
        var ready = ui.sigDice.length > 0 && (!isReroll || ui.sigValues.length === ui.sigDice.length);
        panel = h("div", { "class": "card", "data-test": "shayo-sig-panel" },
          h("div", {}, t("Touchez le(s) dé(s) visé(s) (surlignés) : ", "Tap the target die/dice (highlighted): ") + ui.sigDice.map(function (i) { return "#" + (i + 1); }).join(" ")),
          diceRow(test.dice || exp.dice, { difficulty: exp.difficulty, targets: active.dice, prefix: "shayo-sig-die-",
            cancelled: test.cancelled, onclick: function (i) {
              if (active.dice.indexOf(i) < 0) return;
              var at = ui.sigDice.indexOf(i);
              if (at >= 0) { ui.sigDice.splice(at, 1); ui.sigValues = []; }
              else if (ui.sigDice.length < maxDice) ui.sigDice.push(i);
              again();
            } }),
          isReroll ? h("div", { "class": "row" },
            btn(t("Relancer avec le plateau (caméra)", "Re-roll with the tray (camera)"), "shayo-sig-declare", function () {
              send("shayo.signature_declare", { signature: active.id, dice: ui.sigDice.slice() });
            }, { disabled: !ui.sigDice.length }),
            h("span", { "class": "muted" }, t("ou saisissez les nouvelles faces :", "or type the new faces:"))) : null,
          isReroll ? h("div", {}, t("Nouvelle(s) valeur(s) : ", "New value(s): ") + ui.sigValues.join(" ")) : null,
          isReroll ? h("div", { "class": "row" }, faces) : null,
          h("div", { "class": "row" },
            btn(t("Appliquer la signature", "Apply the signature"), "shayo-sig-apply", function () {
              var data = { signature: active.id, dice: ui.sigDice.slice() };
              if (isReroll) data.values = ui.sigValues.slice();
              send("shayo.signature", data);
            }, { disabled: !ready }),
            isReroll ? btn(t("Faire lancer par le compagnon", "Let the companion roll"), "shayo-sig-system", function () {
              ctx.send("shayo.signature", { signature: active.id, dice: ui.sigDice.slice() }, { source: "system" });
            }, { disabled: !ui.sigDice.length, cls: "big muted" }) : null));
      }
      return h("div", { "class": "card", "data-test": "shayo-step-signatures" },
        h("h3", {}, t("Signatures, puis dés gardés", "Signatures, then kept dice")),
        h("div", { "class": "muted" }, t("Touchez un dé pour le garder ou non (" + exp.keep + " à garder).",
                                          "Tap a die to keep it or not (" + exp.keep + " to keep).")),
        keepRow(test),
        h("div", { "class": "row" }, sigButtons),
        panel,
        h("div", { "class": "row" },
          btn(t("Garder et compter", "Keep and count"), "shayo-keep-submit", function () {
            send("shayo.keep", { dice: ui.keep.slice() });
          }, { disabled: ui.keep.length !== Math.min(exp.keep, (exp.dice || []).length) }),
          btn(t("Meilleurs dés", "Best dice"), "shayo-keep-best", function () { send("shayo.keep", {}); }, { cls: "big muted" })));
    }

    // A declared re-roll waits for its dice: rolled in the tray (the camera reads them), or typed.
    function stepReroll() {
      var test = st.test || {};
      var sig = exp.signature || {};
      var n = exp.dice[0].count;
      var added = exp.mode === "extra_die";
      var one = n === 1;
      var hint = added
        ? (one ? t("Lancez le nouveau dé dans le plateau : la caméra le lit (les autres dés peuvent rester à leur place).",
                   "Roll the new die in the tray: the camera reads it (the other dice may stay where they lie).")
               : t("Lancez les nouveaux dés dans le plateau : la caméra les lit (les autres dés peuvent rester à leur place).",
                   "Roll the new dice in the tray: the camera reads them (the other dice may stay where they lie)."))
        : (one ? t("Reprenez ce dé et relancez-le dans le plateau : la caméra le lit (les dés gardés peuvent rester à leur place).",
                   "Pick up this die and roll it in the tray: the camera reads it (the kept dice may stay where they lie).")
               : t("Reprenez ces dés et relancez-les dans le plateau : la caméra les lit (les dés gardés peuvent rester à leur place).",
                   "Pick up these dice and roll them in the tray: the camera reads them (the kept dice may stay where they lie)."));
      var faces = keypad("shayo-reroll-face-", ui.sigValues.length >= n, function (f) {
        if (ui.sigValues.length < n) { ui.sigValues.push(f); again(); }
      });
      return h("div", { "class": "card", "data-test": "shayo-step-reroll" },
        h("h3", {}, t("Signature « " + sig.fr + " »", "Signature \"" + sig.en + "\"")),
        h("div", { "class": "row" }, h("strong", { "data-test": "shayo-reroll-text" }, ctx.tr(exp.text))),
        h("div", { "class": "muted" }, hint),
        diceRow(test.dice || exp.faces || [], { difficulty: exp.difficulty, targets: added ? [] : exp.indices,
          cancelled: test.cancelled, prefix: "shayo-reroll-die-" }),
        h("div", { "data-test": "shayo-reroll-manual" },
          h("div", {}, t("Sans caméra : touchez la ou les nouvelles faces (", "Without the camera: tap the new face(s) (") +
            ui.sigValues.length + "/" + n + ") " + ui.sigValues.join(" ")),
          h("div", { "class": "row" }, faces),
          h("div", { "class": "row" },
            btn(t("Valider les faces", "Enter the faces"), "shayo-reroll-submit", function () {
              send("shayo.signature", { values: ui.sigValues.slice() });
            }, { disabled: ui.sigValues.length !== n }),
            btn(t("Effacer", "Clear"), "shayo-reroll-clear", function () { ui.sigValues = []; again(); },
                { disabled: !ui.sigValues.length, cls: "big muted" }),
            btn(t("Faire lancer par le compagnon", "Let the companion roll"), "shayo-reroll-system", function () {
              ctx.send("shayo.signature", {}, { source: "system" });
            }, { cls: "big muted" }))),
        h("div", { "class": "row" },
          btn(t("Ne pas relancer", "Do not re-roll"), "shayo-reroll-withdraw", function () {
            send("shayo.signature_cancel", {});
          }, { cls: "big muted" })));
    }

    function keepRow(test) {
      return h("div", { "data-test": "shayo-keep-row" }, diceRow(test.dice || exp.dice, {
        difficulty: exp.difficulty, kept: ui.keep, cancelled: test.cancelled, prefix: "shayo-keep-die-",
        onclick: function (i) {
          var at = ui.keep.indexOf(i);
          if (at >= 0) ui.keep.splice(at, 1);
          else if (ui.keep.length < exp.keep) ui.keep.push(i);
          again();
        } }));
    }

    function stepKeep() {
      var test = st.test || {};
      if (ui.keep === null) ui.keep = (exp.suggested_keep || []).slice();
      return h("div", { "class": "card", "data-test": "shayo-step-keep" },
        h("h3", {}, t("Choisissez " + exp.keep + " dé(s) à garder", "Choose " + exp.keep + " dice to keep")),
        keepRow(test),
        h("div", { "class": "row" },
          btn(t("Garder et compter", "Keep and count"), "shayo-keep-submit", function () {
            send("shayo.keep", { dice: ui.keep.slice() });
          }, { disabled: ui.keep.length !== Math.min(exp.keep, (exp.dice || []).length) })));
    }

    function ratingSelects(who, form) {
      var ch = charByName(who);
      function sel(field, map, testId) {
        if (!ch) {
          var inp = h("input", { type: "number", min: "0", max: "10", "data-test": testId });
          inp.value = form[field] !== undefined ? form[field] : 3;
          form[field] = Number(inp.value);
          inp.addEventListener("input", function () { form[field] = Number(inp.value); });
          return inp;
        }
        var opts = Object.keys(map).map(function (k) { return h("option", { value: k }, k + " " + map[k]); });
        var s = h("select", { "data-test": testId }, opts);
        if (form[field] === undefined || !(form[field] in map)) {
          var keys = Object.keys(map).filter(function (k) { return k !== "ins"; });
          form[field] = keys.length ? keys[0] : Object.keys(map)[0];
        }
        s.value = form[field];
        s.addEventListener("change", function () { form[field] = s.value; });
        return s;
      }
      return [h("label", { "class": "touch" }, t("Caractéristique : ", "Attribute: "), sel("attribute", ch ? ch.attributes : {}, "shayo-form-attribute")),
              h("label", { "class": "touch" }, t("Compétence : ", "Skill: "), sel("skill", ch ? ch.skills : {}, "shayo-form-skill"))];
    }

    function whoSelect(form, field, testId, allowNone) {
      var names = (st.characters || []).map(function (c) { return c.name; });
      var opts = (allowNone ? [h("option", { value: "" }, "—")] : []).concat(
        names.map(function (n) { return h("option", { value: n }, n); }));
      var s = h("select", { "data-test": testId }, opts);
      if (form[field] === undefined) form[field] = allowNone ? (names[0] || "") : (names[0] || "");
      s.value = form[field];
      s.addEventListener("change", function () { form[field] = s.value; form.attribute = undefined; form.skill = undefined; again(); });
      return s;
    }

    function stepDefence() {
      var form = ui.form && ui.form.kind === "defence" ? ui.form : (ui.form = { kind: "defence", who: exp.who || "" });
      return h("div", { "class": "card", "data-test": "shayo-step-defence" },
        h("h3", {}, t(exp.attack_successes + " succès d'attaque : défense ?", exp.attack_successes + " attack successes: defend?")),
        h("div", { "class": "muted" }, t("La défense est une action ; chaque succès en annule un.",
                                          "Defence is an action; each success cancels one.")),
        h("div", { "class": "row" }, whoSelect(form, "who", "shayo-defend-who", true), ratingSelects(form.who, form)),
        h("div", { "class": "row" },
          btn(t("Se défendre", "Defend"), "shayo-defend", function () {
            var d = { attribute: form.attribute, skill: form.skill };
            if (form.who) d.who = form.who;
            send("shayo.defend", d);
          }),
          btn(t("Pas de défense", "No defence"), "shayo-no-defence", function () { send("shayo.no_defence", {}); })));
    }

    function stepIdle() {
      var form = ui.form && ui.form.kind !== "defence" ? ui.form : (ui.form = { kind: "test", difficulty: 6 });
      var kinds = [["test", t("Test", "Test")], ["attack", t("Attaque", "Attack")]];
      var tabs = kinds.map(function (k) {
        return h("button", { "class": "choice" + (form.kind === k[0] ? " selected" : ""), "data-test": "shayo-new-" + k[0],
          onclick: function () { form.kind = k[0]; again(); } }, k[1]);
      });
      var diff = h("input", { type: "number", min: "2", max: "20", "data-test": "shayo-form-difficulty" });
      diff.value = form.difficulty || 6;
      diff.addEventListener("input", function () { form.difficulty = Number(diff.value); });
      var body;
      if (form.kind === "attack") {
        var ch = charByName(form.who);
        var weapons = ch ? Object.keys(ch.weapons || {}) : [];
        var wsel = h("select", { "data-test": "shayo-form-weapon" },
          [h("option", { value: "" }, t("(sans arme)", "(unarmed)"))].concat(weapons.map(function (w) { return h("option", { value: w }, w); })));
        if (form.weapon === undefined) form.weapon = weapons[0] || "";
        wsel.value = form.weapon;
        wsel.addEventListener("change", function () { form.weapon = wsel.value; });
        var opts = [["normal", t("normale", "normal")], ["force", t("en force", "power")], ["finesse", t("en finesse", "finesse")]];
        if (!form.option) form.option = "normal";
        body = [h("div", { "class": "row" }, t("Attaquant ", "Attacker "), whoSelect(form, "who", "shayo-form-who", true),
                  t(" cible ", " target "), whoSelect(form, "target", "shayo-form-target", true)),
                h("div", { "class": "row" }, ratingSelects(form.who, form), wsel),
                h("div", { "class": "row" }, opts.map(function (o) {
                  return h("button", { "class": "choice" + (form.option === o[0] ? " selected" : ""), "data-test": "shayo-form-option-" + o[0],
                    onclick: function () { form.option = o[0]; again(); } }, o[1]);
                })),
                h("div", { "class": "row" }, btn(t("Attaquer (difficulté 5 au contact)", "Attack (difficulty 5 in melee)"), "shayo-start-attack", function () {
                  var d = { attribute: form.attribute, skill: form.skill, option: form.option };
                  if (form.who) d.who = form.who;
                  if (form.target) d.target = form.target;
                  if (form.weapon) d.weapon = form.weapon;
                  send("shayo.attack", d);
                }))];
      } else {
        body = [h("div", { "class": "row" }, t("Qui ", "Who "), whoSelect(form, "who", "shayo-form-who", true)),
                h("div", { "class": "row" }, ratingSelects(form.who, form), h("label", { "class": "touch" }, t("Difficulté : ", "Difficulty: "), diff)),
                h("div", { "class": "row" }, btn(t("Lancer le test", "Start the test"), "shayo-start-test", function () {
                  var d = { attribute: form.attribute, skill: form.skill, difficulty: Number(form.difficulty || 6) };
                  if (form.who) d.who = form.who;
                  send("shayo.test", d);
                }))];
      }
      return h("div", { "class": "card", "data-test": "shayo-step-idle" },
        h("h3", {}, t("Nouvelle action", "New action")), h("div", { "class": "row" }, tabs), body);
    }

    // -- the last outcome -------------------------------------------------------------------
    function lastCard() {
      var L = st.last;
      if (!L) return null;
      var ok = L.kind === "damage" ? L.damage > 0 : L.success;
      var badge = L.kind === "damage"
        ? h("span", { "class": "badge " + (L.damage > 0 ? "ok" : "ko"), "data-test": "shayo-last-outcome" }, t(L.damage + " case(s) de dégâts", L.damage + " damage box(es)"))
        : h("span", { "class": "badge " + (ok ? "ok" : "ko"), "data-test": "shayo-last-outcome" }, ok ? t("Réussite", "Success") : t("Échec", "Failure"));
      var sigs = (L.signatures || []).map(function (n) {
        return h("div", { "class": "muted" }, t("Signature « " + n.fr + " » : ", "Signature \"" + n.en + "\": ") + n.before.join(" ") + " → " + n.after.join(" "));
      });
      return h("div", { "class": "card", "data-test": "shayo-last" },
        h("h3", {}, (L.who ? L.who + " — " : "") + (L.labels ? ctx.tr(L.labels) : L.label) + " (SD " + L.difficulty + ")"),
        diceRow(L.dice || [], { kept: L.kept, cancelled: L.cancelled_ones, difficulty: L.difficulty, prefix: "shayo-last-die-" }),
        h("div", { "class": "row" },
          h("span", { "data-test": "shayo-last-kept" }, t("Gardés : ", "Kept: ") + (L.kept_values || []).join(" ")),
          h("span", { "data-test": "shayo-last-successes" }, t(" · succès " + L.successes, " · successes " + L.successes)),
          h("span", { "data-test": "shayo-last-cancelled" }, t(" · annulés par les 1 : " + L.cancelled, " · cancelled by 1s: " + L.cancelled)),
          h("span", { "data-test": "shayo-last-net" }, t(" · net " + L.net, " · net " + L.net)),
          badge),
        sigs,
        h("div", { "data-test": "shayo-last-meaning" }, ctx.tr(L.meaning || { fr: "", en: "" })),
        st.can_correct && L.entered && L.entered.length ? correction(L) : null);
    }

    // A misread die of the last roll: tap it, tap the right face (shayo.correct).
    function correction(L) {
      if (!ui.fixOpen) {
        return h("div", { "class": "row" }, btn(t("Corriger un dé mal lu", "Correct a misread die"), "shayo-fix-open",
          function () { ui.fixOpen = true; ui.fixIndex = null; again(); }, { cls: "big muted" }));
      }
      var entered = L.entered.map(function (v, i) {
        return h("button", { "class": "die" + (ui.fixIndex === i ? " target" : ""), "data-test": "shayo-fix-die-" + i,
          onclick: function () { ui.fixIndex = i; again(); } }, String(v));
      });
      var faces = keypad("shayo-fix-face-", ui.fixIndex === null, function (f) {
        var i = ui.fixIndex;
        ui.fixOpen = false;
        send("shayo.correct", { index: i, value: f });
      });
      return h("div", { "class": "card", "data-test": "shayo-fix" },
        h("div", {}, t("Dés lus : touchez le dé faux, puis sa vraie face.", "Dice as read: tap the wrong die, then its real face.")),
        h("div", { "class": "row" }, entered), h("div", { "class": "row" }, faces),
        btn(t("Fermer", "Close"), "shayo-fix-close", function () { ui.fixOpen = false; again(); }, { cls: "big muted" }));
    }

    // -- sheets ------------------------------------------------------------------------------
    function sheet(c) {
      var boxes = [];
      var ticked = c.damage;
      var labels = (table.options && table.options.life_lines) || [];
      c.life_boxes.forEach(function (n, li) {
        var spans = [];
        for (var b = 0; b < n; b++) { spans.push(h("span", { "class": ticked > 0 ? "on" : "" })); ticked--; }
        var lab = labels[li] ? ctx.tr(labels[li]) : t("ligne " + (li + 1), "line " + (li + 1));
        boxes.push(h("div", { "class": "boxes" }, h("span", { "class": "line", style: "border:none;width:auto" }, lab), spans));
      });
      var attrs = Object.keys(c.attributes).map(function (k) { return k.toUpperCase() + " " + c.attributes[k]; }).join(" · ");
      var skills = Object.keys(c.skills).map(function (k) {
        var sg = (c.signatures[k] || []).map(function (s) { return t(s.fr, s.en); });
        return k + " " + c.skills[k] + (sg.length ? " [" + sg.join(", ") + "]" : "");
      }).join(" · ");
      var weapons = Object.keys(c.weapons || {}).map(function (w) {
        var x = c.weapons[w];
        return w + " " + x.dice + "D+" + x.fixed + t(" (solidité ", " (solidity ") + x.solidity + (x.broken ? t(", brisée", ", broken") : "") + ")";
      }).join(" · ");
      var armour = c.armour ? t("Armure SD ", "Armour SD ") + c.armour.sd + " / " + c.armour.protection + (c.armour.broken ? t(" (brisée)", " (broken)") : "") : null;
      return h("div", { "class": "card", "data-test": "shayo-char-" + c.name },
        h("h3", {}, c.name + (c.present ? "" : t(" (absent)", " (away)"))),
        h("div", {}, attrs),
        h("div", { "class": "muted" }, skills || t("aucune compétence", "no skill")),
        h("div", { "data-test": "shayo-char-ki-" + c.name },
          t("Ki personnel ", "Personal Ki ") + c.ki.personal_left + "/" + c.ki.personal_max +
          t(" (" + c.aspect + " " + c.aspect_value + ")", " (" + c.aspect + " " + c.aspect_value + ")")),
        weapons ? h("div", { "class": "muted" }, weapons) : null,
        armour ? h("div", { "class": "muted" }, armour) : null,
        h("div", { "data-test": "shayo-char-health-" + c.name },
          t("Santé : ", "Health: ") + c.damage + "/" + c.health_boxes + " — " + ctx.tr(c.life_line) +
          (c.grave_wounds ? t(" · blessures graves " + c.grave_wounds, " · grave wounds " + c.grave_wounds) : "")),
        boxes,
        kiSpender(c));
    }

    // Ki outside a test: a manoeuvre, a spell, an extra action (5 Ki); where it comes from.
    function kiSpender(c) {
      if (!editable) return null;
      var f = (ui.kiForms = ui.kiForms || {})[c.name] || (ui.kiForms[c.name] = { use: "manoeuvre", amount: 1, source: "auto" });
      var use = h("select", { "data-test": "shayo-spend-use-" + c.name },
        [h("option", { value: "manoeuvre" }, t("manœuvre", "manoeuvre")), h("option", { value: "spell" }, t("sort", "spell")),
         h("option", { value: "extra_action" }, t("action supplémentaire (5)", "extra action (5)"))]);
      use.value = f.use;
      use.addEventListener("change", function () { f.use = use.value; if (f.use === "extra_action") f.amount = 5; again(); });
      var amount = h("input", { type: "number", min: "1", max: "30", "data-test": "shayo-spend-amount-" + c.name, style: "width:4em" });
      amount.value = f.amount;
      amount.addEventListener("input", function () { f.amount = Number(amount.value); });
      var src = h("select", { "data-test": "shayo-spend-source-" + c.name },
        [h("option", { value: "auto" }, t("perso puis groupe", "personal then group")),
         h("option", { value: "personal" }, t("réserve perso", "personal pool")),
         h("option", { value: "group" }, t("réserve de groupe", "group pool")),
         h("option", { value: "surpass" }, t("se dépasser si besoin", "surpass oneself if needed"))]);
      src.value = f.source;
      src.addEventListener("change", function () { f.source = src.value; });
      return h("div", { "class": "row", "data-test": "shayo-spend-" + c.name },
        t("Ki : ", "Ki: "), use, amount, src,
        btn(t("Dépenser", "Spend"), "shayo-spend-submit-" + c.name, function () {
          var n = Number(f.amount);
          var d = { who: c.name, use: f.use, amount: n };
          if (f.source === "personal") d.from = { personal: n };
          else if (f.source === "group") d.from = { group: n };
          else if (f.source === "surpass") d.surpass = true;
          send("shayo.spend_ki", d);
        }, { cls: "big muted" }));
    }

    function sheets() {
      var cs = st.characters || [];
      var gp = st.group_pool || { max: 0, left: 0 };
      return h("div", { "data-test": "shayo-sheets" },
        h("div", { "class": "row" },
          h("strong", { "data-test": "shayo-group-pool" }, t("Réserve de Ki du groupe : ", "Group Ki pool: ") + gp.left + "/" + gp.max),
          btn(t("Recharger le Ki", "Refresh Ki"), "shayo-refresh-ki", function () { send("shayo.refresh_ki", {}); }, { cls: "big muted" })),
        h("div", { "class": "grid" }, cs.map(sheet)),
        newCharacterForm());
    }

    function newCharacterForm() {
      if (!editable) return null;
      var f = ui.charForm || (ui.charForm = { open: false, name: "", ins: 2, attrs: "AGI=3, FOR=3", skills: "Méditation=1", aspect: "terre", aspectValue: 1 });
      if (!f.open) return btn(t("+ Nouvelle fiche", "+ New sheet"), "shayo-char-new", function () { f.open = true; again(); }, { cls: "big muted" });
      function input(field, testId, type) {
        var i = h("input", { type: type || "text", "data-test": testId });
        i.value = f[field];
        i.addEventListener("input", function () { f[field] = type === "number" ? Number(i.value) : i.value; });
        return i;
      }
      function parseMap(text) {
        var out = {};
        String(text).split(",").forEach(function (part) {
          var m = part.split("=");
          if (m.length === 2 && m[0].trim()) out[m[0].trim()] = Number(m[1]);
        });
        return out;
      }
      var asp = h("select", { "data-test": "shayo-char-aspect" }, [h("option", { value: "terre" }, "Terre"), h("option", { value: "ciel" }, "Ciel")]);
      asp.value = f.aspect;
      asp.addEventListener("change", function () { f.aspect = asp.value; });
      return h("div", { "class": "card", "data-test": "shayo-char-form" },
        h("div", { "class": "row" }, t("Nom ", "Name "), input("name", "shayo-char-name"), " INS ", input("ins", "shayo-char-ins", "number")),
        h("div", { "class": "row" }, t("Caractéristiques ", "Attributes "), input("attrs", "shayo-char-attrs")),
        h("div", { "class": "row" }, t("Compétences ", "Skills "), input("skills", "shayo-char-skills")),
        h("div", { "class": "row" }, asp, input("aspectValue", "shayo-char-aspect-value", "number")),
        h("div", { "class": "row" },
          btn(t("Créer la fiche", "Create the sheet"), "shayo-char-create", function () {
            var attrs = parseMap(f.attrs);
            attrs.INS = Number(f.ins);
            send("shayo.character", { name: f.name, attributes: attrs, skills: parseMap(f.skills), aspect: f.aspect,
                                      aspect_value: Number(f.aspectValue) }).then(function (ok) {
              if (ok) { f.open = false; f.name = ""; }
            });
          }),
          btn(t("Fermer", "Close"), "shayo-char-close", function () { f.open = false; again(); }, { cls: "big muted" })));
    }

    function status() {
      var bits = [];
      if (st.turn) bits.push(t("Tour " + st.turn.turn + ", round " + st.turn.pass + " : " + (st.turn.current || "—"),
                               "Turn " + st.turn.turn + ", round " + st.turn.pass + ": " + (st.turn.current || "—")));
      if (st.project) {
        var p = st.project;
        bits.push(t(p.object + " : " + p.accumulated + "/" + p.required + " succès, qualité " + p.quality + ", " + p.hours + " h",
                    p.object + ": " + p.accumulated + "/" + p.required + " successes, quality " + p.quality + ", " + p.hours + " h"));
      }
      (st.objects || []).forEach(function (o) {
        bits.push(o.name + " — " + o.quality + ", " + o.pc + " PC" + (o.broken ? t(", cassé", ", broken") : ""));
      });
      if (!bits.length) return null;
      return h("div", { "class": "card muted", "data-test": "shayo-status" }, bits.map(function (b) { return h("div", {}, b); }),
        h("div", { "class": "row" },
          st.turn ? btn(t("Action suivante", "Next action"), "shayo-next-action", function () { send("shayo.next_action", {}); }, { cls: "big muted" }) : null,
          btn(t("Fin du combat", "End of combat"), "shayo-end-combat", function () { send("shayo.end", { what: "combat" }); }, { cls: "big muted" }),
          btn(t("Fin de la scène", "End of scene"), "shayo-end-scene", function () { send("shayo.end", { what: "scene" }); }, { cls: "big muted" })));
    }

    var step;
    if (exp.step === "roll") step = stepRoll();
    else if (exp.step === "signatures") step = stepSignatures();
    else if (exp.step === "reroll_dice") step = stepReroll();
    else if (exp.step === "keep") step = stepKeep();
    else if (exp.step === "defence") step = stepDefence();
    else step = stepIdle();

    root.appendChild(h("div", { "class": "shayo", "data-test": "shayo", "data-step": exp.step },
      step, lastCard(), status(), sheets()));
  }

  window.Companion.registerGame("shayo", { render: render });
})();

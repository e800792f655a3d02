// Eleora battle map: pan (drag), zoom (pinch, wheel, buttons), a keyboard cursor, picking a
// field (a route preview of the viewer's token, answered for this socket alone) and tapping a
// token to select it; on the GM's page painting terrain by drag, placing tokens from the
// "Poza mapą" chips (drag or tap-then-tap) and the map's settings. The server renders every
// SVG; this file only keeps the view (transform, selection, tool) across region swaps and
// sends messages through table.js (window.eleoraTable).
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const me = root.dataset.viewer || "";
  const gm = root.dataset.gm === "1";
  const HEX_W = Math.sqrt(3);
  const MAX_PAINT = 600;
  const view = { scale: 0, x: 0, y: 0, w: 0, h: 0 }; // scale 0: fit on first sight
  let selected = null; // the seat whose token is selected
  let tool = "move";
  let chip = null; // GM: the seat being placed (a tapped chip)
  let cursor = null; // the keyboard's field [col, row]
  let gesture = null;
  const pointers = new Map();
  let terrainNames = new Map(); // field label -> what lies there ("Ściana")
  let told = null; // the seat whose token the line under the map describes

  const $ = (id) => document.getElementById(id);

  function geo() {
    const vp = $("map-viewport");
    const slot = $("table-map-terrain");
    if (!vp || !slot || !slot.dataset.geometry) return null;
    const d = slot.dataset;
    return {
      vp, stage: $("map-stage"), hex: d.geometry === "hex", size: +d.size,
      cols: +d.cols, rows: +d.rows, w: +d.w, h: +d.h,
    };
  }

  // --- the drawing maths of combat/rules/battlemap.py (centre, label) and its inverse -------
  function centre(g, f) {
    if (!g.hex) return [(f[0] + 0.5) * g.size, (f[1] + 0.5) * g.size];
    const r = g.size / 2;
    return [HEX_W * r * (f[0] + 0.5 * (f[1] & 1) + 0.5), r * (1 + 1.5 * f[1])];
  }
  function fieldAt(g, x, y) {
    if (!g.hex) return [Math.floor(x / g.size), Math.floor(y / g.size)];
    const r = g.size / 2;
    const px = x - HEX_W * r / 2, py = y - r; // from the centre of hex (0, 0)
    const q = (HEX_W / 3 * px - py / 3) / r, s = (2 / 3 * py) / r; // axial, fractional
    let rq = Math.round(q), rs = Math.round(s), rt = Math.round(-q - s);
    const dq = Math.abs(rq - q), ds = Math.abs(rs - s), dt = Math.abs(rt + q + s);
    if (dq > ds && dq > dt) rq = -rs - rt;
    else if (ds > dt) rs = -rq - rt;
    return [rq + (rs - (rs & 1)) / 2, rs]; // odd-r offset
  }
  function inside(g, f) { return f[0] >= 0 && f[1] >= 0 && f[0] < g.cols && f[1] < g.rows; }
  function label(f) {
    let col = f[0], letters = "";
    for (;;) {
      letters = String.fromCharCode(65 + (col % 26)) + letters;
      col = Math.floor(col / 26);
      if (col === 0) break;
      col -= 1;
    }
    return letters + (f[1] + 1);
  }

  // --- the view: pan and zoom ------------------------------------------------------------
  function apply(g) {
    g.stage.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  }
  function fit(g) {
    const box = g.vp.getBoundingClientRect();
    view.scale = Math.min(box.width / g.w, box.height / g.h) || 1;
    view.x = (box.width - g.w * view.scale) / 2;
    view.y = (box.height - g.h * view.scale) / 2;
    apply(g);
  }
  function zoomAt(g, factor, cx, cy) {
    const box = g.vp.getBoundingClientRect();
    const least = Math.min(box.width / g.w, box.height / g.h, 1) / 2;
    const scale = Math.min(4, Math.max(least, view.scale * factor));
    view.x = cx - (cx - view.x) * (scale / view.scale);
    view.y = cy - (cy - view.y) * (scale / view.scale);
    view.scale = scale;
    apply(g);
  }
  function zoomCentre(g, factor) {
    const box = g.vp.getBoundingClientRect();
    zoomAt(g, factor, box.width / 2, box.height / 2);
  }
  function mapPoint(g, clientX, clientY) {
    const box = g.vp.getBoundingClientRect();
    return [(clientX - box.left - view.x) / view.scale, (clientY - box.top - view.y) / view.scale];
  }
  function showField(g, f) { // pan so the field is in view
    const box = g.vp.getBoundingClientRect();
    const [x, y] = centre(g, f).map((v) => v * view.scale);
    const margin = g.size * view.scale;
    if (x + view.x < margin) view.x = margin - x;
    if (x + view.x > box.width - margin) view.x = box.width - margin - x;
    if (y + view.y < margin) view.y = margin - y;
    if (y + view.y > box.height - margin) view.y = box.height - margin - y;
    apply(g);
  }

  // --- after every swap: the same view, selection and tool on the new elements -------------
  function restore() {
    const g = geo();
    if (!g) { view.scale = 0; return; }
    if (!view.scale || view.w !== g.w || view.h !== g.h) {
      view.w = g.w; view.h = g.h;
      g.vp.style.aspectRatio = `${g.w} / ${g.h}`;
      const box = `0 0 ${g.w} ${g.h}`;
      ["map-route", "map-cursor"].forEach((id) => $(id).setAttribute("viewBox", box));
      fit(g);
    } else apply(g);
    if (selected && !token(selected)) selected = null;
    document.querySelectorAll(".map-token").forEach((el) => {
      el.classList.toggle("is-selected", el.dataset.seat === selected);
    });
    document.querySelectorAll("[data-tool]").forEach((b) => {
      b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
    });
    if (chip && !document.querySelector(`[data-place-seat="${CSS.escape(chip)}"]`)) chip = null;
    document.querySelectorAll("[data-place-seat]").forEach((b) => {
      b.setAttribute("aria-pressed", String(b.dataset.placeSeat === chip));
    });
    const unplace = document.querySelector("[data-unplace]");
    if (unplace) unplace.disabled = !selected;
    terrainNames = new Map();
    document.querySelectorAll("#map-terrain use > title").forEach((t) => {
      const [where, what] = t.textContent.split(": ");
      terrainNames.set(where, [...(terrainNames.get(where) || []), what]);
    });
    if (cursor && !inside(g, cursor)) cursor = null;
    drawCursor(g);
    checkRoute();
    if (told) tell(told);
  }

  // A route drawn from where its token no longer stands, or in a turn that has ended (the
  // fight's end included), is stale: its confirm would be refused and its end marker would
  // cover the token. The turn it was drawn in is the stage and the current token (none when
  // the one acting is off the map) when it first shows; then
  // the page scrolls as little as puts its panel on the screen (on a phone it opens below).
  function checkRoute() {
    const panel = $("map-route-panel");
    if (!panel || !panel.dataset.actor) return;
    const now = document.querySelector("#map-tokens .map-token[data-current]");
    const stage = $("table-status") ? $("table-status").dataset.stage : "";
    const turn = `${stage}:${now ? now.dataset.seat : ""}`; // the fight's end ends it too
    const fresh = !("turn" in panel.dataset);
    if (fresh) panel.dataset.turn = turn;
    const el = token(panel.dataset.actor);
    if (!el || el.dataset.field !== panel.dataset.from || panel.dataset.turn !== turn) clearRoute();
    else if (fresh) panel.scrollIntoView({ block: "nearest" });
  }

  function token(seat) {
    return document.querySelector(`#map-tokens .map-token[data-seat="${CSS.escape(seat)}"]`);
  }
  function tokenAt(f) {
    return document.querySelector(`#map-tokens .map-token[data-field="${f[0]},${f[1]}"]`);
  }
  function mayMove(el) { return el && (gm || (me && el.dataset.controller === me)); }

  function status(text) {
    const el = $("map-status");
    if (el) el.textContent = text;
    told = null;
  }
  function tell(seat) { // the line under the map describes a token, where it stands now
    const el = token(seat);
    status(el ? el.querySelector("title").textContent : "");
    told = el ? seat : null;
  }
  function describe(f) {
    const el = tokenAt(f);
    const parts = [label(f), ...(terrainNames.get(label(f)) || [])];
    if (el) parts.push(el.querySelector("title").textContent.split(" · ")[0]);
    return parts.join(" · ");
  }

  function drawCursor(g) {
    const svg = $("map-cursor");
    if (!svg) return;
    svg.replaceChildren();
    if (!cursor) return;
    const [x, y] = centre(g, cursor);
    const ns = "http://www.w3.org/2000/svg";
    let shape;
    if (g.hex) {
      shape = document.createElementNS(ns, "polygon");
      const r = g.size / 2, w = HEX_W * g.size / 4;
      const pts = [[x, y - r], [x + w, y - r / 2], [x + w, y + r / 2], [x, y + r], [x - w, y + r / 2], [x - w, y - r / 2]];
      shape.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
    } else {
      shape = document.createElementNS(ns, "rect");
      shape.setAttribute("x", x - g.size / 2);
      shape.setAttribute("y", y - g.size / 2);
      shape.setAttribute("width", g.size);
      shape.setAttribute("height", g.size);
    }
    shape.setAttribute("class", "map-focus");
    svg.append(shape);
  }

  // --- messages ------------------------------------------------------------------------
  function send(msg) { return window.eleoraTable && window.eleoraTable.send(msg); }
  function newId() { return window.eleoraTable.newId(); }
  function command(cmd) { send({ type: "command", id: newId(), command: cmd }); }
  function place(seat, to) { send({ type: "place", id: newId(), seat, to }); }
  function route(actor, to, mode) { send({ type: "route", actor, to, mode: mode || "" }); }
  function paint(fields) {
    if (fields.length) command({ type: "edit_map", actor: "gm", edit: { tool, fields: fields.slice(0, MAX_PAINT) } });
  }
  function clearRoute() {
    const svg = $("map-route");
    const panel = $("map-route-panel");
    if (svg) svg.replaceChildren();
    if (panel) {
      panel.replaceChildren();
      ["actor", "from", "turn"].forEach((key) => delete panel.dataset[key]);
    }
  }

  // A field picked (a tap, Enter): place the chosen chip, paint, select a token, or ask the
  // route there of the selected token (else of my token whose turn it is).
  function pick(g, f, seat) {
    if (!inside(g, f)) return;
    if (gm && chip) { place(chip, f); chip = null; restore(); return; }
    const el = seat ? token(seat) : tokenAt(f);
    if (gm && tool !== "move" && !seat) { paint([f]); return; }
    if (el && mayMove(el) && el.dataset.seat !== selected) { select(el.dataset.seat); return; }
    if (el && el.dataset.seat === selected) { select(null); return; }
    let actor = selected;
    if (!actor) {
      const now = document.querySelector("#map-tokens .map-token[data-current]");
      if (mayMove(now)) actor = now.dataset.seat;
    }
    if (!actor) { status(g.vp.dataset.textPick || ""); return; }
    route(actor, f, "");
  }
  function select(seat) {
    selected = seat;
    if (!seat) clearRoute();
    restore();
    if (seat && token(seat)) tell(seat);
  }

  // --- pointers: drag pans (or paints), two fingers pinch, a tap picks ---------------------
  function onDown(e) {
    const g = geo();
    if (!g || !e.target.closest("#map-viewport") || e.button > 0) return;
    g.vp.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      gesture = { kind: "pinch", dist: Math.hypot(a[0] - b[0], a[1] - b[1]), scale: view.scale,
        at: mapPoint(g, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2) };
      return;
    }
    if (pointers.size > 2) return;
    const tok = e.target.closest(".map-token");
    if (gm && tool !== "move" && !chip) {
      gesture = { kind: "paint", fields: new Map(), last: mapPoint(g, e.clientX, e.clientY) };
      addPaint(g, gesture.last);
      return;
    }
    gesture = { kind: "tap", x0: e.clientX, y0: e.clientY, x: view.x, y: view.y,
      seat: tok ? tok.dataset.seat : null };
  }
  function addPaint(g, p) {
    const f = fieldAt(g, p[0], p[1]);
    if (inside(g, f)) gesture.fields.set(f.join(","), f);
  }
  function onMove(e) {
    if (!pointers.has(e.pointerId) || !gesture) return;
    const g = geo();
    if (!g) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (gesture.kind === "pinch" && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const box = g.vp.getBoundingClientRect();
      const mid = [(a[0] + b[0]) / 2 - box.left, (a[1] + b[1]) / 2 - box.top];
      const least = Math.min(box.width / g.w, box.height / g.h, 1) / 2;
      view.scale = Math.min(4, Math.max(least, gesture.scale * Math.hypot(a[0] - b[0], a[1] - b[1]) / gesture.dist));
      view.x = mid[0] - gesture.at[0] * view.scale;
      view.y = mid[1] - gesture.at[1] * view.scale;
      apply(g);
    } else if (gesture.kind === "paint") {
      const p = mapPoint(g, e.clientX, e.clientY);
      const steps = Math.ceil(Math.hypot(p[0] - gesture.last[0], p[1] - gesture.last[1]) / (g.size / 3));
      for (let i = 1; i <= steps; i++) {
        const t = i / steps;
        addPaint(g, [gesture.last[0] + (p[0] - gesture.last[0]) * t, gesture.last[1] + (p[1] - gesture.last[1]) * t]);
      }
      gesture.last = p;
    } else if (gesture.kind === "tap" || gesture.kind === "pan") {
      const dx = e.clientX - gesture.x0, dy = e.clientY - gesture.y0;
      if (gesture.kind === "tap" && Math.hypot(dx, dy) > 6) gesture.kind = "pan";
      if (gesture.kind === "pan") { view.x = gesture.x + dx; view.y = gesture.y + dy; apply(g); }
    }
  }
  function onUp(e) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    const g = geo();
    const done = gesture;
    if (!g || !done) { gesture = null; return; }
    if (done.kind === "pinch") { gesture = pointers.size ? { kind: "idle" } : null; return; }
    gesture = null;
    if (e.type === "pointercancel") return;
    if (done.kind === "paint") paint([...done.fields.values()]);
    else if (done.kind === "tap") {
      const p = mapPoint(g, e.clientX, e.clientY);
      const f = done.seat && token(done.seat) ? token(done.seat).dataset.field.split(",").map(Number) : fieldAt(g, p[0], p[1]);
      cursor = null;
      drawCursor(g);
      pick(g, f, done.seat);
    }
  }
  document.addEventListener("pointerdown", onDown);
  document.addEventListener("pointermove", onMove);
  document.addEventListener("pointerup", onUp);
  document.addEventListener("pointercancel", onUp);
  document.addEventListener("wheel", (e) => {
    const g = geo();
    if (!g || !e.target.closest("#map-viewport")) return;
    e.preventDefault();
    const box = g.vp.getBoundingClientRect();
    zoomAt(g, Math.exp(-e.deltaY * 0.0015), e.clientX - box.left, e.clientY - box.top);
  }, { passive: false });

  // --- keyboard: arrows move the cursor, Enter or Space picks, Escape lets go ---------------
  const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  document.addEventListener("keydown", (e) => {
    const g = geo();
    if (!g || e.target !== g.vp) return;
    if (STEPS[e.key]) {
      e.preventDefault();
      if (!cursor) {
        const from = (selected && token(selected)) || document.querySelector("#map-tokens .map-token[data-current]");
        cursor = from ? from.dataset.field.split(",").map(Number) : [0, 0];
      } else {
        const [dc, dr] = STEPS[e.key];
        cursor = [Math.min(g.cols - 1, Math.max(0, cursor[0] + dc)), Math.min(g.rows - 1, Math.max(0, cursor[1] + dr))];
      }
      drawCursor(g);
      showField(g, cursor);
      status(describe(cursor));
    } else if ((e.key === "Enter" || e.key === " ") && cursor) {
      e.preventDefault();
      pick(g, cursor, null);
    } else if (e.key === "Escape") {
      chip = null;
      select(null);
    } else if (e.key === "+" || e.key === "=") { zoomCentre(g, 1.25); }
    else if (e.key === "-") { zoomCentre(g, 0.8); }
  });

  // --- buttons and forms ---------------------------------------------------------------
  document.addEventListener("click", (e) => {
    const g = geo();
    const button = e.target.closest("button");
    if (!button) return;
    const d = button.dataset;
    if (d.mapZoom && g) {
      if (d.mapZoom === "fit") fit(g);
      else zoomCentre(g, d.mapZoom === "in" ? 1.25 : 0.8);
    } else if (d.tool) {
      tool = d.tool;
      chip = null;
      restore();
    } else if (d.placeSeat) {
      chip = chip === d.placeSeat ? null : d.placeSeat;
      tool = "move";
      restore();
      if (chip && g) status((g.vp.dataset.textPlace || "") + " " + button.textContent.trim());
    } else if ("unplace" in d && selected) {
      place(selected, null);
      select(null);
    } else if (d.routeMode && d.actor && d.to) {
      route(d.actor, d.to.split(",").map(Number), d.routeMode);
    } else if ("routeClear" in d) {
      clearRoute();
    }
  });

  document.addEventListener("submit", (e) => {
    const form = e.target.closest("form[data-map-edit]");
    if (!form) return;
    e.preventDefault();
    const kind = form.dataset.mapEdit;
    const value = (name) => form.elements[name] && form.elements[name].value;
    let edit = null;
    if (kind === "resize") edit = { width: Number(value("width")), height: Number(value("height")) };
    else if (kind === "look") {
      const clear = e.submitter && e.submitter.name === "clear";
      edit = { background: value("background"), image: clear ? "" : value("image") || "" };
    } else if (kind === "remove") edit = { confirm: true };
    if (edit) command({ type: "edit_map", actor: "gm", edit });
  });

  // Chips dragged onto the map (a mouse; on touch screens tap the chip, then the field).
  document.addEventListener("dragstart", (e) => {
    const chipEl = e.target.closest && e.target.closest("[data-place-seat]");
    if (chipEl) e.dataTransfer.setData("text/plain", "seat:" + chipEl.dataset.placeSeat);
  });
  document.addEventListener("dragover", (e) => {
    if (e.target.closest && e.target.closest("#map-viewport")) e.preventDefault();
  });
  document.addEventListener("drop", (e) => {
    const g = geo();
    const data = e.dataTransfer && e.dataTransfer.getData("text/plain");
    if (!g || !e.target.closest("#map-viewport") || !data || !data.startsWith("seat:")) return;
    e.preventDefault();
    const p = mapPoint(g, e.clientX, e.clientY);
    const f = fieldAt(g, p[0], p[1]);
    if (inside(g, f)) place(data.slice(5), f);
  });

  document.addEventListener("eleora:swapped", restore);
  window.addEventListener("resize", () => { const g = geo(); if (g && view.scale) apply(g); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();

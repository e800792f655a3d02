// Eleora live table: one websocket per tab. The server renders every region for this viewer
// and pushes those that changed; htmx swaps them by id. Forms marked data-ws become JSON
// messages. No queue: a command is sent only while connected, so nothing stale is replayed
// after a reconnect.
(function () {
  "use strict";
  const root = document.getElementById("table");
  if (!root) return;
  const conn = document.getElementById("conn");
  const toast = document.getElementById("table-toast");
  const announcer = document.getElementById("table-announce");
  const text = (key) => root.dataset["text" + key.charAt(0).toUpperCase() + key.slice(1)] || "";
  const MAX_DELAY = 4000;
  // Closed by the server for flooding (combat/consumers.py CLOSE_FLOOD): come back after half
  // a minute, not at once (that only earns the next close). Closed as no longer a member
  // (CLOSE_FORBIDDEN): the page itself, loaded again, says what is left to see.
  const CLOSE_FLOOD = 4008, FLOOD_WAIT = 30000;
  const CLOSE_FORBIDDEN = 4403;
  // Sent home before its first page by a process that held this table while the table's own
  // process was down (combat/homing.py CLOSE_MOVED): the server spreads these, come back at once.
  const CLOSE_MOVED = 4307;
  const ALERTS_KEY = "eleora.alerts"; // "on": beep and vibrate when a prompt opens for me

  let socket = null;
  let seq = parseInt(root.dataset.seq, 10) || 0;
  let skew = 0; // server clock minus ours, in ms
  let attempt = 0;
  const announced = new Set();
  const senders = new Map(); // message id -> the form that sent it (its refusal goes there)
  window.eleoraSwaps = []; // {seq, at}: when each push was swapped in (latency checks)

  function setBadge(state) {
    conn.className = "conn conn-" + state;
    conn.textContent = text(state);
    root.dataset.conn = state;
  }

  function connect() {
    setBadge("connecting");
    socket = opened();
    socket.onopen = () => { attempt = 0; setBadge("online"); };
    adopt(socket);
  }
  function opened() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    return new WebSocket(scheme + location.host + root.dataset.ws);
  }
  function adopt(ws) {
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.t === "move") move(ws);
      else receive(msg);
    };
    ws.onclose = (e) => {
      setBadge("offline");
      if (e.code === CLOSE_FORBIDDEN) {
        location.reload();
        return;
      }
      if (e.code === CLOSE_FLOOD) {
        showError(text("flood"));
        setTimeout(connect, FLOOD_WAIT);
        return;
      }
      if (e.code === CLOSE_MOVED) {
        connect();
        return;
      }
      // Any other close, a server's clean one included, reconnects: capped backoff with jitter.
      const delay = Math.min(MAX_DELAY, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
      attempt += 1;
      setTimeout(connect, delay);
    };
  }
  // The process holding this socket for the table's home asks it to go home (combat/homing.py):
  // make before break. The old socket keeps the page current until the new one brings its
  // first page; a new one that fails first leaves the old one as it was.
  function move(old) {
    if (old !== socket || old.moving) return;
    old.moving = true;
    const next = opened();
    next.onmessage = (e) => {
      old.onclose = old.onmessage = null;
      old.close(1000);
      socket = next;
      adopt(next);
      receive(JSON.parse(e.data));
    };
    next.onclose = () => { old.moving = false; };
  }

  function receive(msg) {
    if (msg.t === "error") {
      showError(msg.message, senders.get(msg.id));
      senders.delete(msg.id);
      releaseForms();
      return;
    }
    if (msg.ack) { // our command is in the log: its earlier refusal is old news
      senders.delete(msg.ack);
      hideToast();
    }
    if (msg.t !== "swap") return;
    if (typeof msg.seq === "number") {
      if (msg.seq < seq) return; // a stale push: we already show something newer
      seq = msg.seq;
      root.dataset.seq = String(seq);
      skew = msg.now * 1000 - Date.now();
    }
    if (msg.html) { // a push names only the regions that changed (none: just the seq)
      const open = [...document.querySelectorAll("details[open][id]")].map((d) => d.id);
      const focused = focusPlace();
      htmx.swap(document.body, msg.html, { swapStyle: "none" });
      open.forEach((id) => { const d = document.getElementById(id); if (d) d.open = true; });
      restoreFocus(focused);
      document.dispatchEvent(new CustomEvent("eleora:swapped")); // map.js re-applies its view
    }
    if (typeof msg.seq === "number") {
      renewForms();
      window.eleoraSwaps.push({ seq: msg.seq, at: Date.now() });
      announce();
    }
    tick();
  }

  // Each form's command id: fresh whenever the table moves (a push), the same until then, so
  // a double-click on one form counts once. Forms of unchanged regions stay in the page.
  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16)); // plain-http pages lack randomUUID
    return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  function renewForms() {
    document.querySelectorAll("form[data-ws]").forEach((form) => {
      if (form.dataset.ws !== "policy") form.dataset.cid = newId(); // a policy needs no id
    });
    releaseForms();
  }

  // A swap replaces a region's elements: the control that had the focus gets it back (the
  // same kind, name and text in the nearest element with an id), so a keyboard user is not
  // thrown to the top of the page.
  const FOCUSABLE = "button, input, select, textarea, summary, a[href]";
  const signature = (el) => [el.tagName, el.name || "", el.value || "", el.textContent.trim()].join("|");
  function focusPlace() {
    const el = document.activeElement;
    if (!el || el === document.body || !el.matches(FOCUSABLE)) return null;
    const holder = el.parentElement && el.parentElement.closest("[id]");
    return holder ? { id: holder.id, signature: signature(el) } : null;
  }
  function restoreFocus(place) {
    if (!place || (document.activeElement && document.activeElement !== document.body)) return;
    const holder = document.getElementById(place.id);
    const el = holder && [...holder.querySelectorAll(FOCUSABLE)]
      .find((c) => !c.disabled && signature(c) === place.signature);
    if (el) el.focus({ preventScroll: true });
  }

  function announce() {
    document.querySelectorAll("[data-my-prompt],[data-my-turn]").forEach((el) => {
      const key = el.dataset.myPrompt || el.dataset.myTurn;
      if (announced.has(key)) return;
      announced.add(key);
      announcer.textContent = el.dataset.announce || "";
      if (el.dataset.myPrompt) {
        // The prompt is pinned in view (CSS): its first answer takes the focus.
        const answer = el.querySelector(".prompt-options button:not([disabled])");
        if (answer) answer.focus({ preventScroll: true });
        alertPlayer();
      }
    });
  }

  // --- sound and vibration -------------------------------------------------------------
  // Browsers allow sound and vibration only after a tap on the page: the toggle's tap (and
  // any later tap while it is on) is that gesture, so a prompt can beep when it opens.
  const alertsToggle = document.getElementById("alerts-toggle");
  let audio = null;
  function alertsOn() {
    try { return localStorage.getItem(ALERTS_KEY) === "on"; } catch (e) { return false; }
  }
  function showAlerts() {
    if (!alertsToggle) return;
    const on = alertsOn();
    alertsToggle.setAttribute("aria-pressed", String(on));
    alertsToggle.querySelector(".alerts-state").textContent = text(on ? "alertsOn" : "alertsOff");
  }
  function unlockAudio() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (e) { audio = null; /* no WebAudio: vibration alone */ }
  }
  function beep() {
    if (!audio) return;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    gain.gain.value = 0.08;
    tone.frequency.value = 660;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  }
  function alertPlayer() {
    if (!alertsOn()) return;
    if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
    unlockAudio();
    beep();
  }
  if (alertsToggle) {
    alertsToggle.addEventListener("click", () => {
      const on = !alertsOn();
      try { localStorage.setItem(ALERTS_KEY, on ? "on" : "off"); } catch (e) { /* private mode */ }
      showAlerts();
      if (on) {
        unlockAudio();
        beep();
        if (navigator.vibrate) navigator.vibrate(60);
      }
    });
    showAlerts();
  }
  // After a reload the audio needs a gesture again: the first tap or key on the page.
  ["pointerdown", "keydown"].forEach((kind) => document.addEventListener(kind, () => {
    if (alertsOn() && (!audio || audio.state !== "running")) unlockAudio();
  }, { capture: true, passive: true }));

  // --- refusals ------------------------------------------------------------------------
  // Shown in the toast fixed to the viewport (role=alert: announced) and next to the form
  // that sent the command; a preview's refusal takes the place of its odds.
  let toastTimer = 0;
  function showError(message, form) {
    toast.textContent = message;
    toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(hideToast, 8000);
    if (!form || !form.isConnected) return;
    const preview = form.querySelector(".odds-preview");
    if (preview && form.dataset.previewing) {
      delete form.dataset.previewing;
      preview.replaceChildren(refusal("p", "odds-refused", message));
      return;
    }
    form.querySelectorAll(".form-error").forEach((el) => el.remove());
    form.append(refusal("p", "form-error", message));
  }
  function refusal(tag, cls, message) {
    const el = document.createElement(tag);
    el.className = cls;
    el.textContent = message;
    return el;
  }
  function hideToast() { toast.hidden = true; }
  toast.addEventListener("click", hideToast);

  // --- forms -> messages ---------------------------------------------------------------
  function fieldValue(el) {
    if (el.type === "checkbox") return el.checked;
    if (el.value === "") return undefined;
    if ("json" in el.dataset) return JSON.parse(el.value);
    if (el.type === "number") return Number(el.value);
    return el.value;
  }

  function collect(form, submitter) {
    const msg = { type: submitter && submitter.dataset.kind || form.dataset.ws };
    const command = {};
    const elements = [...form.elements].filter((el) => el.name && !el.disabled && el.type !== "submit");
    if (submitter && submitter.name) elements.push(submitter);
    // Inputs shared by several forms (a prompt's Kostka Heroizmu) sit outside them.
    if (form.dataset.with) {
      elements.push(...document.querySelectorAll(`input[data-with="${form.dataset.with}"]`));
    }
    for (const el of elements) {
      if (el.type === "checkbox" && "list" in el.dataset) {
        // A list: each ticked box adds its value (text with data-text, else a number). A
        // command's list ("c.<field>") is sent even when nothing is ticked, so unticking
        // every box clears it.
        const [lhead, lrest] = el.name.split(/\.(.*)/s);
        const inCommand = lhead === "c" && lrest !== undefined;
        const bag = inCommand ? command : msg;
        const key = inCommand ? lrest : el.name;
        if (inCommand) bag[key] = bag[key] || [];
        if (el.checked) (bag[key] = bag[key] || []).push("text" in el.dataset ? el.value : Number(el.value));
        continue;
      }
      if (el.type === "radio" && !el.checked) continue; // only the chosen radio counts
      const value = fieldValue(el);
      if (value === undefined) continue;
      const [head, rest] = el.name.split(/\.(.*)/s);
      if (head === "c") command[rest] = value;
      else if (rest !== undefined) (msg[head] = msg[head] || {})[rest] = value;
      else msg[el.name] = value;
    }
    if (Object.keys(command).length) msg.command = command;
    // A form that came after the last push (a route's confirm) gets its id on first use.
    if (!form.dataset.cid && form.dataset.ws !== "policy") form.dataset.cid = newId();
    // A preview's id is only for its refusal to find the form (a command's id stays unused).
    if (form.dataset.cid) msg.id = (msg.type === "preview" ? "p." : "") + form.dataset.cid;
    msg.seq = seq;
    return msg;
  }

  document.addEventListener("submit", (e) => {
    const form = e.target.closest("form[data-ws]");
    if (!form) return;
    e.preventDefault();
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError(text("noconn"), form);
      return;
    }
    const msg = collect(form, e.submitter);
    form.querySelectorAll(".form-error").forEach((el) => el.remove());
    hideToast();
    if (senders.size > 100) senders.clear(); // answers lost with a socket never come
    if (msg.id) senders.set(msg.id, form);
    if (msg.type === "preview") form.dataset.previewing = "1";
    else delete form.dataset.previewing;
    socket.send(JSON.stringify(msg));
    if (msg.type !== "preview" && msg.type !== "policy") {
      form.setAttribute("aria-busy", "true");
      form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    }
  });

  // A select marked data-switch shows, of its form's [data-case] groups, only the one named by
  // its value (the means legal against the target picked); the server renders the first one.
  document.addEventListener("change", (e) => {
    const select = e.target.closest && e.target.closest("select[data-switch]");
    if (!select || !select.form) return;
    select.form.querySelectorAll("[data-case]").forEach((group) => {
      group.hidden = group.dataset.case !== select.value;
    });
  });

  function releaseForms() {
    document.querySelectorAll("form[aria-busy]").forEach((form) => {
      form.removeAttribute("aria-busy");
      form.querySelectorAll("button").forEach((b) => { b.disabled = false; });
    });
  }

  // --- countdowns ----------------------------------------------------------------------
  const totals = new Map(); // deadline -> its full length, as first seen (pushes re-render)
  function tick() {
    const now = Date.now() + skew;
    document.querySelectorAll(".countdown[data-deadline]").forEach((el) => {
      const deadline = parseFloat(el.dataset.deadline) * 1000;
      if (!totals.has(deadline)) { // a compact countdown has no server time: from now on
        const from = el.dataset.serverNow ? parseFloat(el.dataset.serverNow) * 1000 : now;
        totals.set(deadline, Math.max(1, deadline - from));
      }
      const total = totals.get(deadline);
      const left = Math.max(0, deadline - now);
      el.querySelector(".countdown-text").textContent =
        left > 0 ? Math.ceil(left / 1000) + " s" : text("expired");
      const fill = el.querySelector(".countdown-fill");
      if (fill) fill.style.width = (100 * left / total).toFixed(1) + "%";
    });
    document.querySelectorAll("time.deadline-time[data-deadline]").forEach((el) => localise(el, now));
  }

  // --- by-post deadlines -----------------------------------------------------------------
  // A turn played by post ends hours or days away: the server writes its deadline in UTC
  // (the text a page without script shows), and each viewer reads it in their own time zone
  // and the page's language, with how long is left ("za 23 godz.").
  const lang = document.documentElement.lang || undefined;
  let dateFormat = null;
  let relativeFormat = null;
  try {
    dateFormat = new Intl.DateTimeFormat(lang, {
      weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
      timeZoneName: "short",
    });
    relativeFormat = new Intl.RelativeTimeFormat(lang, { numeric: "auto", style: "short" });
  } catch (e) { /* an old browser: the UTC text stays */ }
  function localise(el, now) {
    const deadline = parseFloat(el.dataset.deadline) * 1000;
    if (dateFormat && el.dataset.localised !== el.dataset.deadline) {
      if (!el.title) el.title = el.textContent; // the UTC time, on hover
      el.textContent = dateFormat.format(new Date(deadline));
      el.dataset.localised = el.dataset.deadline;
    }
    const hint = el.parentElement && el.parentElement.querySelector(".deadline-left");
    if (!hint || !relativeFormat) return;
    const left = deadline - now;
    let phrase = text("expired");
    if (left > 0) {
      const minutes = left / 60000;
      if (minutes < 60) phrase = relativeFormat.format(Math.max(1, Math.ceil(minutes)), "minute");
      else if (minutes < 48 * 60) phrase = relativeFormat.format(Math.round(minutes / 60), "hour");
      else phrase = relativeFormat.format(Math.round(minutes / 1440), "day");
    }
    if (hint.textContent !== "(" + phrase + ")") hint.textContent = "(" + phrase + ")";
  }
  setInterval(tick, 250);
  tick();
  renewForms();

  // A heartbeat with our seq: the server re-joins us to the table's group (a restarted Redis
  // forgets groups) and pushes anything we missed.
  setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "sync", seq }));
  }, 25000);

  // For static/js/map.js: send a message it built (false, and the refusal shown, offline).
  window.eleoraTable = {
    send(msg) {
      if (!socket || socket.readyState !== WebSocket.OPEN) { showError(text("noconn")); return false; }
      socket.send(JSON.stringify({ ...msg, seq }));
      return true;
    },
    newId,
  };

  connect();
})();

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

  let socket = null;
  let seq = parseInt(root.dataset.seq, 10) || 0;
  let skew = 0; // server clock minus ours, in ms
  let attempt = 0;
  const announced = new Set();
  window.eleoraSwaps = []; // {seq, at}: when each push was swapped in (latency checks)

  function setBadge(state) {
    conn.className = "conn conn-" + state;
    conn.textContent = text(state);
    root.dataset.conn = state;
  }

  function connect() {
    setBadge("connecting");
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + root.dataset.ws);
    socket.onopen = () => { attempt = 0; setBadge("online"); };
    socket.onmessage = (e) => receive(JSON.parse(e.data));
    socket.onclose = () => {
      setBadge("offline");
      // Any close, a server's clean one included, reconnects: capped backoff with jitter.
      const delay = Math.min(MAX_DELAY, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
      attempt += 1;
      setTimeout(connect, delay);
    };
  }

  function receive(msg) {
    if (msg.t === "error") {
      showError(msg.message);
      releaseForms();
      return;
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
      htmx.swap(document.body, msg.html, { swapStyle: "none" });
      open.forEach((id) => { const d = document.getElementById(id); if (d) d.open = true; });
    }
    if (typeof msg.seq === "number") {
      hideError();
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

  function announce() {
    document.querySelectorAll("[data-my-prompt],[data-my-turn]").forEach((el) => {
      const key = el.dataset.myPrompt || el.dataset.myTurn;
      if (announced.has(key)) return;
      announced.add(key);
      announcer.textContent = el.dataset.announce || "";
      if (el.dataset.myPrompt) alertPlayer();
    });
  }

  function alertPlayer() {
    if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
    try {
      const audio = new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      gain.gain.value = 0.08;
      tone.frequency.value = 660;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.15);
    } catch (e) { /* sound is a nicety; a browser may refuse it before any tap */ }
  }

  function showError(message) {
    toast.textContent = message;
    toast.hidden = false;
  }
  function hideError() { toast.hidden = true; }

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
        if (el.checked) (msg[el.name] = msg[el.name] || []).push(Number(el.value));
        continue;
      }
      const value = fieldValue(el);
      if (value === undefined) continue;
      const [head, rest] = el.name.split(/\.(.*)/s);
      if (head === "c") command[rest] = value;
      else if (rest !== undefined) (msg[head] = msg[head] || {})[rest] = value;
      else msg[el.name] = value;
    }
    if (Object.keys(command).length) msg.command = command;
    if (form.dataset.cid && msg.type !== "preview") msg.id = form.dataset.cid;
    msg.seq = seq;
    return msg;
  }

  document.addEventListener("submit", (e) => {
    const form = e.target.closest("form[data-ws]");
    if (!form) return;
    e.preventDefault();
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError(text("noconn"));
      return;
    }
    const msg = collect(form, e.submitter);
    socket.send(JSON.stringify(msg));
    if (msg.type !== "preview" && msg.type !== "policy") {
      form.setAttribute("aria-busy", "true");
      form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    }
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
      if (!totals.has(deadline)) {
        totals.set(deadline, Math.max(1, deadline - parseFloat(el.dataset.serverNow) * 1000));
      }
      const total = totals.get(deadline);
      const left = Math.max(0, deadline - now);
      el.querySelector(".countdown-text").textContent =
        left > 0 ? Math.ceil(left / 1000) + " s" : text("expired");
      el.querySelector(".countdown-fill").style.width = (100 * left / total).toFixed(1) + "%";
    });
  }
  setInterval(tick, 250);
  renewForms();

  // A heartbeat with our seq: the server re-joins us to the table's group (a restarted Redis
  // forgets groups) and pushes anything we missed.
  setInterval(() => {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "sync", seq }));
  }, 25000);

  connect();
})();

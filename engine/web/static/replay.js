// Watching a game again: a save or one game of a run file, stepped through decision by decision
// (/replay/ID), and the start page's form that sends such a file to the server. Loaded before
// app.js, whose functions (el, api, show, table, card, results, valueText) it draws with.
// Text is always set as text, never as HTML.
"use strict";

// The start page's part: pick a save or a run file, (for a run file) one of its games, and watch it.
function watchForm() {
  const notice = el("p", { class: "notice" });
  const games = el("div");
  const input = el("input", { type: "file", accept: ".json,.jsonl,application/json", "aria-label": "a save or run file" });

  async function watch(body) {
    notice.textContent = "run" in body ? "Playing the game again with its bots…" : "Replaying…";
    const made = await api("POST", "/api/replays", body).catch((e) => ({ ok: false, data: { error: String(e) } }));
    if (!made.ok) {
      notice.textContent = made.data.error;
      return;
    }
    location.assign(made.data.url);
  }

  async function read() {
    notice.textContent = "";
    games.replaceChildren();
    const file = input.files[0];
    if (!file) return;
    const text = await file.text();
    const lines = text.split("\n").filter((line) => line.trim());
    if (!(lines.length > 1 && lines[0].startsWith('{"run"'))) {
      watch({ save: text }); // as text: the numbers of JavaScript cannot hold every 64-bit seed
      return;
    }
    let first;
    try {
      first = JSON.parse(lines[0]);
    } catch (e) {
      first = null;
    }
    if (!first || typeof first.run !== "object" || first.run === null) {
      notice.textContent = `${file.name} is not a run file of engine simulate (its first line is no run header).`;
      return;
    }
    const records = []; // each game's record (to list it) and its line (to send it as it is)
    for (const line of lines.slice(1)) {
      try {
        const record = JSON.parse(line);
        if (record && !record.error) records.push({ record, line });
      } catch (e) {
        // a line cut short by a stopped run: engine report drops it too
      }
    }
    if (!records.length) {
      notice.textContent = `${file.name} holds no game that ended.`;
      return;
    }
    records.sort((a, b) => a.record.game - b.record.game);
    const pick = el("select", { "aria-label": "game" }, records.map(({ record: r }, i) => el("option", { value: String(i) },
      `game ${r.game}: ${r.decisions} decisions, won by ${(r.winners || []).join(" and ")} (${r.end_reason})`)));
    games.replaceChildren(el("label", {}, `${first.run.name || first.run.ruleset}, ${records.length} games: `, pick),
      " ", el("button", { type: "button", onclick: () => watch({ run: lines[0], game: records[Number(pick.value)].line }) },
        "Watch"),
      el("p", { class: "zone-label" }, "A run file keeps no decisions: the server plays the game again with its bots "
        + "(as long as it took them)."));
  }

  input.addEventListener("change", read);
  return [el("h2", {}, "Watch a save or run file"),
    el("p", {}, "A game saved by engine play --save, or one game of a run file of engine simulate --out, "
      + "step by step, as any seat or as the referee."),
    input, games, notice];
}

const READY_POLL_MS = 1000; // how often a replay's page asks whether its game is ready

// A replay's page: the table at one step, a slider over the steps, and who it is seen as.
function replayPage(id) {
  const base = `/api/replays/${id}/view`;
  const params = new URLSearchParams(location.search);
  let asked = 0; // the latest request: answers to older ones are dropped
  let shown = null; // the view on the page
  let logBefore = 0; // log lines before the last step on: those after it are in bold

  async function go(step, seat) {
    const number = ++asked;
    const query = new URLSearchParams();
    if (step !== null) query.set("step", String(step));
    if (seat !== null) query.set("seat", String(seat));
    const answer = await api("GET", `${base}?${query}`).catch((e) => ({ ok: false, data: { error: String(e) } }));
    if (number !== asked) return;
    if (answer.status === 202) { // the server is still playing the game again: ask again in a moment
      show(el("h1", {}, "Replay"), el("p", { class: "status thinking" }, answer.data.error));
      setTimeout(() => go(step, seat), READY_POLL_MS);
      return;
    }
    if (!answer.ok) {
      show(el("p", { class: "notice" }, answer.status === 404 ? "No such replay: the server holds it no more, or "
        + "the address is wrong." : answer.data.error));
      return;
    }
    const v = answer.data;
    // One step on: the lines its decision wrote are in bold; after a jump, none.
    const oneOn = shown && v.step === shown.step + 1 && v.seat === shown.seat;
    logBefore = oneOn ? shown.log.length : v.log.length;
    shown = v;
    history.replaceState(null, "", `/replay/${id}?step=${v.step}&seat=${v.seat}`);
    draw(v);
    // A game still being played again grows: ask for it again (at its end, the new end).
    if (v.growing) setTimeout(() => { if (shown === v) go(v.step === v.steps ? null : v.step, v.seat); }, READY_POLL_MS);
  }

  function step(by) {
    if (!shown) return;
    const to = Math.min(shown.steps, Math.max(0, shown.step + by));
    if (to !== shown.step) go(to, shown.seat);
  }

  function draw(v) {
    window.cardFaces = v.faces; // table.js draws boards' cards with them
    const slider = el("input", { type: "range", min: "0", max: String(v.steps), value: String(v.step),
      "aria-label": "step" });
    slider.addEventListener("input", () => go(Number(slider.value), v.seat));
    const seat = el("select", { "aria-label": "watch as" },
      ["referee", ...v.players.map((_, i) => i + 1)].map((s) => el("option", {
        value: String(s), selected: String(s) === String(v.seat) ? "selected" : null,
      }, s === "referee" ? "the referee (every card)" : v.players[s - 1])));
    seat.addEventListener("change", () => go(v.step, seat.value));
    show(el("h1", {}, `${v.game}: replay`),
      el("div", { class: "replay-controls" },
        el("button", { type: "button", onclick: () => step(-1), disabled: v.step === 0 ? "disabled" : null,
          "aria-label": "previous step" }, "◀"),
        slider,
        el("button", { type: "button", onclick: () => step(1), disabled: v.step === v.steps ? "disabled" : null,
          "aria-label": "next step" }, "▶"),
        el("span", {}, `Step ${v.step} of ${v.steps}`),
        v.growing ? el("span", { class: "status thinking" }, "being played again: more to come") : null,
        el("label", {}, "Watch as ", seat)),
      el("p", { class: "zone-label" }, "← and → step through the decisions."),
      el("div", { class: "layout" },
        el("div", { class: "table" }, table(v, (c) => card(c, null, v.faces))),
        el("aside", { class: "side" },
          el("p", { class: "status" }, taken(v)),
          v.results ? results(v.results) : null,
          v.decision && v.decision.options ? options(v) : null,
          replayLog(v))));
  }

  // What was decided from the position shown: the option only to the one who chose and the referee.
  function taken(v) {
    if (!v.chose) {
      if (v.over) return "Game over" + (v.end_reason ? ` (${v.end_reason})` : "");
      return "The game stops here, not over (the file goes no further).";
    }
    if (v.chose.option === null) return `${v.chose.player} decides here; ${v.you} learns what as the log tells it.`;
    return `${v.chose.player} chose: ${v.chose.option}`;
  }

  function options(v) {
    const picked = v.chose ? v.chose.index : null;
    return el("section", { class: "decision" }, el("h2", {}, v.decision.prompt),
      el("ol", { class: "replay-options" }, v.decision.options.map((text, i) =>
        el("li", { class: i === picked ? "chosen" : null }, text))));
  }

  // The log, what the last step on did in bold, with the seat's forced choices at their places.
  function replayLog(v) {
    const items = v.log.map((line, i) => ({ text: line, at: i, isNew: i >= logBefore }));
    v.forced.forEach((f) => items.push({ text: f.text, at: f.at - 0.5, isNew: f.at > logBefore }));
    items.sort((a, b) => a.at - b.at);
    return [el("h2", {}, logBefore < v.log.length ? "Log (what the last decision did in bold)" : "Log"),
      items.length ? el("ol", { class: "log" }, items.map((i) => el("li", { class: i.isNew ? "new" : null }, i.text)))
        : el("p", { class: "empty" }, "Nothing has happened yet.")];
  }

  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) && e.target.type !== "range") return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault(); // on the slider too: one step a key, not the slider's own and ours
      step(e.key === "ArrowLeft" ? -1 : 1);
    }
  });
  go(params.has("step") ? Number(params.get("step")) : null, params.get("seat"));
}

// The page of engine serve: a start form at /, a seat's table at /play/GAME/TOKEN (a replay's,
// /replay/ID, is replay.js's).
// Plain JavaScript, no framework: everything shown comes from the JSON API (docs/web.md), and
// the seat's view is all it is sent. Text is always set as text, never as HTML.
"use strict";

const POLL_MS = 800; // how often a seat's page asks for its view while others decide
const BOTS = ["random", "greedy", "mcts", "scout"];

// An element with attributes (on* ones as listeners) and children (strings become text).
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  node.append(...present(children));
  return node;
}

// A plain value of a view (numbers, text, lists, tables) as the terminal reads it.
function valueText(value, top = true) {
  if (value === true) return "yes";
  if (value === false) return "no";
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) {
    if (!value.length) return "-";
    const inner = value.map((v) => valueText(v, false)).join(", ");
    return top || value.length < 2 ? inner : `(${inner})`;
  }
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k}: ${valueText(v, false)}`).join(", ");
  }
  return String(value);
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch (e) {
    data = { error: text.split("\n")[0] || `the server answered ${response.status}` };
  }
  return { ok: response.ok, status: response.status, data, text };
}

// Nodes and strings from lists nested at any depth, without the nulls that stand for "nothing here".
function present(items) {
  return items.flat(Infinity).filter((item) => item !== null && item !== undefined && item !== false);
}

// Every drawing of the page counts in data-drawn, so a test (or anyone) can tell a new one came.
function show(...nodes) {
  const app = document.getElementById("app");
  app.replaceChildren(...present(nodes));
  app.dataset.drawn = String(Number(app.dataset.drawn || 0) + 1);
}

// ------------------------------------------------------------------ the start page

async function startPage() {
  const answer = await api("GET", "/api/rulesets");
  if (!answer.ok) {
    show(el("p", { class: "notice" }, answer.data.error));
    return;
  }
  const rulesets = answer.data.rulesets;
  const notice = el("p", { class: "notice" });
  const ruleset = el("select", { name: "ruleset" },
    rulesets.map((r) => el("option", { value: r.name }, r.title)));
  const players = el("select", { name: "players" });
  const seats = el("div");
  const options = el("div");
  const seed = el("input", { name: "seed", inputmode: "numeric", placeholder: "secret" });
  const links = el("div");

  function chosen() {
    return rulesets.find((r) => r.name === ruleset.value);
  }
  function drawSeats() {
    const n = Number(players.value);
    const kept = [...seats.querySelectorAll("select")].map((s) => s.value);
    seats.replaceChildren(...Array.from({ length: n }, (_, i) => el("label", { class: "seat" }, `P${i + 1} `,
      el("select", {}, ["human", ...BOTS].map((kind) => el("option", {
        value: kind, selected: (kept[i] || (i === 0 ? "human" : "mcts")) === kind ? "selected" : null,
      }, kind))))));
  }
  function drawRuleset() {
    const r = chosen();
    players.replaceChildren(...r.players.map((n) => el("option", { value: n }, String(n))));
    drawSeats();
    options.replaceChildren(...r.options.map((o) => {
      const field = o.values
        ? el("select", { "data-option": o.name }, o.values.map((v) => el("option", {
          value: String(v), selected: v === o.default ? "selected" : null }, String(v))))
        : el("input", { "data-option": o.name, value: String(o.default) });
      return el("label", { title: o.description }, `${o.name} `, field,
        o.players ? ` (for ${o.players.join(" or ")} players)` : "");
    }));
  }
  async function start(event) {
    event.preventDefault();
    notice.textContent = "";
    const r = chosen();
    const request = {
      ruleset: r.name,
      players: Number(players.value),
      seats: [...seats.querySelectorAll("select")].map((s) => s.value),
      options: {},
    };
    for (const field of options.querySelectorAll("[data-option]")) {
      const spec = r.options.find((o) => o.name === field.dataset.option);
      if (field.value !== String(spec.default)) request.options[spec.name] = field.value;
    }
    if (seed.value.trim()) {
      if (!/^\d+$/.test(seed.value.trim())) {
        notice.textContent = "A seed is a whole number (or leave it empty for a secret one).";
        return;
      }
      request.seed = Number(seed.value.trim());
      if (!Number.isSafeInteger(request.seed)) {
        notice.textContent = "This page takes seeds up to 2^53; larger ones through the API.";
        return;
      }
    }
    const made = await api("POST", "/api/games", request);
    if (!made.ok) {
      notice.textContent = made.data.error;
      return;
    }
    if (made.data.seats.length === 1) {
      location.assign(made.data.seats[0].url);
      return;
    }
    links.replaceChildren(el("h2", {}, "Seats"),
      el("p", {}, "Each person opens their own address (keep it to yourself: it shows your hand)."),
      el("ul", { class: "links" }, made.data.seats.map((s) => el("li", {},
        el("a", { href: s.url, target: "_blank", rel: "noreferrer" }, s.seat)))));
  }

  ruleset.addEventListener("change", drawRuleset);
  players.addEventListener("change", drawSeats);
  drawRuleset();
  show(el("h1", {}, "A new game"),
    el("form", { class: "start", onsubmit: start },
      el("label", {}, "Ruleset ", ruleset),
      el("label", {}, "Players ", players),
      el("h2", {}, "Seats"), seats,
      el("h2", {}, "Options"), options,
      el("label", {}, "Seed ", seed),
      el("button", { type: "submit" }, "Start")),
    notice, links, watchForm());
}

// ------------------------------------------------------------------ a seat's table

function seatPage(game, token) {
  const base = `/api/games/${game}/${token}`;
  const readKey = `engine-read:${game}:${token.slice(0, 8)}`;
  let lastText = null; // the newest view, as sent and as read
  let lastView = null;
  let timer = null;
  let message = ""; // what came of the last request: a refusal, or (said) what the server did
  let said = false;
  // A place clicked on a board is previewed first: the option it stands for, to confirm or cancel
  // (a route's hexes and terrain, a city), so that no click takes a costly option at once.
  let previewed = null; // {step, option}

  // The server pushes the view through a websocket whenever the game changes; where that
  // fails (no websockets, a proxy), the page asks for it every POLL_MS instead.
  let socket = null;

  function listen() {
    try {
      socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}/updates`);
    } catch (e) {
      socket = null;
      poll();
      return;
    }
    socket.addEventListener("message", (m) => received(m.data, JSON.parse(m.data)));
    socket.addEventListener("close", () => {
      socket = null;
      if (!timer) poll();
    });
  }

  function received(text, v) {
    if (text !== lastText) {
      lastText = text;
      lastView = v;
      draw(v);
    }
  }

  async function poll() {
    timer = null;
    const answer = await api("GET", `${base}/view`).catch((e) => ({ ok: false, data: { error: String(e) } }));
    if (!answer.ok) {
      show(el("p", { class: "notice" }, answer.status === 404 ? "No such seat: check the address." : answer.data.error));
      if (answer.status !== 404) timer = setTimeout(poll, POLL_MS * 4);
      return;
    }
    received(answer.text, answer.data);
    const v = answer.data;
    if (!socket && !v.over && !v.error) timer = setTimeout(poll, POLL_MS);
  }

  // One answer at a time: while a request is in flight its options are disabled and clicks on
  // them do nothing, and each answer names the step of the question it answers (a second one
  // of the same question is refused by the server, changing nothing).
  let busy = false;
  // The second click of a double click is no second decision: by then the page may already show
  // the next question, with another option where the first one was.
  document.addEventListener("click", (e) => {
    if (e.detail > 1 && e.target.closest && e.target.closest("button, .card.option, .place")) {
      e.stopPropagation();
      e.preventDefault();
    }
  }, true);

  async function request(path, body) {
    busy = true;
    if (lastView) draw(lastView);
    try {
      return await api("POST", `${base}/${path}`, body).catch((e) => ({ ok: false, data: { error: String(e) } }));
    } finally {
      busy = false;
    }
  }

  async function choose(v, option) {
    if (busy) return;
    const answer = await request("choose", { option, step: v.step });
    said = false;
    if (!answer.ok) {
      message = answer.data.error;
      draw(lastView);
      return;
    }
    message = "";
    localStorage.setItem(readKey, JSON.stringify({ log: v.log.length, forced: v.forced.length }));
    // The answer is the view after this decision, unless a newer one came through the socket first.
    if (!lastView || answer.data.step > lastView.step) received(answer.text, answer.data);
    else draw(lastView); // its options enabled again
  }

  function read() {
    try {
      return JSON.parse(localStorage.getItem(readKey)) || { log: 0, forced: 0 };
    } catch (e) {
      return { log: 0, forced: 0 };
    }
  }

  function draw(v) {
    const mine = v.decision && v.decision.options ? v.decision : null;
    const byCard = new Map(); // a card's id (or a face-down card of yours: its place) -> its option
    (v.option_cards || []).forEach((c, i) => {
      if (mine && c && cardKey(c) !== undefined && !byCard.has(cardKey(c))) byCard.set(cardKey(c), i);
    });
    const cardNode = (c) => card(c, byCard.has(cardKey(c)) ? () => choose(v, byCard.get(cardKey(c))) : null, v.faces);
    seatColours(v);
    window.cardFaces = v.faces; // table.js draws the boards' cards with them
    // The table on the left (your own cards first, the boards, the ruleset's boards of cards, the
    // other zones); the decision, the latest moves and the counters beside it, in a column that
    // scrolls on its own.
    show(el("header", { class: "top" }, el("h1", {}, v.game),
      el("div", {}, `You are ${v.you}. Players: ${v.players.join(", ")}`), status(v, mine)),
    el("div", { class: "layout" },
      el("div", { class: "table" },
        yours(v, cardNode),
        boardSections(v, mine, (i) => preview(v, i)),
        cardAreas(v, cardNode),
        zones(v, cardNode)),
      el("aside", { class: "side" },
        v.results ? results(v.results) : null,
        mine ? decision(v, mine) : null,
        el("p", { class: said ? "notice said" : "notice" }, message),
        (v.notes || []).length ? el("ul", { class: "notes" }, v.notes.map((n) => el("li", {}, n))) : null,
        controls(v, mine),
        news(v, read()),
        counters(v))));
    const app = document.getElementById("app");
    app.classList.toggle("busy", busy);
    if (busy) for (const input of app.querySelectorAll("button, input")) input.disabled = true;
    const log = document.querySelector("ol.log");
    if (log) log.scrollTop = log.scrollHeight; // the newest lines in view
  }

  // Undo (on your turn), Save (where the server keeps saves) and, once the game is over, its record.
  function controls(v, mine) {
    const ask = (path, body) => async () => {
      if (busy) return;
      const answer = await request(path, body);
      said = answer.ok;
      message = answer.ok ? answer.data.message : answer.data.error;
      if (answer.ok && answer.data.view && !(socket && socket.readyState === WebSocket.OPEN)) {
        received(JSON.stringify(answer.data.view), answer.data.view);
      }
      draw(lastView); // with what came of it
    };
    return el("div", { class: "controls" },
      el("button", { type: "button", class: "undo", disabled: mine ? null : "disabled",
        title: "Take back your last decision (as u at the terminal)", onclick: ask("undo", { step: v.step }) }, "Undo"),
      v.can_save ? el("button", { type: "button", class: "save", title: "Save the game on the server",
        onclick: ask("save") }, "Save") : null,
      v.over || v.error ? el("a", { href: `${base}/record`, download: "game.json" }, "Download the game's record") : null);
  }

  function status(v, mine) {
    if (v.error) return el("p", { class: "status error" }, `The game stopped on an error: ${v.error}`);
    if (v.over) return el("p", { class: "status" }, "Game over" + (v.end_reason ? ` (${v.end_reason})` : ""));
    if (mine && busy) return el("p", { class: "status sending" }, "Sending…");
    if (mine && v.decision.waiting) {
      return el("p", { class: "status mine" }, `Your turn: everyone chooses at once, and nobody sees another's choice until all have chosen (waiting for ${v.decision.waiting.join(", ")}).`);
    }
    if (mine) return el("p", { class: "status mine" }, "Your turn.");
    if (v.decision && v.decision.answered !== undefined) {
      return el("p", { class: "status" }, `You chose ${v.decision.answered}; waiting for ${v.turn}.`);
    }
    if (v.thinking) return el("p", { class: "status thinking" }, `${v.thinking} is thinking…`);
    return el("p", { class: "status" }, `Waiting for ${v.turn}.`);
  }

  function preview(v, option, onBoard = true) {
    if (busy) return;
    previewed = { step: v.step, option, onBoard };
    draw(v);
    const confirm = document.querySelector(".preview button.confirm");
    if (confirm) confirm.focus();
  }

  // The option a clicked place stands for, to confirm (Enter) or cancel (Escape, another click).
  function previewBox(v, d) {
    if (!previewed || previewed.step !== v.step || !(previewed.option in d.options)) return null;
    const cancel = () => {
      previewed = null;
      draw(v);
    };
    const said = (v.previews || [])[previewed.option];
    return el("div", { class: "preview", role: "group", "aria-label": "preview",
      onkeydown: (e) => { if (e.key === "Escape") cancel(); } },
    el("p", {}, previewed.onBoard ? "On the board you picked: " : "You picked: ", el("strong", {}, d.options[previewed.option])),
    said ? el("p", { class: said.warn ? "preview-text warn" : "preview-text" }, said.warn ? `⚠ ${said.text}` : said.text) : null,
    el("button", { type: "button", class: "confirm", onclick: () => { const i = previewed.option; previewed = null; choose(v, i); } },
      "Confirm"), " ",
    el("button", { type: "button", class: "cancel", onclick: cancel }, "Cancel"));
  }

  function decision(v, d) {
    let answer;
    if (v.amounts) {
      const [low, high] = v.amounts;
      const input = el("input", { type: "number", min: low, max: high, value: low, "aria-label": "amount" });
      const send = (event) => {
        event.preventDefault();
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < low || n > high) {
          said = false;
          message = `Give a whole number from ${low} to ${high}.`;
          draw(v);
          return;
        }
        choose(v, n - low);
      };
      answer = el("form", { onsubmit: send }, input, " ", el("button", { type: "submit" }, "OK"),
        ` (${low} to ${high})`);
    } else {
      answer = el("div", { class: "options" },
        d.options.map((text, i) => el("button", { type: "button", "data-option": i,
          class: (v.previews || [])[i] && v.previews[i].warn ? "warns" : null,
          // An option the ruleset says something of first (previews:) is shown with it, to confirm.
          onclick: () => ((v.previews || [])[i] ? preview(v, i, false) : choose(v, i)) }, text)));
    }
    const onBoard = (v.option_places || []).some((p) => p) ? "a highlighted place on the board, " : "";
    const hint = byCardHint(v) || onBoard ? el("p", { class: "zone-label pick-hint" },
      `Click ${byCardHint(v) ? "a card with a green edge, " : ""}${onBoard}or a button.`) : null;
    return el("section", { class: "decision" }, el("h2", {}, d.prompt), previewBox(v, d), hint, answer);
  }

  function byCardHint(v) {
    return (v.option_cards || []).some((c) => c && cardKey(c) !== undefined);
  }

  listen();
}

// The table of a view as a replay shows it: boards (nothing to click), counters, zones, the seat's own.
function table(v, cardNode) {
  seatColours(v);
  return [boardSections(v, null, null), cardAreas(v, cardNode), yours(v, cardNode), counters(v), zones(v, cardNode)];
}

// What tells a card apart on the page: its id; a face-down card of your own, its place
// ("your card 2"); another face-down card, nothing.
function cardKey(c) {
  if (c.id !== undefined) return c.id;
  return c.hidden && c.label ? `place:${c.label}` : undefined;
}

// A card drawn as a card (cards.js, from the view's `faces`): its text on hover, and on a click
// when clicking it chooses nothing. A choosable card has a green edge and is a button.
function card(c, onChoose, faces) {
  const drawing = window.Cards.draw(c, faces);
  const name = c.hidden ? c.label || "face down" : c.label; // yours face down: by its place
  const tip = drawing.querySelector("title").textContent;
  const node = el("div", {
    class: "card" + (c.hidden ? " hidden" : "") + (onChoose ? " option" : ""),
    title: tip,
    tabindex: "0",
    role: onChoose ? "button" : null,
    "aria-label": name,
  }, drawing, el("span", { class: "name" }, name));
  const act = onChoose || (() => node.classList.toggle("reading"));
  if (!onChoose) node.append(el("span", { class: "card-text" }, tip));
  node.addEventListener("click", act);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      act();
    }
  });
  return node;
}

const STACK = 4; // this many face-down cards alike in a row are drawn as one pile
const PILE_AT = 12; // a zone of others with more cards than this, none to choose, is drawn as its top card and a count

function zoneNode(z, cardNode, faces) {
  const nodes = z.cards.length ? piles(z.cards).map(([c, n]) => (n > 1 ? pile(cardNode(c), n) : cardNode(c))) : [];
  const asPile = !z.mine && z.cards.length > PILE_AT && !nodes.some((n) => n.classList.contains("option"));
  const top = asPile ? el("div", { class: "card pile-top" + (z.cards[z.cards.length - 1].hidden ? " hidden" : ""), title: `${z.cards.length} cards; the top one: ${z.cards[z.cards.length - 1].label || "face down"}` },
    window.Cards.counted(z.cards, faces)) : null;
  const open = z.cards.some((c) => !c.hidden); // face-down cards alone: the pile says all there is
  const drawn = asPile ? el("div", { class: "cards" }, top, open ? el("details", { class: "all-cards" },
    el("summary", {}, `all ${z.cards.length}`), el("div", { class: "cards" }, nodes)) : null)
    : el("div", { class: "cards" }, nodes);
  return el("div", { class: "zone" }, el("div", { class: "zone-label" }, `${z.label} (${z.count})`),
    z.cards.length ? drawn : el("div", { class: "empty" }, "empty"));
}

// The cards of a zone as [card, how many]: runs of face-down cards that show the same back are one.
function piles(cards) {
  const out = [];
  for (const c of cards) {
    const last = out[out.length - 1];
    if (c.hidden && last && last[0].hidden && JSON.stringify(last[0]) === JSON.stringify(c)) last[1] += 1;
    else out.push([c, 1]);
  }
  return out.flatMap(([c, n]) => (n >= STACK ? [[c, n]] : Array(n).fill([c, 1])));
}

function pile(node, n) {
  node.classList.add("pile");
  node.querySelector(".name").textContent = `${n} face down`;
  node.append(el("span", { class: "card-count" }, String(n)));
  return node;
}

// Zones grouped by owner: the shared table first, then each other player's; yours are along the bottom.
function zones(v, cardNode) {
  const drawn = new Set(Object.keys(v.drawings || {}));
  const areas = zonesOnAreas(v);
  const onBoards = v.zones.filter((z) => z.display && !z.mine && drawn.has(z.board));
  const shown = v.zones.filter((z) => z.display && !z.mine && !drawn.has(z.board) && !onArea(z, areas));
  const groups = new Map();
  for (const z of shown) {
    const owner = v.players.includes(z.key) ? z.key : "Table";
    if (!groups.has(owner)) groups.set(owner, []);
    groups.get(owner).push(z);
  }
  // What lies on the places of a drawn board is in its picture; the cards themselves on request.
  const listed = onBoards.length ? el("details", { class: "on-boards" },
    el("summary", {}, `The cards on the board (${onBoards.reduce((n, z) => n + z.count, 0)})`),
    onBoards.map((z) => zoneNode(z, cardNode, v.faces))) : null;
  return [...[...groups].map(([owner, list]) => el("section", { class: "owner" }, el("h2", {}, owner),
    list.map((z) => zoneNode(z, cardNode, v.faces)))), listed];
}

// Your own zones, each as the layout lays its family out (a hand as a fan), else as a row.
function yours(v, cardNode) {
  const areas = zonesOnAreas(v);
  const mine = v.zones.filter((z) => z.display && z.mine && !onArea(z, areas));
  return mine.length ? el("section", { class: "yours" }, el("h2", {}, `Yours (${v.you})`),
    el("div", { class: "your-zones" }, mine.map((z) => (areas.has(z.name)
      ? el("div", { class: "zone" }, el("div", { class: "zone-label" }, `${z.label} (${z.count})`),
        lay(areas.get(z.name).as, z.cards, z.count, cardNode))
      : zoneNode(z, cardNode, v.faces))))) : null;
}

// Counters kept per player as a table (a column a player), the others as a list.
function counters(v) {
  const perPlayer = [];
  const others = [];
  for (const [name, value] of Object.entries(v.counters)) {
    const isPer = value && typeof value === "object" && !Array.isArray(value)
      && Object.keys(value).length && Object.keys(value).every((k) => v.players.includes(k));
    if (valueText(value) === "" || valueText(value) === "-") continue; // an empty field says nothing
    const named = (v.counter_labels || {})[name] || name.replace(/_/g, " ");
    (isPer ? perPlayer : others).push([named, value, isPer]);
  }
  const out = [];
  if (perPlayer.length) {
    out.push(el("h2", {}, "Players"), el("table", {},
      el("tr", {}, el("th", {}, ""), v.players.map((p, i) => el("th", {},
        el("span", { class: `swatch seat-${i + 1}` }), p === v.you ? `${p} (you)` : p))),
      perPlayer.map(([name, value]) => el("tr", {}, el("th", {}, name),
        v.players.map((p) => el("td", { class: "num" }, p in value ? valueText(value[p]) : ""))))));
  }
  if (others.length) {
    out.push(el("h2", {}, "Counters"), el("table", {},
      others.map(([name, value]) => el("tr", {}, el("th", {}, name), el("td", {}, valueText(value))))));
  }
  return out;
}

// The log, the lines since this seat's last decision (`seen`: how many lines and forced choices
// it had been shown then) in bold, with the choices the rules made for it at their places.
function news(v, seen) {
  const items = v.log.map((line, i) => ({ text: line, at: i, isNew: i >= seen.log }));
  v.forced.forEach((f, i) => {
    if (i >= seen.forced) items.push({ text: f.text, at: f.at - 0.5, isNew: true });
  });
  items.sort((a, b) => a.at - b.at);
  const newCount = items.filter((i) => i.isNew).length;
  return [el("h2", {}, newCount ? `Log (${newCount} new since your last decision, in bold)` : "Log"),
    items.length ? el("ol", { class: "log" }, items.map((i) => el("li", { class: i.isNew ? "new" : null }, i.text)))
      : el("p", { class: "empty" }, "Nothing has happened yet.")];
}

function results(r) {
  return el("section", { class: "decision results" }, el("h2", {}, "Final scores"),
    el("table", {}, el("tr", {}, el("th", {}, "player"), r.parts.map((p) => el("th", {}, p)), el("th", {}, "score")),
      r.players.map((p) => el("tr", {}, el("td", {}, p.player), p.parts.map((x) => el("td", { class: "num" }, valueText(x))),
        el("td", { class: "num" }, valueText(p.score))))),
    el("p", {}, `Winner(s): ${r.winners.join(", ")}`));
}

const seatRoute = location.pathname.match(/^\/play\/([^/]+)\/([^/]+)$/);
const replayRoute = location.pathname.match(/^\/replay\/([^/]+)$/); // replay.js
if (seatRoute) seatPage(seatRoute[1], seatRoute[2]);
else if (replayRoute) replayPage(replayRoute[1]);
else startPage();
